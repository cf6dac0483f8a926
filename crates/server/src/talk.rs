//! What a game holds beside the rules (docs/server.md, "Ending, offering, withdrawing" and
//! "Talking and noting"): its chat, its open offers, an ending outside the rules (a
//! resignation, an agreed draw), the rematch it led to. Kept in memory with the game
//! ([`crate::play::Live::talk`]), loaded with it, stored by the routes of [`crate::chat`] and
//! [`crate::offers`].
//!
//! **Every event is announced through [`stored`]**, once it is stored: that is where the game
//! socket hears of it and where notifications (e-mail, webhooks) hook in.

use crate::AppState;
use crate::error::ApiResult;
use crate::notify;
use crate::play::Live;
use muster_core::record::Ended;
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::Row;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::broadcast;

/// Which conversation a chat message belongs to: the seated players', or the spectators'
/// (which the players may read, and hide).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Players,
    Spectators,
}

impl Channel {
    pub fn parse(s: &str) -> Option<Channel> {
        match s {
            "players" => Some(Channel::Players),
            "spectators" => Some(Channel::Spectators),
            _ => None,
        }
    }
    pub fn id(self) -> &'static str {
        match self {
            Channel::Players => "players",
            Channel::Spectators => "spectators",
        }
    }
}

/// One chat message as stored. `n` counts the game's messages of both channels from 0.
#[derive(Clone, Debug)]
pub struct ChatMsg {
    pub n: i64,
    pub channel: Channel,
    pub user_id: String,
    pub from: String,
    pub text: String,
    pub at: i64,
}

impl ChatMsg {
    /// As answers and the socket show it (never the author's account id).
    pub fn json(&self) -> Value {
        json!({"n": self.n, "channel": self.channel, "from": self.from, "text": self.text, "at": self.at})
    }
}

/// What an offer proposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    Draw,
    Rematch,
}

impl OfferKind {
    pub fn parse(s: &str) -> Option<OfferKind> {
        match s {
            "draw" => Some(OfferKind::Draw),
            "rematch" => Some(OfferKind::Rematch),
            _ => None,
        }
    }
    pub fn id(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Rematch => "rematch",
        }
    }
}

/// An open offer: at most one of each kind per game.
#[derive(Clone, Debug)]
pub struct Offer {
    pub kind: OfferKind,
    pub from_side: String,
    pub from_user: String,
    pub from_name: String,
    /// A rematch with the sides swapped (false: kept).
    pub swap: bool,
    pub at: i64,
}

impl Offer {
    pub fn json(&self) -> Value {
        let mut v = json!({"kind": self.kind, "from": self.from_name, "from_side": self.from_side, "at": self.at});
        if self.kind == OfferKind::Rematch {
            v["swap"] = json!(self.swap);
        }
        v
    }
}

/// Something stored that others may want to hear of.
#[derive(Clone, Debug)]
pub enum Event {
    /// A chat message was stored.
    Chat(ChatMsg),
    /// An offer was made.
    OfferMade(Offer),
    /// An offer ended: `"accepted"`, `"declined"`, `"withdrawn"` or `"lapsed"`.
    OfferClosed(OfferKind, &'static str),
    /// A rematch was agreed: the new game's id.
    Rematch(String),
    /// The game ended outside the rules (a resignation, an agreed draw).
    Ended(Ended),
    /// An open game was withdrawn by its creator.
    Withdrawn,
}

/// The game's talk, held with it in memory.
pub struct Talk {
    pub chat: Vec<ChatMsg>,
    pub offers: Vec<Offer>,
    pub ended: Option<Ended>,
    /// The game a rematch of this one started.
    pub rematch: Option<String>,
    /// When each account's recent messages in this game were posted (the rate limits).
    pub recent: HashMap<String, VecDeque<Instant>>,
    /// Talk events, for the game's sockets.
    pub tx: broadcast::Sender<Arc<Event>>,
}

impl Default for Talk {
    fn default() -> Self {
        Talk {
            chat: Vec::new(),
            offers: Vec::new(),
            ended: None,
            rematch: None,
            recent: HashMap::new(),
            tx: broadcast::channel(64).0,
        }
    }
}

impl Talk {
    pub fn offers_json(&self) -> Value {
        json!({
            "offers": self.offers.iter().map(Offer::json).collect::<Vec<_>>(),
            "rematch": self.rematch,
        })
    }
}

/// The one place every stored event passes: the game's sockets hear of it here, and this is
/// where a notifier (e-mail, webhooks: issue 16 §1) hooks in — `live` is the game (its
/// seats say who is to be told), `event` what happened. Called after the write committed,
/// with the game's lock held.
pub fn stored(state: &AppState, live: &Live, event: Event) {
    notify_of(state, live, &event);
    let _ = live.talk.tx.send(Arc::new(event));
}

/// The accounts seated in `live` (each once: a hot-seat player holds several seats), but
/// `except`.
fn seated_accounts(live: &Live, except: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in live.seats.iter().filter_map(|s| s.user_id.as_deref()) {
        if Some(id) != except && !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
    }
    out
}

/// Who hears of a stored talk event by notification (issue 16 §1; docs/server.md,
/// "Notifications"): chat in the players' channel tells the other seated players (the
/// spectators' channel tells nobody; a muted author is dropped by the notifier); an offer tells
/// the players it is made to; an ending outside the rules tells the players who did not cause
/// it (not the one who resigned, not the one who accepted a draw: the offerer). A rematch tells
/// its offerer from `offers::start_rematch`, which knows who offered.
fn notify_of(state: &AppState, live: &Live, event: &Event) {
    let title = crate::play::game_title(live.m.as_ref());
    let tell = |to: Vec<String>, kind: notify::Kind| {
        for to in to {
            notify::event(
                state,
                notify::Event {
                    kind: kind.clone(),
                    game: live.id.clone(),
                    title: title.clone(),
                    to,
                },
            );
        }
    };
    match event {
        Event::Chat(m) if m.channel == Channel::Players => tell(
            seated_accounts(live, Some(&m.user_id)),
            notify::Kind::Chat {
                from: m.from.clone(),
                author: m.user_id.clone(),
                text: m.text.clone(),
            },
        ),
        Event::OfferMade(o) => {
            let what = match (o.kind, o.swap) {
                (OfferKind::Draw, _) => "a draw".to_string(),
                (OfferKind::Rematch, true) => "a rematch with the sides swapped".to_string(),
                (OfferKind::Rematch, false) => "a rematch on the same sides".to_string(),
            };
            tell(
                seated_accounts(live, Some(&o.from_user)),
                notify::Kind::Offer {
                    from: o.from_name.clone(),
                    what,
                },
            );
        }
        Event::Ended(e) => {
            let seat = e.side.as_deref().and_then(|side| seat_of(live, side));
            let (to, result) = match (e.reason.as_str(), &e.side) {
                ("resigned", Some(side)) => {
                    let name = seat
                        .and_then(|s| s.user_name.clone())
                        .unwrap_or_else(|| format!("the {} player", side_title(side)));
                    (
                        seated_accounts(live, seat.and_then(|s| s.user_id.as_deref())),
                        format!("{name} resigned{}", wins(e.winner.as_deref())),
                    )
                }
                // The draw offer is still in memory here (end_outside_rules removes it after).
                ("draw_agreed", _) => (
                    live.talk
                        .offers
                        .iter()
                        .filter(|o| o.kind == OfferKind::Draw)
                        .map(|o| o.from_user.clone())
                        .collect(),
                    "the players agreed a draw".to_string(),
                ),
                // Other endings (a clock that ran out) are told by whoever ends the game
                // (`clock::check` through `play::notify_game_over`), to every player.
                _ => return,
            };
            tell(to, notify::Kind::GameOver { result });
        }
        _ => {}
    }
}

/// The seat of `side`.
fn seat_of<'a>(live: &'a Live, side: &str) -> Option<&'a crate::play::Seat> {
    live.seats.iter().find(|s| s.side == side)
}

/// ": the American side wins" for a winner, nothing without one.
fn wins(winner: Option<&str>) -> String {
    winner
        .map(|w| format!(": the {} side wins", side_title(w)))
        .unwrap_or_default()
}

/// Loads a game's talk (chat, offers, an ending outside the rules, its rematch).
pub async fn load(state: &AppState, id: &str) -> ApiResult<Talk> {
    let mut talk = Talk::default();
    let pool = &state.db.pool;
    let row = sqlx::query("SELECT ended, rematch FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await?;
    if let Some(text) = row.try_get::<Option<String>, _>(0)? {
        talk.ended = Some(serde_json::from_str(&text).map_err(crate::error::ApiError::internal)?);
    }
    talk.rematch = row.try_get(1)?;
    for r in sqlx::query(
        "SELECT c.idx, c.channel, c.user_id, u.name, c.text, c.at FROM chat c JOIN users u ON u.id = c.user_id WHERE c.game_id = $1 ORDER BY c.idx",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    {
        talk.chat.push(ChatMsg {
            n: r.try_get(0)?,
            channel: Channel::parse(&r.try_get::<String, _>(1)?).unwrap_or(Channel::Spectators),
            user_id: r.try_get(2)?,
            from: r.try_get(3)?,
            text: r.try_get(4)?,
            at: r.try_get(5)?,
        });
    }
    for r in sqlx::query(
        "SELECT o.kind, o.from_side, o.from_user, u.name, o.swap, o.at FROM offers o JOIN users u ON u.id = o.from_user WHERE o.game_id = $1 ORDER BY o.kind",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    {
        let Some(kind) = OfferKind::parse(&r.try_get::<String, _>(0)?) else {
            continue;
        };
        talk.offers.push(Offer {
            kind,
            from_side: r.try_get(1)?,
            from_user: r.try_get(2)?,
            from_name: r.try_get(3)?,
            swap: r.try_get::<i64, _>(4)? != 0,
            at: r.try_get(5)?,
        });
    }
    Ok(talk)
}

/// A side's name as players read it ("american" → "American").
pub fn side_title(side: &str) -> String {
    let mut c = side.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// How an ending outside the rules reads, in the outcome and the log.
pub fn ending_text(live: &Live, e: &Ended) -> String {
    match (e.reason.as_str(), &e.side, &e.winner) {
        ("resigned", Some(side), winner) => {
            let name = seat_of(live, side)
                .and_then(|s| s.user_name.clone())
                .unwrap_or_else(|| side_title(side));
            let win = wins(winner.as_deref());
            format!(
                "{name} resigned for the {} side{win}. The game ended outside the rules, by the player's choice.",
                side_title(side)
            )
        }
        ("time", Some(side), winner) => {
            let name = seat_of(live, side)
                .and_then(|s| s.user_name.clone())
                .unwrap_or_else(|| side_title(side));
            let win = wins(winner.as_deref());
            let how = match live.clock.as_ref().map(|c| &c.control) {
                Some(crate::clock::Control::Pace { days }) => format!(
                    "made no move within the {days} day{} of the pace",
                    if *days == 1 { "" } else { "s" }
                ),
                _ => "ran out of time".to_string(),
            };
            format!(
                "{name} {how} for the {} side{win}. The game ended outside the rules, by the time control.",
                side_title(side)
            )
        }
        _ => "The players agreed a draw. The game ended outside the rules, by the players' choice."
            .to_string(),
    }
}

/// The outcome of a game that ended outside the rules, as `outcome` shows it.
pub fn ending_outcome(live: &Live, e: &Ended) -> Value {
    json!({"winner": e.winner, "vp": {}, "reason": ending_text(live, e), "ended": e.reason})
}

/// The log entry that closes a game ended outside the rules: after every entry of the
/// engine's log (which no longer changes), for everyone, with no rule section.
pub fn ending_entry(live: &Live) -> Option<Value> {
    let e = live.talk.ended.as_ref()?;
    Some(json!({"section": "", "text": ending_text(live, e), "audience": "all"}))
}

/// Draw offers lapse when a decision of a side they were offered to is stored, or when the
/// game ends (docs/server.md, "Offers"). The statements that delete them, to go in the same
/// write as the change; `actions` are the sides of the decisions being stored.
pub fn lapsing(live: &Live, actor_sides: &[String], ends: bool) -> Vec<crate::db::Stmt> {
    live.talk
        .offers
        .iter()
        .filter(|o| {
            o.kind == OfferKind::Draw && (ends || actor_sides.iter().any(|s| *s != o.from_side))
        })
        .map(|o| {
            crate::db::Stmt::new(
                "DELETE FROM offers WHERE game_id = $1 AND kind = $2",
                vec![(&live.id).into(), o.kind.id().into()],
            )
        })
        .collect()
}

/// After the write of [`lapsing`] committed: the offers it deleted leave memory, and the
/// players hear of it.
pub fn lapsed(state: &AppState, live: &mut Live, actor_sides: &[String], ends: bool) {
    let before = live.talk.offers.len();
    live.talk.offers.retain(|o| {
        !(o.kind == OfferKind::Draw && (ends || actor_sides.iter().any(|s| *s != o.from_side)))
    });
    if live.talk.offers.len() != before {
        stored(state, live, Event::OfferClosed(OfferKind::Draw, "lapsed"));
    }
}

/// Whether `user` has muted `author` (per account, for every game).
pub async fn is_muted(state: &AppState, user: &str, author: &str) -> ApiResult<bool> {
    Ok(
        sqlx::query("SELECT 1 FROM mutes WHERE user_id = $1 AND muted_id = $2")
            .bind(user)
            .bind(author)
            .fetch_optional(&state.db.pool)
            .await?
            .is_some(),
    )
}

/// What a game socket sends its viewer of a talk event, if anything: chat messages of the
/// channels the viewer may read (less those of accounts it muted), offers to the seated
/// players. Endings and withdrawals change the game itself and reach the socket as its
/// `update`.
pub async fn socket_message(
    state: &AppState,
    live: &crate::play::LiveRef,
    user: Option<&crate::auth::User>,
    event: &Event,
) -> ApiResult<Option<Value>> {
    let (seated, offers, rematch) = {
        let l = live.lock().await;
        let seated = user.is_some_and(|u| l.seat_of(u).is_some());
        (seated, l.talk.offers_json(), l.talk.rematch.clone())
    };
    Ok(match event {
        Event::Chat(m) => {
            if m.channel == Channel::Players && !seated {
                return Ok(None);
            }
            if let Some(u) = user
                && u.id != m.user_id
                && is_muted(state, &u.id, &m.user_id).await?
            {
                return Ok(None);
            }
            Some(json!({"type": "chat", "message": m.json()}))
        }
        Event::OfferMade(_) | Event::OfferClosed(..) if seated => {
            let mut v = offers;
            v["type"] = json!("offers");
            if let Event::OfferClosed(kind, why) = event {
                v["closed"] = json!({"kind": kind, "why": why});
            }
            Some(v)
        }
        Event::Rematch(id) if seated => Some(
            json!({"type": "offers", "offers": offers["offers"], "rematch": rematch.unwrap_or_else(|| id.clone())}),
        ),
        _ => None,
    })
}

/// Adds to a socket's `state` message, for a seated player, the open offers (`offers`,
/// `rematch`) and the unread count of the players' chat (`unread`).
pub async fn add_to_state(
    state: &AppState,
    live: &crate::play::LiveRef,
    user: Option<&crate::auth::User>,
    msg: &mut Value,
) {
    let Some(user) = user else { return };
    let (id, offers) = {
        let l = live.lock().await;
        if l.seat_of(user).is_none() {
            return;
        }
        (l.id.clone(), l.talk.offers_json())
    };
    msg["offers"] = offers["offers"].clone();
    msg["rematch"] = offers["rematch"].clone();
    // A database that cannot be read now leaves the count out; the next GET of the chat has it.
    if let Ok(counts) = crate::chat::unread(state, &user.id, Some(&id)).await {
        msg["unread"] = json!(counts.get(&id).copied().unwrap_or(0));
    }
}
