//! The `muster` command refuses what it cannot do with a clear message and a non-zero exit
//! (issue 15): unknown data folders and files, a data file whose id does not match its name,
//! `--resume` with flags the record overrides, an unwritable `--save`, an unknown game for
//! `bench`, `sim --games 0` and `sim --json --csv`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_muster");

fn muster(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run muster")
}

fn muster_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run muster");
    // The script is small: it fits in the pipe before the program reads it.
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the script");
    child.wait_with_output().expect("muster ends")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The command failed (exit code `code`), without a panic, and its stderr names every word.
fn assert_refused(out: &Output, code: i32, words: &[&str]) {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit code; stderr: {err}\nstdout: {}",
        stdout(out)
    );
    assert!(!err.contains("panicked"), "{err}");
    for w in words {
        assert!(err.contains(w), "stderr should name {w:?}: {err}");
    }
}

fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../games")
}

/// The built-in data files of every game: (folder under --data, file, path in the source).
fn builtin_files() -> Vec<(&'static str, &'static str, PathBuf)> {
    let g = games_dir();
    let mut list = Vec::new();
    for f in ["freemans-farm.toml", "oriskany.toml"] {
        list.push(("battles", f, g.join("battles/data").join(f)));
    }
    for f in ["map.toml", "tracks.toml", "reinforcements.toml"] {
        list.push(("supply-lines", f, g.join("supply-lines/data").join(f)));
    }
    for f in ["map.toml", "cards.toml", "vp.toml", "scenarios.toml"] {
        list.push(("concord", f, g.join("revolution-road/data").join(f)));
    }
    for f in ["map.toml", "cards.toml", "vp.toml"] {
        list.push((
            "bunker-hill",
            f,
            g.join("revolution-road/data/bunker-hill").join(f),
        ));
    }
    list
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn check_data(dir: &Path) -> Output {
    muster(&[
        "--data",
        dir.to_str().expect("UTF-8 temp path"),
        "check-data",
    ])
}

// ---- --data DIR ----------------------------------------------------------------------------

#[test]
fn data_dir_accepts_a_copy_of_every_games_files_in_folders_named_by_game_id() {
    let dir = tempfile::tempdir().unwrap();
    for (folder, file, src) in builtin_files() {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join(file), read(&src)).unwrap();
    }
    // Hidden files (a desktop's or an editor's) are not data and are skipped.
    std::fs::write(dir.path().join(".DS_Store"), "x").unwrap();
    std::fs::write(dir.path().join("battles/.oriskany.toml.swp"), "x").unwrap();
    let out = check_data(dir.path());
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert!(out.status.success(), "{all}");
    for (folder, file, _) in builtin_files() {
        let path = format!("{}/{folder}/{file}", dir.path().display());
        assert!(all.contains(&path), "check-data reads {path}: {all}");
    }
    assert!(!all.contains("built-in"), "{all}");
}

#[test]
fn data_dir_refuses_a_misspelt_game_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("batles")).unwrap();
    std::fs::write(
        dir.path().join("batles/oriskany.toml"),
        read(&games_dir().join("battles/data/oriskany.toml")),
    )
    .unwrap();
    let out = check_data(dir.path());
    let d = dir.path().display().to_string();
    assert_refused(
        &out,
        2,
        &[
            &format!("{d}/batles"),
            "not a data folder",
            &format!("{d}/battles/"),
            &format!("{d}/supply-lines/"),
            &format!("{d}/concord/"),
            &format!("{d}/bunker-hill/"),
        ],
    );
}

#[test]
fn data_dir_refuses_a_folder_named_after_the_crate_rather_than_the_game() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("revolution-road")).unwrap();
    let out = check_data(dir.path());
    let d = dir.path().display().to_string();
    assert_refused(
        &out,
        2,
        &[
            &format!("{d}/revolution-road"),
            &format!("{d}/concord/"),
            &format!("{d}/bunker-hill/"),
        ],
    );
    // The same for play, sim and every other command.
    let out = muster(&["--data", &d, "play", "battles", "--scenario", "oriskany"]);
    assert_refused(&out, 2, &[&format!("{d}/revolution-road")]);
}

#[test]
fn data_dir_refuses_an_unknown_file_in_a_game_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("battles")).unwrap();
    std::fs::write(
        dir.path().join("battles/Oriskany.toml"),
        read(&games_dir().join("battles/data/oriskany.toml")),
    )
    .unwrap();
    let out = check_data(dir.path());
    assert_refused(
        &out,
        2,
        &[
            &format!("{}/battles/Oriskany.toml", dir.path().display()),
            "not a data file of battles",
            "freemans-farm.toml, oriskany.toml",
        ],
    );
}

#[test]
fn data_dir_refuses_a_game_folder_that_is_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("concord"), "").unwrap();
    let out = check_data(dir.path());
    assert_refused(
        &out,
        2,
        &[
            &format!("{}/concord", dir.path().display()),
            "must be a folder",
            "map.toml, cards.toml, vp.toml, scenarios.toml",
        ],
    );
}

#[test]
fn check_data_refuses_a_battles_file_whose_scenario_id_was_changed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("battles")).unwrap();
    let text = read(&games_dir().join("battles/data/freemans-farm.toml"));
    let id = "id = \"freemans-farm\"";
    assert!(text.contains(id), "the file still has its id");
    std::fs::write(
        dir.path().join("battles/freemans-farm.toml"),
        text.replacen(id, "id = \"saratoga\"", 1),
    )
    .unwrap();
    let out = check_data(dir.path());
    assert_refused(
        &out,
        2,
        &[
            &format!("{}/battles/freemans-farm.toml", dir.path().display()),
            "\"saratoga\"",
            "\"freemans-farm\"",
        ],
    );
}

#[test]
fn check_data_reports_a_duplicated_bunker_hill_region_as_listed_twice() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("bunker-hill")).unwrap();
    let text = read(&games_dir().join("revolution-road/data/bunker-hill/map.toml"));
    // Copy the second region's block verbatim right after itself.
    let blocks: Vec<&str> = text.split("[[region]]").collect();
    assert!(
        blocks[2].contains("id = \"bunker-slope-n\""),
        "{}",
        blocks[2]
    );
    let mut copy = blocks[..3].join("[[region]]");
    copy.push_str("[[region]]");
    copy.push_str(blocks[2]);
    copy.push_str("[[region]]");
    copy.push_str(&blocks[3..].join("[[region]]"));
    std::fs::write(dir.path().join("bunker-hill/map.toml"), copy).unwrap();
    let out = check_data(dir.path());
    assert_refused(
        &out,
        2,
        &[
            &format!("{}/bunker-hill/map.toml", dir.path().display()),
            "region \"bunker-slope-n\" is listed twice",
        ],
    );
    assert!(!stderr(&out).contains("adjacent"), "{}", stderr(&out));
}

// ---- muster play ---------------------------------------------------------------------------

/// Plays the first decision of Oriskany (seed 3, storm all day) and saves the record.
fn saved_record(dir: &Path) -> PathBuf {
    let file = dir.join("game.json");
    let out = muster_with_input(
        &[
            "play",
            "battles",
            "--scenario",
            "oriskany",
            "--seed",
            "3",
            "--option",
            "storm=all-day",
            "--vs",
            "human",
            "--save",
            file.to_str().unwrap(),
        ],
        "1\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(
        record["actions"].as_array().map(Vec::len),
        Some(1),
        "{record}"
    );
    file
}

#[test]
fn play_resume_refuses_flags_that_disagree_with_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let file = saved_record(dir.path());
    let f = file.to_str().unwrap();
    let resume = |extra: &[&str], game: &str| {
        let mut args = vec!["play", game, "--resume", f, "--vs", "human"];
        args.extend_from_slice(extra);
        muster_with_input(&args, "q\n")
    };
    let cases: [(&[&str], &str, &[&str]); 5] = [
        (
            &["--scenario", "freemans-farm"],
            "battles",
            &["--scenario freemans-farm", "\"oriskany\""],
        ),
        (&["--seed", "4"], "battles", &["--seed 4", "seed is 3"]),
        (
            &["--option", "storm=turns-7-8"],
            "battles",
            &["--option storm=turns-7-8", "storm=all-day"],
        ),
        (
            &["--option", "fog=thick"],
            "battles",
            &["fog", "storm=all-day"],
        ),
        (&[], "concord", &["\"battles\"", "\"concord\""]),
    ];
    for (extra, game, words) in cases {
        let out = resume(extra, game);
        let mut all = vec!["--resume", f];
        all.extend_from_slice(words);
        assert_refused(&out, 1, &all);
        assert!(!stdout(&out).contains("to act"), "{}", stdout(&out));
    }
    // Flags that agree with the record are accepted, and the game goes on from it.
    let out = resume(
        &[
            "--scenario",
            "oriskany",
            "--seed",
            "3",
            "--option",
            "storm=all-day",
        ],
        "battles",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("to act"), "{}", stdout(&out));
    let out = resume(&[], "battles");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn play_save_to_a_path_that_cannot_be_written_is_refused_before_play() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no-such-folder/game.json");
    let out = muster_with_input(
        &[
            "play",
            "battles",
            "--scenario",
            "oriskany",
            "--vs",
            "human",
            "--save",
            bad.to_str().unwrap(),
        ],
        "1\n1\nq\n",
    );
    assert_refused(&out, 1, &["--save", &bad.display().to_string()]);
    assert!(
        !stdout(&out).contains("to act"),
        "no decision is asked for: {}",
        stdout(&out)
    );
}

#[test]
fn play_save_writes_the_record_before_the_first_decision() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let out = muster_with_input(
        &[
            "play",
            "battles",
            "--scenario",
            "oriskany",
            "--save",
            file.to_str().unwrap(),
        ],
        "q\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_str(&read(&file)).unwrap();
    assert_eq!(record["scenario"], "oriskany");
    assert_eq!(record["actions"].as_array().map(Vec::len), Some(0));
}

// ---- muster bench and sim ------------------------------------------------------------------

#[test]
fn bench_refuses_an_unknown_game() {
    let out = muster(&["bench", "--game", "chess", "--games", "1"]);
    assert_refused(
        &out,
        1,
        &["chess", "battles", "concord", "bunker-hill", "supply-lines"],
    );
    assert_eq!(stdout(&out), "", "no table is printed");
}

#[test]
fn bench_refuses_zero_games() {
    let out = muster(&["bench", "--game", "battles", "--games", "0"]);
    assert_refused(&out, 1, &["--games 0"]);
    assert_eq!(stdout(&out), "");
}

#[test]
fn sim_refuses_zero_games() {
    let out = muster(&[
        "sim",
        "battles",
        "--scenario",
        "oriskany",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "0",
    ]);
    assert_refused(&out, 1, &["--games 0", "at least 1"]);
    assert_eq!(stdout(&out), "", "no interval is printed");
}

#[test]
fn sim_refuses_json_with_csv() {
    let out = muster(&[
        "sim",
        "battles",
        "--scenario",
        "oriskany",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "1",
        "--json",
        "--csv",
    ]);
    assert_refused(&out, 2, &["--json", "--csv", "cannot be used with"]);
    assert_eq!(stdout(&out), "");
    // Each alone still works.
    for flag in ["--json", "--csv"] {
        let out = muster(&[
            "sim",
            "battles",
            "--scenario",
            "oriskany",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "1",
            flag,
        ]);
        assert!(out.status.success(), "{flag}: {}", stderr(&out));
        assert!(!stdout(&out).is_empty(), "{flag}");
    }
    let help = stdout(&muster(&["sim", "--help"]));
    assert!(help.contains("not with --csv"), "{help}");
}

/// `muster play --help` names each bot's fixed rating beside what it does (issue 18), from the
/// same figures the server's new-game form shows; an unknown opponent is refused with the list.
#[test]
fn play_help_gives_each_bot_level_its_fixed_rating() {
    let help = stdout(&muster(&["play", "--help"]));
    for l in muster_ai::LEVELS {
        let line = help
            .lines()
            .find(|x| x.trim_start().starts_with(&format!("- {}:", l.id())))
            .unwrap_or_else(|| panic!("no line for {} in {help}", l.id()));
        assert!(
            line.contains(&format!("rated {}", l.rating().round())),
            "{line}"
        );
    }
    let human = help.lines().find(|x| x.contains("- human:")).unwrap();
    assert!(!human.contains("rated"), "{human}");
    let out = muster(&["play", "battles", "--vs", "expert"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("medium"), "{}", stderr(&out));
}

/// `sim` and `ladder` tune a search level for a measurement (issue 18) and say so in every
/// report, so that no figure is taken for a shipped level's.
#[test]
fn sim_and_ladder_spend_a_tuned_levels_iterations_and_name_the_tuning() {
    let base = [
        "sim",
        "battles",
        "--scenario",
        "oriskany",
        "--a",
        "hard",
        "--b",
        "random",
    ];
    let args = [
        &base[..],
        &[
            "--games",
            "1",
            "--iterations",
            "hard=20",
            "--depth",
            "hard=5",
        ],
    ]
    .concat();
    let out = muster(&[&args[..], &["--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        r["tuning"],
        serde_json::json!([{ "level": "hard", "iterations": 20, "playout_depth": 5 }])
    );
    let per = r["bots"][0]["iterations_per_decision"].as_f64().unwrap();
    assert!(per > 0.0 && per <= 20.0, "{per}");
    let text = stdout(&muster(&args));
    assert!(
        text.contains("not as the levels ship: hard at 20 iterations, playout depth 5"),
        "{text}"
    );
    // As the levels ship, the report has no tuning at all.
    let out = muster(&[
        "sim",
        "battles",
        "--scenario",
        "oriskany",
        "--a",
        "random",
        "--games",
        "1",
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(r.get("tuning").is_none(), "{r}");
    let out = muster(&[
        "ladder",
        "--levels",
        "medium,hard",
        "--games",
        "1",
        "--game",
        "battles",
        "--scenario",
        "oriskany",
        "--threads",
        "1",
        "--iterations",
        "hard=20",
        "--iterations",
        "medium=10",
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(r["tuning"].as_array().unwrap().len(), 2, "{}", r["tuning"]);
    let e = &r["rungs"][0]["upper_effort"];
    assert!(
        e["iterations"].as_f64().unwrap() <= 20.0 * e["decisions"].as_f64().unwrap(),
        "{e}"
    );
    assert!(stderr(&out).contains("hard at 20 iterations; medium at 10 iterations"));
}

#[test]
fn tuning_a_level_that_does_not_search_or_by_a_bad_figure_is_refused() {
    let base = ["sim", "battles", "--scenario", "oriskany", "--games", "1"];
    for (flag, words) in [
        (["--iterations", "easy=5"], &["easy does not search"][..]),
        (["--depth", "hard=x"], &["\"x\" is not a whole number"][..]),
        (["--depth", "hard"], &["write LEVEL=N"][..]),
        (["--iterations", "hard=0"], &["at least 1"][..]),
        (
            ["--iterations", "expert=5"],
            &["no bot level \"expert\""][..],
        ),
    ] {
        let out = muster(&[&base[..], &flag[..]].concat());
        assert_refused(&out, 1, words);
        assert_eq!(stdout(&out), "", "no report for {flag:?}");
    }
}
