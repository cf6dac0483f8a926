//! Accounts (issue 16 §6) against SQLite and PostgreSQL: the e-mail address confirmed by a
//! single-use, expiring link mailed through a real SMTP exchange (`common::smtp_receiver`);
//! notification mail only to a confirmed address; changing the password; resetting it by a
//! mailed link; deleting an account (its games kept, its name replaced); the public profile.
//! Time is the notifications' injected clock.

mod common;

use common::*;
use muster_server::Config;
use muster_server::notify::Settings;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

const T0: i64 = 1_800_000_000;
const PUBLIC: &str = "http://muster.example";

/// A server on `db` mailing through a receiver of its own; its clock at [`T0`].
async fn mail_server(db: &str) -> (SocketAddr, Arc<AtomicI64>, mpsc::UnboundedReceiver<Mail>) {
    let (smtp_port, mails) = smtp_receiver().await;
    let clock = Arc::new(AtomicI64::new(T0));
    let (addr, _) = server_config(Config {
        database: db.to_string(),
        notify: Settings {
            smtp: Some(format!("smtp://127.0.0.1:{smtp_port}")),
            public_url: PUBLIC.into(),
            mail_from: "Muster <muster@muster.example>".into(),
            clock: Some(clock.clone()),
            ..Settings::default()
        },
        ..Default::default()
    })
    .await;
    (addr, clock, mails)
}

/// Logs in as `name` with `password` in a new client: the client, or the refusal's status.
async fn login(addr: SocketAddr, name: &str, password: &str) -> Result<Client, StatusCode> {
    let c = Client::new(addr).await;
    let (status, _) = c
        .post("/api/login", json!({"name": name, "password": password}))
        .await;
    if status == StatusCode::OK {
        Ok(c)
    } else {
        Err(status)
    }
}

/// Opens `link` (a mailed one, on [`PUBLIC`]) on the server at `addr`, without cookies.
async fn open_link(addr: SocketAddr, link: &str) -> StatusCode {
    reqwest::get(link.replacen(PUBLIC, &format!("http://{addr}"), 1))
        .await
        .unwrap()
        .status()
}

/// The next mail, which must come.
async fn mail(mails: &mut mpsc::UnboundedReceiver<Mail>) -> Mail {
    next_mail(mails, Duration::from_secs(20))
        .await
        .expect("a mail within 20 s")
}

/// No mail within 1.5 s.
async fn no_mail(mails: &mut mpsc::UnboundedReceiver<Mail>, what: &str) {
    if let Some(m) = next_mail(mails, Duration::from_millis(1500)).await {
        panic!("{what}: a mail came: {m:?}");
    }
}

/// The token of a reset mail's link (`<public>/#/reset/<token>`).
fn reset_token(m: &Mail) -> String {
    let link = link_in(m, &format!("{PUBLIC}/#/reset/"))
        .unwrap_or_else(|| panic!("no reset link in {}", m.data));
    link.rsplit('/').next().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_is_confirmed_once_by_its_unexpired_link_and_only_a_confirmed_one_gets_mail() {
    for db in databases().await {
        let (addr, clock, mut mails) = mail_server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let (status, v) = alice
            .post(
                "/api/account/notifications",
                json!({"email": "alice@example.com"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["email_confirmed"], false, "{v}");
        let (_, account) = alice.get("/api/account").await;
        assert_eq!(account["name"], "alice");
        assert_eq!(account["email"], "alice@example.com");
        assert_eq!(account["email_confirmed"], false);
        let first = mail(&mut mails).await;
        assert_eq!(first.to, vec!["alice@example.com".to_string()]);
        let link = link_in(&first, &format!("{PUBLIC}/api/account/confirm?token="))
            .expect("a confirmation link");
        // Unconfirmed: her turn comes without a mail.
        let id = alice
            .game_vs_bot("freemans-farm", "british", "random")
            .await;
        no_mail(&mut mails, "a your-turn mail to an unconfirmed address").await;
        // Wrong and incomplete tokens confirm nothing.
        let wrong = format!("{PUBLIC}/api/account/confirm?token={}", "0".repeat(64));
        assert_eq!(open_link(addr, &wrong).await, StatusCode::NOT_FOUND);
        let short = format!("{PUBLIC}/api/account/confirm?token=abc");
        assert_eq!(open_link(addr, &short).await, StatusCode::BAD_REQUEST);
        let (_, v) = alice.get("/api/account/notifications").await;
        assert_eq!(v["email_confirmed"], false, "{db}: a wrong token confirmed");
        // The right link, opened without her session, confirms; once only.
        assert_eq!(open_link(addr, &link).await, StatusCode::OK);
        let (_, v) = alice.get("/api/account/notifications").await;
        assert_eq!(v["email_confirmed"], true, "{v}");
        assert_eq!(open_link(addr, &link).await, StatusCode::NOT_FOUND);
        // Now her turns are mailed (an hour on, past the your-turn interval).
        clock.store(T0 + 3600, Ordering::Relaxed);
        play_turn(&alice, &id).await;
        let turn = mail(&mut mails).await;
        assert_eq!(turn.to, vec!["alice@example.com".to_string()]);
        assert!(turn.data.contains("Subject: Your turn"), "{}", turn.data);
        // A new address is unconfirmed, and its link dies after 48 hours.
        let (_, v) = alice
            .post(
                "/api/account/notifications",
                json!({"email": "alice@example.org"}),
            )
            .await;
        assert_eq!(v["email_confirmed"], false, "{v}");
        let second = mail(&mut mails).await;
        assert_eq!(second.to, vec!["alice@example.org".to_string()]);
        let late = link_in(&second, &format!("{PUBLIC}/api/account/confirm?token=")).unwrap();
        clock.store(T0 + 3600 + 48 * 3600 + 1, Ordering::Relaxed);
        assert_eq!(open_link(addr, &late).await, StatusCode::GONE);
        let (_, v) = alice.get("/api/account").await;
        assert_eq!(
            v["email_confirmed"], false,
            "{db}: an expired link confirmed"
        );
        play_turn(&alice, &id).await;
        no_mail(&mut mails, "a your-turn mail to an unconfirmed new address").await;
        // A new link on request confirms it.
        let (status, v) = alice.post("/api/account/confirm", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let third = mail(&mut mails).await;
        assert_eq!(third.to, vec!["alice@example.org".to_string()]);
        let fresh = link_in(&third, &format!("{PUBLIC}/api/account/confirm?token=")).unwrap();
        assert_eq!(open_link(addr, &fresh).await, StatusCode::OK);
        let (_, v) = alice.get("/api/account").await;
        assert_eq!(v["email_confirmed"], true, "{v}");
        let (status, v) = alice.post("/api/account/confirm", json!({})).await;
        assert_eq!((status, kind(&v)), (StatusCode::CONFLICT, "confirmed"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changing_the_password_needs_the_old_one_and_ends_the_other_sessions_only() {
    for db in databases().await {
        let addr = server(&db).await;
        let here = Client::signup(addr, "alice").await;
        let there = login(addr, "alice", "correct horse").await.unwrap();
        let path = "/api/account/password";
        let (status, v) = here
            .post(path, json!({"old": "wrong horse", "new": "battery staple"}))
            .await;
        assert_eq!(
            (status, kind(&v)),
            (StatusCode::FORBIDDEN, "wrong_password")
        );
        let (status, v) = here
            .post(path, json!({"old": "correct horse", "new": "short"}))
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
        let (status, v) = here
            .post_raw(
                path,
                json!({"old": "correct horse", "new": "battery staple"})
                    .to_string()
                    .into_bytes(),
                None,
            )
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "csrf"));
        let nobody = Client::new(addr).await;
        let (status, _) = nobody
            .post(
                path,
                json!({"old": "correct horse", "new": "battery staple"}),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        // Refused changes changed nothing: the other session lives, the password is the same.
        assert_eq!(there.get("/api/account").await.0, StatusCode::OK);
        assert!(login(addr, "alice", "correct horse").await.is_ok());
        let (status, v) = here
            .post(
                path,
                json!({"old": "correct horse", "new": "battery staple"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(here.get("/api/account").await.0, StatusCode::OK);
        assert_eq!(
            there.get("/api/account").await.0,
            StatusCode::UNAUTHORIZED,
            "{db}: another session outlived the change"
        );
        assert_eq!(
            login(addr, "alice", "correct horse").await.err(),
            Some(StatusCode::UNAUTHORIZED)
        );
        assert!(login(addr, "alice", "battery staple").await.is_ok());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_link_goes_to_a_confirmed_address_sets_the_password_once_and_expires() {
    for db in databases().await {
        let (addr, clock, mut mails) = mail_server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        confirm_email(&alice, addr, PUBLIC, &mut mails, "alice@example.com").await;
        let nobody = Client::new(addr).await;
        let reset = "/api/password-reset";
        // The same answer for a name that exists and one that does not; a mail for the first.
        let (s1, unknown) = nobody.post(reset, json!({"name": "nobody"})).await;
        let (s2, known) = nobody.post(reset, json!({"name": "Alice"})).await;
        let (s3, by_mail) = nobody
            .post(reset, json!({"email": "ALICE@example.com"}))
            .await;
        assert_eq!(
            (s1, s2, s3),
            (StatusCode::OK, StatusCode::OK, StatusCode::OK)
        );
        assert_eq!(unknown, known, "{db}: the answer tells accounts apart");
        assert_eq!(unknown, by_mail);
        let m1 = mail(&mut mails).await;
        let m2 = mail(&mut mails).await;
        no_mail(&mut mails, "a mail for an unknown name").await;
        for m in [&m1, &m2] {
            assert_eq!(m.to, vec!["alice@example.com".to_string()]);
            assert!(m.data.contains("Subject: Reset your Muster password"));
        }
        let (t1, t2) = (reset_token(&m1), reset_token(&m2));
        let complete = "/api/password-reset/complete";
        let (status, v) = nobody
            .post(
                complete,
                json!({"token": "0".repeat(64), "new": "battery staple"}),
            )
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::BAD_REQUEST, "bad_token"));
        let (status, v) = nobody
            .post(complete, json!({"token": t1, "new": "short"}))
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
        let (status, v) = nobody
            .post_raw(
                complete,
                json!({"token": t1, "new": "battery staple"})
                    .to_string()
                    .into_bytes(),
                None,
            )
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "csrf"));
        assert!(login(addr, "alice", "correct horse").await.is_ok());
        // The link sets the password once; every session ends; the other link died with it.
        let (status, v) = nobody
            .post(complete, json!({"token": t1, "new": "battery staple"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(
            alice.get("/api/account").await.0,
            StatusCode::UNAUTHORIZED,
            "{db}: a session outlived the reset"
        );
        for t in [&t1, &t2] {
            let (status, v) = nobody
                .post(complete, json!({"token": t, "new": "another horse"}))
                .await;
            assert_eq!((status, kind(&v)), (StatusCode::BAD_REQUEST, "bad_token"));
        }
        assert!(login(addr, "alice", "correct horse").await.is_err());
        assert!(login(addr, "alice", "battery staple").await.is_ok());
        // A link an hour old is dead.
        nobody.post(reset, json!({"name": "alice"})).await;
        let t3 = reset_token(&mail(&mut mails).await);
        clock.store(T0 + 3601, Ordering::Relaxed);
        let (status, v) = nobody
            .post(complete, json!({"token": t3, "new": "another horse"}))
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::BAD_REQUEST, "bad_token"));
        assert!(login(addr, "alice", "battery staple").await.is_ok());
        // An unconfirmed address gets no reset link.
        let bob = Client::signup(addr, "bob").await;
        bob.post(
            "/api/account/notifications",
            json!({"email": "bob@example.com"}),
        )
        .await;
        let confirmation = mail(&mut mails).await;
        assert!(
            confirmation.data.contains("Confirm"),
            "{}",
            confirmation.data
        );
        let (status, same) = nobody.post(reset, json!({"name": "bob"})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(same, unknown);
        no_mail(&mut mails, "a reset link to an unconfirmed address").await;
        // Bad requests.
        for body in [
            json!({}),
            json!({"name": "a", "email": "a@b.c"}),
            json!({"who": "a"}),
        ] {
            let (status, v) = nobody.post(reset, body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        }
        let (status, v) = nobody
            .post_raw(reset, br#"{"name": "alice"}"#.to_vec(), None)
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "csrf"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_requests_from_one_address_are_limited() {
    for db in databases().await {
        let addr = server(&db).await;
        let c = Client::new(addr).await;
        for i in 0..muster_server::auth::RESET_ADDR_LIMIT {
            let (status, _) = c
                .post("/api/password-reset", json!({"name": format!("name{i}")}))
                .await;
            assert_eq!(status, StatusCode::OK);
        }
        let (status, v) = c
            .post("/api/password-reset", json!({"name": "one-more"}))
            .await;
        assert_eq!(
            (status, kind(&v)),
            (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_account_cannot_log_in_its_games_stay_with_its_name_replaced() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        let id = human_game(&alice, &bob).await.0;
        let game = format!("/api/games/{id}");
        let (status, v) = alice
            .post(&format!("{game}/chat"), json!({"text": "good luck"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        alice
            .post(
                "/api/account/notifications",
                json!({"webhook": "https://example.com/hook"}),
            )
            .await;
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let open_id = v["id"].as_str().unwrap().to_string();
        // Refused: a wrong password, no CSRF token, nobody logged in.
        let delete = "/api/account/delete";
        let (status, v) = alice.post(delete, json!({"password": "wrong horse"})).await;
        assert_eq!(
            (status, kind(&v)),
            (StatusCode::FORBIDDEN, "wrong_password")
        );
        let (status, v) = alice
            .post_raw(delete, br#"{"password": "correct horse"}"#.to_vec(), None)
            .await;
        assert_eq!((status, kind(&v)), (StatusCode::FORBIDDEN, "csrf"));
        let (status, _) = Client::new(addr)
            .await
            .post(delete, json!({"password": "correct horse"}))
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(login(addr, "alice", "correct horse").await.is_ok());
        let other = login(addr, "alice", "correct horse").await.unwrap();
        let (status, v) = alice
            .post(delete, json!({"password": "correct horse"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let new_name = v["name"].as_str().unwrap().to_string();
        assert!(new_name.starts_with("deleted-"), "{new_name}");
        // Every session ended; no log-in any more.
        for c in [&alice, &other] {
            assert_eq!(c.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
        }
        assert_eq!(
            login(addr, "alice", "correct horse").await.err(),
            Some(StatusCode::UNAUTHORIZED)
        );
        assert_eq!(
            login(addr, &new_name, "correct horse").await.err(),
            Some(StatusCode::UNAUTHORIZED)
        );
        // Bob's game is kept, showing the new name wherever the old one was.
        let (status, g) = bob.get(&game).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(g["status"], "active");
        assert_eq!(g["seats"][1]["player"], new_name.as_str(), "{}", g["seats"]);
        let (_, chat) = bob.get(&format!("{game}/chat")).await;
        assert_eq!(chat["messages"][0]["from"], new_name.as_str(), "{chat}");
        let (_, lobby) = bob.get("/api/lobby").await;
        let (_, watcher) = Client::new(addr).await.get(&game).await;
        for (what, v) in [
            ("game", &g),
            ("chat", &chat),
            ("lobby", &lobby),
            ("watcher", &watcher),
        ] {
            assert!(
                !v.to_string().contains("\"alice\""),
                "{db}: the old name in the {what}: {v}"
            );
        }
        // Her open game was withdrawn: nobody can join it.
        let (_, open_game) = bob.get(&format!("/api/games/{open_id}")).await;
        assert_eq!(open_game["status"], "withdrawn", "{open_game}");
        let (status, _) = bob
            .post(&format!("/api/games/{open_id}/join"), json!({}))
            .await;
        assert_ne!(status, StatusCode::OK);
        // A server started anew on the same database reads the new name from it.
        let again = server(&db).await;
        let bob_again = login(again, "bob", "correct horse").await.unwrap();
        let (status, g) = bob_again.get(&game).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(g["seats"][1]["player"], new_name.as_str());
        let (_, chat) = bob_again.get(&format!("{game}/chat")).await;
        assert_eq!(chat["messages"][0]["from"], new_name.as_str());
        // The profile of the deleted account is gone; the old name is free again.
        let (status, _) = bob.get(&format!("/api/users/{new_name}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = bob.get("/api/users/alice").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let newcomer = Client::signup(addr, "alice").await;
        let (_, p) = newcomer.get("/api/users/alice").await;
        assert_eq!(
            p["games"],
            json!([]),
            "{db}: the new alice inherited games: {p}"
        );
        let (_, settings) = newcomer.get("/api/account/notifications").await;
        assert_eq!(settings["webhook"], Value::Null);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_lists_public_games_and_counts_results_per_game() {
    for db in databases().await {
        let addr = server(&db).await;
        let alice = Client::signup(addr, "alice").await;
        let bob = Client::signup(addr, "bob").await;
        // Won: Bob resigns. Lost: Alice resigns. Drawn: a draw offered and accepted.
        let won = human_game(&alice, &bob).await.0;
        let (status, v) = bob
            .post(&format!("/api/games/{won}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let lost = human_game(&alice, &bob).await.0;
        let (status, v) = alice
            .post(&format!("/api/games/{lost}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let drawn = human_game(&alice, &bob).await.0;
        let (status, v) = alice
            .post(
                &format!("/api/games/{drawn}/offers"),
                json!({"kind": "draw"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, g) = bob.get(&format!("/api/games/{drawn}")).await;
        let (status, v) = bob
            .post(
                &format!("/api/games/{drawn}/offers/accept"),
                json!({"kind": "draw", "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let live = human_game(&alice, &bob).await.0;
        let (status, v) = alice
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let open_id = v["id"].as_str().unwrap().to_string();
        // Read by anyone, without logging in.
        let (status, p) = Client::new(addr).await.get("/api/users/ALICE").await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(p["name"], "alice");
        assert_eq!(
            p["results"],
            json!({"battles": {"won": 1, "lost": 1, "drawn": 1}}),
            "{db}: {p}"
        );
        let games = p["games"].as_array().unwrap();
        let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
        for id in [&won, &lost, &drawn, &live] {
            assert!(ids.contains(&id.as_str()), "{id} missing from {ids:?}");
        }
        assert!(!ids.contains(&open_id.as_str()), "an open game listed");
        let result_of = |id: &str| games.iter().find(|g| g["id"] == id).unwrap()["result"].clone();
        assert_eq!(result_of(&won), "won");
        assert_eq!(result_of(&lost), "lost");
        assert_eq!(result_of(&drawn), "drawn");
        assert_eq!(result_of(&live), Value::Null);
        let text = p.to_string();
        for secret in ["seed", "invite", "snapshot", "pass_hash"] {
            assert!(!text.contains(secret), "{secret} in the profile: {p}");
        }
        let (_, pb) = bob.get("/api/users/bob").await;
        assert_eq!(
            pb["results"],
            json!({"battles": {"won": 1, "lost": 1, "drawn": 1}}),
            "{pb}"
        );
        let (status, v) = bob.get("/api/users/nobody").await;
        assert_eq!((status, kind(&v)), (StatusCode::NOT_FOUND, "not_found"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_routes_refuse_nobody_logged_in_and_a_missing_csrf_token() {
    for db in databases().await {
        let addr = server(&db).await;
        let nobody = Client::new(addr).await;
        for path in ["/api/account", "/api/account/notifications"] {
            let (status, _) = nobody.get(path).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        }
        let posts = [
            ("/api/account/confirm", json!({})),
            (
                "/api/account/password",
                json!({"old": "correct horse", "new": "battery staple"}),
            ),
            ("/api/account/delete", json!({"password": "correct horse"})),
        ];
        for (path, body) in &posts {
            let (status, _) = nobody.post(path, body.clone()).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        }
        let erin = Client::signup(addr, "erin").await;
        for (path, body) in &posts {
            let (status, v) = erin
                .post_raw(path, body.to_string().into_bytes(), None)
                .await;
            assert_eq!(
                (status, kind(&v)),
                (StatusCode::FORBIDDEN, "csrf"),
                "{path}"
            );
            let (status, v) = erin
                .post_raw(path, b"{not json".to_vec(), Some(&erin.csrf()))
                .await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {v}");
        }
        // Without --smtp no link can go out: asking for one says so.
        erin.post(
            "/api/account/notifications",
            json!({"email": "erin@example.com"}),
        )
        .await;
        let (status, v) = erin.post("/api/account/confirm", json!({})).await;
        assert_eq!((status, kind(&v)), (StatusCode::CONFLICT, "no_mail"));
        // Erin is still there after all that.
        assert!(login(addr, "erin", "correct horse").await.is_ok());
        let (_, a) = erin.get("/api/account").await;
        assert_eq!(a["email_confirmed"], false);
    }
}
