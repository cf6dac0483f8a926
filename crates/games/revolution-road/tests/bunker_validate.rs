//! Bunker Hill positions whose step does not fit the board (issue 15): real positions from
//! random play, changed in one member the way the core test kit and `bunker_mutation.rs`
//! found accepted mutants drifting into invalid play, each refused with `bad_position`
//! naming the member and the rule. The real position itself always loads.

use muster_core::{Dice, ErrorKind, Game, Options, Session};
use muster_revolution_road::Bunker;
use muster_revolution_road::bunker::state::*;
use serde_json::{Value, json};
use std::sync::Arc;

fn game() -> Arc<Bunker> {
    Arc::new(Bunker::new().unwrap())
}

/// The first position of random play (in some game of `scenario`) whose state passes `pick`.
fn find(g: &Arc<Bunker>, scenario: &str, pick: impl Fn(&Bunker, &State) -> bool) -> Value {
    let mut acts = Vec::new();
    for seed in 0..400 {
        let mut m = Session::new(g.clone(), scenario, &Options::new(), 7_000 + seed).unwrap();
        let mut dice = Dice::from_seed(seed);
        while let Some(side) = g.to_act(m.state()) {
            if pick(g, m.state()) {
                let p = m.position();
                Session::load(g.clone(), &p).expect("a position of random play loads");
                return p;
            }
            g.legal_actions(m.state(), &mut acts);
            let a = acts[dice.below(acts.len() as u32) as usize];
            m.act_parsed(side, a).unwrap();
        }
    }
    panic!("no such position in 400 games of {scenario}");
}

/// Loads `p` and expects `bad_position` with a message naming `path` and citing `rule`.
fn refused(g: &Arc<Bunker>, p: &Value, path: &str, rule: &str) {
    match Session::load(g.clone(), p) {
        Ok(_) => panic!("accepted: {}", p["state"]),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::BadPosition, "{}", e.message);
            assert!(
                e.message.starts_with(path) && e.message.contains(rule),
                "the message names {path} and {rule}: {}",
                e.message
            );
        }
    }
}

fn region(g: &Bunker, id: &str) -> u8 {
    g.region_of(id).unwrap()
}

#[test]
fn rule_6_8_reorganize_the_line_only_between_adjacent_regions_free_of_the_enemy() {
    let g = game();
    // A reorganization just begun, one of its regions holding none of the mover's counters.
    let p = find(&g, "standard", |_, s| {
        if !s.tasks.is_empty() || s.sel != 0 {
            return false;
        }
        let Phase::Reorg { a, b } = s.phase else {
            return false;
        };
        let mine = |r: u8| s.units.iter().any(|u| u.side == s.mover && u.at == r);
        !mine(a) || !mine(b)
    });
    let s = &p["state"];
    let (a, b) = (
        s["phase"]["a"].as_u64().unwrap() as u8,
        s["phase"]["b"].as_u64().unwrap() as u8,
    );
    let mover = s["mover"].as_u64().unwrap();
    let empty = if s["units"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["side"] == mover && u["at"] == a)
    {
        b
    } else {
        a
    };
    // The fuzz case: an enemy counter (a British Marine still on the turn track) put into
    // the region the Patriot is shifting into; shifting there would have the sides share it.
    let enemy = s["units"]
        .as_array()
        .unwrap()
        .iter()
        .position(|u| u["side"] != mover && u["kind"] != "battery" && u["at"] == PENDING)
        .or_else(|| {
            s["units"]
                .as_array()
                .unwrap()
                .iter()
                .position(|u| u["side"] != mover && u["kind"] == "leader")
        })
        .unwrap();
    let mut q = p.clone();
    q["state"]["units"][enemy]["at"] = json!(empty);
    q["state"]["units"][enemy]["arrive"] = json!(0);
    refused(&g, &q, "state.phase", "6.8");
    // Regions that are not adjacent (the mutation test's `phase.b`).
    let far = (0..60u8)
        .find(|&r| r > a && g.dist(a, r) >= 2 && g.dist(a, r) != 255)
        .unwrap();
    let mut q = p.clone();
    q["state"]["phase"]["b"] = json!(far);
    refused(&g, &q, "state.phase", "6.8");
}

#[test]
fn rule_6_10_troops_land_only_in_a_staging_area_next_to_their_landing_zone() {
    let g = game();
    let p = find(&g, "standard", |_, s| {
        matches!(s.phase, Phase::Land { .. }) && s.sel != 0
    });
    let s = &p["state"];
    let zone = s["phase"]["zone"].as_u64().unwrap() as u8;
    // A region that is not a staging area (the mutation test's `phase.to`).
    let mut q = p.clone();
    q["state"]["phase"]["to"] = json!(region(&g, "bunker-slope-n"));
    refused(&g, &q, "state.phase", "6.10");
    // A picked counter that is not in the landing zone (the mutation test's `sel`).
    let away = s["units"]
        .as_array()
        .unwrap()
        .iter()
        .position(|u| u["side"] == 1 && u["at"] != zone && u["kind"] != "battery")
        .unwrap();
    let mut sel: Vec<u64> = s["sel"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    sel.push(away as u64);
    sel.sort();
    sel.dedup();
    let mut q = p.clone();
    q["state"]["sel"] = json!(sel);
    refused(&g, &q, "state.sel", "6.10");
}

#[test]
fn rule_6_1_a_volley_fires_only_units_of_the_firing_region() {
    let g = game();
    let p = find(&g, "standard", |_, s| {
        matches!(s.phase, Phase::Volley { .. })
    });
    let s = &p["state"];
    let from = s["phase"]["from"].clone();
    let mover = s["mover"].clone();
    let away = s["units"]
        .as_array()
        .unwrap()
        .iter()
        .position(|u| u["side"] == mover && u["at"] != from && u["at"].as_u64().unwrap() < 60)
        .unwrap();
    let mut q = p.clone();
    q["state"]["sel"] = json!([away]);
    refused(&g, &q, "state.sel", "6.1");
}

/// The known open case of issue 15: a volley position with its target changed to the Neck.
/// Every volley position of random play so changed is refused, or (when the Neck holds the
/// enemy within range and sight, so the volley could have been chosen) plays on with every
/// position reached loading again: no enemies left sharing the Neck outside a combat.
#[test]
fn rule_6_1_a_volley_aimed_at_the_neck_is_refused_or_plays_on_soundly() {
    let g = game();
    let neck = region(&g, "neck");
    let mut acts = Vec::new();
    let (mut refused, mut accepted) = (0, 0);
    for seed in 0..80u64 {
        let mut m = Session::new(g.clone(), "standard", &Options::new(), 9_000 + seed).unwrap();
        let mut dice = Dice::from_seed(seed);
        while let Some(side) = g.to_act(m.state()) {
            if matches!(m.state().phase, Phase::Volley { .. }) {
                let mut q = m.position();
                q["state"]["phase"]["to"] = json!(neck);
                match Session::load(g.clone(), &q) {
                    Err(e) => {
                        assert_eq!(e.kind, ErrorKind::BadPosition);
                        refused += 1;
                    }
                    Ok(mut v) => {
                        accepted += 1;
                        let mut d = Dice::from_seed(seed + 1);
                        for _ in 0..30 {
                            let back = Session::load(g.clone(), &v.position());
                            assert!(back.is_ok(), "{}", back.err().unwrap().message);
                            let Some(side) = g.to_act(v.state()) else {
                                break;
                            };
                            g.legal_actions(v.state(), &mut acts);
                            let a = acts[d.below(acts.len() as u32) as usize];
                            v.act_parsed(side, a).unwrap();
                        }
                    }
                }
            }
            g.legal_actions(m.state(), &mut acts);
            let a = acts[dice.below(acts.len() as u32) as usize];
            m.act_parsed(side, a).unwrap();
        }
    }
    println!("volleys turned on the Neck: {refused} refused, {accepted} accepted and played on");
    assert!(refused > 0);
}

#[test]
fn rule_6_2_an_assault_is_launched_into_an_adjacent_region_by_the_mover() {
    let g = game();
    let p = find(&g, "standard", |_, s| {
        s.tasks.is_empty()
            && s.phase
                == Phase::Assault {
                    stage: Stage::Select,
                }
    });
    let s = &p["state"];
    let from = s["fight"]["from"].as_u64().unwrap() as u8;
    let far = (0..60u8)
        .find(|&r| g.dist(from, r) == 2 && r != region(&g, "neck"))
        .unwrap();
    let mut q = p.clone();
    q["state"]["fight"]["to"] = json!(far);
    refused(&g, &q, "state.fight", "6.2");
    let mut q = p.clone();
    q["state"]["fight"]["attacker"] = json!(1 - s["mover"].as_u64().unwrap());
    refused(&g, &q, "state.fight.attacker", "6.2");
}

#[test]
fn rule_9_2_a_side_is_demoralized_exactly_when_its_morale_is_0() {
    let g = game();
    let p = find(&g, "standard", |_, s| s.turn == 3 && s.phase == Phase::Main);
    let mut q = p.clone();
    q["state"]["morale"][0] = json!(0);
    refused(&g, &q, "state.demoralized[0]", "9.2");
    let mut q = p.clone();
    q["state"]["demoralized"][1] = json!(true);
    refused(&g, &q, "state.demoralized[1]", "9.3");
}

/// 9.2: the hit that takes the Patriot morale to 0 sends every militia three regions toward
/// the Muster Box; a militia destroyed by the next hit of the same fire has no flight left
/// to make, and the position stays loadable.
#[test]
fn rule_9_2_a_militia_destroyed_after_the_demoralizing_hit_leaves_no_flight_behind() {
    let g = game();
    // A quiet moment with a healthy militia alone on the map in its region.
    let p = find(&g, "standard", |_, s| {
        s.tasks.is_empty()
            && s.phase == Phase::Main
            && s.units.iter().any(|u| {
                u.kind == Kind::Militia
                    && u.side == PATRIOT
                    && u.on_map()
                    && !u.broken()
                    && s.units.iter().filter(|v| v.at == u.at).count() == 1
            })
    });
    let s = &p["state"];
    let units = s["units"].as_array().unwrap();
    let mil = units
        .iter()
        .enumerate()
        .position(|(i, u)| {
            u["kind"] == "militia"
                && u["side"] == 0
                && u["at"].as_u64().unwrap() < 60
                && u.get("flags").is_none_or(|f| f.as_u64().unwrap() & 1 == 0)
                && units
                    .iter()
                    .enumerate()
                    .filter(|(j, v)| *j != i && v["at"] == u["at"])
                    .count()
                    == 0
        })
        .unwrap();
    let r = units[mil]["at"].clone();
    let mut q = p.clone();
    q["state"]["morale"][0] = json!(1);
    q["state"]["tasks"] = json!([{"task": "hits", "side": 0, "region": r, "n": 2, "mode": "any"}]);
    let mut m = Session::load(g.clone(), &q).unwrap();
    let mut acts = Vec::new();
    for _ in 0..2 {
        g.legal_actions(m.state(), &mut acts);
        assert_eq!(acts.len(), 1, "the militia alone takes the hits");
        let side = g.to_act(m.state()).unwrap();
        m.act_parsed(side, acts[0]).unwrap();
    }
    let st = m.state();
    assert!(st.demoralized[0]);
    assert_eq!(st.units[mil].at, REMOVED);
    assert!(
        !st.tasks
            .iter()
            .any(|t| matches!(*t, Task::Flee { unit, .. } if unit as usize == mil)),
        "no flight for the removed militia: {:?}",
        st.tasks
    );
    Session::load(g.clone(), &m.position()).expect("the position after the hits loads");
}

#[test]
fn rule_12_3_the_objective_is_chosen_before_turn_1_and_sets_the_last_turn_and_zones() {
    let g = game();
    let p = find(&g, "solitaire-british", |_, s| s.phase == Phase::Objective);
    let mut q = p.clone();
    q["state"]["turn"] = json!(10);
    refused(&g, &q, "state.phase", "12.3");
    // Objectives of "any three" picked before any objective is chosen (the fuzz case).
    let mut q = p.clone();
    q["state"]["solo"]["targets"] = json!(7);
    refused(&g, &q, "state.solo", "12.3");
    let p = find(&g, "solitaire-british", |_, s| {
        s.phase == Phase::Main && s.solo.objective == 2
    });
    let mut q = p.clone();
    q["state"]["last_turn"] = json!(10);
    refused(&g, &q, "state.last_turn", "12.3");
    let mut q = p.clone();
    q["state"]["solo"]["objective"] = json!(8);
    refused(&g, &q, "state.solo.objective", "12.3");
    // Landing zones other than the objective's: an upgrade to "any three" would keep three
    // and have no zone left to pick (the fuzz case).
    let mut q = p.clone();
    q["state"]["solo"]["zones"] = json!(1 << 2 | 1 << 3 | 1 << 6);
    refused(&g, &q, "state.solo", "12.2");
}

#[test]
fn rule_5_3_fire_spreads_only_from_a_burning_town_region() {
    let g = game();
    let p = find(&g, "standard", |_, s| s.turn == 2 && s.phase == Phase::Main);
    // From the Muster Box (a region index with no map region behind it) and from a town
    // region not on fire.
    for from in [MUSTER, region(&g, "town-5")] {
        let mut q = p.clone();
        q["state"]["ablaze"] = json!(0);
        q["state"]["tasks"] = json!([{"task": "spread", "from": from}, {"task": "next-turn"}]);
        refused(&g, &q, "state.tasks[0]", "5.3");
    }
}

/// 9.1: a panicked British unit hit by ranged fire would have fled toward the Muster Box,
/// which no British counter enters (3.2); Panic markers and flights are the Patriot's.
#[test]
fn rule_9_1_only_broken_patriot_militia_and_minutemen_panic_and_flee() {
    let g = game();
    let p = find(&g, "standard", |_, s| s.turn == 2 && s.phase == Phase::Main);
    let units = p["state"]["units"].as_array().unwrap();
    let on_map = |side: u64, kind: &str| {
        units
            .iter()
            .position(|u| u["side"] == side && u["kind"] == kind && u["at"].as_u64().unwrap() < 60)
            .unwrap()
    };
    let regular = on_map(1, "regular");
    let mut q = p.clone();
    q["state"]["units"][regular]["flags"] = json!(BROKEN | PANIC);
    refused(&g, &q, &format!("state.units[{regular}].flags"), "9.1");
    let mm = on_map(0, "minuteman");
    let mut q = p.clone();
    q["state"]["units"][mm]["flags"] = json!(PANIC);
    refused(&g, &q, &format!("state.units[{mm}].flags"), "9.1");
    let mut q = p.clone();
    q["state"]["tasks"] = json!([{"task": "flee", "unit": regular, "steps": 3}]);
    refused(&g, &q, "state.tasks[0]", "9.1");
}

/// 6.2: an attacker that loses falls back to the region of launch; units put there during
/// the assault (the fuzz case: a militia into the Neck a Patriot assault left) would
/// over-stack it when the attackers come back.
#[test]
fn rule_6_2_the_attacker_falls_back_to_a_region_with_room_for_him() {
    let g = game();
    let p = find(&g, "standard", |g, s| {
        s.tasks.is_empty()
            && matches!(
                s.phase,
                Phase::Assault {
                    stage: Stage::AttBack | Stage::DefBack
                }
            )
            && g.cap(s.fight.attacker, s.fight.from) == 3
    });
    let s = &p["state"];
    let (attacker, from) = (s["fight"]["attacker"].clone(), s["fight"]["from"].clone());
    let to = s["fight"]["to"].clone();
    let units = s["units"].as_array().unwrap();
    let mut q = p.clone();
    let mut added = 0;
    for (i, u) in units.iter().enumerate() {
        let military = !matches!(u["kind"].as_str(), Some("leader" | "battery"));
        let away = u["at"] != from && u["at"] != to && u["at"] != REMOVED && u["at"] != MUSTER;
        if u["side"] == attacker && military && away && added < 3 {
            q["state"]["units"][i]["at"] = from.clone();
            added += 1;
        }
    }
    refused(&g, &q, "state.fight", "6.2");
}

#[test]
fn rule_6_2_an_assaults_hits_are_taken_in_the_assaulted_region() {
    let g = game();
    let p = find(&g, "standard", |_, s| {
        matches!(s.phase, Phase::Assault { .. })
            && matches!(s.tasks.first(), Some(Task::Hits { .. }))
    });
    // The fuzz case: the fight of another assault, its hits in a region it is not fought in.
    let mut q = p.clone();
    q["state"]["tasks"][0]["region"] = p["state"]["fight"]["from"].clone();
    refused(&g, &q, "state.tasks[0]", "6.2");
}

/// The first task is decided before anything else, so no counter is picked while one is
/// pending (the fuzz case: a counter selected during a retreat before the free fire).
#[test]
fn nothing_is_picked_while_tasks_are_resolved() {
    let g = game();
    let p = find(&g, "standard", |_, s| {
        matches!(s.phase, Phase::Assault { .. }) && !s.tasks.is_empty()
    });
    let mut q = p.clone();
    q["state"]["sel"] = json!([0]);
    refused(&g, &q, "state.sel", "tasks");
}

/// 6.2: the assaulting units move into the target region once they are picked; before that
/// it holds only the defender's counters (the fuzz case: a Patriot put into the British
/// region being assaulted, counted among its defenders).
#[test]
fn rule_6_2_the_target_of_an_assault_holds_only_the_defender_until_the_attack() {
    let g = game();
    let p = find(&g, "standard", |_, s| {
        s.tasks.is_empty()
            && s.phase
                == Phase::Assault {
                    stage: Stage::Select,
                }
    });
    let s = &p["state"];
    let (attacker, from, to) = (
        s["fight"]["attacker"].clone(),
        s["fight"]["from"].clone(),
        s["fight"]["to"].clone(),
    );
    let leader = s["units"]
        .as_array()
        .unwrap()
        .iter()
        .position(|u| u["side"] == attacker && u["kind"] == "leader" && u["at"] != from)
        .unwrap();
    let mut q = p.clone();
    q["state"]["units"][leader]["at"] = to;
    refused(&g, &q, "state.fight", "6.2");
}
