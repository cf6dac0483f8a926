//! Bots on every scenario of every game in the registry: legal play to the end, reproducible
//! choices, and no reading of hidden information. Written over the registry so that every game
//! added later is covered without new test code (issue 6).

use muster_ai::Level;
use muster_core::{Match, Options};

fn scenarios() -> Vec<(String, String)> {
    let registry = muster_cli::registry(None).unwrap();
    registry
        .games()
        .iter()
        .flat_map(|g| g.scenarios.iter().map(|s| (g.id.clone(), s.id.clone())))
        .collect()
}

fn new_match(game: &str, scenario: &str, seed: u64) -> Box<dyn Match> {
    muster_cli::registry(None)
        .unwrap()
        .new_match(game, scenario, &Options::new(), seed)
        .unwrap()
}

/// Plays a game: `first_level` for the first `searching` decisions, then `rest` to the end.
/// Every action a bot returns must be accepted by the game.
fn play(m: &mut Box<dyn Match>, first_level: Level, searching: usize, rest: Level) -> usize {
    let bots = muster_cli::bots();
    let mut n = 0;
    while let Some(side) = m.to_act() {
        let level = if n < searching { first_level } else { rest };
        let action = bots.choose(m.as_ref(), level, n as u64).unwrap();
        let legal: Vec<String> = m.legal().into_iter().map(|l| l.action).collect();
        assert!(
            legal.contains(&action),
            "{level} chose {action:?}, not in {legal:?}"
        );
        m.act(Some(&side), &action).unwrap();
        n += 1;
        assert!(n < 100_000, "the game does not end");
    }
    n
}

#[test]
fn every_level_plays_only_legal_actions_and_finishes_every_scenario() {
    for (game, scenario) in scenarios() {
        for (i, (level, searching)) in [
            (Level::Random, usize::MAX),
            (Level::Easy, usize::MAX),
            (Level::Medium, 30),
            (Level::Hard, 6),
        ]
        .into_iter()
        .enumerate()
        {
            let mut m = new_match(&game, &scenario, 40 + i as u64);
            let n = play(&mut m, level, searching, Level::Random);
            assert!(n > 0);
            let o = m.outcome().expect("the game ended with an outcome");
            assert_eq!(o.vp.len(), m.info().sides.len(), "{game}/{scenario}");
        }
    }
}

#[test]
fn bots_are_reproducible_for_a_seed() {
    let bots = muster_cli::bots();
    for (game, scenario) in scenarios() {
        let mut m = new_match(&game, &scenario, 5);
        for step in 0..12 {
            if m.to_act().is_none() {
                break;
            }
            for level in [Level::Random, Level::Easy, Level::Medium] {
                let a = bots.choose(m.as_ref(), level, 1000 + step).unwrap();
                let b = bots.choose(m.as_ref(), level, 1000 + step).unwrap();
                assert_eq!(a, b, "{game}/{scenario} {level} at step {step}");
            }
            let side = m.to_act().unwrap();
            let a = bots.choose(m.as_ref(), Level::Random, step).unwrap();
            m.act(Some(&side), &a).unwrap();
        }
    }
}

#[test]
fn bots_never_read_what_their_side_cannot_see() {
    // Two states that differ only in what the side to act may not know (hidden values, deck
    // order, the other side's peeks, the dice) must get the same decision.
    let bots = muster_cli::bots();
    for (game, scenario) in scenarios() {
        let mut m = new_match(&game, &scenario, 9);
        for step in 0..40u64 {
            let Some(side) = m.to_act() else { break };
            if step % 4 == 0 {
                let other = m.determinized(&side, 77 + step).unwrap();
                assert_eq!(
                    other.legal(),
                    m.legal(),
                    "the side's own options are known to it"
                );
                for level in [Level::Easy, Level::Medium] {
                    assert_eq!(
                        bots.choose(m.as_ref(), level, step).unwrap(),
                        bots.choose(other.as_ref(), level, step).unwrap(),
                        "{game}/{scenario} {level} at step {step}"
                    );
                }
            }
            let a = bots.choose(m.as_ref(), Level::Random, step).unwrap();
            m.act(Some(&side), &a).unwrap();
        }
    }
}

#[test]
fn unknown_level_is_refused_with_a_clear_error() {
    let e = muster_ai::Level::parse("grandmaster").unwrap_err();
    assert!(e.message.contains("random"), "{}", e.message);
}
