//! Seeing more (issue 16 §5): the history of a game as one viewer may see it, the public list
//! of live games with their spectator counts, and the search of finished games.
//!
//! History rebuilds the position after the first N stored actions from the seed, through the
//! registry, and answers only what the viewer could have seen at that point: the seat's own
//! view and log entries (a stranger's, the public ones), never the seed, never the actions'
//! notations (a hidden choice can be named in one: the reason the replay of every action waits
//! for the game's end), never anything after N.

use crate::AppState;
use crate::auth::{MaybeUser, User};
use crate::error::{ApiError, ApiResult};
use crate::play::{Live, live};
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use muster_core::{Match, RecordedAction};
use serde_json::{Value, json};
use sqlx::Row;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The parameters of a query string, percent-decoded, each named at most once and among
/// `names`; anything else is a clear 400.
pub(crate) fn params(q: Option<&str>, names: &[&str]) -> ApiResult<HashMap<String, String>> {
    let mut found = HashMap::new();
    for (k, v) in url::form_urlencoded::parse(q.unwrap_or_default().as_bytes()) {
        if !names.contains(&k.as_ref()) || found.contains_key(k.as_ref()) {
            return Err(ApiError::bad_request(format!(
                "unknown or repeated query parameter {k:?} (this address takes {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )));
        }
        found.insert(k.into_owned(), v.into_owned());
    }
    Ok(found)
}

// ---- History ----

/// A checkpoint of a history cursor is taken every this many actions: stepping back costs at
/// most this many actions replayed (after the first visit).
pub const HISTORY_STRIDE: usize = 16;
/// Games whose history cursor is kept (the least recently used goes first).
pub const HISTORY_GAMES: usize = 64;
/// History positions computed at once (each on a blocking thread).
pub const HISTORY_AT_ONCE: usize = 2;

/// One game's history cursor: a match after the first `actions.len()` actions of the game,
/// with a checkpoint after every [`HISTORY_STRIDE`] of them (`marks[i]`: after `i * STRIDE`).
struct Cursor {
    m: Box<dyn Match>,
    actions: Vec<RecordedAction>,
    marks: Vec<Box<dyn std::any::Any + Send>>,
    used: u64,
}

impl Cursor {
    /// Applies `more`, taking the checkpoints it passes.
    fn forward(&mut self, more: &[RecordedAction]) -> ApiResult<()> {
        for a in more {
            self.m.act(Some(&a.side), &a.action).map_err(|e| {
                ApiError::internal(format!(
                    "action {} of the record does not replay: {}",
                    self.actions.len() + 1,
                    e.message
                ))
            })?;
            self.actions.push(a.clone());
            if self.actions.len() % HISTORY_STRIDE == 0 {
                self.marks.push(self.m.checkpoint());
            }
        }
        Ok(())
    }

    /// Goes back to the last checkpoint at or before `n` actions; false when it cannot.
    fn back_to(&mut self, n: usize) -> bool {
        let i = n / HISTORY_STRIDE;
        if i >= self.marks.len() {
            return false;
        }
        self.marks.truncate(i + 1);
        let Some(mark) = self.marks.pop() else {
            return false;
        };
        if !self.m.restore(mark) {
            return false;
        }
        self.marks.push(self.m.checkpoint());
        self.actions.truncate(i * HISTORY_STRIDE);
        true
    }
}

/// The kept history cursors and the limit on history computed at once.
pub struct HistoryCache {
    cursors: Mutex<HashMap<String, Cursor>>,
    clock: AtomicU64,
    computing: tokio::sync::Semaphore,
}

impl Default for HistoryCache {
    fn default() -> Self {
        HistoryCache {
            cursors: Mutex::new(HashMap::new()),
            clock: AtomicU64::new(0),
            computing: tokio::sync::Semaphore::new(HISTORY_AT_ONCE),
        }
    }
}

impl HistoryCache {
    fn take(&self, id: &str) -> Option<Cursor> {
        self.cursors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id)
    }

    fn put(&self, id: &str, mut c: Cursor) {
        c.used = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut map = self.cursors.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= HISTORY_GAMES && !map.contains_key(id) {
            let oldest = map
                .iter()
                .min_by_key(|(_, c)| c.used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                map.remove(&k);
            }
        }
        map.insert(id.to_string(), c);
    }

    /// How many games' cursors are held (for the tests).
    pub fn len(&self) -> usize {
        self.cursors.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The side `user` sees a game's history as: a seat it holds (in a hot-seat game, the one to
/// act at that point when it holds it), or none.
fn viewer_side(l: &Live, user: Option<&User>, to_act: Option<&str>) -> Option<String> {
    let user = user?;
    let mine: Vec<&str> = l
        .seats
        .iter()
        .filter(|s| s.user_id.as_deref() == Some(user.id.as_str()))
        .map(|s| s.side.as_str())
        .collect();
    to_act
        .filter(|t| mine.contains(t))
        .or_else(|| mine.first().copied())
        .map(str::to_string)
}

/// `GET /api/games/{id}/history[?at=N]`: the position after the first N actions (default: all
/// of them) as the caller may see it (docs/server.md, "Seeing more").
pub async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Value>> {
    let p = params(q.as_deref(), &["at"])?;
    let live = live(&state, &id).await?;
    let (record, version) = {
        let l = live.lock().await;
        (l.m.record(), l.version)
    };
    let total = record.actions.len();
    let at = match p.get("at") {
        None => total,
        Some(v) => v.parse::<usize>().map_err(|_| {
            ApiError::bad_request(format!("at is a count of actions (0 or more), not {v:?}"))
        })?,
    };
    if at > total {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "out_of_range",
            format!("this game has {total} actions so far: at is 0 to {total}, not {at}"),
        ));
    }
    let _permit = state
        .history
        .computing
        .acquire()
        .await
        .map_err(ApiError::internal)?;
    let cached = state.history.take(&id);
    let registry = state.registry.clone();
    let prefix: Vec<RecordedAction> = record.actions[..at].to_vec();
    let cursor = tokio::task::spawn_blocking(move || -> ApiResult<Cursor> {
        let mut c = match cached {
            Some(c) => c,
            None => fresh(&registry, &record)?,
        };
        let same = c
            .actions
            .iter()
            .zip(&prefix)
            .take_while(|(a, b)| a.side == b.side && a.action == b.action)
            .count();
        let ahead = c.actions.len() > at || same < c.actions.len();
        if ahead && !c.back_to(same.min(at)) {
            c = fresh(&registry, &record)?;
        }
        let from = c.actions.len();
        c.forward(&prefix[from..])?;
        Ok(c)
    })
    .await
    .map_err(ApiError::internal)??;
    let l = live.lock().await;
    let m = cursor.m.as_ref();
    let to_act = m.to_act();
    let side = viewer_side(&l, user.as_ref(), to_act.as_deref());
    drop(l);
    let view = m.view(side.as_deref())?;
    let log = m.log(side.as_deref())?;
    let turn = view.get("turn").filter(|t| t.is_number()).cloned();
    let outcome = m.outcome().map(|o| {
        let info = m.info();
        json!({
            "winner": o.winner.map(|w| info.side_name(w).to_string()),
            "reason": o.reason,
        })
    });
    let out = json!({
        "id": id,
        "game": m.info().id,
        "scenario": record_scenario(m),
        "at": at,
        "actions": total,
        "version": version,
        "my_side": side,
        "to_act": to_act,
        "prompt": m.prompt(),
        "turn": turn,
        "outcome": outcome,
        "view": view,
        "log": log,
    });
    state.history.put(&id, cursor);
    Ok(Json(out))
}

fn record_scenario(m: &dyn Match) -> String {
    m.record().scenario
}

/// A cursor at the start of the game the record is of.
fn fresh(registry: &muster_core::Registry, record: &muster_core::Record) -> ApiResult<Cursor> {
    let seed = record
        .seed
        .ok_or_else(|| ApiError::internal("a stored game without a seed"))?;
    let m = registry.new_match(&record.game, &record.scenario, &record.options, seed)?;
    let marks = vec![m.checkpoint()];
    Ok(Cursor {
        m,
        actions: Vec::new(),
        marks,
        used: 0,
    })
}

// ---- Spectators ----

/// The game sockets open now, by game: each socket's viewer (its account, none when logged
/// out). Spectators are the sockets of viewers without a seat in the game.
#[derive(Default)]
pub struct Watchers {
    by_game: Mutex<HashMap<String, HashMap<u64, Option<String>>>>,
    next: AtomicU64,
}

/// Holds a socket's place in [`Watchers`] while the socket is open.
pub struct Watching {
    watchers: std::sync::Arc<Watchers>,
    game: String,
    socket: u64,
}

impl Watchers {
    /// Counts a socket open on `game` by `user` until the returned guard is dropped.
    pub fn open(self: &std::sync::Arc<Self>, game: &str, user: Option<&str>) -> Watching {
        let socket = self.next.fetch_add(1, Ordering::Relaxed);
        self.by_game
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(game.to_string())
            .or_default()
            .insert(socket, user.map(str::to_string));
        Watching {
            watchers: self.clone(),
            game: game.to_string(),
            socket,
        }
    }

    /// The sockets open on `game` by viewers not among `seated` (account ids).
    pub fn spectators(&self, game: &str, seated: &[String]) -> usize {
        let map = self.by_game.lock().unwrap_or_else(|p| p.into_inner());
        map.get(game).map_or(0, |sockets| {
            sockets
                .values()
                .filter(|u| u.as_ref().is_none_or(|u| !seated.contains(u)))
                .count()
        })
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let mut map = self
            .watchers
            .by_game
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(sockets) = map.get_mut(&self.game) {
            sockets.remove(&self.socket);
            if sockets.is_empty() {
                map.remove(&self.game);
            }
        }
    }
}

// ---- Lists ----

/// Live games listed at most.
pub const LIVE_LIMIT: i64 = 100;
/// Finished games per page of a search.
pub const PAGE_SIZE: i64 = 20;

/// One listed game's seats, from rows of (side, user id, name, bot).
fn seat_json(side: String, name: Option<String>, bot: Option<String>) -> Value {
    let bot = bot.and_then(|b| muster_ai::Level::parse(&b).ok());
    json!({"side": side, "player": name, "bot": bot})
}

/// `GET /api/games/live`: the games being played now, the latest move first, with their
/// spectator counts.
pub async fn live_games(
    State(state): State<AppState>,
    RawQuery(q): RawQuery,
) -> ApiResult<Json<Value>> {
    // It takes no parameters: any is refused rather than silently ignored.
    params(q.as_deref(), &[])?;
    let rows = sqlx::query(
        "SELECT g.id, g.game, g.scenario, g.version, g.to_act, g.updated,
                (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id),
                (SELECT MAX(a.at) FROM actions a WHERE a.game_id = g.id),
                s.side, s.user_id, u.name, s.bot
         FROM (SELECT * FROM games WHERE status = 'active' ORDER BY updated DESC, id LIMIT $1) g
         JOIN seats s ON s.game_id = g.id
         LEFT JOIN users u ON u.id = s.user_id
         ORDER BY g.updated DESC, g.id, s.side",
    )
    .bind(LIVE_LIMIT)
    .fetch_all(&state.db.pool)
    .await?;
    let mut games = Vec::new();
    let mut k = 0;
    while k < rows.len() {
        let id: String = rows[k].try_get(0)?;
        let first = k;
        let mut seats = Vec::new();
        let mut seated = Vec::new();
        while k < rows.len() && rows[k].try_get::<String, _>(0)? == id {
            let r = &rows[k];
            if let Some(u) = r.try_get::<Option<String>, _>(9)? {
                seated.push(u);
            }
            seats.push(seat_json(r.try_get(8)?, r.try_get(10)?, r.try_get(11)?));
            k += 1;
        }
        let r = &rows[first];
        let updated: i64 = r.try_get(5)?;
        let last_move: Option<i64> = r.try_get(7)?;
        games.push(json!({
            "id": id,
            "game": r.try_get::<String, _>(1)?,
            "scenario": r.try_get::<String, _>(2)?,
            "version": r.try_get::<i64, _>(3)?,
            "to_act": r.try_get::<Option<String>, _>(4)?,
            "actions": r.try_get::<i64, _>(6)?,
            "last_move": last_move.unwrap_or(updated),
            "seats": seats,
            "spectators": state.watchers.spectators(&id, &seated),
        }));
    }
    Ok(Json(json!({"games": games})))
}

/// The `page` parameter among `p`: a page number from 1 (1 when absent), else a clear 400.
pub(crate) fn page_of(p: &HashMap<String, String>) -> ApiResult<i64> {
    match p.get("page").map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => Ok(1),
        Some(v) => match v.parse::<i64>() {
            Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_request(format!(
                "page is a page number from 1, not {v:?}"
            ))),
        },
    }
}

/// `GET /api/games/finished[?game=&scenario=&player=&page=]`: finished games, the latest first,
/// [`PAGE_SIZE`] a page (pages from 1), filtered by game id, scenario id and a player's name
/// (any case).
pub async fn finished_games(
    State(state): State<AppState>,
    RawQuery(q): RawQuery,
) -> ApiResult<Json<Value>> {
    let p = params(q.as_deref(), &["game", "scenario", "player", "page"])?;
    let get = |k: &str| p.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let (game, scenario, player) = (get("game"), get("scenario"), get("player").to_lowercase());
    let page = page_of(&p)?;
    let rows = sqlx::query(
        "SELECT g.id, g.game, g.scenario, g.winner, g.ended, g.updated, g.version,
                s.side, u.name, s.bot
         FROM (SELECT * FROM games
               WHERE status = 'finished'
                 AND ($1 = '' OR game = $1)
                 AND ($2 = '' OR scenario = $2)
                 AND ($3 = '' OR id IN (SELECT s2.game_id FROM seats s2 JOIN users u2 ON u2.id = s2.user_id WHERE u2.name_key = $3))
               ORDER BY updated DESC, id DESC LIMIT $4 OFFSET $5) g
         JOIN seats s ON s.game_id = g.id
         LEFT JOIN users u ON u.id = s.user_id
         ORDER BY g.updated DESC, g.id DESC, s.side",
    )
    .bind(&game)
    .bind(&scenario)
    .bind(&player)
    .bind(PAGE_SIZE + 1)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&state.db.pool)
    .await?;
    let mut games = Vec::new();
    let mut k = 0;
    while k < rows.len() {
        let id: String = rows[k].try_get(0)?;
        let first = k;
        let mut seats = Vec::new();
        while k < rows.len() && rows[k].try_get::<String, _>(0)? == id {
            let r = &rows[k];
            seats.push(seat_json(r.try_get(7)?, r.try_get(8)?, r.try_get(9)?));
            k += 1;
        }
        let r = &rows[first];
        let ended: Option<String> = r.try_get(4)?;
        let ended: Option<muster_core::record::Ended> =
            ended.and_then(|t| serde_json::from_str(&t).ok());
        games.push(json!({
            "id": id,
            "game": r.try_get::<String, _>(1)?,
            "scenario": r.try_get::<String, _>(2)?,
            "winner": r.try_get::<Option<String>, _>(3)?,
            "result": ended.map_or("rules".to_string(), |e| e.reason),
            "ended_at": r.try_get::<i64, _>(5)?,
            "version": r.try_get::<i64, _>(6)?,
            "seats": seats,
        }));
    }
    let more = games.len() as i64 > PAGE_SIZE;
    games.truncate(PAGE_SIZE as usize);
    Ok(Json(json!({
        "games": games,
        "page": page,
        "per_page": PAGE_SIZE,
        "more": more,
    })))
}
