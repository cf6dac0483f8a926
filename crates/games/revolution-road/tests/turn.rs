//! The turn (5.1-5.3), Reserve Actions and Plan (5.2, 6.13), Gather Intelligence (6.14),
//! Pass (6.15), Hinder markers (6.11), the Nightriders (6.12, 9.0), Gather, Muster and Alert
//! markers (4.3, 4.5, 4.6), search and capture (8.0-8.2), Escape (6.10), Rally (6.8), Ambush
//! and Snipe (6.6, 6.7), the end of the game (11.0-13.0) and the solitaire rules (15.2-15.4).

mod common;
use common::*;
use muster_core::{Game, Options};
use muster_revolution_road::Action;
use muster_revolution_road::concord::sequence::to_act;
use muster_revolution_road::concord::state::*;

#[test]
fn rule_5_2_the_side_with_more_actions_acts_first() {
    let g = game();
    for seed in 0..40 {
        let mut s = g.new_game("standard", &Options::new(), seed).unwrap();
        finish_opening(&g, &mut s);
        let c = g.data.cards.get(s.card);
        if c.british != c.patriot {
            let first = if c.british > c.patriot {
                BRITISH
            } else {
                PATRIOT
            };
            assert_eq!(to_act(&s), Some(first));
        }
        assert_eq!(s.actions, [c.patriot, c.british]);
    }
}

#[test]
fn rule_5_2_reserve_actions_need_one_of_two_conditions() {
    let g = game();
    let mut s = empty_board(&g, 1);
    put(&g, &mut s, "r1", "cambridge");
    s.reserves[BRITISH as usize] = 1;
    for (mine, theirs, ok) in [
        (3, 2, false),
        (2, 3, true),
        (2, 2, true),
        (1, 0, true),
        (3, 0, false),
    ] {
        round(&mut s, BRITISH, mine, theirs);
        assert_eq!(
            legal(&g, &s).contains(&Action::Reserve),
            ok,
            "{mine} against {theirs}"
        );
    }
    round(&mut s, BRITISH, 2, 3);
    apply(&g, &mut s, Action::Reserve);
    apply(&g, &mut s, Action::Intel);
    assert_eq!(s.reserves[BRITISH as usize], 0);
    assert_eq!(
        s.actions[BRITISH as usize], 2,
        "a reserve action leaves the track alone"
    );
    assert_eq!(to_act(&s), Some(PATRIOT));
}

#[test]
fn rule_6_13_plan_only_on_the_1_space_or_when_only_pass_is_left() {
    let g = game();
    let mut s = empty_board(&g, 2);
    put(&g, &mut s, "r1", "cambridge");
    round(&mut s, BRITISH, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::Plan));
    round(&mut s, BRITISH, 1, 2);
    assert!(legal(&g, &s).contains(&Action::Plan));
    s.reserves[BRITISH as usize] = 2;
    assert!(
        !legal(&g, &s).contains(&Action::Plan),
        "two reserves at most"
    );
    // Nothing but Pass legal: Plan with more actions left (6.15).
    let mut t = empty_board(&g, 2);
    round(&mut t, BRITISH, 3, 2);
    t.peeked[BRITISH as usize] = true;
    t.hinder = [HinderAt::Track; 3];
    assert_eq!(legal(&g, &t), vec![Action::Plan, Action::Pass]);
    apply(&g, &mut t, Action::Plan);
    assert_eq!(
        (t.actions[BRITISH as usize], t.reserves[BRITISH as usize]),
        (2, 1)
    );
}

#[test]
fn rule_6_14_intel_once_per_turn_shows_the_top_two_cards() {
    let g = game();
    let mut s = empty_board(&g, 3);
    round(&mut s, PATRIOT, 2, 2);
    let top: Vec<u8> = s.deck.draw.iter().rev().take(2).copied().collect();
    apply(&g, &mut s, Action::Intel);
    assert_eq!(s.deck.seen_by(PATRIOT).to_vec(), top);
    round(&mut s, PATRIOT, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::Intel));
}

#[test]
fn rule_5_3_end_of_turn_steps() {
    let g = game();
    let mut s = empty_board(&g, 4);
    let (lex, men, con) = (
        region(&g, "lexington"),
        region(&g, "menotomy"),
        region(&g, "concord"),
    );
    s.gather[lex as usize] = MUSTER;
    s.gather[men as usize] = MUSTER;
    s.gather[con as usize] = MUSTER;
    let m = put(&g, &mut s, "m1", "lexington");
    s.units[m as usize].under = true;
    put(&g, &mut s, "r1", "menotomy");
    s.hinder = [
        HinderAt::Map {
            region: lex,
            turns: 1,
        },
        HinderAt::Map {
            region: con,
            turns: 2,
        },
        HinderAt::Track,
    ];
    let r = unit(&g, &s, "r1");
    s.units[r as usize].moved = true;
    round(&mut s, BRITISH, 1, 0);
    s.turn = 3;
    apply(&g, &mut s, Action::Pass);
    assert_eq!(
        s.gather[lex as usize], NO_MARKER,
        "no Regular, no Hinder Muster: removed"
    );
    assert!(!s.units[m as usize].under, "its units are active");
    assert_eq!(
        s.gather[men as usize], MUSTER,
        "an unbroken Regular keeps it"
    );
    assert_eq!(s.gather[con as usize], MUSTER, "a Hinder Muster keeps it");
    assert_eq!(s.hinder[0], HinderAt::Available);
    assert_eq!(
        s.hinder[1],
        HinderAt::Map {
            region: con,
            turns: 1
        }
    );
    assert_eq!(s.hinder[2], HinderAt::Available);
    assert!(!s.units[r as usize].moved);
    assert_eq!(s.turn, 4);
}

#[test]
fn rule_5_3_the_game_ends_after_turn_12() {
    let g = game();
    let mut s = empty_board(&g, 5);
    s.turn = 12;
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert!(s.ended.is_some());
    assert!(
        g.outcome(&s).unwrap().reason.contains("11.0"),
        "never in Concord: automatic Patriot victory"
    );
    assert_eq!(s.ended.unwrap().winner, PATRIOT);
}

#[test]
fn rule_5_3_captives_move_toward_boston_and_score_there() {
    let g = game();
    let mut s = empty_board(&g, 6);
    let a = put(&g, &mut s, "adams", "roxbury");
    s.units[a as usize].flipped = true;
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert!(matches!(s.phase, Phase::Captives { .. }));
    assert_eq!(to_act(&s), Some(BRITISH));
    apply(&g, &mut s, Action::To(region(&g, "boston")));
    assert_eq!(s.units[a as usize].at, Loc::Removed);
    assert_eq!(
        s.vp.0[BRITISH as usize][Cause::Delivered as usize],
        2 * g.data.vp.captured_son
    );
}

#[test]
fn rule_9_0_opening_call_dawes_pays_two_to_leave_boston() {
    let g = game();
    let mut s = g.new_game("standard", &Options::new(), 7).unwrap();
    let dawes = unit(&g, &s, "dawes");
    apply(&g, &mut s, Action::Rider(dawes));
    let l = legal(&g, &s);
    let rox = region(&g, "roxbury");
    assert!(l.contains(&Action::Ride(rox, true)) && !l.contains(&Action::Ride(rox, false)));
    apply(&g, &mut s, Action::Ride(rox, true));
    assert!(matches!(s.phase, Phase::Riders { ap: 2, .. }));
    apply(&g, &mut s, Action::Alert);
    assert_eq!(s.gather[rox as usize], MUSTER);
    assert!(
        !s.units[dawes as usize].flipped,
        "no capture rolls in the opening call"
    );
    // Roxbury's Minuteman has its free move (4.3) at once, in the middle of the call.
    assert!(matches!(s.phase, Phase::Muster { .. }));
    apply(&g, &mut s, Action::Stay);
    assert!(
        matches!(s.phase, Phase::Riders { ap: 1, .. }),
        "the ride goes on"
    );
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    assert!(s.card != 0 && matches!(s.phase, Phase::Round { .. }));
    assert!(s.units[dawes as usize].moved);
}

#[test]
fn rule_6_12_alerting_rolls_for_capture_and_leaving_regulars_costs_or_risks() {
    let g = game();
    let mut s = empty_board(&g, 8);
    let rev = put(&g, &mut s, "revere", "medford");
    s.gather[region(&g, "medford") as usize] = GATHER;
    put(&g, &mut s, "r1", "menotomy");
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    s.dice = dice_rolling(&[6]);
    apply(&g, &mut s, Action::Alert);
    assert!(
        s.units[rev as usize].flipped,
        "a 6 captures the rider in the town"
    );
    // Another rider leaving a Regulars' region chooses to pay or to risk the roll.
    let mut t = empty_board(&g, 8);
    let rev = put(&g, &mut t, "revere", "menotomy");
    put(&g, &mut t, "r1", "menotomy");
    round(&mut t, PATRIOT, 2, 2);
    apply(&g, &mut t, Action::CallToArms);
    apply(&g, &mut t, Action::Rider(rev));
    let lex = region(&g, "lexington");
    let l = legal(&g, &t);
    assert!(l.contains(&Action::Ride(lex, true)) && l.contains(&Action::Ride(lex, false)));
    assert!(!l.contains(&Action::Alert));
}

#[test]
fn rule_6_12_riders_leave_the_map_and_free_alert_units_from_the_next_turn() {
    let g = game();
    let mut s = empty_board(&g, 9);
    let rev = put(&g, &mut s, "revere", "acton-road");
    let boxr = region(&g, "alert-w");
    s.alert[boxr as usize] = true;
    let davis = put(&g, &mut s, "davis", "alert-w");
    s.units[davis as usize].under = true;
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    apply(&g, &mut s, Action::Exit);
    assert_eq!(s.units[rev as usize].at, Loc::Edge(1));
    // Same turn: nothing to remove yet.
    round(&mut s, PATRIOT, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::CallToArms));
    s.turn += 1;
    s.units[rev as usize].moved = false;
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    apply(&g, &mut s, Action::RemoveAlert(boxr));
    assert!(!s.alert[boxr as usize] && !s.units[davis as usize].under);
    // The freed units enter the map from the box.
    round(&mut s, PATRIOT, 2, 2);
    assert!(legal(&g, &s).contains(&Action::Assemble(boxr, region(&g, "acton-road"))));
}

#[test]
fn rule_4_3_british_departure_flips_a_gather_marker() {
    let g = game();
    let mut s = empty_board(&g, 10);
    s.turn = 2;
    let lex = region(&g, "lexington");
    s.gather[lex as usize] = GATHER;
    let mm = put(&g, &mut s, "mm3", "lexington");
    s.units[mm as usize].under = true;
    put(&g, &mut s, "r1", "lexington");
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Move(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    assert_eq!(s.gather[lex as usize], MUSTER);
    assert!(
        !s.units[mm as usize].under,
        "the Minuteman is active at once"
    );
    assert!(
        matches!(s.phase, Phase::Muster { .. }),
        "with its free move of two regions, before the British move goes on"
    );
    assert_eq!(to_act(&s), Some(PATRIOT));
    let l = legal(&g, &s);
    assert!(
        l.contains(&Action::To(region(&g, "concord")))
            && !l.contains(&Action::To(region(&g, "barretts-farm")))
    );
}

#[test]
fn rule_4_3_the_free_move_interrupts_the_british_move_which_then_goes_on() {
    let g = game();
    let mut s = empty_board(&g, 10);
    s.turn = 2;
    let lex = region(&g, "lexington");
    let lin = region(&g, "lincoln");
    let con = region(&g, "concord");
    s.gather[lex as usize] = GATHER;
    let mm = put(&g, &mut s, "mm3", "lexington");
    s.units[mm as usize].under = true;
    let r1 = put(&g, &mut s, "r1", "lexington");
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Move(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::To(lin));
    assert!(matches!(s.resume, Some(Phase::Move { .. })));
    check_agreement(&g, &s, &legal(&g, &s));
    // The Minuteman runs ahead to Concord while the Regulars are on the road.
    apply(&g, &mut s, Action::To(con));
    assert_eq!(s.units[mm as usize].at, Loc::At(con));
    assert!(s.resume.is_none());
    assert!(matches!(s.phase, Phase::Move { at, .. } if at == lin));
    assert_eq!(to_act(&s), Some(BRITISH), "the British move goes on");
    apply(&g, &mut s, Action::Stop);
    assert_eq!(s.units[r1 as usize].at, Loc::At(lin));
    assert!(
        matches!(s.phase, Phase::Round { .. }) && s.mover == PATRIOT,
        "the action is over; no second free move waits"
    );
}

#[test]
fn rule_8_1_search_marks_reduced_by_militia_and_minutemen() {
    let g = game();
    for (militia, minutemen, expect) in [(false, false, 3), (true, false, 2), (true, true, 1)] {
        let mut s = empty_board(&g, 11);
        let lex = region(&g, "lexington");
        s.arms[lex as usize] = ARMS_HIDDEN;
        put(&g, &mut s, "r1", "lexington");
        if militia {
            put_militia(&g, &mut s, "m1", "lexington", 1);
        }
        if minutemen {
            put(&g, &mut s, "mm1", "lexington");
        }
        // Card 12 (three marks) on top.
        let pos = s.deck.draw.iter().position(|c| *c == 12);
        match pos {
            Some(i) => {
                let last = s.deck.draw.len() - 1;
                s.deck.draw.swap(i, last);
            }
            None => {
                s.deck.discard.retain(|c| *c != 12);
                s.deck.draw.push(12);
            }
        }
        round(&mut s, BRITISH, 2, 2);
        apply(&g, &mut s, Action::Search(lex));
        assert_eq!(s.vp.0[BRITISH as usize][Cause::Search as usize], 2 * expect);
        assert_eq!(s.arms[lex as usize], ARMS_SEARCHED);
        assert_eq!(
            s.shot,
            militia || minutemen,
            "10.0: searching among active Patriot units"
        );
    }
}

fn top_card(s: &mut State, id: u8) {
    if let Some(i) = s.deck.draw.iter().position(|c| *c == id) {
        s.deck.draw.remove(i);
    } else {
        s.deck.discard.retain(|c| *c != id);
    }
    s.deck.draw.push(id);
}

#[test]
fn rule_8_2_capture_redraw_only_with_a_vp_to_pay() {
    let g = game();
    let mut s = empty_board(&g, 12);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let adams = put(&g, &mut s, "adams", "lexington");
    s.units[adams as usize].under = true;
    top_card(&mut s, 1);
    round(&mut s, BRITISH, 2, 2);
    let mut poor = s.clone();
    apply(&g, &mut poor, Action::Search(lex));
    assert!(
        matches!(poor.phase, Phase::SonAway { .. }),
        "no VP: no redraw; the Patriot may move Adams"
    );
    assert_eq!(to_act(&poor), Some(PATRIOT));
    s.vp.add(BRITISH, Cause::Concord, 2);
    top_card(&mut s, 12);
    top_card(&mut s, 1);
    apply(&g, &mut s, Action::Search(lex));
    assert!(matches!(s.phase, Phase::Redraw { .. }));
    apply(&g, &mut s, Action::Redraw);
    assert!(
        s.units[adams as usize].flipped,
        "card 12 captures Adams, under a marker or not"
    );
    assert_eq!(s.vp.halves(BRITISH), 0, "the redraw cost 1 VP");
}

#[test]
fn rule_6_10_escape_roll_with_modifiers() {
    let g = game();
    let mut s = empty_board(&g, 13);
    let rev = put(&g, &mut s, "revere", "lincoln");
    s.units[rev as usize].flipped = true;
    put_militia(&g, &mut s, "m1", "lincoln", 1);
    put(&g, &mut s, "mm1", "lincoln");
    put(&g, &mut s, "r1", "lincoln");
    round(&mut s, PATRIOT, 2, 2);
    s.dice = dice_rolling(&[5]);
    apply(&g, &mut s, Action::Escape(rev));
    assert!(!s.units[rev as usize].flipped, "5 + 2 - 1 = 6 escapes");
    assert!(matches!(
        s.phase,
        Phase::SonAway {
            optional: false,
            ..
        }
    ));
    let adams = put(&g, &mut s, "adams", "lincoln");
    s.units[adams as usize].flipped = true;
    s.units[adams as usize].since = s.turn;
    round(&mut s, PATRIOT, 2, 2);
    assert!(
        !legal(&g, &s).contains(&Action::Escape(adams)),
        "not on the turn of capture"
    );
}

#[test]
fn rule_6_8_british_rally_two_per_leader_smith_one_after_concord() {
    let g = game();
    let mut s = empty_board(&g, 14);
    let lin = region(&g, "lincoln");
    for r in ["r1", "r2", "r3"] {
        let u = put(&g, &mut s, r, "lincoln");
        s.units[u as usize].flipped = true;
    }
    put(&g, &mut s, "smith", "lincoln");
    assert_eq!(g.rally_capacity(&s, BRITISH, lin), 2);
    s.concord = true;
    assert_eq!(g.rally_capacity(&s, BRITISH, lin), 1);
    put(&g, &mut s, "percy", "lincoln");
    assert_eq!(g.rally_capacity(&s, BRITISH, lin), 3);
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Rally(lin));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    assert!(!s.units[unit(&g, &s, "r1") as usize].flipped);
    // Either leader could have made the one flip: the British name the one who did.
    let (smith, percy) = (unit(&g, &s, "smith"), unit(&g, &s, "percy"));
    assert!(matches!(s.phase, Phase::RallyLeaders { .. }));
    assert_eq!(to_act(&s), Some(BRITISH));
    assert_eq!(
        legal(&g, &s),
        vec![Action::Pick(smith), Action::Pick(percy)]
    );
    apply(&g, &mut s, Action::Pick(smith));
    assert!(
        s.units[smith as usize].rallied,
        "the leader used carries the marker"
    );
    assert!(
        !s.units[percy as usize].rallied,
        "Percy keeps his two rallies for later this turn"
    );
    assert_eq!(g.rally_capacity(&s, BRITISH, lin), 2);
    assert!(matches!(s.phase, Phase::Round { .. }));
}

#[test]
fn rule_6_8_the_patriot_names_the_leader_who_rallied_unless_all_were_needed() {
    let g = game();
    let mut s = empty_board(&g, 14);
    let lex = region(&g, "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    let m2 = put_militia(&g, &mut s, "m2", "lexington", 2);
    s.units[m1 as usize].flipped = true;
    s.units[m2 as usize].flipped = true;
    let parker = put(&g, &mut s, "parker", "lexington");
    let barrett = put(&g, &mut s, "barrett", "lexington");
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::Rally(lex));
    apply(&g, &mut s, Action::Pick(m2));
    apply(&g, &mut s, Action::Done);
    assert!(matches!(s.phase, Phase::RallyLeaders { need: 1, .. }));
    check_agreement(&g, &s, &legal(&g, &s));
    apply(&g, &mut s, Action::Pick(barrett));
    assert!(s.units[barrett as usize].rallied && !s.units[parker as usize].rallied);
    // Parker rallies m1 later; he is the only leader left, so nobody is asked.
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::Rally(lex));
    apply(&g, &mut s, Action::Pick(m1));
    assert!(s.units[parker as usize].rallied);
    assert!(matches!(s.phase, Phase::Round { .. }));
}

#[test]
fn rule_6_6_ambush_two_moved_regulars_after_the_shot() {
    let g = game();
    let mut s = empty_board(&g, 15);
    let lin = region(&g, "lincoln");
    let r1 = put(&g, &mut s, "r1", "lincoln");
    let r2 = put(&g, &mut s, "r2", "lincoln");
    s.units[r1 as usize].moved = true;
    s.units[r2 as usize].moved = true;
    s.shot = true;
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::Ambush(lin));
    apply(&g, &mut s, Action::Pick(r1));
    s.dice = dice_rolling(&[5, 4]);
    apply(&g, &mut s, Action::Pick(r2));
    assert!(s.units[r1 as usize].flipped && !s.units[r2 as usize].flipped);
    round(&mut s, PATRIOT, 2, 2);
    assert!(
        !legal(&g, &s).contains(&Action::Ambush(lin)),
        "one Ambush marker per region"
    );
}

#[test]
fn rule_6_7_snipe_needs_four_marched_units() {
    let g = game();
    let mut s = empty_board(&g, 16);
    let lin = region(&g, "lincoln");
    for r in ["r1", "r2", "r3", "smith"] {
        let u = put(&g, &mut s, r, "lincoln");
        s.units[u as usize].moved = true;
        s.units[u as usize].marched = r != "smith";
    }
    s.shot = true;
    round(&mut s, PATRIOT, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::Snipe(lin)));
    let smith = unit(&g, &s, "smith");
    s.units[smith as usize].marched = true;
    assert!(legal(&g, &s).contains(&Action::Snipe(lin)));
}

#[test]
fn rule_12_0_percy_award_once_at_lexington() {
    let g = game();
    let mut s = empty_board(&g, 17);
    for id in ["percy", "cannon", "p1", "p2", "p3", "p4"] {
        put(&g, &mut s, id, "lexington");
    }
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Intel);
    assert!(s.percy_award);
    assert_eq!(s.vp.0[BRITISH as usize][Cause::Percy as usize], 6);
}

#[test]
fn rule_11_0_concord_scores_5_once_and_13_0_ties_go_to_the_british() {
    let g = game();
    let mut s = empty_board(&g, 18);
    put(&g, &mut s, "r1", "concord");
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Intel);
    assert!(s.concord && s.shot);
    assert_eq!(s.vp.halves(BRITISH), 10);
    apply(&g, &mut s, Action::Intel);
    assert_eq!(s.vp.halves(BRITISH), 10);
    // End: the Patriot gets 5 for Percy's absence; equal totals go to the British.
    s.turn = 12;
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert_eq!(s.vp.halves(PATRIOT), 10);
    assert_eq!(s.ended.unwrap().winner, BRITISH);
}

#[test]
fn rule_15_2_solitaire_reinforcements_and_british_limits() {
    let g = game();
    let mut s = g.new_game("solitaire-patriot", &Options::new(), 3).unwrap();
    // Percy may land on turn 8; the British never force march.
    s.mover = BRITISH;
    s.phase = Phase::Round { reserve: false };
    s.actions[BRITISH as usize] = 2;
    apply(&g, &mut s, Action::Move(region(&g, "boston")));
    pick(&g, &mut s, "p1");
    assert!(legal(&g, &s).contains(&Action::To(region(&g, "lechmere-point"))));
    apply(&g, &mut s, Action::To(region(&g, "roxbury")));
    apply(&g, &mut s, Action::To(region(&g, "brookline")));
    assert!(
        !matches!(s.phase, Phase::Move { steps: 2, .. }),
        "two regions at most (15.2)"
    );
    // Reinforcements: a card with marks brings one hidden militia where the die says.
    let mut t = g.new_game("solitaire-patriot", &Options::new(), 4).unwrap();
    let before = t.units.iter().filter(|u| u.at == Loc::Spare).count();
    let mut ev = Vec::new();
    t.dice = dice_rolling(&[3]);
    g.solitaire_reinforce(&mut t, 2, &mut ev);
    assert_eq!(
        t.units.iter().filter(|u| u.at == Loc::Spare).count(),
        before - 1
    );
    let lex = region(&g, "lexington");
    assert!(ev.iter().any(|e| matches!(e, muster_revolution_road::Event::Reinforcement { region, die: 3, .. } if *region == lex)));
    g.solitaire_reinforce(&mut t, 0, &mut ev);
    assert_eq!(
        t.units.iter().filter(|u| u.at == Loc::Spare).count(),
        before - 1,
        "no marks, no militia"
    );
}

#[test]
fn rule_15_2_solitaire_hinder_goes_between_the_british_and_lexington() {
    let g = game();
    let s = g.new_game("solitaire-british", &Options::new(), 5).unwrap();
    // British in Boston and Concord: Lincoln lies between Concord and Lexington; Waltham
    // does not lie on a shortest way from either.
    assert!(g.hinder_target_ok(&s, HINDER_MOVEMENT, region(&g, "lincoln")));
    assert!(g.hinder_target_ok(&s, HINDER_MOVEMENT, region(&g, "lexington")));
    assert!(!g.hinder_target_ok(&s, HINDER_MOVEMENT, region(&g, "acton-road")));
}

#[test]
fn rule_15_2_solitaire_end_scores_objectives_after_attrition() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 6).unwrap();
    // Everyone British in Lexington, no Patriots there: 4 + 2 VP.
    let lex = region(&g, "lexington");
    for i in 0..s.units.len() {
        if g.side_of(&s, i as u8) == BRITISH {
            s.units[i].at = Loc::At(lex);
            s.units[i].flipped = false;
        } else if s.units[i].at == Loc::At(lex) {
            s.units[i].at = Loc::At(region(&g, "lincoln"));
        }
    }
    s.turn = 12;
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert_eq!(s.vp.0[BRITISH as usize][Cause::Objectives as usize], 12);
}

#[test]
fn rule_6_11_a_removed_hinder_marker_waits_a_turn_on_the_track() {
    let g = game();
    let mut s = empty_board(&g, 20);
    let lex = region(&g, "lexington");
    s.hinder[HINDER_MOVEMENT as usize] = HinderAt::Map {
        region: lex,
        turns: 2,
    };
    round(&mut s, BRITISH, 2, 1);
    apply(&g, &mut s, Action::Unhinder(HINDER_MOVEMENT));
    assert_eq!(s.hinder[HINDER_MOVEMENT as usize], HinderAt::Track);
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Hinder(HINDER_MOVEMENT, _)))
    );
    // Only the owner places it; the British cannot place the Patriot's markers.
    round(&mut s, BRITISH, 2, 1);
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Hinder(m, _) if *m != HINDER_MUSTER))
    );
}

#[test]
fn rule_14_4_militia_hit_on_six_minutemen_on_five() {
    let g = game();
    let mut s = empty_board(&g, 21);
    assert_eq!(g.hits_on(&s, Kind::Militia), 5);
    s.options.militia_six = true;
    assert_eq!(g.hits_on(&s, Kind::Militia), 6);
    assert_eq!(g.hits_on(&s, Kind::Hidden), 6);
    assert_eq!(g.hits_on(&s, Kind::Minuteman), 5);
    assert_eq!(g.hits_on(&s, Kind::Regular), 4);
}

#[test]
fn rule_14_5_hidden_arms_balance_options() {
    let g = game();
    let end = |arms: u8| {
        let mut s = empty_board(&g, 22);
        s.options.arms_balance = arms;
        s.arms[region(&g, "waltham") as usize] = ARMS_HIDDEN;
        s.arms[region(&g, "lincoln") as usize] = ARMS_HIDDEN;
        s.turn = 12;
        round(&mut s, BRITISH, 1, 0);
        apply(&g, &mut s, Action::Pass);
        s.vp.0[PATRIOT as usize][Cause::Arms as usize]
    };
    assert_eq!(
        end(0),
        2 * (1 + 4),
        "standard: 1 for unnumbered, the number for numbered"
    );
    assert_eq!(end(1), 2 * 4, "none for unnumbered markers");
    let card = end(3);
    assert!((2 * 4..=2 * (4 + 3)).contains(&card));
}

#[test]
fn notation_round_trips_and_bad_text_is_refused() {
    let g = game();
    let mut s = g.new_game("standard", &Options::new(), 23).unwrap();
    finish_opening(&g, &mut s);
    for a in legal(&g, &s) {
        let text = g.notation(&s, a);
        assert_eq!(g.parse_action(&s, &text).unwrap(), a);
        assert!(!g.label(&s, a).is_empty());
    }
    let e = g.parse_action(&s, "fly boston").unwrap_err();
    assert_eq!(e.kind, muster_core::IllegalKind::Unparsable);
    let e = g.parse_action(&s, "attack nowhere").unwrap_err();
    assert_eq!(e.kind, muster_core::IllegalKind::NotLegal);
    let before = s.clone();
    let side = to_act(&s).unwrap();
    assert!(g.apply(&mut s, 1 - side, Action::Pass).is_err());
    assert_eq!(s, before);
}

#[test]
fn rule_12_0_percy_arrives_on_turn_9_or_8_by_option() {
    let g = game();
    for (opt, turn) in [(false, 9u8), (true, 8)] {
        let mut s = empty_board(&g, 24);
        s.options.percy_turn_8 = opt;
        for id in ["percy", "cannon", "p1"] {
            let u = unit(&g, &s, id);
            s.units[u as usize].at = Loc::Pending;
        }
        s.turn = turn - 1;
        round(&mut s, BRITISH, 1, 0);
        apply(&g, &mut s, Action::Pass);
        assert_eq!(s.turn, turn);
        let percy = unit(&g, &s, "percy");
        assert_eq!(s.units[percy as usize].at, Loc::At(region(&g, "boston")));
    }
}

#[test]
fn faq_one_search_tries_for_both_sons_and_removing_a_hinder_is_not_a_search() {
    let g = game();
    let mut s = empty_board(&g, 25);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let adams = put(&g, &mut s, "adams", "lexington");
    let hancock = put(&g, &mut s, "hancock", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 1);
    s.arms[lex as usize] = ARMS_HIDDEN;
    s.hinder[HINDER_SEARCH as usize] = HinderAt::Map {
        region: lex,
        turns: 2,
    };
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Unhinder(HINDER_SEARCH));
    assert!(!s.shot, "removing Hinder Search is not a search (FAQ)");
    round(&mut s, BRITISH, 3, 3);
    // Drawn in order: the arms (card 5), Adams (12), Hancock (21).
    top_card(&mut s, 21);
    top_card(&mut s, 12);
    top_card(&mut s, 5);
    let discards = s.deck.discard.len();
    apply(&g, &mut s, Action::Search(lex));
    // The British choose the order of the draws (8.0): the arms, Adams, then Hancock.
    apply(&g, &mut s, Action::SearchArms);
    apply(&g, &mut s, Action::Pick(adams));
    assert!(s.units[adams as usize].flipped && s.units[hancock as usize].flipped);
    assert_eq!(s.deck.discard.len(), discards + 3, "a card for each target");
    assert_eq!(
        s.vp.0[BRITISH as usize][Cause::Search as usize],
        2,
        "card 5: two marks less one"
    );
    assert_eq!(s.arms[lex as usize], ARMS_SEARCHED);
    assert!(s.shot, "an active unbroken militia was present (10.0)");
}

#[test]
fn rule_15_2_solitaire_opportunity_fire_on_british_moves() {
    let g = game();
    let mut s = g
        .new_game("solitaire-patriot", &Options::new(), 26)
        .unwrap();
    // Clear the board and move a British Regular next to five hidden militia and a Minuteman:
    // one die per five strength points, one for the Minuteman.
    for u in s.units.iter_mut() {
        if u.at != Loc::Spare && u.at != Loc::Removed {
            u.at = Loc::Removed;
        }
    }
    s.british_in = 0;
    for id in ["r1", "r2", "r3"] {
        let u = put(&g, &mut s, id, "concord");
        s.units[u as usize].flipped = false;
    }
    for i in 1..=5 {
        let u = unit(&g, &s, &format!("m{i}"));
        s.units[u as usize].at = Loc::At(region(&g, "lexington"));
        assert_eq!(s.units[u as usize].kind, Kind::Hidden);
    }
    let mm = put(&g, &mut s, "mm1", "lexington");
    s.units[mm as usize].flipped = false;
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Move(region(&g, "concord")));
    pick(&g, &mut s, "r1");
    let side = to_act(&s).unwrap();
    let ev = g
        .apply(&mut s, side, Action::To(region(&g, "lincoln")))
        .unwrap();
    // Lincoln is next to Lexington: the hidden militia there were revealed to count strength.
    let strength: u8 = (1..=5)
        .map(|i| {
            let u = s.units[unit(&g, &s, &format!("m{i}")) as usize];
            assert_eq!(u.kind, Kind::Militia);
            u.value
        })
        .sum();
    let fire = ev.iter().find_map(|e| match e {
        muster_revolution_road::Event::Roll {
            dice,
            hits,
            section: "15.2",
            ..
        } => Some((*dice, *hits)),
        _ => None,
    });
    let (dice, hits) = fire.expect("the Patriots fire");
    assert_eq!(
        dice,
        (strength + 1) / 5 + 1,
        "one die per five strength points and one per Minuteman"
    );
    assert!(hits <= 2, "at most two hits a move");
}

#[test]
fn rule_5_2_tied_actions_a_die_decides_even_patriot_odd_british() {
    let g = game();
    let mut seen = [false; 2];
    for seed in 0..200 {
        let mut s = g.new_game("standard", &Options::new(), seed).unwrap();
        finish_opening(&g, &mut s);
        let c = g.data.cards.get(s.card);
        if c.british != c.patriot {
            continue;
        }
        // Replay the start with an event log to read the die.
        let mut t = g.new_game("standard", &Options::new(), seed).unwrap();
        let side = to_act(&t).unwrap();
        let ev = g.apply(&mut t, side, Action::Done).unwrap();
        let die = ev.iter().find_map(|e| match e {
            muster_revolution_road::Event::FirstPlayer { die, side } => Some((*die, *side)),
            _ => None,
        });
        if let Some((die, first)) = die {
            let expect = if die % 2 == 0 { PATRIOT } else { BRITISH };
            assert_eq!(first, expect);
            seen[first as usize] = true;
        }
    }
    assert!(seen[0] && seen[1], "both outcomes happen");
}

#[test]
fn rule_8_0_the_british_choose_the_order_of_the_search_draws() {
    let g = game();
    let mut s = empty_board(&g, 12);
    let lex = region(&g, "lexington");
    s.arms[lex as usize] = ARMS_HIDDEN;
    put(&g, &mut s, "r1", "lexington");
    let adams = put(&g, &mut s, "adams", "lexington");
    let hancock = put(&g, &mut s, "hancock", "lexington");
    // Card 12 (three marks) is on top, card 1 (none) under it: the British, who may know
    // this (6.14), spend the good card on Adams rather than on the arms.
    top_card(&mut s, 1);
    top_card(&mut s, 12);
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Search(lex));
    assert!(matches!(s.phase, Phase::SearchNext { .. }));
    assert_eq!(to_act(&s), Some(BRITISH));
    check_agreement(&g, &s, &legal(&g, &s));
    assert_eq!(
        legal(&g, &s),
        vec![
            Action::SearchArms,
            Action::Pick(adams),
            Action::Pick(hancock)
        ]
    );
    apply(&g, &mut s, Action::Pick(adams));
    assert!(s.units[adams as usize].flipped, "card 12 captures Adams");
    assert_eq!(
        legal(&g, &s),
        vec![Action::SearchArms, Action::Pick(hancock)],
        "two draws left: still the British choice"
    );
    apply(&g, &mut s, Action::SearchArms);
    assert_eq!(s.arms[lex as usize], ARMS_SEARCHED);
    assert_eq!(
        s.vp.0[BRITISH as usize][Cause::Search as usize],
        0,
        "card 1 has no marks"
    );
    // The last draw, for Hancock, needs no choice.
    assert!(!matches!(s.phase, Phase::SearchNext { .. }));
}

/// A solitaire game with nothing on the map: the British to act with three actions.
fn empty_solitaire(g: &muster_revolution_road::Concord, seed: u64) -> State {
    let mut s = g
        .new_game("solitaire-patriot", &Options::new(), seed)
        .unwrap();
    for u in s.units.iter_mut() {
        if u.at != Loc::Spare && u.at != Loc::Removed {
            u.at = Loc::Removed;
        }
        u.flipped = false;
        u.moved = false;
        u.fired = false;
    }
    s.british_in = 0;
    round(&mut s, BRITISH, 3, 3);
    s
}

#[test]
fn rule_15_2_opportunity_fire_hits_at_most_two_per_british_move_action() {
    let g = game();
    // Percy's six Regulars leave Boston for Roxbury in three pairs, past three Minutemen in
    // Jamaica Plain (next to Roxbury): three dice for every pair that enters. The dice are
    // chosen so that the first pair alone draws two hits and the next pair's roll would
    // score again: the cap of two is for the whole Move action, so nothing more is rolled.
    let seed = (0..100_000u64)
        .find(|&seed| {
            let mut d = muster_core::Dice::from_seed(seed);
            let sixes = |d: &mut muster_core::Dice| (0..3).filter(|_| d.d6() == 6).count();
            sixes(&mut d) >= 2 && sixes(&mut d) >= 1
        })
        .expect("a seed rolling two sixes in three dice, then another six in three");
    let mut s = empty_solitaire(&g, 27);
    let pairs = [["p1", "p2"], ["p3", "p4"], ["p5", "p6"]];
    for pair in pairs {
        for id in pair {
            put(&g, &mut s, id, "boston");
        }
    }
    for id in ["mm1", "mm2", "mm3"] {
        put(&g, &mut s, id, "jamaica-plain");
    }
    s.dice = muster_core::Dice::from_seed(seed);
    let (boston, roxbury) = (region(&g, "boston"), region(&g, "roxbury"));
    apply(&g, &mut s, Action::Move(boston));
    let mut fire = Vec::new();
    let mut taken = 0;
    for pair in pairs {
        for id in pair {
            pick(&g, &mut s, id);
        }
        let side = to_act(&s).unwrap();
        let ev = g.apply(&mut s, side, Action::To(roxbury)).unwrap();
        fire.extend(ev.iter().filter_map(|e| match e {
            muster_revolution_road::Event::Roll {
                hits,
                section: "15.2",
                ..
            } => Some(*hits),
            _ => None,
        }));
        // The British apply the hits to the moving pair, then stop it in Roxbury.
        while let Phase::Move { hits, group, .. } = s.phase
            && hits > 0
        {
            let u = group.trailing_zeros() as u8;
            apply(&g, &mut s, Action::Hit(u));
            taken += 1;
        }
        if matches!(s.phase, Phase::Move { steps: 1, .. }) {
            apply(&g, &mut s, Action::Stop);
        }
    }
    assert_eq!(fire.first(), Some(&2), "the first pair draws two hits");
    assert_eq!(fire.iter().map(|h| *h as u32).sum::<u32>(), 2);
    assert_eq!(taken, 2, "two hits in the whole Move action");
    let hurt = pairs
        .iter()
        .flatten()
        .filter(|id| {
            let x = s.units[unit(&g, &s, id) as usize];
            x.flipped || x.at != Loc::At(roxbury)
        })
        .count();
    assert!((1..=2).contains(&hurt), "only the first pair was hit");
    // With nobody left to move in Boston the action is over; the next Move action has its
    // own allowance of two.
    assert!(matches!(s.phase, Phase::Round { .. }));
    assert_eq!(to_act(&s), Some(PATRIOT));
    round(&mut s, BRITISH, 2, 2);
    for id in ["p7", "p8"] {
        put(&g, &mut s, id, "boston");
    }
    s.dice = muster_core::Dice::from_seed(seed);
    apply(&g, &mut s, Action::Move(boston));
    pick(&g, &mut s, "p7");
    pick(&g, &mut s, "p8");
    let side = to_act(&s).unwrap();
    let ev = g.apply(&mut s, side, Action::To(roxbury)).unwrap();
    assert!(
        ev.iter().any(|e| matches!(
            e,
            muster_revolution_road::Event::Roll {
                hits: 2,
                section: "15.2",
                ..
            }
        )),
        "a new action fires afresh"
    );
}

#[test]
fn rule_14_5_hidden_arms_cards_are_dealt_without_replacement() {
    let g = game();
    // Every unnumbered Hidden Arms marker of the set-up still unsearched at the end: the card
    // options shuffle all the cards together and deal one per marker, so no card comes up
    // twice (ruling C32), and each marker scores what its own card says.
    let unnumbered: Vec<u8> = (0..g.data.map.regions.len() as u8)
        .filter(|&r| g.data.map.regions[r as usize].arms == Some(0))
        .collect();
    assert_eq!(unnumbered.len(), 8);
    for (option, seed) in [(2u8, 0u64), (3, 100)]
        .iter()
        .flat_map(|&(o, base)| (0..12).map(move |i| (o, base + i)))
    {
        let mut s = empty_board(&g, 40 + seed);
        s.options.arms_balance = option;
        for &r in &unnumbered {
            s.arms[r as usize] = ARMS_HIDDEN;
        }
        s.turn = 12;
        round(&mut s, BRITISH, 1, 0);
        let ev = g.apply(&mut s, BRITISH, Action::Pass).unwrap();
        let mut cards = Vec::new();
        let mut total = 0i16;
        for e in &ev {
            if let muster_revolution_road::Event::ArmsCard {
                region,
                card,
                hash,
                points,
            } = *e
            {
                assert!(unnumbered.contains(&region));
                assert_eq!(hash, g.data.cards.get(card).hash);
                let expect = if option == 2 { (hash > 0) as u8 } else { hash };
                assert_eq!(points, expect, "option {option}");
                cards.push(card);
                total += points as i16;
            }
        }
        assert_eq!(cards.len(), unnumbered.len(), "a card for each marker");
        let mut distinct = cards.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), cards.len(), "no card twice: {cards:?}");
        assert_eq!(s.vp.0[PATRIOT as usize][Cause::Arms as usize], 2 * total);
    }
}

#[test]
fn rule_6_12_a_rider_that_only_alerted_gets_four_fresh_points_from_a_second_call() {
    let g = game();
    let mut s = empty_board(&g, 41);
    let menotomy = region(&g, "menotomy");
    let rev = put(&g, &mut s, "revere", "menotomy");
    let dawes = put(&g, &mut s, "dawes", "lexington");
    s.gather[menotomy as usize] = GATHER;
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::CallToArms);
    // Revere alerts Menotomy (the capture roll misses) and stops; Dawes rides one region.
    apply(&g, &mut s, Action::Rider(rev));
    s.dice = dice_rolling(&[1]);
    apply(&g, &mut s, Action::Alert);
    assert_eq!(s.gather[menotomy as usize], MUSTER);
    assert!(matches!(s.phase, Phase::Riders { ap: 3, .. }));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Rider(dawes));
    apply(&g, &mut s, Action::Ride(region(&g, "lincoln"), false));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    assert!(!s.units[rev as usize].moved, "alerting is not moving");
    assert!(s.units[dawes as usize].moved);
    // A second Call to Arms in the same turn (ruling C33): the rider without a Move marker
    // is activated again with four new Activity Points; the one that rode is not.
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Rider(rev)));
    assert!(
        !l.contains(&Action::Rider(dawes)),
        "a rider that moved stays put"
    );
    apply(&g, &mut s, Action::Rider(rev));
    assert!(matches!(s.phase, Phase::Riders { ap: 4, .. }));
    assert!(
        !legal(&g, &s).contains(&Action::Alert),
        "Menotomy is already alerted"
    );
}

#[test]
fn rule_5_2_the_turn_ends_when_both_tracks_are_empty_and_reserves_carry_over() {
    let g = game();
    let mut s = empty_board(&g, 50);
    s.turn = 3;
    s.reserves = [2, 1];
    // The British are on 0: the Patriot uses up his actions; the British reserve waits.
    round(&mut s, PATRIOT, 2, 0);
    apply(&g, &mut s, Action::Intel);
    assert_eq!(to_act(&s), Some(PATRIOT), "a side on 0 does not act");
    apply(&g, &mut s, Action::Pass);
    assert_eq!(s.turn, 4, "both tracks on 0: the turn is over");
    assert_eq!(s.reserves, [2, 1], "reserves are kept for later turns");
}

#[test]
fn rule_6_13_plan_on_the_1_space_gains_a_reserve_and_ends_the_side_s_actions() {
    let g = game();
    let mut s = empty_board(&g, 51);
    put(&g, &mut s, "r1", "cambridge");
    round(&mut s, BRITISH, 1, 2);
    apply(&g, &mut s, Action::Plan);
    assert_eq!(s.actions[BRITISH as usize], 0);
    assert_eq!(s.reserves[BRITISH as usize], 1);
    assert_eq!(to_act(&s), Some(PATRIOT));
}

#[test]
fn rule_6_12_prescott_rides_once_lexington_is_alerted() {
    let g = game();
    let mut s = empty_board(&g, 52);
    let lex = region(&g, "lexington");
    s.gather[lex as usize] = GATHER;
    let prescott = put(&g, &mut s, "prescott", "lexington");
    s.units[prescott as usize].under = true;
    let rev = put(&g, &mut s, "revere", "lexington");
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::CallToArms);
    assert!(
        !legal(&g, &s).contains(&Action::Rider(prescott)),
        "not before Lexington is alerted"
    );
    apply(&g, &mut s, Action::Rider(rev));
    s.dice = dice_rolling(&[2]);
    apply(&g, &mut s, Action::Alert);
    apply(&g, &mut s, Action::Done);
    assert!(legal(&g, &s).contains(&Action::Rider(prescott)));
    apply(&g, &mut s, Action::Rider(prescott));
    assert!(matches!(s.phase, Phase::Riders { ap: 4, .. }));
}

#[test]
fn rule_6_12_prescott_rides_from_the_turn_after_revere_and_dawes_are_both_captured() {
    let g = game();
    let mut s = empty_board(&g, 53);
    s.turn = 2;
    let lex = region(&g, "lexington");
    s.gather[lex as usize] = GATHER;
    let prescott = put(&g, &mut s, "prescott", "lexington");
    s.units[prescott as usize].under = true;
    let dawes = put(&g, &mut s, "dawes", "roxbury");
    s.units[dawes as usize].flipped = true;
    let rev = put(&g, &mut s, "revere", "medford");
    s.gather[region(&g, "medford") as usize] = GATHER;
    round(&mut s, PATRIOT, 1, 0);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    s.dice = dice_rolling(&[6]);
    apply(&g, &mut s, Action::Alert);
    assert!(s.units[rev as usize].flipped, "Revere is captured too");
    assert!(
        s.units[prescott as usize].under,
        "Prescott waits for the next turn"
    );
    let mut n = 0;
    while s.turn == 2 {
        let a = if legal(&g, &s).contains(&Action::Done) {
            Action::Done
        } else {
            Action::Pass
        };
        apply(&g, &mut s, a);
        n += 1;
        assert!(n < 20);
    }
    assert!(
        !s.units[prescott as usize].under,
        "active on the following turn"
    );
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    assert!(legal(&g, &s).contains(&Action::Rider(prescott)));
    assert!(
        !legal(&g, &s).contains(&Action::Rider(rev)),
        "captured riders are not activated"
    );
}

#[test]
fn rule_6_12_a_region_costs_a_rider_one_point_and_a_stream_without_road_two() {
    let g = game();
    let mut s = empty_board(&g, 54);
    let rev = put(&g, &mut s, "revere", "medford");
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    let mut road = s.clone();
    apply(&g, &mut road, Action::Ride(region(&g, "menotomy"), false));
    assert!(matches!(road.phase, Phase::Riders { ap: 3, .. }));
    // No road bonus: a second road region costs another point.
    apply(&g, &mut road, Action::Ride(region(&g, "lexington"), false));
    assert!(matches!(road.phase, Phase::Riders { ap: 2, .. }));
    assert!(
        road.units[rev as usize].moved,
        "a rider that rode has a Move marker"
    );
    apply(&g, &mut s, Action::Ride(region(&g, "mystic-woods"), false));
    assert!(
        matches!(s.phase, Phase::Riders { ap: 2, .. }),
        "the Mystic costs two"
    );
}

#[test]
fn rule_6_10_a_nightrider_may_try_to_escape_on_the_turn_of_its_capture() {
    let g = game();
    let mut s = empty_board(&g, 55);
    s.turn = 4;
    let rev = put(&g, &mut s, "revere", "lincoln");
    s.units[rev as usize].flipped = true;
    s.units[rev as usize].since = 4;
    let adams = put(&g, &mut s, "adams", "lincoln");
    s.units[adams as usize].flipped = true;
    s.units[adams as usize].since = 4;
    round(&mut s, PATRIOT, 2, 2);
    let l = legal(&g, &s);
    // 6.10 bars only a Son of Liberty on the turn of its capture.
    assert!(l.contains(&Action::Escape(rev)));
    assert!(!l.contains(&Action::Escape(adams)));
    s.turn = 5;
    assert!(legal(&g, &s).contains(&Action::Escape(adams)));
}

#[test]
fn rule_8_1_marks_reduced_below_zero_cost_the_british_nothing() {
    let g = game();
    let mut s = empty_board(&g, 56);
    let lex = region(&g, "lexington");
    s.arms[lex as usize] = ARMS_HIDDEN;
    put(&g, &mut s, "r1", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 1);
    put(&g, &mut s, "mm1", "lexington");
    let one = g.data.cards.cards.iter().find(|c| c.hash == 1).unwrap().id;
    top_card(&mut s, one);
    s.vp.add(BRITISH, Cause::Concord, 4);
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Search(lex));
    assert_eq!(s.vp.0[BRITISH as usize][Cause::Search as usize], 0);
    assert_eq!(s.vp.halves(BRITISH), 4, "1 - 2 marks: nothing lost");
    assert_eq!(
        s.arms[lex as usize], ARMS_SEARCHED,
        "searched whatever the result"
    );
}

#[test]
fn rule_8_1_search_needs_an_unbroken_regular_but_not_an_unmoved_one() {
    let g = game();
    let mut s = empty_board(&g, 57);
    let lex = region(&g, "lexington");
    s.arms[lex as usize] = ARMS_HIDDEN;
    let r1 = put(&g, &mut s, "r1", "lexington");
    s.units[r1 as usize].flipped = true;
    put(&g, &mut s, "smith", "lexington");
    round(&mut s, BRITISH, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::Search(lex)));
    s.units[r1 as usize].flipped = false;
    s.units[r1 as usize].moved = true;
    s.units[r1 as usize].fired = true;
    assert!(legal(&g, &s).contains(&Action::Search(lex)));
}

#[test]
fn rule_6_11_hinder_search_stops_the_arms_search_but_not_a_capture() {
    let g = game();
    let mut s = empty_board(&g, 58);
    let lex = region(&g, "lexington");
    s.arms[lex as usize] = ARMS_HIDDEN;
    put(&g, &mut s, "r1", "lexington");
    s.hinder[HINDER_SEARCH as usize] = HinderAt::Map {
        region: lex,
        turns: 2,
    };
    round(&mut s, BRITISH, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::Search(lex)));
    let adams = put(&g, &mut s, "adams", "lexington");
    top_card(&mut s, 12);
    apply(&g, &mut s, Action::Search(lex));
    assert!(s.units[adams as usize].flipped, "the capture goes ahead");
    assert_eq!(
        s.arms[lex as usize], ARMS_HIDDEN,
        "the arms are not searched"
    );
}

#[test]
fn rule_6_11_hinder_muster_stops_a_rider_alerting() {
    let g = game();
    let mut s = empty_board(&g, 59);
    let med = region(&g, "medford");
    s.gather[med as usize] = GATHER;
    let rev = put(&g, &mut s, "revere", "medford");
    s.hinder[HINDER_MUSTER as usize] = HinderAt::Map {
        region: med,
        turns: 2,
    };
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    assert!(!legal(&g, &s).contains(&Action::Alert));
    s.hinder[HINDER_MUSTER as usize] = HinderAt::Available;
    assert!(legal(&g, &s).contains(&Action::Alert));
}

#[test]
fn rule_6_11_each_hinder_marker_has_its_owner_and_its_place() {
    let g = game();
    let mut s = empty_board(&g, 60);
    let (med, lex, lin) = (
        region(&g, "medford"),
        region(&g, "lexington"),
        region(&g, "lincoln"),
    );
    s.gather[med as usize] = MUSTER;
    s.arms[lex as usize] = ARMS_HIDDEN;
    round(&mut s, BRITISH, 2, 2);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Hinder(HINDER_MUSTER, med)));
    assert!(
        !l.contains(&Action::Hinder(HINDER_MUSTER, lin)),
        "only on a Gather/Muster marker"
    );
    assert!(
        !l.iter()
            .any(|a| matches!(a, Action::Hinder(m, _) if *m != HINDER_MUSTER))
    );
    round(&mut s, PATRIOT, 2, 2);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Hinder(HINDER_SEARCH, lex)));
    assert!(
        !l.contains(&Action::Hinder(HINDER_SEARCH, lin)),
        "only on Hidden Arms"
    );
    assert!(
        l.contains(&Action::Hinder(HINDER_MOVEMENT, lin)),
        "any region"
    );
    assert!(
        !l.iter()
            .any(|a| matches!(a, Action::Hinder(HINDER_MUSTER, _)))
    );
    // A marker on the map is not placed again; the opponent may remove it.
    apply(&g, &mut s, Action::Hinder(HINDER_MOVEMENT, lin));
    assert_eq!(
        s.hinder[HINDER_MOVEMENT as usize],
        HinderAt::Map {
            region: lin,
            turns: 2
        },
        "placed on its 2 side"
    );
    assert!(legal(&g, &s).contains(&Action::Unhinder(HINDER_MOVEMENT)));
    round(&mut s, PATRIOT, 2, 2);
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Hinder(HINDER_MOVEMENT, _)))
    );
}

#[test]
fn rule_4_3_units_under_a_marker_cannot_be_activated_or_attacked() {
    let g = game();
    let mut s = empty_board(&g, 61);
    let lex = region(&g, "lexington");
    s.gather[lex as usize] = MUSTER;
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 2);
    s.units[m1 as usize].under = true;
    put(&g, &mut s, "r1", "lexington");
    round(&mut s, PATRIOT, 2, 2);
    let l = legal(&g, &s);
    assert!(!l.contains(&Action::Move(lex)) && !l.contains(&Action::Attack(lex)));
    assert!(
        !l.iter()
            .any(|a| matches!(a, Action::Assemble(f, _) if *f == lex))
    );
    round(&mut s, BRITISH, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::Attack(lex)));
    s.units[m1 as usize].under = false;
    assert!(legal(&g, &s).contains(&Action::Attack(lex)));
}

#[test]
fn rule_4_3_the_minutemen_s_free_move_leaves_them_free_to_move_again() {
    let g = game();
    let mut s = empty_board(&g, 62);
    s.turn = 2;
    let lex = region(&g, "lexington");
    s.gather[lex as usize] = GATHER;
    let mm = put(&g, &mut s, "mm3", "lexington");
    s.units[mm as usize].under = true;
    put(&g, &mut s, "r1", "lexington");
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Move(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    let con = region(&g, "concord");
    apply(&g, &mut s, Action::To(con));
    assert_eq!(s.units[mm as usize].at, Loc::At(con));
    assert!(!s.units[mm as usize].moved, "no Move marker");
    apply(&g, &mut s, Action::Stop);
    assert_eq!(to_act(&s), Some(PATRIOT));
    assert!(
        legal(&g, &s).contains(&Action::Move(con)),
        "it may move again this turn"
    );
}

#[test]
fn rule_4_2_a_wounded_leader_still_rallies() {
    let g = game();
    let mut s = empty_board(&g, 63);
    let lex = region(&g, "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    s.units[m1 as usize].flipped = true;
    round(&mut s, PATRIOT, 2, 2);
    assert!(
        !legal(&g, &s).contains(&Action::Rally(lex)),
        "6.8: no leader, no rally"
    );
    let p = put(&g, &mut s, "parker", "lexington");
    s.units[p as usize].flipped = true;
    apply(&g, &mut s, Action::Rally(lex));
    apply(&g, &mut s, Action::Pick(m1));
    assert!(!s.units[m1 as usize].flipped);
    assert!(
        s.units[p as usize].rallied && s.units[p as usize].flipped,
        "still wounded"
    );
    // A second hit kills the wounded leader.
    let mut ev = Vec::new();
    g.hit(&mut s, p, &mut ev);
    assert_eq!(s.units[p as usize].at, Loc::Removed);
    assert_eq!(
        s.vp.0[BRITISH as usize][Cause::Killed as usize],
        2 * g.data.vp.killed_leader
    );
}

#[test]
fn rule_5_3_faq_at_the_end_of_turn_only_captives_move_and_only_toward_boston() {
    let g = game();
    let mut s = empty_board(&g, 64);
    let a = put(&g, &mut s, "adams", "lexington");
    s.units[a as usize].flipped = true;
    put(&g, &mut s, "r1", "lexington");
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert!(matches!(s.phase, Phase::Captives { .. }));
    let men = region(&g, "menotomy");
    assert_eq!(legal(&g, &s), vec![Action::To(men), Action::Done]);
    apply(&g, &mut s, Action::To(men));
    apply(&g, &mut s, Action::To(region(&g, "cambridge")));
    assert_eq!(
        s.units[unit(&g, &s, "r1") as usize].at,
        Loc::At(region(&g, "lexington"))
    );
    assert!(
        !matches!(s.phase, Phase::Captives { .. }),
        "two regions at most"
    );
}

#[test]
fn rule_6_6_ambush_needs_two_moved_unbroken_regulars_the_cannon_aside() {
    let g = game();
    let mut s = empty_board(&g, 65);
    s.shot = true;
    let lin = region(&g, "lincoln");
    let r1 = put(&g, &mut s, "p1", "lincoln");
    let c = put(&g, &mut s, "cannon", "lincoln");
    let r2 = put(&g, &mut s, "p2", "lincoln");
    s.units[r1 as usize].moved = true;
    s.units[c as usize].moved = true;
    round(&mut s, PATRIOT, 2, 2);
    assert!(
        !legal(&g, &s).contains(&Action::Ambush(lin)),
        "r2 has not moved"
    );
    s.units[r2 as usize].moved = true;
    s.units[r2 as usize].flipped = true;
    assert!(
        !legal(&g, &s).contains(&Action::Ambush(lin)),
        "r2 is broken"
    );
    s.units[r2 as usize].flipped = false;
    assert!(legal(&g, &s).contains(&Action::Ambush(lin)));
}

#[test]
fn rule_6_7_snipe_rolls_for_every_unbroken_regular_and_healthy_leader_but_not_the_cannon() {
    let g = game();
    let mut s = empty_board(&g, 66);
    s.shot = true;
    let lin = region(&g, "lincoln");
    for id in ["p1", "p2", "p3", "p4"] {
        let u = put(&g, &mut s, id, "lincoln");
        s.units[u as usize].moved = true;
        s.units[u as usize].marched = true;
    }
    for id in ["cannon", "p5", "percy"] {
        put(&g, &mut s, id, "lincoln");
    }
    let p6 = put(&g, &mut s, "p6", "lincoln");
    s.units[p6 as usize].flipped = true;
    s.shot = false;
    round(&mut s, PATRIOT, 2, 2);
    assert!(
        !legal(&g, &s).contains(&Action::Snipe(lin)),
        "10.0: not before the Shot"
    );
    s.shot = true;
    let side = to_act(&s).unwrap();
    let ev = g.apply(&mut s, side, Action::Snipe(lin)).unwrap();
    let dice = ev.iter().find_map(|e| match e {
        muster_revolution_road::Event::Roll {
            dice,
            section: "6.7",
            ..
        } => Some(*dice),
        _ => None,
    });
    assert_eq!(
        dice,
        Some(6),
        "p1-p5 and Percy; not the cannon or the broken p6"
    );
    round(&mut s, PATRIOT, 2, 2);
    assert!(
        !legal(&g, &s).contains(&Action::Snipe(lin)),
        "one Snipe marker per region"
    );
}

#[test]
fn rule_12_0_the_percy_award_needs_the_cannon_and_four_unbroken_regulars() {
    let g = game();
    for (ids, broken, award) in [
        (&["percy", "p1", "p2", "p3", "p4"][..], None, false),
        (
            &["percy", "cannon", "p1", "p2", "p3", "p4"][..],
            Some("p4"),
            false,
        ),
        (&["cannon", "p1", "p2", "p3", "p4"][..], None, false),
        (&["percy", "cannon", "p1", "p2", "p3", "p4"][..], None, true),
    ] {
        let mut s = empty_board(&g, 67);
        for id in ids {
            put(&g, &mut s, id, "lexington");
        }
        if let Some(b) = broken {
            let u = unit(&g, &s, b);
            s.units[u as usize].flipped = true;
        }
        round(&mut s, BRITISH, 2, 2);
        apply(&g, &mut s, Action::Intel);
        assert_eq!(s.percy_award, award, "{ids:?} broken {broken:?}");
    }
}

#[test]
fn rule_11_0_only_an_unbroken_regular_reaches_concord() {
    let g = game();
    let mut s = empty_board(&g, 68);
    let r1 = put(&g, &mut s, "r1", "concord");
    s.units[r1 as usize].flipped = true;
    put(&g, &mut s, "smith", "concord");
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Intel);
    assert!(!s.concord);
    assert_eq!(s.vp.halves(BRITISH), 0);
    assert!(s.shot, "10.0: any British unit in Concord fires the Shot");
}

/// Every 15.2 "Roll" event of a list of events.
fn solitaire_rolls(ev: &[muster_revolution_road::Event]) -> usize {
    ev.iter()
        .filter(|e| {
            matches!(
                e,
                muster_revolution_road::Event::Roll {
                    section: "15.2",
                    ..
                }
            )
        })
        .count()
}

#[test]
fn rule_15_2_percy_s_water_landing_draws_no_opportunity_fire() {
    let g = game();
    let mut s = empty_solitaire(&g, 71);
    put(&g, &mut s, "p1", "boston");
    for id in ["mm1", "mm2", "mm3"] {
        put(&g, &mut s, id, "cambridge");
    }
    apply(&g, &mut s, Action::Move(region(&g, "boston")));
    pick(&g, &mut s, "p1");
    let side = to_act(&s).unwrap();
    // Lechmere Point lies next to Cambridge and its three Minutemen.
    let mut land = s.clone();
    let ev = g
        .apply(&mut land, side, Action::To(region(&g, "lechmere-point")))
        .unwrap();
    assert_eq!(solitaire_rolls(&ev), 0, "no fire on the landing");
    // Marching out by land into Roxbury, by the Minutemen in Jamaica Plain, draws fire.
    for id in ["mm1", "mm2", "mm3"] {
        let u = unit(&g, &s, id);
        s.units[u as usize].at = Loc::At(region(&g, "jamaica-plain"));
    }
    let ev = g
        .apply(&mut s, side, Action::To(region(&g, "roxbury")))
        .unwrap();
    assert_eq!(solitaire_rolls(&ev), 1);
}

#[test]
fn rule_15_2_a_british_assault_draws_no_opportunity_fire() {
    let g = game();
    let mut s = empty_solitaire(&g, 72);
    for id in ["r1", "r2"] {
        put(&g, &mut s, id, "menotomy");
    }
    put(&g, &mut s, "mm1", "lexington");
    for id in ["mm2", "mm3"] {
        put(&g, &mut s, id, "cambridge");
    }
    let mut ev = Vec::new();
    for a in [
        Action::Assault(region(&g, "menotomy"), region(&g, "lexington")),
        Action::Pick(unit(&g, &s, "r1")),
        Action::Pick(unit(&g, &s, "r2")),
        Action::Done,
    ] {
        let side = to_act(&s).unwrap();
        ev.extend(g.apply(&mut s, side, a).unwrap());
    }
    assert_eq!(
        s.units[unit(&g, &s, "r1") as usize].at,
        Loc::At(region(&g, "lexington"))
    );
    assert_eq!(solitaire_rolls(&ev), 0);
}

#[test]
fn rule_15_2_solitaire_rally_smith_and_pitcairn_one_each_percy_two_while_healthy() {
    let g = game();
    let mut s = empty_solitaire(&g, 73);
    let lin = region(&g, "lincoln");
    for id in ["r1", "r2", "r3", "r4", "r5"] {
        let u = put(&g, &mut s, id, "lincoln");
        s.units[u as usize].flipped = true;
    }
    // Even before an unbroken Regular has entered Concord (11.0 would not limit them yet).
    s.concord = false;
    let smith = put(&g, &mut s, "smith", "lincoln");
    assert_eq!(
        g.rally_capacity(&s, BRITISH, lin),
        1,
        "Smith: one, Concord or not"
    );
    s.units[smith as usize].at = Loc::Removed;
    put(&g, &mut s, "pitcairn", "lincoln");
    assert_eq!(g.rally_capacity(&s, BRITISH, lin), 1);
    let percy = put(&g, &mut s, "percy", "lincoln");
    assert_eq!(g.rally_capacity(&s, BRITISH, lin), 3, "Percy healthy: two");
    s.units[percy as usize].flipped = true;
    assert_eq!(g.rally_capacity(&s, BRITISH, lin), 2, "Percy wounded: one");
}

#[test]
fn rule_15_2_casualties_count_half_per_broken_unit_and_strength_per_destroyed_less_reserves() {
    let g = game();
    let s0 = g
        .new_game("solitaire-british", &Options::new(), 74)
        .unwrap();
    let base = g.casualties_halves(&s0);
    let broken_at_start = s0
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| g.side_of(&s0, *i as u8) == BRITISH && u.flipped && u.kind.military())
        .count() as i16;
    assert_eq!(
        base, broken_at_start,
        "four broken Regulars in Concord: 4 halves"
    );
    let mut s = s0.clone();
    let p1 = unit(&g, &s, "p1");
    s.units[p1 as usize].flipped = true;
    assert_eq!(g.casualties_halves(&s), base + 1, "a broken unit: 1/2");
    let p2 = unit(&g, &s, "p2");
    s.units[p2 as usize].at = Loc::Removed;
    assert_eq!(
        g.casualties_halves(&s),
        base + 1 + 4,
        "a destroyed Regular: its 2 SP"
    );
    s.reserves[BRITISH as usize] = 1;
    assert_eq!(
        g.casualties_halves(&s),
        base + 1 + 4 - 2,
        "a reserve held: one less"
    );
}

#[test]
fn rule_15_2_lexington_scores_2_or_3_by_the_strength_odds() {
    let g = game();
    for (regulars, expect) in [(&["p1"][..], 2i16), (&["p1", "p2"][..], 3)] {
        let mut s = g
            .new_game("solitaire-british", &Options::new(), 75)
            .unwrap();
        let (lex, lin) = (region(&g, "lexington"), region(&g, "lincoln"));
        for i in 0..s.units.len() {
            if g.side_of(&s, i as u8) == PATRIOT && s.units[i].at == Loc::At(lex) {
                s.units[i].at = Loc::At(lin);
            }
        }
        for id in regulars {
            put(&g, &mut s, id, "lexington");
        }
        let mm = put(&g, &mut s, "mm1", "lexington");
        s.units[mm as usize].flipped = false;
        s.units[mm as usize].under = false;
        s.turn = 12;
        round(&mut s, BRITISH, 1, 0);
        apply(&g, &mut s, Action::Pass);
        // Not consolidated (Percy's other men are in Boston): only the Lexington points.
        assert_eq!(
            s.vp.0[BRITISH as usize][Cause::Objectives as usize],
            2 * expect,
            "{} SP against 1",
            2 * regulars.len()
        );
    }
}

#[test]
fn rule_15_2_attrition_disbands_broken_patriots_on_5_and_british_on_6() {
    let g = game();
    for (side_id, die, destroyed) in [
        ("m1", 5u8, true),
        ("m1", 4, false),
        ("r1", 5, false),
        ("r1", 6, true),
    ] {
        let mut s = empty_solitaire(&g, 76);
        put(&g, &mut s, "p8", "lexington");
        let u = if side_id == "m1" {
            put_militia(&g, &mut s, "m1", "lincoln", 1)
        } else {
            put(&g, &mut s, "r1", "lincoln")
        };
        s.units[u as usize].flipped = true;
        s.turn = 12;
        round(&mut s, BRITISH, 1, 0);
        s.dice = dice_rolling(&[die]);
        apply(&g, &mut s, Action::Pass);
        assert_eq!(
            s.units[u as usize].at == Loc::Removed,
            destroyed,
            "{side_id} rolls {die}"
        );
        let foe = if side_id == "m1" { BRITISH } else { PATRIOT };
        let (d, b) = (
            s.vp.0[foe as usize][Cause::Destroyed as usize],
            s.vp.0[foe as usize][Cause::EndBroken as usize],
        );
        assert_eq!(
            (d, b),
            if destroyed { (2, 0) } else { (0, 1) },
            "1 VP or 1/2 VP"
        );
    }
}

#[test]
fn rule_4_4_sons_move_alone_and_are_never_hit() {
    let g = game();
    let mut s = empty_board(&g, 77);
    let lex = region(&g, "lexington");
    let adams = put(&g, &mut s, "adams", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 1);
    round(&mut s, PATRIOT, 2, 2);
    let mut t = s.clone();
    apply(&g, &mut t, Action::MoveSon(adams));
    assert!(
        legal(&g, &t).iter().all(|a| matches!(a, Action::To(_))),
        "no other unit joins the Son's Move action"
    );
    put(&g, &mut s, "r1", "lexington");
    put(&g, &mut s, "smith", "lexington");
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Charge(lex));
    let r1 = unit(&g, &s, "r1");
    apply(&g, &mut s, Action::Hit(r1));
    assert!(matches!(s.phase, Phase::Hits { side: PATRIOT, .. }));
    assert!(!legal(&g, &s).contains(&Action::Hit(adams)));
}

#[test]
fn rule_9_0_faq_a_first_turn_move_may_both_land_and_march() {
    let g = game();
    let mut s = empty_board(&g, 78);
    s.turn = 1;
    put(&g, &mut s, "r1", "boston");
    put(&g, &mut s, "r2", "boston");
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Move(region(&g, "boston")));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::To(region(&g, "lechmere-point")));
    assert!(
        matches!(s.phase, Phase::Move { steps: 0, .. }),
        "the same action goes on"
    );
    pick(&g, &mut s, "r2");
    apply(&g, &mut s, Action::To(region(&g, "roxbury")));
    apply(&g, &mut s, Action::Stop);
    assert_eq!(
        s.units[unit(&g, &s, "r1") as usize].at,
        Loc::At(region(&g, "lechmere-point"))
    );
    assert_eq!(
        s.units[unit(&g, &s, "r2") as usize].at,
        Loc::At(region(&g, "roxbury"))
    );
    assert_eq!(s.actions[BRITISH as usize], 2, "one action for both");
}

#[test]
fn rule_2_0_an_empty_draw_pile_is_reshuffled_from_the_discards() {
    let g = game();
    let mut s = empty_board(&g, 84);
    s.turn = 3;
    let all: Vec<u8> = s.deck.draw.drain(..).collect();
    s.deck.discard.extend(all);
    assert!(s.deck.draw.is_empty());
    round(&mut s, BRITISH, 1, 0);
    assert!(
        legal(&g, &s).contains(&Action::Pass),
        "5.2: Pass is always there"
    );
    let ev = g.apply(&mut s, BRITISH, Action::Pass).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, muster_revolution_road::Event::Reshuffle))
    );
    assert_eq!(s.turn, 4);
    assert!(s.card != 0);
    assert_eq!(s.deck.draw.len() + s.deck.discard.len(), 22, "no card lost");
    assert_eq!(
        s.deck.discard.last(),
        Some(&s.card),
        "the turn's card lies face up"
    );
}

#[test]
fn rule_5_3_muster_markers_come_off_before_hinder_markers_do() {
    let g = game();
    let mut s = empty_board(&g, 85);
    let med = region(&g, "medford");
    s.gather[med as usize] = MUSTER;
    let m1 = put(&g, &mut s, "m1", "medford");
    s.units[m1 as usize].under = true;
    // Hinder Muster on its 1 side: it still protects the Muster marker at step 1, and only
    // then leaves the map (6.11 note).
    s.hinder[HINDER_MUSTER as usize] = HinderAt::Map {
        region: med,
        turns: 1,
    };
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert_eq!(s.gather[med as usize], MUSTER);
    assert!(s.units[m1 as usize].under);
    assert_eq!(s.hinder[HINDER_MUSTER as usize], HinderAt::Available);
    // The next end of turn, unprotected, it comes off.
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert_eq!(s.gather[med as usize], NO_MARKER);
    assert!(!s.units[m1 as usize].under);
}

#[test]
fn rule_9_0_after_the_opening_call_no_second_call_to_arms_on_turn_1() {
    let g = game();
    let mut s = g.new_game("standard", &Options::new(), 86).unwrap();
    finish_opening(&g, &mut s);
    assert_eq!(s.turn, 1);
    for id in ["revere", "dawes"] {
        let u = unit(&g, &s, id);
        assert!(
            s.units[u as usize].moved,
            "{id}: the opening call marks every rider"
        );
        s.units[u as usize].moved = false;
    }
    round(&mut s, PATRIOT, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::CallToArms));
    // From turn 2 the call is back.
    round(&mut s, PATRIOT, 1, 0);
    apply(&g, &mut s, Action::Pass);
    while matches!(s.phase, Phase::Captives { .. }) {
        apply(&g, &mut s, Action::Done);
    }
    assert_eq!(s.turn, 2);
    round(&mut s, PATRIOT, 2, 2);
    assert!(legal(&g, &s).contains(&Action::CallToArms));
}

#[test]
fn rule_6_12_evading_the_british_costs_one_more_point() {
    let g = game();
    let mut s = empty_board(&g, 87);
    let rev = put(&g, &mut s, "revere", "menotomy");
    put(&g, &mut s, "r1", "menotomy");
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    let lex = region(&g, "lexington");
    let mut risk = s.clone();
    apply(&g, &mut s, Action::Ride(lex, true));
    assert!(
        matches!(s.phase, Phase::Riders { ap: 2, .. }),
        "one for the region, one to evade"
    );
    assert!(!s.units[rev as usize].flipped);
    // Risking the roll instead: a 6 captures him where he is.
    risk.dice = dice_rolling(&[6]);
    apply(&g, &mut risk, Action::Ride(lex, false));
    assert!(risk.units[rev as usize].flipped);
    assert_eq!(risk.units[rev as usize].at, Loc::At(region(&g, "menotomy")));
}

#[test]
fn rule_8_1_faq_units_under_a_marker_do_not_reduce_the_marks() {
    let g = game();
    let mut s = empty_board(&g, 91);
    let lex = region(&g, "lexington");
    s.arms[lex as usize] = ARMS_HIDDEN;
    s.gather[lex as usize] = GATHER;
    put(&g, &mut s, "r1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    let mm = put(&g, &mut s, "mm1", "lexington");
    s.units[m1 as usize].under = true;
    s.units[mm as usize].under = true;
    top_card(&mut s, 12);
    round(&mut s, BRITISH, 2, 2);
    apply(&g, &mut s, Action::Search(lex));
    assert_eq!(
        s.vp.0[BRITISH as usize][Cause::Search as usize],
        2 * 3,
        "all three marks"
    );
    assert!(!s.shot, "10.0: no active Patriot unit there");
}

#[test]
fn rule_5_3_captured_riders_are_moved_toward_boston_like_the_sons() {
    let g = game();
    let mut s = empty_board(&g, 92);
    let rev = put(&g, &mut s, "revere", "cambridge");
    s.units[rev as usize].flipped = true;
    round(&mut s, BRITISH, 1, 0);
    apply(&g, &mut s, Action::Pass);
    assert!(matches!(s.phase, Phase::Captives { unit, .. } if unit == rev));
    assert_eq!(to_act(&s), Some(BRITISH));
    apply(&g, &mut s, Action::To(region(&g, "brookline")));
    apply(&g, &mut s, Action::To(region(&g, "roxbury")));
    assert_eq!(s.units[rev as usize].at, Loc::At(region(&g, "roxbury")));
    assert!(!matches!(s.phase, Phase::Captives { .. }));
}

#[test]
fn rule_15_2_attrition_kills_wounded_leaders_on_a_6() {
    let g = game();
    for (die, killed) in [(6u8, true), (5, false)] {
        let mut s = empty_solitaire(&g, 93);
        put(&g, &mut s, "p8", "lexington");
        let w = put(&g, &mut s, "warren", "lincoln");
        s.units[w as usize].flipped = true;
        s.turn = 12;
        round(&mut s, BRITISH, 1, 0);
        s.dice = dice_rolling(&[die]);
        apply(&g, &mut s, Action::Pass);
        assert_eq!(s.units[w as usize].at == Loc::Removed, killed, "die {die}");
        let vp = s.vp.0[BRITISH as usize][Cause::Killed as usize]
            + s.vp.0[BRITISH as usize][Cause::EndWounded as usize]
            + s.vp.0[BRITISH as usize][Cause::EndBroken as usize];
        assert_eq!(
            vp,
            if killed { 2 } else { 0 },
            "1 VP if killed, none if he lives"
        );
    }
}

#[test]
fn rule_6_0_each_side_takes_only_the_actions_its_flag_allows() {
    let g = game();
    for seed in 0..4u64 {
        let mut s = g.new_game("standard", &Options::new(), 900 + seed).unwrap();
        let mut pick = muster_core::Dice::from_seed(seed);
        let mut n = 0;
        while let Some(side) = to_act(&s) {
            let l = legal(&g, &s);
            if matches!(s.phase, Phase::Round { .. }) {
                for a in &l {
                    let british_only = matches!(
                        a,
                        Action::Charge(_) | Action::Search(_) | Action::Hinder(HINDER_MUSTER, _)
                    );
                    let patriot_only = matches!(
                        a,
                        Action::Ambush(_)
                            | Action::Snipe(_)
                            | Action::Assemble(..)
                            | Action::CallToArms
                            | Action::Escape(_)
                            | Action::MoveSon(_)
                            | Action::Hinder(HINDER_MOVEMENT | HINDER_SEARCH, _)
                    );
                    assert!(!(british_only && side == PATRIOT), "{a:?} for the Patriot");
                    assert!(!(patriot_only && side == BRITISH), "{a:?} for the British");
                }
            }
            let a = l[pick.below(l.len() as u32) as usize];
            g.apply(&mut s, side, a).unwrap();
            n += 1;
            assert!(n < 20_000);
        }
    }
}

#[test]
fn rule_4_4_sons_give_none_of_a_leader_s_benefits() {
    let g = game();
    let mut s = empty_board(&g, 95);
    let lex = region(&g, "lexington");
    let m0 = put_militia(&g, &mut s, "m1", "lexington", 0);
    let m2 = put_militia(&g, &mut s, "m2", "lexington", 1);
    s.units[m2 as usize].flipped = true;
    put(&g, &mut s, "adams", "lexington");
    put(&g, &mut s, "hancock", "lexington");
    assert_eq!(
        g.strength(&s, 1u64 << m0),
        0,
        "no pairing with a \"0\" militia"
    );
    round(&mut s, PATRIOT, 2, 2);
    assert!(!legal(&g, &s).contains(&Action::Rally(lex)), "no rally");
    put(&g, &mut s, "parker", "lexington");
    assert_eq!(g.strength(&s, 1u64 << m0), 1);
    assert!(legal(&g, &s).contains(&Action::Rally(lex)));
}

#[test]
fn rule_6_12_leaving_the_map_from_a_guarded_region_costs_a_point_or_a_capture_roll() {
    let g = game();
    let mut s = empty_board(&g, 93);
    let rev = put(&g, &mut s, "revere", "acton-road");
    put(&g, &mut s, "r1", "acton-road");
    round(&mut s, PATRIOT, 2, 2);
    apply(&g, &mut s, Action::CallToArms);
    apply(&g, &mut s, Action::Rider(rev));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Exit) && l.contains(&Action::ExitEvade));
    // Evading: the extra point, no roll.
    let mut evade = s.clone();
    evade.dice = dice_rolling(&[6]);
    apply(&g, &mut evade, Action::ExitEvade);
    assert_eq!(evade.units[rev as usize].at, Loc::Edge(1));
    assert!(!evade.units[rev as usize].flipped);
    // Risking the roll: a 6 captures him where he is.
    let mut risk = s.clone();
    risk.dice = dice_rolling(&[6]);
    apply(&g, &mut risk, Action::Exit);
    assert!(risk.units[rev as usize].flipped);
    assert_eq!(
        risk.units[rev as usize].at,
        Loc::At(region(&g, "acton-road"))
    );
    // A roll under 6: he leaves.
    s.dice = dice_rolling(&[5]);
    apply(&g, &mut s, Action::Exit);
    assert_eq!(s.units[rev as usize].at, Loc::Edge(1));
    // With only one point left he cannot pay to evade.
    let mut low = empty_board(&g, 94);
    let rev = put(&g, &mut low, "revere", "acton-road");
    put(&g, &mut low, "r1", "acton-road");
    round(&mut low, PATRIOT, 2, 2);
    apply(&g, &mut low, Action::CallToArms);
    apply(&g, &mut low, Action::Rider(rev));
    low.phase = Phase::Riders {
        opening: false,
        rider: rev,
        ap: 1,
        done: 0,
    };
    let l = legal(&g, &low);
    assert!(l.contains(&Action::Exit) && !l.contains(&Action::ExitEvade));
    // No Regular: only the plain exit, and no roll.
    let mut free = empty_board(&g, 95);
    let rev = put(&g, &mut free, "revere", "acton-road");
    round(&mut free, PATRIOT, 2, 2);
    apply(&g, &mut free, Action::CallToArms);
    apply(&g, &mut free, Action::Rider(rev));
    assert!(!legal(&g, &free).contains(&Action::ExitEvade));
    free.dice = dice_rolling(&[6]);
    apply(&g, &mut free, Action::Exit);
    assert_eq!(free.units[rev as usize].at, Loc::Edge(1));
}
