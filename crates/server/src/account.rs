//! Account settings routes: notifications (issue 16 §1) and the unsubscribe link of mails.

use crate::auth::{RequireUser, check_csrf, random_token};
use crate::error::{ApiError, ApiResult};
use crate::notify::{self, KINDS};
use crate::{AppState, Body, parse_body};
use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;
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
    if let Some(email) = b.email {
        let email = email
            .filter(|e| !e.trim().is_empty())
            .map(|e| notify::check_email(&e))
            .transpose()?;
        if email != a.email {
            a.mail = true; // a new address: mail on, as by default
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
    state.db.write(vec![notify::save(&user.id, &a)]).await?;
    Ok(Json(a.json()))
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
