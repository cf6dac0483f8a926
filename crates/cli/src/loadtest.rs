//! `muster loadtest`: many concurrent games driven over HTTP and WebSocket against a server
//! on loopback, bounded in count and time; reports throughput and action latency.

use muster_server::{Config, serve_on, state};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    pub games: usize,
    pub players: usize,
    pub seconds: u64,
    /// Mean pause of each simulated player between decisions; each pause is drawn uniformly
    /// from half to one and a half times this, and each game starts at a random moment within
    /// the first pause, so that 500 players do not act in lockstep waves.
    pub think_ms: u64,
    /// `sqlite` (a temporary file) or `postgres` (a throwaway cluster).
    pub database: String,
    pub game: String,
    pub scenario: String,
    /// How SQLite commits (`--sync`).
    pub sync: muster_server::db::Sync,
}

/// What it measured.
#[derive(Debug, serde::Serialize)]
pub struct LoadReport {
    pub database: String,
    pub games: usize,
    pub seconds: f64,
    pub actions: u64,
    pub actions_per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub errors: u64,
    pub ws_updates: u64,
}

struct Player {
    http: reqwest::Client,
    base: String,
    /// The CSRF token; the server gives a new one at sign-up.
    csrf: std::sync::Mutex<String>,
}

impl Player {
    async fn post(&self, path: &str, body: Value) -> Result<Value, String> {
        let csrf = self.csrf.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("X-CSRF-Token", csrf)
            .json(&body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let ok = r.status().is_success();
        let v: Value = r.json().await.map_err(|e| e.to_string())?;
        if let Some(token) = v["csrf"].as_str() {
            *self.csrf.lock().unwrap_or_else(|p| p.into_inner()) = token.to_string();
        }
        if ok { Ok(v) } else { Err(v.to_string()) }
    }
    async fn get(&self, path: &str) -> Result<Value, String> {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())
    }
}

async fn player(base: &str, name: &str) -> Result<Player, String> {
    let http = reqwest::Client::builder()
        .cookie_store(true)
        .pool_max_idle_per_host(64)
        .build()
        .map_err(|e| e.to_string())?;
    let s: Value = http
        .get(format!("{base}/api/session"))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let p = Player {
        http,
        base: base.to_string(),
        csrf: std::sync::Mutex::new(s["csrf"].as_str().unwrap_or_default().to_string()),
    };
    p.post(
        "/api/signup",
        json!({"name": name, "password": "load test password"}),
    )
    .await?;
    Ok(p)
}

/// Runs the load test; blocking (it starts its own runtime).
pub fn run(config: LoadConfig) -> Result<LoadReport, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(run_async(config))
}

async fn run_async(config: LoadConfig) -> Result<LoadReport, String> {
    let file = std::env::temp_dir().join(format!("muster-loadtest-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let mut _pg = None;
    let url = match config.database.as_str() {
        "sqlite" => format!("sqlite://{}", file.display()),
        "postgres" => {
            let pg = tokio::task::spawn_blocking(muster_server::testing::TempPostgres::start)
                .await
                .map_err(|e| e.to_string())??;
            let url = pg.database().await?;
            _pg = Some(pg);
            url
        }
        other => {
            return Err(format!(
                "--database must be sqlite or postgres, not {other:?}"
            ));
        }
    };
    let server_config = Config {
        addr: "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?,
        database: url,
        secure_cookies: false,
        sync: config.sync,
        ..Default::default()
    };
    let st = state(server_config, crate::registry(None)?, crate::bots()).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        serve_on(listener, st).await;
    });
    let base = format!("http://{addr}");
    let players = config.players.clamp(1, config.games.max(1));
    let mut ps = Vec::new();
    for i in 0..players {
        ps.push(Arc::new(player(&base, &format!("load{i}")).await?));
    }
    let latencies = Arc::new(std::sync::Mutex::new(Vec::<f64>::new()));
    let errors = Arc::new(AtomicU64::new(0));
    let updates = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(config.seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..config.games {
        let p = ps[g % players].clone();
        let (lat, err, upd, cfg) = (
            latencies.clone(),
            errors.clone(),
            updates.clone(),
            config.clone(),
        );
        tasks.push(tokio::spawn(async move {
            play_one(p, addr, g, cfg, deadline, lat, err, upd).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let seconds = start.elapsed().as_secs_f64();
    let mut lat = latencies.lock().map_err(|e| e.to_string())?.clone();
    lat.sort_by(|a, b| a.total_cmp(b));
    let pct = |q: f64| {
        if lat.is_empty() {
            0.0
        } else {
            lat[((lat.len() - 1) as f64 * q).round() as usize]
        }
    };
    let _ = std::fs::remove_file(&file);
    Ok(LoadReport {
        database: config.database.clone(),
        games: config.games,
        seconds,
        actions: lat.len() as u64,
        actions_per_second: lat.len() as f64 / seconds.max(1e-9),
        p50_ms: pct(0.50),
        p99_ms: pct(0.99),
        max_ms: lat.last().copied().unwrap_or(0.0),
        errors: errors.load(Ordering::Relaxed),
        ws_updates: updates.load(Ordering::Relaxed),
    })
}

#[allow(clippy::too_many_arguments)]
async fn play_one(
    p: Arc<Player>,
    addr: SocketAddr,
    g: usize,
    cfg: LoadConfig,
    deadline: Instant,
    latencies: Arc<std::sync::Mutex<Vec<f64>>>,
    errors: Arc<AtomicU64>,
    updates: Arc<AtomicU64>,
) {
    use futures_util::StreamExt;
    let side = if g % 2 == 0 { "american" } else { "british" };
    let created = p
        .post("/api/games", json!({"game": cfg.game, "scenario": cfg.scenario, "side": side, "opponent": "bot", "level": "random"}))
        .await;
    let Ok(created) = created else {
        errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let (ws, _) =
        match tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await {
            Ok(x) => x,
            Err(_) => {
                errors.fetch_add(1, Ordering::Relaxed);
                return;
            }
        };
    let (_, mut read) = ws.split();
    let notify = Arc::new(tokio::sync::Notify::new());
    let n2 = notify.clone();
    let upd = updates.clone();
    let reader = tokio::spawn(async move {
        while let Some(Ok(_)) = read.next().await {
            upd.fetch_add(1, Ordering::Relaxed);
            n2.notify_one();
        }
    });
    let mut rng = muster_core::Dice::from_seed(g as u64);
    let think = |rng: &mut muster_core::Dice| {
        let ms = cfg.think_ms.max(1);
        let span = u32::try_from(ms).unwrap_or(u32::MAX);
        Duration::from_millis(ms / 2 + u64::from(rng.below(span)))
    };
    tokio::time::sleep(Duration::from_millis(u64::from(
        rng.below(u32::try_from(cfg.think_ms.max(1)).unwrap_or(u32::MAX)),
    )))
    .await;
    while Instant::now() < deadline {
        let Ok(game) = p.get(&format!("/api/games/{id}")).await else {
            errors.fetch_add(1, Ordering::Relaxed);
            break;
        };
        if game["status"] == "finished" {
            break;
        }
        let legal = game["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            // The bot's turn: wait for the WebSocket to say the game moved.
            let _ = tokio::time::timeout(Duration::from_secs(2), notify.notified()).await;
            continue;
        }
        tokio::time::sleep(think(&mut rng)).await;
        let action = legal[rng.below(legal.len() as u32) as usize]["action"].clone();
        let t = Instant::now();
        let r = p
            .post(
                &format!("/api/games/{id}/act"),
                json!({"action": action, "version": game["version"]}),
            )
            .await;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        match r {
            Ok(_) => latencies.lock().map(|mut l| l.push(ms)).unwrap_or(()),
            Err(_) => {
                errors.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    reader.abort();
}
