//! Time controls (issue 16 §2; docs/server.md, "Time controls"): none, a pace (every decision
//! within N days) or a clock (an initial time and an increment), chosen when a game is created.
//!
//! * The clock runs for the side that is to decide, while the game is active and that side is
//!   a player (never a bot); it is stopped while the game is open, over, or a bot decides.
//! * Its state ([`Clocks`]: the seconds left per side, who runs and since when) is stored in
//!   `games.clock` in the same write as every change of the game, so a restart finds it as it
//!   was; `games.due` is the next time something must happen (a reminder, an expiry), which
//!   the watch ([`watch`]) looks for every [`CHECK_EVERY`], and which every access to the game
//!   checks too ([`check`]). An expiry that fell due while the server was down is applied at
//!   start-up, at the time it fell due.
//! * A side whose time runs out loses: the game ends outside the rules, reason `"time"`.
//! * Vacations ([`vacation`]) stop an account's clocks: a clock that would run for an account
//!   on vacation starts again when the vacation ends.
//!
//! Time is read from [`now`]: the notifications' clock when one is set (the tests' injected
//! clock), else the system's. Seconds since 1970 throughout.

use crate::auth::{RequireUser, check_csrf};
use crate::db::Stmt;
use crate::error::{ApiError, ApiResult};
use crate::play::{Live, live};
use crate::{AppState, Body, parse_body};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use muster_core::record::Ended;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// A pace gives each decision at most this many days.
pub const MAX_PACE_DAYS: i64 = 60;
/// A clock's initial time is at most this many minutes (60 days).
pub const MAX_INITIAL_MINUTES: i64 = 60 * 24 * 60;
/// A clock's increment is at most this many minutes (14 days).
pub const MAX_INCREMENT_MINUTES: i64 = 14 * 24 * 60;
/// Vacation days an account may take within any 365 days (and in one vacation).
pub const VACATION_DAYS_PER_YEAR: i64 = 30;
/// How often the watch looks for clocks that fall due.
pub const CHECK_EVERY: Duration = Duration::from_secs(1);
/// A reminder goes this long before an expiry at most (less for short clocks: a quarter of
/// the time a decision starts with).
pub const REMIND_BEFORE: i64 = 24 * 3600;

const DAY: i64 = 24 * 3600;

/// The time control chosen at creation (kept in the game's record too).
pub use muster_core::record::TimeControl as Control;

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad_time_control", m)
}

/// Reads the `time` member of a creation: absent or `{"kind": "none"}` is no time control.
pub fn parse(v: Option<&Value>) -> ApiResult<Option<Control>> {
    let Some(v) = v else { return Ok(None) };
    let obj = v.as_object().ok_or_else(|| {
        bad("time is an object: {\"kind\": \"none\" | \"pace\" | \"clock\", ...}")
    })?;
    let kind = obj
        .get("kind")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("time.kind (\"none\", \"pace\" or \"clock\") is missing"))?;
    let allowed: &[&str] = match kind {
        "none" => &["kind"],
        "pace" => &["kind", "days"],
        "clock" => &["kind", "initial_minutes", "increment_minutes"],
        other => {
            return Err(bad(format!(
                "time.kind is \"none\", \"pace\" or \"clock\", not {other:?}"
            )));
        }
    };
    if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(bad(format!(
            "unknown member {k:?} in a {kind} time control (it takes {})",
            allowed.join(", ")
        )));
    }
    let whole = |name: &str, min: i64, max: i64, default: Option<i64>| -> ApiResult<i64> {
        let n = match (obj.get(name), default) {
            (None, Some(d)) => d,
            (None, None) => return Err(bad(format!("time.{name} is missing"))),
            (Some(v), _) => v
                .as_i64()
                .ok_or_else(|| bad(format!("time.{name} is a whole number, not {v}")))?,
        };
        if n < min || n > max {
            return Err(bad(format!("time.{name} is from {min} to {max}, not {n}")));
        }
        Ok(n)
    };
    Ok(match kind {
        "none" => None,
        "pace" => Some(Control::Pace {
            days: whole("days", 1, MAX_PACE_DAYS, None)?,
        }),
        _ => Some(Control::Clock {
            initial_minutes: whole("initial_minutes", 1, MAX_INITIAL_MINUTES, None)?,
            increment_minutes: whole("increment_minutes", 0, MAX_INCREMENT_MINUTES, Some(0))?,
        }),
    })
}

/// A game's clocks, as stored in `games.clock`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub control: Control,
    /// Seconds left per side; for the running side, as of `since`.
    pub left: BTreeMap<String, i64>,
    /// The side whose clock runs.
    #[serde(default)]
    pub running: Option<String>,
    /// Since when it runs (later than now while its player is on vacation: it starts then).
    pub since: i64,
    /// Whether the running side was reminded in this turn.
    #[serde(default)]
    pub reminded: bool,
    /// When a side's time ran out (the game ended then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expired_at: Option<i64>,
}

impl Clocks {
    pub fn new(control: Control, sides: &[String]) -> Clocks {
        let budget = control.budget();
        Clocks {
            left: sides.iter().map(|s| (s.clone(), budget)).collect(),
            control,
            running: None,
            since: 0,
            reminded: false,
            expired_at: None,
        }
    }

    fn elapsed(&self, now: i64) -> i64 {
        if self.running.is_some() {
            (now - self.since).max(0)
        } else {
            0
        }
    }

    /// Seconds left to `side` at `now`.
    pub fn left_at(&self, side: &str, now: i64) -> i64 {
        let left = self.left.get(side).copied().unwrap_or(0);
        if self.running.as_deref() == Some(side) {
            (left - self.elapsed(now)).max(0)
        } else {
            left
        }
    }

    /// The clock runs for `to` from `start` on (`start` ≥ `now`: later while its player is on
    /// vacation), or for nobody (`None`). The side that stops is charged its time and gets the
    /// increment; under a pace the side that starts gets the pace's full time.
    pub fn switch(&mut self, now: i64, to: Option<String>, start: i64) {
        if self.running == to {
            return;
        }
        if let Some(old) = self.running.take() {
            let spent = (now - self.since).max(0);
            let inc = self.control.increment();
            if let Some(l) = self.left.get_mut(&old) {
                *l = (*l - spent).max(0) + inc;
            }
        }
        if let Some(new) = &to
            && matches!(self.control, Control::Pace { .. })
        {
            self.left.insert(new.clone(), self.control.budget());
        }
        self.running = to;
        self.since = if self.running.is_some() { start } else { now };
        self.reminded = false;
    }

    /// Stopped at `now` (a game that ended): the running side charged, no increment.
    pub fn stopped(&self, now: i64) -> Clocks {
        let mut c = self.clone();
        if let Some(old) = c.running.take() {
            let spent = (now - c.since).max(0);
            if let Some(l) = c.left.get_mut(&old) {
                *l = (*l - spent).max(0);
            }
        }
        c.since = now;
        c
    }

    /// When the running side's time runs out.
    pub fn expires_at(&self) -> Option<i64> {
        let side = self.running.as_ref()?;
        Some(self.since + self.left.get(side).copied().unwrap_or(0))
    }

    /// When the running side is reminded (none once it was, in this turn).
    pub fn remind_at(&self) -> Option<i64> {
        if self.reminded {
            return None;
        }
        let lead = REMIND_BEFORE.min(self.control.budget() / 4);
        self.expires_at().map(|e| e - lead)
    }

    /// The next time something must happen: a reminder or an expiry.
    pub fn due(&self) -> Option<i64> {
        match (self.remind_at(), self.expires_at()) {
            (Some(r), Some(e)) => Some(r.min(e)),
            (r, e) => r.or(e),
        }
    }

    /// A vacation of the running side's account, from `starts` to `ends`: the clock stops
    /// from `starts` (time spent before it is charged) and starts again at `ends`. Whether it
    /// changed anything (applying it twice changes nothing the second time).
    pub fn apply_vacation(&mut self, starts: i64, ends: i64) -> bool {
        let Some(side) = self.running.clone() else {
            return false;
        };
        if ends <= self.since {
            return false;
        }
        if self.since < starts {
            let spent = starts - self.since;
            if let Some(l) = self.left.get_mut(&side) {
                // An expiry before the vacation started stands: nothing to stop.
                if *l <= spent {
                    return false;
                }
                *l -= spent;
            }
        }
        self.since = ends;
        true
    }

    /// The running side's clock, stopped by a vacation that was ended early (at `ends`, no
    /// later than `now`), starts again at that end: the time it had left when the vacation
    /// began is left to it then. Whether it changed anything.
    pub fn cut_vacation(&mut self, ends: i64, now: i64) -> bool {
        // Only a vacation sets a start later than now.
        if self.running.is_none() || self.since <= now || ends > now {
            return false;
        }
        self.since = ends;
        true
    }

    /// As views show it: the control, the seconds left per side at `now`, who runs, the
    /// server's time, and when a clock stopped by a vacation starts again.
    pub fn json(&self, now: i64) -> Value {
        let mut v = serde_json::to_value(&self.control).unwrap_or(Value::Null);
        let left: serde_json::Map<String, Value> = self
            .left
            .keys()
            .map(|s| (s.clone(), json!(self.left_at(s, now))))
            .collect();
        v["left"] = Value::Object(left);
        v["running"] = json!(self.running);
        v["now"] = json!(now);
        v["resumes"] = if self.running.is_some() && self.since > now {
            json!(self.since)
        } else {
            Value::Null
        };
        v["expires"] = json!(self.expires_at());
        if let Some(t) = self.expired_at {
            v["expired_at"] = json!(t);
        }
        v
    }

    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The time tests may set: the notifications' clock, else the system's.
pub fn now(state: &AppState) -> i64 {
    state.notify.settings().now()
}

/// The side whose clock runs in `l` as it is: the side to act when the game is active, not
/// ended outside the rules, and that side is a player's.
pub fn runner(l: &Live, status: &str) -> Option<String> {
    if status != "active" || l.talk.ended.is_some() || l.m.outcome().is_some() {
        return None;
    }
    let side = l.m.to_act()?;
    let seat = l.seats.iter().find(|s| s.side == side)?;
    (seat.bot.is_none() && seat.user_id.is_some()).then_some(side)
}

/// When a clock for `side` of `l` would start if switched on at `now`: at once, or when its
/// player's vacation ends.
pub fn start_for(state: &AppState, l: &Live, side: Option<&str>, now: i64) -> i64 {
    let user = side
        .and_then(|s| l.seats.iter().find(|x| x.side == s))
        .and_then(|s| s.user_id.as_deref());
    match user.and_then(|u| state.vacations.get(u)) {
        Some((starts, ends)) if starts <= now && ends > now => ends,
        _ => now,
    }
}

/// The clocks of `l` after a change to `status` (and whatever `l.m` is now), at `now`.
pub fn after_change(state: &AppState, l: &Live, status: &str) -> Option<Clocks> {
    let mut c = l.clock.clone()?;
    let now = now(state);
    let to = runner(l, status);
    let start = start_for(state, l, to.as_deref(), now);
    c.switch(now, to, start);
    Some(c)
}

/// The `(clock, due)` arguments of a write storing `c`.
pub fn args(c: Option<&Clocks>) -> (crate::db::Arg, crate::db::Arg) {
    use crate::db::Arg;
    match c {
        None => (Arg::Null, Arg::NullInt),
        Some(c) => (c.text().into(), c.due().map_or(Arg::NullInt, Arg::Int)),
    }
}

/// Brings the clocks of `l` up to date at the time now: a vacation of the running player
/// that began since is applied; an expiry ends the game (at the time it fell due, however
/// late this runs: after a restart too); a reminder due is sent, once per turn. Every access
/// to a game and the watch call this.
pub async fn check(state: &AppState, l: &mut Live) -> ApiResult<()> {
    let Some(mut c) = l.clock.clone() else {
        return Ok(());
    };
    if l.status != "active" || l.talk.ended.is_some() {
        return Ok(());
    }
    let now = now(state);
    let mut moved = false;
    if let Some(side) = c.running.clone() {
        let user = l
            .seats
            .iter()
            .find(|s| s.side == side)
            .and_then(|s| s.user_id.clone());
        if let Some((starts, ends)) = user.and_then(|u| state.vacations.get(&u))
            && starts <= now
        {
            moved = c.apply_vacation(starts, ends) || c.cut_vacation(ends, now);
        }
    }
    if let (Some(side), Some(at)) = (c.running.clone(), c.expires_at())
        && at <= now
    {
        let mut stopped = c.stopped(at);
        stopped.left.insert(side.clone(), 0);
        stopped.expired_at = Some(at);
        let ended = Ended {
            reason: "time".into(),
            winner: crate::offers::other_side(l, &side),
            side: Some(side),
        };
        crate::offers::end_at(state, l, ended, "lapsed", at, Some(stopped)).await?;
        crate::play::notify_game_over(state, l);
        return Ok(());
    }
    let remind = c.remind_at().is_some_and(|r| r <= now);
    if remind {
        c.reminded = true;
    }
    if !remind && !moved {
        return Ok(());
    }
    // A clock a vacation stopped is a change the players see (a new version, pushed to the
    // sockets); a reminder is not (the player's next move must not turn stale by it).
    let (clock, due) = args(Some(&c));
    let bump = i64::from(moved);
    state
        .db
        .write(vec![
            Stmt::new(
                "UPDATE games SET clock = $1, due = $2, version = version + $5 WHERE id = $3 AND version = $4",
                vec![clock, due, (&l.id).into(), l.version.into(), bump.into()],
            )
            .expect_rows(1, "stale"),
        ])
        .await?;
    l.clock = Some(c.clone());
    l.version += bump;
    if remind && let Some(side) = &c.running {
        let to = l
            .seats
            .iter()
            .find(|s| &s.side == side)
            .and_then(|s| s.user_id.clone());
        if let Some(to) = to {
            let left = c.left_at(side, now);
            crate::notify::event(
                state,
                crate::notify::Event {
                    kind: crate::notify::Kind::TimeRunningOut {
                        left: duration_text(left),
                        expires: c.expires_at().unwrap_or(now),
                    },
                    game: l.id.clone(),
                    title: crate::play::game_title(l.m.as_ref()),
                    to,
                },
            );
        }
    }
    if moved {
        let _ = l.tx.send(l.version);
    }
    Ok(())
}

/// "2 days 3 hours", "5 minutes", "40 seconds".
pub fn duration_text(secs: i64) -> String {
    let unit = |n: i64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let (d, h, m) = (secs / DAY, secs % DAY / 3600, secs % 3600 / 60);
    if d > 0 {
        if h > 0 {
            format!("{} {}", unit(d, "day"), unit(h, "hour"))
        } else {
            unit(d, "day")
        }
    } else if h > 0 {
        if m > 0 {
            format!("{} {}", unit(h, "hour"), unit(m, "minute"))
        } else {
            unit(h, "hour")
        }
    } else if m > 0 {
        unit(m, "minute")
    } else {
        unit(secs.max(0), "second")
    }
}

/// The watch: at start-up and every [`CHECK_EVERY`], every active game whose `due` time has
/// come is loaded and checked ([`check`]).
pub fn watch(state: AppState) {
    tokio::spawn(async move {
        // Games that cannot be loaded are not tried again every second (logged once).
        let mut broken: std::collections::HashSet<String> = Default::default();
        loop {
            let now = now(&state);
            let rows = sqlx::query(
                "SELECT id FROM games WHERE status = 'active' AND due IS NOT NULL AND due <= $1 ORDER BY due",
            )
            .bind(now)
            .fetch_all(&state.db.pool)
            .await;
            match rows {
                Err(e) => eprintln!("muster serve: time controls: {e}"),
                Ok(rows) => {
                    for r in rows {
                        let Ok(id) = r.try_get::<String, _>(0) else {
                            continue;
                        };
                        if broken.contains(&id) {
                            continue;
                        }
                        let g = match live(&state, &id).await {
                            Ok(g) => g,
                            Err(e) => {
                                eprintln!(
                                    "muster serve: game {id}: cannot be loaded to check its clock: {}",
                                    e.message
                                );
                                // Not when the database is only unavailable for now.
                                if e.status != StatusCode::SERVICE_UNAVAILABLE {
                                    broken.insert(id);
                                }
                                continue;
                            }
                        };
                        let mut l = g.lock().await;
                        // A write the database refused now is tried again at the next round.
                        if let Err(e) = check(&state, &mut l).await
                            && e.status != StatusCode::CONFLICT
                        {
                            eprintln!(
                                "muster serve: game {id}: its clock could not be checked: {} (trying again)",
                                e.message
                            );
                        }
                    }
                }
            }
            tokio::time::sleep(CHECK_EVERY).await;
        }
    });
}

/// Every account's latest vacation, in memory (read at start-up, kept by [`vacation`]).
#[derive(Default)]
pub struct Vacations {
    inner: std::sync::Mutex<HashMap<String, (i64, i64)>>,
}

impl Vacations {
    /// `(starts, ends)` of the account's latest vacation.
    pub fn get(&self, user: &str) -> Option<(i64, i64)> {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(user)
            .copied()
    }

    fn set(&self, user: &str, starts: i64, ends: i64) {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(user.to_string(), (starts, ends));
    }

    /// Reads the vacations not yet over.
    pub async fn load(db: &crate::db::Db, now: i64) -> Result<Vacations, sqlx::Error> {
        let v = Vacations::default();
        for r in sqlx::query(
            "SELECT user_id, starts, ends FROM vacations WHERE ends > $1 ORDER BY starts",
        )
        .bind(now)
        .fetch_all(&db.pool)
        .await?
        {
            v.set(&r.try_get::<String, _>(0)?, r.try_get(1)?, r.try_get(2)?);
        }
        Ok(v)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VacationBody {
    days: Value,
}

/// The days of vacation `user` took within the 365 days before `now` (vacations that started
/// then), and the current one's end if one runs.
async fn vacation_used(state: &AppState, user: &str, now: i64) -> ApiResult<(i64, Option<i64>)> {
    let rows = sqlx::query("SELECT starts, ends FROM vacations WHERE user_id = $1 AND starts > $2")
        .bind(user)
        .bind(now - 365 * DAY)
        .fetch_all(&state.db.pool)
        .await?;
    let mut days = 0;
    let mut running = None;
    for r in &rows {
        let (starts, ends): (i64, i64) = (r.try_get(0)?, r.try_get(1)?);
        // A vacation ended early counts the days it began.
        days += (ends - starts + DAY - 1) / DAY;
        if starts <= now && ends > now {
            running = Some(ends);
        }
    }
    Ok((days, running))
}

/// `GET /api/account/vacation` → `{"on_vacation_until": t | null, "days_used", "days_left",
/// "days_per_year"}`.
pub async fn get_vacation(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
) -> ApiResult<Json<Value>> {
    let now = now(&state);
    let (used, until) = vacation_used(&state, &user.id, now).await?;
    Ok(Json(vacation_json(used, until)))
}

fn vacation_json(used: i64, until: Option<i64>) -> Value {
    json!({
        "on_vacation_until": until,
        "days_used": used,
        "days_left": (VACATION_DAYS_PER_YEAR - used).max(0),
        "days_per_year": VACATION_DAYS_PER_YEAR,
    })
}

/// `POST /api/account/vacation {"days": N}`: a vacation of N whole days starts now; the
/// clocks of the caller's games stop until it ends. At most [`VACATION_DAYS_PER_YEAR`] days
/// within any 365 days; one at a time. → as `GET`.
pub async fn vacation(
    State(state): State<AppState>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: VacationBody = parse_body(&body)?;
    let days = b
        .days
        .as_i64()
        .ok_or_else(|| ApiError::bad_request(format!("days is a whole number, not {}", b.days)))?;
    if !(1..=VACATION_DAYS_PER_YEAR).contains(&days) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_vacation",
            format!("a vacation is from 1 to {VACATION_DAYS_PER_YEAR} days, not {days}"),
        ));
    }
    let now = now(&state);
    let (used, until) = vacation_used(&state, &user.id, now).await?;
    if let Some(t) = until {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "on_vacation",
            format!("a vacation runs already (until {t}, seconds since 1970)"),
        ));
    }
    if used + days > VACATION_DAYS_PER_YEAR {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "vacation_used",
            format!(
                "{used} of the {VACATION_DAYS_PER_YEAR} vacation days of the last 365 days are used: {} left",
                VACATION_DAYS_PER_YEAR - used
            ),
        ));
    }
    let ends = now + days * DAY;
    state
        .db
        .write(vec![Stmt::new(
            // A vacation ended early in this same second is replaced.
            "INSERT INTO vacations (user_id, starts, ends) VALUES ($1, $2, $3) ON CONFLICT (user_id, starts) DO UPDATE SET ends = excluded.ends",
            vec![(&user.id).into(), now.into(), ends.into()],
        )])
        .await?;
    state.vacations.set(&user.id, now, ends);
    // The caller's running clocks stop now (a game that cannot be checked now is checked on
    // its next access or by the watch, which applies the vacation from its start).
    check_games_of(&state, &user.id, "stop").await?;
    Ok(Json(vacation_json(used + days, Some(ends))))
}

/// Checks the clocks of every active, timed game `user` plays now (after a vacation began or
/// ended); a game that cannot be checked now is checked on its next access or by the watch.
async fn check_games_of(state: &AppState, user: &str, what: &str) -> ApiResult<()> {
    let games = sqlx::query(
        "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = $1 AND g.status = 'active' AND g.clock IS NOT NULL",
    )
    .bind(user)
    .fetch_all(&state.db.pool)
    .await?;
    for r in &games {
        let id: String = r.try_get(0)?;
        if let Ok(g) = live(state, &id).await {
            let mut l = g.lock().await;
            if let Err(e) = check(state, &mut l).await {
                eprintln!(
                    "muster serve: game {id}: a vacation could not {what} its clock now: {}",
                    e.message
                );
            }
        }
    }
    Ok(())
}

/// `POST /api/account/vacation/end` (body empty or `{}`): the caller's vacation ends now,
/// before its time. Every clock it stopped starts again now with the time it had left when
/// the vacation began; the days counted are the days it began. → as `GET`.
pub async fn end_vacation(
    State(state): State<AppState>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    crate::parse_empty(&body)?;
    let now = now(&state);
    let running = sqlx::query(
        "SELECT starts, ends FROM vacations WHERE user_id = $1 AND starts <= $2 AND ends > $2",
    )
    .bind(&user.id)
    .bind(now)
    .fetch_optional(&state.db.pool)
    .await?;
    let Some(r) = running else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_on_vacation",
            "no vacation of yours runs now",
        ));
    };
    let (starts, ends): (i64, i64) = (r.try_get(0)?, r.try_get(1)?);
    state
        .db
        .write(vec![
            Stmt::new(
                "UPDATE vacations SET ends = $1 WHERE user_id = $2 AND starts = $3 AND ends = $4",
                vec![now.into(), (&user.id).into(), starts.into(), ends.into()],
            )
            .expect_rows(1, "stale"),
        ])
        .await?;
    state.vacations.set(&user.id, starts, now);
    check_games_of(&state, &user.id, "restart").await?;
    let (used, until) = vacation_used(&state, &user.id, now).await?;
    Ok(Json(vacation_json(used, until)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    #[test]
    fn a_clock_charges_the_side_that_stops_and_adds_its_increment() {
        let mut c = Clocks::new(
            Control::Clock {
                initial_minutes: 10,
                increment_minutes: 1,
            },
            &sides(),
        );
        c.switch(1000, Some("a".into()), 1000);
        assert_eq!(c.expires_at(), Some(1600));
        c.switch(1100, Some("b".into()), 1100);
        assert_eq!(c.left["a"], 600 - 100 + 60);
        assert_eq!(c.left_at("b", 1130), 570);
    }

    #[test]
    fn a_pace_gives_each_turn_its_full_time_and_a_vacation_moves_the_start() {
        let mut c = Clocks::new(Control::Pace { days: 2 }, &sides());
        c.switch(0, Some("a".into()), 0);
        c.switch(DAY, Some("b".into()), DAY);
        c.switch(2 * DAY, Some("a".into()), 2 * DAY);
        assert_eq!(c.left["a"], 2 * DAY);
        assert!(c.apply_vacation(2 * DAY + 100, 5 * DAY));
        assert!(!c.apply_vacation(2 * DAY + 100, 5 * DAY));
        assert_eq!(c.expires_at(), Some(5 * DAY + 2 * DAY - 100));
    }

    #[test]
    fn bad_time_controls_are_refused() {
        for bad in [
            json!("pace"),
            json!({"kind": "blitz"}),
            json!({"kind": "pace"}),
            json!({"kind": "pace", "days": 0}),
            json!({"kind": "pace", "days": 1.5}),
            json!({"kind": "pace", "days": "3"}),
            json!({"kind": "pace", "days": 3, "extra": 1}),
            json!({"kind": "clock", "initial_minutes": -5}),
            json!({"kind": "clock", "initial_minutes": 10, "increment_minutes": -1}),
        ] {
            assert!(parse(Some(&bad)).is_err(), "{bad}");
        }
        assert_eq!(parse(Some(&json!({"kind": "none"}))).unwrap(), None);
    }
}
