//! The game socket (docs/server.md, "The game socket"): each seat is pushed what it may see on
//! every change, acts over the same socket with the checks of the HTTP routes, and a refused
//! message changes nothing.

mod common;

use common::*;
use futures_util::SinkExt;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

async fn send(ws: &mut Ws, msg: Value) {
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
}

/// A socket's log entry as HTTP answers show it: without an audience, it is for everyone.
fn with_audience(e: &Value) -> Value {
    let mut e = e.clone();
    if e.get("audience").is_none() {
        e["audience"] = json!("all");
    }
    e
}

/// What a client holds of the game, kept up to date from the socket's messages alone.
#[derive(Debug)]
struct Held {
    game: Value,
    labels: serde_json::Map<String, Value>,
}

impl Held {
    fn from_state(mut msg: Value) -> Held {
        assert_eq!(msg["type"], "state", "{msg}");
        let labels = msg["labels"].as_object().cloned().unwrap_or_default();
        let log: Vec<Value> = msg["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(with_audience)
            .collect();
        msg["log"] = json!(log);
        let obj = msg.as_object_mut().unwrap();
        obj.remove("type");
        obj.remove("labels");
        let marks = json!({"irreversible": msg["irreversible"].clone()});
        let mut held = Held { game: msg, labels };
        held.legal_objects();
        held.irreversible_actions(&marks);
        held
    }

    /// The socket's action strings with their labels, as the HTTP answers list them.
    fn legal_objects(&mut self) {
        let legal: Vec<Value> = self.game["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                let a = a.as_str().expect("the socket sends actions as strings");
                json!({"action": a, "label": self.labels[a]})
            })
            .collect();
        self.game["legal"] = json!(legal);
    }

    /// The socket's `irreversible` (indices into `legal`) as the action strings HTTP gives.
    fn irreversible_actions(&mut self, msg: &Value) {
        let Some(marks) = msg.get("irreversible") else {
            return;
        };
        let actions: Vec<Value> = marks
            .as_array()
            .expect("irreversible is a list")
            .iter()
            .map(|i| {
                let i = i
                    .as_u64()
                    .expect("the socket sends irreversible as indices")
                    as usize;
                self.game["legal"][i]["action"].clone()
            })
            .collect();
        assert!(
            actions.iter().all(Value::is_string),
            "an index past legal: {msg}"
        );
        self.game["irreversible"] = json!(actions);
    }

    fn apply(&mut self, msg: &Value) {
        assert_eq!(msg["type"], "update", "{msg}");
        if let Some(l) = msg["labels"].as_object() {
            for (k, v) in l {
                self.labels.insert(k.clone(), v.clone());
            }
        }
        for (k, v) in msg.as_object().unwrap() {
            if !["type", "labels", "view_patch", "log", "log_start", "ack"].contains(&k.as_str()) {
                self.game[k] = v.clone();
            }
        }
        if let Some(legal) = msg.get("legal") {
            self.legal_objects();
            if legal.as_array().is_some_and(Vec::is_empty) {
                // An empty list comes without its marks, which can only be empty.
                assert!(msg.get("irreversible").is_none(), "{msg}");
                self.game["irreversible"] = json!([]);
            } else {
                assert!(
                    msg.get("irreversible").is_some(),
                    "a new legal list comes with its irreversible marks: {msg}"
                );
            }
        }
        self.irreversible_actions(msg);
        if let Some(p) = msg.get("view_patch") {
            let patch: json_patch::Patch = serde_json::from_value(p.clone()).unwrap();
            json_patch::patch(&mut self.game["view"], &patch).unwrap();
        }
        if let Some(start) = msg.get("log_start") {
            let start = start.as_u64().unwrap() as usize;
            let log = self.game["log"].as_array_mut().unwrap();
            assert!(
                start <= log.len(),
                "log_start {start} past the {} held",
                log.len()
            );
            log.truncate(start);
            log.extend(msg["log"].as_array().unwrap().iter().map(with_audience));
        }
    }

    /// Must equal what `GET /api/games/{id}` says to the same user.
    fn assert_matches(&self, get: &Value, who: &str) {
        for k in [
            "version",
            "status",
            "seats",
            "my_side",
            "to_act",
            "prompt",
            "legal",
            "can_undo",
            "outcome",
            "view",
            "log",
            "actions",
            "invite",
            "irreversible",
        ] {
            assert_eq!(self.game[k], get[k], "{who}: {k} differs from GET");
        }
    }
}

/// A human-against-human Freeman's Farm: Alice (American) and Bob (British), both seated.
async fn two_players(addr: SocketAddr) -> (Client, Client, String) {
    let alice = Client::signup(addr, "alice").await;
    let bob = Client::signup(addr, "bob").await;
    let (status, v) = alice
        .post(
            "/api/games",
            json!({"game": "battles", "scenario": "freemans-farm", "side": "american", "opponent": "human"}),
        )
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
    (alice, bob, id)
}

async fn sqlite() -> String {
    databases().await.remove(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_seat_is_pushed_exactly_what_get_shows_it_and_acts_over_the_socket() {
    for db in databases().await {
        let addr = server(&db).await;
        let (alice, bob, id) = two_players(addr).await;
        let path = format!("/api/games/{id}");
        let mut wa = open(addr, Some(&alice), &id, "", None).await.unwrap();
        let mut wb = open(addr, Some(&bob), &id, "", None).await.unwrap();
        let mut spectator = open(addr, None, &id, "", None).await.unwrap();
        let mut ha = Held::from_state(next(&mut wa).await);
        let mut hb = Held::from_state(next(&mut wb).await);
        let mut hs = Held::from_state(next(&mut spectator).await);
        let nobody = Client::new(addr).await;
        let mut dice = muster_core::Dice::from_seed(7);
        let mut undone = false;
        let mut log_before = 0;
        for step in 0..60 {
            let (_, ga) = alice.get(&path).await;
            if ga["status"] == "finished" {
                break;
            }
            ha.assert_matches(&ga, "alice");
            hb.assert_matches(&bob.get(&path).await.1, "bob");
            hs.assert_matches(&nobody.get(&path).await.1, "spectator");
            let (actor, held, ws, other, other_ws) = if ga["to_act"] == "american" {
                (&alice, &mut ha, &mut wa, &mut hb, &mut wb)
            } else {
                (&bob, &mut hb, &mut wb, &mut ha, &mut wa)
            };
            let _ = actor;
            let version = held.game["version"].as_i64().unwrap();
            // Once, an undo over the socket of a decision that wrote in the log (the log is
            // cut back for every viewer).
            let logged = held.game["log"].as_array().unwrap().len() > log_before;
            log_before = held.game["log"].as_array().unwrap().len();
            let msg = if !undone && logged && held.game["can_undo"] == true {
                undone = true;
                json!({"type": "undo", "id": step, "version": version})
            } else {
                let legal = held.game["legal"].as_array().unwrap();
                assert!(!legal.is_empty(), "the seat to act has actions");
                let hold = legal
                    .iter()
                    .map(|l| &l["action"])
                    .find(|a| a.as_str().unwrap().starts_with("hold"));
                let a = match hold {
                    Some(h) if dice.below(2) == 0 => h,
                    _ => &legal[dice.below(legal.len() as u32) as usize]["action"],
                };
                json!({"type": "act", "id": step, "action": a, "version": version})
            };
            send(ws, msg).await;
            // The change's update carries its acknowledgement: one message.
            let update = next(ws).await;
            assert_eq!(update["type"], "update", "{update}");
            assert_eq!(update["version"], version + 1);
            assert_eq!(update["ack"], step, "{update}");
            held.apply(&update);
            let seen = next(other_ws).await;
            assert_eq!(seen["version"], version + 1, "{seen}");
            other.apply(&seen);
            hs.apply(&next(&mut spectator).await);
        }
        assert!(undone, "{db}: an undo happened");
        // What was acknowledged is stored: a second server on the same database sees it.
        let (_, g) = alice.get(&path).await;
        ha.assert_matches(&g, "alice at the end");
        if db.starts_with("sqlite") {
            let other = server(&db).await;
            let c = Client::new(other).await;
            let (_, g2) = c.get(&path).await;
            assert_eq!(g2["actions"], g["actions"], "{db}");
            assert_eq!(g2["view"], hs.game["view"], "{db}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_socket_messages_get_an_error_and_change_nothing() {
    let addr = server(&sqlite().await).await;
    let (alice, bob, id) = two_players(addr).await;
    let path = format!("/api/games/{id}");
    let mut wa = open(addr, Some(&alice), &id, "", None).await.unwrap();
    let mut wb = open(addr, Some(&bob), &id, "", None).await.unwrap();
    let ha = Held::from_state(next(&mut wa).await);
    let _ = next(&mut wb).await;
    let (_, before) = alice.get(&path).await;
    let v = before["version"].as_i64().unwrap();
    let (on_turn, off_turn) = if before["to_act"] == "american" {
        (&mut wa, &mut wb)
    } else {
        (&mut wb, &mut wa)
    };
    let action = ha.game["legal"][0]["action"].clone();
    let big = "x".repeat(70_000);
    let cases: Vec<(&str, Message, &str)> = vec![
        (
            "out of turn",
            Message::Text(
                json!({"type": "act", "id": 1, "action": "end-movement", "version": v})
                    .to_string()
                    .into(),
            ),
            "not_your_turn",
        ),
        (
            "stale version",
            Message::Text(
                json!({"type": "act", "id": 2, "action": action, "version": v - 1})
                    .to_string()
                    .into(),
            ),
            "stale",
        ),
        (
            "malformed JSON",
            Message::Text("{\"type\": \"act\",".into()),
            "bad_request",
        ),
        (
            "unknown type",
            Message::Text(
                json!({"type": "resign", "id": 4, "version": v})
                    .to_string()
                    .into(),
            ),
            "bad_request",
        ),
        (
            "unknown member",
            Message::Text(
                json!({"type": "act", "id": 5, "action": action, "version": v, "side": "british"})
                    .to_string()
                    .into(),
            ),
            "bad_request",
        ),
        (
            "no version",
            Message::Text(
                json!({"type": "act", "id": 6, "action": action})
                    .to_string()
                    .into(),
            ),
            "bad_request",
        ),
        (
            "over the size limit",
            Message::Text(
                json!({"type": "act", "id": 7, "action": big, "version": v})
                    .to_string()
                    .into(),
            ),
            "too_large",
        ),
        (
            "binary",
            Message::Binary(vec![1, 2, 3].into()),
            "bad_request",
        ),
    ];
    for (what, msg, kind) in cases {
        let ws: &mut Ws = if what == "out of turn" {
            off_turn
        } else {
            on_turn
        };
        ws.send(msg).await.unwrap();
        let answer = next(ws).await;
        assert_eq!(answer["type"], "error", "{what}: {answer}");
        assert_eq!(answer["error"]["kind"], kind, "{what}: {answer}");
        let (_, now) = alice.get(&path).await;
        assert_eq!(now["version"], v, "{what} changed the game");
        assert_eq!(now["log"], before["log"], "{what} changed the log");
    }
    // A spectator's socket cannot act.
    let mut spectator = open(addr, None, &id, "", None).await.unwrap();
    let _ = next(&mut spectator).await;
    send(
        &mut spectator,
        json!({"type": "act", "id": 9, "action": action, "version": v}),
    )
    .await;
    let answer = next(&mut spectator).await;
    assert_eq!(answer["error"]["kind"], "unauthenticated", "{answer}");
    // Every socket is still open: the seat to act still acts.
    send(
        on_turn,
        json!({"type": "act", "id": 10, "action": action, "version": v}),
    )
    .await;
    let update = next(on_turn).await;
    assert_eq!(
        (update["type"].as_str(), update["ack"].as_i64()),
        (Some("update"), Some(10)),
        "{update}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_from_another_sites_page_is_refused() {
    let addr = server(&sqlite().await).await;
    let (alice, _bob, id) = two_players(addr).await;
    let err = open(addr, Some(&alice), &id, "", Some("http://evil.example"))
        .await
        .expect_err("a foreign Origin is refused");
    match err {
        tokio_tungstenite::tungstenite::Error::Http(r) => {
            assert_eq!(r.status(), StatusCode::FORBIDDEN)
        }
        other => panic!("expected 403, got {other}"),
    }
    // The server's own pages may open it.
    let mut ws = open(addr, Some(&alice), &id, "", Some(&format!("http://{addr}")))
        .await
        .unwrap();
    assert_eq!(next(&mut ws).await["type"], "state");
    // A query it does not know is refused before the upgrade.
    assert!(open(addr, Some(&alice), &id, "?log=x", None).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_log_out_a_socket_can_no_longer_act() {
    let addr = server(&sqlite().await).await;
    let (alice, _bob, id) = two_players(addr).await;
    let mut wa = open(addr, Some(&alice), &id, "", None).await.unwrap();
    let held = Held::from_state(next(&mut wa).await);
    let (status, _) = alice.post("/api/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    send(
        &mut wa,
        json!({"type": "act", "id": 1, "action": held.game["legal"][0]["action"], "version": held.game["version"]}),
    )
    .await;
    let answer = next(&mut wa).await;
    assert_eq!(answer["error"]["kind"], "unauthenticated", "{answer}");
}

/// Plays `n` actions over HTTP as whoever is to act.
async fn play_http(alice: &Client, bob: &Client, id: &str, n: usize) {
    let path = format!("/api/games/{id}");
    for _ in 0..n {
        let (_, g) = alice.get(&path).await;
        let actor = if g["to_act"] == "american" {
            alice
        } else {
            bob
        };
        let (_, g) = actor.get(&path).await;
        let a = &g["legal"][g["legal"].as_array().unwrap().len() - 1]["action"];
        let (status, v) = actor
            .post(
                &format!("{path}/act"),
                json!({"action": a, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_carry_only_the_log_after_since() {
    let addr = server(&sqlite().await).await;
    let (alice, bob, id) = two_players(addr).await;
    play_http(&alice, &bob, &id, 12).await;
    let path = format!("/api/games/{id}");
    let (_, full) = alice.get(&path).await;
    let log = full["log"].as_array().unwrap();
    assert!(log.len() > 3, "the game has a log");
    let n = log.len() - 2;
    let (status, part) = alice.get(&format!("{path}?since={n}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(part["log_start"], n);
    assert_eq!(part["log"].as_array().unwrap()[..], log[n..]);
    assert_eq!(part["view"], full["view"]);
    let (_, none) = alice.get(&format!("{path}?since=100000")).await;
    assert_eq!(none["log"], json!([]));
    assert_eq!(none["log_start"], log.len());
    for bad in ["?since=-1", "?since=x", "?sinse=1", "?since=1&since=2"] {
        let (status, v) = alice.get(&format!("{path}{bad}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    // A reconnecting socket is sent only what it lacks.
    let v = full["version"].as_i64().unwrap();
    let mut ws = open(
        addr,
        Some(&alice),
        &id,
        &format!("?log={n}&version={v}"),
        None,
    )
    .await
    .unwrap();
    let state = next(&mut ws).await;
    assert_eq!(state["log_start"], n);
    let got: Vec<Value> = state["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(with_audience)
        .collect();
    assert_eq!(got[..], log[n..]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_held_log_entries_an_undo_took_back_is_sent_them_anew() {
    let addr = server(&sqlite().await).await;
    let (alice, bob, id) = two_players(addr).await;
    let path = format!("/api/games/{id}");
    // Play until the seat to act can take its decision back, and remember what it held then.
    let mut log_before = 0;
    for _ in 0..200 {
        let (_, g) = alice.get(&path).await;
        let actor = if g["to_act"] == "american" {
            &alice
        } else {
            &bob
        };
        let (_, g) = actor.get(&path).await;
        let grew = g["log"].as_array().unwrap().len() > log_before;
        log_before = g["log"].as_array().unwrap().len();
        if g["can_undo"] == true && grew {
            let held_log = g["log"].as_array().unwrap().len();
            let held_version = g["version"].as_i64().unwrap();
            let (status, after) = actor
                .post(&format!("{path}/undo"), json!({"version": held_version}))
                .await;
            assert_eq!(status, StatusCode::OK, "{after}");
            let cut = after["log"].as_array().unwrap().len();
            assert!(cut < held_log, "the undo took log entries back");
            // Play on until the log is longer than it was: the count held is now a count of
            // other entries.
            for _ in 0..100 {
                let (_, g) = alice.get(&path).await;
                if g["log"].as_array().unwrap().len() > held_log {
                    break;
                }
                play_http(&alice, &bob, &id, 1).await;
            }
            let (_, now) = actor.get(&path).await;
            let log = now["log"].as_array().unwrap();
            assert!(log.len() > held_log, "the log grew past the count held");
            let mut ws = open(
                addr,
                Some(actor),
                &id,
                &format!("?log={held_log}&version={held_version}"),
                None,
            )
            .await
            .unwrap();
            let state = next(&mut ws).await;
            let start = state["log_start"].as_u64().unwrap() as usize;
            assert!(start <= cut, "{state}");
            let got: Vec<Value> = state["log"]
                .as_array()
                .unwrap()
                .iter()
                .map(with_audience)
                .collect();
            assert_eq!(got[..], log[start..]);
            return;
        }
        // "hold" writes a line in the log and may be taken back.
        let legal = g["legal"].as_array().unwrap();
        let a = legal
            .iter()
            .map(|l| &l["action"])
            .find(|a| a.as_str().unwrap().starts_with("hold"))
            .unwrap_or(&legal[0]["action"]);
        let (status, v) = actor
            .post(
                &format!("{path}/act"),
                json!({"action": a, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    panic!("no decision with log entries could be taken back in 200 actions");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_unless_a_socket_follows_them_and_load_back_unchanged() {
    let limits = muster_server::Limits {
        game_idle: Duration::ZERO,
        finished_idle: Duration::ZERO,
        ..Default::default()
    };
    let (addr, st) = server_with(&sqlite().await, limits).await;
    let (alice, bob, id) = two_players(addr).await;
    play_http(&alice, &bob, &id, 6).await;
    let path = format!("/api/games/{id}");
    let (_, before) = alice.get(&path).await;
    // Followed by a socket: it stays.
    let mut ws = open(addr, Some(&alice), &id, "", None).await.unwrap();
    let _ = next(&mut ws).await;
    muster_server::play::evict_idle(&st).await;
    assert!(
        st.live.lock().await.contains_key(&id),
        "a followed game left memory"
    );
    drop(ws);
    // Unfollowed: it leaves, and a request loads it back as it was.
    let mut left = false;
    for _ in 0..50 {
        muster_server::play::evict_idle(&st).await;
        if !st.live.lock().await.contains_key(&id) {
            left = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(left, "an idle game stayed in memory");
    let (_, after) = alice.get(&path).await;
    assert_eq!(after, before);
    // And play goes on.
    play_http(&alice, &bob, &id, 2).await;
}

/// Issue 17: a batch over the socket is one change (one update to each seat, one ack, the
/// version once), a refused one names its first refused action and changes nothing, and one
/// undo over the socket takes the whole batch back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_over_the_socket_is_one_update_and_one_undo_and_a_bad_one_is_named() {
    let addr = server(&sqlite().await).await;
    let (alice, bob, id) = two_players(addr).await;
    let path = format!("/api/games/{id}");
    let mut a = open(addr, Some(&alice), &id, "", None).await.unwrap();
    let mut b = open(addr, Some(&bob), &id, "", None).await.unwrap();
    let mut held = Held::from_state(next(&mut a).await);
    let mut bob_held = Held::from_state(next(&mut b).await);
    let (_, before) = alice.get(&path).await;
    held.assert_matches(&before, "alice");
    // Three set-up placements, found with the preview (Alice, American, sets up first).
    let mut batch: Vec<String> = Vec::new();
    let mut g = before.clone();
    while batch.len() < 3 {
        let last: Vec<Value> = g["irreversible"].as_array().unwrap().clone();
        let next_action = g["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["action"].clone())
            .find(|x| !last.contains(x))
            .unwrap();
        batch.push(next_action.as_str().unwrap().to_string());
        let (status, p) = alice
            .post(
                &format!("{path}/preview"),
                json!({"actions": batch, "version": before["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        g = p;
    }
    let version = before["version"].as_i64().unwrap();
    // A bad batch first: its second action is no action; nothing changes.
    send(
        &mut a,
        json!({"type": "act", "id": 1, "actions": [batch[0], "place Z99"], "version": version}),
    )
    .await;
    let e = next(&mut a).await;
    assert_eq!(e["type"], "error", "{e}");
    assert_eq!(e["id"], 1);
    assert_eq!(e["error"]["index"], 1, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("action 2 of 2"),
        "{e}"
    );
    // Malformed batches.
    for (i, bad) in [
        json!({"type": "act", "id": 2, "actions": "place A1", "version": version}),
        json!({"type": "act", "id": 3, "actions": [], "version": version}),
        json!({"type": "act", "id": 4, "action": batch[0], "actions": batch, "version": version}),
    ]
    .into_iter()
    .enumerate()
    {
        send(&mut a, bad).await;
        let e = next(&mut a).await;
        assert_eq!(
            (e["type"].as_str(), e["id"].as_i64()),
            (Some("error"), Some(i as i64 + 2))
        );
        assert_eq!(e["error"]["kind"], "bad_request", "{e}");
    }
    let (_, now) = alice.get(&path).await;
    assert_eq!(now["version"], before["version"]);
    assert_eq!(now["actions"], before["actions"]);
    // Bob may not send Alice's batch.
    send(
        &mut b,
        json!({"type": "act", "id": 9, "actions": batch, "version": version}),
    )
    .await;
    let e = next(&mut b).await;
    assert_eq!(e["error"]["kind"], "not_your_turn", "{e}");
    // The batch: one update, carrying the ack; the version moves on once.
    send(
        &mut a,
        json!({"type": "act", "id": 5, "actions": batch, "version": version}),
    )
    .await;
    let update = next(&mut a).await;
    assert_eq!(update["version"], version + 1, "{update}");
    assert_eq!(
        (update["type"].as_str(), update["ack"].as_i64()),
        (Some("update"), Some(5))
    );
    held.apply(&update);
    let (_, after) = alice.get(&path).await;
    held.assert_matches(&after, "alice after the batch");
    assert_eq!(after["actions"], before["actions"].as_u64().unwrap() + 3);
    assert_eq!(
        after["legal"], g["legal"],
        "the preview foretold the position"
    );
    let bob_update = next(&mut b).await;
    assert_eq!(bob_update["version"], version + 1, "one update for Bob too");
    bob_held.apply(&bob_update);
    let (_, bob_after) = bob.get(&path).await;
    bob_held.assert_matches(&bob_after, "bob after the batch");
    // One undo takes all three back.
    send(
        &mut a,
        json!({"type": "undo", "id": 6, "version": version + 1}),
    )
    .await;
    let update = next(&mut a).await;
    assert_eq!(update["ack"], 6, "{update}");
    held.apply(&update);
    let (_, undone) = alice.get(&path).await;
    held.assert_matches(&undone, "alice after the undo");
    assert_eq!(undone["actions"], before["actions"]);
    assert_eq!(undone["view"], before["view"]);
    assert_eq!(undone["log"], before["log"]);
}
