//! Games: creation, lobby, joining, playing (checked against the legal set and the caller's
//! seat), undo, bots moving on the server, persistence (one transaction per action), live
//! updates over WebSocket, replays of finished games.

use crate::auth::{ClientAddr, MaybeUser, RequireUser, User, check_csrf, random_token, random_u64};
use crate::db::Stmt;
use crate::error::{ApiError, ApiResult};
use crate::notify;
use crate::{AppState, Body, now, parse_body};
use axum::Json;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use muster_ai::Level;
use muster_core::{Match, Options, RecordedAction};
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
    /// Undos of the last changes: (the version it made, the whole log's length after it), so
    /// that a socket knows which log entries it was sent were taken back.
    pub cuts: std::collections::VecDeque<(i64, usize)>,
    /// When a request or a change last touched the game (for taking idle games out of memory).
    pub touched: std::time::Instant,
    /// The id, game, scenario and options every answer starts with.
    header: serde_json::Map<String, Value>,
    /// How many actions the stored snapshot comes after.
    snapshot_at: usize,
    /// Chat, offers, an ending outside the rules ([`crate::talk`]).
    pub talk: crate::talk::Talk,
    /// The time control's clocks (none without one: [`crate::clock`]).
    pub clock: Option<crate::clock::Clocks>,
    /// The test clock, when one is set (what views read the time from).
    pub time: Option<Arc<std::sync::atomic::AtomicI64>>,
    /// Whether the game is rated (chosen at creation; never for a hot-seat game).
    pub rated: bool,
    /// Its rating change per seat, once a rated game is over ([`crate::ratings`]).
    pub rating_changes: Vec<crate::ratings::Change>,
}

/// The stored snapshot is rewritten when the record reaches a multiple of this many actions
/// (and when a game starts, ends or an undo goes back behind it), not on every action: it is
/// the largest part of an action's write, and loading replays the record anyway and checks the
/// snapshot against the position after its count.
pub const SNAPSHOT_EVERY: usize = 64;

/// Undos remembered in [`Live::cuts`].
const CUTS: usize = 32;

pub type LiveRef = Arc<Mutex<Live>>;

impl Live {
    /// The caller's seat. An account holding several (a hot-seat game) is the side to act
    /// when it holds that seat, else its first.
    pub(crate) fn seat_of(&self, user: &User) -> Option<&Seat> {
        let mine = |s: &&Seat| s.user_id.as_deref() == Some(user.id.as_str());
        let to_act = self.m.to_act();
        self.seats
            .iter()
            .filter(mine)
            .find(|s| Some(&s.side) == to_act.as_ref())
            .or_else(|| self.seats.iter().find(mine))
    }

    /// `to_act`, `prompt` and `outcome` as answers show them: a game ended outside the rules
    /// (a resignation, an agreed draw) has nobody to act and says how it ended; a withdrawn
    /// game has nobody to act.
    fn ending_members(&self) -> (Option<String>, Value, Value) {
        if let Some(e) = &self.talk.ended {
            let text = crate::talk::ending_text(self, e);
            return (
                None,
                json!({"text": text, "section": ""}),
                crate::talk::ending_outcome(self, e),
            );
        }
        let to_act = if self.status == "withdrawn" {
            None
        } else {
            self.m.to_act()
        };
        (
            to_act,
            json!(self.m.prompt()),
            outcome_json(self.m.as_ref()),
        )
    }

    /// The time now, as the clocks read it.
    fn clock_now(&self) -> i64 {
        match &self.time {
            Some(t) => t.load(std::sync::atomic::Ordering::Relaxed),
            None => now(),
        }
    }

    fn bot_to_act(&self) -> Option<(String, Level)> {
        if self.status != "active" {
            return None;
        }
        let side = self.m.to_act()?;
        let seat = self.seats.iter().find(|s| s.side == side)?;
        seat.bot.map(|l| (side, l))
    }

    /// What `user` sees of the game, but for its log (see [`Seen`]).
    pub fn seen(&self, user: Option<&User>) -> ApiResult<Seen> {
        let my_side = user.and_then(|u| self.seat_of(u)).map(|s| s.side.clone());
        let (to_act, prompt, outcome) = self.ending_members();
        let my_turn = self.status == "active" && my_side.is_some() && to_act == my_side;
        let (legal, marks) = if my_turn {
            self.m.legal_marked()
        } else {
            Default::default()
        };
        // The legal actions that cannot be taken back: the client confirms those (only).
        let irreversible = json!(irreversible_of(&legal, &marks));
        let top = vec![
            ("status", json!(self.status)),
            (
                "seats",
                Value::Array(
                    self.seats
                        .iter()
                        .map(|s| json!({"side": s.side, "player": s.user_name, "bot": s.bot}))
                        .collect(),
                ),
            ),
            ("my_side", json!(my_side)),
            ("to_act", json!(to_act)),
            ("prompt", prompt),
            (
                "can_undo",
                json!(my_turn && my_side.as_deref().is_some_and(|s| self.m.can_undo(s))),
            ),
            ("outcome", outcome),
            ("rated", json!(self.rated)),
            (
                "ratings",
                Value::Array(
                    self.rating_changes
                        .iter()
                        .map(crate::ratings::Change::json)
                        .collect(),
                ),
            ),
            ("actions", json!(self.m.actions_len())),
            ("irreversible", irreversible),
            (
                "clock",
                self.clock
                    .as_ref()
                    .map_or(Value::Null, |c| c.json(self.clock_now())),
            ),
            (
                "invite",
                if self.status == "open" && my_side.is_some() {
                    json!(self.invite)
                } else {
                    Value::Null
                },
            ),
        ];
        Ok(Seen {
            legal,
            my_side,
            top,
        })
    }

    /// The game as `user` may see it, with the log entries after the first `since` it may
    /// read (`log_start` says where they begin).
    pub fn json_for(&self, user: Option<&User>, since: usize) -> ApiResult<Value> {
        let seen = self.seen(user)?;
        let view = self.m.view(seen.my_side.as_deref())?;
        let (total, log) = self.m.log_after(seen.my_side.as_deref(), since)?;
        let since = since.min(total);
        let mut log = json!(log);
        // A game ended outside the rules: its closing entry after the engine's log (which
        // no longer changes), so always among the entries from `since` on.
        if let (Some(e), Some(a)) = (crate::talk::ending_entry(self), log.as_array_mut()) {
            a.push(e);
        }
        let mut out = self.header();
        for (k, v) in seen.top {
            out.insert(k.into(), v);
        }
        out.insert("version".into(), json!(self.version));
        out.insert("legal".into(), json!(seen.legal));
        out.insert("view".into(), view);
        out.insert("log_start".into(), json!(since));
        out.insert("log".into(), log);
        Ok(Value::Object(out))
    }

    /// The shortest the whole log has been made by undos after `version`, if any undo came
    /// since; 0 when the undos remembered do not reach back that far.
    fn cut_since(&self, version: i64) -> Option<usize> {
        if self.cuts.len() == CUTS && self.cuts.front().is_some_and(|c| c.0 > version) {
            return Some(0);
        }
        self.cuts
            .iter()
            .filter(|c| c.0 > version)
            .map(|c| c.1)
            .min()
    }

    /// What never changes: the game's id, kind, scenario and options.
    fn header(&self) -> serde_json::Map<String, Value> {
        self.header.clone()
    }
}

/// [`Live::header`], made once when the game comes into memory (reading it from the record
/// would copy the whole record on every answer).
fn header_of(id: &str, m: &dyn Match) -> serde_json::Map<String, Value> {
    let record = m.record();
    let mut out = serde_json::Map::new();
    out.insert("id".into(), json!(id));
    out.insert("game".into(), json!(m.info().id));
    out.insert("scenario".into(), json!(record.scenario));
    out.insert("options".into(), json!(record.options));
    out
}

/// Of `legal` (the game's legal actions now, none when it is not the viewer's decision), those
/// that cannot be taken back by their `marks` ([`Match::legal_marked`]): the client confirms
/// exactly these.
fn irreversible_of<'a>(legal: &'a [muster_core::LegalEntry], marks: &[bool]) -> Vec<&'a str> {
    legal
        .iter()
        .zip(marks)
        .filter(|(_, last)| **last)
        .map(|(e, _)| e.action.as_str())
        .collect()
}

/// What one viewer sees of a game but for its view and log: the top-level members that can
/// change, the legal actions (its own, on its turn).
pub struct Seen {
    pub my_side: Option<String>,
    pub top: Vec<(&'static str, Value)>,
    pub legal: Vec<muster_core::LegalEntry>,
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
        "SELECT game, scenario, options, seed, status, version, snapshot, invite, snapshot_at, clock, rated FROM games WHERE id = $1",
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
    let snapshot_at: Option<i64> = row.try_get(8)?;
    let clock: Option<crate::clock::Clocks> = row
        .try_get::<Option<String>, _>(9)?
        .map(|t| serde_json::from_str(&t))
        .transpose()
        .map_err(ApiError::internal)?;
    let rated = row.try_get::<Option<i64>, _>(10)?.unwrap_or(0) != 0;
    let options: Options = serde_json::from_str(&options).map_err(ApiError::internal)?;
    let rows =
        sqlx::query("SELECT side, action, batch FROM actions WHERE game_id = $1 ORDER BY idx")
            .bind(id)
            .fetch_all(&state.db.pool)
            .await?;
    let mut actions = Vec::with_capacity(rows.len());
    for r in &rows {
        let batch: Option<i64> = r.try_get(2)?;
        actions.push((
            RecordedAction {
                side: r.try_get(0)?,
                action: r.try_get(1)?,
            },
            batch,
        ));
    }
    // The record replayed up to the snapshot's count must give the stored snapshot, value for
    // value; the actions after it are then applied as they were.
    let total = actions.len();
    let snapshot_at = match snapshot_at {
        None => total,
        Some(n) if n >= 0 && n as usize <= total => n as usize,
        Some(n) => {
            return Err(ApiError::internal(format!(
                "game {id}: the snapshot comes after {n} actions, the record holds {total}"
            )));
        }
    };
    let mut m = state
        .registry
        .new_match(&game, &scenario, &options, seed as u64)?;
    replay_batches(m.as_mut(), &actions[..snapshot_at], 0)
        .map_err(|e| ApiError::internal(format!("game {id}: its record does not replay: {e}")))?;
    let stored: Value = serde_json::from_str(&snapshot).map_err(ApiError::internal)?;
    if m.try_position()? != stored {
        return Err(ApiError::internal(format!(
            "game {id}: the replayed record does not match the stored snapshot"
        )));
    }
    replay_batches(m.as_mut(), &actions[snapshot_at..], snapshot_at).map_err(|e| {
        ApiError::internal(format!(
            "game {id}: its record after the snapshot does not replay: {e}"
        ))
    })?;
    let seats = load_seats(state, id).await?;
    let talk = crate::talk::load(state, id).await?;
    let rating_changes = if rated && status == "finished" {
        crate::ratings::load_changes(state, id).await?
    } else {
        Vec::new()
    };
    let (tx, _) = broadcast::channel(64);
    let header = header_of(id, m.as_ref());
    let live = Arc::new(Mutex::new(Live {
        id: id.to_string(),
        m,
        seed: seed as u64,
        invite,
        status,
        seats,
        version,
        tx,
        cuts: Default::default(),
        touched: std::time::Instant::now(),
        header,
        snapshot_at,
        talk,
        clock,
        time: state.notify.settings().clock.clone(),
        rated,
        rating_changes,
    }));
    let mut cache = state.live.lock().await;
    let entry = cache.entry(id.to_string()).or_insert(live).clone();
    drop(cache);
    // A bot whose turn it was when the server stopped moves now.
    spawn_bots(state.clone(), id.to_string());
    Ok(entry)
}

/// A stored game rebuilt from its actions, each batch applied as the batch it was sent as
/// (the `batch` column: the index of its first action; NULL in rows stored before batches), so
/// that an undo after a reload takes
/// back what it would have taken back before.
fn replay_batches(
    m: &mut dyn Match,
    actions: &[(RecordedAction, Option<i64>)],
    offset: usize,
) -> Result<(), muster_core::Error> {
    let mut i = 0;
    while i < actions.len() {
        let mut j = i + 1;
        if let Some(b) = actions[i].1 {
            while j < actions.len() && actions[j].1 == Some(b) {
                j += 1;
            }
        }
        let group: Vec<&str> = actions[i..j]
            .iter()
            .map(|(a, _)| a.action.as_str())
            .collect();
        let side = actions[i].0.side.as_str();
        match group.as_slice() {
            [one] => m.act(Some(side), one),
            many => m.act_batch(Some(side), many),
        }
        .map_err(|e| {
            muster_core::Error::new(
                e.kind,
                format!(
                    "action {} ({side} {:?}): {}",
                    offset + i + 1,
                    group[0],
                    e.message
                ),
            )
        })?;
        i = j;
    }
    Ok(())
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

/// Stores the change just made to `live.m` (the actions after the first `before`, or for an
/// undo the removal of the last one) with the new snapshot, as one write; only once it is
/// stored do the version and status move on and the followers hear of it. On an error the
/// caller puts `live.m` back.
async fn store(state: &AppState, live: &mut Live, before: usize, undo: bool) -> ApiResult<()> {
    let m = live.m.as_ref();
    let mut stmts = Vec::new();
    if undo {
        // An undo takes back one action or a whole batch: every row from the new length on.
        stmts.push(Stmt::new(
            "DELETE FROM actions WHERE game_id = $1 AND idx >= $2",
            vec![(&live.id).into(), (m.actions_len() as i64).into()],
        ));
    } else {
        // The rows of one change name its first action (an action sent alone, itself), so that
        // a reload keeps a batch one undo step.
        let batch = before as i64;
        for (i, a) in m.actions_from(before).into_iter().enumerate() {
            stmts.push(Stmt::new(
                "INSERT INTO actions (game_id, idx, side, action, at, batch) VALUES ($1, $2, $3, $4, $5, $6)",
                vec![
                    (&live.id).into(),
                    ((before + i) as i64).into(),
                    a.side.into(),
                    a.action.into(),
                    now().into(),
                    batch.into(),
                ],
            ));
        }
    }
    let outcome = m.outcome();
    let ends = outcome.is_some();
    let status = if outcome.is_some() {
        "finished"
    } else {
        live.status.as_str()
    }
    .to_string();
    let finished = outcome.is_some();
    let winner = outcome
        .and_then(|o| o.winner)
        .map(|w| m.info().side_name(w).to_string());
    let winner_side = winner.clone();
    let after = m.actions_len();
    let snapshot =
        after < live.snapshot_at || finished || after / SNAPSHOT_EVERY != before / SNAPSHOT_EVERY;
    // The clocks after the change, in the same write: the side that handed over is charged
    // its time (and gets its increment), the side to decide now starts.
    let clock = crate::clock::after_change(state, live, &status);
    let (clock_arg, due_arg) = crate::clock::args(clock.as_ref());
    let mut params: Vec<crate::db::Arg> = vec![
        (live.version + 1).into(),
        m.to_act().into(),
        (&status).into(),
        winner.into(),
        now().into(),
        (&live.id).into(),
        live.version.into(),
        clock_arg,
        due_arg,
    ];
    let sql = if snapshot {
        params.push(m.try_position_text()?.into());
        params.push((after as i64).into());
        "UPDATE games SET version = $1, to_act = $2, status = $3, winner = $4, updated = $5, clock = $8, due = $9, snapshot = $10, snapshot_at = $11 WHERE id = $6 AND version = $7"
    } else {
        "UPDATE games SET version = $1, to_act = $2, status = $3, winner = $4, updated = $5, clock = $8, due = $9 WHERE id = $6 AND version = $7"
    };
    stmts.push(Stmt::new(sql, params).expect_rows(1, "stale"));
    let log_len = m.log_len();
    let actors: Vec<String> = if undo {
        Vec::new()
    } else {
        m.actions_from(before).into_iter().map(|a| a.side).collect()
    };
    stmts.extend(crate::talk::lapsing(live, &actors, ends));
    let last_side = actors.last().cloned();
    // A rated game that ends: its rating change in this same write.
    let rating = if ends {
        let rated = crate::ratings::rated(live, winner_side.as_deref());
        crate::ratings::ending(state, rated, now()).await?
    } else {
        None
    };
    if let Some(r) = &rating {
        stmts.extend(r.stmts.iter().cloned());
    }
    state.db.write(stmts).await?;
    if let Some(r) = rating {
        r.applied(live);
    }
    if snapshot {
        live.snapshot_at = after;
    }
    live.clock = clock;
    crate::talk::lapsed(state, live, &actors, ends);
    let was = std::mem::replace(&mut live.status, status);
    notify_change(state, live, &was, last_side.as_deref());
    live.version += 1;
    live.touched = std::time::Instant::now();
    if undo {
        live.cuts.push_back((live.version, log_len));
        if live.cuts.len() > CUTS {
            live.cuts.pop_front();
        }
    }
    let _ = live.tx.send(live.version);
    Ok(())
}

/// Applies the actions of `side` to the game (one, or a batch: all or none) and stores them
/// as one write; on any failure the game is as it was.
async fn act_and_store(
    state: &AppState,
    live: &mut Live,
    side: &str,
    actions: &[&str],
) -> ApiResult<()> {
    let mark = live.m.checkpoint();
    let before = live.m.actions_len();
    let applied = match actions {
        [one] => live.m.act(Some(side), one),
        many => live.m.act_batch(Some(side), many),
    };
    if let Err(e) = applied {
        live.m.restore(mark);
        return Err(e.into());
    }
    if let Err(e) = store(state, live, before, false).await {
        live.m.restore(mark);
        return Err(e);
    }
    Ok(())
}

/// Takes back the last decision of `side` and stores that; on any failure nothing changed.
async fn undo_and_store(state: &AppState, live: &mut Live, side: &str) -> ApiResult<()> {
    let before = live.m.actions_len();
    let mut next = live.m.clone_box();
    next.undo(Some(side))?;
    let previous = std::mem::replace(&mut live.m, next);
    if let Err(e) = store(state, live, before, true).await {
        live.m = previous;
        return Err(e);
    }
    Ok(())
}

/// The wait before the `n`th retry of a bot turn that failed: 0.25 s, doubling, at most 30 s.
pub fn bot_backoff(n: u32) -> std::time::Duration {
    std::time::Duration::from_millis(250)
        .saturating_mul(2u32.saturating_pow(n.min(8)))
        .min(std::time::Duration::from_secs(30))
}

/// The machine's share for bot searches (issue 18): a fair queue of slots, one a core unless
/// [`crate::Limits::bot_threads`] says otherwise. A decision holds as many slots as its level
/// searches on threads (`hard`: two; never more than the pool has) and gives them back when it
/// is made; waiting decisions are served in the order they asked. However many games wait on
/// their bots, no more search threads run than there are slots, and a game whose bot decides
/// again and again queues again each time, so one game's `hard` bot cannot starve the others.
/// Human actions never wait here: bot searches run on blocking threads of their own.
pub struct BotPool {
    slots: tokio::sync::Semaphore,
    size: u32,
}

impl BotPool {
    pub fn new(size: usize) -> BotPool {
        let size = size.clamp(1, 1024) as u32;
        BotPool {
            slots: tokio::sync::Semaphore::new(size as usize),
            size,
        }
    }

    /// The slots in all.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The slots free now.
    pub fn free(&self) -> usize {
        self.slots.available_permits()
    }

    /// Waits for the slots a decision on `threads` threads needs (at most all of them);
    /// `None` only if the pool were closed, which it never is.
    pub async fn acquire(&self, threads: usize) -> Option<tokio::sync::SemaphorePermit<'_>> {
        let n = (threads as u32).clamp(1, self.size);
        self.slots.acquire_many(n).await.ok()
    }
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
    // The bots' search trees between their decisions in this run of the task (a decision made
    // in steps continues the search of the step before; muster_ai::Memory).
    let mut memory = muster_ai::Memory::default();
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
                let Some(slots) = state.bot_pool.acquire(level.threads()).await else {
                    failures += 1;
                    continue;
                };
                let mut mem = std::mem::take(&mut memory);
                let choice = tokio::task::spawn_blocking(move || {
                    let t = bots.think_remembering(
                        snapshot.as_ref(),
                        level,
                        decision_seed,
                        bots.pace(),
                        &mut mem,
                    );
                    (t.map(|t| t.action), mem)
                })
                .await
                .map(|(choice, mem)| {
                    memory = mem;
                    choice
                });
                drop(slots);
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
        match act_and_store(state, &mut l, &side, &[action.as_str()]).await {
            Ok(()) => failures = 0,
            Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE => {
                failures += 1;
                eprintln!(
                    "muster serve: game {id}: the bot's move could not be stored: {} (try {failures}; retrying)",
                    e.message
                );
                chosen = Some((version, action));
            }
            Err(e) => {
                failures += 1;
                eprintln!(
                    "muster serve: game {id}: the bot's move {action:?} was refused: {} (try {failures})",
                    e.message
                );
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
            evict_idle(&state).await;
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

/// Takes out of memory the games nobody uses: finished ones after `limits.finished_idle`,
/// others after `limits.game_idle` ([`crate::Limits`]), but never one that something holds (an open socket, a request in
/// progress, a bot's turn): only the map's own reference may remain, which is checked under
/// the map's lock, so that no request can take the game while it leaves. Returns how many
/// left.
pub async fn evict_idle(state: &AppState) -> usize {
    let bots: std::collections::HashSet<String> = state
        .bot_tasks
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let mut map = state.live.lock().await;
    let before = map.len();
    map.retain(|id, live| {
        if Arc::strong_count(live) > 1 || bots.contains(id) {
            return true;
        }
        let Ok(l) = live.try_lock() else {
            return true;
        };
        let idle = l.touched.elapsed();
        let limits = &state.config.limits;
        let limit = if l.status == "finished" {
            limits.finished_idle
        } else {
            limits.game_idle
        };
        idle < limit || l.bot_to_act().is_some()
    });
    before - map.len()
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
    /// The time control (absent: none): see [`crate::clock::parse`].
    #[serde(default)]
    time: Option<Value>,
    /// Whether the game is rated (absent: rated, but for a hot-seat game, which never is).
    #[serde(default)]
    rated: Option<bool>,
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
    let control = crate::clock::parse(c.time.as_ref())?;
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
        "human" | "self" => None,
        other => {
            return Err(ApiError::bad_request(format!(
                "opponent must be \"bot\", \"human\" or \"self\" (hot-seat: you play every side), not {other:?}"
            )));
        }
    };
    // Hot-seat (issue 16 §6): the caller takes every seat, as `muster play --vs human`.
    let hot_seat = c.opponent == "self";
    if hot_seat && c.rated == Some(true) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "hot_seat_unrated",
            "a hot-seat game (you play every side) is never rated: leave rated out or false",
        ));
    }
    let rated = c.rated.unwrap_or(!hot_seat);
    let seats: Vec<Seat> = sides
        .iter()
        .map(|s| {
            if *s == c.side || hot_seat {
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
    let invite = (level.is_none() && !hot_seat).then(random_token);
    let id = start_game(&state, m, seed, seats, invite.clone(), control, rated).await?;
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
    control: Option<crate::clock::Control>,
    rated: bool,
) -> ApiResult<String> {
    start_game_with(state, m, seed, seats, invite, control, rated, |_| {
        Vec::new()
    })
    .await
}

/// [`start_game`], with further statements (made from the new game's id) stored in the same
/// write: a rematch marks the game it follows.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn start_game_with(
    state: &AppState,
    m: Box<dyn Match>,
    seed: u64,
    seats: Vec<Seat>,
    invite: Option<String>,
    control: Option<crate::clock::Control>,
    rated: bool,
    extra: impl FnOnce(&str) -> Vec<Stmt>,
) -> ApiResult<String> {
    let open = seats.iter().any(|s| s.user_id.is_none() && s.bot.is_none());
    let status = if open { "open" } else { "active" };
    let id = random_token()[..16].to_string();
    let record = m.record();
    let sides = m.info().sides.clone();
    let (txc, _) = broadcast::channel(64);
    let header = header_of(&id, m.as_ref());
    let mut live = Live {
        id: id.clone(),
        m,
        seed,
        invite,
        status: status.into(),
        seats,
        version: 0,
        tx: txc,
        cuts: Default::default(),
        touched: std::time::Instant::now(),
        header,
        snapshot_at: 0,
        talk: Default::default(),
        clock: control.map(|c| crate::clock::Clocks::new(c, &sides)),
        time: state.notify.settings().clock.clone(),
        rated,
        rating_changes: Vec::new(),
    };
    live.clock = crate::clock::after_change(state, &live, status);
    let (clock_arg, due_arg) = crate::clock::args(live.clock.as_ref());
    let (m, invite, seats) = (&live.m, &live.invite, &live.seats);
    let mut stmts = vec![Stmt::new(
        "INSERT INTO games (id, game, scenario, options, seed, status, invite, version, snapshot, snapshot_at, to_act, winner, created, updated, clock, due, rated) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, 0, $9, NULL, $10, $10, $11, $12, $13)",
        vec![
            (&id).into(),
            (&record.game).into(),
            (&record.scenario).into(),
            serde_json::to_string(&record.options)
                .map_err(ApiError::internal)?
                .into(),
            (seed as i64).into(),
            status.into(),
            invite.clone().into(),
            m.try_position_text()?.into(),
            m.to_act().into(),
            now().into(),
            clock_arg,
            due_arg,
            i64::from(rated).into(),
        ],
    )];
    for s in seats {
        stmts.push(Stmt::new(
            "INSERT INTO seats (game_id, side, user_id, bot) VALUES ($1, $2, $3, $4)",
            vec![
                (&id).into(),
                (&s.side).into(),
                s.user_id.clone().into(),
                s.bot.map(|l| l.id().to_string()).into(),
            ],
        ));
    }
    stmts.extend(extra(&id));
    state.db.write(stmts).await?;
    state
        .live
        .lock()
        .await
        .insert(id.clone(), Arc::new(Mutex::new(live)));
    spawn_bots(state.clone(), id.clone());
    Ok(id)
}

/// The parameters of a query string, each named at most once and among `names`; anything
/// else is a clear 400. Values are left for the caller to read.
fn query_params<'a>(q: Option<&'a str>, names: &[&str]) -> ApiResult<HashMap<&'a str, &'a str>> {
    let mut found = HashMap::new();
    for pair in q.unwrap_or_default().split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if !names.contains(&k) || found.insert(k, v).is_some() {
            return Err(ApiError::bad_request(format!(
                "unknown or repeated query parameter {k:?} (this address takes {})",
                names.join(", ")
            )));
        }
    }
    Ok(found)
}

/// Reads `?since=N` (or nothing).
fn since_of(axum::extract::RawQuery(q): axum::extract::RawQuery) -> ApiResult<usize> {
    match query_params(q.as_deref(), &["since"])?.get("since") {
        None => Ok(0),
        Some(v) => v.parse().map_err(|_| {
            ApiError::bad_request(format!("since is a count of log entries, not {v:?}"))
        }),
    }
}

/// `GET /api/games/{id}[?since=N]`
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: axum::extract::RawQuery,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Value>> {
    let since = since_of(query)?;
    let live = live(&state, &id).await?;
    if let Some(u) = &user {
        state.notify.looked(&id, &u.id);
    }
    let mut l = live.lock().await;
    l.touched = std::time::Instant::now();
    // A clock that fell due is applied before the game is shown (a database that cannot take
    // that now leaves it to the next access or the watch: the game is still shown).
    if let Err(e) = crate::clock::check(&state, &mut l).await {
        eprintln!("muster serve: game {id}: its clock: {}", e.message);
    }
    Ok(Json(l.json_for(user.as_ref(), since)?))
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
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    actions: Option<Vec<String>>,
    version: i64,
}

impl ActBody {
    /// The actions asked for: `action` (one) or `actions` (a batch), exactly one of them.
    fn actions(&self) -> ApiResult<Vec<&str>> {
        actions_of(self.action.as_deref(), self.actions.as_deref())
    }
}

/// `action` (one) or `actions` (a batch of 1 to [`muster_core::session::MAX_BATCH`]): exactly
/// one of the two, as HTTP bodies and socket messages give them.
fn actions_of<'a>(one: Option<&'a str>, many: Option<&'a [String]>) -> ApiResult<Vec<&'a str>> {
    use muster_core::session::MAX_BATCH;
    match (one, many) {
        (Some(a), None) => Ok(vec![a]),
        (None, Some([])) => Err(ApiError::bad_request(
            "actions is empty: a batch holds at least one action",
        )),
        (None, Some(list)) if list.len() > MAX_BATCH => Err(ApiError::bad_request(format!(
            "a batch holds at most {MAX_BATCH} actions, not {}",
            list.len()
        ))),
        (None, Some(list)) => Ok(list.iter().map(String::as_str).collect()),
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "give either action (one) or actions (a batch), not both",
        )),
        (None, None) => Err(ApiError::bad_request(
            "action (a string) or actions (a list of strings) is missing",
        )),
    }
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
    if l.status == "withdrawn" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "withdrawn",
            "the game was withdrawn",
        ));
    }
    if l.talk.ended.is_some() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "game_over",
            "the game is over",
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

/// A change a seated player asks for.
pub enum SeatChange<'a> {
    /// One action, or a batch applied as one change.
    Act(Vec<&'a str>),
    Undo,
}

/// Makes a change of the caller's seat (an action or an undo), checked against the seat and
/// the version the caller saw, and stores it. The HTTP routes and the socket both come here.
pub async fn change_as_seat(
    state: &AppState,
    live: &LiveRef,
    user: &User,
    version: i64,
    change: SeatChange<'_>,
) -> ApiResult<()> {
    let mut l = live.lock().await;
    // A clock that ran out ends the game before any move of the side it ran for.
    crate::clock::check(state, &mut l).await?;
    let side = my_seat(&l, user, version)?;
    match change {
        SeatChange::Act(actions) => act_and_store(state, &mut l, &side, &actions).await?,
        SeatChange::Undo => undo_and_store(state, &mut l, &side).await?,
    }
    // A bot's task starts only when the change handed the decision to a bot (checked under
    // the lock, as the task checks it): a move between two people spawns nothing.
    let bot_next = l.bot_to_act().is_some().then(|| l.id.clone());
    drop(l);
    if let Some(id) = bot_next {
        spawn_bots(state.clone(), id);
    }
    Ok(())
}

/// `POST /api/games/{id}/act[?since=N]`
pub async fn act(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: axum::extract::RawQuery,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let since = since_of(query)?;
    let b: ActBody = parse_body(&body)?;
    let actions = b.actions()?;
    let live = live(&state, &id).await?;
    change_as_seat(&state, &live, &user, b.version, SeatChange::Act(actions)).await?;
    let l = live.lock().await;
    Ok(Json(l.json_for(Some(&user), since)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreviewBody {
    actions: Vec<String>,
    version: i64,
}

/// `POST /api/games/{id}/preview {"actions", "version"}`: what the caller would face after a
/// batch it may send — the prompt, the legal actions (with labels and which cannot be taken
/// back), its view and the log entries the batch would add — computed on a copy and thrown
/// away: nothing is stored and nobody else hears of it. The same checks as `act` (seat, turn,
/// version, each action legal in turn), and every action must be one that undo could take
/// back: a batch that rolls dice, draws, reveals or hands play over is refused (its outcome
/// must not be seen before it is stored). So it shows nothing that sending the batch and
/// taking it back would not show. Clients use it to build a batch step by step.
pub async fn preview(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: PreviewBody = parse_body(&body)?;
    let actions = actions_of(None, Some(&b.actions))?;
    let live = live(&state, &id).await?;
    let l = live.lock().await;
    let side = my_seat(&l, &user, b.version)?;
    let mut m = l.m.clone_box();
    let log_len = m.log_len();
    m.act_batch(Some(&side), &actions)?;
    if !m.can_undo(&side) {
        let n = actions.len();
        let mut e = ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "not_previewable",
            format!(
                "action {n} of {n} ({:?}) rolls dice, draws, reveals or hands play over: a preview stops before such an action (send the batch instead)",
                actions[n - 1]
            ),
        );
        e.index = Some(n - 1);
        return Err(e);
    }
    let (legal, marks) = m.legal_marked();
    let irreversible = irreversible_of(&legal, &marks);
    Ok(Json(json!({
        "version": l.version,
        "to_act": m.to_act(),
        "prompt": m.prompt(),
        "legal": legal,
        "irreversible": irreversible,
        "view": m.view(Some(&side))?,
        "log": m.log_from(Some(&side), log_len)?.1,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoBody {
    version: i64,
}

/// `POST /api/games/{id}/undo[?since=N]`
pub async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: axum::extract::RawQuery,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let since = since_of(query)?;
    let b: UndoBody = parse_body(&body)?;
    let live = live(&state, &id).await?;
    change_as_seat(&state, &live, &user, b.version, SeatChange::Undo).await?;
    let l = live.lock().await;
    Ok(Json(l.json_for(Some(&user), since)?))
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
    let l = live.lock().await;
    if let Some(given) = &b.invite
        && l.invite.as_deref() != Some(given.as_str())
    {
        return Err(ApiError::forbidden("that invite link is not for this game"));
    }
    drop(l);
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
    // The clock starts once the last seat is taken.
    let mut joined = l.seats.clone();
    joined[i].user_id = Some(user.id.clone());
    let clock = {
        let before = std::mem::replace(&mut l.seats, joined);
        let c = crate::clock::after_change(&state, &l, status);
        l.seats = before;
        c
    };
    let (clock_arg, due_arg) = crate::clock::args(clock.as_ref());
    state
        .db
        .write(vec![
            Stmt::new(
                "UPDATE seats SET user_id = $1 WHERE game_id = $2 AND side = $3 AND user_id IS NULL",
                vec![(&user.id).into(), (&id).into(), (&l.seats[i].side).into()],
            )
            .expect_rows(1, "full"),
            Stmt::new(
                "UPDATE games SET status = $1, version = version + 1, updated = $2, clock = $5, due = $6 WHERE id = $3 AND version = $4",
                vec![
                    status.into(),
                    now().into(),
                    (&id).into(),
                    l.version.into(),
                    clock_arg,
                    due_arg,
                ],
            )
            .expect_rows(1, "stale"),
        ])
        .await?;
    l.clock = clock;
    l.seats[i].user_id = Some(user.id.clone());
    l.seats[i].user_name = Some(user.name.clone());
    l.status = status.into();
    l.version += 1;
    l.touched = std::time::Instant::now();
    let _ = l.tx.send(l.version);
    if full {
        notify_turn(&state, &l, Some(&user.id));
    }
    Ok(Json(l.json_for(Some(&user), 0)?))
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
    let mut record = l.m.record();
    record.time = l.clock.as_ref().map(|c| c.control.clone());
    record.ended = l.talk.ended.clone();
    Ok(Json(
        serde_json::to_value(record).map_err(ApiError::internal)?,
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

/// `GET /api/lobby`: open games, the caller's games and finished games, newest first (500
/// at most), read in one query.
pub async fn lobby(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Value>> {
    let uid = user.as_ref().map(|u| u.id.clone()).unwrap_or_default();
    let rows = sqlx::query(
        "SELECT g.id, g.game, g.scenario, g.status, g.to_act, g.winner, g.updated, s.side, s.user_id, u.name, s.bot, g.rated
         FROM (SELECT * FROM games
               WHERE status = 'open' OR id IN (SELECT game_id FROM seats WHERE user_id = $1)
               ORDER BY updated DESC LIMIT 500) g
         JOIN seats s ON s.game_id = g.id
         LEFT JOIN users u ON u.id = s.user_id
         ORDER BY g.updated DESC, g.id, s.side",
    )
    .bind(&uid)
    .fetch_all(&state.db.pool)
    .await?;
    let unread = if uid.is_empty() {
        HashMap::new()
    } else {
        crate::chat::unread(&state, &uid, None).await?
    };
    let (mut open, mut mine, mut finished) = (Vec::new(), Vec::new(), Vec::new());
    let mut k = 0;
    while k < rows.len() {
        let id: String = rows[k].try_get(0)?;
        let mut seats = Vec::new();
        let mut my_sides = Vec::new();
        let first = k;
        while k < rows.len() && rows[k].try_get::<String, _>(0)? == id {
            let r = &rows[k];
            let side: String = r.try_get(7)?;
            let user_id: Option<String> = r.try_get(8)?;
            if user_id.as_deref() == Some(uid.as_str()) && !uid.is_empty() {
                my_sides.push(side.clone());
            }
            let bot = r
                .try_get::<Option<String>, _>(10)?
                .and_then(|b| Level::parse(&b).ok());
            seats.push(
                json!({"side": side, "player": r.try_get::<Option<String>, _>(9)?, "bot": bot}),
            );
            k += 1;
        }
        let r = &rows[first];
        let status: String = r.try_get(3)?;
        let to_act: Option<String> = r.try_get(4)?;
        // In a hot-seat game the caller holds every seat: its side is the one to act.
        let my_side = to_act
            .clone()
            .filter(|s| my_sides.contains(s))
            .or_else(|| my_sides.first().cloned());
        let summary = json!({
            "id": id,
            "game": r.try_get::<String, _>(1)?,
            "scenario": r.try_get::<String, _>(2)?,
            "status": status,
            "seats": seats,
            "my_side": my_side,
            "to_act": to_act,
            "my_turn": status == "active" && my_side.is_some() && to_act == my_side,
            "winner": r.try_get::<Option<String>, _>(5)?,
            "updated": r.try_get::<i64, _>(6)?,
            "rated": r.try_get::<Option<i64>, _>(11)?.unwrap_or(0) != 0,
            "unread": unread.get(&id).copied().unwrap_or(0),
        });
        match (status.as_str(), my_side.is_some()) {
            ("withdrawn", _) => {}
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

/// Client messages on a game socket are held to this size; larger ones (up to
/// [`WS_HARD_LIMIT`]) get an error message and the socket stays open.
pub const WS_MESSAGE_LIMIT: usize = crate::MAX_BODY;
/// A message over this closes the socket.
pub const WS_HARD_LIMIT: usize = 1024 * 1024;

/// The `Origin` of a browser's socket must be the server it came from (a page of another
/// site cannot act with the player's cookie: the socket's CSRF protection). Programs that send
/// no `Origin` are let in; they cannot borrow a browser's cookie.
fn check_origin(headers: &HeaderMap) -> ApiResult<()> {
    let Some(origin) = headers.get(axum::http::header::ORIGIN) else {
        return Ok(());
    };
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.trim_end_matches('/'))
        .unwrap_or_default();
    if host.is_empty() || !origin_host.eq_ignore_ascii_case(host) {
        return Err(ApiError::forbidden(
            "this socket may be opened only from the server's own pages",
        ));
    }
    Ok(())
}

/// What a reconnecting client holds: `?log=N&version=V` (N log entries, as of version V).
#[derive(Clone, Copy, Debug, Default)]
struct Holds {
    log: usize,
    version: Option<i64>,
}

/// Reads `?log=N&version=V` (both optional).
fn parse_holds(q: Option<&str>) -> ApiResult<Holds> {
    let params = query_params(q, &["log", "version"])?;
    let bad = |k: &str, v: &str| ApiError::bad_request(format!("{k} is a whole number, not {v:?}"));
    let mut holds = Holds::default();
    if let Some(v) = params.get("log") {
        holds.log = v.parse().map_err(|_| bad("log", v))?;
    }
    if let Some(v) = params.get("version") {
        holds.version = Some(v.parse().map_err(|_| bad("version", v))?);
    }
    Ok(holds)
}

/// `GET /api/games/{id}/ws[?log=N&version=V]`: the game pushed to this viewer on every change, and its
/// actions taken over the same socket (docs/server.md, "The game socket").
pub async fn ws(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
    MaybeUser(user): MaybeUser,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "not_websocket",
            format!("this address speaks WebSocket only: {e}"),
        )
    })?;
    check_origin(&headers)?;
    let holds = parse_holds(query.as_deref())?;
    let live = live(&state, &id).await?;
    let (rx, talk_rx) = {
        let mut l = live.lock().await;
        if let Err(e) = crate::clock::check(&state, &mut l).await {
            eprintln!("muster serve: game {id}: its clock: {}", e.message);
        }
        (l.tx.subscribe(), l.talk.tx.subscribe())
    };
    if let Some(u) = &user {
        state.notify.looked(&id, &u.id);
    }
    // Counted among the game's sockets (a spectator's when it holds no seat) while open.
    let watching = state
        .watchers
        .open(&id, user.as_ref().map(|u| u.id.as_str()));
    let session = crate::auth::cookie(&headers, crate::auth::SESSION_COOKIE)
        .map(|t| crate::auth::hash_token(&t));
    let follower = Follower {
        user,
        session,
        ..Follower::default()
    };
    // Small buffers: a socket's messages are a few hundred bytes, and the default buffers
    // (128 KiB to read, 128 KiB to write, kept for the socket's life) would take most of the
    // server's memory with a few hundred sockets open. Messages sent together (an update and
    // its ack) go out in one write. A client that lets 1 MiB pile up is cut off.
    Ok(upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(16 * 1024)
        .max_write_buffer_size(WS_HARD_LIMIT)
        .max_message_size(WS_HARD_LIMIT)
        .max_frame_size(WS_HARD_LIMIT)
        .on_upgrade(move |socket| async move {
            let _watching = watching;
            follow(state, live, socket, (rx, talk_rx), follower, holds).await
        }))
}

/// Log entries as the socket sends them: as in HTTP answers, less `"audience": "all"` (an
/// entry without an audience is for everyone).
fn socket_log(entries: &[muster_core::LogEntry]) -> Value {
    Value::Array(
        entries
            .iter()
            .map(|e| {
                let mut v = json!(e);
                if v["audience"] == "all"
                    && let Some(o) = v.as_object_mut()
                {
                    o.remove("audience");
                }
                v
            })
            .collect(),
    )
}

/// The top-level members as the socket sends them: as in HTTP answers, but `irreversible` as
/// the indices of those actions in `legal` (a few bytes instead of the action strings, on
/// every decision).
fn socket_top(
    mut top: Vec<(&'static str, Value)>,
    legal: &[muster_core::LegalEntry],
) -> Vec<(&'static str, Value)> {
    for (k, v) in top.iter_mut() {
        if *k == "irreversible"
            && let Value::Array(marks) = v
        {
            // The marks come in the order of `legal` (`irreversible_of`): one walk finds them.
            let mut indices = Vec::with_capacity(marks.len());
            let mut next = marks.iter().peekable();
            for (i, e) in legal.iter().enumerate() {
                if next
                    .peek()
                    .is_some_and(|m| m.as_str() == Some(e.action.as_str()))
                {
                    indices.push(Value::from(i));
                    next.next();
                }
            }
            *v = Value::Array(indices);
        }
    }
    top
}

/// The label a socket's client holds for each action it was sent (the browser keeps the last
/// label it was sent for every action), so that a label comes once however often its action
/// is offered again — a unit's move, a card, a fire — and again whenever it changed. A
/// bounded memory of 64-bit hashes (a few KB a socket); an action it forgot has its label
/// sent again, which is harmless.
#[derive(Default)]
struct LabelMemory {
    /// Hash of the action → hash of the label last sent for it.
    held: HashMap<u64, u64>,
    /// The actions in the order first remembered, the oldest forgotten first.
    order: std::collections::VecDeque<u64>,
}

/// Actions a socket's [`LabelMemory`] holds at most.
const LABELS_REMEMBERED: usize = 256;

impl LabelMemory {
    /// Remembers `label` as the one the client holds for `action`; whether it must be sent
    /// (the client holds another label for the action, or none).
    fn remember(&mut self, action: &str, label: &str) -> bool {
        let hash = |s: &str| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            s.hash(&mut h);
            h.finish()
        };
        let (a, l) = (hash(action), hash(label));
        match self.held.insert(a, l) {
            Some(old) => old != l,
            None => {
                self.order.push_back(a);
                if self.order.len() > LABELS_REMEMBERED
                    && let Some(gone) = self.order.pop_front()
                {
                    self.held.remove(&gone);
                }
                true
            }
        }
    }
}

/// What one socket was last sent: what its next update is reckoned against.
#[derive(Default)]
struct Follower {
    user: Option<User>,
    /// The hash of the session's token, checked again before each change it asks for.
    session: Option<String>,
    side: Option<String>,
    version: i64,
    top: HashMap<&'static str, Value>,
    /// The view last sent, as JSON text (the next is diffed against it as text: see
    /// [`crate::patch::diff_text`]).
    view: String,
    legal: Vec<String>,
    labels: LabelMemory,
    /// Entries of the whole log covered, and how many of them this viewer may read.
    raw_log: usize,
    log: usize,
    /// Whether the closing entry of a game ended outside the rules was sent.
    ending_sent: bool,
}

impl Follower {
    /// The first message: everything, with the log entries the client does not hold. Those
    /// it holds stay valid unless an undo cut the log below them since the version it names
    /// (without a version, its count is trusted).
    fn state(&mut self, l: &Live, holds: Holds) -> ApiResult<Value> {
        let seen = l.seen(self.user.as_ref())?;
        let side = seen.my_side.as_deref();
        let total = l.m.log_after(side, usize::MAX)?.0;
        let mut log_from = holds.log.min(total);
        if let Some(v) = holds.version {
            if v > l.version {
                log_from = 0;
            } else if let Some(cut) = l.cut_since(v) {
                log_from = log_from.min(l.m.log_from(side, cut)?.0);
            }
        }
        let mut out = l.header();
        out.insert("type".into(), json!("state"));
        out.insert("version".into(), json!(l.version));
        self.top.clear();
        for (k, v) in socket_top(seen.top, &seen.legal) {
            out.insert(k.into(), v.clone());
            self.top.insert(k, v);
        }
        let labels = self.legal_and_labels(seen.legal, true);
        out.insert("legal".into(), json!(self.legal));
        out.insert("labels".into(), Value::Object(labels));
        let view = l.m.view_text(side)?;
        out.insert(
            "view".into(),
            serde_json::from_str(&view).map_err(ApiError::internal)?,
        );
        out.insert("log_start".into(), json!(log_from));
        let mut log = socket_log(&l.m.log_after(side, log_from)?.1);
        self.ending_sent = self.push_ending(l, &mut log);
        out.insert("log".into(), log);
        self.view = view;
        self.side = seen.my_side;
        self.version = l.version;
        self.raw_log = l.m.log_len();
        self.log = total;
        Ok(Value::Object(out))
    }

    /// Appends the closing entry of a game ended outside the rules to log entries that reach
    /// the end of the engine's log; whether it did.
    fn push_ending(&self, l: &Live, log: &mut Value) -> bool {
        match (crate::talk::ending_entry(l), log.as_array_mut()) {
            (Some(e), Some(a)) => {
                a.push(e);
                true
            }
            _ => false,
        }
    }

    /// Keeps the legal actions as sent; the labels not sent before on this socket (all of
    /// them with `all`, the first message, which starts the memory afresh).
    fn legal_and_labels(
        &mut self,
        legal: Vec<muster_core::LegalEntry>,
        all: bool,
    ) -> serde_json::Map<String, Value> {
        let mut labels = serde_json::Map::new();
        if all {
            self.labels = LabelMemory::default();
        }
        self.legal = Vec::with_capacity(legal.len());
        for e in legal {
            if self.labels.remember(&e.action, &e.label) {
                labels.insert(e.action.clone(), json!(e.label));
            }
            self.legal.push(e.action);
        }
        labels
    }

    /// What changed since the last message, or `None` when nothing did.
    fn update(&mut self, l: &Live) -> ApiResult<Option<Value>> {
        if l.version == self.version {
            return Ok(None);
        }
        let seen = l.seen(self.user.as_ref())?;
        let mut out = serde_json::Map::new();
        out.insert("type".into(), json!("update"));
        out.insert("version".into(), json!(l.version));
        let legal_changed = seen.legal.len() != self.legal.len()
            || seen
                .legal
                .iter()
                .zip(&self.legal)
                .any(|(e, a)| e.action != *a);
        for (k, v) in socket_top(seen.top, &seen.legal) {
            // The irreversible marks are indices into `legal`: sent again with a new list,
            // but for an empty one, whose marks can only be empty (the client knows).
            if k == "irreversible" && legal_changed {
                if !seen.legal.is_empty() {
                    out.insert(k.into(), v.clone());
                }
                self.top.insert(k, v);
            } else if self.top.get(k) != Some(&v) {
                out.insert(k.into(), v.clone());
                self.top.insert(k, v);
            }
        }
        if legal_changed {
            let labels = self.legal_and_labels(seen.legal, false);
            out.insert("legal".into(), json!(self.legal));
            if !labels.is_empty() {
                out.insert("labels".into(), Value::Object(labels));
            }
        }
        let view = l.m.view_text(seen.my_side.as_deref())?;
        let patch = if self.view.is_empty() {
            // Nothing sent yet (the first message failed): the whole view.
            let whole: Value = serde_json::from_str(&view).map_err(ApiError::internal)?;
            vec![json!({"op": "replace", "path": "", "value": whole})]
        } else {
            crate::patch::diff_text(&self.view, &view).map_err(ApiError::internal)?
        };
        if !patch.is_empty() {
            out.insert("view_patch".into(), Value::Array(patch));
        }
        self.view = view;
        // The log: from where this socket's copy still holds, which an undo may have cut.
        let mut from = if seen.my_side != self.side {
            0
        } else {
            self.raw_log
        };
        if let Some(cut) = l.cut_since(self.version) {
            from = from.min(cut);
        }
        let (before, entries) = l.m.log_from(seen.my_side.as_deref(), from)?;
        let ending_due = !self.ending_sent && l.talk.ended.is_some();
        if !entries.is_empty() || before != self.log || ending_due {
            out.insert("log_start".into(), json!(before));
            self.log = before + entries.len();
            let mut log = socket_log(&entries);
            self.ending_sent = self.push_ending(l, &mut log);
            out.insert("log".into(), log);
        }
        self.raw_log = l.m.log_len();
        self.side = seen.my_side;
        self.version = l.version;
        Ok(Some(Value::Object(out)))
    }
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

/// An error message on a game socket.
fn socket_error(id: &Value, e: &ApiError) -> Message {
    let msg = json!({"type": "error", "id": id, "error": e.body()});
    Message::Text(msg.to_string().into())
}

/// Reads and carries out one message from a socket's client: the message's id, and `Ok` once
/// its change is stored.
async fn socket_request(
    state: &AppState,
    live: &LiveRef,
    f: &Follower,
    text: &str,
) -> (Value, ApiResult<()>) {
    if text.len() > WS_MESSAGE_LIMIT {
        return (
            Value::Null,
            Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("socket messages are limited to {WS_MESSAGE_LIMIT} bytes"),
            )),
        );
    }
    let msg: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return (
                Value::Null,
                Err(ApiError::bad_request(format!(
                    "malformed JSON message: {e}"
                ))),
            );
        }
    };
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    let result = async {
        let obj = msg
            .as_object()
            .ok_or_else(|| ApiError::bad_request("a message is a JSON object"))?;
        let kind = obj.get("type").and_then(Value::as_str).unwrap_or_default();
        let allowed: &[&str] = match kind {
            "act" => &["type", "id", "action", "actions", "version"],
            "undo" => &["type", "id", "version"],
            _ => {
                return Err(ApiError::bad_request(format!(
                    "unknown message type {kind:?}: the types are act and undo"
                )));
            }
        };
        if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(ApiError::bad_request(format!(
                "unknown member {k:?} in a {kind} message"
            )));
        }
        let version = obj
            .get("version")
            .and_then(Value::as_i64)
            .ok_or_else(|| ApiError::bad_request("version (a number) is missing"))?;
        // The session is checked again for every change: a log-out ends the socket's rights.
        let user = match (&f.user, &f.session) {
            (Some(_), Some(key)) => crate::auth::session_user(state, key).await?,
            _ => None,
        }
        .ok_or_else(ApiError::unauthenticated)?;
        let change = match kind {
            "act" => {
                let one = match obj.get("action") {
                    None => None,
                    Some(v) => Some(
                        v.as_str()
                            .ok_or_else(|| ApiError::bad_request("action is a string"))?,
                    ),
                };
                let many: Option<Vec<String>> = match obj.get("actions") {
                    None => None,
                    Some(v) => Some(
                        serde_json::from_value(v.clone())
                            .map_err(|_| ApiError::bad_request("actions is a list of strings"))?,
                    ),
                };
                let actions = actions_of(one, many.as_deref())?
                    .into_iter()
                    .map(str::to_string)
                    .collect::<Vec<_>>();
                return change_as_seat(
                    state,
                    live,
                    &user,
                    version,
                    SeatChange::Act(actions.iter().map(String::as_str).collect()),
                )
                .await;
            }
            _ => SeatChange::Undo,
        };
        change_as_seat(state, live, &user, version, change).await
    }
    .await;
    (id, result)
}

/// Sends messages together (one write to the network), giving up on a client that does not
/// take them within `patience`.
async fn send_all_within(
    socket: &mut WebSocket,
    msgs: Vec<Message>,
    patience: std::time::Duration,
) -> Result<(), ()> {
    use futures_util::SinkExt;
    let all = async {
        let n = msgs.len();
        for (i, m) in msgs.into_iter().enumerate() {
            if i + 1 < n {
                socket.feed(m).await?;
            } else {
                socket.send(m).await?;
            }
        }
        Ok::<(), axum::Error>(())
    };
    match tokio::time::timeout(patience, all).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

/// Follows a game for one socket: the `state` message, an `update` on every change, the
/// client's actions; a ping when it has been silent for a third of `idle`. A client that answers nothing (no pong, no
/// message) for `idle`, or does not take what is sent within `idle`, is disconnected.
async fn follow(
    state: AppState,
    live: LiveRef,
    mut socket: WebSocket,
    (mut rx, mut talk_rx): (
        broadcast::Receiver<i64>,
        broadcast::Receiver<Arc<crate::talk::Event>>,
    ),
    mut f: Follower,
    holds: Holds,
) {
    let idle = state.config.limits.socket_idle;
    let first = {
        let l = live.lock().await;
        f.state(&l, holds)
    };
    let first = match first {
        Ok(mut v) => {
            // With the open offers and the unread count, for a seated player.
            crate::talk::add_to_state(&state, &live, f.user.as_ref(), &mut v).await;
            Message::Text(v.to_string().into())
        }
        Err(e) => socket_error(&Value::Null, &e),
    };
    if send_within(&mut socket, first, idle).await.is_err() {
        return;
    }
    let mut heard = tokio::time::Instant::now();
    let mut ping = tokio::time::interval(idle / 3);
    ping.tick().await;
    loop {
        tokio::select! {
            update = rx.recv() => {
                match update {
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(_) => return,
                }
                let msg = {
                    let l = live.lock().await;
                    f.update(&l)
                };
                let msg = match msg {
                    Ok(Some(v)) => Message::Text(v.to_string().into()),
                    Ok(None) => continue,
                    Err(e) => socket_error(&Value::Null, &e),
                };
                if send_within(&mut socket, msg, idle).await.is_err() {
                    return;
                }
            }
            event = talk_rx.recv() => {
                let event = match event {
                    Ok(e) => e,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                };
                let msg = match crate::talk::socket_message(&state, &live, f.user.as_ref(), &event).await {
                    Ok(Some(v)) => Message::Text(v.to_string().into()),
                    Ok(None) => continue,
                    Err(e) => socket_error(&Value::Null, &e),
                };
                if send_within(&mut socket, msg, idle).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        heard = tokio::time::Instant::now();
                        let e = ApiError::bad_request("messages are JSON text");
                        if send_within(&mut socket, socket_error(&Value::Null, &e), idle).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    Some(Ok(_)) => {
                        heard = tokio::time::Instant::now();
                        continue;
                    }
                };
                heard = tokio::time::Instant::now();
                let (id, result) = socket_request(&state, &live, &f, text.as_str()).await;
                let replies = match result {
                    Ok(()) => {
                        let l = live.lock().await;
                        let update = f.update(&l);
                        let version = l.version;
                        drop(l);
                        // The change's update carries the acknowledgement (`ack`: the
                        // message's id); only when there is no update is the ack its own
                        // message.
                        match update {
                            Ok(Some(mut v)) => {
                                if let Some(o) = v.as_object_mut() {
                                    o.insert("ack".into(), id);
                                }
                                vec![Message::Text(v.to_string().into())]
                            }
                            other => {
                                let mut out = Vec::new();
                                if let Err(e) = other {
                                    out.push(socket_error(&Value::Null, &e));
                                }
                                let ack = json!({"type": "ack", "id": id, "version": version});
                                out.push(Message::Text(ack.to_string().into()));
                                out
                            }
                        }
                    }
                    Err(e) => vec![socket_error(&id, &e)],
                };
                if send_all_within(&mut socket, replies, idle).await.is_err() {
                    return;
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() >= idle {
                    let _ = send_within(&mut socket, Message::Close(None), idle / 3).await;
                    return;
                }
                // A client heard from lately is alive: no ping (one per socket every few
                // seconds was a fifth of the socket traffic of a busy server).
                if heard.elapsed() < idle / 3 {
                    continue;
                }
                if send_within(&mut socket, Message::Ping(Vec::new().into()), idle).await.is_err() {
                    return;
                }
            }
        }
    }
}

// ---- Notifications (issue 16 §1): which changes tell which player (see `notify`). ----

/// What players call a game: its scenario and the game ("Freeman's Farm (Battles ...)").
pub(crate) fn game_title(m: &dyn Match) -> String {
    let info = m.info();
    let scenario = m.record().scenario;
    let name = info
        .scenarios
        .iter()
        .find(|s| s.id == scenario)
        .map_or(scenario.clone(), |s| s.name.clone());
    format!("{name} ({})", info.name)
}

/// Tells the human player to act, if any and unless it is `except`, that it is their turn.
fn notify_turn(state: &AppState, l: &Live, except: Option<&str>) {
    if l.status != "active" {
        return;
    }
    let Some(side) = l.m.to_act() else { return };
    let Some(to) = l
        .seats
        .iter()
        .find(|s| s.side == side)
        .and_then(|s| s.user_id.clone())
    else {
        return;
    };
    if except == Some(to.as_str()) {
        return;
    }
    notify::event(
        state,
        notify::Event {
            kind: notify::Kind::YourTurn,
            game: l.id.clone(),
            title: game_title(l.m.as_ref()),
            to,
        },
    );
}

/// After a stored change: "game over" to every human seat when the game just ended; "your
/// turn" to the human player to act when the last action was another side's (not when the
/// same side goes on deciding, nor after an undo: `last_side` is `None` then).
fn notify_change(state: &AppState, l: &Live, was: &str, last_side: Option<&str>) {
    if l.status == "finished" && was != "finished" {
        notify_game_over(state, l);
        return;
    }
    if let Some(last) = last_side
        && l.m.to_act().as_deref() != Some(last)
    {
        notify_turn(state, l, None);
    }
}

/// "Game over" to every human seat of a game that just ended (by the rules, or on time).
pub(crate) fn notify_game_over(state: &AppState, l: &Live) {
    {
        let info = l.m.info();
        let result = match (&l.talk.ended, l.m.outcome()) {
            (Some(e), _) => match &e.winner {
                Some(w) => format!(
                    "the {} side wins ({})",
                    crate::talk::side_title(w),
                    e.reason
                ),
                None => format!("no side wins ({})", e.reason),
            },
            (None, Some(o)) => match o.winner {
                Some(w) => format!("the {} side wins ({})", info.side_name(w), o.reason),
                None => format!("no side wins ({})", o.reason),
            },
            (None, None) => "it ended".into(),
        };
        let title = game_title(l.m.as_ref());
        for to in l.seats.iter().filter_map(|s| s.user_id.clone()) {
            notify::event(
                state,
                notify::Event {
                    kind: notify::Kind::GameOver {
                        result: result.clone(),
                    },
                    game: l.id.clone(),
                    title: title.clone(),
                    to,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LABELS_REMEMBERED, LabelMemory};

    #[test]
    fn a_label_is_sent_once_again_whenever_it_changed_and_after_it_was_forgotten() {
        let mut m = LabelMemory::default();
        assert!(
            m.remember("select morgan", "Move Morgan at D6"),
            "new: sent"
        );
        assert!(
            !m.remember("select morgan", "Move Morgan at D6"),
            "held: not sent"
        );
        assert!(
            m.remember("select morgan", "Move Morgan at E6"),
            "changed: sent"
        );
        // The client now holds the E6 label: the D6 one must be sent again.
        assert!(
            m.remember("select morgan", "Move Morgan at D6"),
            "changed back: sent"
        );
        assert!(!m.remember("select morgan", "Move Morgan at D6"));
        // Bounded: the oldest action is forgotten, and its label sent again.
        for i in 0..LABELS_REMEMBERED {
            assert!(m.remember(&format!("a{i}"), "x"));
        }
        assert_eq!(m.held.len(), LABELS_REMEMBERED);
        assert!(
            m.remember("select morgan", "Move Morgan at D6"),
            "forgotten: sent"
        );
        assert!(!m.remember(&format!("a{}", LABELS_REMEMBERED - 1), "x"));
    }
}
