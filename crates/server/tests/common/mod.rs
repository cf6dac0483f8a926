//! What the server's test binaries share: a server on SQLite or PostgreSQL, a browser-like
//! client.
#![allow(dead_code)]

use futures_util::StreamExt;
use muster_server::testing::TempPostgres;
use muster_server::{AppState, Config, serve_on, state};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub fn registry() -> muster_core::Registry {
    let mut r = muster_core::Registry::new();
    r.add(muster_battles::Battles::new().unwrap());
    r
}

pub fn bots() -> muster_ai::Bots {
    let mut b = muster_ai::Bots::new();
    b.add::<muster_battles::Battles>();
    b
}

/// One PostgreSQL cluster for the whole test binary; each server gets its own database.
pub fn postgres() -> &'static TempPostgres {
    static PG: OnceLock<TempPostgres> = OnceLock::new();
    PG.get_or_init(|| {
        TempPostgres::start().unwrap_or_else(|e| panic!("PostgreSQL for the tests: {e}"))
    })
}

/// The databases every test runs against.
pub async fn databases() -> Vec<String> {
    let file = std::env::temp_dir().join(format!(
        "muster-api-{}-{}.db",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let pg = tokio::task::spawn_blocking(postgres).await.unwrap();
    vec![
        format!("sqlite://{}", file.display()),
        pg.database().await.unwrap(),
    ]
}

static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Starts a server on a free port.
pub async fn server(database: &str) -> SocketAddr {
    server_with(database, muster_server::Limits::default())
        .await
        .0
}

/// Starts a server with the given limits; its address and its shared state.
pub async fn server_with(database: &str, limits: muster_server::Limits) -> (SocketAddr, AppState) {
    server_config(Config {
        database: database.to_string(),
        limits,
        ..Default::default()
    })
    .await
}

/// Starts a server with `config` (but on a free loopback port, with cookies not Secure).
pub async fn server_config(config: Config) -> (SocketAddr, AppState) {
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        secure_cookies: false,
        ..config
    };
    let st = state(config, registry(), bots()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shared = st.clone();
    tokio::spawn(async move { serve_on(listener, st).await });
    (addr, shared)
}

/// A browser-like client: a cookie jar and the CSRF token.
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    /// The cookie jar, when this client made it (for the game socket's request).
    pub jar: Option<std::sync::Arc<reqwest::cookie::Jar>>,
    /// The CSRF token; answers that rotate it (log-in, sign-up, log-out) carry the new one.
    csrf: std::sync::Mutex<String>,
}

impl Client {
    pub async fn new(addr: SocketAddr) -> Client {
        let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .build()
            .unwrap();
        let mut c = Client::with_http(addr, http).await;
        c.jar = Some(jar);
        c
    }

    /// The `Cookie` header this client would send.
    pub fn cookies(&self) -> String {
        use reqwest::cookie::CookieStore;
        self.jar
            .as_ref()
            .and_then(|j| j.cookies(&self.base.parse().unwrap()))
            .map(|h| h.to_str().unwrap().to_string())
            .unwrap_or_default()
    }

    /// A client on a given HTTP client (which must keep cookies).
    pub async fn with_http(addr: SocketAddr, http: reqwest::Client) -> Client {
        let base = format!("http://{addr}");
        let s: Value = http
            .get(format!("{base}/api/session"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        Client {
            http,
            base,
            jar: None,
            csrf: std::sync::Mutex::new(s["csrf"].as_str().unwrap().to_string()),
        }
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        let status = r.status();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn post_raw(
        &self,
        path: &str,
        body: Vec<u8>,
        csrf: Option<&str>,
    ) -> (StatusCode, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).body(body);
        if let Some(c) = csrf {
            req = req.header("X-CSRF-Token", c);
        }
        let r = req.send().await.unwrap();
        let status = r.status();
        let v: Value = r.json().await.unwrap_or(Value::Null);
        if let Some(token) = v["csrf"].as_str() {
            *self.csrf.lock().unwrap() = token.to_string();
        }
        (status, v)
    }

    pub fn csrf(&self) -> String {
        self.csrf.lock().unwrap().clone()
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let csrf = self.csrf();
        self.post_raw(path, body.to_string().into_bytes(), Some(&csrf))
            .await
    }

    pub async fn signup(addr: SocketAddr, name: &str) -> Client {
        let c = Client::new(addr).await;
        let (status, v) = c
            .post(
                "/api/signup",
                json!({"name": name, "password": "correct horse"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        c
    }

    /// Creates a game against a bot and waits until it is this player's decision.
    pub async fn game_vs_bot(&self, scenario: &str, side: &str, level: &str) -> String {
        let (status, v) = self
            .post("/api/games", json!({"game": "battles", "scenario": scenario, "side": side, "opponent": "bot", "level": level}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        self.wait_my_turn(&id).await;
        id
    }

    pub async fn wait_my_turn(&self, id: &str) -> Value {
        for _ in 0..400 {
            let (_, g) = self.get(&format!("/api/games/{id}")).await;
            if g["to_act"] == g["my_side"] || g["status"] == "finished" {
                return g;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!("the bot did not move");
    }
}

pub fn kind(v: &Value) -> &str {
    v["error"]["kind"].as_str().unwrap_or("")
}

/// The game socket, as a client would open it.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the game socket as `client` (its cookies), with `query` and an optional `Origin`.
pub async fn open(
    addr: SocketAddr,
    client: Option<&Client>,
    id: &str,
    query: &str,
    origin: Option<&str>,
) -> Result<Ws, tokio_tungstenite::tungstenite::Error> {
    let mut req = format!("ws://{addr}/api/games/{id}/ws{query}")
        .into_client_request()
        .unwrap();
    if let Some(c) = client {
        req.headers_mut()
            .insert("cookie", c.cookies().parse().unwrap());
    }
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req)
        .await
        .map(|(ws, _)| ws)
}

/// The next JSON message (pings are skipped).
pub async fn next(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a readable message");
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// A mail as the receiver took it.
#[derive(Debug)]
pub struct Mail {
    pub from: String,
    pub to: Vec<String>,
    /// Headers and body, dot-unstuffed, quoted-printable decoded.
    pub data: String,
}

/// An SMTP server on a free loopback port (enough of RFC 5321: EHLO, MAIL, RCPT, DATA, RSET,
/// NOOP, QUIT): every mail it accepts comes out of the channel.
pub async fn smtp_receiver() -> (u16, mpsc::UnboundedReceiver<Mail>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read);
                if !say(&mut write, "220 test-receiver ESMTP\r\n").await {
                    return;
                }
                let (mut from, mut to) = (String::new(), Vec::new());
                loop {
                    let mut line = String::new();
                    if lines.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let upper = line.to_ascii_uppercase();
                    let answer = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        "250-test-receiver\r\n250 8BITMIME\r\n".to_string()
                    } else if upper.starts_with("MAIL FROM:") {
                        from = angle(&line);
                        to.clear();
                        "250 sender ok\r\n".into()
                    } else if upper.starts_with("RCPT TO:") {
                        to.push(angle(&line));
                        "250 recipient ok\r\n".into()
                    } else if upper.starts_with("DATA") {
                        if !say(&mut write, "354 end with a dot\r\n").await {
                            return;
                        }
                        let mut data = String::new();
                        loop {
                            let mut l = String::new();
                            if lines.read_line(&mut l).await.unwrap_or(0) == 0 {
                                return;
                            }
                            if l == ".\r\n" {
                                break;
                            }
                            data.push_str(l.strip_prefix('.').unwrap_or(&l));
                        }
                        let _ = tx.send(Mail {
                            from: from.clone(),
                            to: to.clone(),
                            data: decode_qp(&data),
                        });
                        "250 queued\r\n".into()
                    } else if upper.starts_with("RSET") || upper.starts_with("NOOP") {
                        "250 ok\r\n".into()
                    } else if upper.starts_with("QUIT") {
                        let _ = say(&mut write, "221 bye\r\n").await;
                        return;
                    } else {
                        "502 not implemented\r\n".into()
                    };
                    if !say(&mut write, &answer).await {
                        return;
                    }
                }
            });
        }
    });
    (port, rx)
}

/// Writes an SMTP answer; false once the client is gone.
async fn say(w: &mut tokio::net::tcp::OwnedWriteHalf, s: &str) -> bool {
    w.write_all(s.as_bytes()).await.is_ok()
}

/// The address between `<` and `>` of a MAIL or RCPT line.
fn angle(line: &str) -> String {
    let start = line.find('<').map_or(0, |i| i + 1);
    let end = line.rfind('>').unwrap_or(line.len());
    line[start..end].to_string()
}

/// Undoes quoted-printable (soft line breaks and `=XX`) when the mail says it uses it.
fn decode_qp(data: &str) -> String {
    if !data
        .to_ascii_lowercase()
        .contains("content-transfer-encoding: quoted-printable")
    {
        return data.to_string();
    }
    let joined = data.replace("=\r\n", "");
    let b = joined.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'='
            && i + 2 < b.len()
            && let Ok(v) = u8::from_str_radix(&joined[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The next mail, or none within `wait`.
pub async fn next_mail(rx: &mut mpsc::UnboundedReceiver<Mail>, wait: Duration) -> Option<Mail> {
    tokio::time::timeout(wait, rx.recv()).await.ok().flatten()
}

/// The first link in `mail` that starts with `prefix`.
pub fn link_in(mail: &Mail, prefix: &str) -> Option<String> {
    let start = mail.data.find(prefix)?;
    mail.data[start..]
        .split_whitespace()
        .next()
        .map(str::to_string)
}

/// Sets `email` as `client`'s address and opens the confirmation link mailed to it (through
/// the server at `addr`, whose public address is `public`), without the client's cookies.
pub async fn confirm_email(
    client: &Client,
    addr: SocketAddr,
    public: &str,
    mails: &mut mpsc::UnboundedReceiver<Mail>,
    email: &str,
) {
    let (status, v) = client
        .post("/api/account/notifications", json!({"email": email}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["email_confirmed"], false, "{v}");
    let mail = next_mail(mails, Duration::from_secs(20))
        .await
        .expect("a confirmation mail");
    assert_eq!(mail.to, vec![email.to_string()]);
    let link = link_in(&mail, &format!("{public}/api/account/confirm?token="))
        .unwrap_or_else(|| panic!("no confirmation link in {}", mail.data));
    let page = reqwest::get(link.replacen(public, &format!("http://{addr}"), 1))
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let (_, v) = client.get("/api/account/notifications").await;
    assert_eq!(v["email_confirmed"], true, "{v}");
}

/// Plays the caller's decisions (the first legal action each time) until it is another
/// side's, then waits until it is the caller's again: the game as it then stands.
pub async fn play_turn(c: &Client, id: &str) -> Value {
    hand_over(c, id).await;
    c.wait_my_turn(id).await
}

/// Plays the caller's decisions (the first legal action each time) until it is another
/// side's or the game is over: the caller's last answer.
pub async fn hand_over(c: &Client, id: &str) -> Value {
    let (_, mut g) = c.get(&format!("/api/games/{id}")).await;
    while g["status"] == "active" && g["to_act"] == g["my_side"] {
        let action = g["legal"][0]["action"].as_str().unwrap().to_string();
        let (status, v) = c
            .post(
                &format!("/api/games/{id}/act"),
                json!({"action": action, "version": g["version"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        g = v;
    }
    g
}

/// Oriskany between `alice` (British, who made it) and `bob` (American, who joined): its id
/// and Bob's answer to joining.
pub async fn human_game(alice: &Client, bob: &Client) -> (String, Value) {
    let (status, v) = alice
        .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "british", "opponent": "human"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (status, g) = bob.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    (id, g)
}
