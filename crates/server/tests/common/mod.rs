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
