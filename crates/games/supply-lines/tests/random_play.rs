//! Random play over thousands of seeds: every game ends, nothing panics, every listed action
//! applies and every other action is refused without changing the state, and the invariants
//! hold after every decision. Also: records replay byte for byte, positions round-trip, and
//! views never carry the dice.

mod common;
use common::*;
use muster_core::{Dice, Game, Options, Session, Viewer};
use muster_supply_lines::data::Kind;
use muster_supply_lines::state::{Order, Phase, SideId, State};
use muster_supply_lines::supply::limit;
use muster_supply_lines::{Action, SCENARIO, SupplyLines};
use std::sync::Arc;

fn check_invariants(g: &SupplyLines, s: &State) {
    let d = g.data();
    // §2.3: cube totals within 60 Food and 40 War, counting what an attacking army carries
    // in a battle under way; what is in neither place is in the stock.
    let (bf, bw) = muster_supply_lines::supply::carried_in_battle(s);
    let (food, war) = (s.food_on_map() + bf as u32, s.war_on_map() + bw as u32);
    assert!(food <= d.food_cubes as u32, "food {food}");
    assert!(war <= d.war_cubes as u32, "war {war}");
    // §11.0: the Support Marker stays on its track, not below the Declaration once declared.
    assert!(s.support <= d.treaty);
    if s.declared {
        assert!(s.support >= d.declaration);
    }
    assert!((s.pass as usize) < d.pass_labels.len());
    for (i, (x, def)) in s.areas.iter().zip(&d.areas).enumerate() {
        if x.units == 0 {
            assert!(
                x.leaders == 0 || i as u8 == d.nova_scotia,
                "leaders alone in {}",
                def.id
            );
            if def.kind == Kind::Point {
                assert_eq!(x.cubes(), 0, "orphan supplies at {}", def.id);
            }
        }
        if x.units > 0 {
            assert!(x.side.is_some());
        }
        if def.kind == Kind::Sea {
            assert_eq!(x.food, 0, "only War in the Sea Box");
            assert_ne!(x.side, Some(SideId::PATRIOT));
        }
        if i as u8 == d.nova_scotia {
            assert_ne!(x.side, Some(SideId::PATRIOT));
        }
    }
    // The checks a position must pass to be loaded hold after every decision.
    g.check(s)
        .unwrap_or_else(|e| panic!("{e}\n{}", serde_json::to_string(s).unwrap()));
    if s.ended.is_some() {
        assert_eq!(s.phase, Phase::Over);
    } else {
        assert!(s.turn >= 1 && s.turn <= d.turns());
    }
}

/// §5.3: when a side finishes moving supplies, every area it holds is within its limit.
fn check_limits(g: &SupplyLines, s: &State, side: SideId) {
    let d = g.data();
    for (i, x) in s.areas.iter().enumerate() {
        if x.held_by(side) {
            assert!(
                x.cubes() <= limit(d, s, i as u8),
                "{} holds {} cubes over its limit after {:?} finished moving supplies",
                d.areas[i].id,
                x.cubes(),
                side
            );
        }
    }
}

/// Every action this game could ever name, for the test of agreement.
fn universe(s: &State) -> Vec<Action> {
    let mut v = vec![
        Action::Cancel,
        Action::Done,
        Action::EndMarch,
        Action::Pass,
        Action::Accept,
        Action::Request,
        Action::Triumvirate,
        Action::NoRequest,
        Action::Concede,
    ];
    for a in 0..s.areas.len() as u8 + 1 {
        v.extend([Action::From(a), Action::To(a), Action::Discard(a)]);
        for o in Order::ALL {
            v.push(Action::Activate(a, o));
        }
    }
    for n in 0..=20 {
        v.extend([
            Action::Food(n),
            Action::War(n),
            Action::Units(n),
            Action::Leaders(n),
        ]);
    }
    v
}

fn check_agreement(g: &SupplyLines, s: &State) {
    let side = g.to_act(s).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    for a in universe(s) {
        let mut t = s.clone();
        let listed = legal.contains(&a);
        match g.apply(&mut t, side, a) {
            Ok(_) => assert!(listed, "{a:?} applied but is not listed in {:?}", s.phase),
            Err(e) => {
                assert!(!listed, "{a:?} is listed but refused: {e}");
                assert_eq!(&t, s, "a refused action changed the state");
            }
        }
    }
    let mut t = s.clone();
    assert!(g.apply(&mut t, 1 - side, legal[0]).is_err());
    assert_eq!(&t, s);
}

/// Plays a random game; concession is left out unless `concede` (so games run their course).
fn play_random(
    g: &SupplyLines,
    seed: u64,
    agreement_every: Option<usize>,
    concede: bool,
) -> (State, usize) {
    let mut s = g.new_game(SCENARIO, &Options::new(), seed).unwrap();
    let mut pick = Dice::from_seed(seed.wrapping_mul(31) + 7);
    let mut legal = Vec::new();
    let mut n = 0;
    while let Some(side) = g.to_act(&s) {
        check_invariants(g, &s);
        g.legal_actions(&s, &mut legal);
        assert!(!legal.is_empty(), "no legal action in {:?}", s.phase);
        for &a in &legal {
            assert_eq!(
                g.parse_action(&s, &g.notation(&s, a)).unwrap(),
                a,
                "notation round trip"
            );
        }
        if let Some(k) = agreement_every
            && n % k == 0
        {
            check_agreement(g, &s);
        }
        if !concede {
            legal.retain(|a| *a != Action::Concede);
        }
        let a = legal[pick.below(legal.len() as u32) as usize];
        if matches!(a, Action::Done | Action::Pass | Action::Activate(..)) {
            // Finishing a supply window is allowed only within the limits.
            check_limits(g, &s, SideId(side));
        }
        g.apply(&mut s, side, a).unwrap();
        n += 1;
        assert!(n < 200_000, "the game does not end");
    }
    check_invariants(g, &s);
    assert!(g.outcome(&s).is_some());
    (s, n)
}

#[test]
fn random_play_thousands_of_seeds_every_game_ends_with_invariants() {
    let g = game();
    let mut wins = [0u32; 3];
    let mut reasons = std::collections::BTreeMap::new();
    for seed in 0..2000 {
        let (s, _) = play_random(&g, seed, None, seed % 10 == 0);
        let e = s.ended.unwrap();
        wins[e.winner.map_or(2, |w| w.0 as usize)] += 1;
        *reasons.entry(format!("{:?}", e.reason)).or_insert(0) += 1;
    }
    // Both sides can win under random play (a sanity check of the victory rules).
    assert!(wins[0] > 0 && wins[1] > 0, "{wins:?} {reasons:?}");
}

#[test]
fn legal_actions_and_apply_agree_exactly() {
    let g = game();
    for seed in 0..6 {
        play_random(&g, seed, Some(7), false);
    }
}

#[test]
fn determinism_a_record_replays_to_the_same_position_byte_for_byte() {
    let g = Arc::new(game());
    for seed in [3u64, 77] {
        let mut session = Session::new(g.clone(), SCENARIO, &Options::new(), seed).unwrap();
        let mut pick = Dice::from_seed(seed);
        let mut legal = Vec::new();
        while let Some(side) = g.to_act(session.state()) {
            g.legal_actions(session.state(), &mut legal);
            legal.retain(|a| *a != Action::Concede);
            let a = legal[pick.below(legal.len() as u32) as usize];
            session.act_parsed(side, a).unwrap();
        }
        let json = serde_json::to_string(&session.record()).unwrap();
        let record = serde_json::from_str(&json).unwrap();
        let replayed = Session::replay(g.clone(), &record).unwrap();
        assert_eq!(
            serde_json::to_string(&replayed.position()).unwrap(),
            serde_json::to_string(&session.position()).unwrap()
        );
        assert_eq!(replayed.log(), session.log());
        // The same seed and the same choices: the same game.
        let mut again = Session::new(g.clone(), SCENARIO, &Options::new(), seed).unwrap();
        for a in &record.actions {
            let side = g.info().side(&a.side).unwrap();
            again.act(Some(side), &a.action).unwrap();
        }
        assert_eq!(again.state(), session.state());
    }
}

#[test]
fn positions_round_trip_through_json_and_validation() {
    let g = game();
    let mut s = g.new_game(SCENARIO, &Options::new(), 5).unwrap();
    let mut pick = Dice::from_seed(5);
    let mut legal = Vec::new();
    let mut steps = 0;
    while let Some(side) = g.to_act(&s) {
        if steps % 13 == 0 {
            let json = serde_json::to_string(&s).unwrap();
            let mut back: State = serde_json::from_str(&json).unwrap();
            g.validate(&mut back)
                .unwrap_or_else(|e| panic!("{e}\n{json}"));
            assert_eq!(back, s);
        }
        g.legal_actions(&s, &mut legal);
        legal.retain(|a| *a != Action::Concede);
        g.apply(&mut s, side, legal[pick.below(legal.len() as u32) as usize])
            .unwrap();
        steps += 1;
    }
}

#[test]
fn views_never_contain_the_dice() {
    let g = game();
    let s = g.new_game(SCENARIO, &Options::new(), 11).unwrap();
    for viewer in [Viewer::Side(0), Viewer::Side(1), Viewer::Spectator] {
        let v = serde_json::to_string(&g.view(&s, viewer)).unwrap();
        assert!(
            !v.contains("dice") && !v.contains("word_pos") && !v.contains("\"key\""),
            "{v}"
        );
    }
    assert!(serde_json::to_string(&s).unwrap().contains("word_pos"));
}

#[test]
fn determinize_reseeds_only_the_dice() {
    let g = game();
    let s = g.new_game(SCENARIO, &Options::new(), 2).unwrap();
    let mut t = s.clone();
    let mut rng = counter_rng();
    g.determinize(&mut t, 0, &mut rng);
    assert_ne!(t.dice, s.dice);
    let mut t2 = t.clone();
    t2.dice = s.dice.clone();
    assert_eq!(t2, s, "nothing but the dice changed");
}

fn counter_rng() -> impl rand_core::Rng {
    struct Counter(u64);
    impl rand_core::TryRng for Counter {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            Ok(self.0)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for b in dst {
                *b = self.try_next_u64()? as u8;
            }
            Ok(())
        }
    }
    Counter(42)
}

#[test]
fn state_is_small_and_heap_free() {
    let g = game();
    let s = g.new_game(SCENARIO, &Options::new(), 0).unwrap();
    assert!(g.state_bytes(&s) <= 4096, "{} bytes", g.state_bytes(&s));
}

#[allow(dead_code)]
fn _uses(_: SupplyLines) {}

#[test]
fn hand_built_position_with_errors_is_refused_with_a_clear_message() {
    let g = game();
    let s = g.new_game(SCENARIO, &Options::new(), 4).unwrap();
    let json = serde_json::to_value(&s).unwrap();
    // Supplies at a Point with no army to carry them.
    let mut bad = json.clone();
    let w = at(&g, "watertown") as usize;
    bad["areas"][w]["units"] = 0.into();
    bad["areas"][w]["leaders"] = 0.into();
    bad["areas"][w]["food"] = 2.into();
    let mut st: State = serde_json::from_value(bad).unwrap();
    let e = g.validate(&mut st).unwrap_err();
    assert!(e.contains("watertown"), "{e}");
    // Areas out of order.
    let mut bad = json.clone();
    bad["areas"][0]["id"] = "boston".into();
    let mut st: State = serde_json::from_value(bad).unwrap();
    assert!(g.validate(&mut st).unwrap_err().contains("quebec"));
    // Too many cubes.
    let mut bad = json.clone();
    let d = g.data();
    for i in (0..d.areas.len())
        .filter(|&i| d.is(d.holds, i as u8))
        .take(8)
    {
        bad["areas"][i]["war"] = 6.into();
    }
    let mut st: State = serde_json::from_value(bad).unwrap();
    assert!(g.validate(&mut st).unwrap_err().contains("War"));
    // A phase asking more of an army than it has.
    let mut st = s.clone();
    let boston = at(&g, "boston");
    st.phase = Phase::Activate {
        side: SideId::CROWN,
        act: muster_supply_lines::state::Activation {
            order: Order::March,
            origin: boston,
            left: Some(50),
            moved: false,
            group: Default::default(),
            pick: Default::default(),
        },
    };
    assert!(g.validate(&mut st).unwrap_err().contains("phase"));
    // A supply move inside an activation exists only between March detachments (rulings S16).
    let mut st = s.clone();
    let units = st.area(boston).units;
    st.phase = Phase::Activate {
        side: SideId::CROWN,
        act: muster_supply_lines::state::Activation {
            order: Order::March,
            origin: boston,
            left: Some(units),
            moved: false,
            group: Default::default(),
            pick: muster_supply_lines::state::Pick {
                from: Some(boston),
                to: None,
            },
        },
    };
    let e = g.validate(&mut st).unwrap_err();
    assert!(e.contains("between March detachments"), "{e}");
    // An unknown side is a parse error naming it.
    let mut bad = json;
    bad["areas"][w]["side"] = "french".into();
    let e = serde_json::from_value::<State>(bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("french"), "{e}");
}
