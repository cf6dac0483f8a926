//! Issue 15: every position is valid or refused, and no input can crash the engine. Each
//! position that once crashed `muster engine` (exit 101) is loaded here and must be refused
//! with `bad_position`, naming the member at fault; so must the accepted-but-invalid
//! positions a review found and unknown members anywhere in the state. A mutation test then
//! changes positions from random games member by member and checks that each result is either
//! refused or plays on without a panic.

mod common;
use common::*;
use muster_core::{Dice, ErrorKind, Game, Options, Session, Viewer};
use muster_revolution_road::Concord;
use muster_revolution_road::concord::state::*;
use serde_json::{Value, json};
use std::sync::Arc;

/// A position of a game played `steps` random decisions from `seed`.
fn position(g: &Arc<Concord>, scenario: &str, seed: u64, steps: usize) -> Value {
    let mut s = Session::new(g.clone(), scenario, &Options::new(), seed).unwrap();
    let mut pick = Dice::from_seed(seed ^ 9);
    let mut actions = Vec::new();
    for _ in 0..steps {
        let Some(side) = g.to_act(s.state()) else {
            break;
        };
        g.legal_actions(s.state(), &mut actions);
        let a = actions[pick.below(actions.len() as u32) as usize];
        s.act_parsed(side, a).unwrap();
    }
    s.position()
}

/// Plays a position until it reaches `want`.
fn position_where(g: &Arc<Concord>, want: impl Fn(&State) -> bool) -> Value {
    for seed in 0..400 {
        for scenario in ["standard", "solitaire-british", "solitaire-patriot"] {
            let mut s = Session::new(g.clone(), scenario, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed ^ 21);
            let mut actions = Vec::new();
            while let Some(side) = g.to_act(s.state()) {
                if want(s.state()) {
                    return s.position();
                }
                g.legal_actions(s.state(), &mut actions);
                let a = actions[pick.below(actions.len() as u32) as usize];
                s.act_parsed(side, a).unwrap();
            }
        }
    }
    panic!("no random game reached the wanted position");
}

/// Loads a position: `Ok` or the refusal's message; any other error kind fails the test.
fn load(g: &Arc<Concord>, p: &Value) -> Result<Session<Concord>, String> {
    match Session::load(g.clone(), p) {
        Ok(s) => Ok(s),
        Err(e) if e.kind == ErrorKind::BadPosition => Err(e.message),
        Err(e) => panic!("refused with {:?}, not bad_position: {}", e.kind, e.message),
    }
}

/// The position with `f` applied to its state is refused; the message names `path`, from the
/// position (`state.…`) as the JSON reader's messages do.
fn refused(g: &Arc<Concord>, p: &Value, path: &str, f: impl FnOnce(&mut Value)) {
    let mut p = p.clone();
    f(&mut p["state"]);
    match load(g, &p) {
        Ok(_) => panic!("accepted a position with a bad {path}"),
        Err(m) => {
            assert!(m.contains(path), "{path}: the refusal names it: {m}");
            assert!(
                m.starts_with("state."),
                "{path}: the path is from the position: {m}"
            );
        }
    }
}

#[test]
fn a_refusal_of_the_checks_names_the_member_by_its_path_from_the_position() {
    // Before issue 15 the checks said `mover: …` where the JSON reader says `state.mover: …`.
    let g = arc();
    let p = position(&g, "standard", 2, 30);
    let mut bad = p.clone();
    bad["state"]["mover"] = json!(2);
    let m = load(&g, &bad).err().expect("mover 2 is refused");
    assert!(m.starts_with("state.mover: "), "{m}");
    let mut bad = p.clone();
    bad["state"]["mover"] = json!("x");
    let m = load(&g, &bad)
        .err()
        .expect("a mover that is no number is refused");
    assert!(m.starts_with("state.mover: "), "{m}");
}

fn arc() -> Arc<Concord> {
    Arc::new(game())
}

#[test]
fn real_positions_load() {
    let g = arc();
    for scenario in ["standard", "solitaire-british", "solitaire-patriot"] {
        for seed in 0..20 {
            for steps in [0, 5, 40, 150, 400] {
                let p = position(&g, scenario, seed, steps);
                load(&g, &p).unwrap_or_else(|m| panic!("{scenario} {seed} {steps}: {m}"));
            }
        }
    }
}

#[test]
fn issue_15_riders_rider_200_is_refused() {
    // riders.rs: `s.units[rider]` with a rider that is no unit.
    let g = arc();
    let p = position(&g, "standard", 1, 0);
    assert!(p["state"]["phase"]["riders"].is_object());
    refused(&g, &p, "phase.riders.rider", |s| {
        s["phase"]["riders"]["rider"] = json!(200)
    });
    // A unit that is not a Nightrider.
    refused(&g, &p, "phase.riders.rider", |s| {
        s["phase"]["riders"]["rider"] = json!(0)
    });
    refused(&g, &p, "phase.riders.ap", |s| {
        s["phase"]["riders"]["ap"] = json!(99)
    });
}

#[test]
fn issue_15_mover_2_is_refused() {
    // sequence.rs: `s.actions[1 - mover]` and `to_act` with a side that is not one.
    let g = arc();
    let p = position(&g, "standard", 2, 30);
    for m in [2, 3, 255] {
        refused(&g, &p, "mover", |s| s["mover"] = json!(m));
    }
}

#[test]
fn issue_15_deck_known_99_is_refused() {
    // Deck::seen_by overflowed its two-card buffer when `view` showed the peek.
    let g = arc();
    let p = position(&g, "standard", 3, 30);
    refused(&g, &p, "deck.known", |s| {
        s["deck"]["known"] = json!([99, 99])
    });
    refused(&g, &p, "deck.known", |s| s["deck"]["known"] = json!([3, 0]));
}

#[test]
fn issue_15_battle_attacker_2_is_refused() {
    // combat.rs: `pending[attacker]`, `1 - attacker`.
    let g = arc();
    let p = position_where(&g, |s| {
        matches!(s.phase, Phase::Defenders | Phase::FireMode)
    });
    for a in [2, 7, 255] {
        refused(&g, &p, "battle.attacker", |s| {
            s["battle"]["attacker"] = json!(a)
        });
    }
    refused(&g, &p, "battle.region", |s| {
        s["battle"]["region"] = json!(200)
    });
    refused(&g, &p, "battle.attackers", |s| {
        s["battle"]["attackers"] = json!(1u64 << 63)
    });
}

#[test]
fn issue_15_region_200_is_refused() {
    // pieces.rs / sequence.rs: per-region tables indexed by a unit's region.
    let g = arc();
    let p = position(&g, "standard", 4, 20);
    refused(&g, &p, "units[0]", |s| {
        s["units"][0]["at"] = json!({"at": 200})
    });
    refused(&g, &p, "units[0]", |s| {
        s["units"][0]["at"] = json!({"edge": 9})
    });
    refused(&g, &p, "hinder[0].region", |s| {
        s["hinder"][0] = json!({"map": {"region": 200, "turns": 2}})
    });
}

#[test]
fn issue_15_british_in_2_pow_32_is_refused() {
    // pieces.rs: `gather[r]` for each region a British unit left, from `british_in`.
    let g = arc();
    let p = position(&g, "standard", 5, 20);
    refused(&g, &p, "british_in", |s| {
        s["british_in"] = json!(1u64 << 32)
    });
    refused(&g, &p, "british_in", |s| {
        s["british_in"] = json!(1u64 << 62)
    });
    refused(&g, &p, "ambushed", |s| s["ambushed"] = json!(u64::MAX));
}

#[test]
fn issue_15_review_cases_are_refused() {
    let g = arc();
    let p = position(&g, "standard", 6, 60);
    // Card 99, in a pile and as the turn's card.
    refused(&g, &p, "deck.draw", |s| {
        let n = s["deck"]["draw"].as_array().unwrap().len();
        s["deck"]["draw"][n - 1] = json!(99)
    });
    refused(&g, &p, "card", |s| s["card"] = json!(99));
    // A card missing or twice.
    refused(&g, &p, "deck", |s| {
        s["deck"]["draw"].as_array_mut().unwrap().pop();
    });
    // Gather values 99.
    refused(&g, &p, "gather[0]", |s| s["gather"][0] = json!(99));
    refused(&g, &p, "arms[0]", |s| s["arms"][0] = json!(99));
    // Over without ended, and ended without over.
    refused(&g, &p, "ended", |s| s["phase"] = json!("over"));
    refused(&g, &p, "phase", |s| {
        s["ended"] = json!({"winner": 0, "automatic": false})
    });
    refused(&g, &p, "ended.winner", |s| {
        s["ended"] = json!({"winner": 5, "automatic": false});
        s["phase"] = json!("over");
    });
    // Tracks.
    refused(&g, &p, "actions", |s| s["actions"] = json!([9, 0]));
    refused(&g, &p, "reserves", |s| s["reserves"] = json!([3, 0]));
    refused(&g, &p, "turn", |s| s["turn"] = json!(40));
    refused(&g, &p, "vp[0]", |s| s["vp"][0][0] = json!(30000));
    // The pool: more pieces than the cup holds, or not conserved.
    refused(&g, &p, "pool[0]", |s| s["pool"][0] = json!(200));
    refused(&g, &p, "pool[1]", |s| {
        let v = s["pool"][1].as_u64().unwrap();
        s["pool"][1] = json!(v.saturating_sub(1))
    });
}

#[test]
fn issue_15_a_regular_in_an_alert_box_is_refused() {
    let g = arc();
    let p = position(&g, "standard", 7, 10);
    let alert_box = g.data.map.regions.iter().position(|r| r.alert_box).unwrap();
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    let setup = g.setup(&st);
    let reg = setup
        .roster
        .iter()
        .position(|d| d.kind == Kind::Regular)
        .unwrap();
    refused(&g, &p, &format!("units[{reg}]"), |s| {
        s["units"][reg]["at"] = json!({ "at": alert_box })
    });
}

#[test]
fn issue_15_the_phase_must_fit_the_board() {
    let g = arc();
    // A Minuteman's free move for a unit that is not waiting for one.
    let p = position_where(&g, |s| matches!(s.phase, Phase::Muster { .. }));
    refused(&g, &p, "phase.muster.unit", |s| {
        s["phase"]["muster"]["unit"] = json!(0)
    });
    refused(&g, &p, "phase.muster.unit", |s| {
        s["phase"]["muster"]["unit"] = json!(200)
    });
    // Hits for a side that is not one, in a region that is not one.
    let p = position_where(&g, |s| matches!(s.phase, Phase::Hits { .. }));
    refused(&g, &p, "phase.hits.side", |s| {
        s["phase"]["hits"]["side"] = json!(2)
    });
    refused(&g, &p, "phase.hits.region", |s| {
        s["phase"]["hits"]["region"] = json!(200)
    });
    // A move from a region that is not one.
    let p = position_where(&g, |s| matches!(s.phase, Phase::Move { .. }));
    refused(&g, &p, "phase.move.from", |s| {
        s["phase"]["move"]["from"] = json!(200)
    });
}

#[test]
fn issue_15_unknown_members_are_refused_everywhere() {
    let g = arc();
    let p = position(&g, "standard", 1, 0);
    let extra = |s: &mut Value| s["phase"]["riders"]["extra"] = json!(1);
    let mut q = p.clone();
    extra(&mut q["state"]);
    let m = load(&g, &q).err().expect("an unknown member in phase");
    assert!(m.contains("state.phase") && m.contains("extra"), "{m}");
    let battle = position_where(&g, |s| matches!(s.phase, Phase::Hits { .. }));
    for (what, f) in [
        (
            "state.extra",
            Box::new(|s: &mut Value| s["extra"] = json!(1)) as Box<dyn Fn(&mut Value)>,
        ),
        (
            "state.units",
            Box::new(|s: &mut Value| s["units"][0]["extra"] = json!(1)),
        ),
        (
            "state.battle",
            Box::new(|s: &mut Value| s["battle"]["extra"] = json!(1)),
        ),
        (
            "state.deck",
            Box::new(|s: &mut Value| s["deck"]["extra"] = json!(1)),
        ),
        (
            "state.options",
            Box::new(|s: &mut Value| s["options"]["extra"] = json!(1)),
        ),
        (
            "state.phase",
            Box::new(|s: &mut Value| s["phase"]["hits"]["extra"] = json!(1)),
        ),
        (
            "state.hinder",
            Box::new(|s: &mut Value| {
                s["hinder"][0] = json!({"map": {"region": 1, "turns": 2, "extra": 1}})
            }),
        ),
        (
            "state.ended",
            Box::new(|s: &mut Value| {
                s["ended"] = json!({"winner": 0, "automatic": false, "extra": 1});
                s["phase"] = json!("over");
            }),
        ),
    ] {
        let mut q = battle.clone();
        f(&mut q["state"]);
        let m = load(&g, &q)
            .err()
            .unwrap_or_else(|| panic!("{what}: accepted"));
        assert!(m.contains(what), "{what}: {m}");
    }
}

/// The values a mutation tries for a number.
const NUMBERS: [i64; 9] = [0, 1, 2, 3, 5, 22, 200, 255, 1 << 32];

/// Every path to a leaf of `v`.
fn leaves(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(json!(k));
                leaves(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(json!(i));
                leaves(x, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn at_mut<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match k {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

/// Everything a client can ask of an accepted position: views, text, legal actions, and a
/// few random decisions.
fn exercise(g: &Arc<Concord>, mut s: Session<Concord>, seed: u64) {
    let st = s.state().clone();
    for v in [
        Viewer::Side(PATRIOT),
        Viewer::Side(BRITISH),
        Viewer::Spectator,
    ] {
        let _ = serde_json::to_string(&g.view(&st, v)).unwrap();
        let _ = g.render_text(&st, v);
    }
    let _ = g.outcome(&st);
    let _ = g.prompt(&st);
    let mut pick = Dice::from_seed(seed);
    let mut actions = Vec::new();
    for _ in 0..30 {
        let Some(side) = g.to_act(s.state()) else {
            break;
        };
        g.legal_actions(s.state(), &mut actions);
        assert!(
            !actions.is_empty(),
            "an accepted position offers a decision"
        );
        for a in &actions {
            let _ = g.label(s.state(), *a);
            let _ = g.notation(s.state(), *a);
        }
        let a = actions[pick.below(actions.len() as u32) as usize];
        s.act_parsed(side, a).unwrap();
    }
}

#[test]
fn mutated_positions_are_refused_or_play_on_without_a_panic() {
    let g = arc();
    let (mut inputs, mut refusals, mut accepted, mut panics) = (0u32, 0u32, 0u32, Vec::new());
    let bases: Vec<Value> = ["standard", "solitaire-british", "solitaire-patriot"]
        .iter()
        .flat_map(|sc| {
            let g = g.clone();
            (0..3u64).flat_map(move |seed| {
                [0, 25, 90, 200]
                    .into_iter()
                    .map(|n| position(&g, sc, seed, n))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let prev = std::panic::take_hook();
    let last = Arc::new(std::sync::Mutex::new(String::new()));
    let hook_last = last.clone();
    std::panic::set_hook(Box::new(move |info| {
        *hook_last.lock().unwrap() = format!(
            "{} at {}",
            info.payload_as_str().unwrap_or("?"),
            info.location().map_or("?".into(), |l| l.to_string())
        );
    }));
    for (b, base) in bases.iter().enumerate() {
        let mut paths = Vec::new();
        leaves(&base["state"], &mut Vec::new(), &mut paths);
        for (k, path) in paths.iter().enumerate() {
            // The dice's internals are opaque words; every value there is a valid generator.
            if path.first() == Some(&json!("dice")) {
                continue;
            }
            let old = at_mut(&mut base["state"].clone(), path).clone();
            let tries: Vec<Value> = match old {
                Value::Bool(x) => vec![json!(!x)],
                Value::Number(_) => NUMBERS.iter().map(|n| json!(n)).collect(),
                Value::String(_) => vec![json!("over"), json!("x")],
                Value::Null => vec![json!(0)],
                _ => vec![],
            };
            for t in tries {
                let mut p = base.clone();
                *at_mut(&mut p["state"], path) = t.clone();
                inputs += 1;
                let seed = (b * 1000 + k) as u64;
                let r =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match load(&g, &p) {
                        Ok(s) => {
                            exercise(&g, s, seed);
                            true
                        }
                        Err(_) => false,
                    }));
                match r {
                    Ok(true) => accepted += 1,
                    Ok(false) => refusals += 1,
                    Err(_) => panics.push(format!(
                        "base {b}: {path:?} = {t}: {}",
                        last.lock().unwrap()
                    )),
                }
            }
        }
    }
    std::panic::set_hook(prev);
    eprintln!(
        "mutations: {inputs} inputs, {refusals} refused, {accepted} accepted, {} panics",
        panics.len()
    );
    assert!(
        panics.is_empty(),
        "panics: {:#?}",
        &panics[..panics.len().min(40)]
    );
}

#[test]
fn rule_6_2_an_assault_needs_a_unit_in_its_origin_able_to_carry_it() {
    // Found by the core kit: in a solitaire-british game (data/concord-assault-into-concord.json,
    // a real position) the British pick units for an Assault from the Sudbury road country
    // into Concord; the one Regular there able to carry it (`units[14]`) is moved to Lincoln.
    // The position was accepted, and after "pick smith" (a leader may join an Assault but not
    // carry it) the British had no legal action: no unit left to pick, and no done.
    let g = arc();
    let region = |id: &str| g.data.map.regions.iter().position(|r| r.id == id).unwrap();
    let p: Value =
        serde_json::from_str(include_str!("data/concord-assault-into-concord.json")).unwrap();
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    assert_eq!(st.phase, Phase::Attackers);
    let sudbury = region("sudbury-road") as u8;
    assert_eq!(
        (st.battle.from, st.battle.region),
        (sudbury, region("concord") as u8)
    );
    assert_eq!(st.units[14].at, Loc::At(sudbury));
    load(&g, &p).expect("the real position loads");
    refused(&g, &p, "battle.attackers", |s| {
        s["units"][14]["at"] = json!({ "at": region("lincoln") })
    });
    let mut q = p.clone();
    q["state"]["units"][14]["at"] = json!({ "at": region("lincoln") });
    let m = load(&g, &q).err().unwrap();
    assert!(m.contains("6.2"), "the refusal cites the rule: {m}");
}

#[test]
fn rule_7_0_attackers_stay_in_the_battle_until_the_retreat_after_combat() {
    // Found by a mutation search: an attacker moved away while the defender takes the hit of
    // its retreat before combat (7.1.2) was accepted, and refused only after the hit.
    let g = arc();
    let p = position_where(&g, |s| {
        matches!(
            s.phase,
            Phase::Hits {
                then: Then::RetreatMoved,
                ..
            }
        ) && s.battle.attackers != 0
    });
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    let u = st.battle.attackers.trailing_zeros() as usize;
    let away = (0..g.data.map.regions.len())
        .find(|r| {
            *r as u8 != st.battle.region
                && *r as u8 != st.battle.from
                && !g.data.map.regions[*r].alert_box
        })
        .unwrap();
    refused(&g, &p, "battle.attackers", |s| {
        s["units"][u]["at"] = json!({ "at": away })
    });
}

#[test]
fn rule_5_2_every_step_of_a_battle_is_the_mover_s() {
    // Found by the core kit: the mover changed while a Charge's hits were being taken (6.3)
    // was accepted, and refused after the hit.
    let g = arc();
    let p = position_where(&g, |s| matches!(s.phase, Phase::Hits { .. }));
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    refused(&g, &p, "battle.attacker", |s| {
        s["mover"] = json!(1 - st.mover)
    });
}

#[test]
fn rule_4_3_gather_markers_only_where_the_map_prints_them() {
    // Found by the core kit: a Muster marker in an alert box (`gather[29] = 2`) was accepted,
    // and the position of the next decision was refused.
    let g = arc();
    let p = position(&g, "standard", 2, 2);
    let alert_box = g.data.map.regions.iter().position(|r| r.alert_box).unwrap();
    refused(&g, &p, &format!("gather[{alert_box}]"), |s| {
        s["gather"][alert_box] = json!(2)
    });
    // A Gather marker that started Muster side up never shows Gather.
    let muster = g
        .data
        .map
        .regions
        .iter()
        .position(|r| r.gather == 2)
        .unwrap();
    refused(&g, &p, &format!("gather[{muster}]"), |s| {
        s["gather"][muster] = json!(1)
    });
    // 15.2: the solitaire scenarios start without Gather, Alert or Hidden Arms markers.
    let p = position(&g, "solitaire-patriot", 2, 2);
    let town = g
        .data
        .map
        .regions
        .iter()
        .position(|r| r.gather == 1)
        .unwrap();
    refused(&g, &p, &format!("gather[{town}]"), |s| {
        s["gather"][town] = json!(1)
    });
    refused(&g, &p, &format!("alert[{alert_box}]"), |s| {
        s["alert"][alert_box] = json!(true)
    });
}

#[test]
fn rule_6_5_an_assemble_takes_units_from_the_region_it_leaves() {
    // Found by the core kit: an Assemble whose group named a destroyed unit
    // (`assemble.group = 1 << 32`) was accepted, and "done" brought the unit back.
    let g = arc();
    let p = position_where(&g, |s| matches!(s.phase, Phase::Assemble { .. }));
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    let Phase::Assemble { from, .. } = st.phase else {
        unreachable!()
    };
    let elsewhere = st.units.iter().position(|u| u.at != Loc::At(from)).unwrap();
    refused(&g, &p, "phase.assemble.group", |s| {
        s["phase"]["assemble"]["group"] = json!(1u64 << elsewhere)
    });
}

#[test]
fn rule_6_4_a_group_forms_in_the_region_the_move_leaves() {
    // Found by the core kit: a Move choosing its group (no step made yet) with `move.at`
    // changed was accepted; "pick" then put a unit of the region left into a group standing
    // elsewhere, and that position was refused.
    let g = arc();
    let p = position_where(&g, |s| matches!(s.phase, Phase::Move { steps: 0, .. }));
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    let Phase::Move { from, .. } = st.phase else {
        unreachable!()
    };
    let other = (from as usize + 1) % g.data.map.regions.len();
    refused(&g, &p, "phase.move.at", |s| {
        s["phase"]["move"]["at"] = json!(other)
    });
}

#[test]
fn rule_7_0_a_hit_allocation_has_a_hit_to_allocate() {
    // Found by the core kit: `hits.n = 0` with units left to hit was accepted, and "hit"
    // counted the hits left below zero (a panic in a build with overflow checks).
    let g = arc();
    let p = position_where(&g, |s| matches!(s.phase, Phase::Hits { .. }));
    refused(&g, &p, "phase.hits.n", |s| {
        s["phase"]["hits"]["n"] = json!(0)
    });
}

#[test]
fn rule_7_1_only_the_retreating_side_s_units_retreat() {
    // Found by the core kit: `battle.retreating` naming an attacker during the defender's
    // retreat before combat was accepted, and the retreat took the attacker along.
    let g = arc();
    let p = position_where(&g, |s| {
        matches!(s.phase, Phase::RetreatTo { mode: 0, .. }) && s.battle.attackers != 0
    });
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    let attacker = st.battle.attackers.trailing_zeros();
    refused(&g, &p, "battle.retreating", |s| {
        s["battle"]["retreating"] = json!(st.battle.retreating | 1u64 << attacker)
    });
}

#[test]
fn rule_7_0_nothing_retreats_during_the_combat_itself() {
    // Found by the core kit: a phase choosing the combat mode swapped into a position whose
    // battle record still named a unit retreating; "simultaneous" then gave a hit allocation
    // for the attacker with a defender retreating, and that position was refused.
    let g = arc();
    let p = position_where(&g, |s| {
        matches!(s.phase, Phase::FireMode) && s.battle.defenders != 0
    });
    let st: State = serde_json::from_value(p["state"].clone()).unwrap();
    let defender = st.battle.defenders.trailing_zeros();
    refused(&g, &p, "battle.retreating", |s| {
        s["battle"]["retreating"] = json!(1u64 << defender)
    });
}
