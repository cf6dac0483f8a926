//! Account routes: notification settings (issue 16 §1) and the unsubscribe link of mails;
//! the e-mail address's confirmation, password change and reset, deletion and the public
//! profile (issue 16 §6). See docs/server.md, "Accounts".

use crate::auth::{
    ClientAddr, RequireUser, SESSION_COOKIE, User, check_csrf, check_password, cookie,
    hash_password, hash_token, name_key, password_matches, random_token, signed_out,
};
use crate::db::{Stmt, WriteError};
use crate::error::{ApiError, ApiResult};
use crate::notify::{self, KINDS};
use crate::{AppState, Body, parse_body};
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use std::collections::HashMap;

/// `GET /api/account/notifications`: the caller's settings.
pub async fn get_notifications(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
) -> ApiResult<Json<Value>> {
    Ok(Json(notify::load(&state, &user.id).await?.json()))
}

/// A change of settings: members left out stay as they are; `null` clears an address.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationsBody {
    #[serde(default, with = "optional")]
    email: Option<Option<String>>,
    #[serde(default, with = "optional")]
    webhook: Option<Option<String>>,
    #[serde(default)]
    mail: Option<bool>,
    #[serde(default)]
    events: Option<HashMap<String, bool>>,
}

/// Tells a member set to `null` (`Some(None)`) from one left out (`None`).
mod optional {
    use serde::{Deserialize, Deserializer};
    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Option<String>>, D::Error> {
        Option::<String>::deserialize(d).map(Some)
    }
}

/// `POST /api/account/notifications`: changes the caller's settings; answers them as stored.
pub async fn set_notifications(
    State(state): State<AppState>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: NotificationsBody = parse_body(&body)?;
    let mut a = notify::load(&state, &user.id).await?;
    let mut changed_email = false;
    if let Some(email) = b.email {
        let email = email
            .filter(|e| !e.trim().is_empty())
            .map(|e| notify::check_email(&e))
            .transpose()?;
        if email != a.email {
            a.mail = true; // a new address: mail on, as by default
            changed_email = true;
        }
        a.email = email;
    }
    if let Some(hook) = b.webhook {
        let allow = state.config.notify.allow_private_hooks;
        a.webhook = hook
            .filter(|h| !h.trim().is_empty())
            .map(|h| notify::check_hook_url(h.trim(), allow).map(|u| u.to_string()))
            .transpose()?;
    }
    if let Some(mail) = b.mail {
        a.mail = mail;
    }
    if let Some(events) = b.events {
        for (k, on) in events {
            if !KINDS.contains(&k.as_str()) {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "unknown_event",
                    format!("the events are {}, not {k:?}", KINDS.join(", ")),
                ));
            }
            a.off.retain(|o| *o != k);
            if !on {
                a.off.push(k);
            }
        }
        a.off.sort();
    }
    if a.unsubscribe.is_none() {
        a.unsubscribe = Some(random_token());
    }
    let mut write = vec![notify::save(&user.id, &a)];
    // A new address not yet confirmed gets a link (any older one dies with the old address).
    let mut link = None;
    if changed_email {
        write.push(Stmt::new(
            "DELETE FROM account_tokens WHERE user_id = $1 AND purpose = 'confirm'",
            vec![(&user.id).into()],
        ));
        if let Some(email) = a.email.clone().filter(|_| a.confirmed_email().is_none()) {
            let (token, stmt) = new_token(&state, &user.id, "confirm", Some(&email), CONFIRM_TTL);
            write.push(stmt);
            link = Some((email, token));
        }
    }
    state.db.write(write).await?;
    if let Some((email, token)) = link {
        send_confirmation(&state, &user, &email, &token);
    }
    Ok(Json(a.json()))
}

/// How long a confirmation link works (seconds).
pub const CONFIRM_TTL: i64 = 48 * 3600;
/// How long a password-reset link works (seconds).
pub const RESET_TTL: i64 = 3600;

/// The time as account links read it (the notifications' test clock when set).
fn clock(state: &AppState) -> i64 {
    state.notify.settings().now()
}

/// A new single-use link token for `user_id` and the statement that stores its hash.
fn new_token(
    state: &AppState,
    user_id: &str,
    purpose: &'static str,
    email: Option<&str>,
    ttl: i64,
) -> (String, Stmt) {
    let token = random_token();
    let t = clock(state);
    let stmt = Stmt::new(
        "INSERT INTO account_tokens (token, user_id, purpose, email, created, expires) VALUES ($1, $2, $3, $4, $5, $6)",
        vec![
            hash_token(&token).into(),
            user_id.into(),
            purpose.into(),
            email.map(str::to_string).into(),
            t.into(),
            (t + ttl).into(),
        ],
    );
    (token, stmt)
}

fn public_url(state: &AppState) -> String {
    state
        .notify
        .settings()
        .public_url
        .trim_end_matches('/')
        .to_string()
}

/// Mails the confirmation link `token` for `email` (unless the account had its share of
/// account mails this hour).
fn send_confirmation(state: &AppState, user: &User, email: &str, token: &str) {
    if !state.mails.mail(&user.id) {
        return;
    }
    let link = format!("{}/api/account/confirm?token={token}", public_url(state));
    notify::account_mail(
        state,
        email,
        "Confirm your e-mail address for Muster".into(),
        format!(
            "The Muster account {} gave this address for its notifications.\n\nConfirm it: {link}\n\nThe link works once, within {} hours. If you did not ask for this, ignore this mail: nothing will be sent here.\n",
            user.name,
            CONFIRM_TTL / 3600
        ),
    );
}

/// `GET /api/account` → `{"name", "created", "email", "email_confirmed"}`.
pub async fn get_account(
    State(state): State<AppState>,
    RequireUser(user): RequireUser,
) -> ApiResult<Json<Value>> {
    let a = notify::load(&state, &user.id).await?;
    let created: i64 = sqlx::query("SELECT created FROM users WHERE id = $1")
        .bind(&user.id)
        .fetch_one(&state.db.pool)
        .await?
        .try_get(0)?;
    Ok(Json(json!({
        "name": user.name,
        "created": created,
        "email": a.email,
        "email_confirmed": a.confirmed_email().is_some(),
    })))
}

/// `POST /api/account/confirm`: mails a new confirmation link for the account's address.
pub async fn resend_confirmation(
    State(state): State<AppState>,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    crate::parse_empty(&body)?;
    let a = notify::load(&state, &user.id).await?;
    let Some(email) = a.email.clone() else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no_email",
            "the account has no e-mail address to confirm",
        ));
    };
    if a.confirmed_email().is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "confirmed",
            "the address is confirmed already",
        ));
    }
    if !notify::can_mail(&state) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no_mail",
            "this server sends no mail (it runs without --smtp)",
        ));
    }
    let (token, stmt) = new_token(&state, &user.id, "confirm", Some(&email), CONFIRM_TTL);
    state
        .db
        .write(vec![
            Stmt::new(
                "DELETE FROM account_tokens WHERE user_id = $1 AND purpose = 'confirm'",
                vec![(&user.id).into()],
            ),
            stmt,
        ])
        .await?;
    send_confirmation(&state, &user, &email, &token);
    Ok(Json(json!({"ok": true})))
}

/// The value of `token=` in a query string.
fn token_param(q: Option<&str>) -> String {
    q.unwrap_or_default()
        .split('&')
        .find_map(|p| p.strip_prefix("token="))
        .unwrap_or_default()
        .to_string()
}

/// `GET /api/account/confirm?token=T`: the link of a confirmation mail, without logging in;
/// confirms the address it was sent to (if it is still the account's), once.
pub async fn confirm(State(state): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let title = "Confirm an e-mail address";
    let token = token_param(q.as_deref());
    if token.len() < 16 {
        return page(
            StatusCode::BAD_REQUEST,
            title,
            "This link is incomplete: use the whole link from the mail.",
        );
    }
    let key = hash_token(&token);
    let found = sqlx::query(
        "SELECT t.user_id, t.email, t.expires FROM account_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token = $1 AND t.purpose = 'confirm' AND u.deleted IS NULL",
    )
    .bind(&key)
    .fetch_optional(&state.db.pool)
    .await;
    let (user_id, email, expires): (String, Option<String>, i64) = match found {
        Ok(Some(r)) => match (r.try_get(0), r.try_get(1), r.try_get(2)) {
            (Ok(a), Ok(b), Ok(c)) => (a, b, c),
            _ => return ApiError::internal("an unreadable token row").into_response(),
        },
        Ok(None) => {
            return page(
                StatusCode::NOT_FOUND,
                title,
                "This link is not known here: it was used already, or a newer one replaced it.",
            );
        }
        Err(e) => return ApiError::from(e).into_response(),
    };
    let now = clock(&state);
    if expires <= now {
        return page(
            StatusCode::GONE,
            title,
            "This link has expired: ask for a new one on the account page.",
        );
    }
    let email = email.unwrap_or_default();
    let stored = state
        .db
        .write(vec![
            Stmt::new(
                "DELETE FROM account_tokens WHERE token = $1 AND expires > $2",
                vec![(&key).into(), now.into()],
            )
            .expect_rows(1, "used"),
            Stmt::new(
                "UPDATE notify_settings SET confirmed = email, updated = $1 WHERE user_id = $2 AND email = $3",
                vec![crate::now().into(), (&user_id).into(), (&email).into()],
            )
            .expect_rows(1, "changed"),
        ])
        .await;
    match stored {
        Ok(()) => page(
            StatusCode::OK,
            "Address confirmed",
            &format!("{email} is confirmed: notifications you asked for will be mailed there."),
        ),
        Err(WriteError::Unmet("used")) => {
            page(StatusCode::NOT_FOUND, title, "This link was used already.")
        }
        Err(WriteError::Unmet(_)) => page(
            StatusCode::CONFLICT,
            title,
            "The account's address changed since this link was sent: nothing was confirmed.",
        ),
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// The stored hash of an account's password.
async fn pass_hash(state: &AppState, user_id: &str) -> ApiResult<String> {
    Ok(
        sqlx::query("SELECT pass_hash FROM users WHERE id = $1 AND deleted IS NULL")
            .bind(user_id)
            .fetch_optional(&state.db.pool)
            .await?
            .ok_or_else(ApiError::unauthenticated)?
            .try_get(0)?,
    )
}

/// Checks the caller's password (counted as a log-in attempt by the log-in limits); the
/// stored hash it matched.
async fn check_own_password(
    state: &AppState,
    user: &User,
    addr: Option<std::net::IpAddr>,
    password: &str,
) -> ApiResult<String> {
    let addr = addr.map(|a| a.to_string()).unwrap_or_default();
    let attempt = state
        .limiter
        .begin(&name_key(&user.name), &addr)
        .map_err(|wait| {
            ApiError::rate_limited(format!(
                "too many password attempts for this account from this address; try again in {} s",
                wait.as_secs().max(1)
            ))
        })?;
    if !attempt.delay.is_zero() {
        tokio::time::sleep(attempt.delay).await;
    }
    let checked = async {
        let hash = pass_hash(state, &user.id).await?;
        let ok = password_matches(&hash, password).await?;
        ApiResult::Ok((hash, ok))
    }
    .await;
    match checked {
        Ok((hash, true)) => {
            state.limiter.take_back(attempt);
            Ok(hash)
        }
        Ok((_, false)) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "wrong_password",
            "the password is wrong",
        )),
        Err(e) => {
            state.limiter.take_back(attempt);
            Err(e)
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    old: String,
    new: String,
}

/// `POST /api/account/password {"old", "new"}`: the account's other sessions end; the
/// caller's stays.
pub async fn change_password(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: PasswordChange = parse_body(&body)?;
    check_password(&b.new)?;
    let old_hash = check_own_password(&state, &user, addr, &b.old).await?;
    let hash = hash_password(&b.new).await?;
    let keep = cookie(&headers, SESSION_COOKIE)
        .map(|t| hash_token(&t))
        .unwrap_or_default();
    state
        .db
        .write(vec![
            Stmt::new(
                "UPDATE users SET pass_hash = $1 WHERE id = $2 AND pass_hash = $3 AND deleted IS NULL",
                vec![hash.into(), (&user.id).into(), old_hash.into()],
            )
            .expect_rows(1, "changed"),
            Stmt::new(
                "DELETE FROM sessions WHERE user_id = $1 AND token <> $2",
                vec![(&user.id).into(), (&keep).into()],
            ),
            Stmt::new(
                "DELETE FROM account_tokens WHERE user_id = $1 AND purpose = 'reset'",
                vec![(&user.id).into()],
            ),
        ])
        .await?;
    state.sessions.end_account(&user.id, Some(&keep));
    Ok(Json(json!({"ok": true})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    email: Option<String>,
}

/// `POST /api/password-reset {"name"} | {"email"}`: mails a reset link to the confirmed
/// address of the account(s) named; the answer is the same whether or not any exists.
pub async fn reset_request(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: ResetRequest = parse_body(&body)?;
    let rows = match (
        b.name.as_deref().map(str::trim),
        b.email.as_deref().map(str::trim),
    ) {
        (Some(name), None) if !name.is_empty() && name.len() <= 100 => {
            state.mails.request(addr)?;
            sqlx::query(
                "SELECT u.id, u.name, n.email FROM users u JOIN notify_settings n ON n.user_id = u.id
                 WHERE u.name_key = $1 AND u.deleted IS NULL AND n.email = n.confirmed",
            )
            .bind(name_key(name))
            .fetch_all(&state.db.pool)
            .await?
        }
        (None, Some(email)) if !email.is_empty() && email.len() <= 254 => {
            state.mails.request(addr)?;
            sqlx::query(
                "SELECT u.id, u.name, n.email FROM users u JOIN notify_settings n ON n.user_id = u.id
                 WHERE LOWER(n.email) = LOWER($1) AND u.deleted IS NULL AND n.email = n.confirmed
                 ORDER BY u.name_key LIMIT 5",
            )
            .bind(email)
            .fetch_all(&state.db.pool)
            .await?
        }
        _ => {
            return Err(ApiError::bad_request(
                "give the account's name or its e-mail address: {\"name\": ...} or {\"email\": ...}",
            ));
        }
    };
    let mut found = Vec::new();
    for r in &rows {
        let (id, name, email): (String, String, String) =
            (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
        found.push((User { id, name }, email));
    }
    for (user, email) in found {
        if !notify::can_mail(&state) || !state.mails.mail(&user.id) {
            continue;
        }
        let (token, stmt) = new_token(&state, &user.id, "reset", None, RESET_TTL);
        if let Err(e) = state.db.write(vec![stmt]).await {
            // Said only in the server's log: the answer must not tell that the account exists.
            eprintln!("muster serve: a password-reset link was not stored: {e}");
            continue;
        }
        let link = format!("{}/#/reset/{token}", public_url(&state));
        notify::account_mail(
            &state,
            &email,
            "Reset your Muster password".into(),
            format!(
                "Someone asked to reset the password of the Muster account {}.\n\nChoose a new password: {link}\n\nThe link works once, within {} minutes. If you did not ask for this, ignore this mail: the password stays as it is.\n",
                user.name,
                RESET_TTL / 60
            ),
        );
    }
    Ok(Json(json!({
        "ok": true,
        "message": "if an account with a confirmed e-mail address matches, a link to reset its password was mailed there",
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetComplete {
    token: String,
    new: String,
}

fn bad_token() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "bad_token",
        "this reset link is unknown, used or expired: ask for a new one",
    )
}

/// `POST /api/password-reset/complete {"token", "new"}`: sets the password once; every
/// session of the account ends.
pub async fn reset_complete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Body(body): Body,
) -> ApiResult<Json<Value>> {
    check_csrf(&headers)?;
    let b: ResetComplete = parse_body(&body)?;
    check_password(&b.new)?;
    let key = hash_token(b.token.trim());
    let now = clock(&state);
    let row = sqlx::query(
        "SELECT t.user_id FROM account_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token = $1 AND t.purpose = 'reset' AND t.expires > $2 AND u.deleted IS NULL",
    )
    .bind(&key)
    .bind(now)
    .fetch_optional(&state.db.pool)
    .await?
    .ok_or_else(bad_token)?;
    let user_id: String = row.try_get(0)?;
    let hash = hash_password(&b.new).await?;
    let stored = state
        .db
        .write(vec![
            Stmt::new(
                "DELETE FROM account_tokens WHERE token = $1 AND purpose = 'reset' AND expires > $2",
                vec![(&key).into(), now.into()],
            )
            .expect_rows(1, "bad_token"),
            Stmt::new(
                "UPDATE users SET pass_hash = $1 WHERE id = $2 AND deleted IS NULL",
                vec![hash.into(), (&user_id).into()],
            )
            .expect_rows(1, "bad_token"),
            Stmt::new(
                "DELETE FROM account_tokens WHERE user_id = $1 AND purpose = 'reset'",
                vec![(&user_id).into()],
            ),
            Stmt::new(
                "DELETE FROM sessions WHERE user_id = $1",
                vec![(&user_id).into()],
            ),
        ])
        .await;
    match stored {
        Err(WriteError::Unmet(_)) => return Err(bad_token()),
        other => other?,
    }
    state.sessions.end_account(&user_id, None);
    Ok(Json(json!({"ok": true})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteBody {
    password: String,
}

/// `POST /api/account/delete {"password"}`: the account's open games are withdrawn, its
/// settings, address, webhook, sessions, mutes and offers go, and its name is replaced by
/// `deleted-XXXXXXXX` wherever it was shown; its games stay. The old name is free again.
pub async fn delete(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    RequireUser(user): RequireUser,
    Body(body): Body,
) -> ApiResult<Response> {
    check_csrf(&headers)?;
    let b: DeleteBody = parse_body(&body)?;
    check_own_password(&state, &user, addr, &b.password).await?;
    // Its open games first, each as a withdrawal by the owner: nobody can join them after.
    let open = sqlx::query(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id
         WHERE g.status = 'open' AND s.user_id = $1",
    )
    .bind(&user.id)
    .fetch_all(&state.db.pool)
    .await?;
    for r in &open {
        let id: String = r.try_get(0)?;
        match crate::offers::withdraw_game(&state, &id, &user).await {
            Ok(()) => {}
            // Joined meanwhile: it is a game under way now, kept like the others.
            Err(e) if e.status == StatusCode::CONFLICT => {}
            Err(e) => return Err(e),
        }
    }
    let new_name = format!("deleted-{}", &random_token()[..8]);
    let id = &user.id;
    state
        .db
        .write(vec![
            Stmt::new(
                "UPDATE users SET name = $1, name_key = $1, pass_hash = '!', deleted = $2 WHERE id = $3 AND deleted IS NULL",
                vec![(&new_name).into(), crate::now().into(), id.into()],
            )
            .expect_rows(1, "deleted"),
            Stmt::new("DELETE FROM sessions WHERE user_id = $1", vec![id.into()]),
            Stmt::new("DELETE FROM notify_settings WHERE user_id = $1", vec![id.into()]),
            Stmt::new("DELETE FROM notify_mailed WHERE user_id = $1", vec![id.into()]),
            Stmt::new("DELETE FROM account_tokens WHERE user_id = $1", vec![id.into()]),
            Stmt::new(
                "DELETE FROM mutes WHERE user_id = $1 OR muted_id = $1",
                vec![id.into()],
            ),
            Stmt::new("DELETE FROM chat_seen WHERE user_id = $1", vec![id.into()]),
            Stmt::new("DELETE FROM offers WHERE from_user = $1", vec![id.into()]),
        ])
        .await?;
    state.sessions.end_account(id, None);
    // Games in memory show the new name at once (those loaded later read it from the table).
    let games: Vec<crate::play::LiveRef> = state.live.lock().await.values().cloned().collect();
    for g in games {
        let mut l = g.lock().await;
        for s in &mut l.seats {
            if s.user_id.as_deref() == Some(id.as_str()) {
                s.user_name = Some(new_name.clone());
            }
        }
        for m in &mut l.talk.chat {
            if m.user_id == *id {
                m.from = new_name.clone();
            }
        }
        l.talk.offers.retain(|o| o.from_user != *id);
    }
    Ok(signed_out(&state, json!({"ok": true, "name": new_name})))
}

/// `GET /api/users/{name}` → the public profile: the account's games under way and finished
/// (no withdrawn or open ones), newest first (500 at most), and its results per game
/// (`{"battles": {"won", "lost", "drawn"}}`, finished games against another seat only).
pub async fn profile(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    let row =
        sqlx::query("SELECT id, name, created FROM users WHERE name_key = $1 AND deleted IS NULL")
            .bind(name_key(&name))
            .fetch_optional(&state.db.pool)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))?;
    let (id, name, created): (String, String, i64) =
        (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
    let rows = sqlx::query(
        "SELECT g.id, g.game, g.scenario, g.status, g.winner, g.updated, g.to_act, s.side, s.user_id, u.name, s.bot
         FROM (SELECT * FROM games
               WHERE status IN ('active', 'finished')
                 AND id IN (SELECT game_id FROM seats WHERE user_id = $1)
               ORDER BY updated DESC LIMIT 500) g
         JOIN seats s ON s.game_id = g.id
         LEFT JOIN users u ON u.id = s.user_id
         ORDER BY g.updated DESC, g.id, s.side",
    )
    .bind(&id)
    .fetch_all(&state.db.pool)
    .await?;
    let mut games: Vec<Value> = Vec::new();
    let mut results: std::collections::BTreeMap<String, [u32; 3]> = Default::default();
    let mut k = 0;
    while k < rows.len() {
        let gid: String = rows[k].try_get(0)?;
        let first = k;
        let (mut seats, mut sides) = (Vec::new(), Vec::new());
        while k < rows.len() && rows[k].try_get::<String, _>(0)? == gid {
            let r = &rows[k];
            let side: String = r.try_get(7)?;
            if r.try_get::<Option<String>, _>(8)?.as_deref() == Some(id.as_str()) {
                sides.push(side.clone());
            }
            seats.push(json!({
                "side": side,
                "player": r.try_get::<Option<String>, _>(9)?,
                "bot": r.try_get::<Option<String>, _>(10)?,
            }));
            k += 1;
        }
        let r = &rows[first];
        let game: String = r.try_get(1)?;
        let status: String = r.try_get(3)?;
        let winner: Option<String> = r.try_get(4)?;
        let solo = sides.len() == seats.len();
        let result = match (status.as_str(), &winner) {
            ("finished", _) if solo => None,
            ("finished", Some(w)) if sides.contains(w) => Some("won"),
            ("finished", Some(_)) => Some("lost"),
            ("finished", None) => Some("drawn"),
            _ => None,
        };
        if let Some(res) = result {
            let counts = results.entry(game.clone()).or_default();
            counts[["won", "lost", "drawn"]
                .iter()
                .position(|x| *x == res)
                .unwrap_or(2)] += 1;
        }
        games.push(json!({
            "id": gid,
            "game": game,
            "scenario": r.try_get::<String, _>(2)?,
            "status": status,
            "seats": seats,
            "sides": sides,
            "to_act": r.try_get::<Option<String>, _>(6)?,
            "winner": winner,
            "result": result,
            "updated": r.try_get::<i64, _>(5)?,
        }));
    }
    let results: serde_json::Map<String, Value> = results
        .into_iter()
        .map(|(g, [won, lost, drawn])| (g, json!({"won": won, "lost": lost, "drawn": drawn})))
        .collect();
    let ratings = crate::ratings::of_user(&state, &id).await?;
    Ok(Json(json!({
        "name": name,
        "created": created,
        "games": games,
        "results": results,
        "ratings": ratings,
    })))
}

fn page(status: StatusCode, title: &str, text: &str) -> Response {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        format!(
            "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{t}</title><body style=\"font-family: sans-serif; max-width: 36em; margin: 3em auto; padding: 0 1em\"><h1>{t}</h1><p>{x}</p><p><a href=\"/\">Muster</a></p></body></html>",
            t = esc(title),
            x = esc(text)
        ),
    )
        .into_response()
}

/// `GET /api/unsubscribe?token=T`: the link in every mail; turns the account's mail off,
/// without logging in, and says so in a small page.
pub async fn unsubscribe(State(state): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let token = q
        .as_deref()
        .unwrap_or_default()
        .split('&')
        .find_map(|p| p.strip_prefix("token="))
        .unwrap_or_default()
        .to_string();
    if token.len() < 16 {
        return page(
            StatusCode::BAD_REQUEST,
            "Unsubscribe",
            "This link is incomplete: use the whole link from the mail.",
        );
    }
    let found = sqlx::query(
        "SELECT u.name FROM notify_settings n JOIN users u ON u.id = n.user_id WHERE n.unsubscribe = $1",
    )
    .bind(&token)
    .fetch_optional(&state.db.pool)
    .await;
    let name: String = match found {
        Ok(Some(r)) => r.try_get(0).unwrap_or_default(),
        Ok(None) => {
            return page(
                StatusCode::NOT_FOUND,
                "Unsubscribe",
                "This link is not known here (it may belong to another server).",
            );
        }
        Err(e) => return ApiError::from(e).into_response(),
    };
    let stored = state
        .db
        .write(vec![crate::db::Stmt::new(
            "UPDATE notify_settings SET mail = 0, updated = $1 WHERE unsubscribe = $2",
            vec![crate::now().into(), token.into()],
        )])
        .await;
    match stored {
        Ok(()) => page(
            StatusCode::OK,
            "Unsubscribed",
            &format!(
                "No more mails will be sent to {name}'s address. Turn them back on in the account's notification settings."
            ),
        ),
        Err(e) => ApiError::from(e).into_response(),
    }
}
