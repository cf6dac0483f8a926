//! The `muster` command refuses what it cannot do with a clear message and a non-zero exit
//! (issue 15): unknown data folders and files, a data file whose id does not match its name.

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
