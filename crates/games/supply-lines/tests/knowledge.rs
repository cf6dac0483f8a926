//! The bots' knowledge of Supply Lines: what search may skip (never what a player is offered).

mod common;
use common::*;
use muster_core::{Dice, Game, Knowledge, Options};
use muster_supply_lines::state::{Phase, SideId, State};
use muster_supply_lines::{Action, SCENARIO, supply};

/// The bots' supply potential (see `knowledge.rs`): per area, Food and War each squared, over
/// how much the area wants supplies (one, plus two per Unit of the side's army there).
fn potential(s: &State, side: SideId) -> f64 {
    s.areas
        .iter()
        .map(|a| {
            let want = if a.side == Some(side) {
                1.0 + 2.0 * a.units as f64
            } else {
                1.0
            };
            let (f, w) = (a.food as f64, a.war as f64);
            (f * f + w * w) / want
        })
        .sum()
}

fn supply_side(s: &State) -> Option<SideId> {
    match s.phase {
        Phase::Supply { side, .. } => Some(side),
        _ => None,
    }
}

/// §5.3 puts no cap on free supply moves, so a search bot offered every one would shuffle
/// cubes for ever. What the bots weigh never contains `cancel`, is always a subset of the
/// legal actions, and each completed free move lowers the potential, so a bot's supply window
/// always closes.
#[test]
fn rule_5_3_bots_weigh_only_moves_toward_units_and_their_supply_windows_end() {
    let g = game();
    for seed in 0..40u64 {
        let mut s = g.new_game(SCENARIO, &Options::new(), seed).unwrap();
        let mut dice = Dice::from_seed(seed);
        let mut steps = 0;
        while let Some(side) = supply_side(&s) {
            let mut legal = Vec::new();
            g.legal_actions(&s, &mut legal);
            let mut weighed = legal.clone();
            g.prune(&s, &mut weighed);
            assert!(
                !weighed.contains(&Action::Cancel),
                "seed {seed}: cancel weighed"
            );
            assert!(
                weighed.iter().all(|a| legal.contains(a)),
                "seed {seed}: not a subset"
            );
            if weighed.is_empty() {
                weighed = legal.clone();
            }
            let a = weighed[dice.below(weighed.len() as u32) as usize];
            let before = potential(&s, side);
            let who = g.to_act(&s).unwrap();
            g.apply(&mut s, who, a).unwrap();
            if matches!(a, Action::Food(_) | Action::War(_)) {
                assert!(
                    potential(&s, side) < before,
                    "seed {seed}: a weighed supply move did not lower the potential"
                );
            }
            steps += 1;
            assert!(steps < 2_000, "seed {seed}: the supply windows never close");
        }
    }
}

/// The same knowledge leaves every step of putting limits right (§5.5) to be weighed, except
/// cancelling a half-made move.
#[test]
fn rule_5_5_bots_weigh_every_step_of_putting_limits_right() {
    let g = game();
    let mut s = blank(&g, SideId::PATRIOT);
    keep_leaders(&g, &mut s);
    let albany = at(&g, "albany");
    put(&g, &mut s, "albany", SideId::PATRIOT, 2, 1, 8, 3);
    put(&g, &mut s, "kinderhook", SideId::PATRIOT, 3, 0, 0, 0);
    assert!(supply::over(g.data(), &s, SideId::PATRIOT) >> albany & 1 == 1);
    s.phase = Phase::Supply {
        side: SideId::PATRIOT,
        pick: Default::default(),
    };
    let mut legal = Vec::new();
    g.legal_actions(&s, &mut legal);
    assert!(!legal.is_empty());
    let mut weighed = legal.clone();
    g.prune(&s, &mut weighed);
    assert_eq!(weighed, legal);
    // Once a source is picked, every relieving destination is weighed, but not `cancel`
    // (which only brings the same choice back).
    play(&g, &mut s, &["from albany"]);
    let mut legal = Vec::new();
    g.legal_actions(&s, &mut legal);
    let names: Vec<String> = legal.iter().map(|a| g.notation(&s, *a)).collect();
    assert!(legal.contains(&Action::Cancel), "{names:?} {:?}", s.phase);
    let mut weighed = legal.clone();
    g.prune(&s, &mut weighed);
    legal.retain(|&a| a != Action::Cancel);
    assert!(!legal.is_empty());
    assert_eq!(weighed, legal);
}

/// Between two detachments of a March (rulings S16) the bots weigh supply moves by the same
/// rule, and every choice of the march itself stays.
#[test]
fn rule_5_3_bots_weigh_supply_moves_between_detachments_and_keep_the_march() {
    let g = game();
    let mut s = blank(&g, SideId::PATRIOT);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 3, 0, 1, 0);
    put(&g, &mut s, "fort-edward", P, 1, 0, 0, 4);
    play(&g, &mut s, &["march albany", "to saratoga", "units 1"]);
    let mut legal = Vec::new();
    g.legal_actions(&s, &mut legal);
    let mut weighed = legal.clone();
    g.prune(&s, &mut weighed);
    let names: Vec<String> = weighed.iter().map(|a| g.notation(&s, *a)).collect();
    assert!(weighed.iter().all(|a| legal.contains(a)), "{names:?}");
    for keep in ["to mohawk-valley", "to kinderhook", "end-march"] {
        assert!(names.contains(&keep.to_string()), "{keep}: {names:?}");
    }
    // Fort Edward's War is wanted where the Units stand: the move toward them is weighed.
    assert!(names.contains(&"from fort-edward".to_string()), "{names:?}");
    play(&g, &mut s, &["from fort-edward"]);
    let mut weighed = Vec::new();
    g.legal_actions(&s, &mut weighed);
    assert!(weighed.contains(&Action::Cancel));
    g.prune(&s, &mut weighed);
    assert!(!weighed.contains(&Action::Cancel));
    assert!(!weighed.is_empty());
}

/// When Food is stuck in a full Crown line, the bots weigh sending War elsewhere on the line
/// to the Sea Box (§5.5) every step of the way, and are never left with only `cancel`.
#[test]
fn rule_5_5_bots_weigh_making_room_through_the_sea_box() {
    let g = game();
    let mut s = blank(&g, SideId::CROWN);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", SideId::CROWN, 4, 1, 9, 0);
    put(&g, &mut s, "roxbury", SideId::CROWN, 1, 0, 0, 2);
    for step in [
        "from roxbury",
        "to sea",
        "war 1",
        "from boston",
        "to roxbury",
    ] {
        let mut legal = Vec::new();
        g.legal_actions(&s, &mut legal);
        let mut weighed = legal.clone();
        g.prune(&s, &mut weighed);
        legal.retain(|&a| a != Action::Cancel);
        assert_eq!(weighed, legal, "before {step}");
        assert!(
            weighed.contains(&action(&g, &s, step)),
            "{step} not weighed"
        );
        play(&g, &mut s, &[step]);
    }
}

/// §13.4 (rulings S24): the concession is offered to players, but no bot takes it: the
/// `random` baseline picks among the other actions, search bots never weigh it, and playouts
/// give it weight 0.
#[test]
fn rule_13_4_no_bot_concedes() {
    use muster_ai::{Level, choose};
    let g = game();
    let mut s = g.new_game(SCENARIO, &Options::new(), 5).unwrap();
    let mut pick = Dice::from_seed(9);
    let mut legal = Vec::new();
    let mut offered = 0;
    // Random bots play 300 decisions (or to the end): never a concession.
    for n in 0..300u64 {
        let Some(side) = g.to_act(&s) else { break };
        g.legal_actions(&s, &mut legal);
        if legal.contains(&Action::Concede) {
            offered += 1;
            assert_eq!(g.playout_weight(&s, Action::Concede), 0);
            let mut pruned = legal.clone();
            g.prune(&s, &mut pruned);
            assert!(!pruned.contains(&Action::Concede));
            for seed in 0..50 {
                assert_ne!(choose(&g, &s, Level::Random, seed), Some(Action::Concede));
            }
            assert_ne!(choose(&g, &s, Level::Easy, n), Some(Action::Concede));
        }
        let a = choose(&g, &s, Level::Random, n ^ pick.next_u64()).unwrap();
        g.apply(&mut s, side, a).unwrap();
    }
    assert!(offered > 10, "the concession was offered {offered} times");
}

/// §13.4: `muster bench`'s random player (`muster_core::bench`) skips the concession too, so
/// its games run to a real end (before issue 15 it picked uniformly and most games ended by
/// concession within the opening turns).
#[test]
fn rule_13_4_bench_play_outs_never_end_by_concession() {
    use muster_core::bench::{play_out, random_games};
    use muster_supply_lines::state::EndReason;
    let g = game();
    let mut pick = Dice::from_seed(3);
    let mut actions = Vec::new();
    let mut reasons = Vec::new();
    for seed in 0..40 {
        let mut s = g.new_game(SCENARIO, &Options::new(), seed).unwrap();
        let decisions = play_out(&g, &mut s, &mut pick, &mut actions).unwrap();
        let ended = s.ended.expect("a play-out plays to the end");
        assert_ne!(ended.reason, EndReason::Concession, "seed {seed}");
        assert!(decisions > 100, "seed {seed}: {decisions} decisions");
        reasons.push(ended.reason);
    }
    assert!(reasons.iter().any(|r| *r != reasons[0]), "{reasons:?}");
    // The bench report counts the same games: 20 games make well over 20 × 100 decisions.
    let r = random_games(&g, SCENARIO, &Options::new(), 20, 0).unwrap();
    assert!(r.decisions > 2_000, "{} decisions", r.decisions);
}

/// §7.5 with §7.3: a Dig-In only pays against an Attack, which only an adjacent enemy army can
/// make, so the bots weigh it only with an enemy army next door (the Sea Box counting for a
/// port); the player is still offered it everywhere the rules allow.
#[test]
fn rule_7_5_bots_weigh_digging_in_only_with_an_enemy_army_adjacent() {
    let g = game();
    let weighed = |s: &State| {
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        let mut w = legal.clone();
        g.prune(s, &mut w);
        assert!(w.iter().all(|a| legal.contains(a)));
        (legal, w)
    };
    let dig = |s: &State, id: &str| action(&g, s, &format!("dig-in {id}"));
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 3, 1, 2, 2);
    let (legal, w) = weighed(&s);
    let albany = dig(&s, "albany");
    assert!(legal.contains(&albany), "the rules offer the Dig-In");
    assert!(!w.contains(&albany), "no enemy near: not weighed");
    assert!(
        w.iter().any(|a| matches!(a, Action::Activate(..))),
        "the army's other orders stay"
    );
    // A Crown army one line away (Saratoga touches Albany): now it is weighed.
    put(&g, &mut s, "saratoga", C, 2, 1, 0, 0);
    let (_, w) = weighed(&s);
    assert!(w.contains(&albany));
    // A Crown army two areas away (Fort Edward, beyond Saratoga) is no threat this impulse.
    put(&g, &mut s, "saratoga", C, 0, 0, 0, 0);
    put(&g, &mut s, "fort-edward", C, 2, 1, 0, 0);
    let (_, w) = weighed(&s);
    assert!(!w.contains(&albany));
    // A Patriot port with Crown Units in the Sea Box: the Sea Box touches every port (§2.1).
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "new-york", P, 2, 1, 2, 2);
    let ny = dig(&s, "new-york");
    assert!(!weighed(&s).1.contains(&ny));
    let sea = g.data().sea;
    let x = s.area_mut(sea);
    x.side = Some(C);
    x.units = 2;
    assert!(weighed(&s).1.contains(&ny));
}

/// The bots' evaluation for the Patriot, in (0, 1).
fn patriot_value(g: &muster_supply_lines::SupplyLines, s: &State) -> f32 {
    let v = g.evaluate(s, SideId::PATRIOT.0).expect("an estimate");
    assert!(v > 0.0 && v < 1.0);
    v
}

/// §11.0: the Crown holding Philadelphia at a Turn End moves the Support Marker back, so the
/// evaluation counts that move before it is made: the same Crown army in Philadelphia is
/// worse for the Patriot than in Baltimore, another Victory City, with no Patriot army near
/// either.
#[test]
fn rule_11_0_the_evaluation_counts_the_turn_ends_support_move_for_philadelphia() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "york", P, 0, 0, 0, 0);
    put(&g, &mut s, "kennebec", P, 1, 1, 0, 0);
    let mut phila = s.clone();
    put(&g, &mut phila, "philadelphia", C, 3, 1, 0, 0);
    let mut balt = s.clone();
    put(&g, &mut balt, "baltimore", C, 3, 1, 0, 0);
    assert!(patriot_value(&g, &phila) < patriot_value(&g, &balt));
    // The Crown's view is the complement.
    let crown = g.evaluate(&phila, SideId::CROWN.0).unwrap();
    assert!((crown + patriot_value(&g, &phila) - 1.0).abs() < 1e-5);
}

/// §7.3: a Victory City is taken back by an Attack from an adjacent area, so a Patriot army
/// next to a Crown-held Victory City is valued above the same army far from it; and the
/// supplies an army stands on (Food to move, War to fight, §7.1, §8.2) count for its side.
#[test]
fn rule_7_3_the_evaluation_values_patriot_armies_near_crown_cities_and_their_supplies() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 3, 1, 0, 0);
    let mut near = s.clone();
    put(&g, &mut near, "roxbury", P, 4, 1, 0, 0);
    let mut far = s.clone();
    put(&g, &mut far, "hartford", P, 4, 1, 0, 0);
    assert!(patriot_value(&g, &near) > patriot_value(&g, &far));
    let mut supplied = near.clone();
    put(&g, &mut supplied, "roxbury", P, 4, 1, 2, 1);
    assert!(patriot_value(&g, &supplied) > patriot_value(&g, &near));
    let mut crown_supplied = near.clone();
    put(&g, &mut crown_supplied, "boston", C, 3, 1, 2, 1);
    assert!(patriot_value(&g, &crown_supplied) < patriot_value(&g, &near));
}
