//! Batches of actions (issue 17) over every scenario of every game in the registry: a batch is
//! the same as its actions one by one, all or nothing, one undo step; and the marks of the
//! actions that cannot be taken back read nothing a side cannot see.

use muster_core::{ErrorKind, Match, Options};

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

/// A small deterministic generator for the choices of these tests.
fn pick(n: usize, step: usize, seed: u64) -> usize {
    ((step as u64 + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(seed)
        >> 17) as usize
        % n
}

/// Up to `max` actions of the side to act from `m`, each legal where the ones before left the
/// game and each but the last one that undo can take back (chosen on a copy).
fn a_batch(m: &dyn Match, max: usize, seed: u64) -> Vec<String> {
    let mut copy = m.clone_box();
    let side = m.to_act().unwrap();
    let mut out = Vec::new();
    for step in 0..max {
        let legal = copy.legal();
        let marks = copy.irreversible();
        assert_eq!(legal.len(), marks.len());
        let undoable: Vec<usize> = (0..legal.len()).filter(|&i| !marks[i]).collect();
        if undoable.is_empty() {
            break;
        }
        let a = legal[undoable[pick(undoable.len(), step, seed)]]
            .action
            .clone();
        copy.act(Some(&side), &a).unwrap();
        out.push(a);
    }
    out
}

#[test]
fn a_batch_is_its_actions_one_by_one_and_one_undo_takes_it_all_back() {
    let mut batches = 0;
    for (game, scenario) in scenarios() {
        for seed in 0..3u64 {
            let mut m = new_match(&game, &scenario, seed);
            let mut steps = 0;
            while let Some(side) = m.to_act() {
                steps += 1;
                if steps > 400 {
                    break;
                }
                let batch = a_batch(m.as_ref(), 4, seed + steps as u64);
                if batch.len() >= 2 {
                    let refs: Vec<&str> = batch.iter().map(String::as_str).collect();
                    let mut one_by_one = m.clone_box();
                    for a in &refs {
                        one_by_one.act(Some(&side), a).unwrap();
                    }
                    let before = m.position();
                    let before_log = m.log_len();
                    let before_actions = m.actions_len();
                    let mut batched = m.clone_box();
                    batched.act_batch(Some(&side), &refs).unwrap();
                    assert_eq!(
                        batched.position(),
                        one_by_one.position(),
                        "{game}/{scenario}: the batch {batch:?} is not its actions one by one"
                    );
                    assert_eq!(batched.actions_len(), before_actions + batch.len());
                    // Undo takes back the whole batch at once, and only it.
                    assert!(batched.can_undo(&side), "{game}/{scenario}: {batch:?}");
                    batched.undo(Some(&side)).unwrap();
                    assert_eq!(batched.position(), before, "{game}/{scenario}: {batch:?}");
                    assert_eq!(batched.log_len(), before_log);
                    assert_eq!(batched.actions_len(), before_actions);
                    // One bad action (here the last) and nothing is applied; it is named.
                    let mut bad = refs.clone();
                    bad.push("no-such-action 99");
                    let mut refused = m.clone_box();
                    let e = refused.act_batch(Some(&side), &bad).unwrap_err();
                    assert_eq!(e.index, Some(batch.len()), "{game}/{scenario}: {e:?}");
                    assert!(
                        e.message
                            .contains(&format!("action {} of {}", bad.len(), bad.len())),
                        "{e:?}"
                    );
                    assert_eq!(refused.position(), before);
                    assert_eq!(refused.actions_len(), before_actions);
                    batches += 1;
                }
                // Play on with the first action of the batch (or any), as a player would.
                let legal = m.legal();
                let a = batch
                    .first()
                    .cloned()
                    .unwrap_or_else(|| legal[pick(legal.len(), steps, seed)].action.clone());
                m.act(Some(&side), &a).unwrap();
            }
        }
    }
    assert!(batches > 100, "only {batches} batches were tried");
}

#[test]
fn only_the_last_action_of_a_batch_may_roll_dice_reveal_or_hand_over() {
    let mut tried = 0;
    for (game, scenario) in scenarios() {
        let mut m = new_match(&game, &scenario, 7);
        let mut steps = 0;
        while let Some(side) = m.to_act() {
            steps += 1;
            if steps > 300 {
                break;
            }
            let legal = m.legal();
            let marks = m.irreversible();
            if let Some(i) = marks.iter().position(|&last| last) {
                let a = legal[i].action.as_str();
                let before = m.position();
                // Alone, or last, it is a batch like any other.
                let mut alone = m.clone_box();
                alone.act_batch(Some(&side), &[a]).unwrap();
                // Followed by anything, the batch is refused at it, and nothing changes.
                let mut copy = m.clone_box();
                let e = copy.act_batch(Some(&side), &[a, a]).unwrap_err();
                assert_eq!(e.index, Some(0), "{game}/{scenario} {a}: {e:?}");
                assert_eq!(e.kind, ErrorKind::IllegalAction);
                assert!(e.message.contains("only the last action"), "{e:?}");
                assert_eq!(copy.position(), before);
                // And undo cannot reach back over it.
                assert!(!alone.can_undo(&side), "{game}/{scenario} {a}");
                tried += 1;
            }
            let a = legal[pick(legal.len(), steps, 7)].action.clone();
            m.act(Some(&side), &a).unwrap();
        }
    }
    assert!(tried > 50, "only {tried} irreversible actions were tried");
}

#[test]
fn irreversible_marks_say_exactly_whether_undo_can_take_the_action_back() {
    for (game, scenario) in scenarios() {
        let mut m = new_match(&game, &scenario, 11);
        let mut steps = 0;
        while let Some(side) = m.to_act() {
            steps += 1;
            if steps > 200 {
                break;
            }
            let legal = m.legal();
            let marks = m.irreversible();
            assert_eq!(legal.len(), marks.len(), "{game}/{scenario}");
            for (e, last) in legal.iter().zip(&marks) {
                let mut copy = m.clone_box();
                copy.act(Some(&side), &e.action).unwrap();
                assert_eq!(
                    copy.can_undo(&side),
                    !last,
                    "{game}/{scenario}: {} is marked irreversible={last}",
                    e.action
                );
            }
            let a = legal[pick(legal.len(), steps, 11)].action.clone();
            m.act(Some(&side), &a).unwrap();
        }
    }
}

#[test]
fn irreversible_marks_read_nothing_hidden() {
    // The marks of a side's legal actions are the same on every state that side cannot tell
    // apart from the real one (hidden cards reshuffled, dice reseeded): they tell nothing of
    // what it may not see.
    let mut checked = 0;
    for (game, scenario) in scenarios() {
        for seed in 0..2u64 {
            let mut m = new_match(&game, &scenario, 100 + seed);
            let mut steps = 0;
            while let Some(side) = m.to_act() {
                steps += 1;
                if steps > 250 {
                    break;
                }
                if steps % 3 == 0 {
                    let marks = m.irreversible();
                    for k in 0..3 {
                        let other = m.determinized(&side, seed * 31 + k).unwrap();
                        assert_eq!(
                            other.legal(),
                            m.legal(),
                            "{game}/{scenario}: the legal actions differ on a determinized copy"
                        );
                        let theirs = other.irreversible();
                        assert_eq!(
                            theirs, marks,
                            "{game}/{scenario} step {steps}: the marks read hidden information"
                        );
                        checked += 1;
                    }
                }
                let legal = m.legal();
                let a = legal[pick(legal.len(), steps, seed)].action.clone();
                m.act(Some(&side), &a).unwrap();
            }
        }
    }
    assert!(checked > 500, "only {checked} positions compared");
}
