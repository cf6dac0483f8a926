//! `muster play` in the terminal (issue 17): help instead of a refusal, one line for a refused
//! input, choices filtered by what is typed, and a "Game over" line that names the winner in
//! every game. Driven through stdin and stdout as a player would.

use muster_core::{Dice, Options};
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_muster");

fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(BIN)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run muster");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the script");
    let out: Output = child.wait_with_output().expect("muster ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const FREEMANS: [&str; 6] = [
    "battles",
    "--scenario",
    "freemans-farm",
    "--vs",
    "human",
    "--seed",
];

#[test]
fn help_lists_the_commands_instead_of_refusing_them_as_actions() {
    let mut args = FREEMANS.to_vec();
    args.push("1");
    for key in ["?", "help"] {
        let out = play(&args, &format!("{key}\nq\n"));
        assert!(out.contains("Commands:"), "{out}");
        assert!(out.contains("u, undo"), "{out}");
        assert!(!out.contains("Refused"), "{key} is not an action: {out}");
    }
}

#[test]
fn a_refused_input_prints_one_line_and_not_the_choices_again() {
    let mut args = FREEMANS.to_vec();
    args.push("1");
    let out = play(&args, "fly-away\nfly-away\n9999\nq\n");
    assert_eq!(out.matches("Refused").count(), 2, "{out}");
    // The refusal says what this step accepts (the first words of its choices), not every
    // verb of the game.
    let refusal = out
        .lines()
        .find(|l| l.contains("Refused"))
        .expect("a refusal");
    assert!(
        refusal.contains("this step's choices start with \"select\"")
            && refusal.contains("\"end-movement\""),
        "{refusal}"
    );
    assert!(out.contains("Choose 1 to"), "{out}");
    // The prompt (and the list under it) is printed once, before the first input.
    assert_eq!(out.matches(" to act — §").count(), 1, "{out}");
}

#[test]
fn typing_the_start_of_an_action_lists_only_those_choices_with_their_numbers() {
    let mut args = FREEMANS.to_vec();
    args.push("1");
    let out = play(&args, "select mor\nl\nq\n");
    let (_, after) = out.split_once("? = help.\n> ").expect("a prompt");
    let filtered = after.split("\n> ").next().expect("the filtered list");
    assert!(
        filtered.contains("choices match \"select mor\""),
        "{filtered}"
    );
    assert!(filtered.contains("select morgan"), "{filtered}");
    assert!(!filtered.contains("select dearborn"), "{filtered}");
    // `l` lists them all again.
    assert_eq!(out.matches(" to act — §").count(), 2, "{out}");
}

/// Plays a random game of `game` to its end through the registry, and returns the record
/// without its last decision, that decision and the winner's side id.
fn all_but_the_last(game: &str, seed: u64) -> (String, String, Option<String>) {
    let reg = muster_cli::registry(None).unwrap();
    let scenario = reg.get(game).unwrap().info().scenarios[0].id.clone();
    let mut m = reg
        .new_match(game, &scenario, &Options::new(), seed)
        .unwrap();
    let mut dice = Dice::from_seed(seed);
    let mut last = String::new();
    let mut record = m.record();
    while let Some(side) = m.to_act() {
        record = m.record();
        let legal = m.legal();
        // Random play, but never a concession (Supply Lines) until the game is long.
        let choices: Vec<_> = legal.iter().filter(|l| l.action != "concede").collect();
        let pick = choices[dice.below(choices.len() as u32) as usize];
        last = pick.action.clone();
        m.act(Some(&side), &last).unwrap();
    }
    let winner = m
        .outcome()
        .unwrap()
        .winner
        .map(|w| m.info().sides[w as usize].clone());
    (serde_json::to_string(&record).unwrap(), last, winner)
}

#[test]
fn game_over_names_the_winner_in_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["battles", "concord", "bunker-hill", "supply-lines"] {
        let (record, last, winner) = all_but_the_last(game, 5);
        let file = dir.path().join(format!("{game}.json"));
        std::fs::write(&file, record).unwrap();
        let out = play(
            &[game, "--resume", file.to_str().unwrap(), "--vs", "human"],
            &format!("{last}\n"),
        );
        let line = out
            .lines()
            .find(|l| l.starts_with("Game over: "))
            .unwrap_or_else(|| panic!("{game}: no Game over line:\n{out}"));
        match winner {
            Some(w) => {
                let mut title = w.clone();
                title[..1].make_ascii_uppercase();
                assert!(
                    line.starts_with(&format!("Game over: the {title} side wins")),
                    "{game}: {line}"
                );
            }
            None => assert!(line.starts_with("Game over: nobody wins"), "{game}: {line}"),
        }
    }
}
