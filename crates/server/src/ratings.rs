//! Ratings per game (issue 16 §6; docs/server.md, "Ratings"): Glicko-2, computed by the
//! `skillratings` crate, one rating per account, game and pool. Rated games between two
//! accounts count in the `human` pool; rated games against a bot in the `bots` pool, where the
//! bot stands at its level's fixed rating ([`muster_ai::Level::rating`]) and never moves.
//! Hot-seat games (one account in every seat) are never rated.
//!
//! A game's rating change is stored **in the write that ends it**, whatever ends it (the
//! rules' outcome, a resignation, an agreed draw, a clock that ran out): the ratings are held
//! in memory behind one lock, which the ending keeps from computing the change until the write
//! is stored or refused, so that two games of one player ending at once are applied one after
//! the other. Each rating row is also written only if it still holds the number of games it
//! was computed from, so a change computed from a stale figure is refused rather than stored.
//! A game ends once (its status changes only from `active`), so its change is applied once;
//! loading a finished game again reads its change back and applies nothing.

use crate::AppState;
use crate::db::{Arg, Stmt};
use crate::error::{ApiError, ApiResult};
use crate::play::{Live, Seat};
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use muster_ai::Level;
use serde_json::{Value, json};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use sqlx::Row;
use std::collections::HashMap;
use tokio::sync::{Mutex, MutexGuard};

/// The pools: games between two accounts, and games against a bot.
pub const POOLS: [&str; 2] = ["human", "bots"];

/// A rating is provisional while it rests on fewer games than this...
pub const PROVISIONAL_GAMES: i64 = 5;
/// ...or while its deviation is above this (Glicko's rating deviation, in rating points).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The deviation a bot is rated with: its level's rating is a provisional figure (see
/// [`Level::rating`]), so it is taken as an established player's with some doubt left.
pub const BOT_DEVIATION: f64 = 100.0;

/// Rated games listed on one leaderboard page.
pub const PAGE_SIZE: i64 = 50;

/// One rating: Glicko-2's three figures and the rated games it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
}

impl Default for Standing {
    /// A new player's: Glicko-2's defaults (1500, 350, 0.06), no games.
    fn default() -> Self {
        let g = Glicko2Rating::new();
        Standing {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            games: 0,
        }
    }
}

impl Standing {
    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// A bot's fixed standing at `level`.
    pub fn bot(level: Level) -> Standing {
        Standing {
            rating: level.rating(),
            deviation: BOT_DEVIATION,
            volatility: Glicko2Rating::new().volatility,
            games: 0,
        }
    }

    /// The four figures as stored: exact decimal text, "rating deviation volatility games"
    /// (each read back as the same number, which JSON readers need not do).
    pub fn text(&self) -> String {
        format!(
            "{} {} {} {}",
            self.rating, self.deviation, self.volatility, self.games
        )
    }

    /// The inverse of [`Standing::text`].
    pub fn from_text(t: &str) -> ApiResult<Standing> {
        let parts: Vec<&str> = t.split(' ').collect();
        let [r, d, v, g] = parts.as_slice() else {
            return Err(ApiError::internal(format!("stored rating figures {t:?}")));
        };
        let games = g
            .parse()
            .map_err(|_| ApiError::internal(format!("stored rating figures {t:?}")))?;
        stored_standing(r, d, v, games)
    }

    pub fn provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES || self.deviation > PROVISIONAL_DEVIATION
    }

    fn after(&self, g: Glicko2Rating) -> Standing {
        Standing {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            games: self.games + 1,
        }
    }
}

/// The key of a rating: account id, game id, pool.
type Key = (String, String, &'static str);

/// Every rating read or changed since the server started (the rest stay in the database until
/// a game of theirs ends), behind the lock that orders the endings.
#[derive(Default)]
pub struct Ratings {
    table: Mutex<HashMap<Key, Standing>>,
}

/// One seat's change in a rated game, as stored with the game and shown on its page.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub side: String,
    /// The account's id (none for a bot).
    pub user_id: Option<String>,
    pub player: Option<String>,
    pub bot: Option<Level>,
    pub pool: String,
    pub before: Standing,
    pub after: Standing,
}

impl Change {
    pub fn json(&self) -> Value {
        json!({
            "side": self.side,
            "player": self.player,
            "bot": self.bot,
            "pool": self.pool,
            "before": standing_json(&self.before),
            "after": standing_json(&self.after),
        })
    }
}

fn standing_json(s: &Standing) -> Value {
    json!({
        "rating": s.rating,
        "deviation": s.deviation,
        "volatility": s.volatility,
        "games": s.games,
        "provisional": s.provisional(),
    })
}

/// The pool a game's ratings go to: `human` for two distinct accounts, `bots` for an account
/// against a bot; none for a hot-seat game, a game of more or fewer than two seats, or an
/// unrated one.
pub fn pool_of(l: &Live) -> Option<&'static str> {
    if !l.rated {
        return None;
    }
    let [a, b] = l.seats.as_slice() else {
        return None;
    };
    match (&a.user_id, &b.user_id, a.bot, b.bot) {
        (Some(x), Some(y), None, None) if x != y => Some("human"),
        (Some(_), None, None, Some(_)) | (None, Some(_), Some(_), None) => Some("bots"),
        _ => None,
    }
}

/// A game's rating change computed and waiting for its ending's write: the statements to add
/// to it, and what memory takes once it is stored. It holds the ratings' lock until it is
/// applied or dropped (a refused write: nothing changes).
pub struct Pending<'a> {
    table: MutexGuard<'a, HashMap<Key, Standing>>,
    pub stmts: Vec<Stmt>,
    changes: Vec<Change>,
    game: String,
    pool: &'static str,
}

impl Pending<'_> {
    /// After the ending's write was stored: memory follows, and the game holds its change.
    pub fn applied(mut self, l: &mut Live) {
        for c in &self.changes {
            if let Some(u) = &c.user_id {
                self.table
                    .insert((u.clone(), self.game.clone(), self.pool), c.after);
            }
        }
        l.rating_changes = self.changes;
    }
}

/// What a game's ending is rated by: read from the game before the ending's write.
pub struct Rated {
    id: String,
    game: String,
    pool: &'static str,
    seats: [Seat; 2],
    /// The first seat's result.
    outcome: Outcomes,
}

/// What ending `l` with `winner` (a side; none: a draw) is rated by; `None` when the game is
/// not rated.
pub fn rated(l: &Live, winner: Option<&str>) -> Option<Rated> {
    let pool = pool_of(l)?;
    let [a, b] = l.seats.as_slice() else {
        return None;
    };
    let outcome = match winner {
        None => Outcomes::DRAW,
        Some(w) if w == a.side => Outcomes::WIN,
        Some(w) if w == b.side => Outcomes::LOSS,
        // A winner that is neither seat: nothing to rate by.
        Some(_) => return None,
    };
    Some(Rated {
        id: l.id.clone(),
        game: l.m.info().id.clone(),
        pool,
        seats: [a.clone(), b.clone()],
        outcome,
    })
}

/// The change of the ending `r` describes, for the ending's write (at time `at`). Takes the
/// ratings' lock (after the game's) and holds it in the answer.
pub async fn ending(state: &AppState, r: Option<Rated>, at: i64) -> ApiResult<Option<Pending<'_>>> {
    let Some(Rated {
        id,
        game,
        pool,
        seats: [a, b],
        outcome,
    }) = r
    else {
        return Ok(None);
    };
    let mut table = state.ratings.table.lock().await;
    let mut before = Vec::with_capacity(2);
    for s in [&a, &b] {
        before.push(match (&s.user_id, s.bot) {
            (Some(u), _) => standing(state, &mut table, u, &game, pool).await?,
            (None, Some(level)) => Standing::bot(level),
            (None, None) => return Ok(None),
        });
    }
    let (ga, gb) = glicko2(
        &before[0].glicko(),
        &before[1].glicko(),
        &outcome,
        &Glicko2Config::new(),
    );
    let mut stmts = Vec::new();
    let mut changes = Vec::new();
    for ((s, was), new) in [&a, &b].into_iter().zip(before).zip([ga, gb]) {
        // A bot's rating never changes.
        let after = if s.user_id.is_some() {
            was.after(new)
        } else {
            was
        };
        if let Some(u) = &s.user_id {
            stmts.push(rating_stmt(u, &game, pool, &was, &after, at));
        }
        let change = Change {
            side: s.side.clone(),
            user_id: s.user_id.clone(),
            player: s.user_name.clone(),
            bot: s.bot,
            pool: pool.to_string(),
            before: was,
            after,
        };
        stmts.push(Stmt::new(
            "INSERT INTO rating_changes (game_id, side, user_id, bot, pool, before_figures, after_figures) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            vec![
                (&id).into(),
                (&s.side).into(),
                s.user_id.clone().into(),
                s.bot.map(|b| b.id().to_string()).into(),
                pool.into(),
                was.text().into(),
                after.text().into(),
            ],
        ));
        changes.push(change);
    }
    Ok(Some(Pending {
        table,
        stmts,
        changes,
        game,
        pool,
    }))
}

/// The statement storing `after` over `was`: a new row for a first rated game, else an update
/// only of the row that still holds `was`'s count of games.
fn rating_stmt(
    user: &str,
    game: &str,
    pool: &'static str,
    was: &Standing,
    after: &Standing,
    at: i64,
) -> Stmt {
    let mut args: Vec<Arg> = vec![
        user.into(),
        game.into(),
        pool.into(),
        after.rating.to_string().into(),
        after.deviation.to_string().into(),
        after.volatility.to_string().into(),
        after.games.into(),
        sort_key(after.rating).into(),
        at.into(),
    ];
    if was.games == 0 {
        Stmt::new(
            "INSERT INTO ratings (user_id, game, pool, rating, deviation, volatility, games, sort, updated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            args,
        )
    } else {
        args.push(was.games.into());
        Stmt::new(
            "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6, games = $7, sort = $8, updated = $9 WHERE user_id = $1 AND game = $2 AND pool = $3 AND games = $10",
            args,
        )
        .expect_rows(1, "rating_changed")
    }
}

/// The rating in thousandths of a point, what the leaderboard orders by.
fn sort_key(rating: f64) -> i64 {
    (rating * 1000.0).round() as i64
}

/// An account's rating from memory, or read from the database into it (a new player's
/// default when it has none).
async fn standing(
    state: &AppState,
    table: &mut HashMap<Key, Standing>,
    user: &str,
    game: &str,
    pool: &'static str,
) -> ApiResult<Standing> {
    let key = (user.to_string(), game.to_string(), pool);
    if let Some(s) = table.get(&key) {
        return Ok(*s);
    }
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = $1 AND game = $2 AND pool = $3",
    )
    .bind(user)
    .bind(game)
    .bind(pool)
    .fetch_optional(&state.db.pool)
    .await?;
    let s = match row {
        None => Standing::default(),
        Some(r) => row_standing(&r, 0)?,
    };
    table.insert(key, s);
    Ok(s)
}

/// The standing in the four columns of `r` from `at` on (rating, deviation, volatility,
/// games).
fn row_standing(r: &sqlx::any::AnyRow, at: usize) -> ApiResult<Standing> {
    stored_standing(
        &r.try_get::<String, _>(at)?,
        &r.try_get::<String, _>(at + 1)?,
        &r.try_get::<String, _>(at + 2)?,
        r.try_get(at + 3)?,
    )
}

/// A standing from its stored columns.
fn stored_standing(
    rating: &str,
    deviation: &str,
    volatility: &str,
    games: i64,
) -> ApiResult<Standing> {
    let num = |t: &str| {
        t.parse::<f64>().map_err(|_| {
            ApiError::internal(format!("a stored rating figure is not a number: {t:?}"))
        })
    };
    Ok(Standing {
        rating: num(rating)?,
        deviation: num(deviation)?,
        volatility: num(volatility)?,
        games,
    })
}

/// A game's stored rating changes (none for an unrated game, or one not over).
pub async fn load_changes(state: &AppState, id: &str) -> ApiResult<Vec<Change>> {
    let rows = sqlx::query(
        "SELECT c.side, c.user_id, u.name, c.bot, c.pool, c.before_figures, c.after_figures FROM rating_changes c LEFT JOIN users u ON u.id = c.user_id WHERE c.game_id = $1 ORDER BY c.side",
    )
    .bind(id)
    .fetch_all(&state.db.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let figures =
            |i: usize| -> ApiResult<Standing> { Standing::from_text(&r.try_get::<String, _>(i)?) };
        out.push(Change {
            side: r.try_get(0)?,
            user_id: r.try_get(1)?,
            player: r.try_get(2)?,
            bot: r
                .try_get::<Option<String>, _>(3)?
                .and_then(|b| Level::parse(&b).ok()),
            pool: r.try_get(4)?,
            before: figures(5)?,
            after: figures(6)?,
        });
    }
    Ok(out)
}

/// A leaderboard row.
fn entry_json(rank: i64, name: String, s: &Standing) -> Value {
    json!({
        "rank": rank,
        "player": name,
        "rating": s.rating,
        "deviation": s.deviation,
        "games": s.games,
        "provisional": s.provisional(),
    })
}

/// `GET /api/ratings/{game}[?pool=human|bots&page=N]`: the game's players in the pool (human by
/// default), the highest rating first, [`PAGE_SIZE`] a page (pages from 1). Unknown game:
/// 404; a pool other than the two: 422; a page that is not a number from 1: 400.
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
    RawQuery(q): RawQuery,
) -> ApiResult<Json<Value>> {
    let p = crate::history::params(q.as_deref(), &["pool", "page"])?;
    if state.registry.get(&game).is_err() {
        return Err(ApiError::not_found(format!("no game {game:?}")));
    }
    let pool = match p.get("pool").map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => "human",
        Some(v) => POOLS.into_iter().find(|x| *x == v).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown_pool",
                format!("pool is human or bots, not {v:?}"),
            )
        })?,
    };
    let page = crate::history::page_of(&p)?;
    let rows = sqlx::query(
        "SELECT u.name, r.rating, r.deviation, r.volatility, r.games
         FROM ratings r JOIN users u ON u.id = r.user_id
         WHERE r.game = $1 AND r.pool = $2 AND u.deleted IS NULL
         ORDER BY r.sort DESC, u.name_key
         LIMIT $3 OFFSET $4",
    )
    .bind(&game)
    .bind(pool)
    .bind(PAGE_SIZE + 1)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&state.db.pool)
    .await?;
    let mut players = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let s = row_standing(r, 1)?;
        players.push(entry_json(
            (page - 1) * PAGE_SIZE + i as i64 + 1,
            r.try_get(0)?,
            &s,
        ));
    }
    let more = players.len() as i64 > PAGE_SIZE;
    players.truncate(PAGE_SIZE as usize);
    Ok(Json(json!({
        "game": game,
        "pool": pool,
        "page": page,
        "per_page": PAGE_SIZE,
        "more": more,
        "players": players,
        "provisional": {"games_below": PROVISIONAL_GAMES, "deviation_above": PROVISIONAL_DEVIATION},
    })))
}

/// An account's ratings, for its profile: `[{"game", "pool", "rating", "deviation", "games",
/// "provisional"}]`, by game and pool.
pub async fn of_user(state: &AppState, user_id: &str) -> ApiResult<Vec<Value>> {
    let rows = sqlx::query(
        "SELECT game, pool, rating, deviation, volatility, games FROM ratings WHERE user_id = $1 ORDER BY game, pool DESC",
    )
    .bind(user_id)
    .fetch_all(&state.db.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let s = row_standing(r, 2)?;
        out.push(json!({
            "game": r.try_get::<String, _>(0)?,
            "pool": r.try_get::<String, _>(1)?,
            "rating": s.rating,
            "deviation": s.deviation,
            "games": s.games,
            "provisional": s.provisional(),
        }));
    }
    Ok(out)
}
