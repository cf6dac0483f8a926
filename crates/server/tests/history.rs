//! Issue 16 §5 against SQLite and PostgreSQL (docs/server.md, "Seeing more"): the history of a
//! game as each viewer may see it (a seat its side's view, anyone else the public one, never
//! the other side's secrets nor the seed), the list of live games with spectator counts
//! following the sockets, and the paged search of finished games.

mod common;

use common::*;
use muster_server::{Config, serve_on, state};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

/// Battles (as every test binary) and From Boston to Concord, whose Gather Intelligence (6.14)
/// shows one side the next cards: hidden information for the history to keep hidden.
fn registry() -> muster_core::Registry {
    let mut r = common::registry();
    r.add(muster_revolution_road::Concord::new().unwrap());
    r
}

/// A server with [`registry`]: its address and state.
async fn server_here(database: &str) -> (SocketAddr, muster_server::AppState) {
    let config = Config {
        database: database.to_string(),
        addr: "127.0.0.1:0".parse().unwrap(),
        secure_cookies: false,
        ..Default::default()
    };
    let st = state(config, registry(), bots()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shared = st.clone();
    tokio::spawn(async move { serve_on(listener, st).await });
    (addr, shared)
}

/// The stored seed, options and actions of a game, read from its database.
async fn stored(
    st: &muster_server::AppState,
    id: &str,
) -> (u64, muster_core::Options, Vec<(String, String)>) {
    use sqlx::Row;
    let row = sqlx::query("SELECT seed, options FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&st.db.pool)
        .await
        .unwrap();
    let seed: i64 = row.try_get(0).unwrap();
    let options: String = row.try_get(1).unwrap();
    let actions = sqlx::query("SELECT side, action FROM actions WHERE game_id = $1 ORDER BY idx")
        .bind(id)
        .fetch_all(&st.db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.try_get(0).unwrap(), r.try_get(1).unwrap()))
        .collect();
    (
        seed as u64,
        serde_json::from_str(&options).unwrap(),
        actions,
    )
}

/// A Concord game between Alice (Patriot, who made it) and Bob (British, who joined), played
/// for `moves` actions by whoever is to act: Gather Intelligence whenever it is legal, else the
/// first legal action. The clients, the game id, and how many Gather Intelligence each side
/// took.
async fn concord_game(addr: SocketAddr, moves: usize) -> (Client, Client, String, [usize; 2]) {
    let alice = Client::signup(addr, "alice").await;
    let bob = Client::signup(addr, "bob").await;
    let (status, v) = alice
        .post(
            "/api/games",
            json!({"game": "concord", "scenario": "standard", "side": "patriot", "opponent": "human"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (status, g) = bob.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    let path = format!("/api/games/{id}");
    let mut intel = [0, 0];
    for _ in 0..moves {
        let (_, g) = alice.get(&path).await;
        let (who, i) = match g["to_act"].as_str() {
            Some("patriot") => (&alice, 0),
            Some("british") => (&bob, 1),
            _ => break,
        };
        let (_, g) = who.get(&path).await;
        let legal = g["legal"].as_array().unwrap();
        let action = legal
            .iter()
            .find(|e| e["action"] == "intel")
            .or_else(|| legal.first())
            .expect("a legal action")["action"]
            .as_str()
            .unwrap()
            .to_string();
        if action == "intel" {
            intel[i] += 1;
        }
        let (status, after) = who
            .post(
                &format!("{path}/act"),
                json!({"action": action, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{after}");
    }
    (alice, bob, id, intel)
}

/// Whether every log entry of a history answer is for everyone or for `side` (Concord's side
/// index: Patriot 0, British 1).
fn audiences_ok(log: &Value, side: Option<&str>) -> bool {
    let index = side.map(|s| u64::from(s == "british"));
    log.as_array().unwrap().iter().all(|e| {
        e["audience"] == "all" || index.is_some_and(|i| e["audience"] == json!({"side": i}))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_at_every_point_is_the_replay_for_that_viewer_and_never_shows_the_other_sides_secrets()
 {
    for db in databases().await {
        let (addr, st) = server_here(&db).await;
        let (alice, bob, id, intel) = concord_game(addr, 70).await;
        assert!(
            intel[0] > 0 && intel[1] > 0,
            "both sides gathered intelligence: {intel:?}"
        );
        let carol = Client::signup(addr, "carol").await;
        let anonymous = Client::new(addr).await;
        let (seed, options, actions) = stored(&st, &id).await;
        let total = actions.len();
        let reg = registry();
        let mut m = reg
            .new_match("concord", "standard", &options, seed)
            .unwrap();
        let mut local = vec![m.clone_box()];
        for (side, action) in &actions {
            m.act(Some(side), action).unwrap();
            local.push(m.clone_box());
        }
        // Each viewer walks the history in its own order: forward, backward, and jumping,
        // so that the server's cursor goes both ways and back over its checkpoints.
        let forward: Vec<usize> = (0..=total).collect();
        let backward: Vec<usize> = (0..=total).rev().collect();
        let jumping: Vec<usize> = (0..=total).map(|i| (i * 37) % (total + 1)).collect();
        let viewers: [(&Client, Option<&str>, &Vec<usize>); 4] = [
            (&alice, Some("patriot"), &backward),
            (&bob, Some("british"), &forward),
            (&carol, None, &jumping),
            (&anonymous, None, &backward),
        ];
        let seed_text = seed.to_string();
        let mut hidden_seen = [false, false];
        for (client, side, order) in viewers {
            for &n in order {
                let r = client
                    .http
                    .get(format!("{}/api/games/{id}/history?at={n}", client.base))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status(), StatusCode::OK);
                let text = r.text().await.unwrap();
                assert!(!text.contains(&seed_text), "the seed is in {text}");
                let h: Value = serde_json::from_str(&text).unwrap();
                let want = &local[n];
                assert_eq!(h["at"], n);
                assert_eq!(h["actions"], total);
                assert_eq!(h["my_side"], json!(side));
                assert_eq!(
                    h["view"],
                    want.view(side).unwrap(),
                    "view at {n} for {side:?}"
                );
                assert_eq!(
                    h["log"],
                    json!(want.log(side).unwrap()),
                    "log at {n} for {side:?}"
                );
                assert_eq!(h["to_act"], json!(want.to_act()));
                assert!(audiences_ok(&h["log"], side), "{}", h["log"]);
                // What the other side saw with Gather Intelligence never reaches this viewer.
                let other = match side {
                    Some("patriot") => Some("british"),
                    Some(_) => Some("patriot"),
                    None => None,
                };
                let theirs = other.map(|o| want.view(Some(o)).unwrap()["seen"].clone());
                if let Some(theirs) = theirs
                    && theirs.as_array().is_some_and(|a| !a.is_empty())
                {
                    let mine = want.view(side).unwrap()["seen"].clone();
                    assert_eq!(h["view"]["seen"], mine);
                    if mine != theirs {
                        hidden_seen[usize::from(side == Some("british"))] = true;
                    }
                }
                if side.is_none() {
                    assert_eq!(
                        h["view"]["seen"],
                        json!([]),
                        "a stranger sees no peeked card"
                    );
                    assert!(!h["log"].to_string().contains("the next cards are"));
                }
                assert!(h.get("seed").is_none() && h.get("actions_list").is_none());
            }
        }
        assert!(
            hidden_seen.iter().any(|s| *s),
            "at some point one side had peeked at cards the other had not"
        );
        // A peek's log line reaches its side only.
        let (_, h) = alice.get(&format!("/api/games/{id}/history")).await;
        let (_, hb) = bob.get(&format!("/api/games/{id}/history")).await;
        let peeks = |h: &Value| {
            h["log"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["text"].as_str().unwrap().contains("the next cards are"))
                .count()
        };
        assert_eq!(peeks(&h), intel[0], "Alice reads her own peeks only");
        assert_eq!(peeks(&hb), intel[1], "Bob reads his own peeks only");
        // No `at`: the position now.
        assert_eq!(h["at"], total);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_follows_an_undo_and_refuses_points_out_of_range() {
    for db in databases().await {
        let (addr, st) = server_here(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let id = alice
            .game_vs_bot("freemans-farm", "british", "random")
            .await;
        let path = format!("/api/games/{id}");
        // Move until an action can be taken back, remembering the history there.
        let mut undone = false;
        for _ in 0..40 {
            let g = alice.wait_my_turn(&id).await;
            if g["status"] == "finished" {
                break;
            }
            let action = g["legal"][0]["action"].as_str().unwrap().to_string();
            let (status, after) = alice
                .post(
                    &format!("{path}/act"),
                    json!({"action": action, "version": g["version"]}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{after}");
            if after["can_undo"] == true {
                let n = after["actions"].as_u64().unwrap();
                let (_, before) = alice.get(&format!("{path}/history?at={n}")).await;
                assert_eq!(before["view"], after["view"]);
                let (status, back) = alice
                    .post(
                        &format!("{path}/undo"),
                        json!({"version": after["version"]}),
                    )
                    .await;
                assert_eq!(status, StatusCode::OK, "{back}");
                let now = back["actions"].as_u64().unwrap();
                assert!(now < n);
                // The position taken back is no longer in the history...
                let (status, gone) = alice.get(&format!("{path}/history?at={n}")).await;
                assert_eq!(
                    (status, kind(&gone)),
                    (StatusCode::UNPROCESSABLE_ENTITY, "out_of_range"),
                    "{gone}"
                );
                // ...and the history now is the game now.
                let (_, h) = alice.get(&format!("{path}/history?at={now}")).await;
                assert_eq!(h["view"], back["view"]);
                undone = true;
                break;
            }
        }
        assert!(undone, "some action could be taken back");
        let (_, _, actions) = stored(&st, &id).await;
        let total = actions.len();
        let before = alice.get(&path).await.1;
        for (query, status, k) in [
            (
                format!("at={}", total + 1),
                StatusCode::UNPROCESSABLE_ENTITY,
                "out_of_range",
            ),
            (
                "at=99999999999999999999999".into(),
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            ("at=-1".into(), StatusCode::BAD_REQUEST, "bad_request"),
            ("at=two".into(), StatusCode::BAD_REQUEST, "bad_request"),
            ("at=1&at=2".into(), StatusCode::BAD_REQUEST, "bad_request"),
            ("turn=1".into(), StatusCode::BAD_REQUEST, "bad_request"),
        ] {
            let (s, v) = alice.get(&format!("{path}/history?{query}")).await;
            assert_eq!((s, kind(&v)), (status, k), "{query}: {v}");
        }
        let (s, v) = alice.get("/api/games/nosuchgame/history?at=0").await;
        assert_eq!((s, kind(&v)), (StatusCode::NOT_FOUND, "not_found"), "{v}");
        // Refusals changed nothing.
        assert_eq!(alice.get(&path).await.1["version"], before["version"]);
        let (s, h) = alice.get(&format!("{path}/history?at={total}")).await;
        assert_eq!(s, StatusCode::OK, "{h}");
        assert_eq!(h["at"], total);
    }
}

/// The live list's entry for `id`, if listed.
async fn listed(c: &Client, id: &str) -> Option<Value> {
    let (status, v) = c.get("/api/games/live").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["games"]
        .as_array()
        .expect("a list of games, not a game called live")
        .iter()
        .find(|g| g["id"] == id)
        .cloned()
}

/// Waits until the live list shows `n` spectators for `id`.
async fn spectators_become(c: &Client, id: &str, n: u64) {
    for _ in 0..200 {
        if listed(c, id).await.and_then(|g| g["spectators"].as_u64()) == Some(n) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!(
        "the live list never showed {n} spectators: {:?}",
        listed(c, id).await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_list_counts_spectator_sockets_as_they_open_and_close() {
    for db in databases().await {
        let (addr, _st) = server_here(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let carol = Client::signup(addr, "carol").await;
        let id = alice.game_vs_bot("oriskany", "british", "random").await;
        let g = listed(&carol, &id).await.expect("an active game is listed");
        assert_eq!(g["game"], "battles");
        assert_eq!(g["scenario"], "oriskany");
        assert_eq!(g["spectators"], 0);
        assert!(g["version"].as_i64().unwrap() >= 0);
        assert!(g["actions"].as_i64().unwrap() >= 0);
        assert!(g["last_move"].as_i64().unwrap() > 0);
        let seats = g["seats"].as_array().unwrap();
        assert!(
            seats
                .iter()
                .any(|s| s["player"] == "alice" && s["side"] == "british")
        );
        assert!(seats.iter().any(|s| s["bot"] == "random"));
        // The seated player's own socket is no spectator.
        let mut mine = open(addr, Some(&alice), &id, "", None).await.unwrap();
        assert_eq!(next(&mut mine).await["type"], "state");
        spectators_become(&carol, &id, 0).await;
        let mut theirs = open(addr, Some(&carol), &id, "", None).await.unwrap();
        assert_eq!(next(&mut theirs).await["type"], "state");
        spectators_become(&carol, &id, 1).await;
        let mut nobody = open(addr, None, &id, "", None).await.unwrap();
        assert_eq!(next(&mut nobody).await["type"], "state");
        spectators_become(&carol, &id, 2).await;
        theirs.close(None).await.unwrap();
        spectators_become(&carol, &id, 1).await;
        drop(nobody);
        spectators_become(&carol, &id, 0).await;
        // A game that ends leaves the list.
        let (status, v) = alice
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(listed(&carol, &id).await.is_none());
        mine.close(None).await.unwrap();
        // An open game (nobody joined) is not live either.
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(listed(&carol, v["id"].as_str().unwrap()).await.is_none());
    }
}

/// Starts a game of `who` against a bot in `scenario` and resigns it: a finished game.
async fn finished(who: &Client, scenario: &str) -> String {
    let (status, v) = who
        .post("/api/games", json!({"game": "battles", "scenario": scenario, "side": "british", "opponent": "bot", "level": "random"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (status, v) = who
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    id
}

async fn search(c: &Client, query: &str) -> Value {
    let (status, v) = c.get(&format!("/api/games/finished{query}")).await;
    assert_eq!(status, StatusCode::OK, "{query}: {v}");
    v
}

fn ids(v: &Value) -> Vec<String> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_search_filters_by_game_scenario_and_player_and_pages_newest_first() {
    for db in databases().await {
        let (addr, _st) = server_here(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "Bob").await;
        let mut alices = Vec::new();
        for i in 0..23 {
            let scenario = if i % 3 == 0 {
                "oriskany"
            } else {
                "freemans-farm"
            };
            alices.push((finished(&alice, scenario).await, scenario));
        }
        let bobs = vec![
            finished(&bob, "oriskany").await,
            finished(&bob, "oriskany").await,
        ];
        // A live game is not among the finished.
        let live = alice.game_vs_bot("oriskany", "british", "random").await;

        let all = search(&alice, "").await;
        assert_eq!(all["page"], 1);
        assert_eq!(all["per_page"], 20);
        assert_eq!(all["more"], true);
        assert_eq!(ids(&all).len(), 20);
        let g = &all["games"][0];
        assert_eq!(g["result"], "resigned");
        assert_eq!(g["winner"], "american");
        assert_eq!(g["game"], "battles");
        assert!(g["seats"].as_array().unwrap().len() == 2);
        // Newest first.
        let times: Vec<i64> = all["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["ended_at"].as_i64().unwrap())
            .collect();
        assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
        let page2 = search(&alice, "?page=2").await;
        assert_eq!(page2["more"], false);
        assert_eq!(ids(&page2).len(), 5);
        let mut every: Vec<String> = ids(&all).into_iter().chain(ids(&page2)).collect();
        every.sort();
        every.dedup();
        assert_eq!(every.len(), 25, "the pages do not overlap and miss nothing");
        assert!(!every.contains(&live));
        assert_eq!(ids(&search(&alice, "?page=3").await).len(), 0);

        // By player, without regard to case; a name with spaces and others is decoded.
        let of_bob = search(&alice, "?player=bOB").await;
        let mut got = ids(&of_bob);
        got.sort();
        let mut want = bobs.clone();
        want.sort();
        assert_eq!(got, want);
        assert_eq!(
            ids(&search(&alice, "?player=no%20such%20player").await).len(),
            0
        );
        let of_alice = search(&alice, "?player=alice&page=2").await;
        assert_eq!(ids(&of_alice).len(), 3);

        // By scenario and game.
        let oriskany = search(&alice, "?game=battles&scenario=oriskany&player=alice").await;
        let want: Vec<&String> = alices
            .iter()
            .filter(|(_, s)| *s == "oriskany")
            .map(|(id, _)| id)
            .collect();
        assert_eq!(ids(&oriskany).len(), want.len());
        assert!(ids(&oriskany).iter().all(|id| want.contains(&id)));
        assert!(
            oriskany["games"]
                .as_array()
                .unwrap()
                .iter()
                .all(|g| g["scenario"] == "oriskany")
        );
        assert_eq!(
            ids(&search(&alice, "?scenario=oriskany").await).len(),
            want.len() + 2
        );
        assert_eq!(ids(&search(&alice, "?game=concord").await).len(), 0);
        assert_eq!(ids(&search(&alice, "?game=battles&page=2").await).len(), 5);

        for query in [
            "?page=0",
            "?page=-1",
            "?page=x",
            "?colour=red",
            "?game=a&game=b",
        ] {
            let (s, v) = alice.get(&format!("/api/games/finished{query}")).await;
            assert_eq!(
                (s, kind(&v)),
                (StatusCode::BAD_REQUEST, "bad_request"),
                "{query}: {v}"
            );
        }
        // A game's own id still reaches the game (the static segments do not hide it).
        let (s, v) = alice.get(&format!("/api/games/{live}")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["id"], live);
    }
}
