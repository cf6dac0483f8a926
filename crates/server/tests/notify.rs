//! Notifications (issue 16 §1) against SQLite and PostgreSQL: real SMTP exchanges with a
//! receiver the test runs (`common::smtp_receiver`), real
//! HTTP calls to a webhook receiver the test runs; the "one your-turn mail per game per hour"
//! rule on an injected clock; unsubscribing without logging in; bad settings refused with
//! nothing stored.

mod common;

use common::*;
use muster_server::Config;
use muster_server::notify::Settings;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const T0: i64 = 1_800_000_000;

/// A server on `db` sending mail to the receiver on `smtp_port`, its clock at [`T0`].
async fn mail_server(db: &str, smtp_port: u16) -> (std::net::SocketAddr, Arc<AtomicI64>) {
    let clock = Arc::new(AtomicI64::new(T0));
    let (addr, _) = server_config(Config {
        database: db.to_string(),
        notify: Settings {
            smtp: Some(format!("smtp://127.0.0.1:{smtp_port}")),
            public_url: "http://muster.example".into(),
            mail_from: "Muster <muster@muster.example>".into(),
            clock: Some(clock.clone()),
            ..Settings::default()
        },
        ..Default::default()
    })
    .await;
    (addr, clock)
}

/// [`common::play_turn`], checking that the game goes on.
async fn play_turn(c: &Client, id: &str) {
    let g = common::play_turn(c, id).await;
    assert_eq!(
        g["status"], "active",
        "the game ended too soon for this test"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_turn_mail_goes_to_the_player_with_the_game_link_at_most_once_an_hour_unless_looked() {
    for db in databases().await {
        let (smtp_port, mut mails) = smtp_receiver().await;
        let (addr, clock) = mail_server(&db, smtp_port).await;
        let alice = Client::signup(addr, "alice").await;
        // Mail goes only to a confirmed address: she opens the link mailed to it first.
        confirm_email(
            &alice,
            addr,
            "http://muster.example",
            &mut mails,
            "alice@example.com",
        )
        .await;
        let (_, v) = alice.get("/api/account/notifications").await;
        assert_eq!(v["email"], "alice@example.com");
        // The Americans set up first (Freeman's Farm): the bot does, then it is Alice's turn.
        let id = alice
            .game_vs_bot("freemans-farm", "british", "random")
            .await;
        let mail = next_mail(&mut mails, Duration::from_secs(20))
            .await
            .unwrap_or_else(|| panic!("no your-turn mail ({db})"));
        assert_eq!(mail.to, vec!["alice@example.com".to_string()]);
        assert_eq!(mail.from, "muster@muster.example");
        assert!(
            mail.data.contains("Subject: Your turn: Freeman's Farm"),
            "{}",
            mail.data
        );
        assert!(
            mail.data
                .contains(&format!("http://muster.example/#/game/{id}")),
            "{}",
            mail.data
        );
        assert!(
            mail.data
                .contains("http://muster.example/api/unsubscribe?token="),
            "{}",
            mail.data
        );
        // Two more turns within the hour, looked at only at the very second of the mail (not
        // after it): no more mail.
        play_turn(&alice, &id).await;
        play_turn(&alice, &id).await;
        assert!(
            next_mail(&mut mails, Duration::from_millis(1500))
                .await
                .is_none(),
            "a second your-turn mail within the hour ({db})"
        );
        // An hour later: the next turn mails again.
        clock.store(T0 + 3600, Ordering::Relaxed);
        play_turn(&alice, &id).await;
        let second = next_mail(&mut mails, Duration::from_secs(20)).await;
        assert!(second.is_some(), "no mail an hour later ({db})");
        // A second after that mail she looks at the game: the next turn mails at once...
        clock.store(T0 + 3601, Ordering::Relaxed);
        let (status, _) = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        play_turn(&alice, &id).await;
        let third = next_mail(&mut mails, Duration::from_secs(20)).await;
        assert!(third.is_some(), "no mail after she looked ({db})");
        // ...but not the one after, as she has not looked since that mail.
        play_turn(&alice, &id).await;
        assert!(
            next_mail(&mut mails, Duration::from_millis(1500))
                .await
                .is_none(),
            "a mail although she has not looked since the last ({db})"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_unsubscribe_link_turns_mail_off_without_logging_in() {
    for db in databases().await {
        let (smtp_port, mut mails) = smtp_receiver().await;
        let (addr, clock) = mail_server(&db, smtp_port).await;
        let bob = Client::signup(addr, "bob").await;
        confirm_email(
            &bob,
            addr,
            "http://muster.example",
            &mut mails,
            "bob@example.com",
        )
        .await;
        let id = bob.game_vs_bot("freemans-farm", "british", "random").await;
        let mail = next_mail(&mut mails, Duration::from_secs(20))
            .await
            .expect("a your-turn mail");
        let start = mail
            .data
            .find("http://muster.example/api/unsubscribe")
            .unwrap();
        let link = mail.data[start..].split_whitespace().next().unwrap();
        let path = link.strip_prefix("http://muster.example").unwrap();
        // A browser without Bob's session: no cookie, no CSRF token.
        let anon = reqwest::Client::new();
        let page = anon
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), StatusCode::OK);
        assert!(page.text().await.unwrap().contains("No more mails"));
        let (_, settings) = bob.get("/api/account/notifications").await;
        assert_eq!(settings["mail"], false, "{settings}");
        assert_eq!(settings["email"], "bob@example.com");
        // A wrong token changes nothing and says so.
        let wrong = anon
            .get(format!(
                "http://{addr}/api/unsubscribe?token={}",
                "0".repeat(64)
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(wrong.status(), StatusCode::NOT_FOUND);
        // Hours later, Bob's turns come without mail.
        clock.store(T0 + 7200, Ordering::Relaxed);
        play_turn(&bob, &id).await;
        assert!(
            next_mail(&mut mails, Duration::from_millis(1500))
                .await
                .is_none(),
            "a mail after unsubscribing ({db})"
        );
    }
}

/// A webhook receiver: each request's body comes out of the channel; the first `fail`
/// requests are answered 500, and each answer waits `delay` first.
async fn hook_receiver(fail: usize, delay: Duration) -> (u16, mpsc::UnboundedReceiver<Value>) {
    use axum::routing::post;
    let (tx, rx) = mpsc::unbounded_channel();
    let seen = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let app = axum::Router::new().route(
        "/hook",
        post(move |body: axum::body::Bytes| {
            let (tx, seen) = (tx.clone(), seen.clone());
            async move {
                let _ = tx.send(serde_json::from_slice(&body).unwrap_or(Value::Null));
                tokio::time::sleep(delay).await;
                if seen.fetch_add(1, Ordering::Relaxed) < fail {
                    StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    StatusCode::NO_CONTENT
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (port, rx)
}

/// A server on `db` whose webhooks may call loopback (the test's receiver).
async fn hook_server(db: &str, timeout: Duration) -> std::net::SocketAddr {
    server_config(Config {
        database: db.to_string(),
        notify: Settings {
            public_url: "https://muster.example".into(),
            allow_private_hooks: true,
            hook_timeout: timeout,
            hook_tries: 3,
            hook_backoff: Duration::from_millis(200),
            ..Settings::default()
        },
        ..Default::default()
    })
    .await
    .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_gets_the_event_payload_and_is_retried_after_a_failed_answer() {
    for db in databases().await {
        let (port, mut calls) = hook_receiver(1, Duration::ZERO).await;
        let addr = hook_server(&db, Duration::from_secs(5)).await;
        let carol = Client::signup(addr, "carol").await;
        let hook = format!("http://127.0.0.1:{port}/hook");
        let (status, v) = carol
            .post("/api/account/notifications", json!({"webhook": hook}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["webhook"], hook);
        let id = carol
            .game_vs_bot("freemans-farm", "british", "random")
            .await;
        let wait = Duration::from_secs(10);
        let first = tokio::time::timeout(wait, calls.recv())
            .await
            .unwrap()
            .unwrap();
        let again = tokio::time::timeout(wait, calls.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(first, again, "the retry carries the same payload");
        assert_eq!(first["event"], "your_turn");
        assert_eq!(first["game"], id.as_str());
        let url = format!("https://muster.example/#/game/{id}");
        assert_eq!(first["url"], url.as_str());
        for member in ["text", "content"] {
            let text = first[member].as_str().unwrap();
            assert!(
                text.starts_with("It is your turn in Freeman's Farm") && text.ends_with(&url),
                "{member}: {text}"
            );
        }
        // Answered 204 the second time: no third call.
        assert!(
            tokio::time::timeout(Duration::from_millis(1500), calls.recv())
                .await
                .is_err(),
            "called again after a 2xx ({db})"
        );
    }
}

/// A hook that never answers is cut at the timeout and called again, three calls in all
/// (`hook_tries`), each with the same payload; then it is given up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_that_hangs_is_cut_at_its_timeout_tried_three_times_then_given_up() {
    for db in databases().await {
        let (port, mut calls) = hook_receiver(0, Duration::from_secs(60)).await;
        let addr = hook_server(&db, Duration::from_millis(300)).await;
        let erin = Client::signup(addr, "erin").await;
        erin.post(
            "/api/account/notifications",
            json!({"webhook": format!("http://127.0.0.1:{port}/hook")}),
        )
        .await;
        let id = erin.game_vs_bot("freemans-farm", "british", "random").await;
        let mut got = Vec::new();
        for _ in 0..3 {
            let call = tokio::time::timeout(Duration::from_secs(10), calls.recv())
                .await
                .unwrap_or_else(|_| panic!("{db}: only {} calls", got.len()))
                .unwrap();
            got.push(call);
        }
        assert!(got.iter().all(|c| c == &got[0]), "{db}: {got:?}");
        assert_eq!(got[0]["event"], "your_turn", "{db}");
        assert_eq!(got[0]["game"], id.as_str(), "{db}");
        // Given up after the third: no fourth call (nothing else happens in the game).
        assert!(
            tokio::time::timeout(Duration::from_secs(2), calls.recv())
                .await
                .is_err(),
            "{db}: a fourth call"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_that_never_answers_does_not_slow_moves() {
    for db in databases().await {
        let (port, mut calls) = hook_receiver(0, Duration::from_secs(60)).await;
        let addr = hook_server(&db, Duration::from_secs(1)).await;
        let dave = Client::signup(addr, "dave").await;
        dave.post(
            "/api/account/notifications",
            json!({"webhook": format!("http://127.0.0.1:{port}/hook")}),
        )
        .await;
        let id = dave.game_vs_bot("freemans-farm", "british", "random").await;
        let started = Instant::now();
        for _ in 0..4 {
            play_turn(&dave, &id).await;
        }
        let took = started.elapsed();
        // Each turn's call hangs for a minute (cut after 1 s, three tries); the moves do not
        // wait for any of them.
        assert!(
            took < Duration::from_secs(4),
            "four turns took {took:?} ({db})"
        );
        assert!(calls.recv().await.is_some(), "the hook was called");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_notification_settings_are_refused_and_nothing_is_stored() {
    for db in databases().await {
        let addr = server(&db).await;
        let erin = Client::signup(addr, "erin").await;
        let path = "/api/account/notifications";
        let (status, before) = erin.get(path).await;
        assert_eq!(status, StatusCode::OK);
        for (body, want) in [
            (json!({"webhook": "not a url"}), "bad_webhook"),
            (json!({"webhook": "ftp://example.com/hook"}), "bad_webhook"),
            (json!({"webhook": "javascript:alert(1)"}), "bad_webhook"),
            // Private addresses: off by default (server-side request forgery).
            (json!({"webhook": "http://127.0.0.1:9/hook"}), "bad_webhook"),
            (json!({"webhook": "http://10.1.2.3/hook"}), "bad_webhook"),
            (json!({"webhook": "http://[::1]/hook"}), "bad_webhook"),
            (
                json!({"webhook": "http://169.254.169.254/latest"}),
                "bad_webhook",
            ),
            (json!({"email": "no at sign"}), "bad_email"),
            (
                json!({"email": "ok@example.com", "events": {"bogus": true}}),
                "unknown_event",
            ),
        ] {
            let (status, v) = erin.post(path, body.clone()).await;
            assert_eq!(
                (status, kind(&v)),
                (StatusCode::UNPROCESSABLE_ENTITY, want),
                "{body}: {v}"
            );
        }
        let (status, _) = erin.post(path, json!({"colour": "red"})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        // Without the CSRF token, and without a session.
        let (status, v) = erin
            .post_raw(
                path,
                br#"{"webhook": "https://example.com/hook"}"#.to_vec(),
                None,
            )
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "csrf"));
        let stranger = Client::new(addr).await;
        let (status, _) = stranger
            .post(path, json!({"webhook": "https://example.com/hook"}))
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _) = stranger.get(path).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (_, after) = erin.get(path).await;
        assert_eq!(before, after, "a refused change stored something ({db})");
        // A good change is stored, and events switch one by one.
        let (status, v) = erin
            .post(
                path,
                json!({"webhook": "https://example.com/hook", "events": {"chat": false}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, after) = erin.get(path).await;
        assert_eq!(after["webhook"], "https://example.com/hook");
        assert_eq!(after["events"]["chat"], false);
        assert_eq!(after["events"]["your_turn"], true);
        // null clears it.
        let (_, v) = erin.post(path, json!({"webhook": null})).await;
        assert_eq!(v["webhook"], Value::Null);
    }
}

/// Collects the webhook calls of `rx` that are not "your turn" until `n` have come (or 10 s
/// pass), then waits `quiet` more for any that should not come.
async fn hooks_but_turns(
    rx: &mut mpsc::UnboundedReceiver<Value>,
    n: usize,
    quiet: Duration,
) -> Vec<Value> {
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while out.len() < n {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, rx.recv()).await {
            Ok(Some(v)) if v["event"] != "your_turn" => out.push(v),
            Ok(Some(_)) => {}
            _ => break,
        }
    }
    while let Ok(Some(v)) = tokio::time::timeout(quiet, rx.recv()).await {
        if v["event"] != "your_turn" {
            out.push(v);
        }
    }
    out
}

fn texts(calls: &[Value]) -> Vec<String> {
    calls
        .iter()
        .map(|v| {
            format!(
                "{}: {}",
                v["event"].as_str().unwrap_or("?"),
                v["text"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_offers_endings_and_rematches_notify_the_players_they_concern_and_no_one_else() {
    for db in databases().await {
        let addr = hook_server(&db, Duration::from_secs(5)).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let carol = Client::signup(addr, "carol").await;
        let mut rx = Vec::new();
        for who in [&alice, &bob] {
            let (port, calls) = hook_receiver(0, Duration::ZERO).await;
            let (status, v) = who
                .post(
                    "/api/account/notifications",
                    json!({"webhook": format!("http://127.0.0.1:{port}/hook")}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
            rx.push(calls);
        }
        let (mut to_alice, mut to_bob) = (rx.remove(0), rx.remove(0));
        let (id, _) = human_game(&alice, &bob).await;
        let path = format!("/api/games/{id}");
        let quiet = Duration::from_millis(700);

        // Chat in the players' channel tells the other player, not the author; the
        // spectators' channel tells nobody; a muted author tells nobody.
        let chat = format!("{path}/chat");
        assert_eq!(
            alice.post(&chat, json!({"text": "Good luck, Bob"})).await.0,
            StatusCode::OK
        );
        assert_eq!(
            carol.post(&chat, json!({"text": "watching"})).await.0,
            StatusCode::OK
        );
        let got = hooks_but_turns(&mut to_bob, 1, quiet).await;
        assert_eq!(got.len(), 1, "{:?}", texts(&got));
        assert_eq!(got[0]["event"], "chat");
        assert_eq!(got[0]["game"], id.as_str());
        let text = got[0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("alice wrote in Oriskany") && text.contains("Good luck, Bob"),
            "{text}"
        );
        assert!(
            got[0].get("author").is_none(),
            "the author's account id stays out: {}",
            got[0]
        );
        assert_eq!(
            bob.post(
                "/api/account/mutes",
                json!({"name": "alice", "muted": true})
            )
            .await
            .0,
            StatusCode::OK
        );
        assert_eq!(
            alice.post(&chat, json!({"text": "still there?"})).await.0,
            StatusCode::OK
        );
        assert!(
            hooks_but_turns(&mut to_bob, 0, quiet).await.is_empty(),
            "a muted author's message was notified"
        );
        assert!(
            hooks_but_turns(&mut to_alice, 0, quiet).await.is_empty(),
            "the author was told of their own messages"
        );

        // A draw offer tells the other player; accepting it tells the offerer, not the one who
        // accepted.
        let offers = format!("{path}/offers");
        assert_eq!(
            alice.post(&offers, json!({"kind": "draw"})).await.0,
            StatusCode::OK
        );
        let got = hooks_but_turns(&mut to_bob, 1, quiet).await;
        assert_eq!(texts(&got).len(), 1, "{:?}", texts(&got));
        assert_eq!(got[0]["event"], "offer");
        assert!(
            got[0]["text"]
                .as_str()
                .unwrap()
                .starts_with("alice offers a draw in Oriskany"),
            "{}",
            got[0]
        );
        assert!(
            hooks_but_turns(&mut to_alice, 0, quiet).await.is_empty(),
            "the offerer was told of her own offer"
        );
        let (status, v) = bob
            .post(&format!("{offers}/accept"), json!({"kind": "draw"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let got = hooks_but_turns(&mut to_alice, 1, quiet).await;
        assert_eq!(got.len(), 1, "{:?}", texts(&got));
        assert_eq!(got[0]["event"], "game_over");
        assert!(
            got[0]["text"]
                .as_str()
                .unwrap()
                .contains("the players agreed a draw"),
            "{}",
            got[0]
        );
        assert!(
            hooks_but_turns(&mut to_bob, 0, quiet).await.is_empty(),
            "the player who accepted was told"
        );

        // A rematch offer tells the other player; accepting it seats the offerer in the new
        // game, which tells the offerer ("invited", with the new game's id).
        assert_eq!(
            bob.post(&offers, json!({"kind": "rematch", "swap": true}))
                .await
                .0,
            StatusCode::OK
        );
        let got = hooks_but_turns(&mut to_alice, 1, quiet).await;
        assert_eq!(got.len(), 1, "{:?}", texts(&got));
        assert_eq!(got[0]["event"], "offer");
        assert!(
            got[0]["text"]
                .as_str()
                .unwrap()
                .starts_with("bob offers a rematch with the sides swapped"),
            "{}",
            got[0]
        );
        let (status, v) = alice
            .post(&format!("{offers}/accept"), json!({"kind": "rematch"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let new_id = v["rematch"].as_str().expect("the rematch's id").to_string();
        let got = hooks_but_turns(&mut to_bob, 1, quiet).await;
        assert_eq!(got.len(), 1, "{:?}", texts(&got));
        assert_eq!(got[0]["event"], "invited");
        assert_eq!(got[0]["game"], new_id.as_str());
        assert!(
            got[0]["text"]
                .as_str()
                .unwrap()
                .starts_with("alice seated you in a new game of Oriskany"),
            "{}",
            got[0]
        );
        assert!(
            got[0]["url"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/#/game/{new_id}"))
        );
        assert!(
            hooks_but_turns(&mut to_alice, 0, quiet).await.is_empty(),
            "the player who accepted was told"
        );

        // A resignation tells the other player, not the one who resigned; a kind switched
        // off is not sent.
        assert_eq!(
            alice
                .post(
                    "/api/account/notifications",
                    json!({"events": {"game_over": false}})
                )
                .await
                .0,
            StatusCode::OK
        );
        let (status, v) = bob
            .post(&format!("/api/games/{new_id}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(
            hooks_but_turns(&mut to_alice, 0, quiet).await.is_empty(),
            "game_over was off"
        );
        assert!(
            hooks_but_turns(&mut to_bob, 0, quiet).await.is_empty(),
            "the player who resigned was told"
        );
        assert_eq!(
            alice
                .post(
                    "/api/account/notifications",
                    json!({"events": {"game_over": true}})
                )
                .await
                .0,
            StatusCode::OK
        );
        let (status, v) = bob
            .post(
                &format!("/api/games/{new_id}/offers"),
                json!({"kind": "rematch"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = alice
            .post(
                &format!("/api/games/{new_id}/offers/accept"),
                json!({"kind": "rematch"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let third = v["rematch"]
            .as_str()
            .expect("the second rematch")
            .to_string();
        let _ = hooks_but_turns(&mut to_alice, 1, quiet).await; // the rematch offer
        let _ = hooks_but_turns(&mut to_bob, 1, quiet).await; // invited
        let (status, v) = alice
            .post(&format!("/api/games/{third}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let got = hooks_but_turns(&mut to_bob, 1, quiet).await;
        assert_eq!(got.len(), 1, "{:?}", texts(&got));
        assert_eq!(got[0]["event"], "game_over");
        assert_eq!(got[0]["game"], third.as_str());
        assert!(
            got[0]["text"]
                .as_str()
                .unwrap()
                .contains("alice resigned: the"),
            "{}",
            got[0]
        );
        assert!(
            hooks_but_turns(&mut to_alice, 0, quiet).await.is_empty(),
            "the player who resigned was told"
        );
    }
}
