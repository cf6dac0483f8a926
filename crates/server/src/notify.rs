//! Notifications (issue 16 §1): e-mail through an SMTP server and webhooks, sent by a
//! background task so that no move ever waits for them. Game code calls [`event`] with what
//! happened and to whom; the task reads that account's settings (`notify_settings`), and
//! delivers what they ask for. See docs/server.md, "Notifications".
//!
//! * A "your turn" mail is held back while a previous one for the same game went less than
//!   [`Settings::mail_interval`] ago and the player has not looked at the game since (a `GET`
//!   of the game or an open socket by that player). The time of the last mail is stored
//!   (`notify_mailed`), so a restart does not resend; the time of the last look is kept in
//!   memory only (a restart forgets it, which can only hold a mail back, never repeat one).
//! * Webhooks get a JSON `POST` within seconds, with a timeout and retries with backoff; at
//!   most [`MAX_DELIVERIES`] deliveries run at once and at most [`QUEUE`] events wait, so a slow
//!   hook cannot eat memory (events past that are dropped, with a log line).
//! * Webhook addresses must be http(s); addresses that resolve to loopback, private or
//!   link-local hosts are refused unless [`Settings::allow_private_hooks`] is on.

use crate::AppState;
use crate::db::Stmt;
use crate::error::{ApiError, ApiResult};
use serde_json::{Value, json};
use sqlx::Row;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

/// Events that wait for the notification task; one more is dropped (and logged).
pub const QUEUE: usize = 1024;
/// Deliveries (mails, webhook calls) in flight at once.
pub const MAX_DELIVERIES: usize = 16;

/// How notifications are sent (`muster serve --smtp --public-url ...`).
#[derive(Clone, Debug)]
pub struct Settings {
    /// `smtp://host:port`, `smtp://user:pass@host?tls=required` or `smtps://user:pass@host`;
    /// none: no mail is sent.
    pub smtp: Option<String>,
    /// The server's address as players reach it, for the links in mails and webhooks.
    pub public_url: String,
    /// The mails' sender.
    pub mail_from: String,
    /// At most one "your turn" mail per game per this interval while the player has not
    /// looked at the game.
    pub mail_interval: Duration,
    /// How long one webhook call may take.
    pub hook_timeout: Duration,
    /// Calls of a webhook before it is given up.
    pub hook_tries: u32,
    /// The wait before the first retry (doubling for each further one).
    pub hook_backoff: Duration,
    /// Allow webhooks to loopback, private and link-local addresses (off but in tests and
    /// on a private network: otherwise anyone with an account could make the server call
    /// services inside its network).
    pub allow_private_hooks: bool,
    /// A clock for tests (seconds since 1970): when set, notifications read the time here.
    pub clock: Option<Arc<AtomicI64>>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            smtp: None,
            public_url: "http://localhost:8080".into(),
            mail_from: "Muster <muster@localhost>".into(),
            mail_interval: Duration::from_secs(3600),
            hook_timeout: Duration::from_secs(5),
            hook_tries: 3,
            hook_backoff: Duration::from_secs(1),
            allow_private_hooks: false,
            clock: None,
        }
    }
}

impl Settings {
    /// The time (the test clock's when set).
    pub fn now(&self) -> i64 {
        match &self.clock {
            Some(c) => c.load(Ordering::Relaxed),
            None => crate::now(),
        }
    }

    /// The client's address of a game.
    pub fn game_url(&self, game: &str) -> String {
        format!("{}/#/game/{game}", self.public_url.trim_end_matches('/'))
    }
}

/// The kinds of notification, each switchable per account.
pub const KINDS: [&str; 6] = [
    "your_turn",
    "game_over",
    "invited",
    "offer",
    "chat",
    "time_running_out",
];

/// What happened.
#[derive(Clone, Debug)]
pub enum Kind {
    /// It became this player's decision after another side (a player or a bot) acted.
    YourTurn,
    /// A game this player plays ended; `result` says how ("the British win").
    GameOver { result: String },
    /// This player was seated in a new game by `by` (a rematch).
    Invited { by: String },
    /// `from` offers something (`what`: "a rematch", "a draw").
    Offer { from: String, what: String },
    /// `from` wrote `text` in the game's chat (`author`: their account id, never shown; a
    /// player who muted the author is not told).
    Chat {
        from: String,
        author: String,
        text: String,
    },
    /// This player's time in the game runs out in `left` (at `expires`, seconds since 1970)
    /// unless they decide: at most once per turn (time controls, issue 16 §2).
    TimeRunningOut { left: String, expires: i64 },
}

impl Kind {
    pub fn id(&self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::GameOver { .. } => "game_over",
            Kind::Invited { .. } => "invited",
            Kind::Offer { .. } => "offer",
            Kind::Chat { .. } => "chat",
            Kind::TimeRunningOut { .. } => "time_running_out",
        }
    }
}

/// One notification for one account.
#[derive(Clone, Debug)]
pub struct Event {
    pub kind: Kind,
    /// The game's id.
    pub game: String,
    /// What players call the game ("Freeman's Farm (Battles of the Revolution)").
    pub title: String,
    /// The user id of the account told.
    pub to: String,
}

impl Event {
    /// A human sentence for it.
    pub fn text(&self) -> String {
        let t = &self.title;
        match &self.kind {
            Kind::YourTurn => format!("It is your turn in {t}."),
            Kind::GameOver { result } => format!("{t} is over: {result}."),
            Kind::Invited { by } => format!("{by} seated you in a new game of {t}."),
            Kind::Offer { from, what } => format!("{from} offers {what} in {t}."),
            Kind::Chat { from, text, .. } => {
                let short: String = text.chars().take(200).collect();
                format!("{from} wrote in {t}: {short}")
            }
            Kind::TimeRunningOut { left, .. } => {
                format!("Your time in {t} runs out in {left}: make your move, or you lose on time.")
            }
        }
    }
}

/// The notifier every handler shares: the queue to the task, and who looked at what.
pub struct Notifier {
    tx: mpsc::Sender<Event>,
    /// (game, user) → when the user last looked at the game.
    looked: std::sync::Mutex<HashMap<(String, String), i64>>,
    settings: Settings,
}

/// Looks remembered before the oldest are forgotten.
const LOOKS: usize = 100_000;

impl Notifier {
    /// The notifier and the receiving end of its queue (for [`run`]).
    pub fn new(settings: Settings) -> (Notifier, mpsc::Receiver<Event>) {
        let (tx, rx) = mpsc::channel(QUEUE);
        (
            Notifier {
                tx,
                looked: Default::default(),
                settings,
            },
            rx,
        )
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// `user` looked at `game` (a GET of it, or a socket opened on it).
    pub fn looked(&self, game: &str, user: &str) {
        let now = self.settings.now();
        let mut l = self.looked.lock().unwrap_or_else(|p| p.into_inner());
        if l.len() >= LOOKS {
            let cut = now - self.settings.mail_interval.as_secs() as i64;
            l.retain(|_, at| *at > cut);
        }
        l.insert((game.to_string(), user.to_string()), now);
    }

    fn looked_at(&self, game: &str, user: &str) -> Option<i64> {
        self.looked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&(game.to_string(), user.to_string()))
            .copied()
    }
}

/// Tells the account `e.to` of `e`, as its settings ask. Never waits: the event is queued for
/// the notification task (or dropped, with a log line, when [`QUEUE`] events already wait).
/// Chat and offers call this too: `notify::event(&state, Event { kind: Kind::Chat { .. }, .. })`.
pub fn event(state: &AppState, e: Event) {
    if let Err(mpsc::error::TrySendError::Full(e)) = state.notify.tx.try_send(e) {
        eprintln!(
            "muster serve: notifications: the queue is full; dropped a {} notice for game {}",
            e.kind.id(),
            e.game
        );
    }
}

/// An account's notification settings as stored.
#[derive(Clone, Debug, Default)]
pub struct Account {
    pub email: Option<String>,
    /// The last address the owner confirmed through a mailed link: mail goes out only while
    /// it is `email`.
    pub confirmed: Option<String>,
    /// Mail on (turned off by the unsubscribe link).
    pub mail: bool,
    pub webhook: Option<String>,
    /// Kinds switched off (all others are on).
    pub off: Vec<String>,
    pub unsubscribe: Option<String>,
}

impl Account {
    /// The address mail goes to: the account's, once confirmed.
    pub fn confirmed_email(&self) -> Option<&str> {
        self.email
            .as_deref()
            .filter(|e| self.confirmed.as_deref() == Some(*e))
    }

    pub fn wants(&self, kind: &str) -> bool {
        !self.off.iter().any(|k| k == kind)
    }

    pub fn json(&self) -> Value {
        let events: serde_json::Map<String, Value> = KINDS
            .iter()
            .map(|k| (k.to_string(), json!(self.wants(k))))
            .collect();
        json!({"email": self.email, "email_confirmed": self.confirmed_email().is_some(), "mail": self.mail, "webhook": self.webhook, "events": events})
    }
}

/// Reads an account's settings (defaults when it never set any).
pub async fn load(state: &AppState, user: &str) -> ApiResult<Account> {
    let row = sqlx::query(
        "SELECT email, mail, webhook, off, unsubscribe, confirmed FROM notify_settings WHERE user_id = $1",
    )
    .bind(user)
    .fetch_optional(&state.db.pool)
    .await?;
    Ok(match row {
        None => Account {
            mail: true,
            ..Account::default()
        },
        Some(r) => Account {
            email: r.try_get(0)?,
            mail: r.try_get::<i64, _>(1)? != 0,
            webhook: r.try_get(2)?,
            off: r
                .try_get::<String, _>(3)?
                .split(',')
                .filter(|k| !k.is_empty())
                .map(str::to_string)
                .collect(),
            unsubscribe: r.try_get(4)?,
            confirmed: r.try_get(5)?,
        },
    })
}

/// The statement that stores an account's settings.
pub fn save(user: &str, a: &Account) -> Stmt {
    Stmt::new(
        "INSERT INTO notify_settings (user_id, email, mail, webhook, off, unsubscribe, updated, confirmed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (user_id) DO UPDATE SET email = $2, mail = $3, webhook = $4, off = $5, unsubscribe = $6, updated = $7, confirmed = $8",
        vec![
            user.into(),
            a.email.clone().into(),
            (a.mail as i64).into(),
            a.webhook.clone().into(),
            a.off.join(",").into(),
            a.unsubscribe.clone().into(),
            crate::now().into(),
            a.confirmed.clone().into(),
        ],
    )
}

/// Checks a webhook address: http(s), a host, and (unless private hooks are allowed) not an
/// address literal inside a private network. Names are checked again when they are called.
pub fn check_hook_url(url: &str, allow_private: bool) -> ApiResult<url::Url> {
    let bad = |m: String| {
        ApiError::new(
            axum::http::StatusCode::UNPROCESSABLE_ENTITY,
            "bad_webhook",
            m,
        )
    };
    if url.len() > 2000 {
        return Err(bad("a webhook address is at most 2000 characters".into()));
    }
    let u = url::Url::parse(url).map_err(|e| bad(format!("{url:?} is not a URL: {e}")))?;
    if !matches!(u.scheme(), "http" | "https") {
        return Err(bad(format!(
            "a webhook address starts with http:// or https://, not {}:",
            u.scheme()
        )));
    }
    let Some(host) = u.host() else {
        return Err(bad(format!("{url:?} names no host")));
    };
    let ip = match host {
        url::Host::Ipv4(a) => Some(IpAddr::V4(a)),
        url::Host::Ipv6(a) => Some(IpAddr::V6(a)),
        url::Host::Domain(_) => None,
    };
    if let Some(ip) = ip
        && !allow_private
        && is_private(ip)
    {
        return Err(bad(format!(
            "{ip} is a private, loopback or link-local address: webhooks go to public hosts"
        )));
    }
    Ok(u)
}

/// Loopback, private, link-local, unspecified, shared or multicast addresses.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => {
            let o = a.octets();
            a.is_loopback()
                || a.is_private()
                || a.is_link_local()
                || a.is_unspecified()
                || a.is_broadcast()
                || a.is_multicast()
                || (o[0] == 100 && (o[1] & 0xc0) == 64) // 100.64/10, shared
                || o[0] == 0
        }
        IpAddr::V6(a) => {
            if let Some(v4) = a.to_ipv4_mapped() {
                return is_private(IpAddr::V4(v4));
            }
            let s = a.segments();
            a.is_loopback()
                || a.is_unspecified()
                || a.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
        }
    }
}

/// Checks an e-mail address (its form only; confirming it: `account::set_notifications`).
pub fn check_email(addr: &str) -> ApiResult<String> {
    let addr = addr.trim();
    let ok = addr.len() <= 254
        && addr.parse::<lettre::Address>().is_ok()
        && !addr.chars().any(|c| c.is_whitespace() || c.is_control());
    if !ok {
        return Err(ApiError::new(
            axum::http::StatusCode::UNPROCESSABLE_ENTITY,
            "bad_email",
            format!("{addr:?} is not an e-mail address"),
        ));
    }
    Ok(addr.to_string())
}

/// The notification task: takes queued events one by one, decides from the account's
/// settings what to send, and starts each delivery (at most [`MAX_DELIVERIES`] at once).
pub async fn run(state: AppState, mut rx: mpsc::Receiver<Event>) {
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_DELIVERIES));
    let mailer = mailer(&state.notify.settings, true);
    while let Some(e) = rx.recv().await {
        let account = match load(&state, &e.to).await {
            Ok(a) => a,
            Err(err) => {
                eprintln!(
                    "muster serve: notifications: reading the settings of an account: {}",
                    err.message
                );
                continue;
            }
        };
        if !account.wants(e.kind.id()) {
            continue;
        }
        if let Kind::Chat { author, .. } = &e.kind
            && crate::talk::is_muted(&state, &e.to, author)
                .await
                .unwrap_or(false)
        {
            continue;
        }
        // Mail goes only to an address its owner confirmed (docs/server.md, "Accounts").
        if let (Some(mailer), Some(to), true) = (&mailer, account.confirmed_email(), account.mail)
            && mail_due(&state, &e).await
        {
            let Ok(slot) = slots.clone().acquire_owned().await else {
                return;
            };
            let (state, mailer, e, to, token) = (
                state.clone(),
                mailer.clone(),
                e.clone(),
                to.to_string(),
                account.unsubscribe.clone().unwrap_or_default(),
            );
            tokio::spawn(async move {
                send_mail(&state, &mailer, &e, &to, &token).await;
                drop(slot);
            });
        }
        if let Some(hook) = &account.webhook {
            let Ok(slot) = slots.clone().acquire_owned().await else {
                return;
            };
            let (settings, e, hook) = (state.notify.settings.clone(), e.clone(), hook.clone());
            tokio::spawn(async move {
                call_hook(&settings, &e, &hook).await;
                drop(slot);
            });
        }
    }
}

type Mailer = lettre::AsyncSmtpTransport<lettre::Tokio1Executor>;

/// The SMTP transport of `--smtp`, if any (`say`: report a bad address).
fn mailer(settings: &Settings, say: bool) -> Option<Mailer> {
    let url = settings.smtp.as_deref()?;
    match Mailer::from_url(url) {
        Ok(b) => Some(b.timeout(Some(Duration::from_secs(20))).build()),
        Err(e) => {
            if say {
                eprintln!("muster serve: --smtp {url}: {e}; no mail will be sent");
            }
            None
        }
    }
}

/// A plain-text mail from the server's sender to `to`.
fn plain_mail(
    settings: &Settings,
    to: &str,
    subject: String,
    body: String,
) -> Result<lettre::Message, String> {
    lettre::Message::builder()
        .from(settings.mail_from.parse().map_err(|e| format!("{e}"))?)
        .to(to.parse().map_err(|e| format!("{e}"))?)
        .subject(subject)
        .header(lettre::message::header::ContentType::TEXT_PLAIN)
        .body(body)
        .map_err(|e| e.to_string())
}

/// Whether mail can be sent at all (`--smtp` given).
pub fn can_mail(state: &AppState) -> bool {
    state.notify.settings.smtp.is_some()
}

/// Sends an account mail (a confirmation or password-reset link) to `to` in the background:
/// the caller's answer never waits for the SMTP server, nor tells whether it was sent.
pub fn account_mail(state: &AppState, to: &str, subject: String, body: String) {
    let settings = state.notify.settings.clone();
    let to = to.to_string();
    tokio::spawn(async move {
        use lettre::AsyncTransport;
        let Some(mailer) = mailer(&settings, false) else {
            return;
        };
        let built = plain_mail(&settings, &to, subject, body);
        let sent = match built {
            Ok(msg) => mailer
                .send(msg)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Err(e) => Err(e),
        };
        if let Err(err) = sent {
            eprintln!("muster serve: an account mail was not sent: {err}");
        }
    });
}

/// Whether a mail for `e` goes out now: always, but for "your turn" within the interval of
/// the last one for this game while the player has not looked at it since. A mail that will
/// go out is marked sent first (so that two quick turns never send two).
async fn mail_due(state: &AppState, e: &Event) -> bool {
    if !matches!(e.kind, Kind::YourTurn) {
        return true;
    }
    let settings = &state.notify.settings;
    let now = settings.now();
    let last: Option<i64> =
        sqlx::query("SELECT at FROM notify_mailed WHERE game_id = $1 AND user_id = $2")
            .bind(&e.game)
            .bind(&e.to)
            .fetch_optional(&state.db.pool)
            .await
            .ok()
            .flatten()
            .and_then(|r| r.try_get(0).ok());
    if let Some(last) = last {
        let recent = now - last < settings.mail_interval.as_secs() as i64;
        let looked_since = state
            .notify
            .looked_at(&e.game, &e.to)
            .is_some_and(|t| t > last);
        if recent && !looked_since {
            return false;
        }
    }
    let stored = state
        .db
        .write(vec![Stmt::new(
            "INSERT INTO notify_mailed (game_id, user_id, at) VALUES ($1, $2, $3)
             ON CONFLICT (game_id, user_id) DO UPDATE SET at = $3",
            vec![(&e.game).into(), (&e.to).into(), now.into()],
        )])
        .await;
    if let Err(err) = stored {
        eprintln!("muster serve: notifications: storing the time of a mail: {err}");
        return false;
    }
    true
}

async fn send_mail(state: &AppState, mailer: &Mailer, e: &Event, to: &str, token: &str) {
    use lettre::AsyncTransport;
    let settings = &state.notify.settings;
    let url = settings.game_url(&e.game);
    let unsubscribe = format!(
        "{}/api/unsubscribe?token={token}",
        settings.public_url.trim_end_matches('/')
    );
    let subject = match &e.kind {
        Kind::YourTurn => format!("Your turn: {}", e.title),
        Kind::GameOver { .. } => format!("Game over: {}", e.title),
        Kind::Invited { .. } => format!("New game: {}", e.title),
        Kind::Offer { .. } => format!("An offer in {}", e.title),
        Kind::Chat { .. } => format!("A message in {}", e.title),
        Kind::TimeRunningOut { .. } => format!("Your time runs out: {}", e.title),
    };
    let body = format!(
        "{}\n\nOpen the game: {url}\n\n--\nNo more mails from this Muster server: {unsubscribe}\n",
        e.text()
    );
    let built = plain_mail(settings, to, subject, body);
    let msg = match built {
        Ok(m) => m,
        Err(err) => {
            eprintln!("muster serve: notifications: a mail could not be made: {err}");
            return;
        }
    };
    if let Err(err) = mailer.send(msg).await {
        eprintln!(
            "muster serve: notifications: a {} mail for game {} was not sent: {err}",
            e.kind.id(),
            e.game
        );
    }
}

/// The JSON a webhook gets (`text` for Slack, `content` for Discord).
pub fn hook_payload(settings: &Settings, e: &Event) -> Value {
    let url = settings.game_url(&e.game);
    let sentence = e.text();
    let mut v = json!({
        "event": e.kind.id(),
        "game": e.game,
        "title": e.title,
        "url": url,
        "text": format!("{sentence} {url}"),
        "content": format!("{sentence} {url}"),
    });
    if let Kind::TimeRunningOut { expires, .. } = &e.kind {
        v["expires"] = json!(expires);
    }
    v
}

/// Calls a webhook: up to `hook_tries` times, each within `hook_timeout`, waiting
/// `hook_backoff` (doubling) between them; a 2xx answer ends it. The host is resolved and
/// checked against private addresses on every try, and the call goes to the address checked.
async fn call_hook(settings: &Settings, e: &Event, hook: &str) {
    let payload = hook_payload(settings, e);
    let mut wait = settings.hook_backoff;
    for attempt in 1..=settings.hook_tries.max(1) {
        match call_once(settings, hook, &payload).await {
            Ok(()) => return,
            Err(err) => eprintln!(
                "muster serve: notifications: webhook for a {} notice (try {attempt}): {err}",
                e.kind.id()
            ),
        }
        if attempt < settings.hook_tries {
            tokio::time::sleep(wait).await;
            wait = wait.saturating_mul(2);
        }
    }
}

async fn call_once(settings: &Settings, hook: &str, payload: &Value) -> Result<(), String> {
    let u = check_hook_url(hook, settings.allow_private_hooks).map_err(|e| e.message)?;
    let host = u.host_str().unwrap_or_default().to_string();
    let port = u.port_or_known_default().unwrap_or(80);
    let lookup = tokio::time::timeout(
        settings.hook_timeout,
        tokio::net::lookup_host((host.trim_matches(['[', ']']), port)),
    )
    .await
    .map_err(|_| format!("resolving {host} timed out"))?
    .map_err(|e| format!("resolving {host}: {e}"))?;
    let addrs: Vec<std::net::SocketAddr> = lookup.collect();
    let Some(first) = addrs.first().copied() else {
        return Err(format!("{host} has no address"));
    };
    if !settings.allow_private_hooks && addrs.iter().any(|a| is_private(a.ip())) {
        return Err(format!("{host} resolves to a private address; not called"));
    }
    let body = serde_json::to_vec(payload).map_err(|e| e.to_string())?;
    let path = match u.query() {
        Some(q) => format!("{}?{q}", u.path()),
        None => u.path().to_string(),
    };
    let authority = match u.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.clone(),
    };
    let request = hyper::Request::post(path)
        .header(hyper::header::HOST, authority)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header(hyper::header::USER_AGENT, "Muster notifications")
        .body(http_body_util::Full::new(axum::body::Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let https = u.scheme() == "https";
    let call = async move {
        let tcp = tokio::net::TcpStream::connect(first)
            .await
            .map_err(|e| format!("connecting to {first}: {e}"))?;
        let status = if https {
            let name =
                rustls::pki_types::ServerName::try_from(host.trim_matches(['[', ']']).to_string())
                    .map_err(|e| format!("{host}: {e}"))?;
            let tls = tls_connector()
                .connect(name, tcp)
                .await
                .map_err(|e| format!("TLS with {host}: {e}"))?;
            send_request(tls, request).await?
        } else {
            send_request(tcp, request).await?
        };
        Ok::<_, String>(status)
    };
    let status = tokio::time::timeout(settings.hook_timeout, call)
        .await
        .map_err(|_| format!("no answer within {} s", settings.hook_timeout.as_secs_f32()))??;
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("answered {status}"))
    }
}

/// One HTTP/1.1 request on a fresh connection; its answer's status.
async fn send_request<S>(
    stream: S,
    request: hyper::Request<http_body_util::Full<axum::body::Bytes>>,
) -> Result<hyper::StatusCode, String>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let answer = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?;
    Ok(answer.status())
}

/// TLS for webhooks: rustls with the ring provider and the Mozilla roots (webpki-roots).
fn tls_connector() -> tokio_rustls::TlsConnector {
    static CONFIG: std::sync::OnceLock<Arc<rustls::ClientConfig>> = std::sync::OnceLock::new();
    let config = CONFIG.get_or_init(|| {
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("ring supports the default TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
        Arc::new(config)
    });
    tokio_rustls::TlsConnector::from(config.clone())
}
