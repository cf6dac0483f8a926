//! `muster loadtest` (issue 13, point 4) measures a separate `muster serve` process: short real
//! runs whose JSON line has every figure, the server gone afterwards (its pid, any process on
//! its database file, the file itself), and clear refusals of nonsense flags. These check
//! what is measured, not how fast: the figures themselves are benchmarks.

use serde_json::Value;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_muster");

/// Every member of the JSON line.
const FIELDS: [&str; 29] = [
    "database",
    "games",
    "opponent",
    "level",
    "protocol",
    "players",
    "think_ms",
    "seconds",
    "actions",
    "actions_per_second",
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "max_ms",
    "server_cpu_ms_per_action",
    "server_cpu_ms",
    "bytes_to_clients_per_action",
    "bytes_to_clients",
    "bytes_from_clients_per_action",
    "server_rss_mb",
    "server_hwm_mb",
    "signups",
    "server_rss_after_signups_mb",
    "games_finished",
    "ws_messages",
    "errors",
    "first_error",
    "server_pid",
    "server_bin",
];

/// Runs `muster loadtest ARGS`; its output and its pid.
fn loadtest(args: &[&str]) -> (Output, u32) {
    let child = Command::new(BIN)
        .arg("loadtest")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run muster loadtest");
    let pid = child.id();
    (child.wait_with_output().expect("muster loadtest ends"), pid)
}

/// Processes whose command line holds `needle`.
fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(needle) {
                found.push(format!("{name}: {cmd}"));
            }
        }
    }
    found
}

/// Nothing of the run's server is left: no process on its database file, no file (the file
/// is named after the load test's pid).
fn assert_nothing_left(loadtest_pid: u32) {
    let needle = format!("muster-loadtest-{loadtest_pid}-");
    let left = processes_with(&needle);
    assert!(left.is_empty(), "servers left running: {left:?}");
    let files: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .expect("temp dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&needle))
        .map(|e| e.path())
        .collect();
    assert!(files.is_empty(), "database files left: {files:?}");
}

/// A successful run's JSON line, checked: every field, actions, no errors, bytes and CPU
/// measured, and the server process gone.
fn measured(args: &[&str]) -> Value {
    let (out, pid) = loadtest(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "loadtest failed: {stderr}\n{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one JSON line: {stdout}");
    let r: Value = serde_json::from_str(lines[0]).expect("a JSON line");
    for f in FIELDS {
        assert!(r.get(f).is_some(), "no {f} in {r}");
    }
    assert!(r["actions"].as_u64().unwrap() > 0, "{r}");
    assert_eq!(r["errors"], 0, "{r}");
    assert!(r["first_error"].is_null(), "{r}");
    for f in [
        "actions_per_second",
        "p50_ms",
        "p90_ms",
        "p99_ms",
        "max_ms",
        "server_cpu_ms_per_action",
        "bytes_to_clients_per_action",
        "bytes_from_clients_per_action",
        "server_rss_mb",
        "server_hwm_mb",
        "server_rss_after_signups_mb",
    ] {
        assert!(r[f].as_f64().unwrap() > 0.0, "{f} is not positive: {r}");
    }
    let p = |f: &str| r[f].as_f64().unwrap();
    assert!(p("p50_ms") <= p("p90_ms") && p("p90_ms") <= p("p99_ms") && p("p99_ms") <= p("max_ms"));
    // The kernel's RSS counters are approximate (per-CPU caches): a little slack.
    assert!(
        p("server_hwm_mb") >= 0.9 * p("server_rss_after_signups_mb"),
        "{r}"
    );
    let server = r["server_pid"].as_u64().unwrap();
    assert_ne!(server, u64::from(pid), "the server is a separate process");
    assert!(
        !std::path::Path::new(&format!("/proc/{server}")).exists(),
        "the server (pid {server}) still exists"
    );
    assert_nothing_left(pid);
    r
}

#[test]
fn bot_games_over_http_measure_the_server_process() {
    let r = measured(&[
        "--games",
        "3",
        "--players",
        "2",
        "--seconds",
        "2",
        "--think-ms",
        "40",
        "--opponent",
        "bot",
        "--protocol",
        "http",
        "--signups",
        "4",
        "--json",
    ]);
    assert_eq!(r["opponent"], "bot");
    assert_eq!(r["level"], "random");
    assert_eq!(r["protocol"], "http");
    assert_eq!(r["database"], "sqlite");
    assert_eq!(r["signups"], 4);
    assert_eq!(r["games"], 3);
}

#[test]
fn human_games_over_http_drive_both_seats() {
    let r = measured(&[
        "--games",
        "3",
        "--players",
        "4",
        "--seconds",
        "2",
        "--think-ms",
        "40",
        "--opponent",
        "human",
        "--protocol",
        "http",
        "--json",
    ]);
    assert_eq!(r["opponent"], "human");
    assert!(r["level"].is_null());
    assert_eq!(r["players"], 4);
    // Each action of one seat is a notice on both sockets (and a GET by the other seat).
    assert!(r["ws_messages"].as_u64().unwrap() >= r["actions"].as_u64().unwrap());
}

/// The game socket protocol measures a server that speaks it, and refuses clearly one that
/// does not (the server of before issue 13); either way nothing is left running.
#[test]
fn the_socket_protocol_measures_or_refuses_clearly() {
    let (out, pid) = loadtest(&[
        "--games",
        "2",
        "--players",
        "4",
        "--seconds",
        "2",
        "--think-ms",
        "40",
        "--opponent",
        "human",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        let r: Value = serde_json::from_slice(&out.stdout).expect("a JSON line");
        assert_eq!(r["protocol"], "socket");
        assert!(r["actions"].as_u64().unwrap() > 0, "{r}");
        assert_eq!(r["errors"], 0, "{r}");
    } else {
        assert!(
            stderr.contains("does not speak the game socket protocol")
                && stderr.contains("--protocol http"),
            "{stderr}"
        );
    }
    assert_nothing_left(pid);
}

#[test]
fn nonsense_flags_are_refused_clearly() {
    for (args, says) in [
        (&["--games", "0"][..], "--games must be 1 to"),
        (&["--seconds", "0"][..], "--seconds must be 1 to"),
        (&["--players", "0"][..], "--players must be at least 1"),
        (
            &["--opponent", "human", "--players", "1"][..],
            "--opponent human needs --players 2",
        ),
        (
            &["--opponent", "human", "--level", "hard"][..],
            "--level is the bot's level",
        ),
        (&["--level", "grandmaster"][..], "--level"),
        (
            &["--database", "mysql"][..],
            "--database must be sqlite or postgres",
        ),
        (&["--server-bin", "/no/such/muster"][..], "no such file"),
        (&["--scenario", "waterloo"][..], "no scenario \"waterloo\""),
        (&["--protocol", "pigeon"][..], "pigeon"),
        (&["--opponent", "ghost"][..], "ghost"),
    ] {
        let (out, pid) = loadtest(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
        assert_nothing_left(pid);
    }
}

#[test]
fn help_names_the_new_flags() {
    let out = Command::new(BIN)
        .args(["loadtest", "--help"])
        .output()
        .expect("run muster");
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--opponent",
        "--protocol",
        "--signups",
        "--server-bin",
        "--level",
        "--database",
        "--sync",
        "--think-ms",
        "--json",
    ] {
        assert!(help.contains(flag), "--help lacks {flag}: {help}");
    }
}
