//! End-to-end tests of the browser client in headless Chromium (issue 7 §3): for every game in
//! the registry, a new player signs up, starts a game against a bot, plays by clicking the
//! board (buttons only where a choice has no place on the map), sees the log and the bot's
//! reply, reloads the page and goes on. The layout check of issue 17 saves each game's page at
//! 1366x768 and 390x844 as `docs/screenshots/<game>-desktop.png` and `<game>-phone.png`; the
//! other pictures (lobby, rules, replay, confirmation, failures) go to the target folder.
//!
//! Chromium comes from Debian (`scripts/test` installs it). Without it this test fails with a
//! clear message: it never skips silently. `MUSTER_CHROMIUM` names another binary.

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
use chromiumoxide::handler::viewport::Viewport;
use chromiumoxide::layout::Point;
use chromiumoxide::page::{Page, ScreenshotParams};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

type R<T> = Result<T, String>;

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 860;
/// Decisions the player makes before and after the reload, at most.
const MAX_DECISIONS: usize = 80;

fn chromium() -> PathBuf {
    let path = std::env::var_os("MUSTER_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    assert!(
        path.is_file(),
        "Chromium is not installed at {}: the end-to-end tests need it. Run scripts/test (it \
         installs Debian's `chromium` package when /usr/bin/chromium is missing) or \
         `apt-get install -y chromium`, or point MUSTER_CHROMIUM at a Chromium binary.",
        path.display()
    );
    path
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Starts the play server in this process on a free loopback port, with its own SQLite file.
async fn start_server(dir: &Path) -> R<SocketAddr> {
    let config = muster_server::Config {
        addr: "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?,
        database: format!("sqlite://{}", dir.join("e2e.db").display()),
        secure_cookies: false,
        ..Default::default()
    };
    let registry = muster_cli::registry(None)?;
    let state = muster_server::state(config, registry, muster_cli::bots()).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("bind: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        muster_server::serve_on(listener, state).await;
    });
    Ok(addr)
}

async fn launch(profile: &Path) -> R<(Browser, tokio::task::JoinHandle<()>)> {
    let config = BrowserConfig::builder()
        .chrome_executable(chromium())
        .no_sandbox()
        .user_data_dir(profile)
        .window_size(WIDTH, HEIGHT)
        .viewport(Viewport {
            width: WIDTH,
            height: HEIGHT,
            device_scale_factor: Some(1.0),
            emulating_mobile: false,
            is_landscape: true,
            has_touch: false,
        })
        .args([
            "disable-gpu",
            "disable-background-networking",
            "disable-component-update",
            "disable-sync",
            "no-first-run",
            "disable-dev-shm-usage",
            "lang=en-US",
        ])
        .launch_timeout(Duration::from_secs(60))
        .request_timeout(Duration::from_secs(60))
        .build()?;
    let (browser, mut handler) = Browser::launch(config)
        .await
        .map_err(|e| format!("starting Chromium: {e}"))?;
    // Drive the DevTools connection; an event this version cannot decode is not fatal.
    let pump = tokio::spawn(async move { while handler.next().await.is_some() {} });
    Ok((browser, pump))
}

/// Evaluates a JavaScript expression and decodes its JSON value.
async fn eval<T: DeserializeOwned>(page: &Page, js: &str) -> R<T> {
    page.evaluate(js)
        .await
        .map_err(|e| format!("evaluating {js:?}: {e}"))?
        .into_value::<T>()
        .map_err(|e| format!("decoding the value of {js:?}: {e}"))
}

/// The page's own summary of where it stands (set by app.js on <body>).
async fn page_state(page: &Page) -> R<Value> {
    eval(
        page,
        r##"({
            state: document.body.dataset.state || "",
            version: Number(document.body.dataset.version || -1),
            actions: Number(document.body.dataset.actions || 0),
            sent: Number(document.body.dataset.sent || 0),
            log: document.querySelectorAll("#log li.entry").length,
            hash: location.hash,
            busy: !!document.body.dataset.busy,
            prompt: (document.querySelector("#prompt") || {}).textContent || "",
            flash: (() => { const f = document.querySelector("#flash"); return f && !f.hidden ? f.textContent : ""; })(),
        })"##,
    )
    .await
}

/// Polls `cond` (a JavaScript expression) until it is true.
async fn wait_for(page: &Page, cond: &str, what: &str, secs: u64) -> R<()> {
    let start = Instant::now();
    loop {
        if eval::<bool>(page, &format!("!!({cond})"))
            .await
            .unwrap_or(false)
        {
            return Ok(());
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let st = page_state(page).await.unwrap_or(Value::Null);
            return Err(format!(
                "timed out after {secs} s waiting for {what}; page: {st}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Reloads the page and waits up to 30 s until `cond` holds on the new document. The old
/// document is marked first, so that only the reloaded one can satisfy the wait (under load a
/// plain wait could pass on the old page just before it went away, and the next evaluation then
/// found no context).
async fn reload_until(page: &Page, cond: &str, what: &str) -> R<()> {
    eval::<bool>(page, "(window.__reloading = true, location.reload(), true)").await?;
    wait_for(page, &format!("!window.__reloading && ({cond})"), what, 30).await
}

/// Clicks the element that `expr` (a JavaScript expression) yields, with a real mouse click at
/// its centre (or, when a neighbour covers the centre, another visible point of it), after
/// checking that nothing covers that point.
async fn click(page: &Page, expr: &str, what: &str) -> R<()> {
    let js = format!(
        r##"(() => {{
            const el = ({expr});
            if (!el) return null;
            el.scrollIntoView({{ block: "center", inline: "center" }});
            const r = el.getBoundingClientRect();
            // The centre first; if something covers it (a neighbouring counter), any other
            // visible point of the target, as a player would click.
            const points = [[0.5, 0.5]];
            for (const fy of [0.3, 0.5, 0.7, 0.15, 0.85]) for (const fx of [0.3, 0.5, 0.7, 0.15, 0.85]) points.push([fx, fy]);
            let first = null;
            for (const [fx, fy] of points) {{
                const x = r.left + r.width * fx, y = r.top + r.height * fy;
                const hit = document.elementFromPoint(x, y);
                if (!first) first = hit;
                if (hit && (hit === el || el.contains(hit))) return {{ x, y, ok: true, hit: null }};
            }}
            return {{ x: 0, y: 0, ok: false, hit: first ? first.outerHTML.slice(0, 120) : null }};
        }})()"##
    );
    let at: Option<Value> = eval(page, &js).await?;
    let at = at.ok_or_else(|| format!("nothing to click: {what}"))?;
    if at["ok"] != json!(true) {
        return Err(format!(
            "{what} is covered everywhere by {}",
            at["hit"].as_str().unwrap_or("nothing")
        ));
    }
    let (x, y) = (
        at["x"].as_f64().unwrap_or(0.0),
        at["y"].as_f64().unwrap_or(0.0),
    );
    page.click(Point { x, y })
        .await
        .map_err(|e| format!("clicking {what}: {e}"))?;
    Ok(())
}

async fn type_into(page: &Page, selector: &str, text: &str) -> R<()> {
    click(
        page,
        &format!("document.querySelector({selector:?})"),
        selector,
    )
    .await?;
    page.find_element(selector)
        .await
        .map_err(|e| format!("{selector}: {e}"))?
        .type_str(text)
        .await
        .map_err(|e| format!("typing into {selector}: {e}"))?;
    Ok(())
}

/// Chooses a value in a <select> as a person would by keyboard, then tells the page.
async fn select(page: &Page, selector: &str, value: &str) -> R<()> {
    let ok: bool = eval(
        page,
        &format!(
            r##"(() => {{ const s = document.querySelector({selector:?}); if (!s || ![...s.options].some(o => o.value === {value:?})) return false;
                s.value = {value:?}; s.dispatchEvent(new Event("change", {{ bubbles: true }})); return true; }})()"##
        ),
    )
    .await?;
    if ok {
        Ok(())
    } else {
        Err(format!("{selector} has no option {value:?}"))
    }
}

async fn screenshot(page: &Page, path: &Path) -> R<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    page.save_screenshot(ScreenshotParams::builder().build(), path)
        .await
        .map_err(|e| format!("screenshot {}: {e}", path.display()))?;
    Ok(())
}

#[derive(Default, Debug)]
struct Play {
    decisions: usize,
    board_clicks: usize,
    button_clicks: usize,
    confirms: usize,
    /// Decisions held back as a draft and sent with the next click as one batch.
    drafts: usize,
    /// How many actions the record held before the last decision (what an undo goes back to).
    actions_before: usize,
    bot_replies: usize,
    log_after_reply: usize,
    undos: usize,
    /// Actions taken back by undos.
    undone: usize,
}

/// Waits until it is the player's decision (or the game is over) and returns the state.
async fn wait_my_turn(page: &Page) -> R<Value> {
    wait_for(
        page,
        r##"!document.body.dataset.busy && ["my-turn", "over"].includes(document.body.dataset.state)"##,
        "the player's turn",
        90,
    )
    .await?;
    page_state(page).await
}

/// Makes one decision: a highlighted target on the board when there is one (the first few
/// times, and whenever no button remains), otherwise the suggested button.
async fn decide(page: &Page, play: &mut Play, prefer_board: bool, shot: &Path) -> R<()> {
    let before = page_state(page).await?;
    play.actions_before = before["actions"].as_u64().unwrap_or(0) as usize;
    for round in 0..8 {
        choose_once(page, play, prefer_board || round > 0, shot).await?;
        // A click that only selected (a draft): the next click sends it with its choice.
        tokio::time::sleep(Duration::from_millis(150)).await;
        let drafted: bool = eval(page, "Number(document.body.dataset.draft || 0) > 0").await?;
        if !drafted {
            break;
        }
        play.drafts += 1;
    }
    let v0 = before["version"].as_i64().unwrap_or(-1);
    wait_for(
        page,
        &format!("!document.body.dataset.busy && Number(document.body.dataset.version) > {v0}"),
        "the decision to be taken",
        30,
    )
    .await?;
    play.decisions += 1;
    Ok(())
}

/// One click of a decision: a board target, a button or a map choice, then its menu choice
/// and confirmation if any.
async fn choose_once(page: &Page, play: &mut Play, prefer_board: bool, shot: &Path) -> R<()> {
    let targets: usize = eval(
        page,
        r##"document.querySelectorAll("#board [data-target]").length"##,
    )
    .await?;
    let buttons: usize = eval(
        page,
        r##"document.querySelectorAll("#actions > button.act").length"##,
    )
    .await?;
    let on_board = targets > 0 && (prefer_board || buttons == 0);
    if on_board {
        // Another target after each click that only extended a draft, so that a draft ends.
        let i = (play.decisions * 7 + 3 + play.drafts * 5) % targets;
        click(
            page,
            &format!(r##"document.querySelectorAll("#board [data-target]")[{i}]"##),
            &format!("board target {i} of {targets}"),
        )
        .await?;
        play.board_clicks += 1;
    } else if buttons > 0 {
        click(
            page,
            r##"document.querySelector("#actions > button.act.primary") || document.querySelector("#actions > button.act")"##,
            "an action button",
        )
        .await?;
        play.button_clicks += 1;
    } else {
        // Every choice sits in the folded list of map choices.
        click(
            page,
            r##"document.querySelector("details.on-map summary")"##,
            "the map choices",
        )
        .await?;
        click(
            page,
            r##"document.querySelector("details.on-map button.act")"##,
            "a map choice button",
        )
        .await?;
        play.button_clicks += 1;
    }
    // Several actions on one target: a menu. An irreversible action: a confirmation.
    tokio::time::sleep(Duration::from_millis(60)).await;
    if eval::<bool>(page, r##"!!document.querySelector("#target-menu")"##).await? {
        click(
            page,
            r##"document.querySelector("#target-menu button[data-action]")"##,
            "the first menu choice",
        )
        .await?;
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    if eval::<bool>(page, r##"!document.querySelector("#confirm").hidden"##).await? {
        if play.confirms == 0 {
            screenshot(page, shot).await?;
        }
        if play.confirms % 2 == 0 {
            // The keyboard: Enter confirms.
            page.find_element("#confirm-yes")
                .await
                .map_err(|e| e.to_string())?
                .press_key("Enter")
                .await
                .map_err(|e| format!("pressing Enter: {e}"))?;
        } else {
            click(
                page,
                r##"document.querySelector("#confirm-yes")"##,
                "Confirm",
            )
            .await?;
        }
        play.confirms += 1;
    }
    Ok(())
}

async fn play_one(base: &str, game: &str, profile: &Path, shots: &Path) -> R<Play> {
    let (mut browser, pump) = launch(profile).await?;
    let result = async {
        let page = browser
            .new_page(format!("{base}/#/login"))
            .await
            .map_err(|e| format!("opening the page: {e}"))?;
        let r = drive(&page, game, shots).await;
        if r.is_err() {
            let _ = screenshot(&page, &shots.join(format!("{game}-failure.png"))).await;
        }
        r
    }
    .await;
    let _ = browser.close().await;
    let _ = browser.wait().await;
    pump.abort();
    result
}

/// Signs a new player up (named after `game` and `tag`) and starts a game against the random
/// bot: `scenario` and `side`, or the first of each. Whether the game has a board renderer.
async fn sign_up_and_start(
    page: &Page,
    game: &str,
    tag: &str,
    choice: Option<(&str, &str)>,
    shots: &Path,
) -> R<bool> {
    // Sign up.
    let name = format!(
        "e2e{tag}_{}",
        game.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    );
    let name = &name[..name.len().min(24)];
    sign_up(page, name).await?;
    let who: String = eval(page, r##"document.querySelector("#who").textContent"##).await?;
    if !who.contains(name) {
        return Err(format!("the top bar does not name the new player: {who:?}"));
    }

    // Create a game against the computer: the game's first scenario, its first side.
    click(page, r##"document.querySelector("#new-game")"##, "New game").await?;
    wait_for(
        page,
        r##"document.querySelector("#new-game-form")"##,
        "the new-game form",
        30,
    )
    .await?;
    select(page, "#new-game-game", game).await?;
    let scenario: String = match choice {
        Some((scenario, _)) => scenario.to_string(),
        None => {
            eval(
                page,
                r##"document.querySelector("#new-game-scenario").options[0].value"##,
            )
            .await?
        }
    };
    select(page, "#new-game-scenario", &scenario).await?;
    let side: String = match choice {
        Some((_, side)) => side.to_string(),
        None => {
            eval(
                page,
                r##"document.querySelector("#new-game-side").options[0].value"##,
            )
            .await?
        }
    };
    select(page, "#new-game-side", &side).await?;
    click(
        page,
        r##"document.querySelector("#opp-bot")"##,
        "the computer opponent",
    )
    .await?;
    select(page, "#new-game-level", "random").await?;
    screenshot(page, &shots.join(format!("{game}-new.png"))).await?;
    click(
        page,
        r##"document.querySelector("#new-game-submit")"##,
        "Start the game",
    )
    .await?;
    wait_for(page, r##"location.hash.startsWith("#/game/") && ["my-turn", "waiting", "over"].includes(document.body.dataset.state)"##, "the game page", 30).await?;
    let has_renderer: bool = eval(
        page,
        &format!("!!(window.MusterBoards && window.MusterBoards[{game:?}])"),
    )
    .await?;
    if has_renderer {
        wait_for(
            page,
            "document.querySelector('#board svg')",
            "the board drawing",
            10,
        )
        .await?;
    }

    Ok(has_renderer)
}

async fn drive(page: &Page, game: &str, shots: &Path) -> R<Play> {
    let has_renderer = sign_up_and_start(page, game, "", None, shots).await?;

    // Play until the bot has answered at least once, after a few clicks on the board.
    let confirm_shot = shots.join(format!("{game}-confirm.png"));
    let mut play = Play::default();
    let mut reply_seen_at = None;
    for _ in 0..MAX_DECISIONS {
        let st = wait_my_turn(page).await?;
        if st["state"] == "over" {
            break;
        }
        let actions = st["actions"].as_u64().unwrap_or(0) as usize;
        // The actions this page sent (a batch counts all of its actions), less those undone.
        let mine = (st["sent"].as_u64().unwrap_or(0) as usize).saturating_sub(play.undone);
        if actions > mine && reply_seen_at.is_none() {
            // The record holds decisions the player did not make: the bot's.
            play.bot_replies = actions - mine;
            play.log_after_reply = st["log"].as_u64().unwrap_or(0) as usize;
            reply_seen_at = Some(play.decisions);
        }
        // ... and the log has something to show (a game whose first decisions log nothing,
        // like the supply moves that open Supply Lines, plays on until it does).
        if reply_seen_at.is_some_and(|at| play.decisions > at)
            && play.board_clicks >= 3
            && st["log"].as_u64().unwrap_or(0) >= 2
        {
            break;
        }
        if play.undos == 0 && play.decisions > 0 {
            // Once: take the last decision back with the keyboard's `u`, then go on.
            let can_undo: bool = eval(page, r##"!!document.querySelector("#undo")"##).await?;
            if can_undo {
                let v0 = st["version"].as_i64().unwrap_or(-1);
                page.find_element("body")
                    .await
                    .map_err(|e| e.to_string())?
                    .press_key("u")
                    .await
                    .map_err(|e| format!("pressing u: {e}"))?;
                wait_for(
                    page,
                    &format!(
                        "!document.body.dataset.busy && Number(document.body.dataset.version) > {v0} && Number(document.body.dataset.actions) === {}",
                        play.actions_before
                    ),
                    "the undo",
                    30,
                )
                .await?;
                play.undos += 1;
                play.undone += actions - play.actions_before;
                continue;
            }
        }
        let prefer_board = play.board_clicks < 4 || reply_seen_at.is_some();
        decide(page, &mut play, prefer_board, &confirm_shot).await?;
    }
    if has_renderer && play.board_clicks < 3 {
        return Err(format!(
            "only {} decisions were made on the board: {play:?}",
            play.board_clicks
        ));
    }
    if reply_seen_at.is_none() {
        return Err(format!(
            "the bot never replied within {MAX_DECISIONS} decisions: {play:?}"
        ));
    }
    // The log is on the page, in plain words with sections, and it shows the bot's moves.
    let log: Vec<String> = eval(
        page,
        r##"[...document.querySelectorAll("#log li.entry")].map(li => li.textContent)"##,
    )
    .await?;
    if log.len() < 2 || !log.iter().any(|t| t.starts_with('§')) {
        return Err(format!(
            "the log is missing or has no rule sections: {log:?}"
        ));
    }
    let seats: String = eval(page, r##"document.querySelector("#seats").textContent"##).await?;
    if !seats.contains("Computer") {
        return Err(format!(
            "the seats panel does not show the computer opponent: {seats:?}"
        ));
    }

    // Reload: the same game, the same version, and play goes on.
    let before = wait_my_turn(page).await?;
    page.reload().await.map_err(|e| format!("reload: {e}"))?;
    wait_for(
        page,
        r##"["my-turn", "over", "waiting"].includes(document.body.dataset.state)"##,
        "the game after the reload",
        30,
    )
    .await?;
    let after = wait_my_turn(page).await?;
    if after["version"] != before["version"] || after["hash"] != before["hash"] {
        return Err(format!(
            "the reload changed the game: before {before}, after {after}"
        ));
    }
    if after["log"].as_u64() < Some(play.log_after_reply as u64) {
        return Err(format!("the log lost entries on reload: {after}"));
    }
    for _ in 0..2 {
        let st = wait_my_turn(page).await?;
        if st["state"] == "over" {
            break;
        }
        decide(page, &mut play, true, &confirm_shot).await?;
    }
    // Decisions go over the game socket; a dropped socket reconnects by itself, resumes from
    // the version the page holds, and play goes on over it.
    let via: String = eval(page, "document.body.dataset.via || ''").await?;
    if via != "socket" {
        return Err(format!(
            "decisions were sent over {via:?}, not the game socket"
        ));
    }
    let before = wait_my_turn(page).await?;
    if before["state"] != "over" {
        eval::<bool>(page, "(S.page.ws.close(), true)").await?;
        wait_for(
            page,
            "S.page.live === false",
            "the page to notice the dropped socket",
            10,
        )
        .await?;
        wait_for(
            page,
            "S.page.live === true && S.page.ws.readyState === 1",
            "the socket to reconnect",
            30,
        )
        .await?;
        let after = wait_my_turn(page).await?;
        if after["version"] != before["version"] || after["log"] != before["log"] {
            return Err(format!(
                "the reconnection changed what the page holds: before {before}, after {after}"
            ));
        }
        if after["state"] != "over" {
            decide(page, &mut play, true, &confirm_shot).await?;
            let via: String = eval(page, "document.body.dataset.via || ''").await?;
            if via != "socket" {
                return Err(format!(
                    "after reconnecting, a decision went over {via:?}, not the socket"
                ));
            }
        }
    }
    wait_my_turn(page).await?;

    // The README's picture: the whole client at desktop width.
    eval::<bool>(
        page,
        r##"(window.scrollTo(0, 0), document.querySelectorAll(".board-wrap").forEach(w => w.scrollTo(0, 0)), true)"##,
    )
    .await?;
    // The README's pictures come from the layout check (every_game_fits_a_laptop_and_a_phone);
    // this one stays with the other pictures of the run.
    screenshot(page, &shots.join(format!("{game}.png"))).await?;

    // Phone width: one column, nothing wider than the screen.
    page.execute(SetDeviceMetricsOverrideParams::new(390, 844, 2.0, true))
        .await
        .map_err(|e| format!("phone emulation: {e}"))?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let overflow: f64 = eval(
        page,
        "document.documentElement.scrollWidth - window.innerWidth",
    )
    .await?;
    if overflow > 1.0 {
        return Err(format!(
            "at phone width the page is {overflow} px wider than the screen"
        ));
    }
    screenshot(page, &shots.join(format!("{game}-phone.png"))).await?;

    // The rules panel and the lobby's view of the game.
    if has_renderer {
        let sections: usize = eval(
            page,
            r##"document.querySelectorAll("#pane-rules .rule").length"##,
        )
        .await?;
        if sections == 0 {
            return Err("the rules panel is empty".into());
        }
    }
    click(
        page,
        r##"document.querySelector("#nav a[href='#/']")"##,
        "Lobby",
    )
    .await?;
    wait_for(
        page,
        r##"document.querySelector("#my-games tbody tr, #finished-games tbody tr")"##,
        "the game in the lobby",
        30,
    )
    .await?;
    page.execute(SetDeviceMetricsOverrideParams::new(
        WIDTH, HEIGHT, 1.0, false,
    ))
    .await
    .map_err(|e| format!("desktop emulation: {e}"))?;
    screenshot(page, &shots.join(format!("{game}-lobby.png"))).await?;

    // The rules summary, from the lobby's link.
    click(
        page,
        &format!(r##"document.querySelector("a[href='#/rules/{game}']")"##),
        "the rules link",
    )
    .await?;
    wait_for(
        page,
        r##"document.querySelector(".rules-page") && document.body.dataset.state === "ready""##,
        "the rules page",
        30,
    )
    .await?;
    if has_renderer {
        let sections: usize = eval(
            page,
            r##"document.querySelectorAll(".rules-page .rule").length"##,
        )
        .await?;
        if sections == 0 {
            return Err("the rules page is empty".into());
        }
    }
    screenshot(page, &shots.join(format!("{game}-rules.png"))).await?;

    // A finished game opens in the replay viewer, which steps back and forth.
    let finished: bool = eval(page, r##"(location.hash = "#/", true)"##).await?;
    wait_for(
        page,
        r##"document.querySelector("#my-games") && document.body.dataset.state === "ready""##,
        "the lobby",
        30,
    )
    .await?;
    let replay: bool = eval(
        page,
        r##"!!document.querySelector("#finished-games a[href^='#/replay/']")"##,
    )
    .await?;
    if finished && replay {
        click(
            page,
            r##"document.querySelector("#finished-games a[href^='#/replay/']")"##,
            "Replay",
        )
        .await?;
        wait_for(page, r##"document.querySelector("#replay-slider") && document.body.dataset.step !== undefined"##, "the replay viewer", 30).await?;
        let last: i64 = eval(page, "Number(document.body.dataset.step)").await?;
        click(page, r##"document.querySelector("#replay-back")"##, "Back").await?;
        wait_for(
            page,
            &format!("Number(document.body.dataset.step) === {}", last - 1),
            "one step back",
            10,
        )
        .await?;
        click(
            page,
            r##"document.querySelector("#replay-first")"##,
            "First",
        )
        .await?;
        wait_for(
            page,
            "Number(document.body.dataset.step) === 0",
            "the first step",
            10,
        )
        .await?;
        click(page, r##"document.querySelector("#replay-last")"##, "Last").await?;
        screenshot(page, &shots.join(format!("{game}-replay.png"))).await?;
    }
    Ok(play)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_plays_in_the_browser() {
    let chromium = chromium();
    let registry = muster_cli::registry(None).expect("the registry");
    let games: Vec<String> = registry.games().iter().map(|g| g.id.clone()).collect();
    assert!(!games.is_empty(), "the registry holds no game");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let addr = start_server(dir.path()).await.expect("the server starts");
    let base = format!("http://{addr}");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    let mut failures = Vec::new();
    for game in &games {
        let profile = dir.path().join(format!("chromium-{game}"));
        match play_one(&base, game, &profile, &shots).await {
            Ok(play) => eprintln!(
                "e2e {game}: ok ({} with {}): {play:?}",
                base,
                chromium.display()
            ),
            Err(e) => failures.push(format!("{game}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "the browser client failed for {} of {} games (screenshots in {}):\n{}",
        failures.len(),
        games.len(),
        shots.display(),
        failures.join("\n")
    );
}

/// A group move of each game (issue 17): what the first click selects, what the second sends.
struct Gesture {
    game: &'static str,
    scenario: &'static str,
    side: &'static str,
    /// The target that starts the gesture (held back as a draft).
    first: &'static str,
    /// The targets that complete it (any that undo can take back).
    second: &'static str,
    /// The fewest actions the batch holds.
    min_batch: usize,
    /// What the group is, for the report.
    what: &'static str,
}

const GESTURES: &[Gesture] = &[
    Gesture {
        game: "battles",
        scenario: "freemans-farm",
        side: "american",
        first: r#"#board [data-target][data-actions^="select "]:not([data-actions*="|"])"#,
        second: r#"#board [data-target][data-actions^="move "]"#,
        min_batch: 2,
        what: "a unit's move: select it, then its hex (select + move)",
    },
    Gesture {
        game: "supply-lines",
        scenario: "standard",
        side: "crown",
        first: r#"#board [data-target][data-actions^="from "]:not([data-actions*="|"])"#,
        second: r#"#board [data-target][data-actions^="to "]"#,
        min_batch: 2,
        what: "a supply move: its source, then its destination (from + to)",
    },
    Gesture {
        game: "concord",
        scenario: "standard",
        side: "british",
        first: r#"#board [data-target="region"][data-actions^="move "]:not([data-actions*="|"])"#,
        second: r#"#board [data-target="region"][data-actions^="to "]"#,
        min_batch: 3,
        what: "a group move: the region (move + a pick of every unit that may go), then the first region of the march",
    },
    Gesture {
        game: "bunker-hill",
        scenario: "standard",
        side: "british",
        first: r#"#board [data-target][data-actions^="move "]:not([data-actions*="|"])"#,
        second: r#"#board [data-target][data-actions^="go "]"#,
        min_batch: 2,
        what: "a group move: the region, then the destination with its group of like counters (move + go per counter)",
    },
];

/// Plays up to the first position where the gesture can start, makes it, checks that it was
/// one batch (one version, all its actions), undoes it with one key and checks that all of it
/// went back. Screenshots of the selection at laptop and phone size go to `shots`.
async fn group_gesture(page: &Page, g: &Gesture, shots: &Path) -> R<String> {
    sign_up_and_start(page, g.game, "g", Some((g.scenario, g.side)), shots).await?;
    let shot = shots.join(format!("{}-group-confirm.png", g.game));
    let mut play = Play::default();
    // Bunker Hill's British may spend most of a turn landing and marching before a region
    // offers a move of its own, and random play has reached the end of the game (10 turns)
    // without one (three such games in a row happened once in CI): up to 120 decisions a
    // game, and up to five games.
    let mut games = 1;
    for _ in 0..600 {
        let st = wait_my_turn(page).await?;
        if st["state"] == "over" {
            if games == 5 {
                return Err("five games ended before a group move came up".into());
            }
            games += 1;
            start_against_bot(page, g.game, Some(g.scenario), Some(g.side), "random").await?;
            continue;
        }
        let ready: bool = eval(page, &format!("!!document.querySelector({:?})", g.first)).await?;
        if !ready {
            decide(page, &mut play, true, &shot).await?;
            continue;
        }
        let (v0, a0) = (
            st["version"].as_i64().unwrap_or(-1),
            st["actions"].as_u64().unwrap_or(0),
        );
        click(
            page,
            &format!("document.querySelector({:?})", g.first),
            "the group's first target",
        )
        .await?;
        wait_for(page, "Number(document.body.dataset.draft || 0) > 0 && !!document.querySelector('#draft:not([hidden])')", "the selection (a draft)", 20).await?;
        let held: u64 = eval(page, "Number(document.body.dataset.draft)").await?;
        let version: i64 = eval(page, "Number(document.body.dataset.version)").await?;
        if version != v0 {
            return Err(format!("the selection was sent: version {v0} → {version}"));
        }
        screenshot(page, &shots.join(format!("{}-group-desktop.png", g.game))).await?;
        page.execute(SetDeviceMetricsOverrideParams::new(390, 844, 2.0, true))
            .await
            .map_err(|e| format!("phone emulation: {e}"))?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        screenshot(page, &shots.join(format!("{}-group-phone.png", g.game))).await?;
        page.execute(SetDeviceMetricsOverrideParams::new(1366, 768, 1.0, false))
            .await
            .map_err(|e| format!("laptop emulation: {e}"))?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The second click: a destination whose actions undo can take back, the biggest group.
        let second = format!(
            r##"(() => {{ const irr = new Set((S.page.draft ? S.page.draft.game.irreversible : S.page.game.irreversible) || []);
                const els = [...document.querySelectorAll({:?})].filter(el => el.dataset.actions.split("|").every(a => !irr.has(a)));
                els.sort((a, b) => b.dataset.actions.split("|").length - a.dataset.actions.split("|").length);
                return els[0] || null; }})()"##,
            g.second
        );
        click(page, &second, "the group's destination").await?;
        tokio::time::sleep(Duration::from_millis(150)).await;
        if eval::<bool>(page, r##"!!document.querySelector("#target-menu")"##).await? {
            screenshot(page, &shots.join(format!("{}-group-menu.png", g.game))).await?;
            click(page, r##"[...document.querySelectorAll("#target-menu button[data-count]")].sort((a, b) => b.dataset.count - a.dataset.count)[0]"##, "the biggest group in the menu").await?;
        }
        if eval::<bool>(page, r##"!document.querySelector("#confirm").hidden"##).await? {
            return Err("a move undo can take back asked for a confirmation".into());
        }
        wait_for(
            page,
            &format!(
                "!document.body.dataset.busy && Number(document.body.dataset.version) === {}",
                v0 + 1
            ),
            "the batch, one version on",
            30,
        )
        .await?;
        let after = page_state(page).await?;
        let a1 = after["actions"].as_u64().unwrap_or(0);
        let batch = a1.saturating_sub(a0);
        if batch < g.min_batch as u64 || batch <= held {
            return Err(format!(
                "the gesture sent {batch} actions (held {held}), not at least {} in one batch: {after}",
                g.min_batch
            ));
        }
        screenshot(page, &shots.join(format!("{}-group-done.png", g.game))).await?;
        // One undo takes the whole batch back.
        let can_undo: bool = eval(page, r##"!!document.querySelector("#undo")"##).await?;
        if !can_undo {
            return Err(format!("no undo after the batch: {after}"));
        }
        page.find_element("body")
            .await
            .map_err(|e| e.to_string())?
            .press_key("u")
            .await
            .map_err(|e| format!("pressing u: {e}"))?;
        wait_for(page, &format!("!document.body.dataset.busy && Number(document.body.dataset.version) === {} && Number(document.body.dataset.actions) === {a0}", v0 + 2), "the undo of the whole batch", 30).await?;
        return Ok(format!(
            "{}: {} — {batch} actions in one batch ({held} held as the selection), undone with one key",
            g.game, g.what
        ));
    }
    Err("the group move never came up within 120 decisions".into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_move_is_one_gesture_one_batch_and_one_undo_in_every_game() {
    chromium();
    let registry = muster_cli::registry(None).expect("the registry");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let addr = start_server(dir.path()).await.expect("the server starts");
    let base = format!("http://{addr}");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    let mut failures = Vec::new();
    for game in registry.games() {
        let Some(g) = GESTURES.iter().find(|g| g.game == game.id) else {
            failures.push(format!("{}: no group gesture is defined for it", game.id));
            continue;
        };
        let profile = dir.path().join(format!("chromium-group-{}", g.game));
        let (mut browser, pump) = launch(&profile).await.expect("Chromium starts");
        let result = async {
            let page = browser
                .new_page(format!("{base}/#/login"))
                .await
                .map_err(|e| format!("opening the page: {e}"))?;
            let r = group_gesture(&page, g, &shots).await;
            if r.is_err() {
                let _ =
                    screenshot(&page, &shots.join(format!("{}-group-failure.png", g.game))).await;
            }
            r
        }
        .await;
        let _ = browser.close().await;
        let _ = browser.wait().await;
        pump.abort();
        match result {
            Ok(report) => eprintln!("e2e group: {report}"),
            Err(e) => failures.push(format!("{}: {e}", g.game)),
        }
    }
    assert!(
        failures.is_empty(),
        "group moves failed (screenshots in {}):\n{}",
        shots.display(),
        failures.join("\n")
    );
}

// -------------------------------------------------------------------------------------------
// Issue 17: what a player sees. Each test starts its own server and browser; helpers first.

/// Opens a browser on a fresh page of `base`, runs `body`, closes the browser; on failure a
/// picture of the page goes to the target folder as `<name>-failure.png`.
async fn with_page<F, Fut, T>(base: &str, profile: &Path, name: &str, body: F) -> R<T>
where
    F: FnOnce(Page) -> Fut,
    Fut: std::future::Future<Output = R<T>>,
{
    let (mut browser, pump) = launch(profile).await?;
    let page = browser
        .new_page(format!("{base}/#/login"))
        .await
        .map_err(|e| format!("opening the page: {e}"))?;
    let keep = page.clone();
    let result = body(page).await;
    if result.is_err() {
        let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
        let _ = screenshot(&keep, &shots.join(format!("{name}-failure.png"))).await;
    }
    let _ = browser.close().await;
    let _ = browser.wait().await;
    pump.abort();
    result
}

/// A server of its own for one test (Chromium checked first), and its address.
async fn test_server() -> (tempfile::TempDir, String) {
    let _ = chromium();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let addr = start_server(dir.path()).await.expect("the server starts");
    (dir, format!("http://{addr}"))
}

fn game_ids() -> Vec<String> {
    let registry = muster_cli::registry(None).expect("the registry");
    registry.games().iter().map(|g| g.id.clone()).collect()
}

async fn sign_up(page: &Page, name: &str) -> R<()> {
    wait_for(
        page,
        r##"document.querySelector("#signup-form")"##,
        "the sign-up form",
        30,
    )
    .await?;
    let name = &name[..name.len().min(24)];
    type_into(page, "#signup-name", name).await?;
    type_into(page, "#signup-password", "correct horse battery").await?;
    click(
        page,
        r##"document.querySelector("#signup-submit")"##,
        "Create account",
    )
    .await?;
    wait_for(
        page,
        r##"document.querySelector("#my-games") && document.body.dataset.state === "ready""##,
        "the lobby after sign-up",
        30,
    )
    .await
}

async fn open_new_game_form(page: &Page) -> R<()> {
    eval::<bool>(page, r##"(location.hash = "#/new", true)"##).await?;
    wait_for(
        page,
        r##"document.querySelector("#new-game-form") && document.body.dataset.state === "ready""##,
        "the new-game form",
        30,
    )
    .await
}

/// Starts a game against the computer from the form: `scenario` and `side` by id, or the
/// first offered when `None`.
async fn start_against_bot(
    page: &Page,
    game: &str,
    scenario: Option<&str>,
    side: Option<&str>,
    level: &str,
) -> R<()> {
    open_new_game_form(page).await?;
    select(page, "#new-game-game", game).await?;
    let first: String = eval(
        page,
        r##"document.querySelector("#new-game-scenario").options[0].value"##,
    )
    .await?;
    select(page, "#new-game-scenario", scenario.unwrap_or(&first)).await?;
    if let Some(side) = side {
        select(page, "#new-game-side", side).await?;
    }
    click(
        page,
        r##"document.querySelector("#opp-bot")"##,
        "the computer opponent",
    )
    .await?;
    select(page, "#new-game-level", level).await?;
    click(
        page,
        r##"document.querySelector("#new-game-submit")"##,
        "Start the game",
    )
    .await?;
    wait_for(page, r##"location.hash.startsWith("#/game/") && ["my-turn", "waiting", "over"].includes(document.body.dataset.state)"##, "the game page", 30).await
}

/// Plays (the suggested button first, else a board target) until the bot has taken a turn
/// that left marks on the board, and it is the player's decision again. Returns the number of
/// decisions made.
async fn play_until_marked(page: &Page, limit: usize) -> R<usize> {
    let mut play = Play::default();
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/marks-confirm.png");
    for _ in 0..limit {
        let st = wait_my_turn(page).await?;
        if st["state"] == "over" {
            return Err(format!("the game ended before the bot left a mark: {st}"));
        }
        let marks: usize = eval(
            page,
            r##"document.querySelectorAll("#board [data-recent]").length"##,
        )
        .await?;
        if marks > 0 {
            return Ok(play.decisions);
        }
        decide(page, &mut play, false, &shot).await?;
    }
    Err(format!(
        "no mark of the bot's moves after {limit} decisions: {}",
        page_state(page).await?
    ))
}

/// Every `[data-recent]` mark of a moved or arrived piece sits on a drawn piece or area.
const MARKS_ON_PIECES: &str = r##"(() => {
    const off = [];
    for (const m of document.querySelectorAll('#board [data-recent="moved"], #board [data-recent="arrived"]')) {
        const r = m.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const board = document.querySelector("#board svg");
        // The mark's centre in SVG units, tested against every piece's box.
        const pieces = [...board.querySelectorAll("[data-unit], .sl-army, [data-area]")].filter(p => !p.closest("[data-target]") && !p.hasAttribute("data-target"));
        const hit = pieces.some(p => { const b = p.getBoundingClientRect(); return x >= b.left - 2 && x <= b.right + 2 && y >= b.top - 2 && y <= b.bottom + 2; });
        if (!hit) off.push(m.querySelector("title") ? m.querySelector("title").textContent : m.outerHTML.slice(0, 80));
    }
    return off;
})()"##;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_marks_what_the_bot_did_and_steps_through_it() {
    let games = game_ids();
    let (dir, base) = test_server().await;
    let mut failures = Vec::new();
    for game in &games {
        let profile = dir.path().join(format!("marks-{game}"));
        let g = game.clone();
        let r = with_page(&base, &profile, &format!("{game}-marks"), |page| async move {
            sign_up(&page, &format!("marks_{}", g.replace('-', "_"))).await?;
            start_against_bot(&page, &g, None, None, "random").await?;
            let decisions = play_until_marked(&page, 60).await?;
            // The panel above the log counts the others' steps and lists their log entries.
            let n: i64 = eval(&page, "Number(document.body.dataset.recent || 0)").await?;
            let shown: bool = eval(&page, r##"!document.querySelector("#recent").hidden"##).await?;
            if n < 1 || !shown {
                return Err(format!("the recent panel is missing: {n} steps, shown {shown}"));
            }
            let off: Vec<String> = eval(&page, MARKS_ON_PIECES).await?;
            if !off.is_empty() {
                return Err(format!("marks of moved pieces away from any piece: {off:?}"));
            }
            // ‹ shows the last step alone on a frozen board; › goes back to now.
            click(&page, r##"document.querySelector("#recent-prev")"##, "‹").await?;
            wait_for(&page, &format!("document.body.dataset.recentStep === '{n}' && document.querySelector('.board-wrap.stepping')"), "the last step", 10).await?;
            let targets: usize = eval(&page, r##"document.querySelectorAll("#board [data-target]").length"##).await?;
            if targets != 0 {
                return Err(format!("a past step offers {targets} targets to click"));
            }
            page.find_element("body").await.map_err(|e| e.to_string())?.press_key(".").await.map_err(|e| e.to_string())?;
            wait_for(&page, "document.body.dataset.recentStep === '' && !document.querySelector('.board-wrap.stepping')", "back to now", 10).await?;
            // A reload keeps what happened since the last decision.
            let marks: usize = eval(&page, r##"document.querySelectorAll("#board [data-recent]").length"##).await?;
            page.reload().await.map_err(|e| format!("reload: {e}"))?;
            wait_for(&page, r##"["my-turn", "over", "waiting"].includes(document.body.dataset.state) && document.querySelector("#board svg")"##, "the game after the reload", 30).await?;
            let after: usize = eval(&page, r##"document.querySelectorAll("#board [data-recent]").length"##).await?;
            if after != marks {
                return Err(format!("{marks} marks before the reload, {after} after"));
            }
            let notes: String = eval(&page, r##"(document.querySelector("#recent-notes") || {}).textContent || """##).await?;
            eprintln!("e2e marks {g}: {marks} marks after {decisions} decisions; {n} steps; notes {notes:?}");
            Ok(())
        })
        .await;
        if let Err(e) = r {
            failures.push(format!("{game}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the layout check measures on the game page, as JSON.
const LAYOUT: &str = r##"(() => {
    const vis = (el) => { if (!el || el.hidden) return null; const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r : null; };
    const parts = ["#promptbar", ".board-wrap", "#banner", "#seats", "#tracks-box", "#recent", ".tabs", "#pane-log"]
        .map((sel) => [sel, vis(document.querySelector(sel))]).filter(([, r]) => r);
    const overlaps = [];
    for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
        const [a, p] = parts[i], [b, q] = parts[j];
        const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (w > 1 && h > 1) overlaps.push(`${a} and ${b} by ${Math.round(w)}x${Math.round(h)}`);
    }
    // The zoom buttons float inside the board's frame, clear of the prompt bar.
    const zoom = vis(document.querySelector("#zoom")), bar = vis(document.querySelector("#promptbar")), wrap = vis(document.querySelector(".board-wrap"));
    if (zoom && bar && zoom.top < bar.bottom - 1) overlaps.push("the zoom buttons and the prompt bar");
    if (zoom && wrap && (zoom.top < wrap.top - 1 || zoom.right > wrap.right + 1)) overlaps.push("the zoom buttons outside the board");
    const onScreen = (r) => r && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
    const entries = document.querySelectorAll("#log li.entry");
    const newest = entries.length ? entries[entries.length - 1] : null;
    const latest = document.querySelector("#latest");
    const small = [...document.querySelectorAll("#promptbar button, #promptbar summary, #promptbar a.button, .zoom button, .tabs button, #recent button, #banner button, #banner a.button")]
        .map((el) => [el, vis(el)]).filter(([, r]) => r).filter(([, r]) => r.height < 31.5 || r.width < 31.5)
        .map(([el, r]) => `${(el.id || el.textContent.trim()).slice(0, 24)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    const counters = [...document.querySelectorAll("#board [data-unit]:not([data-target]), #board [data-counter]")].map((el) => { const r = el.getBoundingClientRect(); return Math.min(r.width, r.height); }).filter((x) => x > 0);
    return {
        overflow: document.documentElement.scrollWidth - innerWidth,
        overlaps,
        canUndo: !!(S.page && S.page.game && S.page.game.can_undo),
        undo: document.querySelector("#undo") ? onScreen(vis(document.querySelector("#undo"))) : null,
        newest: newest ? onScreen(vis(newest)) || (!!latest && !latest.hidden && onScreen(vis(latest)) && latest.textContent.includes(newest.querySelector(".text").textContent.slice(0, 20))) : null,
        small,
        counter: counters.length ? Math.min(...counters) : null,
        zoom: S.page ? S.page.zoom : null,
        // Sidebar panels squeezed below their content (scrolling inside themselves).
        squeezed: ["#tracks-box", "#recent", "#tracks"].map((sel) => [sel, document.querySelector(sel)])
            .filter(([, el]) => vis(el) && el.scrollHeight > el.clientHeight + 2)
            .map(([sel, el]) => `${sel} ${el.clientHeight} of ${el.scrollHeight} px`),
    };
})()"##;

fn layout_faults(at: &str, m: &Value, phone: bool) -> Vec<String> {
    let mut faults = Vec::new();
    if m["overflow"].as_f64().unwrap_or(0.0) > 1.0 {
        faults.push(format!("{at}: {} px wider than the screen", m["overflow"]));
    }
    if !m["overlaps"].as_array().is_none_or(|a| a.is_empty()) {
        faults.push(format!("{at}: overlapping: {}", m["overlaps"]));
    }
    if m["canUndo"] == json!(true) && m["undo"] != json!(true) {
        faults.push(format!(
            "{at}: Undo is allowed but not on screen ({})",
            m["undo"]
        ));
    }
    if !phone && !m["squeezed"].as_array().is_none_or(|a| a.is_empty()) {
        faults.push(format!(
            "{at}: sidebar panels squeezed to scroll inside themselves: {}",
            m["squeezed"]
        ));
    }
    if m["newest"] != json!(true) {
        faults.push(format!(
            "{at}: the newest log entry is not on screen ({})",
            m["newest"]
        ));
    }
    if phone {
        if !m["small"].as_array().is_none_or(|a| a.is_empty()) {
            faults.push(format!("{at}: tap targets under 32 px: {}", m["small"]));
        }
        if let Some(c) = m["counter"].as_f64() {
            if c < 24.0 {
                faults.push(format!("{at}: counters of {c:.1} px"));
            }
        }
    }
    faults
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_fits_a_laptop_and_a_phone() {
    let games = game_ids();
    let (dir, base) = test_server().await;
    let mut failures = Vec::new();
    for game in &games {
        let profile = dir.path().join(format!("layout-{game}"));
        let g = game.clone();
        let r = with_page(&base, &profile, &format!("{game}-layout"), |page| async move {
            page.execute(SetDeviceMetricsOverrideParams::new(1366, 768, 1.0, false)).await.map_err(|e| format!("desktop emulation: {e}"))?;
            sign_up(&page, &format!("layout_{}", g.replace('-', "_"))).await?;
            start_against_bot(&page, &g, None, None, "random").await?;
            // Play until the bot has answered and the log has a few entries, then once more
            // with a board target so that Undo is on offer where the rules allow it.
            let mut play = Play::default();
            let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/layout-confirm.png");
            for _ in 0..60 {
                let st = wait_my_turn(&page).await?;
                if st["state"] == "over" || (st["actions"].as_u64().unwrap_or(0) as usize > play.decisions && st["log"].as_u64().unwrap_or(0) >= 3) {
                    break;
                }
                decide(&page, &mut play, false, &shot).await?;
            }
            let mut faults = Vec::new();
            let desktop = SetDeviceMetricsOverrideParams::new(1366, 768, 1.0, false);
            let phone_size = SetDeviceMetricsOverrideParams::new(390, 844, 2.0, true);
            // At both sizes, first just after the bot's reply (its moves marked: the README's
            // pictures), then once a decision of the player's can be undone.
            let mut desk = Value::Null;
            let mut phone = Value::Null;
            for round in 0..2 {
                if round == 1 {
                    page.execute(desktop.clone()).await.map_err(|e| format!("desktop emulation: {e}"))?;
                    page.reload().await.map_err(|e| format!("reload: {e}"))?;
                    for _ in 0..10 {
                        let st = wait_my_turn(&page).await?;
                        if st["state"] == "over" || eval::<bool>(&page, "!!S.page.game.can_undo").await? {
                            break;
                        }
                        decide(&page, &mut play, true, &shot).await?;
                    }
                }
                wait_my_turn(&page).await?;
                wait_for(&page, r##"document.querySelector("#board svg")"##, "the board", 30).await?;
                eval::<bool>(&page, r##"(window.scrollTo(0, 0), document.querySelector(".board-wrap").scrollTo(0, 0), true)"##).await?;
                tokio::time::sleep(Duration::from_millis(300)).await;
                desk = eval(&page, LAYOUT).await?;
                faults.extend(layout_faults(&format!("1366x768 ({round})"), &desk, false));
                if round == 0 {
                    screenshot(&page, &repo_root().join(format!("docs/screenshots/{g}-desktop.png"))).await?;
                    // A slightly larger laptop screen (1400x857, issue 17): the same checks.
                    page.execute(SetDeviceMetricsOverrideParams::new(1400, 857, 1.0, false)).await.map_err(|e| format!("laptop emulation: {e}"))?;
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    let wide: Value = eval(&page, LAYOUT).await?;
                    faults.extend(layout_faults("1400x857 (0)", &wide, false));
                    // A 1366x768 laptop less the browser's own bars (about 650 px high): the
                    // same checks (at every laptop size: no sidebar panel squeezed to a sliver
                    // that scrolls inside itself; the column scrolls instead).
                    page.execute(SetDeviceMetricsOverrideParams::new(1366, 650, 1.0, false)).await.map_err(|e| format!("short laptop emulation: {e}"))?;
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    let short: Value = eval(&page, LAYOUT).await?;
                    faults.extend(layout_faults("1366x650 (0)", &short, false));
                }
                // The phone: a fresh load at its width opens the board zoomed for its counters.
                page.execute(phone_size.clone()).await.map_err(|e| format!("phone emulation: {e}"))?;
                page.reload().await.map_err(|e| format!("reload: {e}"))?;
                wait_for(&page, r##"["my-turn", "over", "waiting"].includes(document.body.dataset.state) && document.querySelector("#board svg")"##, "the game at phone width", 30).await?;
                tokio::time::sleep(Duration::from_millis(400)).await;
                phone = eval(&page, LAYOUT).await?;
                faults.extend(layout_faults(&format!("390x844 ({round})"), &phone, true));
                if round == 0 {
                    screenshot(&page, &repo_root().join(format!("docs/screenshots/{g}-phone.png"))).await?;
                }
            }
            if desk["undo"] != json!(true) || phone["undo"] != json!(true) {
                faults.push(format!("no decision that Undo could take back was reached (desktop {}, phone {})", desk["undo"], phone["undo"]));
            }
            // Scrolled to the board, the pinned prompt takes a third of the screen at most.
            let pinned: f64 = eval(&page, r##"(window.scrollTo(0, document.querySelector(".board-wrap").getBoundingClientRect().top + scrollY - 60), new Promise(r => setTimeout(() => r(document.querySelector("#promptbar").getBoundingClientRect().height / innerHeight), 300)))"##).await?;
            if pinned > 1.0 / 3.0 {
                faults.push(format!("390x844: the pinned prompt covers {:.0}% of the screen", pinned * 100.0));
            }
            // The zoom buttons and a pinch change the board's size.
            let z0 = phone["zoom"].as_f64().unwrap_or(1.0);
            click(&page, r##"document.querySelector(".zoom button[aria-label='Zoom in']")"##, "Zoom in").await?;
            if z0 < 5.99 && wait_for(&page, &format!("S.page.zoom > {z0} * 1.1"), "Zoom in", 5).await.is_err() {
                faults.push(format!("390x844: Zoom in left the zoom at {} (from {z0})", eval::<f64>(&page, "S.page.zoom").await?));
            }
            let z1: f64 = eval(&page, "S.page.zoom").await?;
            click(&page, r##"document.querySelector(".zoom button[aria-label='Zoom out']")"##, "Zoom out").await?;
            click(&page, r##"document.querySelector(".zoom button[aria-label='Zoom out']")"##, "Zoom out").await?;
            let z2: f64 = eval(&page, "S.page.zoom").await?;
            let z3 = pinch(&page, 1.6).await?;
            if z3 <= z2 * 1.2 {
                faults.push(format!("390x844: a pinch moved the zoom from {z2} to {z3}"));
            }
            eprintln!("e2e layout {g}: desktop {desk}\n  phone {phone}; pinned {pinned:.2}; zoom {z0:.2} -> + {z1:.2}, pinch {z2:.2} -> {z3:.2}");
            if faults.is_empty() { Ok(()) } else { Err(faults.join("; ")) }
        })
        .await;
        if let Err(e) = r {
            failures.push(format!("{game}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `Input.dispatchTouchEvent` of type touchEnd: it must carry an empty `touchPoints` list,
/// which the generated parameters leave out when empty.
#[derive(serde::Serialize, Debug, Clone)]
struct TouchEnd {
    r#type: &'static str,
    #[serde(rename = "touchPoints")]
    touch_points: Vec<Value>,
}

impl Default for TouchEnd {
    fn default() -> Self {
        TouchEnd {
            r#type: "touchEnd",
            touch_points: Vec::new(),
        }
    }
}

impl chromiumoxide::Method for TouchEnd {
    fn identifier(&self) -> chromiumoxide::types::MethodId {
        "Input.dispatchTouchEvent".into()
    }
}

impl chromiumoxide::Command for TouchEnd {
    type Response = Value;
}

/// Two fingers on the board's frame spreading by `factor`; returns the zoom afterwards.
async fn pinch(page: &Page, factor: f64) -> R<f64> {
    use chromiumoxide::cdp::browser_protocol::emulation::SetTouchEmulationEnabledParams;
    use chromiumoxide::cdp::browser_protocol::input::{
        DispatchTouchEventParams, DispatchTouchEventType, TouchPoint,
    };
    page.execute(SetTouchEmulationEnabledParams {
        enabled: true,
        max_touch_points: Some(2),
    })
    .await
    .map_err(|e| format!("touch emulation: {e}"))?;
    let c: Value = eval(page, r##"(() => { const w = document.querySelector(".board-wrap"); w.scrollIntoView({block: "center"}); const r = w.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + Math.min(r.height, innerHeight - r.top) / 2 }; })()"##).await?;
    let (cx, cy) = (
        c["x"].as_f64().unwrap_or(200.0),
        c["y"].as_f64().unwrap_or(400.0),
    );
    let points = |d: f64| {
        let mut a = TouchPoint::new(cx - d, cy);
        a.id = Some(1.0);
        let mut b = TouchPoint::new(cx + d, cy);
        b.id = Some(2.0);
        vec![a, b]
    };
    let touch = |kind, pts| DispatchTouchEventParams::new(kind, pts);
    page.execute(touch(DispatchTouchEventType::TouchStart, points(40.0)))
        .await
        .map_err(|e| format!("touch start: {e}"))?;
    for k in 1..=8 {
        let d = 40.0 * (1.0 + (factor - 1.0) * k as f64 / 8.0);
        page.execute(touch(DispatchTouchEventType::TouchMove, points(d)))
            .await
            .map_err(|e| format!("touch move: {e}"))?;
    }
    page.execute(TouchEnd::default())
        .await
        .map_err(|e| format!("touch end: {e}"))?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    eval(page, "S.page.zoom").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_new_game_form_offers_only_what_the_scenario_allows() {
    let (dir, base) = test_server().await;
    let r = with_page(&base, &dir.path().join("form"), "form", |page| async move {
        sign_up(&page, "form_player").await?;
        open_new_game_form(&page).await?;
        // The bot defaults to a real level, not the random mover.
        let level: String = eval(&page, r##"document.querySelector("#new-game-level").value"##).await?;
        if level != "medium" {
            return Err(format!("the bot's level defaults to {level:?}"));
        }
        // Each level's fixed rating shows in the closed menu, whole, at laptop and phone width,
        // and the line under it gives the chosen level's description and rating (issue 18).
        let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
        for (size, (w, h)) in [("laptop", (1366, 768)), ("phone", (390, 844))] {
            page.execute(SetDeviceMetricsOverrideParams::new(w, h, if w < 500 { 2.0 } else { 1.0 }, w < 500))
                .await
                .map_err(|e| format!("{size} emulation: {e}"))?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            for l in muster_ai::LEVELS {
                select(&page, "#new-game-level", l.id()).await?;
                let seen: Value = eval(&page, LEVEL_SHOWN).await?;
                let rating = format!("rated {}", l.rating().round());
                let closed = seen["closed"].as_str().unwrap_or("");
                let hint = seen["hint"].as_str().unwrap_or("");
                if !closed.contains(&rating) {
                    return Err(format!("{size}: the closed menu reads {closed:?} for {}, without {rating:?}", l.id()));
                }
                if seen["fits"] != json!(true) {
                    return Err(format!("{size}: the closed menu cuts {closed:?} short: {seen}"));
                }
                let described = &l.description()[1..];
                if !hint.contains(described) || !hint.contains(&format!("{}", l.rating().round())) {
                    return Err(format!("{size}: the line under the menu reads {hint:?} for {}", l.id()));
                }
                if seen["rated_hint_below"] != json!(true)
                    || seen["topbar_one_line"] != json!(true)
                    || seen["overflow"].as_f64().unwrap_or(0.0) > 1.0
                {
                    return Err(format!("{size}: the Rated game hint shares its label's line, the top bar wraps or the form is wider than the screen: {seen}"));
                }
            }
            select(&page, "#new-game-level", "medium").await?;
            screenshot(&page, &shots.join(format!("new-game-{size}.png"))).await?;
        }
        page.execute(SetDeviceMetricsOverrideParams::new(WIDTH as i64, HEIGHT as i64, 1.0, false))
            .await
            .map_err(|e| format!("laptop emulation: {e}"))?;
        // The storm option belongs to Oriskany alone.
        select(&page, "#new-game-game", "battles").await?;
        let storm = r##"!!document.querySelector("select[data-option='storm']")"##;
        select(&page, "#new-game-scenario", "freemans-farm").await?;
        if eval::<bool>(&page, storm).await? {
            return Err("Freeman's Farm shows Oriskany's storm option".into());
        }
        select(&page, "#new-game-scenario", "oriskany").await?;
        if !eval::<bool>(&page, storm).await? {
            return Err("Oriskany does not show its storm option".into());
        }
        // A solitaire scenario offers neither the bot's side nor a human opponent, and what
        // it offers starts a game.
        select(&page, "#new-game-game", "bunker-hill").await?;
        select(&page, "#new-game-scenario", "solitaire-patriot").await?;
        let sides: Vec<String> = eval(&page, r##"[...document.querySelector("#new-game-side").options].map(o => o.value)"##).await?;
        let human_off: bool = eval(&page, r##"document.querySelector("#opp-human").disabled && document.querySelector("#opp-bot").checked"##).await?;
        if sides != ["patriot"] || !human_off {
            return Err(format!("the solitaire Patriot scenario offers sides {sides:?}, human opponent disabled: {human_off}"));
        }
        select(&page, "#new-game-scenario", "standard").await?;
        let sides: Vec<String> = eval(&page, r##"[...document.querySelector("#new-game-side").options].map(o => o.value)"##).await?;
        if sides.len() != 2 || eval::<bool>(&page, r##"document.querySelector("#opp-human").disabled"##).await? {
            return Err(format!("the two-player scenario offers {sides:?} or no human opponent"));
        }
        select(&page, "#new-game-scenario", "solitaire-patriot").await?;
        select(&page, "#new-game-level", "random").await?;
        click(&page, r##"document.querySelector("#new-game-submit")"##, "Start the game").await?;
        wait_for(&page, r##"location.hash.startsWith("#/game/") || document.querySelector(".form-error").textContent"##, "the game or an error", 30).await?;
        let refused: String = eval(&page, r##"(document.querySelector(".form-error") || {}).textContent || """##).await?;
        if !refused.is_empty() {
            return Err(format!("the form's own choice was refused: {refused}"));
        }
        Ok(())
    })
    .await;
    r.unwrap();
}

/// What the new-game form shows of the chosen level: the closed menu's text and whether the
/// menu is wide enough for it (the text measured in the menu's own font, less its padding and
/// arrow), the line under the menu, whether the Rated game hint starts below its checkbox's
/// label, how much wider than the screen the page is, and whether the top bar's links stay on
/// one line.
const LEVEL_SHOWN: &str = r##"(() => {
  const sel = document.querySelector("#new-game-level");
  const closed = sel.options[sel.selectedIndex].text;
  const cs = getComputedStyle(sel);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  const label = document.querySelector("#new-game-rated").closest("label").getBoundingClientRect();
  const ratedHint = document.querySelector("#new-game-rated-hint").getBoundingClientRect();
  return {
    closed,
    text_px: ctx.measureText(closed).width,
    room_px: room,
    fits: ctx.measureText(closed).width <= room,
    hint: document.querySelector("#new-game-level-hint").textContent,
    rated_hint_below: ratedHint.top >= label.bottom - 1,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    topbar_one_line: (() => {
      const bar = document.querySelector("#topbar");
      const hs = [...document.querySelectorAll("#nav a")].map((a) => a.getBoundingClientRect().height);
      return bar.scrollHeight <= bar.clientHeight + 1 && Math.max(...hs) - Math.min(...hs) < 2;
    })(),
  };
})()"##;

/// Every roll in the page's log shows the faces rolled (issue 17), as dice glyphs; at least
/// `min` rolls are there. Answers how many.
async fn rolls_show_their_faces(page: &Page, min: usize) -> R<usize> {
    let rolls: Vec<String> = eval(
        page,
        r##"[...document.querySelectorAll("#log li.entry.chance")].map(li => li.textContent).filter(t => /\broll/i.test(t))"##,
    )
    .await?;
    let faceless: Vec<&String> = rolls
        .iter()
        .filter(|t| !t.chars().any(|c| ('⚀'..='⚅').contains(&c)))
        .collect();
    if !faceless.is_empty() {
        return Err(format!(
            "rolls without their faces in the log: {faceless:?}"
        ));
    }
    if rolls.len() < min {
        return Err(format!(
            "{} rolls in the log, fewer than {min}",
            rolls.len()
        ));
    }
    Ok(rolls.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_reads_out_turn_and_phase_with_tracks_and_jump_to_turn() {
    let (dir, base) = test_server().await;
    let r = with_page(&base, &dir.path().join("replay"), "replay", |page| async move {
        sign_up(&page, "replay_player").await?;
        start_against_bot(&page, "battles", Some("freemans-farm"), Some("american"), "random").await?;
        // Play the whole battle by the suggested buttons (a game must be over to be replayed).
        let mut play = Play::default();
        let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/replay-confirm.png");
        for _ in 0..200 {
            let st = wait_my_turn(&page).await?;
            if st["state"] == "over" {
                break;
            }
            decide(&page, &mut play, false, &shot).await?;
        }
        wait_for(&page, r##"document.body.dataset.state === "over""##, "the end of the game", 120).await?;
        let rolls = rolls_show_their_faces(&page, 1).await?;
        eprintln!("e2e replay: {rolls} rolls in the finished game's log, each with its faces");
        let id: String = eval(&page, "S.page.id").await?;
        eval::<bool>(&page, &format!("(location.hash = '#/replay/{id}', true)")).await?;
        wait_for(&page, r##"document.querySelector("#replay-slider") && document.body.dataset.step !== undefined"##, "the replay viewer", 60).await?;
        let last: Value = eval(&page, r##"({ readout: document.querySelector("#replay-readout").textContent, tracks: document.querySelectorAll("#tracks .track-row").length, turns: document.querySelector("#replay-turn") ? document.querySelector("#replay-turn").options.length - 1 : 0 })"##).await?;
        if !last["readout"].as_str().unwrap_or("").contains("Turn") || last["tracks"].as_u64() < Some(3) || last["turns"].as_u64() < Some(2) {
            return Err(format!("the replay's readout, tracks or turn list are missing: {last}"));
        }
        screenshot(&page, &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/replay-readout.png")).await?;
        // Jumping to turn 1 shows turn 1 and who decided there.
        let step: String = eval(&page, r##"[...document.querySelector("#replay-turn").options].find(o => o.textContent === "Turn 1").value"##).await?;
        select(&page, "#replay-turn", &step).await?;
        wait_for(&page, &format!("document.body.dataset.step === '{step}'"), "the jump to turn 1", 10).await?;
        let first: String = eval(&page, r##"document.querySelector("#replay-readout").textContent"##).await?;
        if !first.starts_with("Turn 1") || !first.contains("next:") {
            return Err(format!("after the jump to turn 1 the readout says {first:?}"));
        }
        Ok(())
    })
    .await;
    r.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oriskany_set_up_names_the_side_setting_up_and_enter_offers_the_hexes() {
    let (dir, base) = test_server().await;
    let r = with_page(&base, &dir.path().join("oriskany"), "oriskany", |page| async move {
        sign_up(&page, "oriskany_player").await?;
        // The Americans set up first (§12) although the British move first.
        start_against_bot(&page, "battles", Some("oriskany"), Some("american"), "random").await?;
        wait_my_turn(&page).await?;
        let phase: String = eval(&page, r##"[...document.querySelectorAll("#tracks .track-row")].map(r => r.textContent).find(t => t.startsWith("Phase")) || """##).await?;
        if !phase.contains("American sets up") || phase.contains("British") {
            return Err(format!("the phase row during the American set-up reads {phase:?}"));
        }
        // The marker chips of the counters (M, A, D, R) are explained on the map (issue 17.8).
        let legend: String = eval(&page, r##"(document.querySelector("#bt-chip-legend") || {}).textContent || """##).await?;
        for chip in ["M moved", "A attacked", "D was attacked", "R rallied"] {
            if !legend.contains(chip) {
                return Err(format!("the chip legend {legend:?} does not explain {chip:?}"));
            }
        }
        // Placing has no suggested action: Enter opens the choices, and 1 takes the first.
        let v0: i64 = eval(&page, "Number(document.body.dataset.version)").await?;
        page.find_element("body").await.map_err(|e| e.to_string())?.press_key("Enter").await.map_err(|e| e.to_string())?;
        wait_for(&page, r##"document.querySelector("#target-menu")"##, "the menu of choices after Enter", 10).await?;
        page.find_element("body").await.map_err(|e| e.to_string())?.press_key("1").await.map_err(|e| e.to_string())?;
        wait_for(&page, &format!("Number(document.body.dataset.version) > {v0}"), "the first choice to be taken", 10).await?;
        Ok(())
    })
    .await;
    r.unwrap();
}

/// Two players in two browsers (issue 16 §3–4): they chat (markup arrives as text), one offers
/// a draw and the other accepts it, a rematch is offered and accepted, and in the rematch a
/// player resigns after the confirmation; each page follows the other's doings over the socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_chat_agree_a_draw_rematch_and_resign_in_the_browser() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let addr = start_server(dir.path()).await.expect("the server starts");
    let base = format!("http://{addr}");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    let (mut alice_b, pump_a) = launch(&dir.path().join("chromium-alice")).await.unwrap();
    let (mut bob_b, pump_b) = launch(&dir.path().join("chromium-bob")).await.unwrap();
    let result = async {
        let alice = alice_b
            .new_page(format!("{base}/#/login"))
            .await
            .map_err(|e| format!("opening Alice's page: {e}"))?;
        let bob = bob_b
            .new_page(format!("{base}/#/login"))
            .await
            .map_err(|e| format!("opening Bob's page: {e}"))?;
        let r = talk_between(&alice, &bob, &base, &shots).await;
        if r.is_err() {
            let _ = screenshot(&alice, &shots.join("talk-failure-alice.png")).await;
            let _ = screenshot(&bob, &shots.join("talk-failure-bob.png")).await;
        }
        r
    }
    .await;
    for b in [&mut alice_b, &mut bob_b] {
        let _ = b.close().await;
        let _ = b.wait().await;
    }
    pump_a.abort();
    pump_b.abort();
    result.unwrap();
}

async fn talk_between(alice: &Page, bob: &Page, base: &str, shots: &Path) -> R<()> {
    sign_up(alice, "alice").await?;
    sign_up(bob, "bob").await?;
    // Alice opens a game for a friend; Bob follows her invite link.
    click(
        alice,
        r##"document.querySelector("#new-game")"##,
        "New game",
    )
    .await?;
    wait_for(
        alice,
        r##"document.querySelector("#new-game-form")"##,
        "the form",
        30,
    )
    .await?;
    select(alice, "#new-game-game", "battles").await?;
    select(alice, "#new-game-scenario", "oriskany").await?;
    select(alice, "#new-game-side", "british").await?;
    click(
        alice,
        r##"document.querySelector("#opp-human")"##,
        "a friend",
    )
    .await?;
    click(
        alice,
        r##"document.querySelector("#new-game-submit")"##,
        "Start",
    )
    .await?;
    wait_for(
        alice,
        r##"document.body.dataset.state === "open" && document.querySelector("input.invite")"##,
        "the invite link",
        30,
    )
    .await?;
    let link: String = eval(alice, r##"document.querySelector("input.invite").value"##).await?;
    if !link.starts_with(base) {
        return Err(format!("the invite link {link:?} is not on {base}"));
    }
    // The same page of the same site: following the link changes only its hash.
    eval::<bool>(bob, &format!("(location.href = {link:?}, true)")).await?;
    wait_for(
        bob,
        r##"document.body.dataset.state === "my-turn" && document.querySelector("#chat-input")"##,
        "Bob's game page",
        30,
    )
    .await?;
    wait_for(
        alice,
        r##"document.body.dataset.state === "waiting""##,
        "Alice sees Bob join",
        30,
    )
    .await?;

    // Chat: what Alice types reaches Bob as text, markup and all, and back.
    let said = "<b>Huzzah</b> & God save the King";
    type_into(alice, "#chat-input", said).await?;
    click(alice, r##"document.querySelector("#chat-send")"##, "Send").await?;
    wait_for(
        bob,
        &format!(r##"[...document.querySelectorAll("#chat-list .chat-text")].some(e => e.textContent === {said:?})"##),
        "Alice's message on Bob's page",
        15,
    )
    .await?;
    let markup: bool = eval(
        bob,
        r##"!!document.querySelector("#chat-list b, #chat-list script")"##,
    )
    .await?;
    if markup {
        return Err("a chat message was shown as HTML".into());
    }
    type_into(bob, "#chat-input", "Good luck, and mind the ravine.").await?;
    click(bob, r##"document.querySelector("#chat-send")"##, "Send").await?;
    wait_for(
        alice,
        r##"[...document.querySelectorAll("#chat-list .chat-text")].some(e => e.textContent === "Good luck, and mind the ravine.")"##,
        "Bob's answer on Alice's page",
        15,
    )
    .await?;
    screenshot(bob, &shots.join("talk-chat.png")).await?;

    // A draw: Bob offers, Alice sees the offer pushed and accepts.
    click(
        bob,
        r##"document.querySelector("#offer-draw")"##,
        "Offer a draw",
    )
    .await?;
    wait_for(
        alice,
        r##"document.querySelector(".offer[data-kind=draw] .offer-accept")"##,
        "the draw offer on Alice's page",
        15,
    )
    .await?;
    wait_for(
        bob,
        r##"document.querySelector(".offer[data-kind=draw] .offer-withdraw")"##,
        "Bob's own offer",
        15,
    )
    .await?;
    screenshot(alice, &shots.join("talk-offer.png")).await?;
    click(
        alice,
        r##"document.querySelector(".offer[data-kind=draw] .offer-accept")"##,
        "Accept",
    )
    .await?;
    for (who, page) in [("Alice", alice), ("Bob", bob)] {
        wait_for(
            page,
            r##"document.body.dataset.state === "over" && document.querySelector("#banner").textContent.includes("Drawn game")"##,
            &format!("the agreed draw on {who}'s page"),
            15,
        )
        .await?;
    }

    // A rematch with the sides swapped: only Bob's acceptance starts it.
    click(
        alice,
        r##"document.querySelector("#offer-rematch-swap")"##,
        "Offer a rematch, swapped",
    )
    .await?;
    wait_for(
        bob,
        r##"document.querySelector(".offer[data-kind=rematch] .offer-accept")"##,
        "the rematch offer on Bob's page",
        15,
    )
    .await?;
    click(
        bob,
        r##"document.querySelector(".offer[data-kind=rematch] .offer-accept")"##,
        "Accept the rematch",
    )
    .await?;
    wait_for(
        alice,
        r##"document.querySelector("#go-rematch")"##,
        "the way to the rematch on Alice's page",
        15,
    )
    .await?;
    click(
        alice,
        r##"document.querySelector("#go-rematch")"##,
        "Go to the rematch",
    )
    .await?;
    wait_for(
        alice,
        r##"document.body.dataset.state === "my-turn" && document.querySelector("#resign")"##,
        "Alice's rematch, the Americans' setup first",
        30,
    )
    .await?;
    wait_for(
        bob,
        r##"document.body.dataset.state === "waiting" && document.querySelector("#resign")"##,
        "Bob's rematch page",
        30,
    )
    .await?;
    let hash: String = eval(alice, "location.hash").await?;
    let bob_hash: String = eval(bob, "location.hash").await?;
    if hash != bob_hash {
        return Err(format!("Alice is at {hash}, Bob at {bob_hash}"));
    }

    // Bob resigns while it is Alice's turn: a confirmation first; Cancel keeps the game.
    click(bob, r##"document.querySelector("#resign")"##, "Resign").await?;
    wait_for(
        bob,
        r##"document.querySelector("#resign-yes")"##,
        "the confirmation",
        10,
    )
    .await?;
    screenshot(bob, &shots.join("talk-resign-confirm.png")).await?;
    click(bob, r##"document.querySelector("#resign-no")"##, "Cancel").await?;
    wait_for(
        bob,
        r##"document.querySelector("#resign") && !document.querySelector("#resign-yes")"##,
        "the confirmation gone",
        10,
    )
    .await?;
    let st = page_state(bob).await?;
    if st["state"] != "waiting" {
        return Err(format!("cancelling resigned anyway: {st}"));
    }
    click(bob, r##"document.querySelector("#resign")"##, "Resign").await?;
    click(
        bob,
        r##"document.querySelector("#resign-yes")"##,
        "Resign, confirmed",
    )
    .await?;
    for (who, page) in [("Alice", alice), ("Bob", bob)] {
        wait_for(
            page,
            r##"document.body.dataset.state === "over" && document.querySelector("#banner").textContent.includes("American victory") && [...document.querySelectorAll("#log li.entry")].some(e => e.textContent.includes("bob resigned"))"##,
            &format!("the resignation on {who}'s page"),
            15,
        )
        .await?;
    }
    screenshot(alice, &shots.join("talk-resigned.png")).await?;
    bob.execute(SetDeviceMetricsOverrideParams::new(390, 844, 2.0, true))
        .await
        .map_err(|e| format!("phone emulation: {e}"))?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(bob, &shots.join("talk-phone.png")).await?;
    // The one who resigned reads it in their own words, and how it ended is said once above
    // the board (the banner), not again in the prompt and the last-entry line.
    let shown: Value = eval(
        bob,
        r##"({ banner: document.querySelector("#banner").textContent,
              prompt: document.querySelector("#prompt").textContent,
              latest: (() => { const l = document.querySelector("#latest"); return l && !l.hidden ? l.textContent : ""; })() })"##,
    )
    .await?;
    let banner = shown["banner"].as_str().unwrap_or("");
    if !banner.contains("You resigned for the British side: the American side wins") {
        return Err(format!("the resigning player's banner: {shown}"));
    }
    for part in ["prompt", "latest"] {
        if shown[part].as_str().unwrap_or("").contains("resigned") {
            return Err(format!("the resignation repeated in the {part}: {shown}"));
        }
    }
    let alice_banner: String =
        eval(alice, r##"document.querySelector("#banner").textContent"##).await?;
    if !alice_banner.contains("bob resigned") || alice_banner.contains("You resigned") {
        return Err(format!("the winner's banner: {alice_banner}"));
    }
    Ok(())
}

/// The flash message's text ("" when hidden).
async fn flash_text(page: &Page) -> R<String> {
    eval(
        page,
        r##"(() => { const f = document.querySelector("#flash"); return f && !f.hidden ? f.textContent : ""; })()"##,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_pages_confirm_state_password_profile_reset_and_deletion_in_the_browser() {
    let (dir, base) = test_server().await;
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    let profile = dir.path().join("chromium-accounts");
    with_page(&base, &profile, "accounts", |page| async move {
        sign_up(&page, "alice").await?;
        // The account page: no address yet; one set is shown unconfirmed.
        eval::<bool>(&page, r##"(location.hash = "#/account", true)"##).await?;
        wait_for(&page, r##"document.querySelector("#email-state") && document.querySelector("#email-state").textContent.includes("No e-mail address")"##, "the account page without an address", 30).await?;
        type_into(&page, "#notify-email", "alice@example.com").await?;
        click(&page, r##"document.querySelector("#notify-save")"##, "Save").await?;
        wait_for(&page, r##"document.querySelector("#email-state.unconfirmed") && document.querySelector("#email-state").textContent.includes("alice@example.com is not confirmed")"##, "the unconfirmed address", 15).await?;
        // Changing the password: a wrong current one is refused in the form, the right one works.
        type_into(&page, "#password-old", "not my password").await?;
        type_into(&page, "#password-new", "a new horse battery").await?;
        click(&page, r##"document.querySelector("#password-submit")"##, "Change password").await?;
        wait_for(&page, r##"document.querySelector("#password-form .form-error").textContent.includes("wrong")"##, "the refusal of a wrong password", 15).await?;
        eval::<bool>(&page, r##"(document.querySelector("#password-old").value = "", true)"##).await?;
        type_into(&page, "#password-old", "correct horse battery").await?;
        click(&page, r##"document.querySelector("#password-submit")"##, "Change password").await?;
        let start = Instant::now();
        while !flash_text(&page).await?.contains("Password changed") {
            if start.elapsed() > Duration::from_secs(15) {
                return Err(format!("no word of the change: {}", page_state(&page).await?));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        screenshot(&page, &shots.join("account.png")).await?;
        // A game against a bot; her name in the game view leads to her profile.
        start_against_bot(&page, "battles", Some("freemans-farm"), Some("british"), "random").await?;
        wait_for(&page, r##"document.querySelector("#seats a.player-link")"##, "her name as a link in the seats", 30).await?;
        click(&page, r##"document.querySelector("#seats a.player-link")"##, "her name").await?;
        wait_for(&page, r##"location.hash === "#/user/alice" && document.querySelector("#profile-games tr[data-game]") && document.body.dataset.state === "ready""##, "her profile with the game", 30).await?;
        screenshot(&page, &shots.join("profile.png")).await?;
        // Logged out: "forgot password" from the log-in form; a reset link that is not one.
        click(&page, r##"document.querySelector("#logout")"##, "Log out").await?;
        wait_for(&page, r##"document.querySelector("#login-link") && location.hash === "#/" && document.body.dataset.state === "ready""##, "logged out, in the lobby", 15).await?;
        eval::<bool>(&page, r##"(location.hash = "#/login", true)"##).await?;
        wait_for(&page, r##"document.querySelector("#forgot-link") && document.body.dataset.state === "ready""##, "the forgot-password link", 15).await?;
        // A page whose answer comes late never draws over a later one: the lobby is asked for,
        // and while its answer is on the way the reader moves on to the log-in page. Once the
        // lobby's answer is in (and a moment more), the log-in page is still the one shown.
        // (The resource timings are cleared first: their buffer holds 250 entries, and a full
        // one would never list the lobby's answer.)
        eval::<bool>(
            &page,
            r##"(performance.clearResourceTimings(), window.__raceFrom = performance.now(),
                 window.addEventListener("hashchange", () => setTimeout(() => { location.hash = "#/login"; }, 0), { once: true }),
                 location.hash = "#/", true)"##,
        )
        .await?;
        wait_for(&page, r##"location.hash === "#/login" && performance.getEntriesByType("resource").some((e) => e.name.endsWith("/api/lobby") && e.startTime >= window.__raceFrom)"##, "the lobby's late answer", 15).await?;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let shown: bool = eval(&page, r##"!!document.querySelector("#forgot-link") && !document.querySelector(".lobby") && document.body.dataset.state === "ready""##).await?;
        if !shown {
            return Err(format!("the lobby's late answer drew over the log-in page: {}", page_state(&page).await?));
        }
        click(&page, r##"document.querySelector("#forgot-link")"##, "Forgot your password?").await?;
        wait_for(&page, r##"document.querySelector("#forgot-form")"##, "the reset request form", 15).await?;
        type_into(&page, "#forgot-who", "alice").await?;
        click(&page, r##"document.querySelector("#forgot-submit")"##, "Mail me a link").await?;
        wait_for(&page, r##"document.querySelector("#forgot-done").textContent.includes("confirmed e-mail address")"##, "the answer to the request", 15).await?;
        eval::<bool>(&page, &format!("(location.hash = \"#/reset/{}\", true)", "0".repeat(64))).await?;
        wait_for(&page, r##"document.querySelector("#reset-form")"##, "the reset form", 15).await?;
        type_into(&page, "#reset-password", "another horse battery").await?;
        type_into(&page, "#reset-again", "another horse battery").await?;
        click(&page, r##"document.querySelector("#reset-submit")"##, "Set the password").await?;
        wait_for(&page, r##"document.querySelector("#reset-form .form-error").textContent.includes("unknown, used or expired")"##, "the refusal of a bad link", 15).await?;
        // Log in with the new password, then delete the account: asked once more, then gone.
        eval::<bool>(&page, r##"(location.hash = "#/login", true)"##).await?;
        wait_for(&page, r##"document.querySelector("#login-form")"##, "the log-in form", 15).await?;
        type_into(&page, "#login-name", "alice").await?;
        type_into(&page, "#login-password", "a new horse battery").await?;
        click(&page, r##"document.querySelector("#login-submit")"##, "Log in").await?;
        wait_for(&page, r##"document.querySelector("#account-link") && document.querySelector("#my-games") && document.body.dataset.state === "ready""##, "the lobby, logged in with the new password", 15).await?;
        eval::<bool>(&page, r##"(location.hash = "#/account", true)"##).await?;
        wait_for(&page, r##"document.querySelector("#delete-form")"##, "the deletion form", 30).await?;
        type_into(&page, "#delete-password", "a new horse battery").await?;
        click(&page, r##"document.querySelector("#delete-submit")"##, "Delete my account").await?;
        wait_for(&page, r##"document.querySelector("#delete-yes") && !document.querySelector("#delete-confirm").hidden"##, "the confirmation", 10).await?;
        click(&page, r##"document.querySelector("#delete-no")"##, "Cancel").await?;
        wait_for(&page, r##"document.querySelector("#delete-confirm").hidden && document.querySelector("#account-link")"##, "still there after Cancel", 10).await?;
        click(&page, r##"document.querySelector("#delete-submit")"##, "Delete my account").await?;
        click(&page, r##"document.querySelector("#delete-yes")"##, "Delete it").await?;
        wait_for(&page, r##"document.querySelector("#login-link") && location.hash === "#/""##, "logged out after the deletion", 15).await?;
        eval::<bool>(&page, r##"(location.hash = "#/user/alice", true)"##).await?;
        wait_for(&page, r##"document.querySelector("#main h2") && document.querySelector("#main h2").textContent === "No such player""##, "no profile for the deleted account", 15).await?;
        Ok(())
    })
    .await
    .unwrap();
}

/// Issue 16 §5 in the browser: the game page's history bar steps back through earlier
/// positions, shown read-only (no choice offered, no target on the board), forward again and
/// back to the live position; the lobby's Watch list shows the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_history_steps_back_read_only_and_returns_to_now_and_the_lobby_lists_the_game_to_watch()
{
    let (dir, base) = test_server().await;
    let r = with_page(&base, &dir.path().join("history"), "history", |page| async move {
        sign_up(&page, "history_player").await?;
        start_against_bot(&page, "battles", Some("freemans-farm"), Some("american"), "random").await?;
        let mut play = Play::default();
        let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/history-confirm.png");
        for _ in 0..30 {
            let st = wait_my_turn(&page).await?;
            if st["state"] == "over" || st["actions"].as_u64() >= Some(4) {
                break;
            }
            decide(&page, &mut play, false, &shot).await?;
        }
        let st = wait_my_turn(&page).await?;
        let total = st["actions"].as_u64().unwrap_or(0);
        if st["state"] != "my-turn" || total < 2 {
            return Err(format!("no game of two actions or more to step through: {st}"));
        }
        let shown = r##"({
            pos: document.querySelector("#history-pos").textContent,
            targets: document.querySelectorAll("#board [data-target]").length,
            buttons: document.querySelectorAll("#actions button.act").length,
            stepping: document.querySelector(".board-wrap").classList.contains("stepping"),
            prompt: document.querySelector("#prompt").textContent,
        })"##;
        let live: Value = eval(&page, shown).await?;
        if live["buttons"].as_u64() == Some(0) || !live["pos"].as_str().unwrap_or("").starts_with("now") {
            return Err(format!("the live position offers no choice or its bar does not say now: {live}"));
        }
        click(&page, r##"document.querySelector("#history-back")"##, "the history's ◀").await?;
        wait_for(&page, &format!("document.body.dataset.history === '{}'", total - 1), "the position before the last action", 30).await?;
        let back: Value = eval(&page, shown).await?;
        let want = format!("after {} of {total} actions", total - 1);
        if !back["pos"].as_str().unwrap_or("").starts_with(&want)
            || back["targets"] != 0
            || back["buttons"] != 0
            || back["stepping"] != true
            || !back["prompt"].as_str().unwrap_or("").contains("History")
        {
            return Err(format!("an earlier position is not shown read-only as {want:?}: {back}"));
        }
        screenshot(&page, &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/history-back.png")).await?;
        click(&page, r##"document.querySelector("#history-back")"##, "the history's ◀ again").await?;
        wait_for(&page, &format!("document.body.dataset.history === '{}'", total - 2), "two positions back", 30).await?;
        click(&page, r##"document.querySelector("#history-forward")"##, "the history's ▶").await?;
        wait_for(&page, &format!("document.body.dataset.history === '{}'", total - 1), "one position forward", 30).await?;
        click(&page, r##"document.querySelector("#history-now")"##, "Now").await?;
        wait_for(&page, r##"document.body.dataset.history === "" && document.querySelectorAll("#actions button.act").length > 0"##, "the live position with its choices", 30).await?;
        // The lobby lists the game to watch, with nobody watching (its player is seated).
        let id: String = eval(&page, "S.page.id").await?;
        eval::<bool>(&page, r##"(location.hash = "#/", true)"##).await?;
        let row = format!(r##"document.querySelector("#live-games tr[data-game='{id}']")"##);
        wait_for(&page, &row, "the game in the Watch list", 30).await?;
        let text: String = eval(&page, &format!("{row}.textContent")).await?;
        if !text.contains("👁 0") || !text.contains("Watch") {
            return Err(format!("the Watch list's row reads {text:?}"));
        }
        Ok(())
    })
    .await;
    r.unwrap();
}

/// Time controls (issue 16 §2): a clock chosen in the new-game form is shown beside both
/// seats, and the running one counts down in the page between the server's messages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_chosen_in_the_form_is_shown_beside_the_seats_and_counts_down() {
    let (dir, base) = test_server().await;
    let r = with_page(&base, &dir.path().join("clock"), "clock", |page| async move {
        sign_up(&page, "clock_player").await?;
        open_new_game_form(&page).await?;
        select(&page, "#new-game-game", "battles").await?;
        select(&page, "#new-game-scenario", "freemans-farm").await?;
        select(&page, "#new-game-side", "british").await?;
        click(&page, r##"document.querySelector("#opp-bot")"##, "the computer opponent").await?;
        select(&page, "#new-game-level", "random").await?;
        select(&page, "#new-game-time", "clock").await?;
        eval::<bool>(&page, r##"(document.querySelector("#new-game-clock-initial").value = "5", document.querySelector("#new-game-clock-increment").value = "0", true)"##).await?;
        select(&page, "#new-game-clock-initial-unit", "1").await?;
        click(&page, r##"document.querySelector("#new-game-submit")"##, "Start the game").await?;
        wait_for(&page, r##"location.hash.startsWith("#/game/") && document.body.dataset.state === "my-turn" && document.querySelector(".seat-row .clock.running")"##, "the game with its clock running", 30).await?;
        let clocks: Vec<String> = eval(&page, r##"[...document.querySelectorAll(".seat-row .clock")].map(e => e.textContent)"##).await?;
        if clocks.len() != 2 || clocks.iter().any(|c| !c.contains(':')) {
            return Err(format!("the seats show the clocks {clocks:?}"));
        }
        let running = r##"document.querySelector(".seat-row .clock.running").textContent"##;
        let before: String = eval(&page, running).await?;
        tokio::time::sleep(Duration::from_millis(2500)).await;
        let after: String = eval(&page, running).await?;
        let secs = |t: &str| -> i64 {
            t.split(':').fold(0, |n, p| n * 60 + p.trim().parse::<i64>().unwrap_or(0))
        };
        if !(secs(&after) < secs(&before) && secs(&before) <= 300) {
            return Err(format!("the running clock went from {before:?} to {after:?}"));
        }
        let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
        // On a laptop the seats are beside the board: the prompt bar repeats no clock.
        let bar_shown = r##"(() => { const b = document.querySelector("#clock-bar"); return !!b && b.getClientRects().length > 0; })()"##;
        if eval::<bool>(&page, bar_shown).await? {
            return Err("the prompt bar shows the clocks beside the seats' at 1366 px".into());
        }
        screenshot(&page, &shots.join("clock-desktop.png")).await?;
        page.execute(SetDeviceMetricsOverrideParams::new(390, 844, 2.0, true)).await.map_err(|e| format!("phone emulation: {e}"))?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        // On a phone the seats are below the board; the pinned prompt bar shows both clocks,
        // the running one counting down, on screen also with the page scrolled down the board.
        wait_for(&page, bar_shown, "the clocks in the prompt bar on a phone", 5).await?;
        let in_bar: Vec<String> = eval(&page, r##"[...document.querySelectorAll("#clock-bar .clock")].map(e => e.textContent)"##).await?;
        if in_bar.len() != 2 || in_bar.iter().any(|c| !c.contains(':')) {
            return Err(format!("the prompt bar shows the clocks {in_bar:?}"));
        }
        screenshot(&page, &shots.join("clock-phone.png")).await?;
        let bar_running = r##"document.querySelector("#clock-bar .clock.running").textContent"##;
        let first: String = eval(&page, bar_running).await?;
        // Scrolled down the board (the bar is pinned over the play area, as the prompt is).
        eval::<bool>(&page, "(window.scrollTo(0, 500), true)").await?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let on_screen: bool = eval(&page, r##"(() => { const r = document.querySelector("#clock-bar .clock.running").getBoundingClientRect(); return window.scrollY > 100 && r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; })()"##).await?;
        if !on_screen {
            return Err("the running clock left the screen when the page scrolled".into());
        }
        let later: String = eval(&page, bar_running).await?;
        if secs(&later) >= secs(&first) {
            return Err(format!("the prompt bar's clock went from {first:?} to {later:?}"));
        }
        screenshot(&page, &shots.join("clock-phone-scrolled.png")).await?;
        Ok(())
    })
    .await;
    r.unwrap();
}

/// A player of the test who is not in a browser: plain HTTP with cookies and the CSRF token,
/// as the API allows any program.
struct ApiPlayer {
    http: reqwest::Client,
    base: String,
    csrf: String,
}

impl ApiPlayer {
    async fn sign_up(base: &str, name: &str) -> R<ApiPlayer> {
        let http = reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .map_err(|e| e.to_string())?;
        let s: Value = http
            .get(format!("{base}/api/session"))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        let mut p = ApiPlayer {
            http,
            base: base.to_string(),
            csrf: s["csrf"].as_str().unwrap_or_default().to_string(),
        };
        p.post(
            "/api/signup",
            json!({"name": name, "password": "correct horse"}),
        )
        .await?;
        Ok(p)
    }

    async fn post(&mut self, path: &str, body: Value) -> R<Value> {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("X-CSRF-Token", &self.csrf)
            .json(&body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let ok = r.status().is_success();
        let v: Value = r.json().await.map_err(|e| e.to_string())?;
        if let Some(t) = v["csrf"].as_str() {
            self.csrf = t.to_string();
        }
        if !ok {
            return Err(format!("POST {path}: {v}"));
        }
        Ok(v)
    }

    async fn get(&self, path: &str) -> R<Value> {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())
    }
}

/// Issue 16 §1 in the browser: a player who allowed notifications and waits in the lobby is
/// shown a browser notification ("Your turn") when the other player's move makes it theirs,
/// and the lobby counts the games waiting on them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_waiting_in_the_lobby_gets_a_browser_notification_when_it_becomes_their_turn() {
    use chromiumoxide::cdp::browser_protocol::browser::{
        PermissionDescriptor, PermissionSetting, SetPermissionParams,
    };
    let (dir, base) = test_server().await;
    let b = base.clone();
    let r = with_page(&base, &dir.path().join("notice"), "notice", |page| async move {
        // Bob, over HTTP, opens Oriskany as the Americans, who set up first (§12).
        let mut bob = ApiPlayer::sign_up(&b, "notice_bob").await?;
        let made = bob
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "american", "opponent": "human"}))
            .await?;
        let id = made["id"].as_str().ok_or("no game id")?.to_string();
        let invite = made["invite"].as_str().ok_or("no invite")?.to_string();
        // Alice, in the browser, allows notifications for the site and joins by the link.
        sign_up(&page, "notice_alice").await?;
        page.execute(
            SetPermissionParams::builder()
                .permission(PermissionDescriptor::new("notifications"))
                .setting(PermissionSetting::Granted)
                .origin(b.clone())
                .build()
                .map_err(|e| e.to_string())?,
        )
        .await
        .map_err(|e| format!("granting notifications: {e}"))?;
        eval::<bool>(&page, &format!("(location.hash = '#/join/{id}/{invite}', true)")).await?;
        wait_for(&page, r##"document.body.dataset.state === "waiting""##, "Alice seated, Bob to act", 30).await?;
        // Back to the lobby; every notification the page makes is written down (the real
        // API still shows it).
        eval::<bool>(
            &page,
            r##"(window.__notices = [], window.Notification = class extends Notification {
                    constructor(title, opts) { super(title, opts); window.__notices.push(`${title} | ${opts && opts.body}`); } },
                 location.hash = "#/", true)"##,
        )
        .await?;
        wait_for(&page, r##"Notification.permission === "granted" && document.querySelector("#lobby, .lobby, main table")"##, "the lobby, notifications allowed", 30).await?;
        let before: Vec<String> = eval(&page, "window.__notices").await?;
        if !before.is_empty() {
            return Err(format!("notified before it was Alice's turn: {before:?}"));
        }
        // Bob decides until it is the British's turn.
        for _ in 0..200 {
            let g = bob.get(&format!("/api/games/{id}")).await?;
            if g["to_act"] != "american" || g["status"] != "active" {
                break;
            }
            let action = g["legal"][0]["action"].as_str().ok_or("no legal action")?.to_string();
            bob.post(&format!("/api/games/{id}/act"), json!({"action": action, "version": g["version"]}))
                .await?;
        }
        let g = bob.get(&format!("/api/games/{id}")).await?;
        if g["to_act"] != "british" {
            return Err(format!("the British never came to act: {}", g["to_act"]));
        }
        // The lobby looks every 10 s: a notification within 25 s, once, and the count.
        wait_for(&page, "window.__notices.length > 0", "the browser notification", 25).await?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let shown: Vec<String> = eval(&page, "window.__notices").await?;
        if shown.len() != 1 || !shown[0].starts_with("Your turn — Muster | Oriskany") {
            return Err(format!("the notifications shown: {shown:?}"));
        }
        wait_for(&page, r##"document.querySelector("#turn-count") && document.querySelector("#turn-count").textContent === "1""##, "the lobby's count of games waiting", 15).await?;
        Ok(())
    })
    .await;
    r.unwrap();
}

/// Issue 16 §6: one account takes both seats (hot-seat, as `muster play --vs human`): the
/// game starts at once, both seats read "(you)", and when the decision passes to the other
/// side the page is still the player's turn, now for that side, and a decision is taken for
/// it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_account_plays_both_sides_of_a_hot_seat_game_in_the_browser() {
    let (dir, base) = test_server().await;
    let r = with_page(&base, &dir.path().join("hotseat"), "hotseat", |page| async move {
        sign_up(&page, "hotseat_player").await?;
        open_new_game_form(&page).await?;
        select(&page, "#new-game-game", "battles").await?;
        select(&page, "#new-game-scenario", "oriskany").await?;
        click(&page, r##"document.querySelector("#opp-self")"##, "Play both sides yourself").await?;
        click(&page, r##"document.querySelector("#new-game-submit")"##, "Start the game").await?;
        wait_for(&page, r##"location.hash.startsWith("#/game/") && document.body.dataset.state === "my-turn""##, "the hot-seat game, the player to decide", 30).await?;
        let yours: usize = eval(&page, r##"[...document.querySelectorAll("#seats .seat-row")].filter(r => r.textContent.includes("(you)")).length"##).await?;
        if yours != 2 {
            return Err(format!("{yours} seats read \"(you)\", not both"));
        }
        let acting = r##"(document.querySelector("#seats .seat-row.to-act .badge") || {}).title || """##;
        let first: String = eval(&page, acting).await?;
        let mut play = Play::default();
        let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/hotseat-confirm.png");
        let mut second = first.clone();
        for _ in 0..120 {
            wait_my_turn(&page).await?;
            second = eval(&page, acting).await?;
            if second != first {
                break;
            }
            decide(&page, &mut play, false, &shot).await?;
        }
        if second == first || second.is_empty() {
            return Err(format!("the decision never passed from {first:?} to the other side ({} decisions)", play.decisions));
        }
        // The other side's decision is the player's too: the page says so and takes it.
        let st = wait_my_turn(&page).await?;
        if st["state"] != "my-turn" {
            return Err(format!("after the hand-over to {second:?} the page is {st}"));
        }
        let mine: String = eval(&page, r##"(document.querySelector("#seats .seat-row.mine.to-act .badge") || {}).title || """##).await?;
        if mine != second {
            return Err(format!("the side shown as the player's is {mine:?}, the side to act {second:?}"));
        }
        let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
        screenshot(&page, &shots.join("hotseat.png")).await?;
        let before = play.decisions;
        decide(&page, &mut play, false, &shot).await?;
        if play.decisions != before + 1 {
            return Err("no decision taken for the second side".into());
        }
        Ok(())
    })
    .await;
    r.unwrap();
}

/// Issue 16 §4 in the browser: a player mutes the other player from the "mute" link beside
/// a message (it disappears, and stays gone after a reload), hides the spectators' channel
/// (its tab goes, and stays gone after a reload), and keeps a private notepad that a reload
/// reads back. The other player and the spectator talk over HTTP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_mutes_hides_the_spectators_and_keeps_notes_in_the_browser() {
    let (dir, base) = test_server().await;
    let b = base.clone();
    let r = with_page(&base, &dir.path().join("talkprefs"), "talkprefs", |page| async move {
        let mut bob = ApiPlayer::sign_up(&b, "prefs_bob").await?;
        let made = bob
            .post("/api/games", json!({"game": "battles", "scenario": "oriskany", "side": "american", "opponent": "human"}))
            .await?;
        let id = made["id"].as_str().ok_or("no game id")?.to_string();
        let invite = made["invite"].as_str().ok_or("no invite")?.to_string();
        sign_up(&page, "prefs_alice").await?;
        eval::<bool>(&page, &format!("(location.hash = '#/join/{id}/{invite}', true)")).await?;
        wait_for(&page, r##"document.body.dataset.state === "waiting" && document.querySelector("#chat-input")"##, "Alice seated", 30).await?;
        let mut carol = ApiPlayer::sign_up(&b, "prefs_carol").await?;
        carol.post(&format!("/api/games/{id}/chat"), json!({"text": "a spectator's word", "channel": "spectators"})).await?;
        bob.post(&format!("/api/games/{id}/chat"), json!({"text": "a word from Bob"})).await?;
        let has = |text: &str| format!(r##"[...document.querySelectorAll("#chat-list .chat-text")].some(e => e.textContent === {text:?})"##);
        if let Err(e) = wait_for(&page, &has("a word from Bob"), "Bob's message", 15).await {
            let seen: Value = eval(&page, &format!("fetch('/api/games/{id}/chat').then(r => r.json())")).await?;
            let list: String = eval(&page, r##"document.querySelectorAll("#chat-list").length + " lists; " + document.querySelector("#chat-list").outerHTML + "; tab " + (document.querySelector("#talk-panel .tab.current, .talk .tab.current") || {}).id"##).await?;
            return Err(format!("{e}; the chat as Alice reads it: {seen}; the list: {list}"));
        }
        // Mute Bob: his message goes, also after a reload.
        let mute_bob = r##"(([...document.querySelectorAll("#chat-list .chat-msg")].find(m => m.textContent.includes("a word from Bob")) || document.createElement("i")).querySelector(".chat-mute"))"##;
        if let Err(e) = wait_for(&page, mute_bob, "the mute link beside Bob's message", 10).await {
            let list: String = eval(&page, r##"document.querySelector("#chat-list").outerHTML"##).await?;
            return Err(format!("{e}; the list: {list}"));
        }
        click(&page, mute_bob, "mute beside Bob's message").await?;
        wait_for(&page, &format!("!({})", has("a word from Bob")), "Bob's message hidden", 10).await?;
        // The spectators' tab reads Carol; hidden, it goes.
        click(&page, r##"document.querySelector("#talk-tab-spectators")"##, "the Spectators tab").await?;
        wait_for(&page, &has("a spectator's word"), "Carol's message in the spectators' tab", 10).await?;
        click(&page, r##"document.querySelector("#hide-spectators")"##, "hide spectators").await?;
        wait_for(&page, r##"!document.querySelector("#talk-tab-spectators")"##, "the Spectators tab gone", 10).await?;
        // A private note, saved.
        click(&page, r##"document.querySelector("#talk-tab-notes")"##, "the Notes tab").await?;
        type_into(&page, "#notes", "watch the ravine").await?;
        click(&page, r##"document.querySelector("#notes-save")"##, "Save notes").await?;
        let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
        screenshot(&page, &shots.join("talk-prefs.png")).await?;
        wait_for(&page, r##"document.querySelector("#notes-state").textContent.length > 0"##, "the notes saved", 10).await?;
        let notes = bob.get(&format!("/api/games/{id}/notes")).await?;
        if notes["text"] != "" {
            return Err(format!("Bob's notepad reads Alice's notes: {notes}"));
        }
        reload_until(&page, r##"document.body.dataset.state === "waiting" && document.querySelector("#chat-list")"##, "the game page again").await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        if eval::<bool>(&page, &has("a word from Bob")).await? {
            return Err("Bob's message is back after a reload".into());
        }
        if eval::<bool>(&page, r##"!!document.querySelector("#talk-tab-spectators")"##).await? {
            return Err("the Spectators tab is back after a reload".into());
        }
        click(&page, r##"document.querySelector("#talk-tab-notes")"##, "the Notes tab").await?;
        wait_for(&page, r##"document.querySelector("#notes").value === "watch the ravine""##, "the notes read back", 10).await?;
        Ok(())
    })
    .await;
    r.unwrap();
}

/// Issue 16 §6 in the browser: the new-game form offers a rated game and shows each level's
/// fixed rating; a rated game against the computer, resigned after the confirmation, shows the
/// player's rating before → after beside the seats; the lobby's "leaderboard" link opens the
/// game's leaderboard, whose "against the computer" pool lists the player; the profile shows
/// the rating.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_rated_game_puts_the_player_on_the_leaderboard_in_the_browser() {
    let (dir, base) = test_server().await;
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    with_page(&base, &dir.path().join("ratings"), "ratings", |page| async move {
        sign_up(&page, "rated_player").await?;
        open_new_game_form(&page).await?;
        let form: Value = eval(&page, r##"({rated: document.querySelector("#new-game-rated").checked, level: document.querySelector("#new-game-level option[value=random]").textContent})"##).await?;
        if form["rated"] != true || !form["level"].as_str().unwrap_or("").contains("rated 1000") {
            return Err(format!("the form offers {form}"));
        }
        start_against_bot(&page, "battles", Some("freemans-farm"), Some("british"), "random").await?;
        wait_for(&page, r##"document.querySelector("#game-rated .tag.rated")"##, "the game marked rated", 30).await?;
        wait_for(&page, r##"document.querySelector("#resign")"##, "the resign button", 30).await?;
        // Resign once the computer's opening moves are in (a page redrawn by them between the
        // two clicks once lost the confirmation).
        wait_my_turn(&page).await?;
        click(&page, r##"document.querySelector("#resign")"##, "Resign").await?;
        wait_for(&page, r##"document.querySelector("#resign-yes")"##, "the confirmation", 10).await?;
        click(&page, r##"document.querySelector("#resign-yes")"##, "Resign, confirmed").await?;
        wait_for(&page, r##"document.body.dataset.state === "over" && document.querySelector(".rating-change[data-side=british]")"##, "the rating change beside the seats", 30).await?;
        let change: String = eval(&page, r##"document.querySelector(".rating-change[data-side=british]").textContent"##).await?;
        if !change.starts_with("1500 → ") || change.starts_with("1500 → 1500") {
            return Err(format!("the seat shows the change {change:?}"));
        }
        for (name, w, hgt, scale, mobile) in [("ratings-game-desktop", 1366, 768, 1.0, false), ("ratings-game-phone", 390, 844, 2.0, true)] {
            page.execute(SetDeviceMetricsOverrideParams::new(w, hgt, scale, mobile)).await.map_err(|e| format!("emulation: {e}"))?;
            screenshot(&page, &shots.join(format!("{name}.png"))).await?;
        }
        page.execute(SetDeviceMetricsOverrideParams::new(1366, 768, 1.0, false)).await.map_err(|e| format!("emulation: {e}"))?;
        // From the lobby's catalogue to the leaderboard, then the pool against the computer.
        eval::<bool>(&page, r##"(location.hash = "#/", true)"##).await?;
        wait_for(&page, r##"document.querySelector("a.leaderboard-link") && document.body.dataset.state === "ready""##, "the lobby's leaderboard link", 30).await?;
        click(&page, r##"document.querySelector("a.leaderboard-link")"##, "leaderboard").await?;
        wait_for(&page, r##"document.querySelector("#leaderboard[data-pool=human]") && document.body.dataset.state === "ready""##, "the leaderboard", 30).await?;
        let empty: bool = eval(&page, r##"!document.querySelector("#leaderboard tr[data-player]")"##).await?;
        if !empty {
            return Err("a game against the computer was listed between players".into());
        }
        click(&page, r##"document.querySelector("#pool-bots")"##, "Against the computer").await?;
        wait_for(&page, r##"document.querySelector("#leaderboard[data-pool=bots] tr[data-player=rated_player]") && document.body.dataset.state === "ready""##, "the player on the bots leaderboard", 30).await?;
        let shown: Value = eval(&page, r##"(r => ({row: r.textContent, rating: r.querySelector("td.rating").textContent}))(document.querySelector("#leaderboard tr[data-player=rated_player]"))"##).await?;
        let rating = shown["rating"].as_str().unwrap_or("-");
        if !shown["row"].as_str().unwrap_or("").contains("provisional") || !change.ends_with(&format!("→ {rating}")) {
            return Err(format!("the leaderboard row reads {shown}, the game's change {change:?}"));
        }
        for (name, w, hgt, scale, mobile) in [("leaderboard-desktop", 1366, 768, 1.0, false), ("leaderboard-phone", 390, 844, 2.0, true)] {
            page.execute(SetDeviceMetricsOverrideParams::new(w, hgt, scale, mobile)).await.map_err(|e| format!("emulation: {e}"))?;
            screenshot(&page, &shots.join(format!("{name}.png"))).await?;
        }
        page.execute(SetDeviceMetricsOverrideParams::new(1366, 768, 1.0, false)).await.map_err(|e| format!("emulation: {e}"))?;
        // The profile, from the name on the leaderboard.
        click(&page, r##"document.querySelector("#leaderboard a.player-link")"##, "the player's name").await?;
        wait_for(&page, r##"document.querySelector("#profile-ratings tr[data-pool=bots]") && document.body.dataset.state === "ready""##, "the ratings on the profile", 30).await?;
        screenshot(&page, &shots.join("profile-ratings.png")).await?;
        Ok(())
    })
    .await
    .unwrap();
}

/// Supply Lines (issue 17.8): in an impulse, Pass is a target on the Pass Track and the
/// numbered button 1 (Enter), and "Concede the game" (13.4) is never key 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn supply_lines_pass_is_on_the_pass_track_and_concede_is_not_key_1() {
    let (dir, base) = test_server().await;
    let r = with_page(&base, &dir.path().join("sl-pass"), "sl-pass", |page| async move {
        sign_up(&page, "pass_player").await?;
        start_against_bot(&page, "supply-lines", Some("standard"), Some("patriot"), "random").await?;
        // Through the Supply Phase by its closing choices, over the API, until Pass is offered.
        let step = r##"(async () => {
            const id = S.page.id;
            const g = await (await fetch(`/api/games/${id}`)).json();
            const legal = g.legal || [];
            if (legal.some(l => l.action === "pass")) return "pass";
            if (!legal.length) return "wait";
            const pick = legal.find(l => /^(done|end|no-request|accept|cancel)/.test(l.action))
              || legal.find(l => !/concede|^from|^food|^war|^to /.test(l.action)) || legal[0];
            await fetch(`/api/games/${id}/act`, { method: "POST", headers: { "content-type": "application/json", "X-CSRF-Token": S.csrf }, body: JSON.stringify({ action: pick.action, version: g.version }) });
            return "acted";
        })()"##;
        let mut reached = false;
        for _ in 0..300 {
            let s: String = eval(&page, step).await?;
            if s == "pass" {
                reached = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        }
        if !reached {
            return Err("no impulse offering Pass was reached".into());
        }
        reload_until(&page, r##"document.body.dataset.state === "my-turn" && document.querySelector("#actions button.act")"##, "the impulse's buttons").await?;
        let seen: Value = eval(&page, r##"(() => {
            const buttons = [...document.querySelectorAll("#actions button.act")].filter(b => !b.closest("details"));
            const key = b => (b.querySelector("kbd") || {}).textContent || "";
            const one = buttons.find(b => key(b) === "1");
            const concede = buttons.find(b => b.dataset.action === "concede");
            return { one: one ? one.dataset.action : null, concede: concede ? key(concede) : null,
                     track: !!document.querySelector("svg [data-target='pass'][data-actions~='pass']") };
        })()"##).await?;
        screenshot(&page, &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e/sl-pass.png")).await?;
        if seen["one"] != "pass" || seen["concede"] == "1" || seen["track"] != true {
            return Err(format!("key 1, Concede's key and the Pass Track target: {seen}"));
        }
        Ok(())
    })
    .await;
    r.unwrap();
}
