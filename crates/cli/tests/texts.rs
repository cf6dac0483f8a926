//! The texts players read, over every scenario of every game in the registry (issue 17): no
//! prompt, action label or log line names a counter or region by its internal id, and the
//! log of real games tells what happened in plain, grammatical words.

use muster_core::{Dice, LogEntry, Match, Options};
use serde_json::Value;
use std::collections::BTreeSet;

fn registry() -> muster_core::Registry {
    muster_cli::registry(None).unwrap()
}

fn scenarios() -> Vec<(String, String)> {
    registry()
        .games()
        .iter()
        .flat_map(|g| g.scenarios.iter().map(|s| (g.id.clone(), s.id.clone())))
        .collect()
}

/// Everything a player of a game was shown: prompts, labels, log lines (each side's and the
/// spectator's) and the terminal board, with the ids the game speaks in.
#[derive(Default)]
struct Seen {
    texts: Vec<(String, String)>,
    ids: BTreeSet<String>,
    names: BTreeSet<String>,
}

/// Every string under a key named `id` (ids), and every other string (names, labels, words
/// printed on the board).
fn strings(v: &Value, key: &str, ids: &mut BTreeSet<String>, names: &mut BTreeSet<String>) {
    match v {
        Value::String(s) if key == "id" => {
            ids.insert(s.clone());
        }
        // Printed names and words are phrases ("9th Regiment of Foot"); a string without a
        // space is a key or a reference ("units.9th.cf", "D5").
        Value::String(s) if s.contains(' ') => {
            names.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, key, ids, names)),
        Value::Object(o) => o.iter().for_each(|(k, x)| strings(x, k, ids, names)),
        _ => {}
    }
}

/// Plays a game with random legal decisions (every action equally likely) for at most `max`
/// decisions, recording what was shown at every step.
fn play_random(game: &str, scenario: &str, seed: u64, max: usize) -> (Box<dyn Match>, Seen) {
    let reg = registry();
    let mut m = reg
        .new_match(game, scenario, &Options::new(), seed)
        .unwrap();
    let mut seen = Seen::default();
    let board = reg.get(game).unwrap().board(scenario).unwrap();
    strings(&board, "", &mut seen.ids, &mut seen.names);
    let mut dice = Dice::from_seed(seed ^ 0x17);
    let sides = m.info().sides.clone();
    for n in 0..max {
        let Some(side) = m.to_act() else { break };
        let prompt = m.prompt();
        seen.texts.push(("prompt".into(), prompt.text));
        let legal = m.legal();
        for l in &legal {
            seen.texts
                .push((format!("label of {:?}", l.action), l.label.clone()));
            for w in l.action.split_whitespace().skip(1) {
                seen.ids.insert(w.to_string());
            }
        }
        if n % 50 == 0 {
            for s in &sides {
                let view = m.view(Some(s)).unwrap();
                let (mut ids, mut names) = (BTreeSet::new(), BTreeSet::new());
                strings(&view, "", &mut ids, &mut names);
                seen.ids.extend(ids);
                seen.texts.push((
                    format!("{s}'s terminal board"),
                    m.render_text(Some(s)).unwrap(),
                ));
            }
        }
        let pick = dice.below(legal.len() as u32) as usize;
        m.act(Some(&side), &legal[pick].action).unwrap();
    }
    for s in sides.iter().map(|s| Some(s.as_str())).chain([None]) {
        for e in m.log(s).unwrap() {
            seen.texts
                .push((format!("log line §{}", e.section), e.text));
        }
    }
    (m, seen)
}

/// Is `id` written in `text` as a word of its own (case and all)?
fn names_id(text: &str, id: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    text.match_indices(id).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + id.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Ids that are also ordinary English words of the texts ("end movement", "the search",
/// "roll for it"): From Boston to Concord's Hinder markers and its field cannon, Bunker Hill's
/// `objective roll`.
const ENGLISH: [&str; 5] = ["movement", "muster", "search", "cannon", "roll"];

/// The ids that must not be shown: every id and notation argument of the game, except
/// numbers, hex coordinates (Battles' hexes are named by them, "D5") and any id that is
/// also a word of a printed name ("9th" of "9th Regiment").
fn internal_ids(seen: &Seen) -> Vec<String> {
    let hex = |w: &str| {
        let letters = w.chars().take_while(|c| c.is_ascii_uppercase()).count();
        letters > 0 && letters < w.len() && w[letters..].chars().all(|c| c.is_ascii_digit())
    };
    seen.ids
        .iter()
        .filter(|id| {
            id.len() > 1
                && id.chars().any(|c| c.is_ascii_lowercase())
                && !id.chars().all(|c| c.is_ascii_digit())
                && !hex(id)
                && !ENGLISH.contains(&id.as_str())
                && !seen.names.iter().any(|n| names_id(n, id))
        })
        .cloned()
        .collect()
}

#[test]
fn no_prompt_label_or_log_line_of_any_scenario_names_an_internal_id() {
    let mut problems = Vec::new();
    for (game, scenario) in scenarios() {
        for seed in [1u64, 2, 3] {
            let (_, seen) = play_random(&game, &scenario, seed, 1_500);
            let ids = internal_ids(&seen);
            assert!(
                ids.len() > 3,
                "{game}/{scenario}: the test found too few ids to look for: {ids:?}"
            );
            // The terminal board is checked on its own (its unit list may show the notation
            // to type): see `terminal_boards_of_region_games_name_regions`.
            for (what, text) in seen.texts.iter().filter(|(w, _)| !w.ends_with("board")) {
                for id in &ids {
                    if names_id(text, id) {
                        problems.push(format!(
                            "{game}/{scenario}: {what} names {id:?}: {:?}",
                            text.chars().take(160).collect::<String>()
                        ));
                    }
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "{} texts name ids:\n{}",
        problems.len(),
        problems
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Dumps the texts of one random game (for reading, not a check): `MUSTER_TEXTS=game/scenario`.
#[test]
fn dump_texts_when_asked() {
    let Ok(which) = std::env::var("MUSTER_TEXTS") else {
        return;
    };
    let (game, scenario) = which.split_once('/').unwrap();
    let seed = std::env::var("MUSTER_TEXTS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let (m, seen) = play_random(game, scenario, seed, 3_000);
    let log: Vec<LogEntry> = m.log(None).unwrap();
    for e in log {
        println!("[§{}] {}", e.section, e.text);
    }
    let mut labels: BTreeSet<&str> = BTreeSet::new();
    for (what, t) in &seen.texts {
        if what.starts_with("label") || what == "prompt" {
            labels.insert(t);
        }
    }
    for l in labels {
        println!("LABEL {l}");
    }
    println!("IDS {:?}", internal_ids(&seen));
    for id in &seen.ids {
        if let Some(n) = seen.names.iter().find(|n| names_id(n, id)) {
            println!(
                "EXEMPT {id:?} by {:?}",
                n.chars().take(80).collect::<String>()
            );
        }
    }
}
