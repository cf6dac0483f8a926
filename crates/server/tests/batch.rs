//! Several decisions in one request (issue 17; docs/server.md, "Playing"): `act` with
//! `actions` applies them in order as one change, all or none, stored in one write, one
//! version and one undo step; `preview` shows the position after a batch without storing it.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

fn kind(v: &Value) -> &str {
    v["error"]["kind"].as_str().unwrap_or("")
}

fn actions_of(g: &Value) -> Vec<String> {
    g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["action"].as_str().unwrap().to_string())
        .collect()
}

/// The first legal action of `g` that undo can take back.
fn undoable(g: &Value) -> String {
    let last: Vec<&str> = g["irreversible"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    actions_of(g)
        .into_iter()
        .find(|a| !last.contains(&a.as_str()))
        .expect("an action undo can take back")
}

/// Three actions the caller may send as one batch now, found with `preview` step by step.
async fn three(c: &Client, path: &str, g: &Value) -> Vec<String> {
    let mut batch = vec![undoable(g)];
    while batch.len() < 3 {
        let (status, p) = c
            .post(
                &format!("{path}/preview"),
                json!({"actions": batch, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        batch.push(undoable(&p));
    }
    batch
}

/// Takes the (idle) game out of memory, once its bot task has looked and ended.
async fn evict(state: &muster_server::AppState) {
    for _ in 0..100 {
        if muster_server::play::evict_idle(state).await == 1 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the game did not leave memory");
}

/// What must not change when a request is refused.
fn unchanged(before: &Value, after: &Value, what: &str) {
    for k in ["version", "actions", "view", "legal", "log", "to_act"] {
        assert_eq!(before[k], after[k], "{what}: {k} changed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legal_batch_is_one_change_one_version_and_one_undo_also_after_a_reload() {
    for db in databases().await {
        let limits = muster_server::Limits {
            game_idle: std::time::Duration::ZERO,
            ..Default::default()
        };
        let (addr, state) = server_with(&db, limits).await;
        let alice = Client::signup(addr, "alice").await;
        let id = alice
            .game_vs_bot("freemans-farm", "american", "random")
            .await;
        let path = format!("/api/games/{id}");
        let (_, before) = alice.get(&path).await;
        let batch = three(&alice, &path, &before).await;
        // The preview of the whole batch is what acting on it gives.
        let (status, preview) = alice
            .post(
                &format!("{path}/preview"),
                json!({"actions": batch, "version": before["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{preview}");
        // A preview stores nothing.
        let (_, still) = alice.get(&path).await;
        unchanged(&before, &still, "a preview");
        let (status, after) = alice
            .post(
                &format!("{path}/act"),
                json!({"actions": batch, "version": before["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{db}: {after}");
        assert_eq!(after["version"], before["version"].as_i64().unwrap() + 1);
        assert_eq!(after["actions"], before["actions"].as_u64().unwrap() + 3);
        assert_eq!(after["legal"], preview["legal"]);
        assert_eq!(after["view"], preview["view"]);
        assert_eq!(after["irreversible"], preview["irreversible"]);
        assert_eq!(after["can_undo"], true);
        // Out of memory and back (replayed from the database): still one undo step.
        evict(&state).await;
        let (status, back) = alice
            .post(
                &format!("{path}/undo"),
                json!({"version": after["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{db}: {back}");
        assert_eq!(back["actions"], before["actions"], "{db}: the whole batch");
        assert_eq!(back["view"], before["view"]);
        assert_eq!(back["legal"], before["legal"]);
        assert_eq!(back["log"], before["log"]);
        assert_eq!(back["version"], after["version"].as_i64().unwrap() + 1);
        // And the undo is stored: a reload shows the position before the batch.
        evict(&state).await;
        let (_, reloaded) = alice.get(&path).await;
        unchanged(&back, &reloaded, "a reload after the undo");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_whose_third_action_is_illegal_changes_nothing_and_names_it() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let id = alice
            .game_vs_bot("freemans-farm", "american", "random")
            .await;
        let path = format!("/api/games/{id}");
        let (_, before) = alice.get(&path).await;
        let mut batch = three(&alice, &path, &before).await;
        // The third: one legal now but not after the first two (where there is one), and one
        // that is no action at all.
        let (_, p2) = alice
            .post(
                &format!("{path}/preview"),
                json!({"actions": batch[..2], "version": before["version"]}),
            )
            .await;
        let later = actions_of(&p2);
        let mut bads: Vec<String> = actions_of(&before)
            .into_iter()
            .filter(|a| !later.contains(a))
            .take(1)
            .collect();
        bads.push("place Z99".to_string());
        for bad in bads {
            batch[2] = bad.clone();
            let (status, e) = alice
                .post(
                    &format!("{path}/act"),
                    json!({"actions": batch, "version": before["version"]}),
                )
                .await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{db}: {e}");
            assert!(["illegal_action", "unparsable"].contains(&kind(&e)), "{e}");
            assert_eq!(e["error"]["index"], 2, "{e}");
            let msg = e["error"]["message"].as_str().unwrap();
            assert!(msg.contains("action 3 of 3"), "{msg}");
            assert!(msg.contains(&bad), "the message names the action: {msg}");
            assert!(msg.contains("nothing was applied"), "{msg}");
            let (_, now) = alice.get(&path).await;
            unchanged(&before, &now, "a refused batch");
            // The preview refuses it the same way.
            let (status, p) = alice
                .post(
                    &format!("{path}/preview"),
                    json!({"actions": batch, "version": before["version"]}),
                )
                .await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
            assert_eq!(p["error"]["index"], 2, "{p}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_out_of_turn_stale_from_strangers_too_long_or_malformed_are_refused() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let carol = Client::signup(addr, "carol").await;
        let (_, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "freemans-farm", "side": "british", "opponent": "human"}))
            .await;
        let id = v["id"].as_str().unwrap().to_string();
        let path = format!("/api/games/{id}");
        let (status, _) = bob
            .post(&format!("{path}/join"), json!({"invite": v["invite"]}))
            .await;
        assert_eq!(status, StatusCode::OK);
        // The Americans (Bob) set up first.
        let (_, before) = bob.get(&path).await;
        let batch = three(&bob, &path, &before).await;
        let version = before["version"].clone();
        let stale = before["version"].as_i64().unwrap() + 5;
        let too_long: Vec<String> = (0..65).map(|_| batch[0].clone()).collect();
        let cases: Vec<(&Client, Value, StatusCode, &str)> = vec![
            (
                &alice,
                json!({"actions": batch, "version": version}),
                StatusCode::CONFLICT,
                "not_your_turn",
            ),
            (
                &carol,
                json!({"actions": batch, "version": version}),
                StatusCode::FORBIDDEN,
                "forbidden",
            ),
            (
                &bob,
                json!({"actions": batch, "version": stale}),
                StatusCode::CONFLICT,
                "stale",
            ),
            (
                &bob,
                json!({"actions": too_long, "version": version}),
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                &bob,
                json!({"actions": [], "version": version}),
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                &bob,
                json!({"actions": "place A1", "version": version}),
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                &bob,
                json!({"actions": [1, 2], "version": version}),
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                &bob,
                json!({"action": batch[0], "actions": batch, "version": version}),
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                &bob,
                json!({"actions": batch}),
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
        ];
        for (who, body, status, k) in cases {
            for route in ["act", "preview"] {
                let (s, e) = who.post(&format!("{path}/{route}"), body.clone()).await;
                assert_eq!((s, kind(&e)), (status, k), "{db} {route} {body}: {e}");
                let (_, now) = bob.get(&path).await;
                unchanged(&before, &now, &format!("{route} {body}"));
            }
        }
        let (_, e) = bob
            .post(
                &format!("{path}/act"),
                json!({"actions": too_long, "version": version}),
            )
            .await;
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("at most 64"),
            "{e}"
        );
        // The single-action form still works, and the batch too.
        let (s, g) = bob
            .post(
                &format!("{path}/act"),
                json!({"actions": batch, "version": version}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{g}");
        let (s, g) = bob
            .post(
                &format!("{path}/act"),
                json!({"action": undoable(&g), "version": g["version"]}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{g}");
        assert_eq!(g["actions"], before["actions"].as_u64().unwrap() + 4);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_may_roll_dice_or_hand_over_only_at_its_end_and_previews_never_do() {
    let db = databases().await.remove(0);
    let addr = server(&db).await;
    let alice = Client::signup(addr, "alice").await;
    let id = alice
        .game_vs_bot("freemans-farm", "american", "random")
        .await;
    let path = format!("/api/games/{id}");
    // Play on until some legal action cannot be taken back (the last set-up placement, a
    // move that ends the phase, an attack...).
    for _ in 0..300 {
        let g = alice.wait_my_turn(&id).await;
        assert_ne!(g["status"], "finished");
        let last = g["irreversible"].as_array().unwrap().clone();
        if let Some(a) = last.first() {
            let a = a.as_str().unwrap().to_string();
            let other = actions_of(&g)[0].clone();
            let (s, e) = alice
                .post(
                    &format!("{path}/act"),
                    json!({"actions": [a, other], "version": g["version"]}),
                )
                .await;
            assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
            assert_eq!(e["error"]["index"], 0, "{e}");
            assert!(
                e["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("only the last action"),
                "{e}"
            );
            let (s, p) = alice
                .post(
                    &format!("{path}/preview"),
                    json!({"actions": [a], "version": g["version"]}),
                )
                .await;
            assert_eq!(
                (s, kind(&p)),
                (StatusCode::UNPROCESSABLE_ENTITY, "not_previewable"),
                "{p}"
            );
            let (_, now) = alice.get(&path).await;
            unchanged(&g, &now, "a refused batch");
            // At the end of a batch it is taken, like any action.
            let (s, after) = alice
                .post(
                    &format!("{path}/act"),
                    json!({"actions": [a], "version": g["version"]}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{after}");
            assert_eq!(after["can_undo"], false, "{after}");
            return;
        }
        let (s, _) = alice
            .post(
                &format!("{path}/act"),
                json!({"action": actions_of(&g)[0], "version": g["version"]}),
            )
            .await;
        assert_eq!(s, StatusCode::OK);
    }
    panic!("no irreversible action came up");
}
