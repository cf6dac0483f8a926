//! Issue 16 §3, §4 and §6's hot-seat against SQLite and PostgreSQL (docs/server.md, "Ending,
//! offering, withdrawing" and "Talking and noting"): resigning, withdrawing, draw and rematch
//! offers, chat in two channels with its limits and mutes, notepads, hot-seat games; every bad
//! request (bad input, a stranger, the wrong seat, a stale version, too long, too fast) refused
//! with nothing changed; what is stored survives a restart; the socket is pushed what it may
//! read.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;

/// Oriskany between Alice (British, who made it) and Bob (American, who joined and is to act
/// first): their clients and the game's path.
async fn alice_and_bob(addr: SocketAddr) -> (Client, Client, String) {
    let alice = Client::signup(addr, "alice").await;
    let bob = Client::signup(addr, "bob").await;
    let (id, g) = human_game(&alice, &bob).await;
    assert_eq!(g["my_side"], "american");
    assert_eq!(g["to_act"], "american");
    (alice, bob, format!("/api/games/{id}"))
}

/// Makes the first legal decision of `who`, who must be to act.
async fn act_first(who: &Client, path: &str) -> Value {
    let (_, g) = who.get(path).await;
    let action = g["legal"][0]["action"].as_str().expect("a legal action");
    let (status, after) = who
        .post(
            &format!("{path}/act"),
            json!({"action": action, "version": g["version"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    after
}

fn id_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap()
}

/// Asserts the refusal's status and kind.
fn refused(answer: &(StatusCode, Value), status: StatusCode, k: &str, what: &str) {
    assert_eq!(
        (answer.0, kind(&answer.1)),
        (status, k),
        "{what}: {}",
        answer.1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_the_game_outside_the_rules_for_either_player_in_any_turn() {
    for db in databases().await {
        let addr = server(&db).await;
        let (alice, bob, path) = alice_and_bob(addr).await;
        let stranger = Client::signup(addr, "carol").await;
        let anonymous = Client::new(addr).await;
        let mut spectator = open(addr, None, id_of(&path), "", None).await.unwrap();
        assert_eq!(next(&mut spectator).await["type"], "state");
        let (_, before) = alice.get(&path).await;
        let resign = format!("{path}/resign");
        // Refused, and nothing changed: a stranger, nobody logged in, no CSRF token, a body
        // that is not empty JSON.
        refused(
            &stranger.post(&resign, json!({})).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a stranger",
        );
        refused(
            &anonymous.post(&resign, json!({})).await,
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "nobody",
        );
        refused(
            &alice.post_raw(&resign, b"{}".to_vec(), None).await,
            StatusCode::FORBIDDEN,
            "csrf",
            "no token",
        );
        refused(
            &alice.post(&resign, json!({"side": "american"})).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "a member",
        );
        let (_, same) = alice.get(&path).await;
        assert_eq!(same, before, "{db}: refusals changed nothing");
        // Alice resigns while it is Bob's turn (the Americans set up first).
        let (status, g) = alice.post(&resign, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["status"], "finished");
        assert_eq!(g["outcome"]["winner"], "american");
        assert_eq!(g["outcome"]["ended"], "resigned");
        assert!(g["to_act"].is_null() && g["legal"].as_array().unwrap().is_empty());
        assert_eq!(g["version"], before["version"].as_i64().unwrap() + 1);
        let last = g["log"].as_array().unwrap().last().unwrap().clone();
        assert!(
            last["text"]
                .as_str()
                .unwrap()
                .contains("alice resigned for the British side"),
            "{last}"
        );
        assert_eq!(
            g["log"].as_array().unwrap().len(),
            before["log"].as_array().unwrap().len() + 1
        );
        // The spectator's socket is pushed the end, with the closing log entry.
        let update = next(&mut spectator).await;
        assert_eq!(update["type"], "update", "{update}");
        assert_eq!(update["status"], "finished");
        assert_eq!(update["outcome"]["winner"], "american");
        assert_eq!(
            update["log"].as_array().unwrap().last().unwrap()["text"],
            last["text"]
        );
        // The game's own state is unchanged by it: the record says how it ended, and replays
        // to a position the rules have not ended.
        let (status, record) = bob.get(&format!("{path}/record")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            record["ended"],
            json!({"reason": "resigned", "side": "british", "winner": "american"})
        );
        let record: muster_core::Record = serde_json::from_value(record).unwrap();
        assert!(registry().replay(&record).unwrap().outcome().is_none());
        // Nothing more: no decision, no second resignation, no draw.
        let (_, g) = bob.get(&path).await;
        refused(
            &bob.post(
                &format!("{path}/act"),
                json!({"action": "pass", "version": g["version"]}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "game_over",
            "an action after the end",
        );
        refused(
            &bob.post(&resign, json!({})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "game_over",
            "resigning twice",
        );
        refused(
            &bob.post(&format!("{path}/offers"), json!({"kind": "draw"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "game_over",
            "a draw after the end",
        );
        let (_, lobby) = bob.get("/api/lobby").await;
        let mine = lobby["finished"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id_of(&path))
            .cloned()
            .unwrap();
        assert_eq!(mine["winner"], "american", "{db}");
        // An open game cannot be resigned: it is withdrawn.
        let (_, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
            .await;
        let open_game = format!("/api/games/{}/resign", v["id"].as_str().unwrap());
        refused(
            &alice.post(&open_game, json!({})).await,
            StatusCode::CONFLICT,
            "not_started",
            "an open game",
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn withdrawing_takes_an_open_game_out_of_the_lobby_before_anyone_joins() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (_, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
            .await;
        let id = v["id"].as_str().unwrap().to_string();
        let withdraw = format!("/api/games/{id}/withdraw");
        let listed = |lobby: &Value, list: &str| {
            lobby[list]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["id"] == id.as_str())
        };
        let (_, lobby) = bob.get("/api/lobby").await;
        assert!(listed(&lobby, "open"));
        refused(
            &bob.post(&withdraw, json!({})).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "not the creator",
        );
        refused(
            &alice.post(&withdraw, json!({"now": true})).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "a member",
        );
        let (_, lobby) = bob.get("/api/lobby").await;
        assert!(listed(&lobby, "open"), "refusals changed nothing");
        let (status, v) = alice.post(&withdraw, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, lobby) = bob.get("/api/lobby").await;
        assert!(!listed(&lobby, "open"), "{db}: gone from the open games");
        let (_, lobby) = alice.get("/api/lobby").await;
        assert!(!listed(&lobby, "mine") && !listed(&lobby, "open"));
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(g["status"], "withdrawn");
        assert!(g["invite"].is_null() && g["to_act"].is_null());
        refused(
            &bob.post(&format!("/api/games/{id}/join"), json!({})).await,
            StatusCode::CONFLICT,
            "full",
            "joining a withdrawn game",
        );
        refused(
            &alice.post(&withdraw, json!({})).await,
            StatusCode::CONFLICT,
            "not_open",
            "withdrawing twice",
        );
        // Once someone has joined, it cannot be withdrawn.
        let (_, alice2, path) = {
            let carol = Client::signup(addr, "carol").await;
            let (_, v) = carol
                .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
                .await;
            let id = v["id"].as_str().unwrap().to_string();
            bob.post(&format!("/api/games/{id}/join"), json!({})).await;
            ((), carol, format!("/api/games/{id}"))
        };
        refused(
            &alice2.post(&format!("{path}/withdraw"), json!({})).await,
            StatusCode::CONFLICT,
            "not_open",
            "a joined game",
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_are_answered_by_the_other_player_and_lapse_when_that_player_decides() {
    for db in databases().await {
        let addr = server(&db).await;
        let (alice, bob, path) = alice_and_bob(addr).await;
        let stranger = Client::signup(addr, "carol").await;
        let offers = format!("{path}/offers");
        let draw = json!({"kind": "draw"});
        // Bad offers.
        refused(
            &stranger.post(&offers, draw.clone()).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a stranger",
        );
        refused(
            &stranger.get(&offers).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a stranger reading",
        );
        refused(
            &bob.post(&offers, json!({"kind": "surrender"})).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "an unknown kind",
        );
        refused(
            &bob.post(&offers, json!({"kind": "draw", "swap": true}))
                .await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "swap on a draw",
        );
        refused(
            &bob.post(&offers, json!({"kind": "rematch"})).await,
            StatusCode::CONFLICT,
            "not_over",
            "a rematch while live",
        );
        let (_, none) = alice.get(&offers).await;
        assert_eq!(none["offers"], json!([]), "refusals stored nothing");
        // Bob offers; Alice's socket hears of it; both see it.
        let mut wa = open(addr, Some(&alice), id_of(&path), "", None)
            .await
            .unwrap();
        let state = next(&mut wa).await;
        assert_eq!(state["offers"], json!([]), "{state}");
        let (status, v) = bob.post(&offers, draw.clone()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let pushed = next(&mut wa).await;
        assert_eq!(pushed["type"], "offers", "{pushed}");
        assert_eq!(pushed["offers"][0]["kind"], "draw");
        assert_eq!(pushed["offers"][0]["from"], "bob");
        let (_, seen) = alice.get(&offers).await;
        assert_eq!(seen["offers"], pushed["offers"]);
        refused(
            &bob.post(&offers, draw.clone()).await,
            StatusCode::CONFLICT,
            "offer_open",
            "a second offer",
        );
        // Only the other player answers, at the version the game is at.
        let (_, g) = alice.get(&path).await;
        let accept = format!("{offers}/accept");
        refused(
            &bob.post(&accept, json!({"kind": "draw"})).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "accepting one's own",
        );
        refused(
            &stranger.post(&accept, json!({"kind": "draw"})).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a stranger accepting",
        );
        refused(
            &alice
                .post(
                    &accept,
                    json!({"kind": "draw", "version": g["version"].as_i64().unwrap() - 1}),
                )
                .await,
            StatusCode::CONFLICT,
            "stale",
            "a stale version",
        );
        refused(
            &alice
                .post(&format!("{offers}/withdraw"), json!({"kind": "draw"}))
                .await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "withdrawing another's",
        );
        let (_, still) = alice.get(&path).await;
        assert_eq!(still["status"], "active", "{db}: refusals ended nothing");
        // Alice declines; the offer is gone.
        let (status, v) = alice
            .post(&format!("{offers}/decline"), json!({"kind": "draw"}))
            .await;
        assert_eq!(
            (status, v["offers"].clone()),
            (StatusCode::OK, json!([])),
            "{v}"
        );
        let pushed = next(&mut wa).await;
        assert_eq!(pushed["closed"], json!({"kind": "draw", "why": "declined"}));
        refused(
            &alice
                .post(&format!("{offers}/decline"), json!({"kind": "draw"}))
                .await,
            StatusCode::CONFLICT,
            "no_offer",
            "declining twice",
        );
        // Bob offers again and withdraws it.
        bob.post(&offers, draw.clone()).await;
        let (status, v) = bob
            .post(&format!("{offers}/withdraw"), json!({"kind": "draw"}))
            .await;
        assert_eq!((status, v["offers"].clone()), (StatusCode::OK, json!([])));
        // Lapsing: an offer stands while its maker decides, and lapses when the player it was
        // made to decides.
        let count = |v: &Value| v["offers"].as_array().unwrap().len();
        bob.post(&offers, draw.clone()).await;
        let mut g = act_first(&bob, &path).await;
        while g["to_act"] == "american" {
            let (_, v) = alice.get(&offers).await;
            assert_eq!(count(&v), 1, "{db}: the maker's decisions keep it");
            g = act_first(&bob, &path).await;
        }
        assert_eq!(g["to_act"], "british");
        act_first(&alice, &path).await;
        let (_, v) = alice.get(&offers).await;
        assert_eq!(
            v["offers"],
            json!([]),
            "{db}: Alice's decision let Bob's offer lapse"
        );
        let (status, v) = alice.post(&offers, draw.clone()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let mut g = alice.get(&path).await.1;
        while g["to_act"] == "british" {
            g = act_first(&alice, &path).await;
            let (_, v) = bob.get(&offers).await;
            assert_eq!(count(&v), 1, "{db}: Alice's own decisions keep hers");
        }
        act_first(&bob, &path).await;
        let (_, v) = bob.get(&offers).await;
        assert_eq!(
            v["offers"],
            json!([]),
            "{db}: Bob's decision let Alice's offer lapse"
        );
        alice.post(&offers, draw.clone()).await;
        // Bob accepts Alice's standing offer: a draw, outside the rules.
        let (_, g) = bob.get(&path).await;
        let (status, v) = bob
            .post(&accept, json!({"kind": "draw", "version": g["version"]}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["status"], "finished");
        assert!(g["outcome"]["winner"].is_null());
        assert_eq!(g["outcome"]["ended"], "draw_agreed");
        let (_, record) = alice.get(&format!("{path}/record")).await;
        assert_eq!(record["ended"], json!({"reason": "draw_agreed"}));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_starts_only_when_the_other_player_accepts_with_the_sides_the_offer_says() {
    for db in databases().await {
        let addr = server(&db).await;
        let (alice, bob, path) = alice_and_bob(addr).await;
        let offers = format!("{path}/offers");
        let rematch = json!({"kind": "rematch", "swap": true});
        bob.post(&format!("{path}/resign"), json!({})).await;
        let (_, before) = bob.get("/api/lobby").await;
        let (status, v) = alice.post(&offers, rematch.clone()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["offers"][0]["swap"], true);
        assert!(v["rematch"].is_null(), "no game before the answer");
        let (_, lobby) = bob.get("/api/lobby").await;
        assert_eq!(
            lobby["mine"], before["mine"],
            "{db}: nobody was seated in a new game"
        );
        // Bob declines; Alice asks again, keeping the sides this time, then swapping.
        bob.post(&format!("{offers}/decline"), json!({"kind": "rematch"}))
            .await;
        let (_, v) = alice.get(&offers).await;
        assert_eq!(v["offers"], json!([]));
        alice.post(&offers, rematch.clone()).await;
        refused(
            &alice
                .post(&format!("{offers}/accept"), json!({"kind": "rematch"}))
                .await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "accepting one's own",
        );
        let (status, v) = bob
            .post(&format!("{offers}/accept"), json!({"kind": "rematch"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let new_id = v["rematch"].as_str().unwrap().to_string();
        let (_, a) = alice.get(&format!("/api/games/{new_id}")).await;
        let (_, b) = bob.get(&format!("/api/games/{new_id}")).await;
        assert_eq!(
            (a["my_side"].clone(), b["my_side"].clone()),
            (json!("american"), json!("british")),
            "{db}: swapped"
        );
        assert_eq!(a["status"], "active");
        assert_eq!(a["scenario"], "oriskany");
        // One rematch per game; both see where it went.
        refused(
            &alice.post(&offers, json!({"kind": "rematch"})).await,
            StatusCode::CONFLICT,
            "rematch_started",
            "a second rematch",
        );
        let (_, v) = alice.get(&offers).await;
        assert_eq!(v["rematch"], new_id.as_str());
        // A kept-sides rematch of the new game, after it ends.
        alice
            .post(&format!("/api/games/{new_id}/resign"), json!({}))
            .await;
        bob.post(
            &format!("/api/games/{new_id}/offers"),
            json!({"kind": "rematch"}),
        )
        .await;
        let (_, v) = alice
            .post(
                &format!("/api/games/{new_id}/offers/accept"),
                json!({"kind": "rematch"}),
            )
            .await;
        let third = v["rematch"].as_str().unwrap();
        let (_, a) = alice.get(&format!("/api/games/{third}")).await;
        assert_eq!(a["my_side"], "american", "kept");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_read_and_written_by_whom_it_belongs_to_within_its_limits() {
    for db in databases().await {
        let addr = server(&db).await;
        let (alice, bob, path) = alice_and_bob(addr).await;
        let carol = Client::signup(addr, "carol").await; // a logged-in spectator
        let anonymous = Client::new(addr).await;
        let chat = format!("{path}/chat");
        let mut wb = open(addr, Some(&bob), id_of(&path), "", None)
            .await
            .unwrap();
        let mut wc = open(addr, Some(&carol), id_of(&path), "", None)
            .await
            .unwrap();
        assert_eq!(next(&mut wb).await["unread"], 0);
        assert_eq!(next(&mut wc).await["type"], "state");
        // A message with markup is stored and answered as the text it is.
        let (status, v) = alice
            .post(&chat, json!({"text": "  <b>Good luck</b> & have fun  "}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["message"]["text"], "<b>Good luck</b> & have fun");
        assert_eq!(v["message"]["from"], "alice");
        assert_eq!(v["message"]["channel"], "players");
        let pushed = next(&mut wb).await;
        assert_eq!(
            (pushed["type"].clone(), pushed["message"].clone()),
            (json!("chat"), v["message"].clone())
        );
        let (_, got) = bob.get(&chat).await;
        assert_eq!(got["messages"], json!([v["message"]]));
        assert_eq!(got["unread"], 1);
        let (_, lobby) = bob.get("/api/lobby").await;
        let row = lobby["mine"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id_of(&path))
            .cloned()
            .unwrap();
        assert_eq!(row["unread"], 1, "{db}");
        // The players' channel is theirs: strangers neither read nor post.
        refused(
            &carol.get(&format!("{chat}?channel=players")).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a spectator reading",
        );
        refused(
            &anonymous.get(&format!("{chat}?channel=players")).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "nobody reading",
        );
        refused(
            &carol
                .post(
                    &chat,
                    json!({"text": "hint: flank them", "channel": "players"}),
                )
                .await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a spectator posting to the players",
        );
        refused(
            &anonymous.post(&chat, json!({"text": "hello"})).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "nobody posting",
        );
        refused(
            &alice
                .post(&chat, json!({"text": "psst", "channel": "spectators"}))
                .await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a player among spectators",
        );
        // Bad input.
        let long = "x".repeat(501);
        refused(
            &alice.post(&chat, json!({"text": long})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_long",
            "501 characters",
        );
        refused(
            &alice.post(&chat, json!({"text": "   "})).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "no text",
        );
        refused(
            &alice.post(&chat, json!({"text": "a\u{7}b"})).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "a control character",
        );
        refused(
            &alice.post(&chat, json!({"text": "hi", "to": "bob"})).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "an unknown member",
        );
        refused(
            &alice
                .post(&chat, json!({"text": "hi", "channel": "all"}))
                .await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "an unknown channel",
        );
        refused(
            &alice
                .post_raw(&chat, b"{\"text\":\"hi\"}".to_vec(), None)
                .await,
            StatusCode::FORBIDDEN,
            "csrf",
            "no token",
        );
        refused(
            &alice.get(&format!("{chat}?since=3")).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "an unknown parameter",
        );
        let (status, _) = alice.post(&chat, json!({"text": "x".repeat(500)})).await;
        assert_eq!(status, StatusCode::OK, "500 characters are allowed");
        // The spectators talk apart: everyone reads them, the players' sockets hear them too.
        let (status, v) = carol.post(&chat, json!({"text": "nice opening"})).await;
        assert_eq!(
            (status, v["message"]["channel"].clone()),
            (StatusCode::OK, json!("spectators")),
            "{v}"
        );
        let (_, public) = anonymous.get(&chat).await;
        assert_eq!(public["channel"], "spectators");
        assert_eq!(public["messages"], json!([v["message"]]));
        let (_, from_bob) = bob.get(&format!("{chat}?channel=spectators")).await;
        assert_eq!(from_bob["messages"], json!([v["message"]]));
        // Carol's socket never carried the players' messages: the first it hears is her own.
        let c_first = next(&mut wc).await;
        assert_eq!(c_first["message"]["text"], "nice opening", "{c_first}");
        // Rate limit: five messages in ten seconds (two were sent), then 429, nothing stored.
        for i in 0..3 {
            let (status, v) = alice.post(&chat, json!({"text": format!("msg {i}")})).await;
            assert_eq!(status, StatusCode::OK, "{i}: {v}");
        }
        let (_, before) = bob.get(&chat).await;
        refused(
            &alice.post(&chat, json!({"text": "one too many"})).await,
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "a sixth message",
        );
        let (_, after) = bob.get(&chat).await;
        assert_eq!(
            after["messages"], before["messages"],
            "{db}: the refused message was not stored"
        );
        // Mutes are per account: Bob mutes Alice, and no longer reads her; she still reads herself.
        refused(
            &bob.post("/api/account/mutes", json!({"name": "bob", "muted": true}))
                .await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "muting oneself",
        );
        refused(
            &bob.post(
                "/api/account/mutes",
                json!({"name": "nobody", "muted": true}),
            )
            .await,
            StatusCode::NOT_FOUND,
            "not_found",
            "an unknown name",
        );
        let (status, v) = bob
            .post(
                "/api/account/mutes",
                json!({"name": "Alice", "muted": true}),
            )
            .await;
        assert_eq!(
            (status, v["muted"].clone()),
            (StatusCode::OK, json!(["alice"])),
            "{v}"
        );
        let (_, muted) = bob.get(&chat).await;
        assert_eq!(muted["messages"], json!([]));
        assert_eq!(
            muted["unread"], 0,
            "a muted account's messages are not unread"
        );
        let (_, own) = alice.get(&chat).await;
        assert_eq!(own["messages"].as_array().unwrap().len(), 5);
        bob.post(
            "/api/account/mutes",
            json!({"name": "alice", "muted": false}),
        )
        .await;
        let (_, v) = bob.get("/api/account/mutes").await;
        assert_eq!(v["muted"], json!([]));
        // Read marks: only forward, only for players, within the messages there are.
        let seen = format!("{chat}/seen");
        refused(
            &bob.post(&seen, json!({"upto": 99})).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "past the last message",
        );
        refused(
            &carol.post(&seen, json!({"upto": 1})).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a spectator's mark",
        );
        let (_, v) = bob.post(&seen, json!({"upto": 2})).await;
        assert_eq!(v["unread"], 3, "{v}");
        let (_, v) = bob.post(&seen, json!({"upto": 1})).await;
        assert_eq!(v["unread"], 3, "a mark does not move back");
        let (_, v) = bob.post(&seen, json!({"upto": 6})).await;
        assert_eq!(v["unread"], 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notepad_is_read_and_written_only_by_its_own_seat() {
    for db in databases().await {
        let addr = server(&db).await;
        let (alice, bob, path) = alice_and_bob(addr).await;
        let carol = Client::signup(addr, "carol").await;
        let notes = format!("{path}/notes");
        let (status, v) = alice
            .post(
                &notes,
                json!({"text": "Hold the ford; Brant to the north."}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["side"], "british");
        let (_, v) = alice.get(&notes).await;
        assert_eq!(v["text"], "Hold the ford; Brant to the north.");
        let (_, v) = bob.get(&notes).await;
        assert_eq!(
            (v["side"].clone(), v["text"].clone()),
            (json!("american"), json!("")),
            "Bob has his own"
        );
        refused(
            &bob.get(&format!("{notes}?side=british")).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "another seat's notepad",
        );
        refused(
            &bob.post(&notes, json!({"text": "x", "side": "british"}))
                .await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "writing another seat's",
        );
        refused(
            &carol.get(&notes).await,
            StatusCode::FORBIDDEN,
            "forbidden",
            "a stranger",
        );
        refused(
            &Client::new(addr).await.get(&notes).await,
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "nobody",
        );
        refused(
            &alice
                .post(&notes, json!({"text": "x".repeat(10_001)}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_long",
            "too long",
        );
        refused(
            &alice.get(&format!("{notes}?page=2")).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
            "an unknown parameter",
        );
        let (_, v) = alice.get(&notes).await;
        assert_eq!(
            v["text"], "Hold the ford; Brant to the north.",
            "{db}: refusals changed nothing"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_chat_notes_and_endings_survive_a_restart() {
    for db in databases().await {
        let addr = server(&db).await;
        let (alice, bob, path) = alice_and_bob(addr).await;
        alice
            .post(&format!("{path}/chat"), json!({"text": "first"}))
            .await;
        bob.post(&format!("{path}/chat"), json!({"text": "second"}))
            .await;
        bob.post(&format!("{path}/offers"), json!({"kind": "draw"}))
            .await;
        alice
            .post(&format!("{path}/notes"), json!({"text": "remember"}))
            .await;
        let (_, chat) = alice.get(&format!("{path}/chat")).await;
        let (_, offers) = alice.get(&format!("{path}/offers")).await;
        // A second game, ended by a resignation.
        let (_, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
            .await;
        let other = format!("/api/games/{}", v["id"].as_str().unwrap());
        bob.post(&format!("{other}/join"), json!({})).await;
        bob.post(&format!("{other}/resign"), json!({})).await;
        let (_, ended) = alice.get(&other).await;
        // A second server on the same database has nothing in memory.
        let addr2 = server(&db).await;
        let again = Client::new(addr2).await;
        again
            .post(
                "/api/login",
                json!({"name": "alice", "password": "correct horse"}),
            )
            .await;
        let (_, chat2) = again.get(&format!("{path}/chat")).await;
        assert_eq!(chat2["messages"], chat["messages"], "{db}");
        assert_eq!(chat2["messages"].as_array().unwrap().len(), 2);
        let (_, offers2) = again.get(&format!("{path}/offers")).await;
        assert_eq!(offers2, offers);
        assert_eq!(offers2["offers"][0]["kind"], "draw");
        let (_, notes) = again.get(&format!("{path}/notes")).await;
        assert_eq!(notes["text"], "remember");
        let (_, ended2) = again.get(&other).await;
        for k in ["status", "outcome", "log", "to_act", "prompt", "version"] {
            assert_eq!(ended2[k], ended[k], "{db}: {k}");
        }
        // The restored offer can still be accepted there.
        let (_, g) = again.get(&path).await;
        let (status, v) = again
            .post(
                &format!("{path}/offers/accept"),
                json!({"kind": "draw", "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, g) = again.get(&path).await;
        assert_eq!(g["outcome"]["ended"], "draw_agreed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_account_plays_both_sides_of_a_hot_seat_game() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "self"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v["invite"].is_null());
        let path = format!("/api/games/{}", v["id"].as_str().unwrap());
        let (_, g) = alice.get(&path).await;
        assert_eq!(g["status"], "active");
        assert!(
            g["seats"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["player"] == "alice")
        );
        // She is whichever side is to act, and decides for both.
        let mut sides = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let (_, g) = alice.get(&path).await;
            if g["status"] != "active" || sides.len() == 2 {
                break;
            }
            assert_eq!(g["my_side"], g["to_act"], "{db}");
            sides.insert(g["to_act"].as_str().unwrap().to_string());
            let (_, lobby) = alice.get("/api/lobby").await;
            let row = lobby["mine"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["id"] == g["id"])
                .cloned()
                .unwrap();
            assert_eq!(row["my_turn"], true);
            // Bob may not act for either side.
            let action = g["legal"][0]["action"].as_str().unwrap();
            refused(
                &bob.post(
                    &format!("{path}/act"),
                    json!({"action": action, "version": g["version"]}),
                )
                .await,
                StatusCode::FORBIDDEN,
                "forbidden",
                "a stranger",
            );
            act_first(&alice, &path).await;
        }
        assert_eq!(sides.len(), 2, "{db}: both sides were played: {sides:?}");
        // Nobody else to ask: a rematch after the end starts at once.
        alice.post(&format!("{path}/resign"), json!({})).await;
        let (status, v) = alice
            .post(&format!("{path}/offers"), json!({"kind": "rematch"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, fresh) = alice
            .get(&format!("/api/games/{}", v["rematch"].as_str().unwrap()))
            .await;
        assert!(
            fresh["seats"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["player"] == "alice")
        );
        // Against a bot, a draw offer is refused: a bot does not answer.
        let id = alice.game_vs_bot("oriskany", "american", "random").await;
        refused(
            &alice
                .post(&format!("/api/games/{id}/offers"), json!({"kind": "draw"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bot_seat",
            "a draw with a bot",
        );
    }
}
