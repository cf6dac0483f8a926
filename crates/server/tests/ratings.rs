//! Ratings (issue 16 §6; docs/server.md, "Ratings") against SQLite and PostgreSQL: a rated
//! game's Glicko-2 change is what `skillratings` computes from the stored figures before it,
//! whatever ends the game (the rules, a resignation, an agreed draw, a clock that ran out);
//! hot-seat and unrated games change nothing; games against a bot count in the bots pool and
//! leave the bot's rating alone; a restart keeps the ratings and applies no finished game
//! again; two games of one player ending at once are both counted; the leaderboard's order,
//! paging and refusals.

mod common;

use common::*;
use muster_ai::Level;
use muster_server::db::Stmt;
use muster_server::notify::Settings;
use muster_server::ratings::Standing;
use muster_server::{AppState, Config, Limits};
use reqwest::StatusCode;
use serde_json::{Value, json};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use sqlx::Row;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// The change of `side` in a game's `ratings`.
fn change<'a>(g: &'a Value, side: &str) -> &'a Value {
    g["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["side"] == side)
        .unwrap_or_else(|| panic!("no rating change for {side}: {g}"))
}

/// A game's stored rating changes, read from the database as stored (exact figures: a JSON
/// reader may round a number's last digit): side → (bot, pool, before, after).
async fn stored(
    st: &AppState,
    id: &str,
) -> Vec<(String, Option<String>, String, Standing, Standing)> {
    let rows = sqlx::query(
        "SELECT side, bot, pool, before_figures, after_figures FROM rating_changes WHERE game_id = $1 ORDER BY side",
    )
    .bind(id)
    .fetch_all(&st.db.pool)
    .await
    .unwrap();
    rows.iter()
        .map(|r| {
            let figures = |i| Standing::from_text(&r.get::<String, _>(i)).unwrap();
            (r.get(0), r.get(1), r.get(2), figures(3), figures(4))
        })
        .collect()
}

fn glicko(s: &Standing) -> Glicko2Rating {
    Glicko2Rating {
        rating: s.rating,
        deviation: s.deviation,
        volatility: s.volatility,
    }
}

/// Checks that the game's two stored rating changes are exactly what Glicko-2 makes of their
/// stored before-values with the British side's result `british` (the other side's is the
/// opposite), in `pool`; a bot's rating does not move; the game's `ratings` show the same.
/// Returns the (British, American) after-values as the game shows them.
async fn assert_glicko2(
    st: &AppState,
    g: &Value,
    british: Outcomes,
    pool: &str,
    what: &str,
) -> (Value, Value) {
    assert_eq!(g["rated"], true, "{what}: {g}");
    assert_eq!(g["ratings"].as_array().unwrap().len(), 2, "{what}: {g}");
    let rows = stored(st, g["id"].as_str().unwrap()).await;
    let side = |s: &str| rows.iter().find(|r| r.0 == s).unwrap().clone();
    let (b, a) = (side("british"), side("american"));
    let (eb, ea) = glicko2(
        &glicko(&b.3),
        &glicko(&a.3),
        &british,
        &Glicko2Config::new(),
    );
    for (row, expected) in [(b, eb), (a, ea)] {
        let (s, bot, stored_pool, before, after) = row;
        assert_eq!(stored_pool, pool, "{what}: {s}");
        if bot.is_none() {
            assert_eq!(glicko(&after), expected, "{what}: {s}");
            assert_eq!(after.games, before.games + 1, "{what}: {s}");
        } else {
            assert_eq!(after, before, "{what}: a bot's rating never moves");
        }
        // The game shows the stored figures (to a JSON reader's rounding).
        let shown = change(g, &s);
        for (v, x) in [(&shown["before"], before), (&shown["after"], after)] {
            for (k, y) in [
                ("rating", x.rating),
                ("deviation", x.deviation),
                ("volatility", x.volatility),
            ] {
                let got = v[k].as_f64().unwrap();
                assert!(
                    (got - y).abs() <= y.abs() * 1e-12,
                    "{what}: {s} {k}: {got} vs {y}"
                );
            }
            assert_eq!(v["games"], x.games, "{what}: {s}");
        }
    }
    (
        change(g, "british")["after"].clone(),
        change(g, "american")["after"].clone(),
    )
}

fn new_player() -> Value {
    let d = Glicko2Rating::new();
    json!({"rating": d.rating, "deviation": d.deviation, "volatility": d.volatility, "games": 0, "provisional": true})
}

/// The leaderboard of Battles in `pool`.
async fn board(c: &Client, pool: &str) -> Value {
    let (status, v) = c.get(&format!("/api/ratings/battles?pool={pool}")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// A player's row on a leaderboard.
fn row<'a>(board: &'a Value, name: &str) -> Option<&'a Value> {
    board["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == name)
}

/// Plays the game out by the rules: each player makes a middle legal decision on its turn,
/// until it is over. The game as it ends.
async fn play_out(alice: &Client, bob: &Client, id: &str) -> Value {
    let path = format!("/api/games/{id}");
    for _ in 0..20_000 {
        let (_, g) = alice.get(&path).await;
        if g["status"] == "finished" {
            return g;
        }
        let who = if g["to_act"] == g["my_side"] {
            alice
        } else {
            bob
        };
        let (_, g) = who.get(&path).await;
        let legal = g["legal"].as_array().unwrap();
        let action = legal[legal.len() / 2]["action"].as_str().unwrap();
        let (status, v) = who
            .post(
                &format!("{path}/act"),
                json!({"action": action, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    panic!("the game did not end");
}

async fn resign(who: &Client, id: &str) -> Value {
    let (status, g) = who
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    g
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_ended_by_the_rules_then_one_resigned_move_both_players_by_glicko2() {
    for db in databases().await {
        let (addr, st) = server_with(&db, Limits::default()).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (id, g) = human_game(&alice, &bob).await;
        assert_eq!(g["rated"], true, "{db}: rated by default: {g}");
        assert_eq!(g["ratings"], json!([]), "{db}: no change before the end");
        let end = play_out(&alice, &bob, &id).await;
        let british = match end["outcome"]["winner"].as_str() {
            Some("british") => Outcomes::WIN,
            Some("american") => Outcomes::LOSS,
            _ => Outcomes::DRAW,
        };
        assert_eq!(change(&end, "british")["before"], new_player(), "{db}");
        assert_eq!(change(&end, "american")["before"], new_player(), "{db}");
        let (alice_after, bob_after) = assert_glicko2(&st, &end, british, "human", &db).await;
        if british == Outcomes::WIN {
            assert!(alice_after["rating"].as_f64() > Some(1500.0), "{db}");
            assert!(bob_after["rating"].as_f64() < Some(1500.0), "{db}");
        }
        // The second game starts from the first's figures; Bob (American) resigns: Alice wins.
        let (id2, _) = human_game(&alice, &bob).await;
        let g2 = resign(&bob, &id2).await;
        assert_eq!(change(&g2, "british")["before"], alice_after, "{db}");
        assert_eq!(change(&g2, "american")["before"], bob_after, "{db}");
        let (alice2, bob2) = assert_glicko2(&st, &g2, Outcomes::WIN, "human", &db).await;
        assert!(alice2["rating"].as_f64() > alice_after["rating"].as_f64());
        assert!(bob2["rating"].as_f64() < bob_after["rating"].as_f64());
        // The leaderboard: Alice above Bob, two games each, provisional still.
        let b = board(&alice, "human").await;
        let names: Vec<&str> = b["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["player"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["alice", "bob"], "{db}: {b}");
        let top = row(&b, "alice").unwrap();
        assert_eq!(top["rating"], alice2["rating"], "{db}");
        assert_eq!(top["deviation"], alice2["deviation"], "{db}");
        assert_eq!(top["games"], 2, "{db}");
        assert_eq!(top["provisional"], true, "{db}");
        assert_eq!(top["rank"], 1, "{db}");
        assert_eq!(board(&alice, "bots").await["players"], json!([]), "{db}");
        // The profile shows the rating.
        let (_, p) = bob.get("/api/users/alice").await;
        assert_eq!(
            p["ratings"],
            json!([{"game": "battles", "pool": "human", "rating": alice2["rating"], "deviation": alice2["deviation"], "games": 2, "provisional": true}]),
            "{db}"
        );
        // The lobby says rated.
        let (_, lobby) = alice.get("/api/lobby").await;
        assert_eq!(lobby["finished"][0]["rated"], true, "{db}: {lobby}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agreed_draw_counts_as_a_draw() {
    for db in databases().await {
        let (addr, st) = server_with(&db, Limits::default()).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        // Alice first wins a game, so that the draw is between unequal ratings.
        let (first, _) = human_game(&alice, &bob).await;
        resign(&bob, &first).await;
        let (id, _) = human_game(&alice, &bob).await;
        let (status, v) = alice
            .post(&format!("/api/games/{id}/offers"), json!({"kind": "draw"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = bob
            .post(
                &format!("/api/games/{id}/offers/accept"),
                json!({"kind": "draw"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(g["outcome"]["ended"], "draw_agreed", "{db}");
        let (alice_after, bob_after) = assert_glicko2(&st, &g, Outcomes::DRAW, "human", &db).await;
        // The higher-rated player loses points in a draw, the lower-rated one gains.
        assert!(
            alice_after["rating"].as_f64() < change(&g, "british")["before"]["rating"].as_f64(),
            "{db}"
        );
        assert!(
            bob_after["rating"].as_f64() > change(&g, "american")["before"]["rating"].as_f64(),
            "{db}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_rates_the_game_as_lost_on_time() {
    const T0: i64 = 1_800_000_000;
    for db in databases().await {
        let clock = Arc::new(AtomicI64::new(T0));
        let (addr, st) = server_config(Config {
            database: db.clone(),
            notify: Settings {
                clock: Some(clock.clone()),
                ..Settings::default()
            },
            ..Default::default()
        })
        .await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (status, v) = alice
            .post(
                "/api/games",
                json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human",
                       "time": {"kind": "clock", "initial_minutes": 10, "increment_minutes": 0}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        let (status, g) = bob.post(&format!("/api/games/{id}/join"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        // Bob (American, to act) lets his ten minutes run out.
        clock.store(T0 + 700, Ordering::Relaxed);
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(g["outcome"]["ended"], "time", "{db}: {g}");
        assert_eq!(g["outcome"]["winner"], "british", "{db}");
        assert_glicko2(&st, &g, Outcomes::WIN, "human", &db).await;
        assert_eq!(row(&board(&bob, "human").await, "bob").unwrap()["games"], 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hot_seat_and_unrated_games_change_no_rating() {
    for db in databases().await {
        let (addr, st) = server_with(&db, Limits::default()).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        // A hot-seat game is never rated: asking for it is refused, and nothing is made.
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "self", "rated": true}))
            .await;
        assert_eq!(
            (status, kind(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "hot_seat_unrated"),
            "{db}: {v}"
        );
        let (_, lobby) = alice.get("/api/lobby").await;
        assert_eq!(lobby["mine"], json!([]), "{db}: nothing was made");
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "self"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let hot = v["id"].as_str().unwrap().to_string();
        let g = resign(&alice, &hot).await;
        assert_eq!(g["rated"], false, "{db}: {g}");
        assert_eq!(g["ratings"], json!([]), "{db}");
        assert!(stored(&st, &hot).await.is_empty(), "{db}: nothing stored");
        // An unrated game between two accounts.
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human", "rated": false}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        let (_, lobby) = bob.get("/api/lobby").await;
        let open = lobby["open"].as_array().unwrap();
        assert_eq!(open[0]["id"], id.as_str(), "{db}");
        assert_eq!(open[0]["rated"], false, "{db}: the lobby says unrated");
        let (status, g) = bob.post(&format!("/api/games/{id}/join"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["rated"], false, "{db}");
        let g = resign(&bob, &id).await;
        assert_eq!(g["ratings"], json!([]), "{db}");
        assert!(stored(&st, &id).await.is_empty(), "{db}: nothing stored");
        // An unrated game against a bot.
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "bot", "level": "random", "rated": false}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let g = resign(&alice, v["id"].as_str().unwrap()).await;
        assert_eq!(g["ratings"], json!([]), "{db}");
        for pool in ["human", "bots"] {
            assert_eq!(board(&alice, pool).await["players"], json!([]), "{db}");
        }
        for name in ["alice", "bob"] {
            let (_, p) = alice.get(&format!("/api/users/{name}")).await;
            assert_eq!(p["ratings"], json!([]), "{db}: {p}");
        }
        // A bad flag is a clear 400.
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human", "rated": "yes"}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{db}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_a_bot_count_in_the_bots_pool_and_never_move_the_bot() {
    for db in databases().await {
        let (addr, st) = server_with(&db, Limits::default()).await;
        let alice = Client::signup(addr, "alice").await;
        // The catalog shows each level's fixed rating.
        let (_, catalog) = alice.get("/api/catalog").await;
        for l in catalog["levels"].as_array().unwrap() {
            let level = Level::parse(l["id"].as_str().unwrap()).unwrap();
            assert_eq!(l["rating"].as_f64(), Some(level.rating()), "{l}");
        }
        let mut last = new_player();
        for level in ["random", "hard"] {
            let (status, v) = alice
                .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "bot", "level": level}))
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let id = v["id"].as_str().unwrap().to_string();
            let g = resign(&alice, &id).await;
            let bot = change(&g, "american");
            let fixed = Level::parse(level).unwrap().rating();
            assert_eq!(bot["bot"], level, "{db}");
            assert_eq!(bot["before"]["rating"].as_f64(), Some(fixed), "{db}");
            assert_eq!(change(&g, "british")["before"], last, "{db}");
            let (after, _) = assert_glicko2(&st, &g, Outcomes::LOSS, "bots", &db).await;
            assert!(after["rating"].as_f64() < last["rating"].as_f64(), "{db}");
            last = after;
        }
        let b = board(&alice, "bots").await;
        assert_eq!(row(&b, "alice").unwrap()["rating"], last["rating"], "{db}");
        assert_eq!(row(&b, "alice").unwrap()["games"], 2, "{db}");
        assert_eq!(
            b["players"].as_array().unwrap().len(),
            1,
            "{db}: no bot listed"
        );
        assert_eq!(board(&alice, "human").await["players"], json!([]), "{db}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_the_ratings_and_applies_no_finished_game_again() {
    for db in databases().await {
        let (addr, st) = server_with(&db, Limits::default()).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let (id, _) = human_game(&alice, &bob).await;
        let ended = resign(&bob, &id).await;
        let before_restart = board(&alice, "human").await;
        let first = stored(&st, &id).await;
        assert_eq!(first.len(), 2, "{db}");
        // A second server on the same database: it loads the finished game from its record.
        let (addr2, st2) = server_with(&db, Limits::default()).await;
        let alice2 = Client::new(addr2).await;
        let (status, g) = alice2.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["ratings"], ended["ratings"], "{db}: the change is kept");
        assert_eq!(stored(&st2, &id).await, first, "{db}: and stored once");
        assert_eq!(g["rated"], true, "{db}");
        assert_eq!(board(&alice2, "human").await, before_restart, "{db}");
        assert_eq!(row(&before_restart, "alice").unwrap()["games"], 1, "{db}");
        // The next game there starts from the stored figures.
        let (status, v) = alice2
            .post(
                "/api/login",
                json!({"name": "alice", "password": "correct horse"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let bob2 = Client::new(addr2).await;
        let (status, v) = bob2
            .post(
                "/api/login",
                json!({"name": "bob", "password": "correct horse"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (id2, _) = human_game(&alice2, &bob2).await;
        let g2 = resign(&alice2, &id2).await;
        assert_eq!(
            change(&g2, "british")["before"],
            change(&ended, "british")["after"],
            "{db}"
        );
        assert_glicko2(&st2, &g2, Outcomes::LOSS, "human", &db).await;
        assert_eq!(
            row(&board(&alice2, "human").await, "alice").unwrap()["games"],
            2
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_of_one_player_ending_at_once_are_both_counted() {
    for db in databases().await {
        let (addr, st) = server_with(&db, Limits::default()).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let carol = Client::signup(addr, "carol").await;
        for round in 0..3 {
            let (one, _) = human_game(&alice, &bob).await;
            let (two, _) = human_game(&alice, &carol).await;
            let (g1, g2) = tokio::join!(resign(&bob, &one), resign(&carol, &two));
            // One was applied after the other: its before is the other's after.
            let (a1, a2) = (change(&g1, "british"), change(&g2, "british"));
            assert!(
                a1["before"] == a2["after"] || a2["before"] == a1["after"],
                "{db}: round {round}: {a1} / {a2}"
            );
            assert_glicko2(&st, &g1, Outcomes::WIN, "human", &db).await;
            assert_glicko2(&st, &g2, Outcomes::WIN, "human", &db).await;
            let b = board(&alice, "human").await;
            assert_eq!(row(&b, "alice").unwrap()["games"], 2 * (round + 1), "{db}");
        }
    }
}

/// Stores `n` accounts with ratings straight into the database (what many finished games
/// would leave): `pNN` rated 1000 + 10·NN over NN + 1 games.
async fn seed_ratings(st: &AppState, n: usize) {
    let mut stmts = Vec::new();
    for i in 0..n {
        let name = format!("p{i:02}");
        stmts.push(Stmt::new(
            "INSERT INTO users (id, name, pass_hash, created, name_key) VALUES ($1, $2, 'x', 0, $2)",
            vec![format!("id-{name}").into(), name.clone().into()],
        ));
        let rating = 1000.0 + 10.0 * i as f64;
        stmts.push(Stmt::new(
            "INSERT INTO ratings (user_id, game, pool, rating, deviation, volatility, games, sort, updated) VALUES ($1, 'battles', 'human', $2, '80', '0.06', $3, $4, 0)",
            vec![
                format!("id-{name}").into(),
                rating.to_string().into(),
                (i as i64 + 1).into(),
                ((rating * 1000.0) as i64).into(),
            ],
        ));
    }
    st.db.write(stmts).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_orders_by_rating_pages_and_refuses_bad_requests() {
    for db in databases().await {
        let (addr, st): (SocketAddr, AppState) = server_with(&db, Limits::default()).await;
        let per_page = muster_server::ratings::PAGE_SIZE as usize;
        seed_ratings(&st, per_page + 3).await;
        let c = Client::new(addr).await;
        let (status, first) = c.get("/api/ratings/battles").await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["pool"], "human", "{db}: the human pool by default");
        assert_eq!(first["page"], 1);
        assert_eq!(first["more"], true);
        let players = first["players"].as_array().unwrap();
        assert_eq!(players.len(), per_page, "{db}");
        // Highest first: p52, p51, ...
        assert_eq!(players[0]["player"], format!("p{:02}", per_page + 2));
        assert_eq!(players[0]["rank"], 1);
        assert!(
            players
                .windows(2)
                .all(|w| w[0]["rating"].as_f64() > w[1]["rating"].as_f64()),
            "{db}"
        );
        // Provisional: too few games (p00..p03 have 1 to 4), or a high deviation.
        assert_eq!(players[0]["provisional"], false, "{db}");
        let (_, second) = c.get("/api/ratings/battles?pool=human&page=2").await;
        let rest: Vec<&str> = second["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["player"].as_str().unwrap())
            .collect();
        assert_eq!(rest, ["p02", "p01", "p00"], "{db}: {second}");
        assert_eq!(second["more"], false);
        assert_eq!(second["players"][0]["rank"], per_page + 1);
        assert_eq!(second["players"][0]["provisional"], true, "{db}: 3 games");
        let (_, empty) = c.get("/api/ratings/battles?page=3").await;
        assert_eq!(empty["players"], json!([]));
        // Refusals.
        for (query, status, k) in [
            ("/api/ratings/chess", StatusCode::NOT_FOUND, "not_found"),
            (
                "/api/ratings/battles?pool=robots",
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown_pool",
            ),
            (
                "/api/ratings/battles?page=0",
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                "/api/ratings/battles?page=x",
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                "/api/ratings/battles?page=1&page=2",
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
            (
                "/api/ratings/battles?sort=name",
                StatusCode::BAD_REQUEST,
                "bad_request",
            ),
        ] {
            let (got, v) = c.get(query).await;
            assert_eq!((got, kind(&v)), (status, k), "{db}: {query}: {v}");
        }
    }
}
