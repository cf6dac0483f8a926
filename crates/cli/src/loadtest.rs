//! `muster loadtest`: starts `muster serve` as a separate process on loopback, drives many
//! concurrent games against it over HTTP and WebSocket as browsers would, and measures that
//! process: action latency, its CPU time and the bytes it sent per action, and its memory.
//!
//! Phases: start the server (a temporary SQLite file, or a throwaway PostgreSQL cluster) and
//! wait until it answers; `--signups` extra accounts; the players' accounts; every game set
//! up (created, joined, sockets open). Then the measured window: from the moment every game
//! is ready until the deadline (`--seconds` later), every seat thinks and acts; the server's
//! CPU time (`/proc/PID/stat`) and the bytes received from it are read at both ends of the
//! window. Its memory (`VmRSS`) is sampled every 100 ms over the whole run. The server is
//! killed and waited for at the end, on error paths too.
//!
//! Bytes are counted on the client side at the TCP level ([`Counting`]): on loopback what the
//! load client receives is exactly what the server sent, so the figure holds for any server
//! build (`--server-bin`), old or new.

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use muster_core::Dice;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::BufRead;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The largest `--games`.
pub const MAX_GAMES: usize = 10_000;
/// The longest `--seconds`.
pub const MAX_SECONDS: u64 = 3_600;
/// The largest `--signups`.
pub const MAX_SIGNUPS: usize = 100_000;
/// The longest `--think-ms`.
pub const MAX_THINK_MS: u64 = 600_000;
/// How long one request, one socket message or one set-up step may take before it counts as
/// an error.
const PATIENCE: Duration = Duration::from_secs(10);
/// Sign-ups (and the players' accounts) made at once.
const SIGNUPS_AT_ONCE: usize = 4;
/// Games set up at once.
const SETUPS_AT_ONCE: usize = 16;
/// A seat that met this many errors stops playing (the others go on).
const SEAT_ERRORS: u64 = 10;
const PASSWORD: &str = "load test password";

/// Who sits opposite each game's first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// A bot of the server (at `--level`); the load client drives one seat.
    Bot,
    /// Another account: the load client drives both seats, as two players would.
    Human,
}

/// How a seat follows and plays its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The game socket of issue 13: a `state` message on connect, `update` messages,
    /// actions sent as `act` messages answered by `ack` or `error`.
    Socket,
    /// What the browser client did before it: a WebSocket notice `{"type":"update",
    /// "version":V}`, then `GET /api/games/{id}`, then `POST /api/games/{id}/act`.
    Http,
}

impl Opponent {
    fn id(self) -> &'static str {
        match self {
            Opponent::Bot => "bot",
            Opponent::Human => "human",
        }
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    pub games: usize,
    pub players: usize,
    pub seconds: u64,
    /// Mean pause of each simulated player before a decision; each pause is drawn uniformly
    /// from half to one and a half times this, and each game starts at a random moment within
    /// the first pause, so that 500 players do not act in lockstep waves.
    pub think_ms: u64,
    /// `sqlite` (a temporary file) or `postgres` (a throwaway cluster).
    pub database: String,
    pub game: String,
    pub scenario: String,
    /// How SQLite commits in the measured server: `normal` or `full` (`muster serve --sync`).
    pub sync: String,
    pub opponent: Opponent,
    /// The bot's level (`--opponent bot` only; `None`: random).
    pub level: Option<String>,
    pub protocol: Protocol,
    /// Accounts created before the games, to measure memory after sign-ups.
    pub signups: usize,
    /// The server program (default: this program).
    pub server_bin: Option<PathBuf>,
    /// `--data DIR`, passed on to the server.
    pub data: Option<PathBuf>,
}

/// What it measured. Per-action figures are over the measured window only.
#[derive(Debug, serde::Serialize)]
pub struct LoadReport {
    pub database: String,
    pub games: usize,
    pub opponent: Opponent,
    /// The bot's level (`null` for human games).
    pub level: Option<String>,
    pub protocol: Protocol,
    pub players: usize,
    pub think_ms: u64,
    /// The measured window, in seconds (from the moment every game was ready).
    pub seconds: f64,
    /// Actions answered in the window.
    pub actions: u64,
    pub actions_per_second: f64,
    /// Action latency: from sending the action to its answer (the HTTP answer, or the `ack`).
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// The server process's CPU time (user + system) over the window, per action.
    pub server_cpu_ms_per_action: f64,
    pub server_cpu_ms: f64,
    /// Every byte the server sent (HTTP and WebSocket, at the TCP level) in the window, per
    /// action.
    pub bytes_to_clients_per_action: f64,
    pub bytes_to_clients: u64,
    /// What the clients sent the server in the window, per action.
    pub bytes_from_clients_per_action: f64,
    /// The peak of the server's resident memory (`VmRSS`, sampled every 100 ms over the
    /// whole run), in MiB.
    pub server_rss_mb: f64,
    /// The server's own high-water mark (`VmHWM`) at the end, in MiB.
    pub server_hwm_mb: f64,
    /// Accounts created by `--signups`.
    pub signups: usize,
    /// The server's `VmRSS` right after those sign-ups, in MiB.
    pub server_rss_after_signups_mb: f64,
    /// Games that ended in the window (their seats then started a new one).
    pub games_finished: u64,
    /// WebSocket messages received in the window.
    pub ws_messages: u64,
    /// Failed actions, requests, socket messages and game set-ups.
    pub errors: u64,
    /// The first error met, if any.
    pub first_error: Option<String>,
    /// The server process measured (it has been killed and waited for).
    pub server_pid: u32,
    pub server_bin: String,
}

/// Refuses settings that cannot make a measurement.
pub fn check(config: &LoadConfig) -> Result<(), String> {
    if config.games == 0 || config.games > MAX_GAMES {
        return Err(format!(
            "--games must be 1 to {MAX_GAMES}, not {}",
            config.games
        ));
    }
    if config.seconds == 0 || config.seconds > MAX_SECONDS {
        return Err(format!(
            "--seconds must be 1 to {MAX_SECONDS}, not {}",
            config.seconds
        ));
    }
    if config.players == 0 {
        return Err("--players must be at least 1".into());
    }
    if config.opponent == Opponent::Human && config.players < 2 {
        return Err(
            "--opponent human needs --players 2 or more: each game is between two distinct accounts"
                .into(),
        );
    }
    if config.think_ms > MAX_THINK_MS {
        return Err(format!(
            "--think-ms must be at most {MAX_THINK_MS}, not {}",
            config.think_ms
        ));
    }
    if config.signups > MAX_SIGNUPS {
        return Err(format!(
            "--signups must be at most {MAX_SIGNUPS}, not {}",
            config.signups
        ));
    }
    if !matches!(config.database.as_str(), "sqlite" | "postgres") {
        return Err(format!(
            "--database must be sqlite or postgres, not {:?}",
            config.database
        ));
    }
    if !matches!(config.sync.as_str(), "normal" | "full") {
        return Err(format!(
            "--sync must be normal or full, not {:?}",
            config.sync
        ));
    }
    match (&config.level, config.opponent) {
        (Some(_), Opponent::Human) => {
            return Err("--level is the bot's level: it goes with --opponent bot only".into());
        }
        (Some(l), Opponent::Bot) => {
            muster_ai::Level::parse(l).map_err(|e| format!("--level: {e}"))?;
        }
        (None, _) => {}
    }
    if let Some(bin) = &config.server_bin {
        if !bin.is_file() {
            return Err(format!("--server-bin {}: no such file", bin.display()));
        }
    }
    Ok(())
}

/// The sides each game's accounts take.
#[derive(Clone, Debug)]
struct Sides {
    /// The sides a player may take (all but a solitaire scenario's bot side).
    playable: Vec<String>,
}

fn sides(config: &LoadConfig) -> Result<Sides, String> {
    let registry = crate::registry(config.data.as_deref())?;
    let game = registry.get(&config.game).map_err(|e| e.to_string())?;
    let info = game.info();
    let scenario = info
        .scenarios
        .iter()
        .find(|s| s.id == config.scenario)
        .ok_or_else(|| {
            format!(
                "{} has no scenario {:?}; its scenarios are {:?}",
                info.id,
                config.scenario,
                info.scenarios.iter().map(|s| &s.id).collect::<Vec<_>>()
            )
        })?;
    if config.opponent == Opponent::Human {
        if let Some(b) = &scenario.bot_side {
            return Err(format!(
                "{} is a solitaire scenario (the {b} side is a bot's): use --opponent bot",
                scenario.id
            ));
        }
        if info.sides.len() != 2 {
            return Err(format!(
                "--opponent human drives games of two sides; {} has {}",
                info.id,
                info.sides.len()
            ));
        }
    }
    let playable: Vec<String> = info
        .sides
        .iter()
        .filter(|s| scenario.bot_side.as_ref() != Some(*s))
        .cloned()
        .collect();
    if playable.is_empty() {
        return Err(format!("{} leaves no side to play", scenario.id));
    }
    Ok(Sides { playable })
}

/// Runs the load test; blocking (it starts its own runtime). The server process is killed and
/// waited for before this returns, whatever happened.
pub fn run(config: LoadConfig) -> Result<LoadReport, String> {
    check(&config)?;
    let sides = sides(&config)?;
    let bin = match &config.server_bin {
        Some(b) => b.clone(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find this program to start the server: {e}"))?,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    // The database outlives the server: `server` is dropped (killed) before `_pg`.
    let mut _pg = None;
    let mut db_file = None;
    let url = if config.database == "postgres" {
        let pg = muster_server::testing::TempPostgres::start()?;
        let url = runtime.block_on(pg.database())?;
        _pg = Some(pg);
        url
    } else {
        let file = std::env::temp_dir().join(format!(
            "muster-loadtest-{}-{}.db",
            std::process::id(),
            muster_server::now()
        ));
        let url = format!("sqlite://{}", file.display());
        db_file = Some(file);
        url
    };
    let mut server = Server::start(&bin, &config, &url, db_file)?;
    let ready = server.wait_ready(&runtime);
    let report = ready.and_then(|addr| {
        let pid = server.pid;
        runtime.block_on(measure(&config, &sides, addr, pid, &bin))
    });
    let alive = server
        .child
        .try_wait()
        .map(|s| s.is_none())
        .unwrap_or(false);
    let tail = server.tail();
    server.stop();
    drop(server);
    drop(_pg);
    match report {
        Ok(r) if !alive => Err(format!(
            "the server (pid {}) ended during the run{}",
            r.server_pid,
            if tail.is_empty() {
                String::new()
            } else {
                format!("; it said:\n{tail}")
            }
        )),
        Ok(r) => Ok(r),
        Err(e) if tail.is_empty() => Err(e),
        Err(e) => Err(format!("{e}\nthe server said:\n{tail}")),
    }
}

/// The `muster serve` child process: killed, waited for and its database file removed when
/// dropped.
struct Server {
    child: Child,
    pid: u32,
    addr: SocketAddr,
    /// The last lines the server wrote on its standard error.
    tail: Arc<Mutex<VecDeque<String>>>,
    db_file: Option<PathBuf>,
}

impl Server {
    fn start(
        bin: &Path,
        config: &LoadConfig,
        url: &str,
        db_file: Option<PathBuf>,
    ) -> Result<Server, String> {
        // A free port: the operating system's pick, released for the server to bind.
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port on 127.0.0.1: {e}"))?;
        let mut cmd = Command::new(bin);
        if let Some(data) = &config.data {
            cmd.arg("--data").arg(data);
        }
        cmd.args([
            "serve",
            "--addr",
            &addr.to_string(),
            "--database",
            url,
            "--insecure-cookies",
        ]);
        // Only when asked, so that builds from before `--sync` can be measured too.
        if config.sync != "normal" {
            cmd.args(["--sync", &config.sync]);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the server {}: {e}", bin.display()))?;
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = child.stderr.take() {
            let tail = tail.clone();
            std::thread::spawn(move || {
                for line in std::io::BufReader::new(err).lines() {
                    let Ok(line) = line else { break };
                    if line.starts_with("muster serve: listening on") {
                        continue;
                    }
                    let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                    if t.len() == 20 {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            });
        }
        Ok(Server {
            pid: child.id(),
            child,
            addr,
            tail,
            db_file,
        })
    }

    /// Waits (up to 30 s) until the server answers `GET /api/session`.
    fn wait_ready(&mut self, runtime: &tokio::runtime::Runtime) -> Result<SocketAddr, String> {
        let counter = Arc::new(Traffic::default());
        let addr = self.addr;
        for _ in 0..300 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("the server exited at start-up ({status})"));
            }
            let probe = runtime.block_on(async {
                let acct = Account::new("probe");
                let mut http = Http::new(addr, counter.clone());
                tokio::time::timeout(
                    Duration::from_secs(1),
                    http.request(&acct, "GET", "/api/session", None),
                )
                .await
            });
            if let Ok(Ok(_)) = probe {
                return Ok(addr);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!(
            "the server did not answer on {} within 30 s",
            self.addr
        ))
    }

    fn tail(&self) -> String {
        let t = self.tail.lock().unwrap_or_else(|p| p.into_inner());
        t.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
        if let Some(f) = &self.db_file {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", f.display()));
            }
        }
    }
}

/// `utime + stime` of a process, in milliseconds.
fn cpu_ms(pid: u32) -> Result<f64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // The command name is in parentheses and may hold spaces: count fields after its end.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, r)| r)
        .ok_or_else(|| format!("/proc/{pid}/stat: unexpected form"))?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of stat(5); field 3 (the state) is the first after the name.
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .ok_or_else(|| format!("/proc/{pid}/stat: no field {}", i + 3))
    };
    let ticks = tick(11)? + tick(12)?;
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Ok(ticks as f64 * 1000.0 / per_second as f64)
}

/// `VmRSS` and `VmHWM` of a process, in kB.
fn memory_kb(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

fn mib(kb: u64) -> f64 {
    (kb as f64 / 1024.0 * 10.0).round() / 10.0
}

/// Bytes moved over every connection of the load client.
#[derive(Default)]
struct Traffic {
    received: AtomicU64,
    sent: AtomicU64,
}

/// A TCP stream that counts the bytes through it.
struct Counting {
    inner: TcpStream,
    traffic: Arc<Traffic>,
}

impl AsyncRead for Counting {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = r {
            let n = buf.filled().len().saturating_sub(before) as u64;
            self.traffic.received.fetch_add(n, Ordering::Relaxed);
        }
        r
    }
}

impl AsyncWrite for Counting {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = r {
            self.traffic.sent.fetch_add(n as u64, Ordering::Relaxed);
        }
        r
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = r {
            self.traffic.sent.fetch_add(n as u64, Ordering::Relaxed);
        }
        r
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

async fn connect(addr: SocketAddr, traffic: &Arc<Traffic>) -> Result<Counting, String> {
    let inner = tokio::time::timeout(PATIENCE, TcpStream::connect(addr))
        .await
        .map_err(|_| format!("connecting to {addr} took over {} s", PATIENCE.as_secs()))?
        .map_err(|e| format!("connecting to {addr}: {e}"))?;
    inner.set_nodelay(true).map_err(|e| e.to_string())?;
    Ok(Counting {
        inner,
        traffic: traffic.clone(),
    })
}

/// An account as a browser holds it: its cookies and CSRF token, shared by all its tabs.
struct Account {
    name: String,
    cookies: Mutex<Vec<(String, String)>>,
    csrf: Mutex<String>,
}

impl Account {
    fn new(name: &str) -> Account {
        Account {
            name: name.to_string(),
            cookies: Mutex::new(Vec::new()),
            csrf: Mutex::new(String::new()),
        }
    }

    fn cookie_header(&self) -> String {
        let c = self.cookies.lock().unwrap_or_else(|p| p.into_inner());
        c.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Keeps a `Set-Cookie` value (its name and value; an empty value or `Max-Age=0` removes
    /// it).
    fn set_cookie(&self, header: &str) {
        let mut parts = header.split(';');
        let Some((name, value)) = parts.next().and_then(|p| p.split_once('=')) else {
            return;
        };
        let (name, value) = (name.trim().to_string(), value.trim().to_string());
        let gone = value.is_empty() || parts.any(|p| p.trim().eq_ignore_ascii_case("max-age=0"));
        let mut c = self.cookies.lock().unwrap_or_else(|p| p.into_inner());
        c.retain(|(k, _)| *k != name);
        if !gone {
            c.push((name, value));
        }
    }

    fn csrf(&self) -> String {
        self.csrf.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set_csrf(&self, token: &str) {
        *self.csrf.lock().unwrap_or_else(|p| p.into_inner()) = token.to_string();
    }
}

/// One kept-alive HTTP/1.1 connection (a browser tab's), opened again when the server closed
/// it.
struct Http {
    addr: SocketAddr,
    traffic: Arc<Traffic>,
    send: Option<hyper::client::conn::http1::SendRequest<Full<Bytes>>>,
}

impl Http {
    fn new(addr: SocketAddr, traffic: Arc<Traffic>) -> Http {
        Http {
            addr,
            traffic,
            send: None,
        }
    }

    async fn open(&mut self) -> Result<(), String> {
        let stream = connect(self.addr, &self.traffic).await?;
        let (send, conn) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .map_err(|e| format!("HTTP handshake: {e}"))?;
        tokio::spawn(async move {
            let _ = conn.await;
        });
        self.send = Some(send);
        Ok(())
    }

    /// A request as `acct`, with its cookies (and its CSRF token on a POST); keeps the cookies
    /// and token the answer gives. A refusal (not 2xx) is an error naming its kind.
    async fn request(
        &mut self,
        acct: &Account,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, String> {
        match tokio::time::timeout(PATIENCE, self.request_once(acct, method, path, body)).await {
            Ok(r) => r,
            Err(_) => {
                self.send = None;
                Err(format!(
                    "{method} {path}: no answer within {} s",
                    PATIENCE.as_secs()
                ))
            }
        }
    }

    async fn request_once(
        &mut self,
        acct: &Account,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, String> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        // A kept-alive connection the server closed in the meantime (its idle limit) is
        // opened again, once.
        let mut tries = 0;
        let response = loop {
            tries += 1;
            if self.send.as_ref().is_none_or(|s| s.is_closed()) {
                self.open().await?;
            }
            let Some(send) = self.send.as_mut() else {
                return Err("no connection".into());
            };
            let mut req = hyper::Request::builder()
                .method(method)
                .uri(path)
                .header(hyper::header::HOST, self.addr.to_string())
                .header(hyper::header::ACCEPT, "application/json");
            let cookies = acct.cookie_header();
            if !cookies.is_empty() {
                req = req.header(hyper::header::COOKIE, cookies);
            }
            if method == "POST" {
                req = req
                    .header("X-CSRF-Token", acct.csrf())
                    .header(hyper::header::CONTENT_TYPE, "application/json");
            }
            let req = req
                .body(Full::new(Bytes::from(body.clone())))
                .map_err(|e| format!("{method} {path}: {e}"))?;
            let ready = send.ready().await;
            let result = match ready {
                Ok(()) => send.send_request(req).await,
                Err(e) => Err(e),
            };
            match result {
                Ok(r) => break r,
                Err(e) if tries == 1 && (e.is_canceled() || e.is_closed()) => {
                    self.send = None;
                }
                Err(e) => {
                    self.send = None;
                    return Err(format!("{method} {path}: {e}"));
                }
            }
        };
        let status = response.status();
        for c in response.headers().get_all(hyper::header::SET_COOKIE) {
            if let Ok(c) = c.to_str() {
                acct.set_cookie(c);
            }
        }
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("{method} {path}: reading the answer: {e}"))?
            .to_bytes();
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{method} {path}: {status}, and its answer is not JSON ({e}): {}",
                String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
            )
        })?;
        if let Some(token) = v["csrf"].as_str() {
            acct.set_csrf(token);
        }
        if status.is_success() {
            Ok(v)
        } else {
            Err(format!(
                "{method} {path}: {status} {}: {}",
                v["error"]["kind"].as_str().unwrap_or("?"),
                v["error"]["message"].as_str().unwrap_or("")
            ))
        }
    }
}

/// Signs up a new account over its own connection, as a new browser would.
async fn sign_up(addr: SocketAddr, traffic: Arc<Traffic>, name: String) -> Result<Account, String> {
    let acct = Account::new(&name);
    let mut http = Http::new(addr, traffic);
    let s = http.request(&acct, "GET", "/api/session", None).await?;
    acct.set_csrf(s["csrf"].as_str().unwrap_or_default());
    http.request(
        &acct,
        "POST",
        "/api/signup",
        Some(&json!({"name": acct.name, "password": PASSWORD})),
    )
    .await?;
    Ok(acct)
}

/// Signs up `n` accounts named `prefix0`.., [`SIGNUPS_AT_ONCE`] at a time.
async fn sign_up_many(
    addr: SocketAddr,
    traffic: &Arc<Traffic>,
    prefix: &str,
    n: usize,
) -> Result<Vec<Account>, String> {
    let results: Vec<Result<Account, String>> = futures_util::stream::iter(0..n)
        .map(|i| sign_up(addr, traffic.clone(), format!("{prefix}{i}")))
        .buffered(SIGNUPS_AT_ONCE)
        .collect()
        .await;
    results.into_iter().collect()
}

type Ws = WebSocketStream<Counting>;

/// The start of a JSON value, for error messages.
fn clip(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 160 {
        format!("{}...", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

/// What a seat knows of its game.
#[derive(Debug, Default)]
struct SeatView {
    version: i64,
    status: String,
    /// The actions this seat may take now (empty when it is not its decision).
    legal: Vec<String>,
    /// Log entries held.
    log: usize,
}

impl SeatView {
    /// From a whole game (`GET /api/games/{id}`, an act answer, or a socket `state`).
    fn whole(g: &Value) -> Result<SeatView, String> {
        let mut v = SeatView::default();
        v.apply(g);
        if g["version"].as_i64().is_none() {
            return Err(format!("a game without a version: {}", clip(g)));
        }
        Ok(v)
    }

    /// Sets the members present (a socket `update` carries only the changed ones).
    fn apply(&mut self, u: &Value) {
        if let Some(v) = u["version"].as_i64() {
            self.version = v;
        }
        if let Some(s) = u["status"].as_str() {
            self.status = s.to_string();
        }
        if let Some(l) = u["legal"].as_array() {
            self.legal = l
                .iter()
                .filter_map(|a| a["action"].as_str().or(a.as_str()).map(str::to_string))
                .collect();
        }
        if let Some(log) = u["log"].as_array() {
            let start = u["log_start"].as_u64().unwrap_or(0) as usize;
            self.log = start + log.len();
        }
    }

    fn my_turn(&self) -> bool {
        self.status == "active" && !self.legal.is_empty()
    }
}

/// What every game task shares.
struct Shared {
    addr: SocketAddr,
    traffic: Arc<Traffic>,
    config: LoadConfig,
    sides: Sides,
    /// The end of the measured window.
    deadline: Instant,
    errors: AtomicU64,
    first_error: Mutex<Option<String>>,
    ws_messages: AtomicU64,
    games_finished: AtomicU64,
    latencies: Mutex<Vec<f64>>,
}

impl Shared {
    fn error(&self, e: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut f = self.first_error.lock().unwrap_or_else(|p| p.into_inner());
        if f.is_none() {
            *f = Some(e);
        }
    }
}

/// One seat: an account in one browser tab (its HTTP connection and its game socket).
struct Seat {
    acct: Arc<Account>,
    http: Http,
    ws: Ws,
    view: SeatView,
    rng: Dice,
    /// The next socket message id.
    next_id: u64,
}

/// A game ready to play.
struct Table {
    id: String,
    seats: Vec<Seat>,
}

async fn open_socket(sh: &Shared, acct: &Account, id: &str, log: usize) -> Result<Ws, String> {
    let query = if log > 0 {
        format!("?log={log}")
    } else {
        String::new()
    };
    let mut req = format!("ws://{}/api/games/{id}/ws{query}", sh.addr)
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let cookies = acct.cookie_header();
    if !cookies.is_empty() {
        req.headers_mut().insert(
            hyper::header::COOKIE,
            cookies.parse().map_err(|e| format!("cookie header: {e}"))?,
        );
    }
    let stream = connect(sh.addr, &sh.traffic).await?;
    let (ws, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::client_async(req, stream))
        .await
        .map_err(|_| {
            format!(
                "the socket of game {id} did not open within {} s",
                PATIENCE.as_secs()
            )
        })?
        .map_err(|e| format!("the socket of game {id}: {e}"))?;
    Ok(ws)
}

/// The next text message of a socket, parsed; `Ok(None)` at `until`.
async fn next_message(ws: &mut Ws, until: Instant) -> Result<Option<Value>, String> {
    loop {
        match tokio::time::timeout_at(until, ws.next()).await {
            Err(_) => return Ok(None),
            Ok(None) => return Err("the server closed the game socket".into()),
            Ok(Some(Err(e))) => return Err(format!("the game socket: {e}")),
            Ok(Some(Ok(Message::Text(t)))) => {
                return serde_json::from_str(t.as_str())
                    .map(Some)
                    .map_err(|e| format!("a socket message that is not JSON ({e})"));
            }
            Ok(Some(Ok(Message::Close(_)))) => {
                return Err("the server closed the game socket".into());
            }
            // Pings are answered by the socket itself.
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// Opens a seat's socket and learns its game: for the socket protocol from the `state`
/// message, for the HTTP protocol from a `GET` (after the socket is open, so that no change
/// is missed).
async fn open_seat(
    sh: &Shared,
    acct: Arc<Account>,
    mut http: Http,
    id: &str,
    log: usize,
    seed: u64,
) -> Result<Seat, String> {
    let mut ws = open_socket(sh, &acct, id, log).await?;
    let view = match sh.config.protocol {
        Protocol::Socket => {
            let until = Instant::now() + PATIENCE;
            let first = next_message(&mut ws, until).await?.ok_or_else(|| {
                format!(
                    "game {id}: no state message within {} s",
                    PATIENCE.as_secs()
                )
            })?;
            if first["type"] != "state" {
                return Err(format!(
                    "the server's first socket message is {}, not a state message: this server does not speak the game socket protocol of issue 13; measure it with --protocol http",
                    clip(&first)
                ));
            }
            SeatView::whole(&first)?
        }
        Protocol::Http => {
            let g = http
                .request(&acct, "GET", &format!("/api/games/{id}"), None)
                .await?;
            SeatView::whole(&g)?
        }
    };
    Ok(Seat {
        acct,
        http,
        ws,
        view,
        rng: Dice::from_seed(seed),
        next_id: 1,
    })
}

/// Sets up game `g` (its `round`-th since the start): created by its first account, joined by
/// the second in a human game, each seat's socket open.
async fn set_up(
    sh: &Shared,
    accounts: &[Arc<Account>],
    g: usize,
    round: u64,
) -> Result<Table, String> {
    let cfg = &sh.config;
    let n = accounts.len();
    let seed = ((g as u64) << 20) | (round << 2);
    let side = &sh.sides.playable[g % sh.sides.playable.len()];
    let (a, b) = match cfg.opponent {
        Opponent::Bot => (accounts[g % n].clone(), None),
        Opponent::Human => (
            accounts[(2 * g) % n].clone(),
            Some(accounts[(2 * g + 1) % n].clone()),
        ),
    };
    let mut http_a = Http::new(sh.addr, sh.traffic.clone());
    let mut body = json!({
        "game": cfg.game,
        "scenario": cfg.scenario,
        "side": side,
        "opponent": cfg.opponent.id(),
    });
    if cfg.opponent == Opponent::Bot {
        body["level"] = json!(cfg.level.as_deref().unwrap_or("random"));
    }
    let created = http_a
        .request(&a, "POST", "/api/games", Some(&body))
        .await?;
    let id = created["id"]
        .as_str()
        .ok_or_else(|| format!("POST /api/games answered no id: {created}"))?
        .to_string();
    let mut seats = Vec::new();
    if let Some(b) = b {
        let invite = created["invite"]
            .as_str()
            .ok_or_else(|| format!("POST /api/games (human) answered no invite: {created}"))?;
        let mut http_b = Http::new(sh.addr, sh.traffic.clone());
        http_b
            .request(
                &b,
                "POST",
                &format!("/api/games/{id}/join"),
                Some(&json!({"invite": invite})),
            )
            .await?;
        seats.push(open_seat(sh, a, http_a, &id, 0, seed).await?);
        seats.push(open_seat(sh, b, http_b, &id, 0, seed | 1).await?);
    } else {
        seats.push(open_seat(sh, a, http_a, &id, 0, seed).await?);
    }
    Ok(Table { id, seats })
}

/// A pause before a decision: uniform from half to one and a half times `--think-ms`.
fn think(rng: &mut Dice, think_ms: u64) -> Duration {
    let us = think_ms.saturating_mul(1000);
    if us == 0 {
        return Duration::ZERO;
    }
    let span = u32::try_from(us).unwrap_or(u32::MAX);
    Duration::from_micros(us / 2 + u64::from(rng.below(span.saturating_add(1).max(1))))
}

/// Why a seat stopped.
enum SeatEnd {
    /// The game ended.
    Finished,
    /// The deadline came, or the seat gave up after errors.
    Stopped,
}

/// Plays one seat until the game ends or the deadline.
async fn play_seat(sh: Arc<Shared>, id: String, mut seat: Seat, start_ms: u64) -> SeatEnd {
    let deadline = sh.deadline;
    // Each game starts at a random moment within the first pause.
    tokio::time::sleep_until(deadline.min(Instant::now() + Duration::from_millis(start_ms))).await;
    let mut errors = 0;
    let mut latencies = Vec::new();
    let end = loop {
        if Instant::now() >= deadline {
            break SeatEnd::Stopped;
        }
        if seat.view.status == "finished" {
            break SeatEnd::Finished;
        }
        if errors >= SEAT_ERRORS {
            break SeatEnd::Stopped;
        }
        let step = if seat.view.my_turn() {
            let pause = think(&mut seat.rng, sh.config.think_ms);
            tokio::time::sleep_until(deadline.min(Instant::now() + pause)).await;
            if Instant::now() >= deadline {
                break SeatEnd::Stopped;
            }
            let pick = seat.rng.below(seat.view.legal.len() as u32) as usize;
            let action = seat.view.legal[pick].clone();
            let answered = match sh.config.protocol {
                Protocol::Http => act_http(&id, &mut seat, &action).await,
                Protocol::Socket => act_socket(&sh, &mut seat, &action).await,
            };
            answered.map(|ms| latencies.push(ms))
        } else {
            follow(&sh, &id, &mut seat).await
        };
        if let Err(e) = step {
            errors += 1;
            sh.error(format!("game {id}: {e}"));
            if let Err(e) = resync(&sh, &id, &mut seat).await {
                sh.error(format!("game {id}: {e}"));
                break SeatEnd::Stopped;
            }
        }
    };
    sh.latencies
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .extend(latencies);
    end
}

/// An action over HTTP; its latency in ms.
async fn act_http(id: &str, seat: &mut Seat, action: &str) -> Result<f64, String> {
    let t = Instant::now();
    let answer = seat
        .http
        .request(
            &seat.acct,
            "POST",
            &format!("/api/games/{id}/act"),
            Some(&json!({"action": action, "version": seat.view.version})),
        )
        .await?;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    seat.view = SeatView::whole(&answer)?;
    Ok(ms)
}

/// An action over the game socket; its latency (to the `ack`) in ms.
async fn act_socket(sh: &Shared, seat: &mut Seat, action: &str) -> Result<f64, String> {
    let id = seat.next_id;
    seat.next_id += 1;
    let msg = json!({"type": "act", "id": id, "action": action, "version": seat.view.version});
    let t = Instant::now();
    tokio::time::timeout(
        PATIENCE,
        seat.ws.send(Message::Text(msg.to_string().into())),
    )
    .await
    .map_err(|_| "sending on the game socket stalled".to_string())?
    .map_err(|e| format!("sending on the game socket: {e}"))?;
    let until = t + PATIENCE;
    loop {
        let m = next_message(&mut seat.ws, until)
            .await?
            .ok_or_else(|| format!("no ack within {} s", PATIENCE.as_secs()))?;
        sh.ws_messages.fetch_add(1, Ordering::Relaxed);
        match m["type"].as_str() {
            // The update of the change carries its acknowledgement (`ack`).
            Some("update") if m["ack"] == id => {
                seat.view.apply(&m);
                return Ok(t.elapsed().as_secs_f64() * 1000.0);
            }
            Some("update") => seat.view.apply(&m),
            Some("ack") if m["id"] == id => {
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                if let Some(v) = m["version"].as_i64() {
                    seat.view.version = v;
                }
                return Ok(ms);
            }
            Some("error") if m["id"] == id || m["id"].is_null() => {
                return Err(format!(
                    "act {action:?} refused: {} {}",
                    m["error"]["kind"].as_str().unwrap_or("?"),
                    m["error"]["message"].as_str().unwrap_or("")
                ));
            }
            _ => {}
        }
    }
}

/// Waits for the game to change (until the deadline) and takes the change in.
async fn follow(sh: &Shared, id: &str, seat: &mut Seat) -> Result<(), String> {
    let Some(m) = next_message(&mut seat.ws, sh.deadline).await? else {
        return Ok(());
    };
    sh.ws_messages.fetch_add(1, Ordering::Relaxed);
    match sh.config.protocol {
        Protocol::Socket => {
            if m["type"] == "update" {
                seat.view.apply(&m);
            } else if m["type"] == "state" {
                seat.view = SeatView::whole(&m)?;
            }
        }
        Protocol::Http => {
            // The browser: a notice of a version it does not hold means a GET.
            if m["type"] == "update" && m["version"].as_i64().is_some_and(|v| v > seat.view.version)
            {
                fetch_whole(id, seat).await?;
            }
        }
    }
    Ok(())
}

/// After an error: the game as the server has it (the socket opened again for the socket
/// protocol, a `GET` for HTTP).
async fn resync(sh: &Shared, id: &str, seat: &mut Seat) -> Result<(), String> {
    match sh.config.protocol {
        Protocol::Socket => {
            let mut ws = open_socket(sh, &seat.acct, id, seat.view.log).await?;
            let m = next_message(&mut ws, Instant::now() + PATIENCE)
                .await?
                .ok_or("no state message after reconnecting")?;
            if m["type"] != "state" {
                return Err(format!(
                    "not a state message after reconnecting: {}",
                    clip(&m)
                ));
            }
            seat.view = SeatView::whole(&m)?;
            seat.ws = ws;
        }
        Protocol::Http => fetch_whole(id, seat).await?,
    }
    Ok(())
}

/// The game as the seat's `GET` answers it, taken as the seat's whole view.
async fn fetch_whole(id: &str, seat: &mut Seat) -> Result<(), String> {
    let g = seat
        .http
        .request(&seat.acct, "GET", &format!("/api/games/{id}"), None)
        .await?;
    seat.view = SeatView::whole(&g)?;
    Ok(())
}

/// Plays game `g` until the deadline: its seats play it; when it ends, a new one is set up.
async fn drive_game(sh: Arc<Shared>, accounts: Arc<Vec<Arc<Account>>>, g: usize, first: Table) {
    let mut table = first;
    let mut stagger = Dice::from_seed(g as u64 ^ 0x5eed);
    let start_ms =
        u64::from(stagger.below(u32::try_from(sh.config.think_ms.max(1)).unwrap_or(u32::MAX)));
    let mut round = 0;
    loop {
        let tasks: Vec<_> = table
            .seats
            .drain(..)
            .map(|seat| {
                tokio::spawn(play_seat(
                    sh.clone(),
                    table.id.clone(),
                    seat,
                    if round == 0 { start_ms } else { 0 },
                ))
            })
            .collect();
        let mut finished = false;
        for t in tasks {
            if let Ok(SeatEnd::Finished) = t.await {
                finished = true;
            }
        }
        if !finished || Instant::now() >= sh.deadline {
            return;
        }
        sh.games_finished.fetch_add(1, Ordering::Relaxed);
        round += 1;
        table = match set_up(&sh, &accounts, g, round).await {
            Ok(t) => t,
            Err(e) => {
                sh.error(format!("setting up game {g} again: {e}"));
                return;
            }
        };
    }
}

/// Samples the server's memory every 100 ms until told to stop; the peak `VmRSS` in kB.
fn sample_memory(pid: u32, peak: Arc<AtomicU64>, stop: Arc<std::sync::atomic::AtomicBool>) {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            if let Some((rss, _)) = memory_kb(pid) {
                peak.fetch_max(rss, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

async fn measure(
    config: &LoadConfig,
    sides: &Sides,
    addr: SocketAddr,
    pid: u32,
    bin: &Path,
) -> Result<LoadReport, String> {
    let peak = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    sample_memory(pid, peak.clone(), stop.clone());
    let result = measure_sampled(config, sides, addr, pid, bin, &peak).await;
    stop.store(true, Ordering::Relaxed);
    result
}

async fn measure_sampled(
    config: &LoadConfig,
    sides: &Sides,
    addr: SocketAddr,
    pid: u32,
    bin: &Path,
    peak: &Arc<AtomicU64>,
) -> Result<LoadReport, String> {
    let traffic = Arc::new(Traffic::default());
    sign_up_many(addr, &traffic, "signup", config.signups)
        .await
        .map_err(|e| format!("--signups: {e}"))?;
    let after_signups = memory_kb(pid).map_or(0, |m| m.0);
    peak.fetch_max(after_signups, Ordering::Relaxed);
    let seats_needed = match config.opponent {
        Opponent::Bot => config.games,
        Opponent::Human => 2 * config.games,
    };
    let players = config.players.min(seats_needed);
    let accounts: Arc<Vec<Arc<Account>>> = Arc::new(
        sign_up_many(addr, &traffic, "load", players)
            .await
            .map_err(|e| format!("signing up the players: {e}"))?
            .into_iter()
            .map(Arc::new)
            .collect(),
    );
    // The deadline is set once every game is ready; until then it is far away.
    let mut shared = Shared {
        addr,
        traffic: traffic.clone(),
        config: config.clone(),
        sides: sides.clone(),
        deadline: Instant::now() + Duration::from_secs(MAX_SECONDS * 2),
        errors: AtomicU64::new(0),
        first_error: Mutex::new(None),
        ws_messages: AtomicU64::new(0),
        games_finished: AtomicU64::new(0),
        latencies: Mutex::new(Vec::new()),
    };
    let tables: Vec<(usize, Result<Table, String>)> = {
        let sh = &shared;
        let acc = &accounts;
        futures_util::stream::iter(0..config.games)
            .map(|g| async move { (g, set_up(sh, acc, g, 0).await) })
            .buffer_unordered(SETUPS_AT_ONCE)
            .collect()
            .await
    };
    let mut ready = Vec::new();
    for (g, t) in tables {
        match t {
            Ok(t) => ready.push((g, t)),
            Err(e) => shared.error(format!("setting up game {g}: {e}")),
        }
    }
    if ready.is_empty() {
        let first = shared
            .first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .unwrap_or_default();
        return Err(format!("no game could be set up: {first}"));
    }
    // The measured window.
    let cpu0 = cpu_ms(pid)?;
    let received0 = traffic.received.load(Ordering::Relaxed);
    let sent0 = traffic.sent.load(Ordering::Relaxed);
    let start = Instant::now();
    shared.deadline = start + Duration::from_secs(config.seconds);
    let sh = Arc::new(shared);
    let tasks: Vec<_> = ready
        .into_iter()
        .map(|(g, t)| tokio::spawn(drive_game(sh.clone(), accounts.clone(), g, t)))
        .collect();
    for t in tasks {
        if let Err(e) = t.await {
            sh.error(format!("a game task failed: {e}"));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let cpu = cpu_ms(pid)? - cpu0;
    let received = traffic.received.load(Ordering::Relaxed) - received0;
    let sent = traffic.sent.load(Ordering::Relaxed) - sent0;
    let (rss, hwm) = memory_kb(pid).unwrap_or((0, 0));
    peak.fetch_max(rss, Ordering::Relaxed);
    let mut lat = sh
        .latencies
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    lat.sort_by(|a, b| a.total_cmp(b));
    let actions = lat.len() as u64;
    let per_action = |x: f64| {
        if actions == 0 {
            0.0
        } else {
            x / actions as f64
        }
    };
    let first_error = sh
        .first_error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    Ok(LoadReport {
        database: config.database.clone(),
        games: config.games,
        opponent: config.opponent,
        level: match config.opponent {
            Opponent::Bot => Some(config.level.clone().unwrap_or_else(|| "random".into())),
            Opponent::Human => None,
        },
        protocol: config.protocol,
        players,
        think_ms: config.think_ms,
        seconds: round3(seconds),
        actions,
        actions_per_second: round3(actions as f64 / seconds.max(1e-9)),
        p50_ms: round3(percentile(&lat, 0.50)),
        p90_ms: round3(percentile(&lat, 0.90)),
        p99_ms: round3(percentile(&lat, 0.99)),
        max_ms: round3(lat.last().copied().unwrap_or(0.0)),
        server_cpu_ms_per_action: round3(per_action(cpu)),
        server_cpu_ms: round3(cpu),
        bytes_to_clients_per_action: per_action(received as f64).round(),
        bytes_to_clients: received,
        bytes_from_clients_per_action: per_action(sent as f64).round(),
        server_rss_mb: mib(peak.load(Ordering::Relaxed)),
        server_hwm_mb: mib(hwm),
        signups: config.signups,
        server_rss_after_signups_mb: mib(after_signups),
        games_finished: sh.games_finished.load(Ordering::Relaxed),
        ws_messages: sh.ws_messages.load(Ordering::Relaxed),
        errors: sh.errors.load(Ordering::Relaxed),
        first_error,
        server_pid: pid,
        server_bin: bin.display().to_string(),
    })
}

/// The report as a readable table.
pub fn table(r: &LoadReport) -> String {
    let rows: Vec<(&str, String)> = vec![
        (
            "load",
            format!(
                "{} games, {} vs {}, {} protocol, {} accounts, think {} ms",
                r.games,
                "player",
                match &r.level {
                    Some(l) => format!("bot ({l})"),
                    None => "player".into(),
                },
                match r.protocol {
                    Protocol::Socket => "socket",
                    Protocol::Http => "http",
                },
                r.players,
                r.think_ms
            ),
        ),
        (
            "server",
            format!("{} (pid {}) on {}", r.server_bin, r.server_pid, r.database),
        ),
        ("window", format!("{:.1} s", r.seconds)),
        (
            "actions",
            format!("{} ({:.1} a second)", r.actions, r.actions_per_second),
        ),
        (
            "latency",
            format!(
                "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                r.p50_ms, r.p90_ms, r.p99_ms, r.max_ms
            ),
        ),
        (
            "server CPU",
            format!(
                "{:.3} ms an action ({:.0} ms in all)",
                r.server_cpu_ms_per_action, r.server_cpu_ms
            ),
        ),
        (
            "bytes to clients",
            format!(
                "{:.0} an action ({} in all); {:.0} an action from them",
                r.bytes_to_clients_per_action, r.bytes_to_clients, r.bytes_from_clients_per_action
            ),
        ),
        (
            "server memory",
            format!(
                "peak RSS {:.1} MiB, high-water mark {:.1} MiB; {:.1} MiB after {} sign-ups",
                r.server_rss_mb, r.server_hwm_mb, r.server_rss_after_signups_mb, r.signups
            ),
        ),
        (
            "games finished",
            format!("{} (each replaced by a new game)", r.games_finished),
        ),
        ("socket messages", r.ws_messages.to_string()),
        (
            "errors",
            match &r.first_error {
                Some(e) => format!("{} (the first: {e})", r.errors),
                None => r.errors.to_string(),
            },
        ),
    ];
    rows.iter()
        .map(|(k, v)| format!("{k:<17} {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_kept_replaced_and_removed() {
        let a = Account::new("x");
        a.set_cookie("muster_csrf=abc; Path=/; SameSite=Strict");
        a.set_cookie("muster_session=s1; Path=/; HttpOnly; Max-Age=100");
        assert_eq!(a.cookie_header(), "muster_csrf=abc; muster_session=s1");
        a.set_cookie("muster_csrf=def; Path=/");
        assert_eq!(a.cookie_header(), "muster_session=s1; muster_csrf=def");
        a.set_cookie("muster_session=; Path=/; Max-Age=0");
        assert_eq!(a.cookie_header(), "muster_csrf=def");
    }

    #[test]
    fn a_socket_update_sets_only_what_it_carries() {
        let mut v = SeatView::whole(&json!({
            "type": "state", "version": 3, "status": "active",
            "legal": [{"action": "a"}, {"action": "b"}], "log": [1, 2], "log_start": 0
        }))
        .unwrap();
        assert!(v.my_turn());
        assert_eq!(v.log, 2);
        v.apply(&json!({"type": "update", "version": 4, "log_start": 2, "log": [3]}));
        assert_eq!((v.version, v.log, v.legal.len()), (4, 3, 2));
        v.apply(&json!({"type": "update", "version": 5, "legal": [], "log_start": 3, "log": []}));
        assert!(!v.my_turn());
        assert_eq!(v.status, "active");
    }

    #[test]
    fn pauses_stay_within_half_and_one_and_a_half_times() {
        let mut rng = Dice::from_seed(1);
        for _ in 0..1000 {
            let d = think(&mut rng, 1000);
            assert!(d >= Duration::from_millis(500) && d <= Duration::from_millis(1500));
        }
        assert_eq!(think(&mut rng, 0), Duration::ZERO);
    }

    async fn read(ws: &mut WebSocketStream<TcpStream>) -> Value {
        loop {
            if let Some(Ok(Message::Text(t))) = ws.next().await {
                return serde_json::from_str::<Value>(t.as_str()).unwrap();
            }
        }
    }

    /// The socket client against a stand-in server speaking the game socket protocol: the
    /// `state` on connect, an action answered by `update` then `ack`, the other side's move as
    /// an `update`, and a refusal as `error`.
    #[tokio::test]
    async fn the_socket_client_follows_the_protocol() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            let send = |v: Value| Message::Text(v.to_string().into());
            ws.send(send(
                json!({"type": "state", "version": 1, "status": "active",
                "legal": [{"action": "a"}], "log": ["x"], "log_start": 0, "view": {}}),
            ))
            .await
            .unwrap();
            let act = read(&mut ws).await;
            assert_eq!(
                (&act["type"], &act["action"], &act["version"]),
                (&json!("act"), &json!("a"), &json!(1))
            );
            ws.send(send(
                json!({"type": "update", "version": 2, "legal": [], "to_act": "british",
                "log_start": 1, "log": ["y"], "view_patch": []}),
            ))
            .await
            .unwrap();
            ws.send(send(json!({"type": "ack", "id": act["id"], "version": 2})))
                .await
                .unwrap();
            ws.send(send(
                json!({"type": "update", "version": 3, "legal": [{"action": "b"}],
                "log_start": 2, "log": ["z"]}),
            ))
            .await
            .unwrap();
            let act = read(&mut ws).await;
            assert_eq!((&act["action"], &act["version"]), (&json!("b"), &json!(3)));
            ws.send(send(json!({"type": "error", "id": act["id"],
                "error": {"kind": "stale", "message": "the game moved"}})))
                .await
                .unwrap();
        });
        let traffic = Arc::new(Traffic::default());
        let sh = Shared {
            addr,
            traffic: traffic.clone(),
            config: LoadConfig {
                games: 1,
                players: 1,
                seconds: 1,
                think_ms: 0,
                database: "sqlite".into(),
                game: "battles".into(),
                scenario: "freemans-farm".into(),
                sync: "normal".into(),
                opponent: Opponent::Human,
                level: None,
                protocol: Protocol::Socket,
                signups: 0,
                server_bin: None,
                data: None,
            },
            sides: Sides {
                playable: vec!["american".into()],
            },
            deadline: Instant::now() + Duration::from_secs(10),
            errors: AtomicU64::new(0),
            first_error: Mutex::new(None),
            ws_messages: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            latencies: Mutex::new(Vec::new()),
        };
        let acct = Arc::new(Account::new("a"));
        let http = Http::new(addr, traffic.clone());
        let mut seat = open_seat(&sh, acct, http, "g", 0, 1).await.unwrap();
        assert!(seat.view.my_turn());
        assert_eq!((seat.view.version, seat.view.log), (1, 1));
        let ms = act_socket(&sh, &mut seat, "a").await.unwrap();
        assert!(ms >= 0.0);
        assert!(!seat.view.my_turn());
        assert_eq!((seat.view.version, seat.view.log), (2, 2));
        follow(&sh, "g", &mut seat).await.unwrap();
        assert_eq!(seat.view.legal, vec!["b".to_string()]);
        assert_eq!((seat.view.version, seat.view.log), (3, 3));
        let refused = act_socket(&sh, &mut seat, "b").await.unwrap_err();
        assert!(refused.contains("stale"), "{refused}");
        server.await.unwrap();
        assert!(traffic.received.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn a_stat_line_gives_user_and_system_time() {
        // Our own process: some CPU time, read through the same parser.
        assert!(cpu_ms(std::process::id()).is_ok());
        assert!(memory_kb(std::process::id()).is_some_and(|(rss, hwm)| rss > 0 && hwm >= rss));
    }
}
