//! Ending, offering, withdrawing (docs/server.md, "Ending, offering, withdrawing"): a
//! resignation, an open game withdrawn before anyone joined, and offers (a draw, a rematch)
//! that the other player accepts or declines. Resignations and agreed draws end the game
//! **outside the rules**: the engine's state is left as it was, and the ending is kept beside
//! it (`games.ended`, the record's `ended`, a closing log entry). Supply Lines' concession
//! (13.4) is not this: it stays the rules action it is.

use crate::auth::{RequireUser, User, check_csrf, random_token, random_u64};
use crate::db::Stmt;
use crate::error::{ApiError, ApiResult};
use crate::notify;
use crate::play::{Live, LiveRef, Seat, live, start_game_with};
use crate::talk::{Event, Offer, OfferKind, stored};
use crate::{AppState, Body, now, parse_body};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use muster_core::record::Ended;
use serde::Deserialize;
use serde_json::{Value, json};

fn conflict(kind: &'static str, m: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, kind, m)
}

fn unprocessable(kind: &'static str, m: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, kind, m)
}

/// The caller's seat, or 403.
fn seat(l: &Live, user: &User) -> ApiResult<String> {
    l.seat_of(user)
        .map(|s| s.side.clone())
        .ok_or_else(|| ApiError::forbidden("you have no seat in this game"))
}

/// The game must be under way.
fn active(l: &Live) -> ApiResult<()> {
    match l.status.as_str() {
        "active" => Ok(()),
        "open" => Err(conflict(
            "not_started",
            "the game has not started: withdraw it instead",
        )),
        "withdrawn" => Err(conflict("withdrawn", "the game was withdrawn")),
        _ => Err(unprocessable("game_over", "the game is over")),
    }
}

/// Whether every seat but the caller's is a bot or the caller (a game against bots, or a
/// hot-seat game): there is nobody to ask.
fn nobody_to_ask(l: &Live, user: &User) -> bool {
    l.seats
        .iter()
        .all(|s| s.bot.is_some() || s.user_id.as_deref() == Some(user.id.as_str()))
}

/// Ends an active game outside the rules: stores the ending (status, winner, the ending itself,
/// a new version; an open draw offer goes, closed as `why` says), then the game in memory
/// follows and its sockets hear. Its clocks stop.
async fn end_outside_rules(
    state: &AppState,
    l: &mut Live,
    ended: Ended,
    why: &'static str,
) -> ApiResult<()> {
    let clock = l
        .clock
        .as_ref()
        .map(|c| c.stopped(crate::clock::now(state)));
    end_at(state, l, ended, why, now(), clock).await
}

/// [`end_outside_rules`] at time `at` (the game's `updated`), with the clocks as `clock`
/// says (a side's time that ran out: at the time it did).
pub(crate) async fn end_at(
    state: &AppState,
    l: &mut Live,
    ended: Ended,
    why: &'static str,
    at: i64,
    clock: Option<crate::clock::Clocks>,
) -> ApiResult<()> {
    let text = serde_json::to_string(&ended).map_err(ApiError::internal)?;
    let (clock_arg, _) = crate::clock::args(clock.as_ref());
    let mut stmts = vec![
        Stmt::new(
            "UPDATE games SET status = 'finished', winner = $1, ended = $2, to_act = NULL, version = version + 1, updated = $3, clock = $6, due = NULL WHERE id = $4 AND version = $5 AND status = 'active'",
            vec![
                ended.winner.clone().into(),
                text.into(),
                at.into(),
                (&l.id).into(),
                l.version.into(),
                clock_arg,
            ],
        )
        .expect_rows(1, "stale"),
        Stmt::new(
            "DELETE FROM offers WHERE game_id = $1 AND kind = 'draw'",
            vec![(&l.id).into()],
        ),
    ];
    // A rated game: its rating change in this same write (a draw agreed counts as a draw).
    let rated = crate::ratings::rated(l, ended.winner.as_deref());
    let rating = crate::ratings::ending(state, rated, at).await?;
    if let Some(r) = &rating {
        stmts.extend(r.stmts.iter().cloned());
    }
    state.db.write(stmts).await?;
    if let Some(r) = rating {
        r.applied(l);
    }
    l.status = "finished".into();
    l.version += 1;
    l.talk.ended = Some(ended.clone());
    l.clock = clock;
    let had_draw = l.talk.offers.iter().any(|o| o.kind == OfferKind::Draw);
    l.touched = std::time::Instant::now();
    let _ = l.tx.send(l.version);
    // Announced with the draw offer still held: its offerer is who hears of an agreed draw.
    stored(state, l, Event::Ended(ended));
    l.talk.offers.retain(|o| o.kind != OfferKind::Draw);
    if had_draw {
        stored(state, l, Event::OfferClosed(OfferKind::Draw, why));
    }
    Ok(())
}

/// The side that wins when `side` resigns: the other one of two (none with more sides).
pub(crate) fn other_side(l: &Live, side: &str) -> Option<String> {
    let others: Vec<&Seat> = l.seats.iter().filter(|s| s.side != side).collect();
    match others.as_slice() {
        [one] => Some(one.side.clone()),
        _ => None,
    }
}

/// `POST /api/games/{id}/resign`: the caller's side (in a hot-seat game, the side to act)
/// resigns; the other side wins. Any time the game is active, whoever is to act. → the game.
pub async fn resign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    crate::parse_empty(&body)?;
    let live = live(&state, &id).await?;
    let mut l = live.lock().await;
    let side = seat(&l, &user)?;
    active(&l)?;
    let ended = Ended {
        reason: "resigned".into(),
        winner: other_side(&l, &side),
        side: Some(side),
    };
    end_outside_rules(&state, &mut l, ended, "lapsed").await?;
    Ok(Json(l.json_for(Some(&user), 0)?))
}

/// `POST /api/games/{id}/withdraw`: the creator takes back an open game before anyone joined;
/// it leaves the lobby (status `withdrawn`) and can no longer be joined. → `{"ok": true}`.
pub async fn withdraw(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    crate::parse_empty(&body)?;
    withdraw_game(&state, &id, &user).await?;
    Ok(Json(json!({"ok": true})))
}

/// Withdraws the open game `id` of `user` (seated in it), nobody else having joined; also
/// how a deleted account's open games go.
pub async fn withdraw_game(state: &AppState, id: &str, user: &User) -> ApiResult<()> {
    let live = live(state, id).await?;
    let mut l = live.lock().await;
    seat(&l, user)?;
    if l.status != "open" {
        return Err(conflict(
            "not_open",
            "only an open game that nobody has joined can be withdrawn",
        ));
    }
    if l.seats
        .iter()
        .any(|s| s.user_id.as_ref().is_some_and(|u| *u != user.id))
    {
        return Err(conflict(
            "joined",
            "another player has joined: the game can no longer be withdrawn",
        ));
    }
    state
        .db
        .write(vec![
            Stmt::new(
                "UPDATE games SET status = 'withdrawn', invite = NULL, version = version + 1, updated = $1 WHERE id = $2 AND version = $3 AND status = 'open'",
                vec![now().into(), id.into(), l.version.into()],
            )
            .expect_rows(1, "stale"),
        ])
        .await?;
    l.status = "withdrawn".into();
    l.invite = None;
    l.version += 1;
    l.touched = std::time::Instant::now();
    let _ = l.tx.send(l.version);
    stored(state, &l, Event::Withdrawn);
    Ok(())
}

/// `GET /api/games/{id}/offers` → `{"offers": [{"kind", "from", "from_side", "at", "swap"?}],
/// "rematch": id | null}`, for the seated players.
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RequireUser(user): RequireUser,
) -> ApiResult<Json<Value>> {
    let live = live(&state, &id).await?;
    let l = live.lock().await;
    seat(&l, &user)?;
    Ok(Json(l.talk.offers_json()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferBody {
    kind: String,
    #[serde(default)]
    swap: bool,
}

fn kind_of(s: &str) -> ApiResult<OfferKind> {
    OfferKind::parse(s)
        .ok_or_else(|| ApiError::bad_request(format!("kind is draw or rematch, not {s:?}")))
}

/// `POST /api/games/{id}/offers {"kind": "draw" | "rematch", "swap"?}`: offers the other
/// player a draw (while the game is active) or a rematch (once it is over; `swap` swaps the
/// sides). Where nobody is to be asked (the other seats are bots, or the caller's own), a
/// rematch starts at once and a draw is refused against a bot (agreed at once in hot-seat).
/// → as `GET .../offers`.
pub async fn make(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: OfferBody = parse_body(&body)?;
    let kind = kind_of(&b.kind)?;
    let live = live(&state, &id).await?;
    let mut l = live.lock().await;
    let side = seat(&l, &user)?;
    match kind {
        OfferKind::Draw => {
            active(&l)?;
            if b.swap {
                return Err(ApiError::bad_request("swap belongs to a rematch offer"));
            }
        }
        OfferKind::Rematch => {
            if l.status != "finished" {
                return Err(conflict(
                    "not_over",
                    "a rematch is offered once the game is over",
                ));
            }
            if l.talk.rematch.is_some() {
                return Err(conflict(
                    "rematch_started",
                    "a rematch of this game has started already",
                ));
            }
        }
    }
    if l.talk.offers.iter().any(|o| o.kind == kind) {
        return Err(conflict(
            "offer_open",
            format!("a {} offer is open already", kind.id()),
        ));
    }
    if nobody_to_ask(&l, &user) {
        match kind {
            OfferKind::Draw if l.seats.iter().any(|s| s.bot.is_some()) => {
                return Err(unprocessable(
                    "bot_seat",
                    "a bot does not answer draw offers: play on, or resign",
                ));
            }
            OfferKind::Draw => {
                let ended = Ended {
                    reason: "draw_agreed".into(),
                    side: None,
                    winner: None,
                };
                end_outside_rules(&state, &mut l, ended, "accepted").await?;
            }
            OfferKind::Rematch => {
                start_rematch(&state, &mut l, b.swap).await?;
            }
        }
        return Ok(Json(l.talk.offers_json()));
    }
    let offer = Offer {
        kind,
        from_side: side,
        from_user: user.id.clone(),
        from_name: user.name.clone(),
        swap: b.swap,
        at: now(),
    };
    if kind == OfferKind::Rematch {
        check_rematch(&state, &l, b.swap)?;
    }
    state
        .db
        .write(vec![Stmt::new(
            "INSERT INTO offers (game_id, kind, from_side, from_user, swap, at) VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                (&id).into(),
                kind.id().into(),
                (&offer.from_side).into(),
                (&user.id).into(),
                i64::from(offer.swap).into(),
                offer.at.into(),
            ],
        )])
        .await?;
    l.talk.offers.push(offer.clone());
    l.touched = std::time::Instant::now();
    stored(&state, &l, Event::OfferMade(offer));
    Ok(Json(l.talk.offers_json()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    kind: String,
    /// For a draw: the version the player saw (409 `stale` when the game moved on since).
    #[serde(default)]
    version: Option<i64>,
}

/// The open offer of `kind`, with `user` on the right end of it: `offerer` says which.
fn open_offer(l: &Live, user: &User, kind: OfferKind, offerer: bool) -> ApiResult<Offer> {
    seat(l, user)?;
    let o = l
        .talk
        .offers
        .iter()
        .find(|o| o.kind == kind)
        .cloned()
        .ok_or_else(|| conflict("no_offer", format!("no {} offer is open", kind.id())))?;
    if (o.from_user == user.id) != offerer {
        return Err(ApiError::forbidden(if offerer {
            "only the player who made an offer can withdraw it"
        } else {
            "an offer is answered by the other player, not the one who made it"
        }));
    }
    Ok(o)
}

fn delete_offer(l: &Live, kind: OfferKind) -> Stmt {
    Stmt::new(
        "DELETE FROM offers WHERE game_id = $1 AND kind = $2",
        vec![(&l.id).into(), kind.id().into()],
    )
    .expect_rows(1, "no_offer")
}

/// Removes an offer that was answered or withdrawn: stored, then from memory, then heard.
async fn close_offer(
    state: &AppState,
    l: &mut Live,
    kind: OfferKind,
    why: &'static str,
) -> ApiResult<()> {
    state.db.write(vec![delete_offer(l, kind)]).await?;
    l.talk.offers.retain(|o| o.kind != kind);
    stored(state, l, Event::OfferClosed(kind, why));
    Ok(())
}

/// `POST /api/games/{id}/offers/accept {"kind", "version"?}`: the other player accepts. A draw
/// ends the game at once (outside the rules; `version`, when given, must be the game's); a
/// rematch starts the new game (its id in `rematch`). → as `GET .../offers`.
pub async fn accept(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: AnswerBody = parse_body(&body)?;
    let kind = kind_of(&b.kind)?;
    let live = live(&state, &id).await?;
    let mut l = live.lock().await;
    let offer = open_offer(&l, &user, kind, false)?;
    if let Some(v) = b.version
        && v != l.version
    {
        return Err(conflict(
            "stale",
            format!("the game is at version {}, not {v}: reload it", l.version),
        ));
    }
    match kind {
        OfferKind::Draw => {
            active(&l)?;
            let ended = Ended {
                reason: "draw_agreed".into(),
                side: None,
                winner: None,
            };
            end_outside_rules(&state, &mut l, ended, "accepted").await?;
        }
        OfferKind::Rematch => {
            start_rematch(&state, &mut l, offer.swap).await?;
            stored(&state, &l, Event::OfferClosed(kind, "accepted"));
        }
    }
    Ok(Json(l.talk.offers_json()))
}

/// `POST /api/games/{id}/offers/decline {"kind"}`: the other player declines.
pub async fn decline(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    answer(state, id, headers, user, body, false).await
}

/// `POST /api/games/{id}/offers/withdraw {"kind"}`: the offerer takes the offer back.
pub async fn take_back(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    answer(state, id, headers, user, body, true).await
}

async fn answer(
    state: AppState,
    id: String,
    headers: HeaderMap,
    user: User,
    body: axum::body::Bytes,
    offerer: bool,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: AnswerBody = parse_body(&body)?;
    let kind = kind_of(&b.kind)?;
    let live: LiveRef = live(&state, &id).await?;
    let mut l = live.lock().await;
    open_offer(&l, &user, kind, offerer)?;
    let why = if offerer { "withdrawn" } else { "declined" };
    close_offer(&state, &mut l, kind, why).await?;
    Ok(Json(l.talk.offers_json()))
}

/// The seats of a rematch: the same occupants, on the same sides or swapped (each moves to the
/// next side, which for two sides swaps them). A solitaire scenario keeps its bot side.
fn rematch_seats(state: &AppState, l: &Live, swap: bool) -> ApiResult<Vec<Seat>> {
    if !swap {
        return Ok(l.seats.clone());
    }
    let record = l.m.record();
    let solitaire = state
        .registry
        .get(&record.game)?
        .info()
        .scenarios
        .iter()
        .any(|s| s.id == record.scenario && s.bot_side.is_some());
    if solitaire {
        return Err(unprocessable(
            "solitaire",
            "a solitaire scenario keeps its bot on its side: offer a rematch with the sides kept",
        ));
    }
    let n = l.seats.len();
    Ok((0..n)
        .map(|i| {
            let from = &l.seats[(i + n - 1) % n];
            Seat {
                side: l.seats[i].side.clone(),
                ..from.clone()
            }
        })
        .collect())
}

fn check_rematch(state: &AppState, l: &Live, swap: bool) -> ApiResult<()> {
    rematch_seats(state, l, swap).map(|_| ())
}

/// Starts the rematch and marks this game with it, in one write; deletes the rematch offer
/// if there is one.
async fn start_rematch(state: &AppState, l: &mut Live, swap: bool) -> ApiResult<()> {
    let seats = rematch_seats(state, l, swap)?;
    let record = l.m.record();
    let seed = random_u64();
    let m = state
        .registry
        .new_match(&record.game, &record.scenario, &record.options, seed)?;
    let invite = seats
        .iter()
        .any(|s| s.user_id.is_none() && s.bot.is_none())
        .then(random_token);
    let offerer = l
        .talk
        .offers
        .iter()
        .find(|o| o.kind == OfferKind::Rematch)
        .map(|o| o.from_user.clone());
    let had_offer = offerer.is_some();
    let old = l.id.clone();
    // A rematch keeps the time control.
    let control = l.clock.as_ref().map(|c| c.control.clone());
    // And whether it is rated.
    let new_id = start_game_with(state, m, seed, seats, invite, control, l.rated, |new_id| {
        let mut extra = vec![
            Stmt::new(
                "UPDATE games SET rematch = $1 WHERE id = $2 AND rematch IS NULL",
                vec![new_id.into(), (&old).into()],
            )
            .expect_rows(1, "rematch_started"),
        ];
        if had_offer {
            extra.push(
                Stmt::new(
                    "DELETE FROM offers WHERE game_id = $1 AND kind = 'rematch'",
                    vec![(&old).into()],
                )
                .expect_rows(1, "no_offer"),
            );
        }
        extra
    })
    .await?;
    l.talk.offers.retain(|o| o.kind != OfferKind::Rematch);
    l.talk.rematch = Some(new_id.clone());
    // The offerer hears that the other player seated them in the new game (issue 16 §1).
    if let Some(to) = offerer {
        let by = l
            .seats
            .iter()
            .filter(|s| s.user_id.as_deref() != Some(to.as_str()))
            .find_map(|s| s.user_name.clone())
            .unwrap_or_else(|| "the other player".into());
        notify::event(
            state,
            notify::Event {
                kind: notify::Kind::Invited { by },
                game: new_id.clone(),
                title: crate::play::game_title(l.m.as_ref()),
                to,
            },
        );
    }
    stored(state, l, Event::Rematch(new_id));
    Ok(())
}
