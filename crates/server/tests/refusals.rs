//! Issue 16 §7: every route of issue 16 refuses bad input, strangers, the wrong seat and a
//! stale version — and a refused request changes nothing. One table of refusals, against
//! SQLite and PostgreSQL; after each one, everything the players, a stranger and a spectator
//! can read (the games, the lobby, offers, both chat channels, the notepads, the accounts'
//! settings, mutes and vacations, the live and finished lists, the profiles) is read again
//! and must be exactly as it was before it.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Who sends a request.
#[derive(Clone, Copy, Debug)]
enum Who {
    /// The British player of the games, who made them.
    Alice,
    /// The American player of the active and the finished game.
    Bob,
    /// A logged-in account seated in none of them.
    Carol,
    /// Nobody logged in.
    Nobody,
}

/// How a `POST` is sent.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Csrf {
    With,
    Without,
}

/// One refusal: who asks what, and the status and error kind expected (`""` for the
/// routes whose answer is a page rather than JSON).
struct Refusal {
    what: &'static str,
    who: Who,
    get: bool,
    csrf: Csrf,
    path: String,
    body: Vec<u8>,
    status: StatusCode,
    kind: &'static str,
}

fn post(
    who: Who,
    path: String,
    body: Value,
    status: StatusCode,
    kind: &'static str,
    what: &'static str,
) -> Refusal {
    Refusal {
        what,
        who,
        get: false,
        csrf: Csrf::With,
        path,
        body: body.to_string().into_bytes(),
        status,
        kind,
    }
}

fn raw(
    who: Who,
    path: String,
    body: &[u8],
    status: StatusCode,
    kind: &'static str,
    what: &'static str,
) -> Refusal {
    Refusal {
        body: body.to_vec(),
        ..post(who, path, Value::Null, status, kind, what)
    }
}

fn no_csrf(who: Who, path: String, body: Value, what: &'static str) -> Refusal {
    Refusal {
        csrf: Csrf::Without,
        ..post(who, path, body, StatusCode::FORBIDDEN, "csrf", what)
    }
}

fn get(
    who: Who,
    path: String,
    status: StatusCode,
    kind: &'static str,
    what: &'static str,
) -> Refusal {
    Refusal {
        get: true,
        ..post(who, path, Value::Null, status, kind, what)
    }
}

struct World {
    alice: Client,
    bob: Client,
    carol: Client,
    nobody: Client,
    /// Active, Bob (American) to act, a draw offered by Alice, a message in each channel,
    /// Alice's notepad written.
    active: String,
    /// Open, made by Alice, nobody joined.
    open: String,
    /// Finished (Bob resigned), a rematch offered by Alice.
    over: String,
}

impl World {
    fn client(&self, who: Who) -> &Client {
        match who {
            Who::Alice => &self.alice,
            Who::Bob => &self.bob,
            Who::Carol => &self.carol,
            Who::Nobody => &self.nobody,
        }
    }

    /// Everything a refusal might have changed, as each of them reads it.
    async fn everything(&self) -> Vec<(String, StatusCode, Value)> {
        let mut reads = Vec::new();
        let games = [&self.active, &self.open, &self.over];
        for who in [Who::Alice, Who::Bob, Who::Carol, Who::Nobody] {
            let mut paths = vec![
                "/api/lobby".to_string(),
                "/api/games/live".into(),
                "/api/games/finished".into(),
                "/api/users/alice".into(),
                "/api/users/bob".into(),
            ];
            for g in games {
                for tail in [
                    "",
                    "/offers",
                    "/chat",
                    "/chat?channel=spectators",
                    "/notes",
                    "/history",
                ] {
                    paths.push(format!("/api/games/{g}{tail}"));
                }
            }
            if !matches!(who, Who::Nobody) {
                for p in [
                    "/api/account",
                    "/api/account/notifications",
                    "/api/account/mutes",
                    "/api/account/vacation",
                ] {
                    paths.push(p.into());
                }
            }
            for p in paths {
                let (status, v) = self.client(who).get(&p).await;
                reads.push((format!("{who:?} GET {p}"), status, v));
            }
        }
        reads
    }

    async fn send(&self, r: &Refusal) -> (StatusCode, Value) {
        let c = self.client(r.who);
        if r.get {
            return c.get(&r.path).await;
        }
        let csrf = c.csrf();
        let token = (r.csrf == Csrf::With).then_some(csrf.as_str());
        c.post_raw(&r.path, r.body.clone(), token).await
    }
}

async fn world(db: &str) -> World {
    let addr = server(db).await;
    let alice = Client::signup(addr, "alice").await;
    let bob = Client::signup(addr, "bob").await;
    let carol = Client::signup(addr, "carol").await;
    let nobody = Client::new(addr).await;
    let (active, g) = human_game(&alice, &bob).await;
    assert_eq!(g["to_act"], "american");
    let ok = |(status, v): (StatusCode, Value)| assert_eq!(status, StatusCode::OK, "{v}");
    let a = format!("/api/games/{active}");
    ok(alice
        .post(&format!("{a}/offers"), json!({"kind": "draw"}))
        .await);
    ok(alice
        .post(&format!("{a}/chat"), json!({"text": "good luck"}))
        .await);
    ok(carol
        .post(
            &format!("{a}/chat"),
            json!({"text": "watching", "channel": "spectators"}),
        )
        .await);
    ok(alice
        .post(&format!("{a}/notes"), json!({"text": "hold the ravine"}))
        .await);
    let (over, _) = human_game(&alice, &bob).await;
    let o = format!("/api/games/{over}");
    ok(bob.post(&format!("{o}/resign"), json!({})).await);
    ok(alice
        .post(
            &format!("{o}/offers"),
            json!({"kind": "rematch", "swap": true}),
        )
        .await);
    let (status, v) = alice
        .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let open = v["id"].as_str().unwrap().to_string();
    World {
        alice,
        bob,
        carol,
        nobody,
        active,
        open,
        over,
    }
}

/// The table: each issue-16 route with each refusal that applies to it.
fn refusals(w: &World, version: i64) -> Vec<Refusal> {
    use StatusCode as S;
    use Who::*;
    let a = format!("/api/games/{}", w.active);
    let o = format!("/api/games/{}", w.open);
    let f = format!("/api/games/{}", w.over);
    let none = "/api/games/0000000000000000".to_string();
    let long = "x".repeat(501);
    vec![
        // Resign.
        post(
            Nobody,
            format!("{a}/resign"),
            json!({}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "resign: nobody logged in",
        ),
        post(
            Carol,
            format!("{a}/resign"),
            json!({}),
            S::FORBIDDEN,
            "forbidden",
            "resign: a stranger",
        ),
        no_csrf(
            Alice,
            format!("{a}/resign"),
            json!({}),
            "resign: no CSRF token",
        ),
        post(
            Alice,
            format!("{a}/resign"),
            json!({"side": "american"}),
            S::BAD_REQUEST,
            "bad_request",
            "resign: an unknown member",
        ),
        raw(
            Alice,
            format!("{a}/resign"),
            b"{not json",
            S::BAD_REQUEST,
            "bad_request",
            "resign: malformed JSON",
        ),
        post(
            Alice,
            format!("{o}/resign"),
            json!({}),
            S::CONFLICT,
            "not_started",
            "resign: an open game",
        ),
        post(
            Alice,
            format!("{f}/resign"),
            json!({}),
            S::UNPROCESSABLE_ENTITY,
            "game_over",
            "resign: a finished game",
        ),
        post(
            Alice,
            format!("{none}/resign"),
            json!({}),
            S::NOT_FOUND,
            "not_found",
            "resign: an unknown game",
        ),
        // Withdraw.
        post(
            Nobody,
            format!("{o}/withdraw"),
            json!({}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "withdraw: nobody logged in",
        ),
        post(
            Carol,
            format!("{o}/withdraw"),
            json!({}),
            S::FORBIDDEN,
            "forbidden",
            "withdraw: a stranger",
        ),
        post(
            Bob,
            format!("{o}/withdraw"),
            json!({}),
            S::FORBIDDEN,
            "forbidden",
            "withdraw: not its creator",
        ),
        no_csrf(
            Alice,
            format!("{o}/withdraw"),
            json!({}),
            "withdraw: no CSRF token",
        ),
        post(
            Alice,
            format!("{o}/withdraw"),
            json!({"now": true}),
            S::BAD_REQUEST,
            "bad_request",
            "withdraw: an unknown member",
        ),
        post(
            Alice,
            format!("{a}/withdraw"),
            json!({}),
            S::CONFLICT,
            "not_open",
            "withdraw: a started game",
        ),
        post(
            Alice,
            format!("{none}/withdraw"),
            json!({}),
            S::NOT_FOUND,
            "not_found",
            "withdraw: an unknown game",
        ),
        // Offers.
        get(
            Nobody,
            format!("{a}/offers"),
            S::UNAUTHORIZED,
            "unauthenticated",
            "offers: nobody reads them",
        ),
        get(
            Carol,
            format!("{a}/offers"),
            S::FORBIDDEN,
            "forbidden",
            "offers: a stranger reads them",
        ),
        post(
            Nobody,
            format!("{a}/offers"),
            json!({"kind": "draw"}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "offer: nobody logged in",
        ),
        post(
            Carol,
            format!("{a}/offers"),
            json!({"kind": "draw"}),
            S::FORBIDDEN,
            "forbidden",
            "offer: a stranger",
        ),
        no_csrf(
            Bob,
            format!("{a}/offers"),
            json!({"kind": "draw"}),
            "offer: no CSRF token",
        ),
        post(
            Bob,
            format!("{a}/offers"),
            json!({"kind": "truce"}),
            S::BAD_REQUEST,
            "bad_request",
            "offer: an unknown kind",
        ),
        post(
            Bob,
            format!("{a}/offers"),
            json!({"kind": "draw", "swap": true}),
            S::BAD_REQUEST,
            "bad_request",
            "offer: a draw with swap",
        ),
        post(
            Bob,
            format!("{a}/offers"),
            json!({"kind": "draw"}),
            S::CONFLICT,
            "offer_open",
            "offer: a draw is open already",
        ),
        post(
            Bob,
            format!("{a}/offers"),
            json!({"kind": "rematch", "swap": false}),
            S::CONFLICT,
            "not_over",
            "offer: a rematch of a game under way",
        ),
        post(
            Alice,
            format!("{o}/offers"),
            json!({"kind": "draw"}),
            S::CONFLICT,
            "not_started",
            "offer: a draw in an open game",
        ),
        post(
            Bob,
            format!("{f}/offers"),
            json!({"kind": "draw"}),
            S::UNPROCESSABLE_ENTITY,
            "game_over",
            "offer: a draw in a finished game",
        ),
        post(
            Bob,
            format!("{f}/offers"),
            json!({"kind": "rematch", "swap": false}),
            S::CONFLICT,
            "offer_open",
            "offer: a rematch is open already",
        ),
        post(
            Alice,
            format!("{a}/offers/accept"),
            json!({"kind": "draw"}),
            S::FORBIDDEN,
            "forbidden",
            "accept: one's own offer (the wrong seat)",
        ),
        post(
            Carol,
            format!("{a}/offers/accept"),
            json!({"kind": "draw"}),
            S::FORBIDDEN,
            "forbidden",
            "accept: a stranger",
        ),
        post(
            Nobody,
            format!("{a}/offers/accept"),
            json!({"kind": "draw"}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "accept: nobody logged in",
        ),
        no_csrf(
            Bob,
            format!("{a}/offers/accept"),
            json!({"kind": "draw"}),
            "accept: no CSRF token",
        ),
        post(
            Bob,
            format!("{a}/offers/accept"),
            json!({"kind": "draw", "version": version - 1}),
            S::CONFLICT,
            "stale",
            "accept: a stale version",
        ),
        post(
            Bob,
            format!("{a}/offers/accept"),
            json!({"kind": "rematch"}),
            S::CONFLICT,
            "no_offer",
            "accept: no such offer open",
        ),
        post(
            Bob,
            format!("{a}/offers/accept"),
            json!({"kind": "draw", "at": 1}),
            S::BAD_REQUEST,
            "bad_request",
            "accept: an unknown member",
        ),
        post(
            Bob,
            format!("{a}/offers/accept"),
            json!({}),
            S::BAD_REQUEST,
            "bad_request",
            "accept: no kind",
        ),
        post(
            Alice,
            format!("{f}/offers/accept"),
            json!({"kind": "rematch"}),
            S::FORBIDDEN,
            "forbidden",
            "accept: one's own rematch",
        ),
        post(
            Alice,
            format!("{a}/offers/decline"),
            json!({"kind": "draw"}),
            S::FORBIDDEN,
            "forbidden",
            "decline: one's own offer",
        ),
        post(
            Carol,
            format!("{a}/offers/decline"),
            json!({"kind": "draw"}),
            S::FORBIDDEN,
            "forbidden",
            "decline: a stranger",
        ),
        no_csrf(
            Bob,
            format!("{a}/offers/decline"),
            json!({"kind": "draw"}),
            "decline: no CSRF token",
        ),
        post(
            Bob,
            format!("{a}/offers/decline"),
            json!({"kind": "rematch"}),
            S::CONFLICT,
            "no_offer",
            "decline: no such offer open",
        ),
        post(
            Bob,
            format!("{a}/offers/withdraw"),
            json!({"kind": "draw"}),
            S::FORBIDDEN,
            "forbidden",
            "take back: another's offer",
        ),
        post(
            Carol,
            format!("{a}/offers/withdraw"),
            json!({"kind": "draw"}),
            S::FORBIDDEN,
            "forbidden",
            "take back: a stranger",
        ),
        no_csrf(
            Alice,
            format!("{a}/offers/withdraw"),
            json!({"kind": "draw"}),
            "take back: no CSRF token",
        ),
        post(
            Alice,
            format!("{a}/offers/withdraw"),
            json!({"kind": "truce"}),
            S::BAD_REQUEST,
            "bad_request",
            "take back: an unknown kind",
        ),
        post(
            Bob,
            format!("{f}/rematch"),
            json!({}),
            S::NOT_FOUND,
            "not_found",
            "rematch: the old route that seated without asking is gone",
        ),
        // Chat.
        get(
            Carol,
            format!("{a}/chat?channel=players"),
            S::FORBIDDEN,
            "forbidden",
            "chat: a stranger reads the players' channel",
        ),
        get(
            Nobody,
            format!("{a}/chat?channel=players"),
            S::FORBIDDEN,
            "forbidden",
            "chat: nobody reads the players' channel",
        ),
        get(
            Alice,
            format!("{a}/chat?channel=everyone"),
            S::BAD_REQUEST,
            "bad_request",
            "chat: an unknown channel",
        ),
        get(
            Alice,
            format!("{a}/chat?since=3"),
            S::BAD_REQUEST,
            "bad_request",
            "chat: an unknown parameter",
        ),
        get(
            Alice,
            format!("{none}/chat"),
            S::NOT_FOUND,
            "not_found",
            "chat: an unknown game",
        ),
        post(
            Carol,
            format!("{a}/chat"),
            json!({"text": "hi", "channel": "players"}),
            S::FORBIDDEN,
            "forbidden",
            "chat: a stranger posts to the players",
        ),
        post(
            Nobody,
            format!("{a}/chat"),
            json!({"text": "hi", "channel": "spectators"}),
            S::FORBIDDEN,
            "forbidden",
            "chat: nobody logged in posts",
        ),
        post(
            Alice,
            format!("{a}/chat"),
            json!({"text": "hi", "channel": "spectators"}),
            S::FORBIDDEN,
            "forbidden",
            "chat: a player posts to the spectators",
        ),
        no_csrf(
            Alice,
            format!("{a}/chat"),
            json!({"text": "hi"}),
            "chat: no CSRF token",
        ),
        post(
            Alice,
            format!("{a}/chat"),
            json!({"text": "  "}),
            S::BAD_REQUEST,
            "bad_request",
            "chat: empty text",
        ),
        post(
            Alice,
            format!("{a}/chat"),
            json!({"text": "a\u{7}b"}),
            S::BAD_REQUEST,
            "bad_request",
            "chat: a control character",
        ),
        post(
            Alice,
            format!("{a}/chat"),
            json!({"text": long}),
            S::UNPROCESSABLE_ENTITY,
            "too_long",
            "chat: over 500 characters",
        ),
        post(
            Alice,
            format!("{a}/chat"),
            json!({"text": "hi", "bold": true}),
            S::BAD_REQUEST,
            "bad_request",
            "chat: an unknown member",
        ),
        post(
            Alice,
            format!("{a}/chat"),
            json!({"text": 5}),
            S::BAD_REQUEST,
            "bad_request",
            "chat: text not a string",
        ),
        post(
            Carol,
            format!("{a}/chat/seen"),
            json!({"upto": 1}),
            S::FORBIDDEN,
            "forbidden",
            "chat seen: a stranger",
        ),
        post(
            Nobody,
            format!("{a}/chat/seen"),
            json!({"upto": 1}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "chat seen: nobody logged in",
        ),
        no_csrf(
            Bob,
            format!("{a}/chat/seen"),
            json!({"upto": 1}),
            "chat seen: no CSRF token",
        ),
        post(
            Bob,
            format!("{a}/chat/seen"),
            json!({"upto": -1}),
            S::BAD_REQUEST,
            "bad_request",
            "chat seen: a negative mark",
        ),
        post(
            Bob,
            format!("{a}/chat/seen"),
            json!({"upto": "all"}),
            S::BAD_REQUEST,
            "bad_request",
            "chat seen: not a number",
        ),
        // Notepads.
        get(
            Nobody,
            format!("{a}/notes"),
            S::UNAUTHORIZED,
            "unauthenticated",
            "notes: nobody reads",
        ),
        get(
            Carol,
            format!("{a}/notes"),
            S::FORBIDDEN,
            "forbidden",
            "notes: a stranger reads",
        ),
        get(
            Bob,
            format!("{a}/notes?side=british"),
            S::FORBIDDEN,
            "forbidden",
            "notes: the other seat's",
        ),
        get(
            Bob,
            format!("{a}/notes?page=2"),
            S::BAD_REQUEST,
            "bad_request",
            "notes: an unknown parameter",
        ),
        post(
            Bob,
            format!("{a}/notes"),
            json!({"text": "mine now", "side": "british"}),
            S::FORBIDDEN,
            "forbidden",
            "notes: writing the other seat's",
        ),
        post(
            Carol,
            format!("{a}/notes"),
            json!({"text": "x"}),
            S::FORBIDDEN,
            "forbidden",
            "notes: a stranger writes",
        ),
        post(
            Nobody,
            format!("{a}/notes"),
            json!({"text": "x"}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "notes: nobody writes",
        ),
        no_csrf(
            Alice,
            format!("{a}/notes"),
            json!({"text": "x"}),
            "notes: no CSRF token",
        ),
        post(
            Alice,
            format!("{a}/notes"),
            json!({"text": "x".repeat(10_001)}),
            S::UNPROCESSABLE_ENTITY,
            "too_long",
            "notes: over 10,000 characters",
        ),
        post(
            Alice,
            format!("{a}/notes"),
            json!({"txt": "x"}),
            S::BAD_REQUEST,
            "bad_request",
            "notes: an unknown member",
        ),
        // Mutes.
        get(
            Nobody,
            "/api/account/mutes".into(),
            S::UNAUTHORIZED,
            "unauthenticated",
            "mutes: nobody reads",
        ),
        post(
            Nobody,
            "/api/account/mutes".into(),
            json!({"name": "bob", "muted": true}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "mute: nobody logged in",
        ),
        no_csrf(
            Alice,
            "/api/account/mutes".into(),
            json!({"name": "bob", "muted": true}),
            "mute: no CSRF token",
        ),
        post(
            Alice,
            "/api/account/mutes".into(),
            json!({"name": "zed", "muted": true}),
            S::NOT_FOUND,
            "not_found",
            "mute: an unknown name",
        ),
        post(
            Alice,
            "/api/account/mutes".into(),
            json!({"name": "alice", "muted": true}),
            S::BAD_REQUEST,
            "bad_request",
            "mute: oneself",
        ),
        post(
            Alice,
            "/api/account/mutes".into(),
            json!({"name": "bob"}),
            S::BAD_REQUEST,
            "bad_request",
            "mute: no muted member",
        ),
        // Notifications and unsubscribing.
        get(
            Nobody,
            "/api/account/notifications".into(),
            S::UNAUTHORIZED,
            "unauthenticated",
            "notifications: nobody reads",
        ),
        post(
            Nobody,
            "/api/account/notifications".into(),
            json!({"mail": false}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "notifications: nobody logged in",
        ),
        no_csrf(
            Alice,
            "/api/account/notifications".into(),
            json!({"mail": false}),
            "notifications: no CSRF token",
        ),
        post(
            Alice,
            "/api/account/notifications".into(),
            json!({"webhook": "ftp://example.com/x"}),
            S::UNPROCESSABLE_ENTITY,
            "bad_webhook",
            "notifications: not an http(s) webhook",
        ),
        post(
            Alice,
            "/api/account/notifications".into(),
            json!({"webhook": "http://127.0.0.1/x"}),
            S::UNPROCESSABLE_ENTITY,
            "bad_webhook",
            "notifications: a loopback webhook",
        ),
        post(
            Alice,
            "/api/account/notifications".into(),
            json!({"email": "not an address"}),
            S::UNPROCESSABLE_ENTITY,
            "bad_email",
            "notifications: a bad address",
        ),
        post(
            Alice,
            "/api/account/notifications".into(),
            json!({"events": {"weather": true}}),
            S::UNPROCESSABLE_ENTITY,
            "unknown_event",
            "notifications: an unknown event",
        ),
        post(
            Alice,
            "/api/account/notifications".into(),
            json!({"sms": "555"}),
            S::BAD_REQUEST,
            "bad_request",
            "notifications: an unknown member",
        ),
        get(
            Nobody,
            format!("/api/unsubscribe?token={}", "0".repeat(64)),
            S::NOT_FOUND,
            "",
            "unsubscribe: an unknown token",
        ),
        get(
            Nobody,
            "/api/unsubscribe?token=0000".into(),
            S::BAD_REQUEST,
            "",
            "unsubscribe: a token cut short",
        ),
        get(
            Nobody,
            "/api/unsubscribe".into(),
            S::BAD_REQUEST,
            "",
            "unsubscribe: no token",
        ),
        // Vacations.
        get(
            Nobody,
            "/api/account/vacation".into(),
            S::UNAUTHORIZED,
            "unauthenticated",
            "vacation: nobody reads",
        ),
        post(
            Nobody,
            "/api/account/vacation".into(),
            json!({"days": 3}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "vacation: nobody logged in",
        ),
        no_csrf(
            Bob,
            "/api/account/vacation".into(),
            json!({"days": 3}),
            "vacation: no CSRF token",
        ),
        post(
            Bob,
            "/api/account/vacation".into(),
            json!({"days": 0}),
            S::UNPROCESSABLE_ENTITY,
            "bad_vacation",
            "vacation: no days",
        ),
        post(
            Bob,
            "/api/account/vacation".into(),
            json!({"days": "3"}),
            S::BAD_REQUEST,
            "bad_request",
            "vacation: days a string",
        ),
        post(
            Bob,
            "/api/account/vacation/end".into(),
            json!({}),
            S::CONFLICT,
            "not_on_vacation",
            "vacation end: none runs",
        ),
        post(
            Nobody,
            "/api/account/vacation/end".into(),
            json!({}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "vacation end: nobody logged in",
        ),
        no_csrf(
            Bob,
            "/api/account/vacation/end".into(),
            json!({}),
            "vacation end: no CSRF token",
        ),
        // History, the live and finished lists.
        get(
            Carol,
            format!("{a}/history?at=-1"),
            S::BAD_REQUEST,
            "bad_request",
            "history: a negative point",
        ),
        get(
            Carol,
            format!("{a}/history?at=1&at=2"),
            S::BAD_REQUEST,
            "bad_request",
            "history: a repeated parameter",
        ),
        get(
            Carol,
            format!("{a}/history?at=999"),
            S::UNPROCESSABLE_ENTITY,
            "out_of_range",
            "history: past the actions stored",
        ),
        get(
            Carol,
            format!("{none}/history"),
            S::NOT_FOUND,
            "not_found",
            "history: an unknown game",
        ),
        get(
            Carol,
            "/api/games/live?game=battles".into(),
            S::BAD_REQUEST,
            "bad_request",
            "live: a parameter",
        ),
        get(
            Carol,
            "/api/games/finished?page=0".into(),
            S::BAD_REQUEST,
            "bad_request",
            "finished: page 0",
        ),
        get(
            Carol,
            "/api/games/finished?winner=bob".into(),
            S::BAD_REQUEST,
            "bad_request",
            "finished: an unknown parameter",
        ),
        // Accounts.
        get(
            Nobody,
            "/api/account".into(),
            S::UNAUTHORIZED,
            "unauthenticated",
            "account: nobody reads",
        ),
        get(
            Nobody,
            "/api/account/confirm?token=abc".into(),
            S::BAD_REQUEST,
            "",
            "confirm: a token cut short",
        ),
        get(
            Nobody,
            format!("/api/account/confirm?token={}", "0".repeat(64)),
            S::NOT_FOUND,
            "",
            "confirm: an unknown token",
        ),
        post(
            Nobody,
            "/api/account/confirm".into(),
            json!({}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "confirm again: nobody logged in",
        ),
        post(
            Alice,
            "/api/account/confirm".into(),
            json!({}),
            S::CONFLICT,
            "no_email",
            "confirm again: no address",
        ),
        no_csrf(
            Alice,
            "/api/account/confirm".into(),
            json!({}),
            "confirm again: no CSRF token",
        ),
        post(
            Nobody,
            "/api/account/password".into(),
            json!({"old": "correct horse", "new": "battery staple"}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "password: nobody logged in",
        ),
        no_csrf(
            Alice,
            "/api/account/password".into(),
            json!({"old": "correct horse", "new": "battery staple"}),
            "password: no CSRF token",
        ),
        post(
            Alice,
            "/api/account/password".into(),
            json!({"old": "wrong horse", "new": "battery staple"}),
            S::FORBIDDEN,
            "wrong_password",
            "password: the wrong old one",
        ),
        post(
            Alice,
            "/api/account/password".into(),
            json!({"old": "correct horse", "new": "short"}),
            S::BAD_REQUEST,
            "bad_request",
            "password: a new one too short",
        ),
        post(
            Alice,
            "/api/account/password".into(),
            json!({"old": "correct horse"}),
            S::BAD_REQUEST,
            "bad_request",
            "password: no new one",
        ),
        post(
            Nobody,
            "/api/account/delete".into(),
            json!({"password": "correct horse"}),
            S::UNAUTHORIZED,
            "unauthenticated",
            "delete: nobody logged in",
        ),
        no_csrf(
            Alice,
            "/api/account/delete".into(),
            json!({"password": "correct horse"}),
            "delete: no CSRF token",
        ),
        post(
            Alice,
            "/api/account/delete".into(),
            json!({"password": "wrong horse"}),
            S::FORBIDDEN,
            "wrong_password",
            "delete: the wrong password",
        ),
        post(
            Alice,
            "/api/account/delete".into(),
            json!({}),
            S::BAD_REQUEST,
            "bad_request",
            "delete: no password",
        ),
        post(
            Nobody,
            "/api/password-reset".into(),
            json!({"name": "alice", "email": "a@example.com"}),
            S::BAD_REQUEST,
            "bad_request",
            "reset: both a name and an address",
        ),
        post(
            Nobody,
            "/api/password-reset".into(),
            json!({}),
            S::BAD_REQUEST,
            "bad_request",
            "reset: neither",
        ),
        no_csrf(
            Nobody,
            "/api/password-reset".into(),
            json!({"name": "alice"}),
            "reset: no CSRF token",
        ),
        post(
            Nobody,
            "/api/password-reset/complete".into(),
            json!({"token": "0".repeat(64), "new": "battery staple"}),
            S::BAD_REQUEST,
            "bad_token",
            "reset complete: an unknown token",
        ),
        post(
            Nobody,
            "/api/password-reset/complete".into(),
            json!({"token": "0".repeat(64)}),
            S::BAD_REQUEST,
            "bad_request",
            "reset complete: no new password",
        ),
        get(
            Carol,
            "/api/users/zed".into(),
            S::NOT_FOUND,
            "not_found",
            "profile: an unknown name",
        ),
        // The game itself (the routes before issue 16, for the record): the wrong seat, a
        // stale version, a stranger, a full game.
        post(
            Alice,
            format!("{a}/act"),
            json!({"action": "pass", "version": version}),
            S::CONFLICT,
            "not_your_turn",
            "act: the wrong seat",
        ),
        post(
            Carol,
            format!("{a}/act"),
            json!({"action": "pass", "version": version}),
            S::FORBIDDEN,
            "forbidden",
            "act: a stranger",
        ),
        post(
            Bob,
            format!("{a}/act"),
            json!({"action": "pass", "version": version - 1}),
            S::CONFLICT,
            "stale",
            "act: a stale version",
        ),
        post(
            Alice,
            format!("{a}/undo"),
            json!({"version": version}),
            S::UNPROCESSABLE_ENTITY,
            "cannot_undo",
            "undo: nothing of one's own to take back",
        ),
        post(
            Carol,
            format!("{a}/join"),
            json!({}),
            S::CONFLICT,
            "full",
            "join: a game under way",
        ),
        get(
            Carol,
            format!("{a}/record"),
            S::FORBIDDEN,
            "forbidden",
            "record: a live game's",
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_issue_16_route_refuses_bad_input_strangers_the_wrong_seat_and_stale_versions_changing_nothing()
 {
    for db in databases().await {
        let w = world(&db).await;
        let (_, g) = w.bob.get(&format!("/api/games/{}", w.active)).await;
        let version = g["version"].as_i64().unwrap();
        assert!(version >= 1, "{db}: {g}");
        let table = refusals(&w, version);
        let mut before = w.everything().await;
        for r in &table {
            let (status, v) = w.send(r).await;
            assert_eq!(
                (status, if r.kind.is_empty() { "" } else { kind(&v) }),
                (r.status, r.kind),
                "{db}: {}: {v}",
                r.what
            );
            let after = w.everything().await;
            for (b, a) in before.iter().zip(&after) {
                assert_eq!(b, a, "{db}: {} changed {}", r.what, b.0);
            }
            before = after;
        }
        // The world was as described: the refusals were refused for their own reason.
        let (_, offers) = w.bob.get(&format!("/api/games/{}/offers", w.active)).await;
        assert_eq!(offers["offers"][0]["kind"], "draw", "{db}: {offers}");
    }
}
