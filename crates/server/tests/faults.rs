//! The play server under faults and abuse (issue 14): a full disk and a held write lock lose
//! nothing that was acknowledged and heal without a restart; bots survive failed writes;
//! log-in limits hold against guesses sent at once and cannot lock the owner out; unknown
//! names take as long as known ones; stalled connections are cut and never starve others;
//! names are unique without regard to case; every error answer is JSON; security headers.

mod common;

use common::*;
use futures_util::future::join_all;
use muster_server::Limits;
use muster_server::auth::PAIR_LIMIT;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn sqlite_file(tag: &str) -> (String, std::path::PathBuf) {
    let file = std::env::temp_dir().join(format!(
        "muster-faults-{tag}-{}-{}.db",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    (format!("sqlite://{}", file.display()), file)
}

/// A client whose connections leave from `from` (any address of 127.0.0.0/8 reaches the
/// server on 127.0.0.1), so that tests can play several addresses.
async fn client_from(addr: SocketAddr, from: IpAddr) -> Client {
    let http = reqwest::Client::builder()
        .cookie_store(true)
        .local_address(from)
        .build()
        .unwrap();
    Client::with_http(addr, http).await
}

async fn login(c: &Client, name: &str, password: &str) -> (StatusCode, Value) {
    c.post("/api/login", json!({"name": name, "password": password}))
        .await
}

/// Plays the first legal action; the new version.
async fn play_first(c: &Client, id: &str) -> Result<i64, (StatusCode, Value)> {
    let g = c.wait_my_turn(id).await;
    let action = g["legal"][0]["action"].as_str().unwrap().to_string();
    let (status, v) = c
        .post(
            &format!("/api/games/{id}/act"),
            json!({"action": action, "version": g["version"]}),
        )
        .await;
    if status == StatusCode::OK {
        Ok(v["version"].as_i64().unwrap())
    } else {
        Err((status, v))
    }
}

async fn page_count(db: &muster_server::db::Db) -> u32 {
    use sqlx::Row;
    let row = sqlx::query("PRAGMA page_count")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    row.try_get::<i64, _>(0).unwrap() as u32
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_database_refuses_moves_with_503_loses_nothing_and_heals_without_a_restart() {
    let (url, _file) = sqlite_file("full");
    let (addr, st) = server_with(&url, Limits::default()).await;
    // Two players, no bot: a bot waiting for space would hold the turn.
    let alice = Client::signup(addr, "alice").await;
    let bob = Client::signup(addr, "bob").await;
    let (status, v) = alice
        .post("/api/games", json!({"game": "battles", "scenario": "freemans-farm", "side": "american", "opponent": "human"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (status, v) = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite": v["invite"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Whoever is to act plays the first legal action.
    let play = async || -> Result<i64, (StatusCode, Value)> {
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        let who = if g["my_side"] == g["to_act"] {
            &alice
        } else {
            &bob
        };
        play_first(who, &id).await
    };
    play().await.unwrap();
    // The disk is full: the file may not grow by a single page.
    st.db.set_max_pages(page_count(&st.db).await);
    // Rows fit in pages' free space for a while: play until the file would have to grow.
    let mut refused = 0;
    for _ in 0..600 {
        if refused >= 3 {
            break;
        }
        let (_, before) = alice.get(&format!("/api/games/{id}")).await;
        match play().await {
            Ok(_) => {}
            Err((status, v)) => {
                assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
                assert_eq!(kind(&v), "unavailable", "{v}");
                refused += 1;
                // Refused: the game in memory is exactly as before.
                let (_, after) = alice.get(&format!("/api/games/{id}")).await;
                assert_eq!(after["version"], before["version"]);
                assert_eq!(after["view"], before["view"]);
            }
        }
    }
    assert!(refused > 0, "the full database refused nothing");
    // Sign-ups while full: stored (200) or refused as a failure of the server (503), never
    // "taken" (409).
    let mut signed_up = Vec::new();
    for i in 0..20 {
        let c = Client::new(addr).await;
        let name = format!("bob{i}");
        let (status, v) = c
            .post(
                "/api/signup",
                json!({"name": name, "password": "correct horse"}),
            )
            .await;
        match status {
            StatusCode::OK => signed_up.push(name),
            StatusCode::SERVICE_UNAVAILABLE => assert_eq!(kind(&v), "unavailable"),
            other => panic!("sign-up on a full disk answered {other}: {v}"),
        }
    }
    // Space returns: the next move is stored, without a restart.
    st.db.set_max_pages(0);
    let acknowledged = play().await.expect("writes resume");
    let c = Client::new(addr).await;
    let (status, _) = c
        .post(
            "/api/signup",
            json!({"name": "carol", "password": "correct horse"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    signed_up.push("carol".into());
    // What a restarted server reads from the file is what was acknowledged.
    let (addr2, _) = server_with(&url, Limits::default()).await;
    let again = Client::new(addr2).await;
    let (status, _) = login(&again, "alice", "correct horse").await;
    assert_eq!(status, StatusCode::OK);
    for name in &signed_up {
        let c = Client::new(addr2).await;
        let (status, _) = login(&c, name, "correct horse").await;
        assert_eq!(
            status,
            StatusCode::OK,
            "{name} was acknowledged, not stored"
        );
    }
    let (_, g) = again.get(&format!("/api/games/{id}")).await;
    let stored = g["version"].as_i64().unwrap();
    assert!(
        stored >= acknowledged,
        "acknowledged version {acknowledged}, stored {stored}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_says_taken_only_when_taken_and_names_ignore_case() {
    for db in databases().await {
        let addr = server(&db).await;
        Client::signup(addr, "alice").await;
        for variant in ["Alice", "ALICE", "alice"] {
            let c = Client::new(addr).await;
            let (status, v) = c
                .post(
                    "/api/signup",
                    json!({"name": variant, "password": "another password"}),
                )
                .await;
            assert_eq!(
                (status, kind(&v)),
                (StatusCode::CONFLICT, "name_taken"),
                "{db}: {variant}"
            );
        }
        // Log-in finds the account whatever the case, and names it as it was made.
        let c = Client::new(addr).await;
        let (status, v) = login(&c, "ALICE", "correct horse").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["user"]["name"], "alice");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guesses_sent_at_once_are_counted_before_they_are_checked() {
    let addr = server(&databases().await[0]).await;
    Client::signup(addr, "carol").await;
    let c = Client::new(addr).await;
    let answers = join_all((0..40).map(|_| login(&c, "carol", "nope nope"))).await;
    let evaluated = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::UNAUTHORIZED)
        .count();
    let limited = answers
        .iter()
        .filter(|(s, v)| *s == StatusCode::TOO_MANY_REQUESTS && kind(v) == "rate_limited")
        .count();
    assert!(
        evaluated <= PAIR_LIMIT,
        "{evaluated} guesses evaluated, limit {PAIR_LIMIT}"
    );
    assert_eq!(evaluated + limited, 40);
    // From this address, even the right password now waits.
    let (status, _) = login(&c, "carol", "correct horse").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_from_one_address_never_lock_the_owner_out_elsewhere() {
    let addr = server(&databases().await[0]).await;
    Client::signup(addr, "alice").await;
    Client::signup(addr, "dave").await;
    let attacker = client_from(addr, "127.0.0.1".parse().unwrap()).await;
    for name in ["alice", "Alice"] {
        for _ in 0..PAIR_LIMIT {
            login(&attacker, name, "guess guess").await;
        }
    }
    // Unknown names from the same address do not lock that address's other users out.
    for i in 0..PAIR_LIMIT {
        login(&attacker, &format!("nobody{i}"), "guess guess").await;
    }
    let (status, _) = login(&attacker, "alice", "correct horse").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let (status, v) = login(&attacker, "dave", "correct horse").await;
    assert_eq!(status, StatusCode::OK, "dave shares the address: {v}");
    // Alice from another address (or device) logs in; the name under attack only slows her.
    let owner = client_from(addr, "127.0.0.2".parse().unwrap()).await;
    let t = Instant::now();
    let (status, v) = login(&owner, "alice", "correct horse").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(t.elapsed() < Duration::from_secs(10));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_names_take_as_long_as_known_ones() {
    let addr = server(&databases().await[0]).await;
    Client::signup(addr, "erin").await;
    let c = Client::new(addr).await;
    // Warm up (the dummy hash is made on first use).
    login(&c, "warmup-name", "wrong password").await;
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for i in 0..5 {
        let t = Instant::now();
        let (status, _) = login(&c, "erin", "wrong password").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        known.push(t.elapsed());
        let t = Instant::now();
        let (status, _) = login(&c, &format!("ghost{i}"), "wrong password").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        unknown.push(t.elapsed());
    }
    known.sort();
    unknown.sort();
    let (k, u) = (known[2].as_secs_f64(), unknown[2].as_secs_f64());
    assert!(
        u > k / 2.0 && u < k * 2.0,
        "median known {k:.4} s, unknown {u:.4} s"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_csrf_token_changes_at_log_in_and_log_out() {
    let addr = server(&databases().await[0]).await;
    let alice = Client::signup(addr, "alice").await;
    let at_signup = alice.csrf();
    let (status, _) = alice.post("/api/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let after_logout = alice.csrf();
    assert_ne!(at_signup, after_logout);
    let (status, _) = login(&alice, "alice", "correct horse").await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(alice.csrf(), after_logout);
    // A token from before the log-in is worth nothing now.
    let (status, v) = alice
        .post_raw(
            "/api/games",
            json!({"game": "battles", "scenario": "oriskany", "side": "american", "opponent": "bot"})
                .to_string()
                .into_bytes(),
            Some(&after_logout),
        )
        .await;
    assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "csrf"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_answer_is_json_and_every_answer_has_security_headers() {
    let addr = server(&databases().await[0]).await;
    let http = reqwest::Client::new();
    let base = format!("http://{addr}");
    let cases = [
        (
            http.get(format!("{base}/api/login")),
            405,
            "method_not_allowed",
        ),
        (
            http.delete(format!("{base}/api/session")),
            405,
            "method_not_allowed",
        ),
        (
            http.get(format!("{base}/games/nope/board.js")),
            404,
            "not_found",
        ),
        (http.get(format!("{base}/no/such/page")), 404, "not_found"),
    ];
    for (req, status, want) in cases {
        let r = req.send().await.unwrap();
        assert_eq!(r.status().as_u16(), status);
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json")
        );
        let v: Value = r.json().await.unwrap();
        assert_eq!(kind(&v), want, "{v}");
    }
    // A WebSocket address asked without the upgrade: JSON, not text.
    let alice = Client::signup(addr, "alice").await;
    let id = alice
        .game_vs_bot("freemans-farm", "american", "random")
        .await;
    let r = http
        .get(format!("{base}/api/games/{id}/ws"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let v: Value = r.json().await.unwrap();
    assert_eq!(kind(&v), "not_websocket");
    for path in ["/", "/app.js", "/api/session", "/api/catalog", "/nope"] {
        let r = http.get(format!("{base}{path}")).send().await.unwrap();
        let h = r.headers();
        assert!(
            h["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("frame-ancestors 'none'"),
            "{path}"
        );
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
    }
}

/// Opens a connection that sends part of a request, then nothing.
async fn stall(addr: SocketAddr, partial: &[u8]) -> tokio::net::TcpStream {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(partial).await.unwrap();
    s
}

/// Whether the server closed the connection within `within`.
async fn closed_within(mut s: tokio::net::TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue, // an answer (408, 503) before the close
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_connections_are_cut_within_30_s_and_never_starve_others() {
    // A cap below the stalled count, as with a descriptor limit of 256.
    let limits = Limits {
        max_connections: 192,
        ..Limits::default()
    };
    let (addr, _) = server_with(&databases().await[0], limits).await;
    let started = Instant::now();
    let mut stalled = Vec::new();
    for i in 0..300 {
        let partial: &[u8] = if i % 2 == 0 {
            b"GET /api/session HTTP/1.1\r\nHost: x\r\n"
        } else {
            b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"name\""
        };
        stalled.push(stall(addr, partial).await);
    }
    // A normal request still gets its answer.
    let r = reqwest::get(format!("http://{addr}/api/session"))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let closed = join_all(
        stalled
            .into_iter()
            .map(|s| closed_within(s, Duration::from_secs(30))),
    )
    .await;
    assert!(
        closed.iter().all(|c| *c),
        "a stalled connection stayed open"
    );
    assert!(started.elapsed() < Duration::from_secs(35));
    let r = reqwest::get(format!("http://{addr}/api/session"))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_write_lock_delays_or_refuses_moves_and_the_bot_moves_once_it_is_released() {
    use sqlx::Connection;
    let (url, _file) = sqlite_file("lock");
    let (addr, _) = server_with(&url, Limits::default()).await;
    let alice = Client::signup(addr, "alice").await;
    let id = alice
        .game_vs_bot("freemans-farm", "american", "random")
        .await;
    // Another process (here, another connection) holds SQLite's write lock for 8 s.
    let mut holder = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::raw_sql("BEGIN IMMEDIATE")
        .execute(&mut holder)
        .await
        .unwrap();
    let before = alice.wait_my_turn(&id).await;
    let refused = play_first(&alice, &id).await;
    match &refused {
        Err((status, v)) => {
            assert_eq!(*status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
            let (_, after) = alice.get(&format!("/api/games/{id}")).await;
            assert_eq!(after["version"], before["version"], "refused yet changed");
        }
        Ok(v) => panic!("acknowledged version {v} while the lock was held"),
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    sqlx::raw_sql("ROLLBACK")
        .execute(&mut holder)
        .await
        .unwrap();
    drop(holder);
    // Released: play until the bot has moved, within seconds.
    let v = play_first(&alice, &id).await.expect("writes resume");
    assert!(v > before["version"].as_i64().unwrap());
    let t = Instant::now();
    loop {
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        if g["to_act"] == g["my_side"] || g["status"] == "finished" {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "the bot never moved");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits (up to `secs`) until it is Alice's decision or the game is over.
async fn wait_long(c: &Client, id: &str, secs: u64) -> Value {
    let t = Instant::now();
    loop {
        let (_, g) = c.get(&format!("/api/games/{id}")).await;
        if g["to_act"] == g["my_side"] || g["status"] == "finished" {
            return g;
        }
        assert!(
            t.elapsed() < Duration::from_secs(secs),
            "still the bot's decision after {secs} s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_whose_write_fails_retries_until_it_is_stored() {
    use sqlx::Connection;
    let (url, _file) = sqlite_file("bot");
    let (addr, _) = server_with(&url, Limits::default()).await;
    let alice = Client::signup(addr, "alice").await;
    let (status, v) = alice
        .post("/api/games", json!({"game": "battles", "scenario": "freemans-farm", "side": "american", "opponent": "bot", "level": "hard"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    // Play until a move of Alice's hands the decision to the bot, then take SQLite's write
    // lock from another connection at once, while the bot thinks, and hold it for 8 s (longer
    // than the server's 5 s wait for the lock): the bot's write fails.
    let mut holder = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let mut stuck = None;
    for _ in 0..300 {
        let g = wait_long(&alice, &id, 120).await;
        if g["status"] == "finished" {
            break;
        }
        let action = g["legal"][0]["action"].as_str().unwrap().to_string();
        let (status, after) = alice
            .post(
                &format!("/api/games/{id}/act"),
                json!({"action": action, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if after["to_act"] != after["my_side"] && after["status"] != "finished" {
            sqlx::raw_sql("BEGIN IMMEDIATE")
                .execute(&mut holder)
                .await
                .unwrap();
            let (_, now) = alice.get(&format!("/api/games/{id}")).await;
            if now["to_act"] != now["my_side"] && now["status"] != "finished" {
                stuck = Some(now["version"].clone());
                break;
            }
            sqlx::raw_sql("ROLLBACK")
                .execute(&mut holder)
                .await
                .unwrap(); // the bot was quicker: try again later
        }
    }
    let stuck = stuck.expect("no decision was left to the bot");
    tokio::time::sleep(Duration::from_secs(8)).await;
    let (_, g) = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        g["version"], stuck,
        "a bot move was acknowledged without the lock"
    );
    sqlx::raw_sql("ROLLBACK")
        .execute(&mut holder)
        .await
        .unwrap();
    // Released: the bot, retrying, moves on by itself within seconds.
    let t = Instant::now();
    loop {
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        if g["version"].as_i64() > stuck.as_i64() {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "the bot stopped for good"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_replays_are_computed_once_and_expensive_reads_are_limited() {
    let addr_db = databases().await.remove(0);
    let (addr, st) = server_with(&addr_db, Limits::default()).await;
    let alice = Client::signup(addr, "alice").await;
    let id = alice
        .game_vs_bot("freemans-farm", "american", "random")
        .await;
    // Alice concedes nothing: she plays random legal moves to the end.
    for _ in 0..5000 {
        let g = alice.wait_my_turn(&id).await;
        if g["status"] == "finished" {
            break;
        }
        let legal = g["legal"].as_array().unwrap();
        let action = legal[legal.len() / 2]["action"]
            .as_str()
            .unwrap()
            .to_string();
        alice
            .post(
                &format!("/api/games/{id}/act"),
                json!({"action": action, "version": g["version"]}),
            )
            .await;
    }
    let (_, g) = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "finished");
    assert!(st.replays.is_empty());
    let stranger = Client::new(addr).await;
    let (status, first) = stranger.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(st.replays.len(), 1);
    let (_, second) = stranger.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(first, second);
    assert_eq!(st.replays.len(), 1);
    // Past the per-address limit, a clear 429.
    let mut limited = false;
    for _ in 0..muster_server::auth::READ_LIMIT {
        let (status, v) = stranger.get(&format!("/api/games/{id}/replay")).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(kind(&v), "rate_limited");
            limited = true;
            break;
        }
    }
    assert!(limited);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_websocket_is_closed_and_a_listening_one_is_kept() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let limits = Limits {
        socket_idle: Duration::from_secs(3),
        ..Limits::default()
    };
    let (addr, _) = server_with(&databases().await[0], limits).await;
    let alice = Client::signup(addr, "alice").await;
    let id = alice
        .game_vs_bot("freemans-farm", "american", "random")
        .await;
    let url = format!("ws://{addr}/api/games/{id}/ws");
    // A client that reads (and so answers the server's pings) stays connected past the idle
    // limit.
    let (mut listening, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    // A client that reads nothing, so answers no ping.
    let (mut silent, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(7) {
        match tokio::time::timeout(Duration::from_millis(500), listening.next()).await {
            Err(_) => {}
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => {
                panic!("a client that answers pings was disconnected")
            }
            Ok(Some(Ok(_))) => {}
        }
    }
    // The silent one: what it finds now ends in the server's close.
    let ended = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(m) = silent.next().await {
            match m {
                Ok(Message::Close(_)) | Err(_) => return true,
                Ok(_) => {}
            }
        }
        true
    })
    .await
    .unwrap_or(false);
    assert!(ended, "a silent client was kept past the idle limit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_clashed_before_the_rule_are_reported_and_keep_working() {
    let (url, _file) = sqlite_file("clash");
    // A database from before names were unique without regard to case: `Alice` and `alice`.
    {
        let (addr, st) = server_with(&url, Limits::default()).await;
        Client::signup(addr, "alice").await;
        use muster_server::db::Stmt;
        st.db
            .write(vec![
                Stmt::new("DROP INDEX users_name_key", vec![]),
                Stmt::new(
                    "INSERT INTO users (id, name, name_key, pass_hash, created)
                     SELECT 'other', 'Alice', 'alice', pass_hash, created FROM users WHERE name = 'alice'",
                    vec![],
                ),
            ])
            .await
            .unwrap();
    }
    // Start-up goes on and reports the clash.
    let db = muster_server::db::open(&url, Default::default())
        .await
        .unwrap();
    let clashes = muster_server::db::ensure_unique_names(&db).await.unwrap();
    assert_eq!(
        clashes,
        vec![vec!["Alice".to_string(), "alice".to_string()]]
    );
    let (addr, _) = server_with(&url, Limits::default()).await;
    // Both accounts log in under their own names; no third variant can be made.
    for name in ["Alice", "alice"] {
        let c = Client::new(addr).await;
        let (status, v) = login(&c, name, "correct horse").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["user"]["name"], name);
    }
    let c = Client::new(addr).await;
    let (status, v) = c
        .post(
            "/api/signup",
            json!({"name": "ALICE", "password": "correct horse"}),
        )
        .await;
    assert_eq!((status, kind(&v)), (StatusCode::CONFLICT, "name_taken"));
}
