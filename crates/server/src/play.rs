//! Games: creation, lobby, joining, playing (checked against the legal set and the caller's
//! seat), undo, bots moving on the server, persistence (one transaction per action), live
//! updates over WebSocket, replays of finished games.

use crate::auth::{ClientAddr, MaybeUser, RequireUser, User, check_csrf, random_token, random_u64};
use crate::error::{ApiError, ApiResult};
use crate::{AppState, Body, now, parse_body};
use axum::Json;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use muster_ai::Level;
use muster_core::{Match, Options, Record, RecordedAction};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{Mutex, broadcast};

/// One seat at a table.
#[derive(Clone, Debug)]
pub struct Seat {
    pub side: String,
    pub user_id: Option<String>,
    pub user_name: Option<String>,
    pub bot: Option<Level>,
}

/// A game held in memory (loaded from the database on first use).
pub struct Live {
    pub id: String,
    pub m: Box<dyn Match>,
    pub seed: u64,
    /// The invite token of an open game, shown to its seated players.
    pub invite: Option<String>,
    pub status: String,
    pub seats: Vec<Seat>,
    /// Increases on every change (actions, undo, joins): what clients compare.
    pub version: i64,
    pub tx: broadcast::Sender<i64>,
}

pub type LiveRef = Arc<Mutex<Live>>;

impl Live {
    fn seat_of(&self, user: &User) -> Option<&Seat> {
        self.seats
            .iter()
            .find(|s| s.user_id.as_deref() == Some(user.id.as_str()))
    }

    fn bot_to_act(&self) -> Option<(String, Level)> {
        if self.status != "active" {
            return None;
        }
        let side = self.m.to_act()?;
        let seat = self.seats.iter().find(|s| s.side == side)?;
        seat.bot.map(|l| (side, l))
    }

    /// The game as `user` may see it.
    pub fn json_for(&self, user: Option<&User>) -> Value {
        let my_side = user.and_then(|u| self.seat_of(u)).map(|s| s.side.clone());
        let to_act = self.m.to_act();
        let my_turn = self.status == "active" && my_side.is_some() && to_act == my_side;
        let info = self.m.info();
        let record = self.m.record();
        json!({
            "id": self.id,
            "game": info.id,
            "scenario": record.scenario,
            "options": record.options,
            "status": self.status,
            "seats": self.seats.iter().map(|s| json!({"side": s.side, "player": s.user_name, "bot": s.bot})).collect::<Vec<_>>(),
            "my_side": my_side,
            "version": self.version,
            "to_act": to_act,
            "prompt": self.m.prompt(),
            "legal": if my_turn { json!(self.m.legal()) } else { json!([]) },
            "can_undo": my_turn && my_side.as_deref().is_some_and(|s| self.m.can_undo(s)),
            "outcome": outcome_json(self.m.as_ref()),
            "view": self.m.view(my_side.as_deref()).unwrap_or(Value::Null),
            "log": self.m.log(my_side.as_deref()).unwrap_or_default(),
            "actions": record.actions.len(),
            "invite": if self.status == "open" && my_side.is_some() { json!(self.invite) } else { Value::Null },
        })
    }
}

fn outcome_json(m: &dyn Match) -> Value {
    match m.outcome() {
        None => Value::Null,
        Some(o) => {
            let info = m.info();
            let vp: serde_json::Map<String, Value> =
                o.vp.iter()
                    .enumerate()
                    .map(|(i, v)| (info.side_name(i as u8).to_string(), json!(v)))
                    .collect();
            json!({"winner": o.winner.map(|w| info.side_name(w).to_string()), "vp": vp, "reason": o.reason})
        }
    }
}

/// The game from the cache, or loaded from the database by replaying its record.
pub async fn live(state: &AppState, id: &str) -> ApiResult<LiveRef> {
    if let Some(l) = state.live.lock().await.get(id) {
        return Ok(l.clone());
    }
    let row = sqlx::query(
        "SELECT game, scenario, options, seed, status, version, snapshot, invite FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&state.db.pool)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
    let (game, scenario, options, seed, status, version, snapshot): (
        String,
        String,
        String,
        i64,
        String,
        i64,
        String,
    ) = (
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
        row.try_get(4)?,
        row.try_get(5)?,
        row.try_get(6)?,
    );
    let invite: Option<String> = row.try_get(7)?;
    let options: Options = serde_json::from_str(&options).map_err(ApiError::internal)?;
    let actions = sqlx::query("SELECT side, action FROM actions WHERE game_id = $1 ORDER BY idx")
        .bind(id)
        .fetch_all(&state.db.pool)
        .await?;
    let record = Record {
        format: muster_core::record::RECORD_FORMAT.into(),
        version: muster_core::record::FORMAT_VERSION,
        engine: muster_core::ENGINE_VERSION.into(),
        game,
        scenario,
        options,
        seed: Some(seed as u64),
        start: None,
        actions: actions
            .iter()
            .map(|r| {
                Ok(RecordedAction {
                    side: r.try_get(0)?,
                    action: r.try_get(1)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?,
    };
    let m = state.registry.replay(&record)?;
    // The replayed game must be the stored snapshot, byte for byte.
    let stored: Value = serde_json::from_str(&snapshot).map_err(ApiError::internal)?;
    if m.try_position()? != stored {
        return Err(ApiError::internal(format!(
            "game {id}: the replayed record does not match the stored snapshot"
        )));
    }
    let seats = load_seats(state, id).await?;
    let (tx, _) = broadcast::channel(64);
    let live = Arc::new(Mutex::new(Live {
        id: id.to_string(),
        m,
        seed: seed as u64,
        invite,
        status,
        seats,
        version,
        tx,
    }));
    let mut cache = state.live.lock().await;
    let entry = cache.entry(id.to_string()).or_insert(live).clone();
    drop(cache);
    // A bot whose turn it was when the server stopped moves now.
    spawn_bots(state.clone(), id.to_string());
    Ok(entry)
}

/// After a restart: load every game whose next decision belongs to a bot, so that the bot moves
/// without waiting for a player to look at the game.
pub async fn resume_bots(state: &AppState) -> ApiResult<usize> {
    let rows = sqlx::query(
        "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.side = g.to_act
         WHERE g.status = 'active' AND s.bot IS NOT NULL",
    )
    .fetch_all(&state.db.pool)
    .await?;
    for r in &rows {
        let id: String = r.try_get(0)?;
        if let Err(e) = live(state, &id).await {
            // One game that cannot be loaded must not keep the others' bots waiting.
            eprintln!("muster serve: game {id}: cannot be loaded: {}", e.message);
        }
    }
    Ok(rows.len())
}

async fn load_seats(state: &AppState, id: &str) -> ApiResult<Vec<Seat>> {
    let rows = sqlx::query(
        "SELECT s.side, s.user_id, u.name, s.bot FROM seats s LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = $1 ORDER BY s.side",
    )
    .bind(id)
    .fetch_all(&state.db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| {
            Ok(Seat {
                side: r.try_get(0)?,
                user_id: r.try_get(1)?,
                user_name: r.try_get(2)?,
                bot: r
                    .try_get::<Option<String>, _>(3)?
                    .and_then(|b| Level::parse(&b).ok()),
            })
        })
        .collect::<Result<_, sqlx::Error>>()?)
}

/// Writes a change in one transaction: the new actions (or the removal of the last one, for
/// undo) and the snapshot. Only then is the change made in memory.
async fn persist(
    state: &AppState,
    live: &mut Live,
    next: Box<dyn Match>,
    undo: bool,
) -> ApiResult<()> {
    let before = live.m.record().actions.len();
    let record = next.record();
    let mut tx = state.db.begin_write().await?;
    if undo {
        sqlx::query("DELETE FROM actions WHERE game_id = $1 AND idx = $2")
            .bind(&live.id)
            .bind(before as i64 - 1)
            .execute(tx.conn())
            .await?;
    } else {
        for (i, a) in record.actions.iter().enumerate().skip(before) {
            sqlx::query(
                "INSERT INTO actions (game_id, idx, side, action, at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&live.id)
            .bind(i as i64)
            .bind(&a.side)
            .bind(&a.action)
            .bind(now())
            .execute(tx.conn())
            .await?;
        }
    }
    let outcome = next.outcome();
    let status = if outcome.is_some() {
        "finished"
    } else {
        live.status.as_str()
    }
    .to_string();
    let winner = outcome
        .and_then(|o| o.winner)
        .map(|w| next.info().side_name(w).to_string());
    let updated = sqlx::query(
        "UPDATE games SET snapshot = $1, version = $2, to_act = $3, status = $4, winner = $5, updated = $6 WHERE id = $7 AND version = $8",
    )
    .bind(next.try_position()?.to_string())
    .bind(live.version + 1)
    .bind(next.to_act())
    .bind(&status)
    .bind(winner)
    .bind(now())
    .bind(&live.id)
    .bind(live.version)
    .execute(tx.conn())
    .await?;
    if updated.rows_affected() != 1 {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            "the game changed meanwhile",
        ));
    }
    tx.commit().await?;
    live.m = next;
    live.status = status;
    live.version += 1;
    let _ = live.tx.send(live.version);
    Ok(())
}

/// The wait before the `n`th retry of a bot turn that failed: 0.25 s, doubling, at most 30 s.
pub fn bot_backoff(n: u32) -> std::time::Duration {
    std::time::Duration::from_millis(250)
        .saturating_mul(2u32.saturating_pow(n.min(8)))
        .min(std::time::Duration::from_secs(30))
}

/// Lets bots play while it is a bot's decision: starts the game's bot task unless one runs.
pub fn spawn_bots(state: AppState, id: String) {
    {
        let mut tasks = state.bot_tasks.lock().unwrap_or_else(|p| p.into_inner());
        if !tasks.insert(id.clone()) {
            return;
        }
    }
    tokio::spawn(async move { run_bots(&state, &id).await });
}

/// The bot task of one game. It ends only when no bot is to act (checked under the game's
/// lock, and taken off `bot_tasks` under it, so that a player's move that hands over to a bot
/// always finds either this task still running or none). Every failure (a search that
/// panicked, a write the database refused) is logged and retried with [`bot_backoff`]; the
/// supervisor restarts a task that vanished.
async fn run_bots(state: &AppState, id: &str) {
    let done = || {
        let mut tasks = state.bot_tasks.lock().unwrap_or_else(|p| p.into_inner());
        tasks.remove(id);
    };
    let mut failures = 0u32;
    let mut chosen: Option<(i64, String)> = None;
    loop {
        if failures > 0 {
            tokio::time::sleep(bot_backoff(failures - 1)).await;
        }
        let Ok(live) = live_cached(state, id).await else {
            done();
            return;
        };
        let (snapshot, side, level, version, seed) = {
            let l = live.lock().await;
            let Some((side, level)) = l.bot_to_act() else {
                done();
                return;
            };
            (l.m.clone_box(), side, level, l.version, l.seed)
        };
        let action = match chosen.take() {
            Some((v, action)) if v == version => action,
            _ => {
                let bots = state.bots.clone();
                let decision_seed = seed ^ (version as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let choice = tokio::task::spawn_blocking(move || {
                    bots.choose(snapshot.as_ref(), level, decision_seed)
                })
                .await;
                match choice {
                    Ok(Ok(action)) => action,
                    Ok(Err(e)) => {
                        failures += 1;
                        eprintln!(
                            "muster serve: game {id}: the {} bot found no move: {} (try {failures})",
                            level.id(),
                            e.message
                        );
                        continue;
                    }
                    Err(e) => {
                        failures += 1;
                        eprintln!(
                            "muster serve: game {id}: the {} bot's search failed: {e} (try {failures})",
                            level.id()
                        );
                        continue;
                    }
                }
            }
        };
        let mut l = live.lock().await;
        if l.version != version {
            continue; // something changed while the bot thought: think again
        }
        let mut next = l.m.clone_box();
        if let Err(e) = next.act(Some(&side), &action) {
            failures += 1;
            eprintln!(
                "muster serve: game {id}: the bot's move {action:?} was refused: {} (try {failures})",
                e.message
            );
            continue;
        }
        match persist(state, &mut l, next, false).await {
            Ok(()) => failures = 0,
            Err(e) => {
                failures += 1;
                eprintln!(
                    "muster serve: game {id}: the bot's move could not be stored: {} (try {failures}; retrying)",
                    e.message
                );
                chosen = Some((version, action));
            }
        }
    }
}

/// How often the supervisor looks for games waiting on a bot that nobody runs.
pub const BOT_WATCH: std::time::Duration = std::time::Duration::from_secs(5);

/// Resumes every stored game with a bot to act (retrying while the database fails), then
/// every [`BOT_WATCH`] starts the bot task of any game in memory that waits on a bot and has
/// none: a game never waits on a bot that nobody is running.
pub fn supervise_bots(state: AppState) {
    tokio::spawn(async move {
        let mut tries = 0;
        loop {
            match resume_bots(&state).await {
                Ok(_) => break,
                Err(e) => {
                    eprintln!("muster serve: resuming bots: {} (retrying)", e.message);
                    tokio::time::sleep(bot_backoff(tries)).await;
                    tries += 1;
                }
            }
        }
        loop {
            tokio::time::sleep(BOT_WATCH).await;
            let games: Vec<(String, LiveRef)> = state
                .live
                .lock()
                .await
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            for (id, live) in games {
                let waiting = match live.try_lock() {
                    Ok(l) => l.bot_to_act().is_some(),
                    Err(_) => false, // busy: a move is being made, or the bot task holds it
                };
                if waiting {
                    spawn_bots(state.clone(), id);
                }
            }
        }
    });
}

async fn live_cached(state: &AppState, id: &str) -> ApiResult<LiveRef> {
    state
        .live
        .lock()
        .await
        .get(id)
        .cloned()
        .ok_or_else(|| ApiError::not_found("not loaded"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    game: String,
    scenario: String,
    #[serde(default)]
    options: Options,
    side: String,
    opponent: String,
    #[serde(default)]
    level: Option<String>,
}

/// `POST /api/games`
pub async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let c: CreateGame = parse_body(&body)?;
    let seed = random_u64();
    let m = state
        .registry
        .new_match(&c.game, &c.scenario, &c.options, seed)?;
    let sides = m.info().sides.clone();
    if !sides.contains(&c.side) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_side",
            format!("the sides are {sides:?}"),
        ));
    }
    // Solitaire scenarios (issue 6): the bot side is always a bot.
    let bot_side = m
        .info()
        .scenarios
        .iter()
        .find(|s| s.id == c.scenario)
        .and_then(|s| s.bot_side.clone());
    if let Some(b) = &bot_side {
        if c.side == *b || c.opponent != "bot" {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "solitaire",
                format!(
                    "{} is a solitaire scenario: the {b} side is played by a bot; take another side and choose the bot's level",
                    c.scenario
                ),
            ));
        }
    }
    let level = match c.opponent.as_str() {
        "bot" => Some(Level::parse(c.level.as_deref().unwrap_or("medium"))?),
        "human" => None,
        other => {
            return Err(ApiError::bad_request(format!(
                "opponent must be \"bot\" or \"human\", not {other:?}"
            )));
        }
    };
    let seats: Vec<Seat> = sides
        .iter()
        .map(|s| {
            if *s == c.side {
                Seat {
                    side: s.clone(),
                    user_id: Some(user.id.clone()),
                    user_name: Some(user.name.clone()),
                    bot: None,
                }
            } else {
                Seat {
                    side: s.clone(),
                    user_id: None,
                    user_name: None,
                    bot: level,
                }
            }
        })
        .collect();
    let invite = level.is_none().then(random_token);
    let id = start_game(&state, m, seed, seats, invite.clone()).await?;
    Ok(Json(json!({"id": id, "invite": invite})))
}

/// Stores a new game (its row, its seats) in one transaction, puts it in memory and lets a bot
/// move if the first decision is a bot's. A game with an empty seat waits as "open".
async fn start_game(
    state: &AppState,
    m: Box<dyn Match>,
    seed: u64,
    seats: Vec<Seat>,
    invite: Option<String>,
) -> ApiResult<String> {
    let open = seats.iter().any(|s| s.user_id.is_none() && s.bot.is_none());
    let status = if open { "open" } else { "active" };
    let id = random_token()[..16].to_string();
    let record = m.record();
    let mut tx = state.db.begin_write().await?;
    sqlx::query(
        "INSERT INTO games (id, game, scenario, options, seed, status, invite, version, snapshot, to_act, winner, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, NULL, $10, $10)",
    )
    .bind(&id)
    .bind(&record.game)
    .bind(&record.scenario)
    .bind(serde_json::to_string(&record.options).map_err(ApiError::internal)?)
    .bind(seed as i64)
    .bind(status)
    .bind(&invite)
    .bind(m.try_position()?.to_string())
    .bind(m.to_act())
    .bind(now())
    .execute(tx.conn())
    .await?;
    for s in &seats {
        sqlx::query("INSERT INTO seats (game_id, side, user_id, bot) VALUES ($1, $2, $3, $4)")
            .bind(&id)
            .bind(&s.side)
            .bind(&s.user_id)
            .bind(s.bot.map(|l| l.id().to_string()))
            .execute(tx.conn())
            .await?;
    }
    tx.commit().await?;
    let (txc, _) = broadcast::channel(64);
    state.live.lock().await.insert(
        id.clone(),
        Arc::new(Mutex::new(Live {
            id: id.clone(),
            m,
            seed,
            invite,
            status: status.into(),
            seats,
            version: 0,
            tx: txc,
        })),
    );
    spawn_bots(state.clone(), id.clone());
    Ok(id)
}

/// `GET /api/games/{id}`
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Value>> {
    let live = live(&state, &id).await?;
    let l = live.lock().await;
    Ok(Json(l.json_for(user.as_ref())))
}

/// `GET /api/games/{id}/board`
pub async fn board(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let live = live(&state, &id).await?;
    let (game, scenario) = {
        let l = live.lock().await;
        (l.m.info().id.clone(), l.m.record().scenario)
    };
    Ok(Json(state.registry.get(&game)?.board(&scenario)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActBody {
    action: String,
    version: i64,
}

fn my_seat(l: &Live, user: &User, version: i64) -> ApiResult<String> {
    let side = l
        .seat_of(user)
        .map(|s| s.side.clone())
        .ok_or_else(|| ApiError::forbidden("you have no seat in this game"))?;
    if l.status == "open" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_started",
            "waiting for the other players",
        ));
    }
    if version != l.version {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            format!(
                "the game is at version {}, not {version}: reload it",
                l.version
            ),
        ));
    }
    Ok(side)
}

/// Applies a change of the caller's seat (an action or an undo) to a copy of the game, checked
/// against the seat and the version the caller saw, and persists it; answers the new game.
async fn change_as_seat(
    state: &AppState,
    id: &str,
    user: &User,
    version: i64,
    undo: bool,
    change: impl FnOnce(&mut dyn Match, &str) -> Result<(), muster_core::Error>,
) -> ApiResult<Value> {
    let live = live(state, id).await?;
    let mut l = live.lock().await;
    let side = my_seat(&l, user, version)?;
    let mut next = l.m.clone_box();
    change(next.as_mut(), &side)?;
    persist(state, &mut l, next, undo).await?;
    Ok(l.json_for(Some(user)))
}

/// `POST /api/games/{id}/act`
pub async fn act(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: ActBody = parse_body(&body)?;
    let answer = change_as_seat(&state, &id, &user, b.version, false, |m, side| {
        m.act(Some(side), &b.action).map(|_| ())
    })
    .await?;
    spawn_bots(state.clone(), id);
    Ok(Json(answer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoBody {
    version: i64,
}

/// `POST /api/games/{id}/undo`
pub async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: UndoBody = parse_body(&body)?;
    let answer = change_as_seat(&state, &id, &user, b.version, true, |m, side| {
        m.undo(Some(side))
    })
    .await?;
    Ok(Json(answer))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    #[serde(default)]
    invite: Option<String>,
}

/// `POST /api/games/{id}/join`
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: JoinBody = if body.is_empty() {
        JoinBody::default()
    } else {
        parse_body(&body)?
    };
    let live = live(&state, &id).await?;
    if let Some(given) = &b.invite {
        let stored: Option<String> = sqlx::query("SELECT invite FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&state.db.pool)
            .await?
            .try_get(0)?;
        if stored.as_deref() != Some(given.as_str()) {
            return Err(ApiError::forbidden("that invite link is not for this game"));
        }
    }
    let mut l = live.lock().await;
    if l.seat_of(&user).is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "already_seated",
            "you already have a seat in this game",
        ));
    }
    if l.status != "open" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "full",
            "this game has no free seat",
        ));
    }
    let Some(i) = l
        .seats
        .iter()
        .position(|s| s.user_id.is_none() && s.bot.is_none())
    else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "full",
            "this game has no free seat",
        ));
    };
    let full = l
        .seats
        .iter()
        .filter(|s| s.user_id.is_none() && s.bot.is_none())
        .count()
        == 1;
    let status = if full { "active" } else { "open" };
    let mut tx = state.db.begin_write().await?;
    sqlx::query("UPDATE seats SET user_id = $1 WHERE game_id = $2 AND side = $3")
        .bind(&user.id)
        .bind(&id)
        .bind(&l.seats[i].side)
        .execute(tx.conn())
        .await?;
    sqlx::query("UPDATE games SET status = $1, version = version + 1, updated = $2 WHERE id = $3")
        .bind(status)
        .bind(now())
        .bind(&id)
        .execute(tx.conn())
        .await?;
    tx.commit().await?;
    l.seats[i].user_id = Some(user.id.clone());
    l.seats[i].user_name = Some(user.name.clone());
    l.status = status.into();
    l.version += 1;
    let _ = l.tx.send(l.version);
    Ok(Json(l.json_for(Some(&user))))
}

/// `POST /api/games/{id}/rematch`
pub async fn rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let live = live(&state, &id).await?;
    let (game, scenario, options, seats) = {
        let l = live.lock().await;
        if l.seat_of(&user).is_none() {
            return Err(ApiError::forbidden(
                "only the players can ask for a rematch",
            ));
        }
        let r = l.m.record();
        (r.game, r.scenario, r.options, l.seats.clone())
    };
    let seed = random_u64();
    let m = state.registry.new_match(&game, &scenario, &options, seed)?;
    let invite = seats
        .iter()
        .any(|s| s.user_id.is_none() && s.bot.is_none())
        .then(random_token);
    let new_id = start_game(&state, m, seed, seats, invite).await?;
    Ok(Json(json!({"id": new_id})))
}

/// `GET /api/games/{id}/record`: only once the game is over (the seed stays secret before).
pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ClientAddr(addr): ClientAddr,
) -> ApiResult<Json<Value>> {
    state.reads.check(addr)?;
    let live = live(&state, &id).await?;
    let l = live.lock().await;
    if l.status != "finished" {
        return Err(ApiError::forbidden(
            "the record (with the seed) is served once the game is over",
        ));
    }
    Ok(Json(
        serde_json::to_value(l.m.record()).map_err(ApiError::internal)?,
    ))
}

/// Finished games' replays, computed once and kept as their JSON, up to [`REPLAY_CACHE_BYTES`]
/// (the oldest go first). A finished game never changes, so its replay never goes stale.
#[derive(Default)]
pub struct ReplayCache {
    inner: std::sync::Mutex<ReplayEntries>,
    /// One replay computed at a time: a burst of requests for long games cannot take every core.
    computing: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct ReplayEntries {
    by_id: HashMap<String, axum::body::Bytes>,
    order: std::collections::VecDeque<String>,
    bytes: usize,
}

/// What the replay cache may hold.
pub const REPLAY_CACHE_BYTES: usize = 64 * 1024 * 1024;

impl ReplayCache {
    fn get(&self, id: &str) -> Option<axum::body::Bytes> {
        let e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        e.by_id.get(id).cloned()
    }

    fn put(&self, id: &str, json: axum::body::Bytes) {
        let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if json.len() > REPLAY_CACHE_BYTES || e.by_id.contains_key(id) {
            return;
        }
        while e.bytes + json.len() > REPLAY_CACHE_BYTES {
            let Some(old) = e.order.pop_front() else {
                break;
            };
            if let Some(b) = e.by_id.remove(&old) {
                e.bytes -= b.len();
            }
        }
        e.bytes += json.len();
        e.order.push_back(id.to_string());
        e.by_id.insert(id.to_string(), json);
    }

    /// How many replays are held (for the tests).
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .by_id
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn json_bytes(body: axum::body::Bytes) -> Response {
    use axum::response::IntoResponse;
    (
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// `GET /api/games/{id}/replay`: once the game is over, the public view after every action,
/// for the replay viewer (step forward and back, jump to a turn). Computed once per game
/// ([`ReplayCache`]); limited per address ([`crate::auth::ReadLimiter`]).
pub async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ClientAddr(addr): ClientAddr,
) -> ApiResult<Response> {
    state.reads.check(addr)?;
    if let Some(json) = state.replays.get(&id) {
        return Ok(json_bytes(json));
    }
    let record = {
        let live = live(&state, &id).await?;
        let l = live.lock().await;
        if l.status != "finished" {
            return Err(ApiError::forbidden(
                "the replay is served once the game is over",
            ));
        }
        l.m.record()
    };
    let _one_at_a_time = state.replays.computing.lock().await;
    if let Some(json) = state.replays.get(&id) {
        return Ok(json_bytes(json));
    }
    let registry = state.registry.clone();
    let json = tokio::task::spawn_blocking(move || -> ApiResult<Vec<u8>> {
        let seed = record
            .seed
            .ok_or_else(|| ApiError::internal("a stored game without a seed"))?;
        let mut m = registry.new_match(&record.game, &record.scenario, &record.options, seed)?;
        let mut steps = Vec::with_capacity(record.actions.len() + 1);
        let step = |m: &dyn Match, action: Option<&RecordedAction>| -> ApiResult<Value> {
            Ok(json!({
                "action": action.map(|a| a.action.clone()),
                "side": action.map(|a| a.side.clone()),
                "view": m.view(None)?,
                "log_len": m.log(None)?.len(),
            }))
        };
        steps.push(step(m.as_ref(), None)?);
        for a in &record.actions {
            m.act(Some(&a.side), &a.action)?;
            steps.push(step(m.as_ref(), Some(a))?);
        }
        serde_json::to_vec(&json!({"steps": steps})).map_err(ApiError::internal)
    })
    .await
    .map_err(ApiError::internal)??;
    let json = axum::body::Bytes::from(json);
    state.replays.put(&id, json.clone());
    Ok(json_bytes(json))
}

/// `GET /api/lobby`
pub async fn lobby(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Value>> {
    let uid = user.as_ref().map(|u| u.id.clone()).unwrap_or_default();
    let rows = sqlx::query(
        "SELECT g.id, g.game, g.scenario, g.status, g.to_act, g.winner, g.updated FROM games g
         WHERE g.status = 'open' OR g.id IN (SELECT game_id FROM seats WHERE user_id = $1)
         ORDER BY g.updated DESC LIMIT 500",
    )
    .bind(&uid)
    .fetch_all(&state.db.pool)
    .await?;
    let (mut open, mut mine, mut finished) = (Vec::new(), Vec::new(), Vec::new());
    for r in rows {
        let id: String = r.try_get(0)?;
        let seats = load_seats(&state, &id).await?;
        let my_side = seats
            .iter()
            .find(|s| s.user_id.as_deref() == Some(uid.as_str()))
            .map(|s| s.side.clone());
        let status: String = r.try_get(3)?;
        let to_act: Option<String> = r.try_get(4)?;
        let summary = json!({
            "id": id,
            "game": r.try_get::<String, _>(1)?,
            "scenario": r.try_get::<String, _>(2)?,
            "status": status,
            "seats": seats.iter().map(|s| json!({"side": s.side, "player": s.user_name, "bot": s.bot})).collect::<Vec<_>>(),
            "my_side": my_side,
            "to_act": to_act,
            "my_turn": status == "active" && my_side.is_some() && to_act == my_side,
            "winner": r.try_get::<Option<String>, _>(5)?,
            "updated": r.try_get::<i64, _>(6)?,
        });
        match (status.as_str(), my_side.is_some()) {
            ("finished", true) => finished.push(summary),
            ("open", false) => open.push(summary),
            (_, true) => mine.push(summary),
            _ => {}
        }
    }
    Ok(Json(
        json!({"open": open, "mine": mine, "finished": finished}),
    ))
}

/// `GET /api/games/{id}/ws`: a version number on every change.
pub async fn ws(
    State(state): State<AppState>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "not_websocket",
            format!("this address speaks WebSocket only: {e}"),
        )
    })?;
    let live = live(&state, &id).await?;
    let (rx, version) = {
        let l = live.lock().await;
        (l.tx.subscribe(), l.version)
    };
    let idle = state.config.limits.socket_idle;
    Ok(upgrade.on_upgrade(move |socket| follow(socket, rx, version, idle)))
}

/// Sends one message, giving up on a client that does not read within `patience`.
async fn send_within(
    socket: &mut WebSocket,
    msg: Message,
    patience: std::time::Duration,
) -> Result<(), ()> {
    match tokio::time::timeout(patience, socket.send(msg)).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

/// Follows a game for one socket: an update on every change, a ping every third of `idle`;
/// a client that answers nothing (no pong, no message) for `idle`, or does not take what is
/// sent within `idle`, is disconnected.
async fn follow(
    mut socket: WebSocket,
    mut rx: broadcast::Receiver<i64>,
    version: i64,
    idle: std::time::Duration,
) {
    let hello = json!({"type": "update", "version": version}).to_string();
    if send_within(&mut socket, Message::Text(hello.into()), idle)
        .await
        .is_err()
    {
        return;
    }
    let mut heard = tokio::time::Instant::now();
    let mut ping = tokio::time::interval(idle / 3);
    ping.tick().await;
    loop {
        tokio::select! {
            update = rx.recv() => {
                let v = match update {
                    Ok(v) => v,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                };
                let msg = json!({"type": "update", "version": v}).to_string();
                if send_within(&mut socket, Message::Text(msg.into()), idle).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => {
                match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => heard = tokio::time::Instant::now(),
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() >= idle {
                    let _ = send_within(&mut socket, Message::Close(None), idle / 3).await;
                    return;
                }
                if send_within(&mut socket, Message::Ping(Vec::new().into()), idle).await.is_err() {
                    return;
                }
            }
        }
    }
}
