//! The play server's HTTP API against SQLite and PostgreSQL: accounts, CSRF, creating and
//! playing games, and every kind of bad request refused with a clear error and the game
//! unchanged; views that never carry the other side's secrets or the seed. (Faults and abuse:
//! `faults.rs`.)

mod common;

use common::*;
use muster_server::{DRAIN_LIMIT, MAX_BODY};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signup_login_logout_and_wrong_passwords() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let (_, me) = alice.get("/api/session").await;
        assert_eq!(me["user"]["name"], "alice", "{db}");
        // The same name again is refused.
        let other = Client::new(addr).await;
        let (status, v) = other
            .post(
                "/api/signup",
                json!({"name": "alice", "password": "another one"}),
            )
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::CONFLICT, "name_taken"));
        // Bad names and short passwords.
        let (status, _) = other
            .post(
                "/api/signup",
                json!({"name": "a b", "password": "password123"}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, _) = other
            .post("/api/signup", json!({"name": "bobby", "password": "short"}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        // Log out, then in again.
        let (status, _) = alice.post("/api/logout", json!({})).await;
        assert_eq!(status, StatusCode::OK);
        let (_, me) = alice.get("/api/session").await;
        assert!(me["user"].is_null());
        let (status, v) = alice
            .post(
                "/api/login",
                json!({"name": "alice", "password": "wrong password"}),
            )
            .await;
        assert_eq!(
            (status, kind(&v)),
            (StatusCode::UNAUTHORIZED, "unauthenticated")
        );
        let (status, _) = alice
            .post(
                "/api/login",
                json!({"name": "alice", "password": "correct horse"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
}

/// A server on `db` with Alice signed up and playing Freeman's Farm against the random bot:
/// the server's address, her client, the game's path and its state as she sees it.
async fn alice_in_a_game(db: &str) -> (SocketAddr, Client, String, Value) {
    let addr = server(db).await;
    let alice = Client::signup(addr, "alice").await;
    let id = alice
        .game_vs_bot("freemans-farm", "american", "random")
        .await;
    let path = format!("/api/games/{id}");
    let (_, before) = alice.get(&path).await;
    (addr, alice, path, before)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_and_change_nothing() {
    for db in databases().await {
        let (addr, alice, path, before) = alice_in_a_game(&db).await;
        let version = before["version"].as_i64().unwrap();
        let act = format!("{path}/act");
        let checks: Vec<(StatusCode, &str, (StatusCode, Value))> = vec![
            // An illegal action.
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_action",
                alice
                    .post(&act, json!({"action": "commit", "version": version}))
                    .await,
            ),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "unparsable",
                alice
                    .post(&act, json!({"action": "fly away", "version": version}))
                    .await,
            ),
            // A stale version.
            (
                StatusCode::CONFLICT,
                "stale",
                alice
                    .post(
                        &act,
                        json!({"action": "end-movement", "version": version + 7}),
                    )
                    .await,
            ),
            // Malformed JSON and unknown fields.
            (
                StatusCode::BAD_REQUEST,
                "bad_request",
                alice
                    .post_raw(&act, b"{not json".to_vec(), Some(&alice.csrf()))
                    .await,
            ),
            (
                StatusCode::BAD_REQUEST,
                "bad_request",
                alice
                    .post(
                        &act,
                        json!({"action": "end-movement", "version": version, "extra": 1}),
                    )
                    .await,
            ),
            // An oversized body.
            (
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                alice
                    .post_raw(&act, vec![b' '; 200_000], Some(&alice.csrf()))
                    .await,
            ),
            // A wrong and a missing CSRF token.
            (
                StatusCode::FORBIDDEN,
                "csrf",
                alice
                    .post_raw(
                        &act,
                        json!({"action": "end-movement", "version": version})
                            .to_string()
                            .into_bytes(),
                        Some("0123456789abcdef0123456789abcdef"),
                    )
                    .await,
            ),
            (
                StatusCode::FORBIDDEN,
                "csrf",
                alice
                    .post_raw(
                        &act,
                        json!({"action": "end-movement", "version": version})
                            .to_string()
                            .into_bytes(),
                        None,
                    )
                    .await,
            ),
        ];
        for (status, k, (got, body)) in checks {
            assert_eq!((got, kind(&body)), (status, k), "{db}: {body}");
            assert!(!body["error"]["message"].as_str().unwrap_or("").is_empty());
        }
        // A stranger, and a logged-out visitor.
        let mallory = Client::signup(addr, "mallory").await;
        let (status, v) = mallory
            .post(&act, json!({"action": "end-movement", "version": version}))
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "forbidden"));
        let anon = Client::new(addr).await;
        let (status, v) = anon
            .post(&act, json!({"action": "end-movement", "version": version}))
            .await;
        assert_eq!(
            (status, kind(&v)),
            (StatusCode::UNAUTHORIZED, "unauthenticated")
        );
        // Nothing changed.
        let (_, after) = alice.get(&path).await;
        assert_eq!(after, before, "{db}");
    }
}

/// An oversized body is refused with a readable 413 every time, not now and then with a reset
/// connection (the server reads what is still coming before it answers), and the connection's
/// refusal changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_always_get_a_readable_refusal() {
    let db = databases().await.remove(0);
    let (_, alice, path, before) = alice_in_a_game(&db).await;
    let act = format!("{path}/act");
    let csrf = alice.csrf();
    for size in [MAX_BODY + 1, 200_000, DRAIN_LIMIT].repeat(10) {
        let (status, body) = alice.post_raw(&act, vec![b' '; size], Some(&csrf)).await;
        assert_eq!(
            (status, kind(&body)),
            (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            "{size} bytes"
        );
    }
    // The sign-up and log-in routes read their bodies the same way.
    for route in ["/api/signup", "/api/login"] {
        let (status, body) = alice
            .post_raw(route, vec![b' '; 200_000], Some(&csrf))
            .await;
        assert_eq!(
            (status, kind(&body)),
            (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            "{route}"
        );
    }
    // A body exactly at the limit is read (and refused as malformed JSON, not as too large).
    let (status, body) = alice
        .post_raw(&act, vec![b' '; MAX_BODY], Some(&csrf))
        .await;
    assert_eq!(
        (status, kind(&body)),
        (StatusCode::BAD_REQUEST, "bad_request")
    );
    let (_, after) = alice.get(&path).await;
    assert_eq!(after, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_for_the_other_seat_are_refused() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (_, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
            .await;
        let id = v["id"].as_str().unwrap().to_string();
        assert!(v["invite"].is_string());
        // The seated player sees the invite again; nobody else does.
        let (_, seen) = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(seen["invite"], v["invite"]);
        let (_, other) = bob.get(&format!("/api/games/{id}")).await;
        assert!(other["invite"].is_null());
        // A wrong invite is refused.
        let (status, e) = bob
            .post(&format!("/api/games/{id}/join"), json!({"invite": "nope"}))
            .await;
        assert_eq!((status, kind(&e)), (StatusCode::FORBIDDEN, "forbidden"));
        // Not started yet.
        let (status, v) = alice
            .post(
                &format!("/api/games/{id}/act"),
                json!({"action": "place A1", "version": 0}),
            )
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::CONFLICT, "not_started"));
        // Bob finds it in the open list and joins.
        let (_, lobby) = bob.get("/api/lobby").await;
        assert!(
            lobby["open"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["id"] == id.as_str())
        );
        let (status, g) = bob.post(&format!("/api/games/{id}/join"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["my_side"], "american");
        // The Americans set up first: Alice (British) may not act for them.
        let version = g["version"].as_i64().unwrap();
        let legal = g["legal"][0]["action"].as_str().unwrap().to_string();
        let (status, v) = alice
            .post(
                &format!("/api/games/{id}/act"),
                json!({"action": legal, "version": version}),
            )
            .await;
        assert_eq!(
            (status, kind(&v)),
            (StatusCode::CONFLICT, "not_your_turn"),
            "{db}"
        );
        let (_, as_alice) = alice.get(&format!("/api/games/{id}")).await;
        assert!(
            as_alice["legal"].as_array().unwrap().is_empty(),
            "no choices on the other side's turn"
        );
        let (status, g) = bob
            .post(
                &format!("/api/games/{id}/act"),
                json!({"action": legal, "version": version}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["version"], version + 1);
        // Bob's lobby shows the game; whose turn it is follows.
        let (_, lobby) = bob.get("/api/lobby").await;
        assert!(
            lobby["mine"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["id"] == id.as_str())
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_never_carry_the_seed_and_records_wait_for_the_end() {
    let db = &databases().await[0];
    let addr = server(db).await;
    let alice = Client::signup(addr, "alice").await;
    let id = alice.game_vs_bot("oriskany", "american", "random").await;
    for who in [&alice, &Client::new(addr).await] {
        let (status, g) = who.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        let text = g.to_string();
        for secret in ["dice", "word_pos", "\"key\"", "seed"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
    let (status, v) = alice.get(&format!("/api/games/{id}/record")).await;
    assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    let (status, v) = alice.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    // Spectators see no choices.
    let (_, spectator) = Client::new(addr)
        .await
        .get(&format!("/api/games/{id}"))
        .await;
    assert!(spectator["legal"].as_array().unwrap().is_empty());
    assert!(spectator["my_side"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_a_bot_plays_to_the_end_then_the_record_replays_and_rematch_works() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let id = alice.game_vs_bot("oriskany", "american", "random").await;
        let path = format!("/api/games/{id}");
        // A WebSocket follower sees the updates.
        let ws_url = format!("ws://{addr}/api/games/{id}/ws");
        let (mut ws, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
        let mut undone = false;
        loop {
            let g = alice.wait_my_turn(&id).await;
            if g["status"] == "finished" {
                break;
            }
            let version = g["version"].as_i64().unwrap();
            let action = g["legal"][0]["action"].as_str().unwrap().to_string();
            let (status, after) = alice
                .post(
                    &format!("{path}/act"),
                    json!({"action": action, "version": version}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{db}: {after}");
            // Once, take back a decision that involved no dice.
            if !undone && after["can_undo"] == true {
                let (status, back) = alice
                    .post(
                        &format!("{path}/undo"),
                        json!({"version": after["version"]}),
                    )
                    .await;
                assert_eq!(status, StatusCode::OK, "{back}");
                assert_eq!(back["actions"], g["actions"]);
                assert_eq!(back["legal"], g["legal"]);
                undone = true;
            }
        }
        assert!(undone, "an undo happened during the game");
        use futures_util::StreamExt;
        let first = tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let first: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
        assert_eq!(first["type"], "state", "{first}");
        let (_, g) = alice.get(&path).await;
        assert!(g["outcome"]["winner"].is_string(), "{g}");
        // The record (with the seed) is served now, and it replays to the same result.
        let (status, record) = alice.get(&format!("{path}/record")).await;
        assert_eq!(status, StatusCode::OK);
        let record: muster_core::Record = serde_json::from_value(record).unwrap();
        assert!(record.seed.is_some());
        let replayed = registry().replay(&record).unwrap();
        assert_eq!(
            replayed
                .outcome()
                .unwrap()
                .winner
                .map(|w| replayed.info().side_name(w).to_string()),
            g["outcome"]["winner"].as_str().map(str::to_string)
        );
        // The replay: the public view after every action, the last one the final position.
        let (status, rp) = alice.get(&format!("{path}/replay")).await;
        assert_eq!(status, StatusCode::OK);
        let steps = rp["steps"].as_array().unwrap();
        assert_eq!(steps.len(), record.actions.len() + 1);
        assert!(steps[0]["action"].is_null());
        assert_eq!(
            steps[1]["action"].as_str().unwrap(),
            record.actions[0].action
        );
        let (_, public) = Client::new(addr).await.get(&path).await;
        assert_eq!(steps.last().unwrap()["view"], public["view"]);
        // Rematch: against a bot nobody is to be asked, so the offer starts a new game with
        // the same seats at once.
        let (status, r) = alice
            .post(&format!("{path}/offers"), json!({"kind": "rematch"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let (_, fresh) = alice
            .get(&format!("/api/games/{}", r["rematch"].as_str().unwrap()))
            .await;
        assert_eq!(fresh["my_side"], "american");
        assert_eq!(fresh["scenario"], "oriskany");
        let (_, lobby) = alice.get("/api/lobby").await;
        assert!(
            lobby["finished"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["id"] == id.as_str())
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_serves_games_where_they_were() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let id = alice
            .game_vs_bot("freemans-farm", "british", "random")
            .await;
        let path = format!("/api/games/{id}");
        for _ in 0..15 {
            let g = alice.wait_my_turn(&id).await;
            let action = g["legal"][0]["action"].as_str().unwrap().to_string();
            alice
                .post(
                    &format!("{path}/act"),
                    json!({"action": action, "version": g["version"]}),
                )
                .await;
        }
        let before = alice.wait_my_turn(&id).await;
        // A second server on the same database: it has nothing in memory and must load the game
        // from its stored record and snapshot.
        let addr2 = server(&db).await;
        let again = Client::new(addr2).await;
        let (status, _) = again
            .post(
                "/api/login",
                json!({"name": "alice", "password": "correct horse"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (_, after) = again.get(&path).await;
        for field in [
            "version", "to_act", "legal", "view", "log", "actions", "status",
        ] {
            assert_eq!(after[field], before[field], "{db}: {field}");
        }
    }
}

/// The snapshot is rewritten every `SNAPSHOT_EVERY` actions, not on every one: a game whose
/// record runs past its snapshot loads by replaying to the snapshot, checking it, and applying
/// the rest; a snapshot that does not match the replayed record refuses to load.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_loads_from_a_snapshot_behind_its_record_and_never_from_a_wrong_one() {
    use muster_server::play::SNAPSHOT_EVERY;
    for db in databases().await {
        let (addr, st) = server_with(&db, muster_server::Limits::default()).await;
        let alice = Client::signup(addr, "alice").await;
        let id = alice
            .game_vs_bot("freemans-farm", "british", "random")
            .await;
        let path = format!("/api/games/{id}");
        let mut g = alice.wait_my_turn(&id).await;
        while g["status"] == "active" && g["actions"].as_u64().unwrap() < SNAPSHOT_EVERY as u64 + 10
        {
            let action = g["legal"][0]["action"].as_str().unwrap().to_string();
            let (status, v) = alice
                .post(
                    &format!("{path}/act"),
                    json!({"action": action, "version": g["version"]}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
            g = alice.wait_my_turn(&id).await;
        }
        assert_eq!(
            g["status"], "active",
            "{db}: the game must outlast a snapshot period"
        );
        let actions = g["actions"].as_i64().unwrap();
        let (at,): (i64,) = sqlx::query_as("SELECT snapshot_at FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&st.db.pool)
            .await
            .unwrap();
        assert!(
            at > 0 && at < actions && at % SNAPSHOT_EVERY as i64 == 0,
            "{db}: snapshot after {at} of {actions} actions"
        );
        let login = json!({"name": "alice", "password": "correct horse"});
        let fresh = Client::new(server(&db).await).await;
        assert_eq!(
            fresh.post("/api/login", login.clone()).await.0,
            StatusCode::OK
        );
        let (_, after) = fresh.get(&path).await;
        for field in ["version", "to_act", "legal", "view", "log", "actions"] {
            assert_eq!(after[field], g[field], "{db}: {field}");
        }
        // The snapshot said to come one action earlier than it does: the replay up to there is
        // another position, and the game is refused rather than served wrong.
        st.db
            .write(vec![muster_server::db::Stmt::new(
                "UPDATE games SET snapshot_at = snapshot_at - 1 WHERE id = $1",
                vec![id.as_str().into()],
            )])
            .await
            .unwrap();
        let fresh = Client::new(server(&db).await).await;
        assert_eq!(fresh.post("/api/login", login).await.0, StatusCode::OK);
        let (status, v) = fresh.get(&path).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{db}: {v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("does not match"),
            "{v}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_games_and_bad_creations_are_clear_errors() {
    let addr = server(&databases().await[0]).await;
    let alice = Client::signup(addr, "alice").await;
    let (status, v) = alice.get("/api/games/nope").await;
    assert_eq!((status, kind(&v)), (StatusCode::NOT_FOUND, "not_found"));
    for (body, k) in [
        (
            json!({"game": "chess", "scenario": "x", "side": "white", "opponent": "bot"}),
            "unknown_game",
        ),
        (
            json!({"game": "battles", "scenario": "yorktown", "side": "american", "opponent": "bot"}),
            "unknown_scenario",
        ),
        (
            json!({"game": "battles", "scenario": "oriskany", "side": "french", "opponent": "bot"}),
            "unknown_side",
        ),
        (
            json!({"game": "battles", "scenario": "oriskany", "side": "american", "opponent": "bot", "options": {"storm": "never"}}),
            "bad_option",
        ),
        (
            json!({"game": "battles", "scenario": "oriskany", "side": "american", "opponent": "bot", "level": "godlike"}),
            "bad_request",
        ),
    ] {
        let (status, v) = alice.post("/api/games", body).await;
        assert_eq!(kind(&v), k, "{v}");
        assert!(status.is_client_error());
    }
    let (status, catalog) = alice.get("/api/catalog").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        catalog["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == "battles")
    );
    assert_eq!(catalog["levels"].as_array().unwrap().len(), 4);
}

/// Waits until it is `c`'s decision in game `id` or the game is over, for as long as the bot
/// keeps moving: bots queue behind one another here, and a bot's whole turn is many decisions
/// of up to a second each (`hard` in a debug build always searches to its time limit), so how
/// long a turn takes depends on the game and the machine. What must not happen is a game whose
/// bot stops: the test fails when the game's version stands still for a minute.
async fn wait_turn_patiently(c: &Client, id: &str) -> Value {
    let stall = std::time::Duration::from_secs(60);
    let mut version = Value::Null;
    let mut moved = std::time::Instant::now();
    loop {
        let (_, g) = c.get(&format!("/api/games/{id}")).await;
        if g["to_act"] == g["my_side"] || g["status"] == "finished" {
            return g;
        }
        if g["version"] != version {
            version = g["version"].clone();
            moved = std::time::Instant::now();
        }
        assert!(
            moved.elapsed() < stall,
            "the bot of game {id} did not move for {stall:?} (version {version})"
        );
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
}

/// Issue 18: bot searches queue for the server's bot pool. With the pool's one slot taken,
/// no bot moves, yet every human action (in the bot games and in a game between two players)
/// is answered; once the slot is free, every bot game, `hard` ones included, moves again and
/// keeps moving, each in its turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_queue_for_the_bot_pool_every_bot_game_progresses_and_humans_are_served() {
    for db in databases().await {
        let limits = muster_server::Limits {
            bot_threads: 1,
            ..Default::default()
        };
        let (addr, state) = server_with(&db, limits).await;
        assert_eq!(state.bot_pool.size(), 1);
        let mut games = Vec::new();
        for (i, level) in ["hard", "medium", "hard", "easy", "random"]
            .into_iter()
            .enumerate()
        {
            let c = Client::signup(addr, &format!("player{i}")).await;
            let id = c.game_vs_bot("freemans-farm", "american", level).await;
            games.push((c, id));
        }
        // Take the pool's only slot: the bots wait, the players do not.
        let held = state.bot_pool.acquire(1).await.unwrap();
        assert_eq!(state.bot_pool.free(), 0);
        let mut versions = Vec::new();
        for (c, id) in &games {
            let g = hand_over(c, id).await;
            assert_ne!(g["to_act"], g["my_side"], "{db}: the bot is to act");
            versions.push(g["version"].clone());
        }
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (human, _) = human_game(&alice, &bob).await;
        let (_, g) = alice.get(&format!("/api/games/{human}")).await;
        let (player, g) = if g["to_act"] == g["my_side"] {
            (&alice, g)
        } else {
            (&bob, bob.get(&format!("/api/games/{human}")).await.1)
        };
        let action = g["legal"][0]["action"].as_str().unwrap().to_string();
        let (status, v) = player
            .post(
                &format!("/api/games/{human}/act"),
                json!({"action": action, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        for ((c, id), version) in games.iter().zip(&versions) {
            let (_, g) = c.get(&format!("/api/games/{id}")).await;
            assert_eq!(
                &g["version"], version,
                "{db}: no bot moved while the pool was full"
            );
        }
        drop(held);
        // Every bot game moves, three turns each, all at once.
        let rounds = games.iter().map(|(c, id)| async move {
            let mut moves = 0;
            for _ in 0..3 {
                let g = wait_turn_patiently(c, id).await;
                if g["status"] == "finished" {
                    break;
                }
                moves += 1;
                hand_over(c, id).await;
            }
            moves
        });
        let moves = futures_util::future::join_all(rounds).await;
        assert!(moves.iter().all(|&m| m >= 1), "{db}: {moves:?}");
    }
}
