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
