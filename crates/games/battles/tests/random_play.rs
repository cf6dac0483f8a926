//! Random play over thousands of seeds per scenario: every game ends, nothing panics, every
//! listed action applies and every other action is refused without changing the state, and
//! the invariants hold after every decision. Also: records replay byte for byte, positions
//! round-trip, and views never carry the dice.

mod common;
use common::*;
use muster_battles::state::{Loc, Phase};
use muster_battles::{Action, Battles, State};
use muster_core::hex::{Hex, SLOTS};
use muster_core::{Dice, Game, Options, Session, Viewer};
use std::sync::Arc;

const SCENARIOS: [&str; 2] = ["freemans-farm", "oriskany"];

fn check_invariants(g: &Battles, s: &State) {
    let sc = g.scenario(s);
    // The game's own checks, the ones `validate` runs on every loaded position.
    if let Err(e) = muster_battles::invariants::check(sc, s) {
        panic!(
            "invariant broken: {e}\n{}",
            serde_json::to_string(s).unwrap()
        );
    }
    assert_eq!(s.units.len(), sc.units.len(), "units are conserved");
    let mut seen = [false; SLOTS];
    for (u, d) in s.units.iter().zip(&sc.units) {
        assert_eq!(u.id, d.id);
        if let Loc::Map(h) = u.at {
            assert!(sc.map.passable(h), "{} on {h}", d.id);
            assert!(
                !std::mem::replace(&mut seen[h.slot()], true),
                "two units at {h}"
            );
        }
        assert!(u.at != Loc::Absent, "no unit leaves play without a cause");
        if u.at == Loc::Exited {
            assert_eq!(Some(d.side), sc.exit.map(|e| e.1));
        }
    }
    for side in 0..2u8 {
        assert!(s.leadership.get(side) <= sc.leadership[side as usize]);
        assert!(s.artillery.get(side) <= sc.artillery[side as usize]);
    }
    let v = g.view(s, Viewer::Spectator).vp;
    // VP equals the sum of its causes: eliminations, exits and occupied stars.
    let elim = |side: u8| {
        s.units
            .iter()
            .zip(&sc.units)
            .filter(|(u, d)| d.side == side && u.at == Loc::Eliminated)
            .count() as u8
    };
    let exits = s.units.iter().filter(|u| u.at == Loc::Exited).count() as u8;
    assert!(v.american >= elim(1) + exits && v.british >= elim(0));
    assert!(v.american <= elim(1) + exits + sc.stars.len() as u8);
    if s.ended.is_none() {
        assert!(
            v.american < sc.vp_goal && v.british < sc.vp_goal,
            "the goal ends the game at once"
        );
        assert!(s.turn >= 1 && s.turn <= sc.turns);
    } else {
        assert_eq!(s.phase, Phase::Over);
    }
}

/// Every action this game could ever name, for the test of agreement.
fn universe(s: &State) -> Vec<Action> {
    let mut v = vec![
        Action::NoRally,
        Action::ForceMarch,
        Action::Exit,
        Action::Hold,
        Action::EndMovement,
        Action::NoFire,
        Action::Commit,
        Action::Support,
        Action::NoSupport,
        Action::NoAdvance,
        Action::EndAttacks,
    ];
    for u in 0..s.units.len() as u8 + 1 {
        v.extend([
            Action::Rally(u),
            Action::Select(u),
            Action::Fire(u),
            Action::Attack(u),
            Action::Add(u),
            Action::Charge(u),
            Action::TakeLoss(u),
            Action::Advance(u),
        ]);
    }
    for slot in 0..SLOTS {
        let h = Hex::from_slot(slot);
        v.extend([Action::Place(h), Action::MoveTo(h), Action::RetreatTo(h)]);
    }
    v
}

fn check_agreement(g: &Battles, s: &State) {
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
    // The other side may never act.
    let mut t = s.clone();
    assert!(g.apply(&mut t, 1 - side, legal[0]).is_err());
    assert_eq!(&t, s);
}

fn play(g: &Battles, scenario: &str, seed: u64, agreement_every: Option<usize>) -> (State, usize) {
    let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
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
        let a = legal[pick.below(legal.len() as u32) as usize];
        g.apply(&mut s, side, a).unwrap();
        n += 1;
        assert!(n < 20_000, "the game does not end");
    }
    check_invariants(g, &s);
    assert!(g.outcome(&s).is_some());
    (s, n)
}

#[test]
fn random_play_thousands_of_seeds_every_game_ends_with_invariants() {
    let g = game();
    for scenario in SCENARIOS {
        let mut wins = [0u32; 2];
        for seed in 0..2000 {
            let (s, _) = play(&g, scenario, seed, None);
            wins[s.ended.unwrap().winner.0 as usize] += 1;
        }
        // Both sides can win under random play (a sanity check of the victory rules).
        assert!(wins[0] > 0 && wins[1] > 0, "{scenario}: {wins:?}");
    }
}

#[test]
fn legal_actions_and_apply_agree_exactly() {
    let g = game();
    for scenario in SCENARIOS {
        for seed in 0..12 {
            play(&g, scenario, seed, Some(9));
        }
    }
}

#[test]
fn determinism_a_record_replays_to_the_same_position_byte_for_byte() {
    let g = Arc::new(game());
    for scenario in SCENARIOS {
        for seed in [3u64, 77] {
            let mut session = Session::new(g.clone(), scenario, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed);
            let mut legal = Vec::new();
            while let Some(side) = g.to_act(session.state()) {
                g.legal_actions(session.state(), &mut legal);
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
            // The same seed and actions on a fresh session: the same log, too.
            assert_eq!(replayed.log(), session.log());
        }
    }
}

#[test]
fn positions_round_trip_through_json_and_validation() {
    let g = game();
    for scenario in SCENARIOS {
        let mut s = g.new_game(scenario, &Options::new(), 5).unwrap();
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
            g.apply(&mut s, side, legal[pick.below(legal.len() as u32) as usize])
                .unwrap();
            steps += 1;
        }
    }
}

#[test]
fn views_never_contain_the_dice() {
    let g = game();
    for scenario in SCENARIOS {
        let s = g.new_game(scenario, &Options::new(), 11).unwrap();
        for viewer in [Viewer::Side(0), Viewer::Side(1), Viewer::Spectator] {
            let v = serde_json::to_string(&g.view(&s, viewer)).unwrap();
            assert!(
                !v.contains("dice") && !v.contains("word_pos") && !v.contains("\"key\""),
                "{v}"
            );
        }
        // The position (the full state) does carry them.
        assert!(serde_json::to_string(&s).unwrap().contains("word_pos"));
    }
}

#[test]
fn determinize_reseeds_only_the_dice() {
    let g = game();
    let s = g.new_game("freemans-farm", &Options::new(), 2).unwrap();
    let mut t = s.clone();
    let mut rng = rand_chacha_like();
    g.determinize(&mut t, 0, &mut rng);
    assert_ne!(t.dice, s.dice);
    let mut t2 = t.clone();
    t2.dice = s.dice.clone();
    assert_eq!(t2, s, "nothing but the dice changed");
}

/// A small deterministic generator for `determinize`.
fn rand_chacha_like() -> impl rand_core::Rng {
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
fn hand_built_position_with_errors_is_refused_with_a_clear_message() {
    let g = game();
    let s = blank(&g);
    let mut json: serde_json::Value = serde_json::to_value(&s).unwrap();
    json["units"][0]["at"] = "Z9".into();
    let err = serde_json::from_value::<State>(json.clone())
        .unwrap_err()
        .to_string();
    assert!(err.contains("Z9"), "{err}");
    json["units"][0]["at"] = "C3".into();
    json["units"][1]["at"] = "C3".into();
    let mut st: State = serde_json::from_value(json.clone()).unwrap();
    let err = g.validate(&mut st).unwrap_err();
    assert!(err.contains("C3"), "{err}");
    json["units"][1]["at"] = "G5".into(); // swamp
    let mut st: State = serde_json::from_value(json.clone()).unwrap();
    assert!(g.validate(&mut st).unwrap_err().contains("G5"));
    json["units"][1]["at"] = "absent".into();
    json["leadership"]["american"] = 9.into();
    let mut st: State = serde_json::from_value(json).unwrap();
    assert!(g.validate(&mut st).unwrap_err().contains("leadership"));
}
