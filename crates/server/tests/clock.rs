//! Time controls (issue 16 §2) against SQLite and PostgreSQL, on an injected clock (the
//! notifications' test clock, which the time controls read too): nothing here sleeps for an
//! expiry. The increment after a move, the clock paused on a bot's turn and while a game
//! waits for its players, expiry ending the game on time (record, log, winner), an expiry
//! that fell due while the server was down applied at start-up at its time, the reminder
//! (a real webhook call to a receiver the test runs) sent once per turn, vacations, and bad
//! time controls refused.

mod common;

use common::*;
use muster_server::notify::Settings;
use muster_server::{AppState, Config};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

const T0: i64 = 1_800_000_000;
const DAY: i64 = 24 * 3600;

/// A server on `db` whose time is `clock` (webhooks may call loopback).
async fn clocked_server(db: &str, clock: &Arc<AtomicI64>) -> (SocketAddr, AppState) {
    server_config(Config {
        database: db.to_string(),
        notify: Settings {
            clock: Some(clock.clone()),
            allow_private_hooks: true,
            hook_backoff: Duration::from_millis(100),
            ..Settings::default()
        },
        ..Default::default()
    })
    .await
}

/// Oriskany between Alice (British, who made it with `time`) and Bob (American, who joined
/// and is to act first): their clients and the game's path.
async fn alice_and_bob(addr: SocketAddr, time: Value) -> (Client, Client, String) {
    let alice = Client::signup(addr, "alice").await;
    let bob = Client::signup(addr, "bob").await;
    let (status, v) = alice
        .post(
            "/api/games",
            json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human", "time": time}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (status, g) = bob.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["to_act"], "american");
    (alice, bob, format!("/api/games/{id}"))
}

/// Plays `who`'s decisions (the first legal action each time) until another side is to act;
/// it must be `who`'s turn.
async fn hand_over(who: &Client, path: &str) -> Value {
    let (_, g) = who.get(path).await;
    assert_eq!(g["to_act"], g["my_side"], "not this player's turn: {g}");
    common::hand_over(who, path.trim_start_matches("/api/games/")).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_for_the_side_to_decide_and_adds_the_increment_when_it_hands_over() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, _) = clocked_server(&db, &clock).await;
        let (alice, bob, path) = alice_and_bob(
            addr,
            json!({"kind": "clock", "initial_minutes": 60, "increment_minutes": 5}),
        )
        .await;
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["clock"]["kind"], "clock", "{db}: {g}");
        assert_eq!(g["clock"]["running"], "american", "{db}");
        assert_eq!(g["clock"]["left"]["american"], 3600, "{db}");
        clock.store(T0 + 100, Ordering::Relaxed);
        // A spectator sees the clocks too.
        let spectator = Client::new(addr).await;
        let (_, g) = spectator.get(&path).await;
        assert_eq!(g["clock"]["left"]["american"], 3500, "{db}");
        assert_eq!(g["clock"]["left"]["british"], 3600, "{db}");
        assert_eq!(g["clock"]["now"], T0 + 100, "{db}");
        // Alice's socket carries the clocks in its first message, and in the updates.
        let id = path.rsplit('/').next().unwrap();
        let mut ws = open(addr, Some(&alice), id, "", None).await.unwrap();
        let first = next(&mut ws).await;
        assert_eq!(first["type"], "state", "{db}");
        assert_eq!(first["clock"]["running"], "american", "{db}");
        assert_eq!(first["clock"]["left"]["american"], 3500, "{db}");
        // Bob hands over after 100 s: 3600 - 100 + 300 s; Alice's clock starts.
        let g = hand_over(&bob, &path).await;
        assert_eq!(g["to_act"], "british", "{db}");
        assert_eq!(g["clock"]["left"]["american"], 3800, "{db}");
        assert_eq!(g["clock"]["running"], "british", "{db}");
        let mut pushed = Value::Null;
        while pushed.is_null() {
            let m = next(&mut ws).await;
            if m["type"] == "update" && m["clock"]["running"] == "british" {
                pushed = m["clock"].clone();
            }
        }
        assert_eq!(pushed["left"]["american"], 3800, "{db}");
        assert_eq!(pushed["left"]["british"], 3600, "{db}");
        clock.store(T0 + 160, Ordering::Relaxed);
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["clock"]["left"]["british"], 3540, "{db}");
        assert_eq!(g["clock"]["left"]["american"], 3800, "{db}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_is_stopped_while_the_game_waits_for_a_player_and_while_a_bot_decides() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, state) = clocked_server(&db, &clock).await;
        // An open game: no clock runs until Bob joins, however long that takes.
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (_, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human", "time": {"kind": "pace", "days": 2}}))
            .await;
        let open = format!("/api/games/{}", v["id"].as_str().unwrap());
        let (_, g) = alice.get(&open).await;
        assert!(g["clock"]["running"].is_null(), "{db}: {g}");
        clock.store(T0 + 10 * DAY, Ordering::Relaxed);
        let (status, g) = bob.post(&format!("{open}/join"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["status"], "active", "{db}");
        assert_eq!(g["clock"]["running"], "american", "{db}");
        assert_eq!(g["clock"]["left"]["american"], 2 * DAY, "{db}");

        // Against a bot: the bot (American) sets up first, then Alice (British) decides.
        let id = alice
            .game_vs_bot_timed(
                "freemans-farm",
                "british",
                json!({"kind": "clock", "initial_minutes": 30, "increment_minutes": 0}),
            )
            .await;
        let path = format!("/api/games/{id}");
        // The bot's next moves are refused by the database until the test lets them through
        // (a trigger on its side's rows): its turn lasts as long as the test wants.
        hold_bot_moves(&state, "american", true).await;
        clock.store(T0 + 10 * DAY + 200, Ordering::Relaxed);
        let g = hand_over(&alice, &path).await;
        assert_eq!(g["to_act"], "american", "{db}");
        let left = 30 * 60 - 200;
        assert_eq!(g["clock"]["left"]["british"], left, "{db}");
        assert!(g["clock"]["running"].is_null(), "{db}: {g}");
        // A long time on the bot's turn: neither clock moves, nothing expires.
        clock.store(T0 + 20 * DAY, Ordering::Relaxed);
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["status"], "active", "{db}");
        assert_eq!(g["to_act"], "american", "{db}");
        assert_eq!(g["clock"]["left"]["british"], left, "{db}");
        assert_eq!(g["clock"]["left"]["american"], 30 * 60, "{db}");
        hold_bot_moves(&state, "american", false).await;
        let g = alice.wait_my_turn(&id).await;
        assert_eq!(g["status"], "active", "{db}");
        assert_eq!(g["clock"]["running"], "british", "{db}");
        assert_eq!(g["clock"]["left"]["british"], left, "{db}");
    }
}

/// Makes the database refuse (or again accept) new actions of `side`.
async fn hold_bot_moves(state: &AppState, side: &str, hold: bool) {
    let pool = &state.db.pool;
    let sql = match (state.db.is_sqlite(), hold) {
        (true, true) => format!(
            "CREATE TRIGGER hold_bot BEFORE INSERT ON actions WHEN NEW.side = '{side}' BEGIN SELECT RAISE(ABORT, 'held by the test'); END"
        ),
        (true, false) => "DROP TRIGGER hold_bot".to_string(),
        (false, true) => format!(
            "CREATE FUNCTION hold_bot() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'held by the test'; END $$ LANGUAGE plpgsql;
             CREATE TRIGGER hold_bot BEFORE INSERT ON actions FOR EACH ROW WHEN (NEW.side = '{side}') EXECUTE FUNCTION hold_bot()"
        ),
        (false, false) => {
            "DROP TRIGGER hold_bot ON actions; DROP FUNCTION hold_bot()".to_string()
        }
    };
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
        .execute(pool)
        .await
        .unwrap();
}

trait Timed {
    async fn game_vs_bot_timed(&self, scenario: &str, side: &str, time: Value) -> String;
}

impl Timed for Client {
    /// A game against a random bot with a time control, once it is this player's turn.
    async fn game_vs_bot_timed(&self, scenario: &str, side: &str, time: Value) -> String {
        let (status, v) = self
            .post("/api/games", json!({"game": "battles", "scenario": scenario, "side": side, "opponent": "bot", "level": "random", "time": time}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        self.wait_my_turn(&id).await;
        id
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_side_whose_time_runs_out_loses_on_time_in_the_record_and_the_log() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, _) = clocked_server(&db, &clock).await;
        let (alice, bob, path) = alice_and_bob(
            addr,
            json!({"kind": "clock", "initial_minutes": 10, "increment_minutes": 0}),
        )
        .await;
        let (_, before) = bob.get(&path).await;
        clock.store(T0 + 599, Ordering::Relaxed);
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["status"], "active", "{db}: one second is left");
        clock.store(T0 + 650, Ordering::Relaxed);
        // Bob's move comes too late: refused, and the game is over.
        let action = before["legal"][0]["action"].as_str().unwrap();
        let (status, v) = bob
            .post(
                &format!("{path}/act"),
                json!({"action": action, "version": before["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{db}: {v}");
        assert_eq!(kind(&v), "game_over", "{db}");
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["status"], "finished", "{db}");
        assert_eq!(g["outcome"]["winner"], "british", "{db}");
        assert_eq!(g["outcome"]["ended"], "time", "{db}");
        assert!(g["to_act"].is_null(), "{db}");
        assert_eq!(g["clock"]["left"]["american"], 0, "{db}");
        assert_eq!(g["clock"]["expired_at"], T0 + 600, "{db}");
        assert!(g["clock"]["running"].is_null(), "{db}");
        let last = g["log"].as_array().unwrap().last().unwrap().clone();
        let text = last["text"].as_str().unwrap();
        assert!(
            text.contains("bob ran out of time for the American side: the British side wins"),
            "{db}: {text}"
        );
        let (status, record) = alice.get(&format!("{path}/record")).await;
        assert_eq!(status, StatusCode::OK, "{db}");
        assert_eq!(
            record["ended"],
            json!({"reason": "time", "side": "american", "winner": "british"}),
            "{db}"
        );
        // The record keeps the time control it was played under, and reads back (as the CLI
        // reads a record) to the same JSON, replaying to the position the game stopped at.
        assert_eq!(
            record["time"],
            json!({"kind": "clock", "initial_minutes": 10, "increment_minutes": 0}),
            "{db}"
        );
        let read: muster_core::Record = serde_json::from_value(record.clone()).unwrap();
        assert_eq!(serde_json::to_value(&read).unwrap(), record, "{db}");
        let replayed = registry().replay(&read).unwrap();
        assert_eq!(replayed.to_act().as_deref(), Some("american"), "{db}");
        assert!(replayed.outcome().is_none(), "{db}");
        // The lobby says who won.
        let (_, lobby) = alice.get("/api/lobby").await;
        assert_eq!(lobby["finished"][0]["winner"], "british", "{db}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expiry_that_fell_due_while_the_server_was_down_is_applied_at_start_up_at_its_time() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, _) = clocked_server(&db, &clock).await;
        let (alice, bob, path) = alice_and_bob(addr, json!({"kind": "pace", "days": 1})).await;
        let id = path.rsplit('/').next().unwrap().to_string();
        // Bob decides once in time (an hour later), so the pace starts again for him when
        // it is his turn; Alice hands back at once.
        clock.store(T0 + 3600, Ordering::Relaxed);
        hand_over(&bob, &path).await;
        hand_over(&alice, &path).await;
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["to_act"], "american", "{db}");
        assert_eq!(g["clock"]["left"]["american"], DAY, "{db}");
        // The server goes down (this one is left alone, its clock stopped at T0 + 1 h); a
        // new one starts on the same database three days later.
        let later = Arc::new(AtomicI64::new(T0 + 3 * DAY));
        let (addr2, state2) = clocked_server(&db, &later).await;
        // Nobody asks for the game: the start-up check ends it, at the time it fell due.
        let due = T0 + 3600 + DAY;
        let mut row = None;
        for _ in 0..200 {
            let r: (String, i64, Option<String>) =
                sqlx::query_as("SELECT status, updated, ended FROM games WHERE id = $1")
                    .bind(&id)
                    .fetch_one(&state2.db.pool)
                    .await
                    .unwrap();
            if r.0 == "finished" {
                row = Some(r);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let (_, updated, ended) = row.unwrap_or_else(|| panic!("{db}: not ended at start-up"));
        assert_eq!(updated, due, "{db}");
        let ended: Value = serde_json::from_str(&ended.unwrap()).unwrap();
        assert_eq!(
            ended,
            json!({"reason": "time", "side": "american", "winner": "british"}),
            "{db}"
        );
        let viewer = Client::new(addr2).await;
        let (_, g) = viewer.get(&path).await;
        assert_eq!(g["status"], "finished", "{db}");
        assert_eq!(g["clock"]["expired_at"], due, "{db}");
        let text = g["outcome"]["reason"].as_str().unwrap();
        assert!(
            text.contains("made no move within the 1 day of the pace"),
            "{db}: {text}"
        );
    }
}

/// A webhook receiver: each request's body comes out of the channel.
async fn hook_receiver() -> (u16, mpsc::UnboundedReceiver<Value>) {
    use axum::routing::post;
    let (tx, rx) = mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/hook",
        post(move |body: axum::body::Bytes| {
            let tx = tx.clone();
            async move {
                let _ = tx.send(serde_json::from_slice(&body).unwrap_or(Value::Null));
                StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (port, rx)
}

/// The next call of kind `event`, or none within `wait` (other kinds are skipped).
async fn next_call(
    rx: &mut mpsc::UnboundedReceiver<Value>,
    event: &str,
    wait: Duration,
) -> Option<Value> {
    let until = tokio::time::Instant::now() + wait;
    loop {
        let v = tokio::time::timeout_at(until, rx.recv()).await.ok()??;
        if v["event"] == event {
            return Some(v);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_goes_once_per_turn_before_the_time_runs_out() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, _) = clocked_server(&db, &clock).await;
        let (port, mut calls) = hook_receiver().await;
        let (alice, bob, path) = alice_and_bob(
            addr,
            json!({"kind": "clock", "initial_minutes": 60, "increment_minutes": 0}),
        )
        .await;
        let id = path.rsplit('/').next().unwrap().to_string();
        let (status, v) = bob
            .post(
                "/api/account/notifications",
                json!({"webhook": format!("http://127.0.0.1:{port}/hook")}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["events"]["time_running_out"], true, "{db}: on by default");
        // 44 minutes into Bob's hour: more than a quarter of it left, no reminder.
        clock.store(T0 + 44 * 60, Ordering::Relaxed);
        let (_, before) = bob.get(&path).await;
        assert!(
            next_call(&mut calls, "time_running_out", Duration::from_millis(2500))
                .await
                .is_none(),
            "{db}: a reminder with 16 minutes left"
        );
        // 15 minutes left: the watch reminds him (nobody looks at the game).
        clock.store(T0 + 45 * 60, Ordering::Relaxed);
        let call = next_call(&mut calls, "time_running_out", Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("{db}: no reminder"));
        assert_eq!(call["game"], id.as_str(), "{db}");
        assert_eq!(call["expires"], T0 + 3600, "{db}");
        assert!(
            call["text"].as_str().unwrap().contains("15 minutes"),
            "{db}: {call}"
        );
        // Once per turn: not again while the same turn goes on.
        clock.store(T0 + 50 * 60, Ordering::Relaxed);
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["status"], "active", "{db}");
        assert!(
            next_call(&mut calls, "time_running_out", Duration::from_millis(2500))
                .await
                .is_none(),
            "{db}: a second reminder in one turn"
        );
        // The reminder changes nothing a client is shown (docs/server.md, "Reminder"): the
        // version stands, the clock reads as before but for the time, and a move made from
        // the version before it is not stale.
        assert_eq!(g["version"], before["version"], "{db}");
        let shown = |g: &Value| {
            let mut c = g["clock"].clone();
            c["now"] = Value::Null;
            c["left"]["american"] = Value::Null;
            c
        };
        assert_eq!(shown(&g), shown(&before), "{db}");
        let action = before["legal"][0]["action"].as_str().unwrap();
        let (status, v) = bob
            .post(
                &format!("{path}/act"),
                json!({"action": action, "version": before["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        // Switched off, none comes in the next turn either.
        let (status, _) = bob
            .post(
                "/api/account/notifications",
                json!({"events": {"time_running_out": false}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        if v["to_act"] == "american" {
            hand_over(&bob, &path).await;
        }
        hand_over(&alice, &path).await;
        // Ten minutes left to Bob: a reminder would be due at once.
        clock.store(T0 + 51 * 60, Ordering::Relaxed);
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["status"], "active", "{db}: {g}");
        assert!(
            next_call(&mut calls, "time_running_out", Duration::from_millis(2500))
                .await
                .is_none(),
            "{db}: a reminder switched off"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_stops_the_clocks_of_the_players_games_within_the_yearly_bound() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, _) = clocked_server(&db, &clock).await;
        let (_alice, bob, path) = alice_and_bob(
            addr,
            json!({"kind": "clock", "initial_minutes": 60, "increment_minutes": 0}),
        )
        .await;
        clock.store(T0 + 600, Ordering::Relaxed);
        // Bad vacations change nothing.
        for (body, status, want) in [
            (
                json!({"days": 0}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "bad_vacation",
            ),
            (
                json!({"days": 31}),
                StatusCode::UNPROCESSABLE_ENTITY,
                "bad_vacation",
            ),
            (json!({"days": "3"}), StatusCode::BAD_REQUEST, "bad_request"),
            (json!({"days": 2.5}), StatusCode::BAD_REQUEST, "bad_request"),
            (json!({"weeks": 1}), StatusCode::BAD_REQUEST, "bad_request"),
        ] {
            let (got, v) = bob.post("/api/account/vacation", body.clone()).await;
            assert_eq!(got, status, "{db}: {body}: {v}");
            assert_eq!(kind(&v), want, "{db}: {body}");
        }
        let (_, v) = bob.get("/api/account/vacation").await;
        assert!(v["on_vacation_until"].is_null(), "{db}: {v}");
        let (status, v) = bob.post("/api/account/vacation", json!({"days": 20})).await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        let ends = T0 + 600 + 20 * DAY;
        assert_eq!(v["on_vacation_until"], ends, "{db}");
        assert_eq!(v["days_left"], 10, "{db}");
        // One at a time.
        let (status, v) = bob.post("/api/account/vacation", json!({"days": 2})).await;
        assert_eq!(status, StatusCode::CONFLICT, "{db}: {v}");
        assert_eq!(kind(&v), "on_vacation");
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["clock"]["left"]["american"], 3000, "{db}: {g}");
        assert_eq!(g["clock"]["resumes"], ends, "{db}");
        // Ten days on: the clock has not moved.
        clock.store(T0 + 10 * DAY, Ordering::Relaxed);
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["status"], "active", "{db}");
        assert_eq!(g["clock"]["left"]["american"], 3000, "{db}");
        // After the vacation it runs again: 49 minutes later one is left, then it runs out.
        clock.store(ends + 49 * 60, Ordering::Relaxed);
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["status"], "active", "{db}");
        assert_eq!(g["clock"]["left"]["american"], 60, "{db}");
        // Ten more days within the year would pass the bound of 30.
        let (status, v) = bob.post("/api/account/vacation", json!({"days": 11})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{db}: {v}");
        assert_eq!(kind(&v), "vacation_used", "{db}");
        clock.store(ends + 51 * 60, Ordering::Relaxed);
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["status"], "finished", "{db}");
        assert_eq!(g["clock"]["expired_at"], ends + 50 * 60, "{db}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_ended_early_starts_the_clocks_again_with_the_time_they_had_left() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, _) = clocked_server(&db, &clock).await;
        let (alice, bob, path) = alice_and_bob(
            addr,
            json!({"kind": "clock", "initial_minutes": 60, "increment_minutes": 0}),
        )
        .await;
        // No vacation runs: ending one is refused, and nothing is stored.
        let (status, v) = bob.post("/api/account/vacation/end", json!({})).await;
        assert_eq!(status, StatusCode::CONFLICT, "{db}: {v}");
        assert_eq!(kind(&v), "not_on_vacation", "{db}");
        clock.store(T0 + 600, Ordering::Relaxed);
        let (status, v) = bob.post("/api/account/vacation", json!({"days": 20})).await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        let (_, stopped) = bob.get(&path).await;
        assert_eq!(
            stopped["clock"]["left"]["american"], 3000,
            "{db}: {stopped}"
        );
        // Refusals while it runs change nothing: a stranger (nobody logged in), no CSRF
        // token, a body with members.
        let anon = Client::new(addr).await;
        let (status, _) = anon.post("/api/account/vacation/end", json!({})).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{db}");
        let (status, v) = bob
            .post_raw("/api/account/vacation/end", b"{}".to_vec(), None)
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{db}: {v}");
        let (status, v) = bob
            .post("/api/account/vacation/end", json!({"now": true}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{db}: {v}");
        let (_, v) = bob.get("/api/account/vacation").await;
        assert_eq!(v["on_vacation_until"], T0 + 600 + 20 * DAY, "{db}: {v}");
        // Two days and an hour on, Bob comes back early.
        let back = T0 + 2 * DAY + 3600;
        clock.store(back, Ordering::Relaxed);
        let (status, v) = bob.post("/api/account/vacation/end", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        assert!(v["on_vacation_until"].is_null(), "{db}: {v}");
        // The days it began count: three (two days and an hour less ten minutes).
        assert_eq!(v["days_used"], 3, "{db}: {v}");
        assert_eq!(v["days_left"], 27, "{db}");
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["clock"]["left"]["american"], 3000, "{db}: {g}");
        assert_eq!(g["clock"]["running"], "american", "{db}");
        assert!(g["clock"]["resumes"].is_null(), "{db}: {g}");
        assert_eq!(g["clock"]["expires"], back + 3000, "{db}: {g}");
        // A change the players see: the game's version moved on.
        assert!(
            g["version"].as_i64() > stopped["version"].as_i64(),
            "{db}: {g}"
        );
        // From now on it runs: 40 minutes later 10 are left; past them the game is lost.
        clock.store(back + 40 * 60, Ordering::Relaxed);
        let (_, g) = bob.get(&path).await;
        assert_eq!(g["clock"]["left"]["american"], 600, "{db}: {g}");
        let (status, v) = bob.post("/api/account/vacation/end", json!({})).await;
        assert_eq!(status, StatusCode::CONFLICT, "{db}: {v}");
        assert_eq!(kind(&v), "not_on_vacation", "{db}");
        // Another vacation may start at once, and again in the second one ended.
        let later = back + 40 * 60;
        let (status, v) = bob.post("/api/account/vacation", json!({"days": 1})).await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        let (status, v) = bob.post("/api/account/vacation/end", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        let (status, v) = bob.post("/api/account/vacation", json!({"days": 1})).await;
        assert_eq!(status, StatusCode::OK, "{db}: {v}");
        assert_eq!(v["on_vacation_until"], later + DAY, "{db}: {v}");
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["clock"]["left"]["american"], 600, "{db}: {g}");
        assert_eq!(g["clock"]["resumes"], later + DAY, "{db}: {g}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_time_controls_are_refused_and_create_no_game() {
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, _) = clocked_server(&db, &clock).await;
        let alice = Client::signup(addr, "alice").await;
        for time in [
            json!("pace"),
            json!(3),
            json!({}),
            json!({"kind": "blitz"}),
            json!({"kind": "pace"}),
            json!({"kind": "pace", "days": 0}),
            json!({"kind": "pace", "days": 61}),
            json!({"kind": "pace", "days": 1.5}),
            json!({"kind": "pace", "days": "3"}),
            json!({"kind": "pace", "days": 3, "minutes": 1}),
            json!({"kind": "clock"}),
            json!({"kind": "clock", "initial_minutes": 0}),
            json!({"kind": "clock", "initial_minutes": 10, "increment_minutes": -1}),
            json!({"kind": "clock", "initial_minutes": 1_000_000}),
            json!({"kind": "none", "days": 2}),
        ] {
            let (status, v) = alice
                .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human", "time": time}))
                .await;
            assert_eq!(
                status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{db}: {time}: {v}"
            );
            assert_eq!(kind(&v), "bad_time_control", "{db}: {time}");
        }
        let (_, lobby) = alice.get("/api/lobby").await;
        assert_eq!(lobby["open"].as_array().unwrap().len(), 0, "{db}");
        assert_eq!(lobby["mine"].as_array().unwrap().len(), 0, "{db}");
        // No time control (the default, or said): no clock.
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human", "time": {"kind": "none"}}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, g) = alice
            .get(&format!("/api/games/{}", v["id"].as_str().unwrap()))
            .await;
        assert!(g["clock"].is_null(), "{db}: {g}");
    }
}
