//! Durability (issue 7): play games on a real `muster serve` process, kill it hard (SIGKILL)
//! in the middle, restart it on the same database, and find every game exactly where it was,
//! for SQLite and PostgreSQL.

use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_muster");

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Server(Child);

impl Server {
    async fn start(database: &str, port: u16) -> Server {
        let child = Command::new(BIN)
            .args([
                "serve",
                "--addr",
                &format!("127.0.0.1:{port}"),
                "--database",
                database,
                "--insecure-cookies",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start muster serve");
        let server = Server(child);
        for _ in 0..200 {
            if reqwest::get(format!("http://127.0.0.1:{port}/api/session"))
                .await
                .is_ok()
            {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        drop(server); // kills and waits
        panic!("muster serve did not start");
    }

    /// SIGKILL: no shutdown code runs.
    fn kill_hard(mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Client {
    http: reqwest::Client,
    base: String,
    /// The CSRF token; the server gives a new one at sign-up and log-in.
    csrf: std::sync::Mutex<String>,
}

impl Client {
    async fn new(port: u16) -> Client {
        let http = reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let s: Value = http
            .get(format!("{base}/api/session"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        Client {
            http,
            base,
            csrf: std::sync::Mutex::new(s["csrf"].as_str().unwrap().to_string()),
        }
    }
    async fn post(&self, path: &str, body: Value) -> Value {
        let csrf = self.csrf.lock().unwrap().clone();
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("X-CSRF-Token", csrf)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{path}: {}", r.status());
        let v: Value = r.json().await.unwrap();
        if let Some(token) = v["csrf"].as_str() {
            *self.csrf.lock().unwrap() = token.to_string();
        }
        v
    }
    /// A post whose answer may be a refusal: its status and body.
    async fn try_post(&self, path: &str, body: Value) -> (u16, Value) {
        let csrf = self.csrf.lock().unwrap().clone();
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("X-CSRF-Token", csrf)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }
    async fn get(&self, path: &str) -> Value {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }
    async fn my_turn(&self, id: &str) -> Value {
        for _ in 0..400 {
            let g = self.get(&format!("/api/games/{id}")).await;
            if g["to_act"] == g["my_side"] || g["status"] == "finished" {
                return g;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the bot did not move");
    }
}

async fn play_and_kill(database: &str) {
    let port = free_port();
    let server = Server::start(database, port).await;
    let alice = Client::new(port).await;
    alice
        .post(
            "/api/signup",
            json!({"name": "alice", "password": "correct horse"}),
        )
        .await;
    let mut games = Vec::new();
    for (scenario, side) in [
        ("freemans-farm", "american"),
        ("oriskany", "british"),
        ("oriskany", "american"),
    ] {
        let g = alice
            .post("/api/games", json!({"game": "battles", "scenario": scenario, "side": side, "opponent": "bot", "level": "random"}))
            .await;
        games.push(g["id"].as_str().unwrap().to_string());
    }
    for (i, id) in games.iter().enumerate() {
        for _ in 0..(10 + 7 * i) {
            let g = alice.my_turn(id).await;
            let a = g["legal"][0]["action"].clone();
            alice
                .post(
                    &format!("/api/games/{id}/act"),
                    json!({"action": a, "version": g["version"]}),
                )
                .await;
        }
    }
    let mut before = Vec::new();
    for id in &games {
        before.push(alice.my_turn(id).await);
    }
    // One more action on the last game, and kill the server while its bot may be thinking.
    let last = before.last().unwrap().clone();
    let a = last["legal"][0]["action"].clone();
    let after_last = alice
        .post(
            &format!("/api/games/{}/act", games[2]),
            json!({"action": a, "version": last["version"]}),
        )
        .await;
    server.kill_hard();

    let port2 = free_port();
    let _server = Server::start(database, port2).await;
    let again = Client::new(port2).await;
    again
        .post(
            "/api/login",
            json!({"name": "alice", "password": "correct horse"}),
        )
        .await;
    for (i, id) in games.iter().enumerate() {
        let now = again.my_turn(id).await;
        if i < 2 {
            for field in [
                "version", "to_act", "legal", "view", "log", "actions", "status", "outcome",
            ] {
                assert_eq!(
                    now[field], before[i][field],
                    "{database}: game {id}, {field}"
                );
            }
        } else {
            // The last game: at least the acknowledged action survived; a bot reply that was
            // in flight either completed before the kill or is made after the restart.
            assert!(now["actions"].as_u64().unwrap() >= after_last["actions"].as_u64().unwrap());
        }
    }
    // The lobby lists all three.
    let lobby = again.get("/api/lobby").await;
    assert_eq!(
        lobby["mine"].as_array().unwrap().len() + lobby["finished"].as_array().unwrap().len(),
        3
    );
}

/// Eight players act at once (so the writer commits their moves together), and the server is
/// killed hard in the middle: after the restart every game holds at least every action whose
/// answer came back, and each game's record still replays.
async fn kill_under_load(database: &str) {
    let port = free_port();
    let server = Server::start(database, port).await;
    let mut players = Vec::new();
    for i in 0..8 {
        let c = Client::new(port).await;
        c.post(
            "/api/signup",
            json!({"name": format!("player{i}"), "password": "correct horse"}),
        )
        .await;
        let g = c
            .post("/api/games", json!({"game": "battles", "scenario": "freemans-farm", "side": if i % 2 == 0 { "american" } else { "british" }, "opponent": "bot", "level": "random"}))
            .await;
        players.push((
            std::sync::Arc::new(c),
            g["id"].as_str().unwrap().to_string(),
        ));
    }
    let acked: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, u64>>> =
        Default::default();
    let mut tasks = Vec::new();
    for (c, id) in players.clone() {
        let acked = acked.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..400 {
                let Ok(r) = c
                    .http
                    .get(format!("{}/api/games/{id}", c.base))
                    .send()
                    .await
                else {
                    return;
                };
                let Ok(g) = r.json::<Value>().await else {
                    return;
                };
                if g["status"] == "finished" {
                    return;
                }
                if g["to_act"] != g["my_side"] {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    continue;
                }
                let csrf = c.csrf.lock().unwrap().clone();
                let sent = c
                    .http
                    .post(format!("{}/api/games/{id}/act?since=100000", c.base))
                    .header("X-CSRF-Token", csrf)
                    .json(&json!({"action": g["legal"][0]["action"], "version": g["version"]}))
                    .send()
                    .await;
                let Ok(r) = sent else { return };
                if r.status().is_success() {
                    let Ok(v) = r.json::<Value>().await else {
                        return;
                    };
                    let n = v["actions"].as_u64().unwrap();
                    let mut a = acked.lock().unwrap();
                    let e = a.entry(id.clone()).or_default();
                    *e = (*e).max(n);
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill_hard();
    for t in tasks {
        let _ = t.await;
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.values().sum::<u64>() >= 16,
        "{database}: the players made moves before the kill: {acked:?}"
    );
    let port2 = free_port();
    let _server = Server::start(database, port2).await;
    for (i, (_, id)) in players.iter().enumerate() {
        let c = Client::new(port2).await;
        c.post(
            "/api/login",
            json!({"name": format!("player{i}"), "password": "correct horse"}),
        )
        .await;
        let g = c.get(&format!("/api/games/{id}")).await;
        let stored = g["actions"].as_u64().unwrap_or(0);
        let acknowledged = acked.get(id).copied().unwrap_or(0);
        assert!(
            stored >= acknowledged,
            "{database}: game {id} holds {stored} actions, {acknowledged} were acknowledged"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_under_load_loses_no_acknowledged_action_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("load.db");
    kill_under_load(&format!("sqlite://{}", file.display())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_under_load_loses_no_acknowledged_action_postgres() {
    let pg = tokio::task::spawn_blocking(muster_server::testing::TempPostgres::start)
        .await
        .unwrap()
        .unwrap();
    let url = pg.database().await.unwrap();
    kill_under_load(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_then_restart_keeps_every_game_sqlite() {
    let file = std::env::temp_dir().join(format!("muster-durability-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    play_and_kill(&format!("sqlite://{}", file.display())).await;
    let _ = std::fs::remove_file(&file);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_then_restart_keeps_every_game_postgres() {
    let pg = tokio::task::spawn_blocking(muster_server::testing::TempPostgres::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("PostgreSQL for the tests: {e}"));
    let url = pg.database().await.unwrap();
    play_and_kill(&url).await;
    drop(pg);
}

/// Fills the file system holding `dir` with a file of zeros until it refuses another byte.
fn fill_disk(dir: &std::path::Path) -> std::path::PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let block = vec![0u8; 64 * 1024];
    while f.write_all(&block).is_ok() {}
    let small = [0u8; 512];
    while f.write_all(&small).is_ok() {}
    let _ = f.flush();
    path
}

/// A full disk for real (issue 14), on a small tmpfs that `.ci/run` mounts when it runs as root
/// and names in `MUSTER_TMPFS`: moves are refused with 503 while it is full and change nothing,
/// writes resume when space returns without a restart, and after `kill -9` every acknowledged
/// action is there. Ignored in the normal suite (it needs the mount).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a small tmpfs named in MUSTER_TMPFS (.ci/run mounts one as root)"]
async fn a_full_disk_loses_no_acknowledged_action_and_heals_without_a_restart() {
    let dir = std::path::PathBuf::from(
        std::env::var("MUSTER_TMPFS").expect("MUSTER_TMPFS names a small tmpfs"),
    );
    let database = format!("sqlite://{}", dir.join("muster.db").display());
    let port = free_port();
    let server = Server::start(&database, port).await;
    let alice = Client::new(port).await;
    alice
        .post(
            "/api/signup",
            json!({"name": "alice", "password": "correct horse"}),
        )
        .await;
    let g = alice
        .post("/api/games", json!({"game": "battles", "scenario": "freemans-farm", "side": "american", "opponent": "bot", "level": "random"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut acknowledged = 0;
    let play = async |alice: &Client| -> (u16, Value) {
        let g = alice.my_turn(&id).await;
        let a = g["legal"][0]["action"].clone();
        alice
            .try_post(
                &format!("/api/games/{id}/act"),
                json!({"action": a, "version": g["version"]}),
            )
            .await
    };
    for _ in 0..5 {
        let (status, v) = play(&alice).await;
        assert_eq!(status, 200, "{v}");
        acknowledged = acknowledged.max(v["actions"].as_u64().unwrap());
    }
    let filler = fill_disk(&dir);
    let mut refused = 0;
    for _ in 0..400 {
        if refused >= 5 {
            break;
        }
        let before = alice.my_turn(&id).await;
        let (status, v) = play(&alice).await;
        match status {
            200 => acknowledged = acknowledged.max(v["actions"].as_u64().unwrap()),
            503 => {
                assert_eq!(v["error"]["kind"], "unavailable", "{v}");
                refused += 1;
                let after = alice.get(&format!("/api/games/{id}")).await;
                assert_eq!(after["version"], before["version"], "refused, yet changed");
            }
            other => panic!("a full disk answered {other}: {v}"),
        }
    }
    assert!(refused > 0, "the full disk refused nothing");
    std::fs::remove_file(&filler).unwrap();
    let (status, v) = play(&alice).await;
    assert_eq!(status, 200, "writes did not resume: {v}");
    acknowledged = acknowledged.max(v["actions"].as_u64().unwrap());
    server.kill_hard();
    let port2 = free_port();
    let _server = Server::start(&database, port2).await;
    let again = Client::new(port2).await;
    again
        .post(
            "/api/login",
            json!({"name": "alice", "password": "correct horse"}),
        )
        .await;
    let now = again.get(&format!("/api/games/{id}")).await;
    assert!(
        now["actions"].as_u64().unwrap() >= acknowledged,
        "{acknowledged} actions acknowledged, {} stored",
        now["actions"]
    );
}

/// Runs `muster serve` on `database` and expects it to stop by itself: its standard error.
fn serve_refuses(database: &str) -> String {
    let mut child = Command::new(BIN)
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{}", free_port()),
            "--database",
            database,
            "--insecure-cookies",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start muster serve");
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(!status.success(), "muster serve exited 0 on {database}");
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return err;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("muster serve started on {database}, which it should refuse");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_refuses_a_database_it_cannot_write_or_whose_schema_is_newer() {
    let file = std::env::temp_dir().join(format!("muster-startup-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let url = format!("sqlite://{}", file.display());
    // Make the database once, with a server that starts and is stopped.
    drop(Server::start(&url, free_port()).await);
    // Read-only: refused at start, not at the first move.
    let err = serve_refuses(&format!("{url}?mode=ro"));
    assert!(
        err.contains("readonly") || err.contains("cannot be written"),
        "{err}"
    );
    // A schema from a newer muster: refused, with what to do.
    {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query("UPDATE schema_version SET version = 99")
            .execute(&mut c)
            .await
            .unwrap();
    }
    let err = serve_refuses(&url);
    assert!(err.contains("newer than this muster"), "{err}");
    let _ = std::fs::remove_file(&file);
}

/// The server process's resident memory, in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Issue 13: argon2's working memory (19 MiB a hash) does not stay with the process after a
/// burst of sign-ups (glibc's per-thread arenas used to keep it: 1.9 GB after 200 sign-ups).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_hashing_memory_does_not_stay_resident_after_sign_ups() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("m.db").display());
    let port = free_port();
    let server = Server::start(&db, port).await;
    let pid = server.0.id();
    let start = rss_kib(pid);
    let mut tasks = Vec::new();
    for t in 0..4 {
        tasks.push(tokio::spawn(async move {
            for i in 0..10 {
                let c = Client::new(port).await;
                c.post(
                    "/api/signup",
                    json!({"name": format!("mem{t}x{i}"), "password": "correct horse"}),
                )
                .await;
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let after = rss_kib(pid);
    assert!(
        after < start + 40 * 1024,
        "resident memory grew from {start} KiB to {after} KiB over 40 sign-ups"
    );
}
