//! End-to-end tests of the browser client in headless Chromium (issue 7 §3): for every game in
//! the registry, a new player signs up, starts a game against a bot, plays by clicking the
//! board (buttons only where a choice has no place on the map), sees the log and the bot's
//! reply, reloads the page and goes on. A screenshot of each board (of each game that has a
//! board renderer) goes to `docs/screenshots/<game>.png`; the other pictures (phone width,
//! lobby, rules, replay, confirmation, failures) go to the target folder.
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
    bot_replies: usize,
    log_after_reply: usize,
    undos: usize,
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
        let i = (play.decisions * 7 + 3) % targets;
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

/// Signs up on the log-in page as `name`, then waits for the lobby.
async fn sign_up(page: &Page, name: &str) -> R<()> {
    wait_for(
        page,
        r##"document.querySelector("#signup-form")"##,
        "the sign-up form",
        30,
    )
    .await?;
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
    .await?;
    let who: String = eval(page, r##"document.querySelector("#who").textContent"##).await?;
    if !who.contains(name) {
        return Err(format!("the top bar does not name the new player: {who:?}"));
    }

    Ok(())
}

async fn drive(page: &Page, game: &str, shots: &Path) -> R<Play> {
    let name = format!(
        "e2e_{}",
        game.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    );
    sign_up(page, &name[..name.len().min(24)]).await?;

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
    let scenario: String = eval(
        page,
        r##"document.querySelector("#new-game-scenario").options[0].value"##,
    )
    .await?;
    select(page, "#new-game-scenario", &scenario).await?;
    let side: String = eval(
        page,
        r##"document.querySelector("#new-game-side").options[0].value"##,
    )
    .await?;
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
        let mine = play.decisions - play.undos;
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
                        actions - 1
                    ),
                    "the undo",
                    30,
                )
                .await?;
                play.undos += 1;
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
    // A game without a board renderer has no board to show: its picture stays out of docs/.
    let picture = if has_renderer {
        repo_root().join("docs/screenshots")
    } else {
        shots.to_path_buf()
    };
    screenshot(page, &picture.join(format!("{game}.png"))).await?;

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
    Ok(())
}
