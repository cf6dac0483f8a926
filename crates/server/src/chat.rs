//! Talking and noting (docs/server.md, "Talking and noting"): a game's chat in two channels
//! (the seated players', the spectators'), what each player has read of it, mutes per
//! account, and a private notepad per seat.

use crate::auth::{MaybeUser, RequireUser, User, check_csrf};
use crate::db::Stmt;
use crate::error::{ApiError, ApiResult};
use crate::play::{Live, live};
use crate::talk::{Channel, ChatMsg, Event, stored};
use crate::{AppState, Body, now, parse_body};
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A chat message's length at most, in characters.
pub const CHAT_MAX_CHARS: usize = 500;
/// Messages one account may post to one game within [`CHAT_BURST_WINDOW`]...
pub const CHAT_BURST: usize = 5;
pub const CHAT_BURST_WINDOW: Duration = Duration::from_secs(10);
/// ...and within an hour.
pub const CHAT_HOURLY: usize = 60;
/// Messages a game keeps at most (both channels); past it, posts are refused.
pub const CHAT_MAX_MESSAGES: usize = 2000;
/// A notepad's length at most, in characters.
pub const NOTE_MAX_CHARS: usize = 10_000;

fn too_long(what: &str, max: usize) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "too_long",
        format!("{what} is limited to {max} characters"),
    )
}

/// Which channels `user` may read and post to in this game: seated players read both and post
/// to theirs; anyone reads the spectators'; a logged-in account without a seat posts there.
fn may_read(l: &Live, user: Option<&User>, channel: Channel) -> bool {
    channel == Channel::Spectators || user.is_some_and(|u| l.seat_of(u).is_some())
}

fn may_post(l: &Live, user: Option<&User>, channel: Channel) -> ApiResult<()> {
    let Some(user) = user else {
        return Err(ApiError::forbidden("log in to talk in a game"));
    };
    let seated = l.seat_of(user).is_some();
    match (channel, seated) {
        (Channel::Players, true) | (Channel::Spectators, false) => Ok(()),
        (Channel::Players, false) => Err(ApiError::forbidden(
            "only the game's players talk in the players' channel; spectators have their own",
        )),
        (Channel::Spectators, true) => Err(ApiError::forbidden(
            "players talk in the players' channel, not among the spectators",
        )),
    }
}

/// The accounts `user` has muted.
async fn muted_ids(state: &AppState, user: Option<&User>) -> ApiResult<Vec<String>> {
    let Some(user) = user else {
        return Ok(Vec::new());
    };
    let rows = sqlx::query("SELECT muted_id FROM mutes WHERE user_id = $1")
        .bind(&user.id)
        .fetch_all(&state.db.pool)
        .await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?)
}

fn channel_param(q: Option<&str>, l: &Live, user: Option<&User>) -> ApiResult<Channel> {
    let mut channel = None;
    for pair in q.unwrap_or_default().split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("channel", v)) if channel.is_none() => {
                channel = Some(Channel::parse(v).ok_or_else(|| {
                    ApiError::bad_request(format!("channel is players or spectators, not {v:?}"))
                })?);
            }
            _ => {
                return Err(ApiError::bad_request(format!(
                    "unknown or repeated query parameter {pair:?} (this address takes channel)"
                )));
            }
        }
    }
    Ok(
        channel.unwrap_or(if user.is_some_and(|u| l.seat_of(u).is_some()) {
            Channel::Players
        } else {
            Channel::Spectators
        }),
    )
}

/// `GET /api/games/{id}/chat[?channel=players|spectators]`: the channel's messages (the
/// players' by default for a seated player, else the spectators'), less those of accounts the
/// caller muted; for a seated player also its unread count of the players' channel.
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
    MaybeUser(user): MaybeUser,
) -> ApiResult<Json<Value>> {
    let live = live(&state, &id).await?;
    let muted = muted_ids(&state, user.as_ref()).await?;
    let (channel, messages, seated) = {
        let l = live.lock().await;
        let channel = channel_param(q.as_deref(), &l, user.as_ref())?;
        if !may_read(&l, user.as_ref(), channel) {
            return Err(ApiError::forbidden(
                "the players' chat is for the game's players",
            ));
        }
        let messages: Vec<Value> = l
            .talk
            .chat
            .iter()
            .filter(|m| m.channel == channel && !muted.contains(&m.user_id))
            .map(ChatMsg::json)
            .collect();
        let seated = user.as_ref().is_some_and(|u| l.seat_of(u).is_some());
        (channel, messages, seated)
    };
    let mut out = json!({"channel": channel, "messages": messages});
    if let (true, Some(u)) = (seated, &user) {
        out["unread"] = json!(
            unread(&state, &u.id, Some(&id))
                .await?
                .get(&id)
                .copied()
                .unwrap_or(0)
        );
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostBody {
    text: String,
    #[serde(default)]
    channel: Option<String>,
}

/// Checks a message's text: not empty once trimmed, at most [`CHAT_MAX_CHARS`], no control
/// characters but newlines and tabs. The text is stored as given (trimmed) and always shown as
/// text, never as HTML.
fn clean_text(text: &str, what: &str, max: usize) -> ApiResult<String> {
    let t = text.trim();
    if t.chars().count() > max {
        return Err(too_long(what, max));
    }
    if t.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(ApiError::bad_request(format!(
            "{what} may not hold control characters"
        )));
    }
    Ok(t.to_string())
}

/// The rate limits of one account's posts to one game: [`CHAT_BURST`] in
/// [`CHAT_BURST_WINDOW`], [`CHAT_HOURLY`] an hour. Counts the post when it is allowed.
fn check_rate(l: &mut Live, user: &User) -> ApiResult<()> {
    let now = Instant::now();
    let recent = l.talk.recent.entry(user.id.clone()).or_default();
    while recent
        .front()
        .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(3600))
    {
        recent.pop_front();
    }
    let burst = recent
        .iter()
        .filter(|t| now.duration_since(**t) < CHAT_BURST_WINDOW)
        .count();
    if burst >= CHAT_BURST {
        return Err(ApiError::rate_limited(format!(
            "at most {CHAT_BURST} messages in {} s: wait a moment",
            CHAT_BURST_WINDOW.as_secs()
        )));
    }
    if recent.len() >= CHAT_HOURLY {
        return Err(ApiError::rate_limited(format!(
            "at most {CHAT_HOURLY} messages an hour in one game"
        )));
    }
    Ok(())
}

/// `POST /api/games/{id}/chat {"text", "channel"?}`: posts a message (to the players' channel
/// for a seated player, the spectators' for anyone else logged in, unless `channel` says
/// otherwise — which only the right people may). → `{"message"}` once stored.
pub async fn post(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    MaybeUser(user): MaybeUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: PostBody = parse_body(&body)?;
    let live = live(&state, &id).await?;
    let mut l = live.lock().await;
    let channel = match b.channel.as_deref() {
        None => {
            if user.as_ref().is_some_and(|u| l.seat_of(u).is_some()) {
                Channel::Players
            } else {
                Channel::Spectators
            }
        }
        Some(c) => Channel::parse(c).ok_or_else(|| {
            ApiError::bad_request(format!("channel is players or spectators, not {c:?}"))
        })?,
    };
    may_post(&l, user.as_ref(), channel)?;
    let user = user.ok_or_else(ApiError::unauthenticated)?;
    let text = clean_text(&b.text, "a chat message", CHAT_MAX_CHARS)?;
    if text.is_empty() {
        return Err(ApiError::bad_request("a chat message needs some text"));
    }
    if l.talk.chat.len() >= CHAT_MAX_MESSAGES {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "chat_full",
            format!("a game keeps at most {CHAT_MAX_MESSAGES} chat messages"),
        ));
    }
    check_rate(&mut l, &user)?;
    let msg = ChatMsg {
        n: l.talk.chat.last().map_or(0, |m| m.n + 1),
        channel,
        user_id: user.id.clone(),
        from: user.name.clone(),
        text,
        at: now(),
    };
    state
        .db
        .write(vec![Stmt::new(
            "INSERT INTO chat (game_id, idx, channel, user_id, text, at) VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                (&l.id).into(),
                msg.n.into(),
                channel.id().into(),
                (&user.id).into(),
                (&msg.text).into(),
                msg.at.into(),
            ],
        )])
        .await?;
    l.talk
        .recent
        .entry(user.id.clone())
        .or_default()
        .push_back(Instant::now());
    l.talk.chat.push(msg.clone());
    l.touched = Instant::now();
    let answer = json!({"message": msg.json()});
    stored(&state, &l, Event::Chat(msg));
    Ok(Json(answer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeenBody {
    /// Messages read: every message numbered below this.
    upto: i64,
}

/// `POST /api/games/{id}/chat/seen {"upto": N}`: a seated player has read the messages
/// numbered below N (the unread count of the lobby and the socket). → `{"unread"}`.
pub async fn seen(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: SeenBody = parse_body(&body)?;
    let live = live(&state, &id).await?;
    {
        let l = live.lock().await;
        if l.seat_of(&user).is_none() {
            return Err(ApiError::forbidden(
                "only the game's players keep a read mark",
            ));
        }
        let next = l.talk.chat.last().map_or(0, |m| m.n + 1);
        if b.upto < 0 || b.upto > next {
            return Err(ApiError::bad_request(format!(
                "upto is a message count from 0 to {next}, not {}",
                b.upto
            )));
        }
    }
    // The mark only moves forward: a stale tab cannot make read messages unread again.
    state
        .db
        .write(vec![
            Stmt::new(
                "INSERT INTO chat_seen (user_id, game_id, seen) VALUES ($1, $2, $3) ON CONFLICT (user_id, game_id) DO UPDATE SET seen = excluded.seen WHERE chat_seen.seen < excluded.seen",
                vec![(&user.id).into(), (&id).into(), b.upto.into()],
            ),
        ])
        .await?;
    let unread = unread(&state, &user.id, Some(&id))
        .await?
        .get(&id)
        .copied()
        .unwrap_or(0);
    Ok(Json(json!({"unread": unread})))
}

/// Unread messages of the players' channel per game for `user` (in one game, or in all it has
/// a seat in): messages of others, not muted, numbered at or past its read mark.
pub async fn unread(
    state: &AppState,
    user: &str,
    game: Option<&str>,
) -> ApiResult<HashMap<String, i64>> {
    let rows = sqlx::query(
        "SELECT c.game_id, COUNT(*) FROM chat c
         LEFT JOIN chat_seen r ON r.game_id = c.game_id AND r.user_id = $1
         WHERE c.channel = 'players' AND c.user_id <> $1
           AND c.idx >= COALESCE(r.seen, 0)
           AND c.game_id IN (SELECT game_id FROM seats WHERE user_id = $1)
           AND ($2 = '' OR c.game_id = $2)
           AND c.user_id NOT IN (SELECT muted_id FROM mutes WHERE user_id = $1)
         GROUP BY c.game_id",
    )
    .bind(user)
    .bind(game.unwrap_or_default())
    .fetch_all(&state.db.pool)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MuteBody {
    name: String,
    muted: bool,
}

async fn mutes_of(state: &AppState, user: &User) -> ApiResult<Value> {
    let rows = sqlx::query(
        "SELECT u.name FROM mutes m JOIN users u ON u.id = m.muted_id WHERE m.user_id = $1 ORDER BY u.name_key",
    )
    .bind(&user.id)
    .fetch_all(&state.db.pool)
    .await?;
    let names: Vec<String> = rows
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    Ok(json!({"muted": names}))
}

/// `GET /api/account/mutes` → `{"muted": [name...]}`.
pub async fn mutes(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
) -> ApiResult<Json<Value>> {
    Ok(Json(mutes_of(&state, &user).await?))
}

/// `POST /api/account/mutes {"name", "muted": bool}`: hides (or shows again) another
/// account's chat messages in every game, for the caller only. → `{"muted": [name...]}`.
pub async fn mute(
    State(state): State<AppState>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: MuteBody = parse_body(&body)?;
    let row = sqlx::query("SELECT id FROM users WHERE name_key = $1")
        .bind(b.name.to_lowercase())
        .fetch_optional(&state.db.pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no account {:?}", b.name)))?;
    let other: String = row.try_get(0)?;
    if other == user.id {
        return Err(ApiError::bad_request("you cannot mute yourself"));
    }
    let stmt = if b.muted {
        Stmt::new(
            "INSERT INTO mutes (user_id, muted_id) VALUES ($1, $2) ON CONFLICT (user_id, muted_id) DO NOTHING",
            vec![(&user.id).into(), other.into()],
        )
    } else {
        Stmt::new(
            "DELETE FROM mutes WHERE user_id = $1 AND muted_id = $2",
            vec![(&user.id).into(), other.into()],
        )
    };
    state.db.write(vec![stmt]).await?;
    Ok(Json(mutes_of(&state, &user).await?))
}

/// The seat whose notepad the caller means: `side` when given (it must be the caller's), else
/// the caller's seat (in a hot-seat game, the side to act).
fn note_side(l: &Live, user: &User, side: Option<&str>) -> ApiResult<String> {
    match side {
        Some(s) => {
            if l.seats
                .iter()
                .any(|x| x.side == s && x.user_id.as_deref() == Some(user.id.as_str()))
            {
                Ok(s.to_string())
            } else {
                Err(ApiError::forbidden(
                    "a notepad is read only by its own seat",
                ))
            }
        }
        None => l
            .seat_of(user)
            .map(|s| s.side.clone())
            .ok_or_else(|| ApiError::forbidden("only the game's players have notepads")),
    }
}

/// `GET /api/games/{id}/notes[?side=S]` → `{"side", "text", "updated"}`: the caller's seat's
/// notepad (empty until written).
pub async fn notes(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
    RequireUser(user): RequireUser,
) -> ApiResult<Json<Value>> {
    let mut side = None;
    for pair in q
        .as_deref()
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
    {
        match pair.split_once('=') {
            Some(("side", v)) if side.is_none() => side = Some(v.to_string()),
            _ => {
                return Err(ApiError::bad_request(format!(
                    "unknown or repeated query parameter {pair:?} (this address takes side)"
                )));
            }
        }
    }
    let live = live(&state, &id).await?;
    let side = note_side(&*live.lock().await, &user, side.as_deref())?;
    let row = sqlx::query("SELECT text, updated FROM notes WHERE game_id = $1 AND side = $2")
        .bind(&id)
        .bind(&side)
        .fetch_optional(&state.db.pool)
        .await?;
    let (text, updated): (String, Option<i64>) = match row {
        Some(r) => (r.try_get(0)?, Some(r.try_get(1)?)),
        None => (String::new(), None),
    };
    Ok(Json(
        json!({"side": side, "text": text, "updated": updated}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteBody {
    text: String,
    #[serde(default)]
    side: Option<String>,
}

/// `POST /api/games/{id}/notes {"text", "side"?}`: replaces the seat's notepad. → as `GET`.
pub async fn save_notes(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: NoteBody = parse_body(&body)?;
    if b.text.chars().count() > NOTE_MAX_CHARS {
        return Err(too_long("a notepad", NOTE_MAX_CHARS));
    }
    let live = live(&state, &id).await?;
    let side = note_side(&*live.lock().await, &user, b.side.as_deref())?;
    let at = now();
    state
        .db
        .write(vec![Stmt::new(
            "INSERT INTO notes (game_id, side, text, updated) VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, side) DO UPDATE SET text = excluded.text, updated = excluded.updated",
            vec![(&id).into(), (&side).into(), (&b.text).into(), at.into()],
        )])
        .await?;
    Ok(Json(json!({"side": side, "text": b.text, "updated": at})))
}
