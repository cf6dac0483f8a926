//! Tree reuse (issue 18): a side's decision made in steps continues the search of the step
//! before, and only when nothing it may not know came between.

use muster_ai::mcts::{self, Budget, Params, Reuse};
use muster_battles::Battles;
use muster_core::{Dice, Game, Options};

const ITERATIONS: u32 = 300;

fn params() -> Params {
    Params {
        budget: Budget::Iterations(ITERATIONS),
        threads: 1,
        ..Params::default()
    }
}

fn root_visits<A>(r: &mcts::SearchResult<A>) -> u64 {
    r.root.iter().map(|e| e.1 as u64).sum()
}

/// Plays a Freeman's Farm game where the side to act searches with reuse at every decision
/// and checks, decision by decision, when a tree was kept and what the next search made of it.
fn play(seed: u64, decisions: usize) -> (usize, usize) {
    let g = Battles::new().unwrap();
    let mut s = g.new_game("freemans-farm", &Options::new(), seed).unwrap();
    let mut reuse: Option<Reuse<Battles>> = None;
    let (mut kept, mut continued) = (0, 0);
    let mut pick = Dice::from_seed(seed);
    let mut legal = Vec::new();
    for n in 0..decisions {
        let Some(side) = g.to_act(&s) else { break };
        let held = reuse
            .as_ref()
            .filter(|r| r.applies_to(&s))
            .map(|r| r.visits());
        let r = mcts::search_reusing(&g, &s, &params(), seed ^ n as u64, Some(&mut reuse)).unwrap();
        if r.iterations > 0 {
            // A search that starts from a kept tree adds its iterations to the tree's visits.
            assert_eq!(
                root_visits(&r),
                r.iterations + held.unwrap_or(0),
                "decision {n}: the root's visits are the kept ones plus this search's"
            );
            assert_eq!(r.reused, held.unwrap_or(0), "decision {n}: reported");
            if held.is_some() {
                continued += 1;
            }
        }
        // Now and then a step of the other side's or a random step of our own, so that some
        // kept trees do not apply.
        let a = if pick.below(5) == 0 {
            g.legal_actions(&s, &mut legal);
            legal[pick.below(legal.len() as u32) as usize]
        } else {
            r.action
        };
        let events = g.apply(&mut s, side, a).unwrap();
        if let Some(kept_tree) = &reuse {
            kept += 1;
            assert!(
                kept_tree.visits() > 0,
                "decision {n}: a kept tree has visits"
            );
            assert!(
                kept_tree.nodes() <= 4 * ITERATIONS as usize + 1,
                "decision {n}: a kept tree stays within its bound"
            );
            // A tree is kept only for the same side's next step, after no chance.
            if a == r.action {
                assert_eq!(g.to_act(&s), Some(side), "decision {n}: same side next");
                assert!(
                    events.iter().all(|e| !g.is_chance(&s, e)),
                    "decision {n}: no die rolled and nothing revealed"
                );
            }
        }
    }
    (kept, continued)
}

#[test]
fn a_decision_in_steps_continues_the_search_of_the_step_before() {
    let (kept, continued) = play(11, 120);
    assert!(kept > 10, "trees were kept ({kept})");
    assert!(
        continued > 5,
        "searches continued from kept trees ({continued})"
    );
    // Some kept trees did not apply (another action was taken): the next search started
    // afresh, which `play` checks by the root's visits.
    assert!(continued <= kept);
}

#[test]
fn a_kept_tree_never_applies_to_another_position() {
    let g = Battles::new().unwrap();
    let s = g.new_game("freemans-farm", &Options::new(), 5).unwrap();
    // Walk to a decision that keeps a tree.
    let mut state = s.clone();
    let mut reuse: Option<Reuse<Battles>> = None;
    for n in 0..200u64 {
        let side = g.to_act(&state).unwrap();
        let r = mcts::search_reusing(&g, &state, &params(), n, Some(&mut reuse)).unwrap();
        if reuse.is_some() {
            // Offer the kept tree to the position before the step: it must be ignored.
            let again = mcts::search_reusing(&g, &state, &params(), n, Some(&mut reuse)).unwrap();
            assert_eq!(root_visits(&again), again.iterations);
            let fresh = mcts::search(&g, &state, &params(), n).unwrap();
            assert_eq!(again.root, fresh.root, "the same search as without a tree");
            return;
        }
        g.apply(&mut state, side, r.action).unwrap();
    }
    panic!("no decision kept a tree in 200 steps");
}

#[test]
fn games_of_bots_that_remember_replay_exactly_for_a_seed() {
    assert_eq!(play(23, 60), play(23, 60));
    let g = Battles::new().unwrap();
    let run = || {
        let mut s = g.new_game("oriskany", &Options::new(), 3).unwrap();
        let mut reuse: Option<Reuse<Battles>> = None;
        let mut moves = Vec::new();
        for n in 0..80u64 {
            let Some(side) = g.to_act(&s) else { break };
            let r = mcts::search_reusing(&g, &s, &params(), n, Some(&mut reuse)).unwrap();
            moves.push((r.action, r.root.clone()));
            g.apply(&mut s, side, r.action).unwrap();
        }
        moves
    };
    assert_eq!(run(), run());
}

#[test]
fn a_bot_with_memory_continues_its_own_steps_and_one_without_never_does() {
    use muster_ai::{Bots, Level, Memory, Pace};
    use muster_core::{Match, Session};
    let mut bots = Bots::new();
    bots.add::<Battles>();
    let g = std::sync::Arc::new(Battles::new().unwrap());
    let mut m = Session::new(g, "freemans-farm", &Options::new(), 9).unwrap();
    let mut memory = [Memory::default(), Memory::default()];
    let first = Match::to_act(&m).unwrap();
    let (mut continued, mut reused) = (0, 0);
    for n in 0..60u64 {
        let Some(side) = Match::to_act(&m) else { break };
        let b = usize::from(side != first);
        // The same decision by a bot without memory starts afresh.
        let plain = bots
            .think_at(&m, Level::Medium, n, Pace::Iterations)
            .unwrap();
        assert_eq!(plain.reused, 0);
        let t = bots
            .think_remembering(&m, Level::Medium, n, Pace::Iterations, &mut memory[b])
            .unwrap();
        if t.reused > 0 {
            continued += 1;
            reused += t.reused;
        } else {
            assert_eq!(
                t.action, plain.action,
                "decision {n}: afresh, the same search"
            );
        }
        Match::act(&mut m, Some(&side), &t.action).unwrap();
    }
    assert!(continued > 10, "continued {continued} searches");
    assert!(reused > continued, "with visits ({reused})");
}
