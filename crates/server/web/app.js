// Muster's browser client: plain JavaScript, no framework, no build step.
// Hash routes (docs/server.md): #/ lobby, #/login, #/new, #/game/<id>, #/join/<id>/<invite>,
// #/replay/<id>, #/rules/<game>, #/account, #/user/<name>, #/ratings/<game>/<pool>, #/forgot, #/reset/<token>. Each game draws its own board through the renderer that its
// catalogue entry names (`board_script`); see "Board renderers" in docs/server.md.
"use strict";

window.MusterBoards = window.MusterBoards || {};

const S = {
  user: null,
  csrf: "",
  catalog: null,
  boardLoads: {},
  page: null, // cleanup hooks of the current page
  routeGen: 0, // counts route() calls; see routeLive()
};

// ---------------------------------------------------------------------------------------------
// Small helpers

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "html") el.innerHTML = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Replaces an element's children, skipping null, undefined and false (which the DOM's own
// replaceChildren would print as text).
function put(el, ...kids) {
  el.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
  return el;
}

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const main = () => $("#main");

function titleCase(s) {
  return String(s || "").replace(/(^|[-_\s])([a-z])/g, (_, a, b) => (a ? " " : "") + b.toUpperCase());
}

function verbOf(action) {
  return String(action || "").split(/\s+/)[0];
}

function ago(unix) {
  const d = Math.max(0, Date.now() / 1000 - unix);
  if (d < 60) return "just now";
  if (d < 3600) return `${Math.floor(d / 60)} min ago`;
  if (d < 86400) return `${Math.floor(d / 3600)} h ago`;
  return `${Math.floor(d / 86400)} d ago`;
}

let flashTimer = null;
function flash(message, kind = "info") {
  const f = $("#flash");
  f.textContent = message;
  f.className = kind;
  f.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => (f.hidden = true), kind === "error" ? 8000 : 4000);
}

function setState(state, extra = {}) {
  document.body.dataset.state = state;
  for (const [k, v] of Object.entries(extra)) document.body.dataset[k] = String(v);
}

// ---------------------------------------------------------------------------------------------
// The API: JSON in and out, the CSRF token on every POST (docs/server.md, "Sessions and CSRF").

class ApiError extends Error {
  constructor(status, kind, message, index) {
    super(message);
    this.status = status;
    this.kind = kind;
    // In a refused batch, the index of the first action refused.
    this.index = Number.isInteger(index) ? index : null;
  }
}

async function api(method, path, body, retried = false) {
  const opts = { method, credentials: "same-origin", headers: {} };
  if (method !== "GET") {
    opts.headers["X-CSRF-Token"] = S.csrf;
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body === undefined ? {} : body);
  }
  let r;
  try {
    r = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "network", "The server cannot be reached; check your connection.");
  }
  let data = null;
  try {
    data = await r.json();
  } catch (e) {
    data = null;
  }
  if (!r.ok) {
    const err = (data && data.error) || {};
    if (err.kind === "csrf" && !retried) {
      await loadSession();
      return api(method, path, body, true);
    }
    throw new ApiError(r.status, err.kind || "http", err.message || `HTTP ${r.status}`, err.index);
  }
  return data;
}

async function loadSession() {
  const s = await api("GET", "/api/session");
  S.user = s.user;
  S.csrf = s.csrf;
  renderWho();
}

async function loadCatalog() {
  if (!S.catalog) S.catalog = await api("GET", "/api/catalog");
  return S.catalog;
}

function gameInfo(id) {
  return ((S.catalog && S.catalog.games) || []).find((g) => g.id === id) || null;
}

function scenarioName(gameId, scenarioId) {
  const g = gameInfo(gameId);
  const sc = g && g.scenarios.find((s) => s.id === scenarioId);
  return sc ? sc.name : scenarioId;
}

// Loads a game's board renderer once (the script registers window.MusterBoards[id]).
function loadRenderer(gameId) {
  if (window.MusterBoards[gameId]) return Promise.resolve(window.MusterBoards[gameId]);
  const info = gameInfo(gameId);
  if (!info || !info.board_script) return Promise.resolve(null);
  if (!S.boardLoads[gameId]) {
    S.boardLoads[gameId] = new Promise((resolve) => {
      const s = document.createElement("script");
      s.src = info.board_script;
      s.onload = () => resolve(window.MusterBoards[gameId] || null);
      s.onerror = () => resolve(null);
      document.head.append(s);
    });
  }
  return S.boardLoads[gameId];
}

// A side's label and emblem: from the renderer when it names them, generic otherwise. Sides
// are told apart by a shape and a label as well as a colour.
const GENERIC_EMBLEMS = ["●", "■", "▲", "◆"];
function sideLook(renderer, game, side) {
  const sides = (gameInfo(game) || {}).sides || [];
  const i = Math.max(0, sides.indexOf(side));
  const r = renderer && renderer.sides && renderer.sides[side];
  return {
    label: (r && r.label) || titleCase(side),
    emblem: (r && r.emblem) || GENERIC_EMBLEMS[i % GENERIC_EMBLEMS.length],
    cls: (r && r.cls) || `side-${i}`,
  };
}

function sideBadge(renderer, game, side, text) {
  if (!side) return h("span", { class: "badge" }, text || "—");
  const look = sideLook(renderer, game, side);
  return h(
    "span",
    { class: `badge side ${look.cls}`, title: look.label },
    h("span", { class: "emblem", "aria-hidden": "true" }, look.emblem),
    " ",
    text || look.label,
  );
}

// ---------------------------------------------------------------------------------------------
// Router

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  return raw.split("/").map((p) => {
    try {
      return decodeURIComponent(p);
    } catch (e) {
      return p;
    }
  });
}

// A page awaits the network before it draws. If the reader moves on meanwhile (a click, a
// typed address, a log-out that sends them to the lobby), a later route() starts; the earlier
// page must then neither draw over the later one nor leave timers or sockets behind. Each
// route() takes the next number; `routeLive()`, taken when a page starts, says whether that
// page's route is still the newest, and a page checks it after each await before it draws.
function routeLive() {
  const n = S.routeGen;
  return () => n === S.routeGen;
}

async function route() {
  const n = ++S.routeGen;
  if (S.page && S.page.cleanup) S.page.cleanup();
  S.page = null;
  for (const k of Object.keys(document.body.dataset)) delete document.body.dataset[k];
  setState("loading");
  const [page, a, b] = parseHash();
  for (const link of $$("#nav a")) {
    link.classList.toggle("current", link.getAttribute("href") === `#/${page || ""}`);
  }
  try {
    await loadCatalog();
    if (n !== S.routeGen) return;
    if (page === "" || page === undefined) await lobbyPage();
    else if (page === "login") loginPage();
    else if (page === "new") await newGamePage();
    else if (page === "game" && a) await gamePage(a);
    else if (page === "join" && a) await joinPage(a, b);
    else if (page === "replay" && a) await replayPage(a);
    else if (page === "rules" && a) await rulesPage(a);
    else if (page === "account") await accountPage();
    else if (page === "user" && a) await profilePage(a);
    else if (page === "ratings") await leaderboardPage(a, b);
    else if (page === "forgot") forgotPage();
    else if (page === "reset" && a) resetPage(a);
    else notFound();
  } catch (e) {
    if (n !== S.routeGen) return;
    main().replaceChildren(
      h("section", { class: "panel error" }, h("h2", {}, "Something went wrong"), h("p", {}, e.message)),
    );
    setState("error");
  }
}

function notFound() {
  main().replaceChildren(h("section", { class: "panel" }, h("h2", {}, "No such page"), h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
  setState("ready");
}

function needLogin() {
  if (S.user) return false;
  sessionStorage.setItem("muster-next", location.hash);
  location.hash = "#/login";
  return true;
}

function renderWho() {
  const who = $("#who");
  if (!who) return;
  if (S.user) {
    who.replaceChildren(
      h("a", { class: "user", title: "Your account: notifications", href: "#/account", id: "account-link" }, S.user.name),
      h("button", { class: "link", id: "logout", onclick: logout }, "Log out"),
    );
  } else {
    who.replaceChildren(h("a", { href: "#/login", id: "login-link" }, "Log in / Sign up"));
  }
}

async function logout() {
  try {
    await api("POST", "/api/logout");
  } catch (e) {
    flash(e.message, "error");
  }
  await loadSession();
  // Setting a new hash routes through "hashchange"; only an unchanged one needs route().
  if (location.hash === "#/") route();
  else location.hash = "#/";
}

// ---------------------------------------------------------------------------------------------
// Log-in and sign-up

function loginPage() {
  const form = (kind) => {
    const err = h("p", { class: "form-error", role: "alert" });
    const name = h("input", { name: "name", id: `${kind}-name`, autocomplete: "username", required: true, minlength: 3, maxlength: 24, pattern: "[A-Za-z0-9_\\-]+" });
    const pass = h("input", { name: "password", id: `${kind}-password`, type: "password", required: true, minlength: 8, maxlength: 200, autocomplete: kind === "signup" ? "new-password" : "current-password" });
    const submit = h("button", { type: "submit", class: "primary", id: `${kind}-submit` }, kind === "signup" ? "Create account" : "Log in");
    return h(
      "form",
      {
        class: "panel auth",
        id: `${kind}-form`,
        onsubmit: async (ev) => {
          ev.preventDefault();
          err.textContent = "";
          submit.disabled = true;
          try {
            const r = await api("POST", kind === "signup" ? "/api/signup" : "/api/login", { name: name.value.trim(), password: pass.value });
            S.user = r.user;
            if (r.csrf) S.csrf = r.csrf; // the token is rotated at log-in
            renderWho();
            const next = sessionStorage.getItem("muster-next") || "#/";
            sessionStorage.removeItem("muster-next");
            location.hash = next === "#/login" ? "#/" : next;
          } catch (e) {
            err.textContent = e.message;
          } finally {
            submit.disabled = false;
          }
        },
      },
      h("h2", {}, kind === "signup" ? "New player" : "Log in"),
      h("label", {}, "Name", name),
      kind === "signup" ? h("p", { class: "hint" }, "3 to 24 letters, digits, - or _") : null,
      h("label", {}, "Password", pass),
      kind === "signup" ? h("p", { class: "hint" }, "At least 8 characters.") : null,
      submit,
      err,
    );
  };
  const login = form("login");
  login.append(h("p", { class: "hint" }, h("a", { href: "#/forgot", id: "forgot-link" }, "Forgot your password?")));
  main().replaceChildren(h("div", { class: "auth-page" }, login, form("signup")));
  setState("ready");
}

// A form in a panel: `fields` inputs, a submit button, an error line; `send` runs on submit.
function simpleForm(id, title, fields, label, send, hint) {
  const err = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: `${id}-submit` }, label);
  return h(
    "form",
    {
      class: "panel auth",
      id: `${id}-form`,
      onsubmit: async (ev) => {
        ev.preventDefault();
        err.textContent = "";
        submit.disabled = true;
        try {
          await send();
        } catch (e) {
          err.textContent = e.message;
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("h2", {}, title),
    hint ? h("p", { class: "hint" }, hint) : null,
    fields,
    submit,
    err,
  );
}

function forgotPage() {
  const who = h("input", { id: "forgot-who", required: true, maxlength: 254, autocomplete: "username" });
  const done = h("p", { class: "hint", id: "forgot-done", role: "status" });
  const f = simpleForm(
    "forgot",
    "Forgot your password?",
    [h("label", {}, "Your name or e-mail address", who)],
    "Mail me a link",
    async () => {
      const v = who.value.trim();
      const r = await api("POST", "/api/password-reset", v.includes("@") ? { email: v } : { name: v });
      done.textContent = `${r.message[0].toUpperCase()}${r.message.slice(1)}. The link works for an hour.`;
    },
    "A link to choose a new password is mailed to the account's confirmed e-mail address.",
  );
  f.append(done);
  main().replaceChildren(h("div", { class: "auth-page" }, f));
  setState("ready");
}

function resetPage(token) {
  const pass = h("input", { id: "reset-password", type: "password", required: true, minlength: 8, maxlength: 200, autocomplete: "new-password" });
  const again = h("input", { id: "reset-again", type: "password", required: true, minlength: 8, maxlength: 200, autocomplete: "new-password" });
  const f = simpleForm(
    "reset",
    "Choose a new password",
    [h("label", {}, "New password", pass), h("label", {}, "The same again", again)],
    "Set the password",
    async () => {
      if (pass.value !== again.value) throw new Error("The two passwords differ.");
      await api("POST", "/api/password-reset/complete", { token, new: pass.value });
      await loadSession();
      flash("Password set: log in with it. Every session of the account was ended.");
      location.hash = "#/login";
    },
    "At least 8 characters. Every session of the account ends, here and elsewhere.",
  );
  main().replaceChildren(h("div", { class: "auth-page" }, f));
  setState("ready");
}

async function profilePage(name) {
  const live = routeLive();
  let p;
  try {
    p = await api("GET", `/api/users/${encodeURIComponent(name)}`);
  } catch (e) {
    if (e.status !== 404) throw e;
    if (!live()) return;
    main().replaceChildren(h("section", { class: "panel" }, h("h2", {}, "No such player"), h("p", {}, `There is no player ${name} (the account may have been deleted).`), h("a", { href: "#/" }, "Back to the lobby")));
    setState("ready");
    return;
  }
  const shown = new Set(p.games.map((g) => g.game));
  const renderers = {};
  await Promise.all([...shown].map(async (g) => (renderers[g] = await loadRenderer(g))));
  if (!live()) return;
  const results = Object.entries(p.results);
  const resultText = (g) =>
    g.status !== "finished"
      ? h("span", { class: "status" }, g.to_act ? `${titleCase(g.to_act)} to play` : "Under way")
      : h("span", { class: `status ${g.result || ""}` }, g.result ? titleCase(g.result) : "Finished");
  main().replaceChildren(
    h(
      "div",
      { class: "lobby", id: "profile" },
      h(
        "section",
        { class: "panel" },
        h("h2", {}, p.name),
        h("p", { class: "muted" }, `Playing since ${new Date(p.created * 1000).toLocaleDateString()}.`),
        results.length
          ? h(
              "table",
              { class: "games", id: "profile-results" },
              h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Won"), h("th", {}, "Lost"), h("th", {}, "Drawn"))),
              h(
                "tbody",
                {},
                results.map(([game, r]) => {
                  const info = gameInfo(game);
                  return h("tr", { dataset: { game } }, h("td", {}, info ? info.name : game), h("td", {}, String(r.won)), h("td", {}, String(r.lost)), h("td", {}, String(r.drawn)));
                }),
              ),
            )
          : h("p", { class: "muted empty" }, "No finished game yet."),
      ),
      h(
        "section",
        { class: "panel", id: "profile-ratings" },
        h("h2", {}, "Ratings"),
        (p.ratings || []).length
          ? h(
              "table",
              { class: "ratings-table" },
              h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Against"), h("th", {}, "Rating"), h("th", {}, "Deviation"), h("th", { title: "Rated games" }, "Games"))),
              h(
                "tbody",
                {},
                p.ratings.map((r) => {
                  const info = gameInfo(r.game);
                  return h(
                    "tr",
                    { dataset: { game: r.game, pool: r.pool } },
                    h("td", {}, h("a", { href: `#/ratings/${r.game}/${r.pool}` }, info ? info.name : r.game)),
                    h("td", {}, r.pool === "bots" ? "the computer" : "players"),
                    h("td", { class: "rating" }, ratingText(r)),
                    h("td", { class: "muted" }, String(Math.round(r.deviation))),
                    h("td", {}, String(r.games)),
                  );
                }),
              ),
            )
          : h("p", { class: "muted empty" }, "No rated game yet."),
      ),
      h(
        "section",
        { class: "panel", id: "profile-games" },
        h("h2", {}, "Games"),
        p.games.length
          ? h(
              "table",
              { class: "games" },
              h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Sides"), h("th", {}, "Result"), h("th", {}, "Updated"), h("th", {}, ""))),
              h(
                "tbody",
                {},
                p.games.map((g) => {
                  const info = gameInfo(g.game);
                  return h(
                    "tr",
                    { dataset: { game: g.id } },
                    h("td", {}, h("strong", {}, info ? info.name : g.game), h("br"), h("span", { class: "muted" }, scenarioName(g.game, g.scenario))),
                    h("td", {}, seatsText(renderers[g.game], g.game, g.seats, null)),
                    h("td", {}, resultText(g)),
                    h("td", { class: "muted nowrap" }, ago(g.updated)),
                    h("td", { class: "nowrap buttons" }, g.status === "finished" ? h("a", { class: "button", href: `#/replay/${g.id}` }, "Replay") : null, h("a", { class: "button", href: `#/game/${g.id}` }, g.status === "finished" ? "Open" : "Watch")),
                  );
                }),
              ),
            )
          : h("p", { class: "muted empty" }, "No games yet."),
      ),
    ),
  );
  setState("ready");
  S.page = { kind: "profile" };
}

// ---------------------------------------------------------------------------------------------
// Leaderboard (issue 16 §6): #/ratings/<game>/<pool>[?page], players by Glicko-2 rating.

async function leaderboardPage(gameId, pool) {
  const games = S.catalog.games;
  const bare = (x) => (x || "").split("?")[0];
  const game = games.find((g) => g.id === bare(gameId)) || games[0];
  if (!game) return notFound();
  pool = bare(pool) === "bots" ? "bots" : "human";
  const page = Math.max(1, Number(new URLSearchParams(location.hash.split("?")[1] || "").get("page")) || 1);
  const live = routeLive();
  const r = await api("GET", `/api/ratings/${encodeURIComponent(game.id)}?pool=${pool}&page=${page}`);
  if (!live()) return;
  const link = (g, p, n = 1) => `#/ratings/${g}/${p}${n > 1 ? `?page=${n}` : ""}`;
  const tab = (p, label) => h("a", { class: `button ${p === pool ? "primary current" : ""}`, href: link(game.id, p), id: `pool-${p}` }, label);
  main().replaceChildren(
    h(
      "section",
      { class: "panel", id: "leaderboard", dataset: { game: game.id, pool } },
      h("div", { class: "panel-head" }, h("h2", {}, `Ratings — ${game.name}`), h("span", { class: "actions" }, tab("human", "Between players"), tab("bots", "Against the computer"))),
      games.length > 1 ? h("p", { class: "game-links" }, "Game: ", games.map((g, i) => [i ? " · " : "", g.id === game.id ? h("strong", {}, g.name) : h("a", { href: link(g.id, pool) }, g.name)])) : null,
      r.players.length
        ? h(
            "table",
            { class: "ratings-table leaderboard" },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Deviation"), h("th", { title: "Rated games" }, "Games"))),
            h(
              "tbody",
              {},
              r.players.map((p) =>
                h(
                  "tr",
                  { class: p.provisional ? "provisional" : "", dataset: { player: p.player } },
                  h("td", { class: "muted" }, String(p.rank)),
                  h("td", {}, playerLink(p.player), p.provisional ? h("span", { class: "tag provisional", title: "Provisional: too few rated games, or a rating still uncertain" }, "provisional") : null),
                  h("td", { class: "rating" }, ratingText(p)),
                  h("td", { class: "muted" }, `±${Math.round(p.deviation)}`),
                  h("td", {}, String(p.games)),
                ),
              ),
            ),
          )
        : h("p", { class: "muted empty" }, page > 1 ? "No more players." : "Nobody has a rating here yet: rated games that end put their players here."),
      h(
        "p",
        { class: "hint" },
        `Glicko-2 ratings. A rating is provisional (marked ?) while it rests on fewer than ${r.provisional.games_below} rated games or its deviation is above ${r.provisional.deviation_above}. `,
        pool === "bots" ? "Games against the computer count here; each level plays at a fixed rating, measured by the bots' strength ladder: " + (S.catalog.levels || []).map((l) => `${l.id} ${Math.round(l.rating)}`).join(", ") + "." : "Rated games between two players count here; hot-seat games never do.",
      ),
      h(
        "p",
        { class: "buttons" },
        page > 1 ? h("a", { class: "button", href: link(game.id, pool, page - 1), id: "leaderboard-prev" }, "Previous page") : null,
        r.more ? h("a", { class: "button", href: link(game.id, pool, page + 1), id: "leaderboard-next" }, "Next page") : null,
      ),
    ),
  );
  setState("ready");
  S.page = { kind: "leaderboard" };
}

// ---------------------------------------------------------------------------------------------
// Lobby

function seatsText(renderer, game, seats, my) {
  return h(
    "span",
    { class: "seats" },
    seats.map((s) =>
      h(
        "span",
        { class: "seat" },
        sideBadge(renderer, game, s.side),
        " ",
        s.player ? [playerLink(s.player), s.side === my ? " (you)" : ""] : s.bot ? `bot, ${s.bot}` : h("em", {}, "open seat"),
      ),
    ),
  );
}

// A rated game's change for one seat (issue 16 §6): "1500 → 1662" (a bot's stays as it is).
function ratingChange(c) {
  if (!c) return null;
  const before = Math.round(c.before.rating);
  const after = Math.round(c.after.rating);
  const diff = after - before;
  const title = c.bot ? "The computer's fixed rating" : `Rating ${c.pool === "bots" ? "against the computer" : "against players"}: deviation ${Math.round(c.before.deviation)} → ${Math.round(c.after.deviation)}`;
  return h(
    "span",
    { class: `rating-change ${diff > 0 ? "up" : diff < 0 ? "down" : ""}`, title, dataset: { side: c.side } },
    c.bot ? `${after}` : `${before} → ${after}${c.after.provisional ? "?" : ""}`,
  );
}

// A rating as shown in tables: rounded, "?" after a provisional one.
function ratingText(r) {
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;
}

// A player's name, linking to the profile.
function playerLink(name) {
  return h("a", { class: "player-link", href: `#/user/${encodeURIComponent(name)}`, title: `${name}'s games and results` }, name);
}

function statusText(g) {
  if (g.status === "open") return h("span", { class: "status open" }, "Waiting for a player");
  if (g.status === "finished") {
    if (!g.winner) return h("span", { class: "status" }, "Finished");
    return h("span", { class: `status ${g.winner === g.my_side ? "won" : "lost"}` }, g.winner === g.my_side ? "You won" : `${titleCase(g.winner)} won`);
  }
  if (g.my_turn) return h("span", { class: "status yours" }, "Your turn");
  return h("span", { class: "status" }, g.to_act ? `${titleCase(g.to_act)} to play` : "—");
}

function gameRow(g, buttons, renderers = {}) {
  const info = gameInfo(g.game);
  return h(
    "tr",
    { class: g.my_turn ? "my-turn" : "", dataset: { game: g.id } },
    h("td", {}, h("strong", {}, info ? info.name : g.game), h("br"), h("span", { class: "muted" }, scenarioName(g.game, g.scenario)), " ", h("span", { class: `tag ${g.rated ? "rated" : "unrated"}` }, g.rated ? "rated" : "unrated")),
    h("td", {}, seatsText(renderers[g.game], g.game, g.seats, g.my_side)),
    h("td", {}, statusText(g)),
    h("td", { class: "muted nowrap" }, ago(g.updated)),
    h("td", { class: "nowrap buttons" }, buttons),
  );
}

function table(rows, empty) {
  if (!rows.length) return h("p", { class: "muted empty" }, empty);
  return h(
    "table",
    { class: "games" },
    h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Sides"), h("th", {}, "Status"), h("th", {}, "Updated"), h("th", {}, ""))),
    h("tbody", {}, rows),
  );
}

async function lobbyPage() {
  const current = routeLive();
  const [lobby, live] = await Promise.all([api("GET", "/api/lobby"), api("GET", "/api/games/live").catch(() => ({ games: [] }))]);
  const shown = new Set([...lobby.mine, ...lobby.open, ...lobby.finished, ...live.games].map((g) => g.game));
  const renderers = {};
  await Promise.all([...shown].map(async (g) => (renderers[g] = await loadRenderer(g))));
  if (!current()) return;
  const mine = lobby.mine.slice().sort((a, b) => Number(b.my_turn) - Number(a.my_turn) || b.updated - a.updated);
  const intro = S.user
    ? null
    : h("section", { class: "panel welcome" }, h("h2", {}, "Welcome to Muster"), h("p", {}, "Board wargames of the American Revolution, played in the browser against a friend or a computer opponent. ", h("a", { href: "#/login" }, "Log in or create an account"), " to start a game."));
  const games = h(
    "section",
    { class: "panel" },
    h("h2", {}, "Games in the catalogue"),
    h(
      "ul",
      { class: "catalog" },
      S.catalog.games.map((g) =>
        h("li", {}, h("strong", {}, g.name), " — ", g.scenarios.map((s) => s.name).join(", "), " · ", h("a", { href: `#/rules/${g.id}` }, "rules summary"), " · ", h("a", { href: `#/ratings/${g.id}`, class: "leaderboard-link" }, "leaderboard")),
      ),
    ),
  );
  main().replaceChildren(
    h(
      "div",
      { class: "lobby" },
      intro,
      S.user
        ? h(
            "section",
            { class: "panel", id: "my-games" },
            h(
              "div",
              { class: "panel-head" },
              h("h2", {}, "My games", turnBadge(lobby)),
              h("span", { class: "actions" }, notifyButton(), h("a", { class: "button primary", href: "#/new", id: "new-game" }, "New game")),
            ),
            table(
              mine.map((g) =>
                gameRow(g, [
                  h("a", { class: "button", href: `#/game/${g.id}` }, g.my_turn ? "Play" : "Open", g.unread ? h("span", { class: "badge", title: "Unread chat messages" }, String(g.unread)) : null),
                  g.status === "open" ? h("button", { class: "withdraw", onclick: () => withdrawGame(g.id) }, "Withdraw") : null,
                ], renderers),
              ),
              "No games yet: start one.",
            ),
          )
        : null,
      h(
        "section",
        { class: "panel", id: "open-games" },
        h("h2", {}, "Open games"),
        table(
          lobby.open.map((g) =>
            gameRow(g, [
              h("button", { onclick: () => (S.user ? join(g.id, null) : needLogin()) }, "Join"),
              h("a", { class: "button", href: `#/game/${g.id}` }, "Watch"),
            ], renderers),
          ),
          "No game is waiting for a player.",
        ),
      ),
      watchPanel(live.games, renderers),
      searchPanel(),
      S.user
        ? h(
            "section",
            { class: "panel", id: "finished-games" },
            h("h2", {}, "Finished games"),
            table(
              lobby.finished.map((g) =>
                gameRow(g, [h("a", { class: "button", href: `#/replay/${g.id}` }, "Replay"), h("a", { class: "button", href: `#/game/${g.id}` }, "Open"), h("button", { onclick: () => offerRematch(g.id) }, "Rematch")], renderers),
              ),
              "None yet.",
            ),
          )
        : null,
      games,
    ),
  );
  setState("ready");
  noticeTurns(lobby);
  const timer = setInterval(async () => {
    if (document.hidden) return;
    try {
      const [fresh, freshLive] = await Promise.all([api("GET", "/api/lobby"), api("GET", "/api/games/live").catch(() => live)]);
      noticeTurns(fresh);
      const changed = JSON.stringify(fresh) !== JSON.stringify(lobby) || JSON.stringify(freshLive) !== JSON.stringify(live);
      if (changed && S.page && S.page.kind === "lobby") lobbyPage();
    } catch (e) {
      /* the next tick tries again */
    }
  }, 10000);
  S.page = { kind: "lobby", cleanup: () => clearInterval(timer) };
}

// Seeing more (issue 16 §5): the games being played now, to watch, with how many watch them;
// and the search of finished games, which opens their replays.
function watchPanel(games, renderers) {
  const rows = games.map((g) => {
    const info = gameInfo(g.game);
    return h(
      "tr",
      { dataset: { game: g.id } },
      h("td", {}, h("strong", {}, info ? info.name : g.game), h("br"), h("span", { class: "muted" }, scenarioName(g.game, g.scenario))),
      h("td", {}, seatsText(renderers[g.game], g.game, g.seats, null)),
      h("td", {}, h("span", { class: "status" }, g.to_act ? `${titleCase(g.to_act)} to play` : "—"), h("br"), h("span", { class: "muted" }, `${g.actions} action${g.actions === 1 ? "" : "s"}`)),
      h("td", { class: "muted nowrap" }, ago(g.last_move)),
      h("td", { class: "nowrap spectators", title: "Spectators watching now" }, `👁 ${g.spectators}`),
      h("td", { class: "nowrap buttons" }, h("a", { class: "button watch", href: `#/game/${g.id}` }, "Watch")),
    );
  });
  return h(
    "section",
    { class: "panel", id: "live-games" },
    h("h2", {}, "Watch"),
    rows.length
      ? h(
          "table",
          { class: "games" },
          h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Sides"), h("th", {}, "Now"), h("th", {}, "Last move"), h("th", {}, "Watching"), h("th", {}, ""))),
          h("tbody", {}, rows),
        )
      : h("p", { class: "muted empty" }, "No game is being played right now."),
  );
}

// The search's form and its last answer, kept across the lobby's refreshes.
S.search = S.search || { game: "", scenario: "", player: "", page: 1, result: null };
function searchPanel() {
  const q = S.search;
  const results = h("div", { id: "search-results" });
  const gameSel = h("select", { id: "search-game", "aria-label": "Game" }, h("option", { value: "" }, "Any game"), S.catalog.games.map((g) => h("option", { value: g.id, selected: g.id === q.game }, g.name)));
  const scenSel = h("select", { id: "search-scenario", "aria-label": "Scenario" });
  const player = h("input", { id: "search-player", type: "search", placeholder: "Player", value: q.player, "aria-label": "Player", maxlength: 64 });
  function fillScenarios() {
    const g = gameInfo(gameSel.value);
    scenSel.replaceChildren(h("option", { value: "" }, "Any scenario"), ...(g ? g.scenarios.map((sc) => h("option", { value: sc.id, selected: sc.id === q.scenario }, sc.name)) : []));
    scenSel.disabled = !g;
  }
  gameSel.onchange = () => {
    q.scenario = "";
    fillScenarios();
  };
  fillScenarios();
  async function run(page) {
    q.game = gameSel.value;
    q.scenario = scenSel.value;
    q.player = player.value.trim();
    q.page = page;
    const params = new URLSearchParams();
    for (const k of ["game", "scenario", "player"]) if (q[k]) params.set(k, q[k]);
    params.set("page", String(page));
    try {
      q.result = await api("GET", `/api/games/finished?${params}`);
    } catch (e) {
      q.result = null;
      flash(e.message, "error");
    }
    show();
  }
  function show() {
    const r = q.result;
    if (!r) return results.replaceChildren();
    const rows = r.games.map((g) =>
      h(
        "tr",
        { dataset: { game: g.id } },
        h("td", {}, h("strong", {}, gameInfo(g.game) ? gameInfo(g.game).name : g.game), h("br"), h("span", { class: "muted" }, scenarioName(g.game, g.scenario))),
        h("td", {}, seatsText(null, g.game, g.seats, null)),
        h("td", {}, g.winner ? `${titleCase(g.winner)} won` : "Drawn", g.result !== "rules" ? h("span", { class: "muted" }, g.result === "resigned" ? " (resigned)" : " (agreed draw)") : null),
        h("td", { class: "muted nowrap" }, ago(g.ended_at)),
        h("td", { class: "nowrap buttons" }, h("a", { class: "button", href: `#/replay/${g.id}` }, "Replay")),
      ),
    );
    results.replaceChildren(
      rows.length
        ? h("table", { class: "games" }, h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Sides"), h("th", {}, "Result"), h("th", {}, "Ended"), h("th", {}, ""))), h("tbody", {}, rows))
        : h("p", { class: "muted empty" }, "No finished game matches."),
      h(
        "div",
        { class: "pager" },
        h("button", { id: "search-prev", disabled: r.page <= 1, onclick: () => run(r.page - 1) }, "◀ Newer"),
        h("span", { class: "muted" }, ` page ${r.page} `),
        h("button", { id: "search-next", disabled: !r.more, onclick: () => run(r.page + 1) }, "Older ▶"),
      ),
    );
  }
  show();
  const form = h(
    "form",
    { class: "search-form", id: "search-form", onsubmit: (ev) => { ev.preventDefault(); run(1); } },
    gameSel,
    scenSel,
    player,
    h("button", { type: "submit", class: "primary", id: "search-go" }, "Search"),
  );
  return h("section", { class: "panel", id: "search-games" }, h("h2", {}, "Finished games of everyone"), form, results);
}

async function join(id, invite) {
  try {
    await api("POST", `/api/games/${encodeURIComponent(id)}/join`, { invite: invite || null });
    location.hash = `#/game/${id}`;
  } catch (e) {
    if (e.kind === "already_seated") location.hash = `#/game/${id}`;
    else flash(e.message, "error");
  }
}

async function joinPage(id, invite) {
  if (needLogin()) return;
  main().replaceChildren(h("section", { class: "panel" }, h("p", {}, "Joining the game…")));
  await join(id, invite);
}

// ---------------------------------------------------------------------------------------------
// New game

async function newGamePage() {
  if (needLogin()) return;
  const saved = JSON.parse(localStorage.getItem("muster-new") || "{}");
  const games = S.catalog.games;
  const levels = S.catalog.levels || [];
  const gameSel = h("select", { name: "game", id: "new-game-game" }, games.map((g) => h("option", { value: g.id }, g.name)));
  const scenarioSel = h("select", { name: "scenario", id: "new-game-scenario" });
  const scenarioHelp = h("p", { class: "hint" });
  const optionsBox = h("div", { class: "options" });
  const sideSel = h("select", { name: "side", id: "new-game-side" });
  // A level's name and fixed rating (issue 18) fit the closed menu at any width; its
  // description, which would not, is the line under it.
  const levelText = (l) => `${titleCase(l.id)}${l.rating ? ` · rated ${Math.round(l.rating)}` : ""}`;
  const levelSel = h("select", { name: "level", id: "new-game-level" }, levels.map((l) => h("option", { value: l.id, title: l.description }, levelText(l))));
  const levelHint = h("p", { class: "hint level-hint", id: "new-game-level-hint" });
  const showLevel = () => {
    const l = levels.find((x) => x.id === levelSel.value);
    const what = l ? `${l.description.charAt(0).toUpperCase()}${l.description.slice(1)}.` : "";
    levelHint.textContent = l && l.rating ? `${what} Fixed rating ${Math.round(l.rating)}, measured by the bots' ladder.` : what;
  };
  levelSel.addEventListener("change", showLevel);
  const oppBot = h("input", { type: "radio", name: "opponent", value: "bot", id: "opp-bot", checked: true });
  const oppHuman = h("input", { type: "radio", name: "opponent", value: "human", id: "opp-human" });
  const oppSelf = h("input", { type: "radio", name: "opponent", value: "self", id: "opp-self" });
  const err = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "new-game-submit" }, "Start the game");
  // Rated (issue 16 §6): on by default; a hot-seat game is never rated.
  const ratedBox = h("input", { type: "checkbox", id: "new-game-rated", checked: saved.rated !== false });
  const ratedHint = h("p", { class: "hint", id: "new-game-rated-hint" });
  // Time control (issue 16 §2): none, a pace (days per move) or a clock (time and increment).
  const timeKind = h("select", { name: "time", id: "new-game-time" }, h("option", { value: "none" }, "None"), h("option", { value: "pace" }, "A pace: each move within some days"), h("option", { value: "clock" }, "A clock with an increment"));
  const paceDays = h("input", { type: "number", id: "new-game-pace-days", min: 1, max: 60, value: 3 });
  const unitSel = (id) => h("select", { id }, h("option", { value: "1" }, "minutes"), h("option", { value: "60" }, "hours"), h("option", { value: "1440" }, "days"));
  const initial = h("input", { type: "number", id: "new-game-clock-initial", min: 1, value: 7 });
  const initialUnit = unitSel("new-game-clock-initial-unit");
  const increment = h("input", { type: "number", id: "new-game-clock-increment", min: 0, value: 1 });
  const incrementUnit = unitSel("new-game-clock-increment-unit");
  initialUnit.value = "1440";
  incrementUnit.value = "1440";
  const paceBox = h("label", {}, "Days per move", paceDays);
  const clockBox = h("div", {}, h("label", {}, "Time per side", initial, initialUnit), h("label", {}, "Added after each move", increment, incrementUnit));
  const showTime = () => {
    paceBox.hidden = timeKind.value !== "pace";
    clockBox.hidden = timeKind.value !== "clock";
  };
  timeKind.addEventListener("change", showTime);
  if (saved.time && ["none", "pace", "clock"].includes(saved.time)) timeKind.value = saved.time;
  showTime();
  const timeBody = () => {
    if (timeKind.value === "pace") return { kind: "pace", days: Math.round(Number(paceDays.value)) };
    if (timeKind.value === "clock") return { kind: "clock", initial_minutes: Math.round(Number(initial.value) * Number(initialUnit.value)), increment_minutes: Math.round(Number(increment.value) * Number(incrementUnit.value)) };
    return { kind: "none" };
  };
  if (saved.game && games.some((g) => g.id === saved.game)) gameSel.value = saved.game;
  // The default opponent is a real player's level, not the random mover.
  const defaultLevel = levels.some((l) => l.id === "medium") ? "medium" : levels.length ? levels[Math.floor(levels.length / 2)].id : "";
  levelSel.value = saved.level && levels.some((l) => l.id === saved.level) ? saved.level : defaultLevel;
  showLevel();
  if (saved.opponent === "human") oppHuman.checked = true;
  if (saved.opponent === "self") oppSelf.checked = true;

  // What the form offers follows the chosen game and scenario (issue 17): an option only under
  // the scenarios it concerns, and in a solitaire scenario neither the bot's side nor a human
  // opponent (the server would refuse them).
  const soloNote = h("p", { class: "hint", id: "new-game-solo" });
  const fill = () => {
    const g = games.find((x) => x.id === gameSel.value) || games[0];
    scenarioSel.replaceChildren(...g.scenarios.map((s) => h("option", { value: s.id }, s.name)));
    if (saved.scenario && g.scenarios.some((s) => s.id === saved.scenario)) scenarioSel.value = saved.scenario;
    showScenario();
  };
  const showScenario = () => {
    const g = games.find((x) => x.id === gameSel.value) || games[0];
    const s = g.scenarios.find((x) => x.id === scenarioSel.value);
    scenarioHelp.textContent = s ? s.description : "";
    const keep = $$("select[data-option]", optionsBox).reduce((m, sel) => Object.assign(m, { [sel.dataset.option]: sel.value }), {});
    optionsBox.replaceChildren(
      ...(g.options || [])
        .filter((o) => !o.scenarios || !o.scenarios.length || (s && o.scenarios.includes(s.id)))
        .map((o) =>
          h(
            "label",
            {},
            titleCase(o.id),
            h("select", { name: `option-${o.id}`, dataset: { option: o.id } }, o.values.map((v) => h("option", { value: v, selected: keep[o.id] !== undefined ? v === keep[o.id] : v === o.default }, v))),
            h("span", { class: "hint" }, o.description),
          ),
        ),
    );
    const bot = s && s.bot_side ? s.bot_side : null;
    const wanted = sideSel.value || saved.side;
    const sides = g.sides.filter((x) => x !== bot);
    sideSel.replaceChildren(...sides.map((x) => h("option", { value: x }, titleCase(x))));
    if (wanted && sides.includes(wanted)) sideSel.value = wanted;
    oppHuman.disabled = !!bot;
    if (bot) oppBot.checked = true;
    soloNote.textContent = bot ? `A solitaire scenario: the ${titleCase(bot)} side is always played by the computer.` : "";
    soloNote.hidden = !bot;
    toggleLevel();
  };
  const toggleLevel = () => {
    levelSel.disabled = !oppBot.checked;
    levelHint.hidden = !oppBot.checked;
    ratedBox.disabled = oppSelf.checked;
    ratedHint.textContent = oppSelf.checked
      ? "A hot-seat game is never rated."
      : oppBot.checked
        ? "Counts in your rating against the computer (the level's fixed rating stays as it is)."
        : "Counts in your rating against other players.";
  };
  gameSel.addEventListener("change", fill);
  scenarioSel.addEventListener("change", showScenario);
  oppBot.addEventListener("change", toggleLevel);
  oppHuman.addEventListener("change", toggleLevel);
  oppSelf.addEventListener("change", toggleLevel);

  const form = h(
    "form",
    {
      class: "panel new-game",
      id: "new-game-form",
      onsubmit: async (ev) => {
        ev.preventDefault();
        err.textContent = "";
        submit.disabled = true;
        const options = {};
        for (const sel of $$("select[data-option]", optionsBox)) options[sel.dataset.option] = sel.value;
        const body = {
          game: gameSel.value,
          scenario: scenarioSel.value,
          options,
          side: sideSel.value,
          opponent: oppBot.checked ? "bot" : oppSelf.checked ? "self" : "human",
          level: oppBot.checked ? levelSel.value : null,
          time: timeBody(),
          rated: !oppSelf.checked && ratedBox.checked,
        };
        localStorage.setItem("muster-new", JSON.stringify({ game: body.game, scenario: body.scenario, side: body.side, opponent: body.opponent, level: levelSel.value, time: timeKind.value, rated: ratedBox.checked }));
        try {
          const r = await api("POST", "/api/games", body);
          if (r.invite) localStorage.setItem(`muster-invite-${r.id}`, r.invite);
          location.hash = `#/game/${r.id}`;
        } catch (e) {
          err.textContent = e.message;
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("h2", {}, "New game"),
    h("label", {}, "Game", gameSel),
    h("label", {}, "Scenario", scenarioSel),
    scenarioHelp,
    optionsBox,
    h("label", {}, "Your side", sideSel),
    soloNote,
    h(
      "fieldset",
      {},
      h("legend", {}, "Opponent"),
      h("label", { class: "inline" }, oppBot, " The computer"),
      levelSel,
      levelHint,
      h("label", { class: "inline" }, oppHuman, " A friend (you get an invite link to send)"),
      h("label", { class: "inline" }, oppSelf, " Play both sides yourself (hot-seat)"),
    ),
    h("fieldset", {}, h("legend", {}, "Rating"), h("label", { class: "inline" }, ratedBox, " Rated game"), ratedHint),
    h("fieldset", {}, h("legend", {}, "Time control"), timeKind, paceBox, clockBox, h("p", { class: "hint" }, "A player whose time runs out loses. The clock stops while the computer decides and during a vacation.")),
    submit,
    err,
  );
  fill();
  toggleLevel();
  main().replaceChildren(form);
  setState("ready");
}

// ---------------------------------------------------------------------------------------------
// The log: plain words with rule sections, dice shown, filterable.

function diceText(text) {
  // Dice numbers after "roll", "rolls" or "rolled" are drawn as dice faces; a number of dice
  // ("rolls 3 dice: ⚄ ⚅ ⚀", the games' own faces) is a count, not a roll.
  const out = [];
  const re = /(\brolls?|\brolled)(\s+)(\d)\b(?!\s+(?:dice|die|battle)\b)(?:(\s+and\s+)(\d)\b)?/gi;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    out.push(text.slice(last, m.index), m[1], m[2], die(m[3]));
    if (m[4]) out.push(m[4], die(m[5]));
    last = re.lastIndex;
  }
  out.push(text.slice(last));
  return out;
}

function die(n) {
  const faces = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  return h("span", { class: "die", title: `die: ${n}`, "aria-label": `die ${n}` }, h("span", { class: "pips", "aria-hidden": "true" }, faces[Number(n) - 1] || ""), n);
}

function logView(opts) {
  // opts: { renderer, onSection(section) }. Returns { el, update(entries, upto?) }.
  const filter = { text: "", section: "", dice: false };
  const text = h("input", { type: "search", placeholder: "Filter the log", "aria-label": "Filter the log", id: "log-filter" });
  const section = h("select", { "aria-label": "Rule section", id: "log-section" }, h("option", { value: "" }, "All sections"));
  const dice = h("input", { type: "checkbox", id: "log-dice" });
  const list = h("ol", { class: "log", id: "log" });
  const el = h("div", { class: "log-box" }, h("div", { class: "log-filters" }, text, section, h("label", { class: "inline" }, dice, " dice")), list);
  let entries = [];
  let seen = 0;
  let mark = null;
  let recent = null; // { from, step: [a, b) }: entries since the viewer's last decision (issue 17)
  // The newest entries stay in view (issue 17): while the reader is at the bottom, new entries
  // and a list that changes size (the sidebar's panels grow and shrink) keep it there.
  let atBottom = true;
  list.addEventListener("scroll", () => (atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40));
  if (window.ResizeObserver) new ResizeObserver(() => atBottom && mark === null && !(recent && recent.step) && (list.scrollTop = list.scrollHeight)).observe(list);
  const apply = () => {
    const stick = atBottom;
    list.replaceChildren();
    // Consecutive entries that read the same (a group of like counters moving together, each
    // its own decision and entry) show as one line with a count (issue 17); rolls stay apart.
    let prev = null;
    entries.forEach((e, i) => {
      // An entry that starts a turn (or a player's half of it) heads the entries after it.
      const t = opts.renderer && opts.renderer.turnOf ? opts.renderer.turnOf(e) : null;
      const head = t !== null && t !== undefined;
      const top = String(e.section || "").split(".")[0];
      if (filter.section && top !== filter.section) return;
      if (filter.dice && !e.chance) return;
      if (filter.text && !`${e.text} §${e.section}`.toLowerCase().includes(filter.text)) return;
      const classes = ["entry", head ? "turn-head" : "", e.chance ? "chance" : "", !opts.still && i >= seen && seen > 0 ? "fresh" : "", mark === i ? "current" : "", recent && i >= recent.from ? "recent" : "", recent && recent.step && i >= recent.step[0] && i < recent.step[1] ? "step" : "", e.audience && e.audience !== "all" ? "private" : ""].filter(Boolean);
      if (prev && !e.chance && !head && prev.e.text === e.text && prev.e.section === e.section && (prev.e.audience || "all") === (e.audience || "all")) {
        prev.n += 1;
        prev.count.textContent = ` ×${prev.n}`;
        prev.li.classList.add(...classes);
        return;
      }
      const count = h("span", { class: "times" });
      const li = h(
        "li",
        { class: classes.join(" "), dataset: { index: i } },
        e.section ? h("button", { class: "sec", title: "Show this rule", onclick: () => opts.onSection && opts.onSection(e.section) }, `§${e.section}`) : null,
        h("span", { class: "text" }, e.chance ? diceText(e.text) : e.text),
        count,
        e.audience && e.audience !== "all" ? h("span", { class: "lock", title: "Only you see this" }, " (private)") : null,
      );
      list.append(li);
      prev = { e, li, n: 1, count };
    });
    if (!list.children.length) list.append(h("li", { class: "muted empty" }, entries.length ? "Nothing matches the filter." : "Nothing has happened yet."));
    const stepped = recent && recent.step ? $(".step", list) : null;
    if (stepped) stepped.scrollIntoView({ block: "nearest" });
    else if (mark !== null) {
      const cur = $(".current", list);
      if (cur) cur.scrollIntoView({ block: "nearest" });
    } else if (stick) list.scrollTop = list.scrollHeight;
  };
  text.addEventListener("input", () => {
    filter.text = text.value.trim().toLowerCase();
    apply();
  });
  section.addEventListener("change", () => {
    filter.section = section.value;
    apply();
  });
  dice.addEventListener("change", () => {
    filter.dice = dice.checked;
    apply();
  });
  return {
    el,
    update(next, current = null, since = null) {
      const first = entries.length === 0;
      seen = first ? next.length : entries.length;
      entries = next;
      mark = current;
      recent = since;
      const tops = Array.from(new Set(next.map((e) => String(e.section || "").split(".")[0]).filter(Boolean))).sort((a, b) => Number(a) - Number(b));
      const keep = section.value;
      section.replaceChildren(h("option", { value: "" }, "All sections"), ...tops.map((t) => h("option", { value: t }, `§${t}`)));
      section.value = tops.includes(keep) ? keep : "";
      apply();
      if (first) list.scrollTop = list.scrollHeight;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Rules panel

function rulesView(renderer, gameId) {
  const info = gameInfo(gameId);
  if (!renderer || !renderer.rules || !renderer.rules.length) {
    return h("div", { class: "rules" }, h("p", { class: "muted" }, `No rules summary for ${info ? info.name : gameId} yet.`));
  }
  return h(
    "div",
    { class: "rules" },
    renderer.rules.map((r) =>
      h(
        "section",
        { class: `rule depth-${String(r.section).split(".").length}`, id: `rule-${r.section}`, dataset: { section: r.section } },
        h("h3", {}, h("span", { class: "secno" }, `§${r.section}`), " ", r.title),
        (Array.isArray(r.text) ? r.text : [r.text]).map((p) => h("p", {}, p)),
      ),
    ),
  );
}

function showRule(container, section) {
  let s = String(section);
  while (s) {
    const el = container.querySelector(`[data-section="${CSS.escape(s)}"]`);
    if (el) {
      $$(".rule.flash", container).forEach((x) => x.classList.remove("flash"));
      el.classList.add("flash");
      el.scrollIntoView({ block: "start" });
      return true;
    }
    s = s.includes(".") ? s.slice(0, s.lastIndexOf(".")) : "";
  }
  return false;
}

async function rulesPage(gameId) {
  const info = gameInfo(gameId);
  if (!info) return notFound();
  const live = routeLive();
  const renderer = await loadRenderer(gameId);
  if (!live()) return;
  const rules = rulesView(renderer, gameId);
  main().replaceChildren(
    h(
      "section",
      { class: "panel rules-page" },
      h("h2", {}, `${info.name}: rules summary`),
      h("p", { class: "muted" }, "A summary in Muster's own words, by section; the printed rulebook is the authority. Section numbers are those Muster uses in prompts and in the log."),
      renderer && renderer.rules
        ? h("nav", { class: "toc" }, renderer.rules.filter((r) => !String(r.section).includes(".")).map((r) => h("a", { href: `#/rules/${gameId}`, onclick: (ev) => (ev.preventDefault(), showRule(rules, r.section)) }, `§${r.section} ${r.title}`)))
        : null,
      rules,
    ),
  );
  setState("ready");
}

// ---------------------------------------------------------------------------------------------
// The game page

const ENTER_FALLBACK = ["end", "pass", "done", "commit", "confirm"];
const MAX_ZOOM = 6;
const COUNTER_PX = 26; // the smallest counter on a phone at the opening zoom, in CSS pixels

// The rows of a renderer's tracks panel (turn, VP, phase...) for one position of a game.
function drawTracks(tracks, renderer, board, game) {
  const rows = renderer && renderer.tracks && board && game.view ? renderer.tracks(board, game) : [];
  tracks.replaceChildren(
    ...rows.map((r) =>
      h(
        "div",
        { class: "track-row" },
        h("span", { class: "track-label" }, r.side ? sideBadge(renderer, game.game, r.side, r.label) : r.label),
        r.max ? h("span", { class: "track" }, Array.from({ length: r.max }, (_, i) => h("span", { class: ["cell", i + 1 === r.value ? "on" : "", i + 1 < r.value ? "past" : "", r.goal === i + 1 ? "goal" : ""].join(" "), title: String(i + 1) }, String(i + 1)))) : null,
        h("span", { class: "track-value" }, r.text !== undefined ? r.text : String(r.value)),
      ),
    ),
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Marks of what just happened on a board (issue 17), given to renderers as `ui.recentDiff` and
// `ui.drawRecent` (docs/server.md, "Board renderers").

// Compares a sequence of positions. Each is a list of pieces { id, x, y, place, on (on the
// map), down (how far reduced, broken or wounded), fight (engaged), label }. Returns the paths
// of moved pieces (through every place they stood in), the marks of fights, losses, removals
// and arrivals, and notes counting them.
function recentDiff(snapshots) {
  const out = { paths: [], marks: [], notes: [] };
  if (!snapshots || snapshots.length < 2) return out;
  const first = new Map(snapshots[0].map((p) => [p.id, p]));
  const last = new Map(snapshots[snapshots.length - 1].map((p) => [p.id, p]));
  const count = { moved: 0, arrived: 0, fight: 0, loss: 0, gone: 0 };
  const fights = new Set();
  for (const [id, now] of last) {
    const was = first.get(id);
    const trail = [];
    for (const snap of snapshots) {
      const p = snap.find((q) => q.id === id);
      if (p && p.on && (!trail.length || trail[trail.length - 1].place !== p.place)) trail.push(p);
    }
    const label = now.label || id;
    if (was && was.on && now.on && trail.length > 1) {
      out.paths.push({ points: trail.map((p) => [p.x, p.y]), side: now.side, title: `${label}: ${trail.map((p) => p.placeName || p.place).join(" → ")}` });
      out.marks.push({ kind: "moved", x: now.x, y: now.y, title: `${label} moved` });
      count.moved += 1;
    } else if (now.on && (!was || !was.on)) {
      if (trail.length > 1) out.paths.push({ points: trail.map((p) => [p.x, p.y]), side: now.side, title: label });
      out.marks.push({ kind: "arrived", x: now.x, y: now.y, title: `${label} arrived` });
      count.arrived += 1;
    }
    if (was && was.on && !now.on) {
      const at = trail.length ? trail[trail.length - 1] : was;
      out.marks.push({ kind: "gone", x: at.x, y: at.y, title: `${label}: off the map` });
      count.gone += 1;
    } else if (was && (now.down || 0) > (was.down || 0)) {
      out.marks.push({ kind: "loss", x: now.x, y: now.y, title: `${label}: a loss` });
      count.loss += 1;
    }
    const fought = snapshots.some((snap, k) => k > 0 && snap.some((q) => q.id === id && q.fight)) && !(was && was.fight);
    if (fought && now.on && !fights.has(now.place)) {
      fights.add(now.place);
      out.marks.push({ kind: "fight", x: now.x, y: now.y, title: `Fight at ${now.placeName || now.place}` });
      count.fight += 1;
    }
  }
  const words = { moved: ["moved", "moved"], arrived: ["arrived", "arrived"], fight: ["fight", "fights"], loss: ["loss", "losses"], gone: ["off the map", "off the map"] };
  for (const [k, n] of Object.entries(count)) if (n) out.notes.push(`${n} ${words[k][n > 1 ? 1 : 0]}`);
  return out;
}

// The renderer's one-call form: `markRecent(root, piecesOf, unit)` maps each view of the steps
// shown to pieces, draws the marks into `root` and returns the notes ([] when nothing is shown).
function markRecentOf(recent) {
  return (root, piecesOf, unit) => {
    if (!recent || !recent.views || recent.views.length < 2) return [];
    const diff = recentDiff(recent.views.map((v) => piecesOf(v || {})));
    root.append(drawRecent(diff, unit));
    return diff.notes;
  };
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const k of kids.flat()) if (k !== null && k !== undefined) el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return el;
}

// Draws { paths, marks } (as recentDiff gives them) for a board whose counters measure `unit`
// SVG units: trails with an arrow, a ring per moved or arrived piece, crossed swords for a fight,
// a red badge for a loss and a cross for a piece taken off. Every mark has `data-recent`.
function drawRecent(diff, unit) {
  const u = unit || 30;
  const g = svgEl("g", { class: "recent-marks", "pointer-events": "none" });
  const ink = "#e65c00";
  g.append(svgEl("defs", {}, svgEl("marker", { id: "recent-arrow", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, svgEl("path", { d: "M0 0 L10 5 L0 10 Z", fill: ink }))));
  for (const p of diff.paths || []) {
    const d = "M" + p.points.map((q) => `${q[0].toFixed(1)} ${q[1].toFixed(1)}`).join(" L");
    g.append(
      svgEl(
        "g",
        { "data-recent": "path" },
        svgEl("title", {}, p.title || "moved"),
        svgEl("path", { d, fill: "none", stroke: "#fff", "stroke-width": u * 0.2, "stroke-linecap": "round", "stroke-linejoin": "round", opacity: 0.8 }),
        svgEl("path", { d, fill: "none", stroke: ink, "stroke-width": u * 0.1, "stroke-dasharray": `${u * 0.3} ${u * 0.15}`, "stroke-linecap": "round", "stroke-linejoin": "round", "marker-end": "url(#recent-arrow)" }),
        svgEl("circle", { cx: p.points[0][0], cy: p.points[0][1], r: u * 0.16, fill: "#fff", stroke: ink, "stroke-width": u * 0.07 }),
      ),
    );
  }
  for (const m of diff.marks || []) {
    const t = svgEl("title", {}, m.title || m.kind);
    const at = { "data-recent": m.kind, transform: `translate(${m.x.toFixed(1)},${m.y.toFixed(1)})` };
    if (m.kind === "moved" || m.kind === "arrived") {
      g.append(svgEl("g", at, t, svgEl("circle", { r: u * 0.78, fill: "none", stroke: m.kind === "moved" ? ink : "#2f8f2f", "stroke-width": u * 0.09, "stroke-dasharray": m.kind === "arrived" ? `${u * 0.2} ${u * 0.1}` : null })));
    } else if (m.kind === "fight") {
      g.append(svgEl("g", at, t, svgEl("circle", { r: u * 0.95, fill: "none", stroke: "#c00000", "stroke-width": u * 0.1 }), svgEl("g", { transform: `translate(${-u * 0.7},${-u * 0.7})` }, svgEl("circle", { r: u * 0.3, fill: "#c00000", stroke: "#fff", "stroke-width": u * 0.05 }), svgEl("text", { y: u * 0.13, "text-anchor": "middle", fill: "#fff", style: `font: 700 ${(u * 0.36).toFixed(1)}px sans-serif` }, "⚔"))));
    } else if (m.kind === "loss") {
      g.append(svgEl("g", at, t, svgEl("g", { transform: `translate(${u * 0.55},${u * 0.55})` }, svgEl("rect", { x: -u * 0.32, y: -u * 0.2, width: u * 0.64, height: u * 0.4, rx: u * 0.1, fill: "#c00000", stroke: "#fff", "stroke-width": u * 0.05 }), svgEl("text", { y: u * 0.12, "text-anchor": "middle", fill: "#fff", style: `font: 700 ${(u * 0.3).toFixed(1)}px sans-serif` }, "−1"))));
    } else if (m.kind === "gone") {
      const a = u * 0.45;
      g.append(svgEl("g", at, t, svgEl("path", { d: `M${-a} ${-a} L${a} ${a} M${a} ${-a} L${-a} ${a}`, stroke: "#fff", "stroke-width": u * 0.24, "stroke-linecap": "round" }), svgEl("path", { d: `M${-a} ${-a} L${a} ${a} M${a} ${-a} L${-a} ${a}`, stroke: "#c00000", "stroke-width": u * 0.13, "stroke-linecap": "round" })));
    } else {
      g.append(svgEl("g", at, t, svgEl("circle", { r: u * 0.8, fill: "none", stroke: m.colour || ink, "stroke-width": u * 0.09, "stroke-dasharray": `${u * 0.25} ${u * 0.12}` })));
    }
  }
  return g;
}

// The tracks panel folds away (issue 17), remembered across games.
function tracksPanel(tracks) {
  const box = h("details", { class: "tracks-box", id: "tracks-box", open: localStorage.getItem("muster-tracks") !== "closed" }, h("summary", {}, "Tracks"), tracks);
  box.addEventListener("toggle", () => localStorage.setItem("muster-tracks", box.open ? "open" : "closed"));
  return box;
}

// Two fingers on the board zoom it (a phone's pinch); one finger still scrolls it. `zoom()`
// reads the zoom, `set(z, cx, cy)` applies one keeping the point between the fingers in place,
// `done()` runs when the fingers lift. Returns the function that removes the listeners.
function pinchZoom(el, zoom, set, done) {
  let start = null;
  const dist = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  const mid = (t) => {
    const r = el.getBoundingClientRect();
    return [(t[0].clientX + t[1].clientX) / 2 - r.left, (t[0].clientY + t[1].clientY) / 2 - r.top];
  };
  const onStart = (ev) => {
    if (ev.touches.length === 2) start = { d: dist(ev.touches) || 1, z: zoom() };
  };
  const onMove = (ev) => {
    if (!start || ev.touches.length !== 2) return;
    ev.preventDefault();
    const [cx, cy] = mid(ev.touches);
    set((start.z * dist(ev.touches)) / start.d, cx, cy);
  };
  const onEnd = (ev) => {
    if (start && ev.touches.length < 2) {
      start = null;
      done();
    }
  };
  el.addEventListener("touchstart", onStart, { passive: true });
  el.addEventListener("touchmove", onMove, { passive: false });
  el.addEventListener("touchend", onEnd);
  el.addEventListener("touchcancel", onEnd);
  return () => {
    el.removeEventListener("touchstart", onStart);
    el.removeEventListener("touchmove", onMove);
    el.removeEventListener("touchend", onEnd);
    el.removeEventListener("touchcancel", onEnd);
  };
}

// A game answer may carry only the log entries after the first `log_start`: joined to the
// entries already held (docs/server.md, "The game socket").
function mergeLog(held, g) {
  const start = g.log_start || 0;
  g.log = (held || []).slice(0, start).concat(g.log || []);
  delete g.log_start;
  return g;
}

// RFC 6902 JSON Patch, applied to a copy of `doc` (the socket's `view_patch`).
function applyPatch(doc, ops) {
  let root = structuredClone(doc);
  const path = (p) => p.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const get = (keys) => keys.reduce((o, k) => (o == null ? o : o[Array.isArray(o) ? Number(k) : k]), root);
  const put = (keys, value, insert) => {
    if (!keys.length) return (root = value);
    const parent = get(keys.slice(0, -1));
    const k = keys[keys.length - 1];
    if (Array.isArray(parent)) {
      const i = k === "-" ? parent.length : Number(k);
      if (insert) parent.splice(i, 0, value);
      else parent[i] = value;
    } else parent[k] = value;
  };
  const remove = (keys) => {
    const parent = get(keys.slice(0, -1));
    const k = keys[keys.length - 1];
    const old = Array.isArray(parent) ? parent.splice(Number(k), 1)[0] : parent[k];
    if (!Array.isArray(parent)) delete parent[k];
    return old;
  };
  for (const op of ops) {
    const keys = path(op.path);
    if (op.op === "add") put(keys, op.value, true);
    else if (op.op === "replace") put(keys, op.value, false);
    else if (op.op === "remove") remove(keys);
    else if (op.op === "move") put(keys, remove(path(op.from)), true);
    else if (op.op === "copy") put(keys, structuredClone(get(path(op.from))), true);
  }
  return root;
}

async function gamePage(id) {
  const live = routeLive();
  const eid = encodeURIComponent(id);
  let [game, board] = await Promise.all([api("GET", `/api/games/${eid}`), api("GET", `/api/games/${eid}/board`).catch(() => null)]);
  game = mergeLog([], game);
  const renderer = await loadRenderer(game.game);
  if (!live()) return;
  const info = gameInfo(game.game);
  const P = { kind: "game", id, game, board, renderer, busy: false, pending: null, ws: null, closed: false, retry: 0, timer: null, zoom: 1 };

  // Layout
  const prompt = h("div", { class: "prompt", id: "prompt" });
  const actions = h("div", { class: "actions", id: "actions" });
  const confirmBar = h("div", { class: "confirm", id: "confirm", hidden: true });
  const draftBar = h("div", { class: "draft", id: "draft", hidden: true });
  const boardBox = h("div", { class: "board", id: "board" });
  const boardWrap = h("div", { class: "board-wrap" }, boardBox);
  const zoom = h(
    "div",
    { class: "zoom", id: "zoom" },
    h("button", { title: "Zoom out", "aria-label": "Zoom out", onclick: () => setZoom(P.zoom / 1.25) }, "−"),
    h("button", { title: "Fit", "aria-label": "Fit the board", onclick: () => setZoom(1) }, "Fit"),
    h("button", { title: "Zoom in", "aria-label": "Zoom in", onclick: () => setZoom(P.zoom * 1.25) }, "+"),
  );
  const banner = h("div", { class: "banner", id: "banner", hidden: true });
  const seats = h("div", { class: "seats-panel", id: "seats" });
  // On a narrow screen the seats are below the board: the clocks are repeated in the pinned
  // prompt bar, so that a player sees their time without scrolling (issue 16 §2).
  const clockBar = h("div", { class: "clock-bar", id: "clock-bar", hidden: true, "aria-label": "Time left" });
  const tracks = h("div", { class: "tracks", id: "tracks" });
  const tracksBox = tracksPanel(tracks);
  const recentBox = h("section", { class: "recent", id: "recent", hidden: true, "aria-label": "What happened since your last decision" });
  const latest = h("div", { class: "latest", id: "latest", hidden: true });
  // The game's history (issue 16 §5): earlier positions, as this viewer may see them, read-only.
  const histBar = h("div", { class: "history-bar", id: "history" });
  const log = logView({ renderer, onSection: (s) => openRules(s) });
  const rules = rulesView(renderer, game.game);
  const talk = talkPanel({ id, game: () => P.game, onGame: (g) => ((P.game = mergeLog([], g)), render()), renderer });
  const tabLog = h("button", { class: "tab current", id: "tab-log", onclick: () => tab("log") }, "Log");
  const tabRules = h("button", { class: "tab", id: "tab-rules", onclick: () => tab("rules") }, "Rules");
  const tabKeys = h("button", { class: "tab", id: "tab-keys", onclick: () => tab("keys") }, "Keys");
  const logPane = h("div", { class: "pane", id: "pane-log" }, log.el);
  const rulesPane = h("div", { class: "pane", id: "pane-rules", hidden: true }, rules);
  const keysPane = h("div", { class: "pane", id: "pane-keys", hidden: true });
  const conn = h("span", { class: "conn", id: "conn", title: "Live updates" }, "●");
  // The hint sits in the prompt bar, where the pinned bar cannot cover it (issue 17).
  const title = h("div", { class: "game-title" }, h("strong", {}, info ? info.name : game.game), " · ", scenarioName(game.game, game.scenario), " ", conn, renderer ? h("span", { class: "board-hint", id: "board-hint" }, "Click a highlighted place or counter on the map to act.") : null);

  main().replaceChildren(
    h(
      "div",
      { class: "game-page" },
      h("section", { class: "play" }, h("div", { class: "promptbar", id: "promptbar" }, title, clockBar, prompt, actions, draftBar, confirmBar, latest), banner, h("div", { class: "board-area" }, renderer ? zoom : null, boardWrap)),
      h("aside", { class: "sidebar" }, seats, histBar, tracksBox, recentBox, h("div", { class: "tabs", role: "tablist" }, tabLog, tabRules, tabKeys), logPane, rulesPane, keysPane, talk.el),
    ),
  );

  function tab(which) {
    for (const [b, p, n] of [[tabLog, logPane, "log"], [tabRules, rulesPane, "rules"], [tabKeys, keysPane, "keys"]]) {
      b.classList.toggle("current", n === which);
      p.hidden = n !== which;
    }
  }
  function openRules(section) {
    tab("rules");
    showRule(rulesPane, section);
  }
  function setZoom(z) {
    P.userZoom = true;
    applyZoom(z);
    render();
  }
  // The board's width as a multiple of its frame's, keeping the point at (cx, cy) of the
  // frame (its centre by default) where it was.
  function applyZoom(z, cx = boardWrap.clientWidth / 2, cy = boardWrap.clientHeight / 2) {
    const old = P.zoom;
    P.zoom = Math.min(MAX_ZOOM, Math.max(1, z));
    const k = P.zoom / old;
    const x = boardWrap.scrollLeft + cx;
    const y = boardWrap.scrollTop + cy;
    boardBox.style.width = `${P.zoom * 100}%`;
    boardWrap.scrollLeft = x * k - cx;
    boardWrap.scrollTop = y * k - cy;
  }
  const stopPinch = pinchZoom(boardWrap, () => P.zoom, (z, cx, cy) => {
    P.userZoom = true;
    applyZoom(z, cx, cy);
  }, () => render());

  const myTurn = () => P.game.status === "active" && P.game.my_side && P.game.to_act === P.game.my_side && P.game.legal.length > 0;
  // The game as the player is shown it: with a draft (see "Batches"), the position after it.
  const G = () => (P.draft ? P.draft.game : P.game);

  // An action that cannot be taken back (it rolls dice, draws or reveals, or hands play
  // over): the server marks them (`irreversible`, from the engine: docs/server.md); only a
  // server that sends no marks leaves it to the renderer's verbs.
  function irreversible(action) {
    if (Array.isArray(G().irreversible)) return G().irreversible.includes(action);
    const list = (renderer && renderer.irreversible) || [];
    return list.includes(verbOf(action));
  }
  function labelOf(action) {
    const l = G().legal.find((x) => x.action === action);
    return l ? l.label : action;
  }

  // Acting: irreversible actions wait for a confirmation first. `list` holds action strings
  // and groups `{label, actions}`: the same decision for identical counters, one action per
  // counter, shown as one entry "3 × label" and sent as one batch (see "Batches" below).
  async function choose(list, ev) {
    if (!myTurn() || P.busy || P.fitting) return;
    const some = wantsSome(ev);
    const entries = batchEntries(list);
    if (!entries.length) return;
    const version = P.game.version;
    P.fitting = true;
    try {
      await fitEntries(entries);
    } finally {
      P.fitting = false;
    }
    if (P.game.version !== version || !myTurn() || P.busy) return;
    if (entries.length === 1) {
      const e = entries[0];
      if (e.actions.length > 1 && some) return askCount(e, ev);
      return requestEntry(e);
    }
    // Several choices on one target: a small menu.
    closeMenu();
    const menu = h(
      "div",
      { class: "menu", id: "target-menu", role: "menu" },
      entries.map((e, i) =>
        h(
          "button",
          {
            role: "menuitem",
            dataset: { action: e.actions[0], count: e.actions.length },
            title: e.actions.length > 1 ? "Shift-click or hold to choose how many" : null,
            onclick: (cev) => {
              const part = wantsSome(cev);
              closeMenu();
              if (part && e.actions.length > 1) askCount(e, cev);
              else requestEntry(e);
            },
          },
          `${i + 1}. ${entryLabel(e)}`,
        ),
      ),
      h("button", { class: "cancel", onclick: closeMenu }, "Cancel"),
    );
    placeMenu(menu, ev);
    holdable(menu);
    P.menu = { el: menu, list: entries };
  }
  function placeMenu(menu, ev) {
    document.body.append(menu);
    const x = ev && ev.clientX !== undefined ? ev.clientX : window.innerWidth / 2;
    const y = ev && ev.clientY !== undefined ? ev.clientY : window.innerHeight / 2;
    menu.style.left = `${Math.max(4, Math.min(x, window.innerWidth - menu.offsetWidth - 8))}px`;
    menu.style.top = `${Math.max(4, Math.min(y, window.innerHeight - menu.offsetHeight - 8))}px`;
  }
  function closeMenu() {
    if (P.menu) P.menu.el.remove();
    P.menu = null;
  }
  function request(action) {
    requestEntry({ actions: [action], label: labelOf(action) });
  }
  function renderConfirm() {
    if (!P.pending) {
      confirmBar.hidden = true;
      confirmBar.replaceChildren();
      return;
    }
    confirmBar.hidden = false;
    confirmBar.replaceChildren(
      h("span", { class: "confirm-text" }, h("strong", {}, pendingLabel(P.pending)), " — this cannot be taken back."),
      h("button", { class: "primary", id: "confirm-yes", onclick: () => { const a = P.pending; P.pending = null; renderConfirm(); send(a); } }, "Confirm ", h("kbd", {}, "Enter")),
      h("button", { id: "confirm-no", onclick: () => { P.pending = null; renderConfirm(); } }, "Cancel ", h("kbd", {}, "Esc")),
    );
    $("#confirm-yes").focus();
  }
  // -------------------------------------------------------------------------------------------
  // Batches (issue 17): several decisions of the rules in one gesture, sent as one change
  // (docs/server.md, "Playing"). A group `{label, actions}` is the same decision for identical
  // counters: a click takes them all, shift-click or a long press (touch) asks how many.
  // Undoable actions are grouped; one that cannot be taken back is never grouped (each is
  // confirmed and sent alone), as only the last action of a batch may roll dice or hand over.
  function batchEntries(list) {
    const legal = (a) => G().legal.some((l) => l.action === a);
    const out = [];
    const seen = new Set();
    for (const item of list) {
      if (typeof item === "string") {
        if (legal(item) && !seen.has(item)) out.push({ actions: [item], label: labelOf(item) });
        seen.add(item);
        continue;
      }
      const acts = (item.actions || []).filter((a) => legal(a) && !seen.has(a));
      acts.forEach((a) => seen.add(a));
      if (!acts.length) continue;
      if (acts.some(irreversible)) acts.forEach((a) => out.push({ actions: [a], label: labelOf(a) }));
      else out.push({ actions: acts, label: item.label || labelOf(acts[0]) });
    }
    return out;
  }
  // A group of identical counters may hold more than the rules let go together: each action
  // is legal now, but taking some closes the choice for the rest (Bunker Hill's landings take
  // counters up to the zone's transport number, 6.10). Each such group is cut, before it is
  // shown or sent, to the actions the rules accept in turn, as `preview` finds them; a group
  // the rules accept whole (or that ends on an action preview will not show) stays as it is.
  async function fitEntries(entries) {
    const base = P.draft ? P.draft.actions : [];
    for (const e of entries) {
      if (e.actions.length < 2) continue;
      try {
        await preview(base.concat(e.actions));
      } catch (err) {
        const cut = err.index === null ? -1 : err.index - base.length;
        if (err.kind !== "not_previewable" && cut >= 1 && cut < e.actions.length) e.actions = e.actions.slice(0, cut);
      }
    }
  }
  function entryLabel(e) {
    return e.actions.length > 1 ? `${e.actions.length} × ${e.label}` : e.label;
  }
  function pendingLabel(p) {
    return typeof p === "string" ? labelOf(p) : entryLabel(p);
  }
  function pendingLegal(p) {
    if (typeof p === "string") return G().legal.some((l) => l.action === p);
    return !!p.composed || p.actions.every((a) => G().legal.some((l) => l.action === a));
  }
  function requestEntry(e) {
    if (P.draft) {
      // A choice made on a draft goes with it: the draft's actions first, one batch.
      const d = P.draft;
      e = Object.assign({}, e, { actions: d.actions.concat(e.actions), label: `${d.label}: ${entryLabel(e)}`, composed: true, confirm: e.confirm !== undefined ? e.confirm : e.actions.some(irreversible) });
    }
    const last = e.actions[e.actions.length - 1];
    const confirm = e.confirm !== undefined ? e.confirm : e.actions.some(irreversible) || irreversible(last);
    const what = e.actions.length === 1 && !e.composed ? e.actions[0] : e;
    if (confirm) {
      P.pending = what;
      renderConfirm();
    } else send(what);
  }
  // A batch a board composed itself (each action legal in the position the ones before it
  // leave, which it may have checked with `preview`): `opts.label` names it, `opts.confirm`
  // says its last action cannot be taken back.
  function batchRequest(actions, opts) {
    if (!myTurn() || P.busy || !actions.length) return;
    requestEntry({ actions, label: opts.label || actions.map(labelOf).join(", "), confirm: !!opts.confirm, composed: true });
  }
  // `POST /api/games/<id>/preview`: the position after a batch, computed and not stored.
  async function preview(actions) {
    const p = await api("POST", `/api/games/${eid}/preview`, { actions, version: P.game.version });
    return p;
  }
  // A draft: actions a board holds back (a unit selected, a group chosen) until the next
  // choice, shown as the position after them (from `preview`), then sent with that choice as
  // one batch. Esc, Cancel or undo drops it; so does any change to the game meanwhile.
  async function draft(actions, opts) {
    held = false;
    if (!myTurn() || P.busy || !actions.length) return;
    const base = P.draft ? P.draft.actions : [];
    const all = base.concat(actions);
    try {
      const p = await preview(all);
      const shown = Object.assign({}, P.game, { view: p.view, legal: p.legal, prompt: p.prompt, to_act: p.to_act, irreversible: p.irreversible, log: P.game.log.concat(p.log || []) });
      const label = opts.label || actions.map(labelOf).join(", ");
      P.draft = { actions: all, game: shown, label: P.draft ? `${P.draft.label}, ${label}` : label, version: P.game.version };
    } catch (e) {
      flash(e.message, "error");
      return;
    }
    render();
  }
  function dropDraft() {
    if (!P.draft) return false;
    P.draft = null;
    render();
    return true;
  }
  function renderDraft() {
    draftBar.hidden = !P.draft;
    document.body.dataset.draft = P.draft ? String(P.draft.actions.length) : "0";
    if (!P.draft) return draftBar.replaceChildren();
    draftBar.replaceChildren(
      h("span", { class: "draft-text" }, "Selected: ", h("strong", {}, P.draft.label), " — now choose where it goes; nothing is sent yet."),
      h("button", { id: "draft-cancel", onclick: dropDraft }, "Cancel ", h("kbd", {}, "Esc")),
    );
  }

  // Shift, or a long press on a touch screen: choose how many.
  let held = false;
  function wantsSome(ev) {
    const some = !!(ev && ev.shiftKey) || held;
    held = false;
    return some;
  }
  function holdable(el) {
    let timer = null;
    el.addEventListener("pointerdown", (ev) => {
      held = false;
      if (ev.pointerType === "mouse") return;
      clearTimeout(timer);
      timer = setTimeout(() => (held = true), 500);
    });
    const stop = () => clearTimeout(timer);
    el.addEventListener("pointerup", stop);
    el.addEventListener("pointercancel", stop);
    el.addEventListener("contextmenu", (ev) => ev.preventDefault());
  }
  holdable(boardBox);
  function askCount(e, ev) {
    closeMenu();
    const n = e.actions.length;
    const menu = h(
      "div",
      { class: "menu count", id: "count-menu", role: "menu" },
      h("span", { class: "menu-head" }, `How many? ${e.label}`),
      h(
        "div",
        { class: "counts" },
        Array.from({ length: n }, (_, i) =>
          h("button", { role: "menuitem", dataset: { count: i + 1 }, onclick: () => (closeMenu(), requestEntry(Object.assign({}, e, { actions: e.actions.slice(0, i + 1) }))) }, i + 1 === n ? `all ${n}` : String(i + 1)),
        ),
      ),
      h("button", { class: "cancel", onclick: closeMenu }, "Cancel"),
    );
    placeMenu(menu, ev);
    P.menu = { el: menu, list: Array.from({ length: Math.min(9, n) }, (_, i) => i + 1), entry: e };
  }

  // Acting goes over the socket when it is open (the change comes back as an update, then
  // the ack), else over HTTP.
  const labels = new Map();
  const waiting = new Map();
  let nextId = 1;
  function overSocket(msg) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        if (waiting.delete(id)) reject(new ApiError(0, "timeout", "The server did not answer in time; the game is being reloaded."));
      }, 15000);
      waiting.set(id, { resolve, reject, timer });
      P.ws.send(JSON.stringify(Object.assign({ id }, msg)));
    });
  }
  function socketOpen() {
    return P.ws && P.ws.readyState === WebSocket.OPEN && P.live;
  }
  async function change(kind, body) {
    document.body.dataset.via = socketOpen() ? "socket" : "http";
    if (socketOpen()) return overSocket(Object.assign({ type: kind }, body));
    const g = await api("POST", `/api/games/${eid}/${kind}?since=${P.game.log.length}`, body);
    P.game = mergeLog(P.game.log, g);
    render();
  }
  // `what`: one action, or a batch `{actions, label}` sent as one change.
  async function send(what) {
    if (P.busy) return;
    P.busy = true;
    document.body.dataset.busy = "1";
    try {
      P.draft = null;
      if (typeof what === "string") await change("act", { action: what, version: P.game.version });
      else {
        document.body.dataset.batch = String(what.actions.length);
        await change("act", what.actions.length === 1 ? { action: what.actions[0], version: P.game.version } : { actions: what.actions, version: P.game.version });
      }
      document.body.dataset.sent = String(Number(document.body.dataset.sent || 0) + (typeof what === "string" ? 1 : what.actions.length));
    } catch (e) {
      if (e.kind === "stale") {
        flash("The game moved on meanwhile: here is the latest position.");
        await refresh();
      } else if (e.kind === "network" || e.kind === "timeout") {
        flash(e.message, "error");
        await refresh();
      } else flash(e.message, "error");
    } finally {
      P.busy = false;
      delete document.body.dataset.busy;
      updateState();
    }
  }
  async function undo() {
    if (dropDraft()) return;
    if (P.busy || !P.game.can_undo) return;
    P.busy = true;
    try {
      await change("undo", { version: P.game.version });
      P.pending = null;
      render();
    } catch (e) {
      if (e.kind === "stale") await refresh();
      else flash(e.message, "error");
    } finally {
      P.busy = false;
      updateState();
    }
  }
  async function refresh() {
    try {
      const g = mergeLog([], await api("GET", `/api/games/${eid}`));
      if (g.version !== P.game.version || g.status !== P.game.status) {
        P.game = g;
        if (P.pending && !pendingLegal(P.pending)) P.pending = null;
        render();
      }
    } catch (e) {
      flash(e.message, "error");
    }
  }

  // Buttons: actions that have no target on the board come first and get number keys; those
  // on the board are listed too (folded) so that every choice can be made without the map.
  function shortcutFor(verbs) {
    for (const v of verbs) {
      const a = G().legal.find((l) => verbOf(l.action) === v || l.action === v);
      if (a) return a.action;
    }
    return null;
  }
  function enterAction() {
    const keys = (renderer && renderer.shortcuts) || {};
    const fromRenderer = keys.Enter ? shortcutFor(keys.Enter) : null;
    if (fromRenderer) return fromRenderer;
    if (G().legal.length === 1) return G().legal[0].action;
    return shortcutFor(ENTER_FALLBACK);
  }
  function renderActions(onBoard) {
    actions.replaceChildren();
    if (P.hist || !myTurn()) return;
    const enter = enterAction();
    const primary = G().legal.filter((l) => !onBoard.has(l.action));
    const mapped = G().legal.filter((l) => onBoard.has(l.action));
    const keys = (renderer && renderer.shortcuts) || {};
    const keyOf = (a) => Object.entries(keys).find(([k, verbs]) => k !== "Enter" && verbs.includes(verbOf(a)));
    P.numbered = primary.slice(0, 9).map((l) => l.action);
    primary.forEach((l, i) => {
      const k = keyOf(l.action);
      actions.append(
        h(
          "button",
          { class: ["act", l.action === enter ? "primary" : "", irreversible(l.action) ? "final" : ""].join(" "), dataset: { action: l.action }, onclick: (ev) => choose([l.action], ev), title: l.action },
          i < 9 ? h("kbd", {}, String(i + 1)) : null,
          " ",
          l.label,
          l.action === enter ? h("kbd", { class: "after" }, "Enter") : k ? h("kbd", { class: "after" }, k[0]) : null,
        ),
      );
    });
    if (mapped.length) {
      actions.append(
        h(
          "details",
          { class: "on-map" },
          h("summary", {}, `${mapped.length} choice${mapped.length > 1 ? "s" : ""} on the map`),
          h("div", { class: "map-list" }, mapped.map((l) => h("button", { class: "act small", dataset: { action: l.action }, onclick: (ev) => choose([l.action], ev) }, l.label))),
        ),
      );
    }
    if (P.game.can_undo || P.draft) actions.append(h("button", { class: "undo", id: "undo", onclick: undo, title: P.draft ? "Drop the selection" : "Take back your last decision (a batch: all of it)" }, "↶ Undo ", h("kbd", {}, "u")));
  }

  function renderPrompt() {
    if (P.hist) {
      const d = P.hist.data;
      return put(
        prompt,
        d.to_act ? sideBadge(renderer, P.game.game, d.to_act) : null,
        " ",
        h("span", { class: "prompt-text history-text" }, `History — ${d.prompt ? d.prompt.text : ""}`),
        h("button", { class: "sec", id: "history-live-prompt", onclick: () => histGo(null) }, "Back to now"),
      );
    }
    const g = G();
    const who = g.to_act ? sideBadge(renderer, g.game, g.to_act) : null;
    let text = g.prompt ? g.prompt.text : "";
    if (g.status === "open") text = "Waiting for an opponent to join.";
    // How it ended is the banner's to say, once (issue 17).
    if (g.outcome) text = "The game is over.";
    put(
      prompt,
      who,
      " ",
      h("span", { class: "prompt-text" }, text),
      g.prompt && g.prompt.section ? h("button", { class: "sec", title: "Show this rule", onclick: () => openRules(g.prompt.section) }, `§${g.prompt.section}`) : null,
      g.status === "active" && !myTurn() && g.my_side ? h("span", { class: "waiting" }, " — waiting for the other side") : null,
    );
  }

  // How the game ended, in the viewer's words: a player who resigned reads "You resigned"
  // (the log, the same for everyone, names them).
  function endingFor(g) {
    const o = g.outcome;
    if (o.ended === "resigned" && g.my_side && o.winner && g.my_side !== o.winner) {
      return `You resigned for the ${titleCase(g.my_side)} side: the ${titleCase(o.winner)} side wins.`;
    }
    return o.reason || "";
  }
  function renderBanner() {
    const g = P.game;
    banner.hidden = true;
    banner.className = "banner";
    if (g.outcome) {
      const vp = Object.entries(g.outcome.vp || {}).map(([s, v]) => `${titleCase(s)} ${v}`).join(", ");
      banner.hidden = false;
      banner.classList.add(g.outcome.winner && g.outcome.winner === g.my_side ? "won" : "over");
      banner.replaceChildren(
        h("span", { class: "grow" }, h("strong", {}, g.outcome.winner ? `${titleCase(g.outcome.winner)} victory` : "Drawn game"), vp ? ` — VP ${vp}. ` : ". ", endingFor(g)),
        h("span", { class: "buttons" }, h("a", { class: "button", href: `#/replay/${id}` }, "Replay"), h("a", { class: "button", href: "#/" }, "Lobby")),
      );
    } else if (g.status === "open") {
      const invite = localStorage.getItem(`muster-invite-${id}`);
      const link = invite ? `${location.origin}/#/join/${id}/${invite}` : null;
      banner.hidden = false;
      banner.classList.add("open");
      banner.replaceChildren(
        h("strong", {}, "Waiting for an opponent. "),
        link
          ? h("span", {}, "Send this invite link: ", h("input", { class: "invite", readonly: true, value: link, onclick: (ev) => ev.target.select() }), h("button", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => flash("Invite link copied.")) }, "Copy"))
          : g.my_side
            ? "The game is listed among the open games."
            : h("button", { class: "primary", onclick: () => (S.user ? join(id, null) : needLogin()) }, "Join this game"),
      );
    } else if (!g.my_side) {
      banner.hidden = false;
      banner.classList.add("spectator");
      banner.replaceChildren("You are watching this game.");
    }
  }

  function renderSeats() {
    const g = P.game;
    const changes = g.ratings || [];
    seats.replaceChildren(
      h(
        "div",
        { class: "rated-line", id: "game-rated" },
        h("span", { class: `tag ${g.rated ? "rated" : "unrated"}` }, g.rated ? "Rated" : "Unrated"),
        g.rated && changes.length ? h("a", { href: `#/ratings/${g.game}/${changes[0].pool}` }, " leaderboard") : null,
      ),
      ...g.seats.map((s) =>
        h(
          "div",
          { class: ["seat-row", g.to_act === s.side && g.status === "active" ? "to-act" : "", s.side === g.my_side ? "mine" : ""].join(" ") },
          sideBadge(renderer, g.game, s.side),
          h("span", { class: "player" }, s.player ? playerLink(s.player) : s.bot ? `Computer (${s.bot})` : "open seat", s.side === g.my_side || (g.my_side && S.user && s.player === S.user.name) ? " (you)" : ""),
          g.to_act === s.side && g.status === "active" ? h("span", { class: "turn-mark", title: "To play" }, "◀ to play") : null,
          g.clock ? h("span", { class: ["clock", g.clock.running === s.side ? "running" : ""].join(" "), dataset: { side: s.side }, title: "Time left" }) : null,
          ratingChange(changes.find((c) => c.side === s.side)),
        ),
      ),
    );
    clockBar.hidden = !g.clock;
    clockBar.replaceChildren(
      ...(g.clock
        ? g.seats.map((s) => {
            const mine = s.side === g.my_side || (g.my_side && S.user && s.player === S.user.name);
            const who = mine ? "You" : s.player || (s.bot ? "Computer" : "open seat");
            return h(
              "span",
              { class: ["bar-seat", g.clock.running === s.side ? "running" : ""].join(" ") },
              sideBadge(renderer, g.game, s.side, who),
              h("span", { class: ["clock", g.clock.running === s.side ? "running" : ""].join(" "), dataset: { side: s.side }, title: "Time left" }),
            );
          })
        : []),
    );
    tickClocks();
  }

  // The clocks (issue 16 §2): the server's seconds left, counted down here between its
  // messages for the side whose clock runs.
  function tickClocks() {
    const c = P.game.clock;
    if (!c) return;
    if (!P.clockSeen || P.clockSeen.clock !== c) P.clockSeen = { clock: c, at: Date.now() };
    const gone = Math.floor((Date.now() - P.clockSeen.at) / 1000);
    const serverNow = c.now + gone;
    for (const el of [...$$(".clock", seats), ...$$(".clock", clockBar)]) {
      const side = el.dataset.side;
      let left = c.left[side] || 0;
      if (c.running === side && !(c.resumes && c.resumes > serverNow)) {
        const since = c.resumes ? Math.max(c.resumes, c.now) : c.now;
        left = Math.max(0, left - Math.max(0, serverNow - since));
      }
      el.textContent = c.running === side && c.resumes && c.resumes > serverNow ? `${clockText(left)} (on vacation)` : clockText(left);
      el.classList.toggle("low", c.running === side && left < 300);
    }
  }
  P.clockTimer = setInterval(() => {
    if (P.game && P.game.clock && P.game.clock.running) tickClocks();
  }, 1000);

  function renderTracks() {
    drawTracks(tracks, renderer, P.board, shownStep().game);
  }

  function renderKeys() {
    const keys = (renderer && renderer.shortcuts) || {};
    keysPane.replaceChildren(
      h(
        "dl",
        { class: "keys" },
        h("dt", {}, h("kbd", {}, "1"), "–", h("kbd", {}, "9")),
        h("dd", {}, "the numbered buttons"),
        h("dt", {}, h("kbd", {}, "Enter")),
        h("dd", {}, "confirm, or the highlighted button (", (keys.Enter || ENTER_FALLBACK).join(", "), ")"),
        h("dt", {}, h("kbd", {}, "Esc")),
        h("dd", {}, "cancel a confirmation or a menu"),
        h("dt", {}, h("kbd", {}, "u")),
        h("dd", {}, "undo your last decision, where the rules allow it"),
        h("dt", {}, h("kbd", {}, ","), " ", h("kbd", {}, ".")),
        h("dd", {}, "step back and forth through what happened since your last decision"),
        h("dt", {}, h("kbd", {}, "["), " ", h("kbd", {}, "]")),
        h("dd", {}, "step through the game's history (earlier positions, read-only)"),
        Object.entries(keys)
          .filter(([k]) => k !== "Enter")
          .map(([k, verbs]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, verbs.join(", "))]),
        h("dt", {}, "click"),
        h("dd", {}, "a highlighted place or counter on the map"),
      ),
    );
  }

  function renderBoard() {
    let onBoard = new Set();
    P.recentNotes = [];
    if (renderer && renderer.render && P.board) {
      try {
        const shown = shownStep();
        boardWrap.classList.toggle("stepping", !shown.live);
        // Stepping back shows a past position; live, the position after the draft if any.
        const r = renderer.render(boardBox, P.board, shown.live ? G() : shown.game, {
          interactive: myTurn() && shown.live,
          recent: shown.recent,
          choose: (list, ev) => choose(list, ev),
          batch: (actions, opts) => batchRequest(actions, opts || {}),
          draft: (actions, opts) => draft(actions, opts || {}),
          preview: (actions) => preview(actions),
          some: (ev) => wantsSome(ev),
          irreversible: (action) => irreversible(action),
          label: labelOf,
          sideLook: (side) => sideLook(renderer, P.game.game, side),
          recentDiff,
          drawRecent,
          markRecent: markRecentOf(shown.recent),
        });
        if (r && r.targets) onBoard = r.targets;
        if (r && Array.isArray(r.recent)) P.recentNotes = r.recent;
      } catch (e) {
        boardBox.replaceChildren(h("p", { class: "error" }, `The board could not be drawn: ${e.message}`));
      }
    } else {
      boardBox.replaceChildren(h("div", { class: "no-board" }, h("p", {}, "This game has no board drawing yet; play with the buttons above."), h("pre", {}, JSON.stringify(P.game.view, null, 1))));
    }
    return onBoard;
  }

  function updateState() {
    const g = P.game;
    const state = g.status === "finished" ? "over" : g.status === "open" ? "open" : !g.my_side ? "spectating" : myTurn() ? "my-turn" : "waiting";
    setState(state, { version: g.version, actions: g.actions === undefined ? "" : g.actions, game: g.game, log: g.log.length, history: P.hist ? P.hist.at : "" });
  }

  function render() {
    closeMenu();
    if (P.draft && (P.draft.version !== P.game.version || !myTurn())) P.draft = null;
    renderDraft();
    if (P.pending && !pendingLegal(P.pending)) P.pending = null;
    trackRecent();
    let onBoard = renderBoard();
    if (autoZoom()) onBoard = renderBoard();
    renderPrompt();
    renderActions(onBoard);
    renderConfirm();
    renderBanner();
    renderSeats();
    renderTracks();
    renderRecent();
    log.update(P.hist ? P.hist.data.log : P.game.log, null, P.hist ? null : recentRange());
    renderHistory();
    talk.update();
    document.title = `${myTurn() ? "▶ " : ""}${info ? info.name : P.game.game} — Muster`;
    // The hint to click the board only while the viewer has something to click (issue 17).
    const hint = $("#board-hint");
    if (hint) hint.hidden = !myTurn() || !!P.hist;
    updateState();
  }

  // ------------------------------------------------------------------------------------------
  // History (issue 16 §5): ◀ and ▶ step through the positions after each action, fetched from
  // `GET /api/games/<id>/history?at=N` (this viewer's side of them only); the board shows them
  // read-only until "Now" (or ▶ past the last) brings back the live position.
  P.hist = null;
  P.histBusy = false;
  async function histGo(n) {
    const total = P.game.actions || 0;
    if (n === null || n >= total) {
      P.hist = null;
      return render();
    }
    n = Math.max(0, n);
    if (P.histBusy) return;
    P.histBusy = true;
    try {
      const data = await api("GET", `/api/games/${eid}/history?at=${n}`);
      P.hist = { at: data.at, data };
      P.stepAt = null;
    } catch (e) {
      flash(e.message, "error");
    } finally {
      P.histBusy = false;
    }
    render();
  }
  function histStep(d) {
    const total = P.game.actions || 0;
    const at = P.hist ? P.hist.at : total;
    histGo(at + d);
  }
  function renderHistory() {
    const total = P.game.actions || 0;
    const at = P.hist ? P.hist.at : total;
    const d = P.hist && P.hist.data;
    histBar.classList.toggle("in-history", !!P.hist);
    put(
      histBar,
      h("strong", {}, "History"),
      h("button", { id: "history-back", title: "Earlier position ([)", "aria-label": "Earlier position", disabled: at <= 0 || total === 0, onclick: () => histStep(-1) }, "◀"),
      h("span", { class: "history-pos", id: "history-pos" }, P.hist ? `after ${at} of ${total} action${total === 1 ? "" : "s"}${d.turn !== null && d.turn !== undefined ? ` · turn ${d.turn}` : ""}` : `now · ${total} action${total === 1 ? "" : "s"}`),
      h("button", { id: "history-forward", title: "Later position (])", "aria-label": "Later position", disabled: !P.hist, onclick: () => histStep(1) }, "▶"),
      P.hist ? h("button", { id: "history-now", title: "Back to the live position", onclick: () => histGo(null) }, "Now") : null,
    );
  }

  // ------------------------------------------------------------------------------------------
  // What just happened (issue 17): the views and log lengths seen since the viewer's last
  // decision. A change made while the viewer was to act is the viewer's own and starts afresh;
  // every other change is one step of the others', which the board marks (moved pieces with
  // their path, fights, losses), the panel above the log lists, and ‹ › step through. Kept in
  // sessionStorage so a reload keeps it.
  const recentKey = `muster-recent-${id}`;
  P.recent = (() => {
    try {
      const r = JSON.parse(sessionStorage.getItem(recentKey) || "null");
      return r && Array.isArray(r.steps) && r.side === (game.my_side || null) ? r : null;
    } catch (e) {
      return null;
    }
  })();
  P.stepAt = null;
  function trackRecent() {
    const g = P.game;
    const prev = P.lastGame;
    P.lastGame = g;
    if (prev && prev.version === g.version) return;
    const snap = { version: g.version, view: g.view, log: g.log.length };
    const R = P.recent;
    const last = R && R.steps.length ? R.steps[R.steps.length - 1] : null;
    if (!prev && last && last.version <= g.version) {
      if (last.version < g.version) R.steps.push(snap);
    } else if (!R || !prev || (g.my_side && prev.status === "active" && prev.to_act === g.my_side)) {
      P.recent = { side: g.my_side || null, steps: [snap] };
      P.stepAt = null;
    } else {
      R.steps.push(snap);
      if (R.steps.length > 40) R.steps.splice(0, R.steps.length - 40);
    }
    try {
      sessionStorage.setItem(recentKey, JSON.stringify(P.recent));
    } catch (e) {
      /* too big to keep: a reload forgets it */
    }
  }
  const recentCount = () => (P.recent ? P.recent.steps.length - 1 : 0);
  // The game as the board shows it: now, with every step since the last decision marked, or
  // one past step with its own changes marked.
  function shownStep() {
    if (P.hist) {
      const d = P.hist.data;
      return { game: Object.assign({}, P.game, { view: d.view, legal: [], to_act: d.to_act, prompt: d.prompt }), live: false, recent: null };
    }
    const n = recentCount();
    if (P.stepAt !== null && P.stepAt > n) P.stepAt = n || null;
    if (P.stepAt === null || !n) return { game: P.game, live: true, recent: n ? { views: P.recent.steps.map((s) => s.view) } : null };
    const cur = P.recent.steps[P.stepAt];
    const before = P.recent.steps[P.stepAt - 1];
    return { game: Object.assign({}, P.game, { view: cur.view, legal: [] }), live: false, recent: { views: [before.view, cur.view] } };
  }
  function recentRange() {
    const n = recentCount();
    if (!n) return null;
    const len = P.game.log.length;
    const at = (k) => Math.min(P.recent.steps[k].log, len);
    return { from: at(0), step: P.stepAt ? [at(P.stepAt - 1), at(P.stepAt)] : null };
  }
  function stepRecent(d) {
    const n = recentCount();
    if (!n) return;
    if (d === 0) P.stepAt = null;
    else if (d < 0) P.stepAt = P.stepAt === null ? n : Math.max(1, P.stepAt - 1);
    else if (P.stepAt !== null) P.stepAt = P.stepAt >= n ? null : P.stepAt + 1;
    render();
  }
  function renderRecent() {
    const n = recentCount();
    const newest = P.game.log[P.game.log.length - 1];
    latest.hidden = !newest || !!P.game.outcome;
    put(latest, newest ? [h("span", { class: "latest-label" }, "Last: "), newest.chance ? diceText(newest.text) : newest.text] : null);
    recentBox.hidden = !n;
    setState(document.body.dataset.state, { recent: n, recentStep: P.stepAt === null ? "" : P.stepAt });
    if (!n) return recentBox.replaceChildren();
    const range = recentRange();
    const k = P.stepAt;
    const entries = P.game.log.slice(range.from);
    put(
      recentBox,
      h(
        "div",
        { class: "recent-head" },
        h("strong", {}, P.game.my_side ? "Since your last decision" : "Lately"),
        h("span", { class: "recent-pos", id: "recent-pos" }, k ? `step ${k} of ${n}` : `${n} step${n > 1 ? "s" : ""}`),
        h("button", { id: "recent-prev", title: "Step back (,)", "aria-label": "Previous step", disabled: k === 1, onclick: () => stepRecent(-1) }, "‹"),
        h("button", { id: "recent-next", title: "Step forward (.)", "aria-label": "Next step", disabled: k === null, onclick: () => stepRecent(1) }, "›"),
        k ? h("button", { id: "recent-now", title: "Back to now (Esc)", onclick: () => stepRecent(0) }, "Now") : null,
      ),
      P.recentNotes.length ? h("p", { class: "recent-notes", id: "recent-notes" }, P.recentNotes.join(" · ")) : null,
      h(
        "ol",
        { class: "recent-list", id: "recent-list" },
        entries.length
          ? entries.map((e, i) => h("li", { class: range.step && range.from + i >= range.step[0] && range.from + i < range.step[1] ? "step" : "" }, e.chance ? diceText(e.text) : e.text))
          : h("li", { class: "muted" }, "Nothing in the log: the board marks what changed."),
      ),
    );
    const cur = $(".step", recentBox);
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  // On a narrow screen the board opens zoomed so that its counters are big enough to read and
  // tap (issue 17: 24 px at least), once, until the player zooms by hand.
  function autoZoom() {
    if (P.userZoom || !renderer || boardWrap.clientWidth === 0 || boardWrap.clientWidth > 700) return false;
    const sizes = $$("[data-unit]:not([data-target]), [data-counter]", boardBox)
      .map((el) => {
        const r = el.getBoundingClientRect();
        return Math.min(r.width, r.height);
      })
      .filter((x) => x > 0);
    if (!sizes.length) return false;
    const want = Math.min(MAX_ZOOM, (P.zoom * COUNTER_PX) / Math.min(...sizes));
    if (want <= P.zoom * 1.02) return false;
    applyZoom(want, 0, 0);
    if (!P.autoScrolled) {
      // Bring what matters into the frame: the newest change or the first target.
      P.autoScrolled = true;
      requestAnimationFrame(() => {
        const f = $("[data-recent]", boardBox) || $("[data-target]", boardBox);
        if (!f) return;
        const r = f.getBoundingClientRect();
        const w = boardWrap.getBoundingClientRect();
        boardWrap.scrollLeft += r.left + r.width / 2 - (w.left + w.width / 2);
        boardWrap.scrollTop += r.top + r.height / 2 - (w.top + w.height / 2);
      });
    }
    return true;
  }

  // Keyboard shortcuts
  function onKey(ev) {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape") {
      if (P.menu) closeMenu();
      else if (P.hist) histGo(null);
      else if (P.stepAt !== null && P.stepAt !== undefined) stepRecent(0);
      else if (!P.pending && dropDraft()) return;
      else if (P.pending) {
        P.pending = null;
        renderConfirm();
      }
      return;
    }
    // Looking at the history: only its own keys (the live game's choices are not shown).
    if (P.hist && ev.key !== "[" && ev.key !== "]") return;
    if (P.menu && /^[1-9]$/.test(ev.key)) {
      const a = P.menu.list[Number(ev.key) - 1];
      if (a) {
        closeMenu();
        if (typeof a === "number") requestEntry(Object.assign({}, P.menu.entry, { actions: P.menu.entry.actions.slice(0, a) }));
        else requestEntry(a);
      }
      ev.preventDefault();
      return;
    }
    if (ev.key === "Enter") {
      if (ev.target.closest && ev.target.closest("button, a, summary")) return; // the focused control acts
      if (P.pending) {
        const a = P.pending;
        P.pending = null;
        renderConfirm();
        send(a);
      } else if (myTurn()) {
        const a = enterAction();
        if (a) request(a);
        // No suggested action (a retreat, a set-up hex): Enter offers the choices as a menu,
        // picked with 1-9 or a click, rather than doing nothing.
        else choose(P.game.legal.map((l) => l.action).slice(0, 30));
      }
      ev.preventDefault();
      return;
    }
    if (ev.key === "u" || ev.key === "U") {
      undo();
      return;
    }
    if (ev.key === "," || ev.key === ".") {
      stepRecent(ev.key === "," ? -1 : 1);
      return;
    }
    if (ev.key === "[" || ev.key === "]") {
      histStep(ev.key === "[" ? -1 : 1);
      return;
    }
    if (!myTurn()) return;
    if (/^[1-9]$/.test(ev.key)) {
      const a = (P.numbered || [])[Number(ev.key) - 1];
      if (a) request(a);
      return;
    }
    const keys = (renderer && renderer.shortcuts) || {};
    if (keys[ev.key]) {
      const a = shortcutFor(keys[ev.key]);
      if (a) request(a);
    }
  }
  document.addEventListener("keydown", onKey);
  // A new width may call for another layout of the board.
  let resizeTimer = null;
  let lastWidth = boardBox.clientWidth;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (Math.abs(boardBox.clientWidth - lastWidth) < 2) return;
      lastWidth = boardBox.clientWidth;
      render();
    }, 150);
  };
  window.addEventListener("resize", onResize);
  // On a phone the pinned prompt shrinks to the prompt and the buttons once the page scrolls.
  // What it gives up is kept as a margin, so that the page below does not jump.
  const onScroll = () => {
    const on = window.scrollY > 40;
    if (on === document.body.classList.contains("scrolled")) return;
    const bar = $("#promptbar");
    const before = bar.offsetHeight;
    bar.style.marginBottom = "";
    document.body.classList.toggle("scrolled", on);
    const after = bar.offsetHeight;
    if (on && after < before) bar.style.marginBottom = `${before - after}px`;
  };
  window.addEventListener("scroll", onScroll, { passive: true });

  // The game socket: the state on connecting, then an update on every change (only what
  // changed: members, a patch of the view, new log entries); reconnecting with backoff, from
  // the log and version held.
  // `irreversible` comes as indices into `legal` (sent again whenever `legal` changes); it is
  // held as the action strings, as HTTP answers give it.
  function withLabels(msg) {
    if (msg.labels) for (const [a, l] of Object.entries(msg.labels)) labels.set(a, l);
    delete msg.labels;
    if (msg.legal) msg.legal = msg.legal.map((a) => ({ action: a, label: labels.has(a) ? labels.get(a) : a }));
    // An empty `legal` comes without its (empty) `irreversible`.
    if (msg.legal && msg.legal.length === 0 && msg.irreversible === undefined) msg.irreversible = [];
    if (Array.isArray(msg.irreversible)) {
      const legal = msg.legal || (P.game && P.game.legal) || [];
      msg.irreversible = msg.irreversible.map((i) => (typeof i === "number" && legal[i] ? legal[i].action : i));
    }
    return msg;
  }
  function onSocket(msg) {
    if (talk.onSocket(msg)) return;
    if (msg.type === "state") {
      delete msg.type;
      P.live = true;
      P.game = mergeLog(P.game.log, withLabels(msg));
      render();
    } else if (msg.type === "update") {
      withLabels(msg);
      const g = Object.assign({}, P.game);
      for (const [k, v] of Object.entries(msg)) if (!["type", "view_patch", "log", "log_start", "ack"].includes(k)) g[k] = v;
      if (msg.view_patch) g.view = applyPatch(g.view, msg.view_patch);
      if (msg.log_start !== undefined) g.log = g.log.slice(0, msg.log_start).concat(msg.log || []);
      P.game = g;
      render();
      // The update of a change this socket asked for acknowledges it (`ack`: its id).
      if (msg.ack !== undefined) onSocket({ type: "ack", id: msg.ack });
    } else if (msg.type === "ack" || msg.type === "error") {
      const w = waiting.get(msg.id);
      if (!w) {
        if (msg.type === "error") flash(msg.error.message, "error");
        return;
      }
      waiting.delete(msg.id);
      clearTimeout(w.timer);
      if (msg.type === "ack") w.resolve();
      else w.reject(new ApiError(0, msg.error.kind, msg.error.message));
    }
  }
  function connect() {
    if (P.closed) return;
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${eid}/ws?log=${P.game.log.length}&version=${P.game.version}`);
    P.ws = ws;
    P.live = false;
    ws.onopen = () => {
      P.retry = 0;
      talk.reload();
      conn.className = "conn live";
      conn.title = "Live updates: connected";
    };
    ws.onmessage = (m) => {
      let msg = null;
      try {
        msg = JSON.parse(m.data);
      } catch (e) {
        return;
      }
      if (msg && typeof msg === "object") onSocket(msg);
    };
    ws.onclose = () => {
      P.live = false;
      for (const [id, w] of waiting) {
        clearTimeout(w.timer);
        w.reject(new ApiError(0, "network", "The connection to the server dropped; the game is being reloaded."));
        waiting.delete(id);
      }
      conn.className = "conn down";
      conn.title = "Live updates: reconnecting…";
      if (P.closed) return;
      const delay = Math.min(15000, 500 * 2 ** P.retry) * (0.75 + Math.random() / 2);
      P.retry += 1;
      P.timer = setTimeout(connect, delay);
    };
    ws.onerror = () => ws.close();
  }
  connect();

  P.cleanup = () => {
    P.closed = true;
    clearTimeout(P.timer);
    clearInterval(P.clockTimer);
    if (P.ws) P.ws.close();
    closeMenu();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    window.removeEventListener("scroll", onScroll);
    stopPinch();
    clearTimeout(resizeTimer);
    talk.cleanup();
  };
  S.page = P;
  renderKeys();
  render();
}

// ---------------------------------------------------------------------------------------------
// Talk beside the game (docs/server.md, "Ending, offering, withdrawing" and "Talking and
// noting"): resigning (after a confirmation), draw and rematch offers, the players' chat, the
// spectators' chat (which players may hide), the seat's private notepad. Chat is always shown
// as text, never as HTML.

const CHAT_MAX = 500;

// Offers a rematch of a finished game (sides kept unless `swap`); where nobody is to be asked
// (a bot, hot-seat) the new game starts at once and opens.
async function offerRematch(id, swap = false) {
  try {
    const r = await api("POST", `/api/games/${encodeURIComponent(id)}/offers`, { kind: "rematch", swap });
    if (r.rematch) location.hash = `#/game/${r.rematch}`;
    else flash("Rematch offered: the other player is asked.");
    return r;
  } catch (e) {
    flash(e.message, "error");
    return null;
  }
}

async function withdrawGame(id) {
  try {
    await api("POST", `/api/games/${encodeURIComponent(id)}/withdraw`);
    flash("The game was withdrawn.");
    route();
  } catch (e) {
    flash(e.message, "error");
  }
}

// The talk panel of a game page. `ctx`: { id, game() → the game as held, onGame(g) → a game
// answer to show, renderer }. Returns { el, onSocket(msg) → whether it took the message,
// update(), reload() }.
function talkPanel(ctx) {
  const eid = encodeURIComponent(ctx.id);
  const T = {
    tab: "players",
    messages: { players: [], spectators: [] },
    offers: [],
    rematch: null,
    unread: 0,
    confirmResign: false,
    hideSpectators: localStorage.getItem("muster-hide-spectators") === "1",
    notes: null,
    notesSaved: "",
    // Messages pushed while a reload is under way: its answer may have been read before them.
    pushed: [],
  };
  const seated = () => !!ctx.game().my_side;
  const me = () => (S.user ? S.user.name : null);
  const bar = h("div", { class: "talk-bar", id: "talk-bar" });
  const offersBox = h("div", { class: "offers", id: "offers", "aria-live": "polite" });
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const list = h("ol", { class: "chat", id: "chat-list", "aria-live": "polite" });
  const input = h("textarea", { id: "chat-input", rows: 2, maxlength: CHAT_MAX, placeholder: "Say something…", "aria-label": "Chat message" });
  const count = h("span", { class: "muted chat-count" }, `0/${CHAT_MAX}`);
  const sendBtn = h("button", { type: "submit", id: "chat-send" }, "Send");
  const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => (ev.preventDefault(), post()) }, input, h("div", { class: "chat-form-row" }, count, sendBtn));
  const notes = h("textarea", { id: "notes", rows: 6, maxlength: 10000, placeholder: "Your private notes for this game: only your seat reads them.", "aria-label": "Private notes" });
  const notesState = h("span", { class: "muted", id: "notes-state" }, "");
  const notesPane = h("div", { class: "notes-pane", hidden: true }, notes, h("div", { class: "chat-form-row" }, notesState, h("button", { id: "notes-save", onclick: saveNotes }, "Save notes")));
  const chatPane = h("div", { class: "chat-pane" }, list, form);
  const el = h("section", { class: "talk-panel", id: "talk", "aria-label": "Talk" }, bar, offersBox, tabs, chatPane, notesPane);

  input.addEventListener("input", () => (count.textContent = `${input.value.length}/${CHAT_MAX}`));
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      post();
    }
  });
  notes.addEventListener("input", () => (notesState.textContent = notes.value === T.notesSaved ? "Saved." : "Not saved yet."));

  async function post() {
    const text = input.value.trim();
    if (!text) return;
    sendBtn.disabled = true;
    try {
      const r = await api("POST", `/api/games/${eid}/chat`, { text, channel: T.tab === "spectators" ? "spectators" : seated() ? "players" : "spectators" });
      input.value = "";
      count.textContent = `0/${CHAT_MAX}`;
      add(r.message);
    } catch (e) {
      flash(e.message, "error");
    } finally {
      sendBtn.disabled = false;
    }
  }
  function add(m) {
    T.pushed.push(m);
    const held = T.messages[m.channel];
    if (held.some((x) => x.n === m.n)) return;
    held.push(m);
    held.sort((a, b) => a.n - b.n);
    if (m.channel === "players" && m.from !== me()) T.unread += 1;
    render();
  }
  async function mute(name) {
    try {
      await api("POST", "/api/account/mutes", { name, muted: true });
      flash(`${name} is muted: their messages are hidden from you in every game.`);
      await reload();
    } catch (e) {
      flash(e.message, "error");
    }
  }
  async function markSeen() {
    const last = T.messages.players[T.messages.players.length - 1];
    if (!seated() || !last || T.unread === 0 || document.hidden) return;
    try {
      const r = await api("POST", `/api/games/${eid}/chat/seen`, { upto: last.n + 1 });
      T.unread = r.unread;
      renderTabs();
    } catch (e) {
      /* the mark is set again with the next message */
    }
  }
  async function resign() {
    T.confirmResign = false;
    try {
      ctx.onGame(await api("POST", `/api/games/${eid}/resign`));
    } catch (e) {
      flash(e.message, "error");
    }
    render();
  }
  async function offer(kind, swap = false) {
    try {
      const r = await api("POST", `/api/games/${eid}/offers`, kind === "rematch" ? { kind, swap } : { kind });
      setOffers(r);
      if (r.rematch) location.hash = `#/game/${r.rematch}`;
    } catch (e) {
      flash(e.message, "error");
    }
  }
  async function answer(kind, how) {
    try {
      const body = { kind };
      if (how === "accept" && kind === "draw") body.version = ctx.game().version;
      const r = await api("POST", `/api/games/${eid}/offers/${how}`, body);
      setOffers(r);
      if (how === "accept" && kind === "rematch" && r.rematch) location.hash = `#/game/${r.rematch}`;
    } catch (e) {
      flash(e.message, "error");
    }
  }
  function setOffers(r) {
    if (r.offers) T.offers = r.offers;
    if (r.rematch !== undefined) T.rematch = r.rematch;
    if (r.unread !== undefined) T.unread = r.unread;
    render();
  }
  async function saveNotes() {
    try {
      const r = await api("POST", `/api/games/${eid}/notes`, { text: notes.value });
      T.notesSaved = r.text;
      notesState.textContent = "Saved.";
    } catch (e) {
      flash(e.message, "error");
    }
  }
  async function loadNotes() {
    try {
      const r = await api("GET", `/api/games/${eid}/notes`);
      T.notes = r.side;
      T.notesSaved = r.text;
      notes.value = r.text;
      notesState.textContent = r.updated ? `Saved ${ago(r.updated)}.` : "";
    } catch (e) {
      /* no notepad for this viewer */
    }
  }
  async function reload() {
    const g = ctx.game();
    T.pushed = [];
    // An answer read before a message the socket pushed meanwhile must not drop it.
    const withPushed = (channel, messages) => {
      const extra = T.pushed.filter((m) => m.channel === channel && !messages.some((x) => x.n === m.n));
      return messages.concat(extra).sort((a, b) => a.n - b.n);
    };
    const jobs = [api("GET", `/api/games/${eid}/chat?channel=spectators`).then((r) => (T.messages.spectators = withPushed("spectators", r.messages)))];
    if (g.my_side) {
      jobs.push(
        api("GET", `/api/games/${eid}/chat?channel=players`).then((r) => {
          const all = withPushed("players", r.messages);
          const extra = all.filter((m) => !r.messages.includes(m) && m.from !== me()).length;
          T.messages.players = all;
          T.unread = (r.unread || 0) + extra;
        }),
      );
      jobs.push(api("GET", `/api/games/${eid}/offers`).then(setOffers));
      if (T.notes !== g.my_side) jobs.push(loadNotes());
    } else T.tab = "spectators";
    await Promise.all(jobs.map((j) => j.catch(() => null)));
    render();
  }

  function renderBar() {
    const g = ctx.game();
    const bits = [];
    if (g.my_side && g.status === "active") {
      if (T.confirmResign) {
        bits.push(
          h("span", { class: "confirm-text" }, h("strong", {}, "Resign this game?"), " The other side wins; it cannot be taken back."),
          h("button", { class: "danger", id: "resign-yes", onclick: resign }, "Resign"),
          h("button", { id: "resign-no", onclick: () => ((T.confirmResign = false), render()) }, "Cancel"),
        );
      } else {
        bits.push(h("button", { id: "resign", onclick: () => ((T.confirmResign = true), render(), $("#resign-no").focus()) }, "⚑ Resign"));
        const vsBot = g.seats.some((s) => s.bot);
        if (!vsBot && !T.offers.some((o) => o.kind === "draw")) bits.push(h("button", { id: "offer-draw", onclick: () => offer("draw") }, "Offer a draw"));
      }
    }
    if (g.my_side && g.status === "finished") {
      if (T.rematch) bits.push(h("a", { class: "button primary", id: "go-rematch", href: `#/game/${T.rematch}` }, "Go to the rematch"));
      else if (!T.offers.some((o) => o.kind === "rematch")) {
        bits.push(
          h("button", { id: "offer-rematch", onclick: () => offer("rematch", false) }, "Offer a rematch"),
          h("button", { id: "offer-rematch-swap", onclick: () => offer("rematch", true) }, "… with sides swapped"),
        );
      }
    }
    put(bar, bits);
    bar.hidden = !bits.length;
  }
  function renderOffers() {
    const mine = (o) => o.from === me();
    const what = (o) => (o.kind === "draw" ? "a draw" : o.swap ? "a rematch with the sides swapped" : "a rematch, same sides");
    put(
      offersBox,
      T.offers.map((o) =>
        h(
          "div",
          { class: "offer", dataset: { kind: o.kind } },
          mine(o) ? h("span", {}, `You offered ${what(o)}. `) : h("span", {}, h("strong", {}, o.from), ` offers ${what(o)}. `),
          mine(o)
            ? h("button", { class: "offer-withdraw", onclick: () => answer(o.kind, "withdraw") }, "Withdraw")
            : [h("button", { class: "primary offer-accept", onclick: () => answer(o.kind, "accept") }, "Accept"), h("button", { class: "offer-decline", onclick: () => answer(o.kind, "decline") }, "Decline")],
        ),
      ),
    );
    offersBox.hidden = !T.offers.length;
  }
  function renderTabs() {
    const g = ctx.game();
    const tab = (id, label, extra) =>
      h("button", { class: `tab${T.tab === id ? " current" : ""}`, id: `talk-tab-${id}`, role: "tab", onclick: () => ((T.tab = id), render()) }, label, extra);
    const badge = T.unread > 0 && T.tab !== "players" ? h("span", { class: "badge", id: "chat-unread", title: "Unread messages" }, String(T.unread)) : null;
    put(
      tabs,
      g.my_side ? tab("players", "Chat ", badge) : null,
      g.my_side && T.hideSpectators ? null : tab("spectators", "Spectators"),
      g.my_side ? tab("notes", "Notes") : null,
      g.my_side
        ? h("label", { class: "inline hide-spectators", title: "Hide the spectators' chat" }, h("input", { type: "checkbox", id: "hide-spectators", checked: T.hideSpectators, onchange: (ev) => {
              T.hideSpectators = ev.target.checked;
              localStorage.setItem("muster-hide-spectators", T.hideSpectators ? "1" : "0");
              if (T.hideSpectators && T.tab === "spectators") T.tab = "players";
              render();
            } }), " hide spectators")
        : null,
    );
  }
  function renderList() {
    const held = T.messages[T.tab] || [];
    const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    put(
      list,
      held.length
        ? held.map((m) =>
            h(
              "li",
              { class: `chat-msg${m.from === me() ? " mine" : ""}`, dataset: { n: m.n } },
              h("span", { class: "chat-from" }, m.from),
              " ",
              h("span", { class: "muted chat-at", title: new Date(m.at * 1000).toLocaleString() }, ago(m.at)),
              S.user && m.from !== me() ? h("button", { class: "link-btn chat-mute", title: `Mute ${m.from} in every game`, onclick: () => mute(m.from) }, "mute") : null,
              h("div", { class: "chat-text" }, m.text),
            ),
          )
        : h("li", { class: "muted empty" }, T.tab === "players" ? "No messages yet. Only the players read this chat." : "No spectators' messages yet."),
    );
    if (stick || held.length < 3) list.scrollTop = list.scrollHeight;
  }
  function render() {
    const g = ctx.game();
    if (!g.my_side && T.tab !== "spectators") T.tab = "spectators";
    renderBar();
    renderOffers();
    renderTabs();
    const onNotes = T.tab === "notes";
    chatPane.hidden = onNotes;
    notesPane.hidden = !onNotes;
    if (!onNotes) renderList();
    // Who may post where: players in their channel, logged-in spectators in theirs.
    const canPost = S.user && (T.tab === "players" ? !!g.my_side : !g.my_side);
    form.hidden = !canPost;
    if (T.tab === "players") markSeen();
  }
  function onSocket(msg) {
    if (msg.type === "chat") {
      add(msg.message);
      return true;
    }
    if (msg.type === "offers") {
      if (msg.closed && msg.closed.why === "declined" && !T.offers.some((o) => o.kind === msg.closed.kind && o.from !== me())) flash(`Your ${msg.closed.kind} offer was declined.`);
      setOffers(msg);
      return true;
    }
    if (msg.type === "state" && msg.offers) setOffers(msg);
    return false;
  }
  document.addEventListener("visibilitychange", markSeen);
  return { el, onSocket, update: render, reload, cleanup: () => document.removeEventListener("visibilitychange", markSeen) };
}

// ---------------------------------------------------------------------------------------------
// Replay viewer for finished games. With `GET /api/games/<id>/replay` (the view after each
// action), every step shows its board; without it, the viewer steps through the log and the
// record while the board shows the final position.

async function replayPage(id) {
  const live = routeLive();
  const eid = encodeURIComponent(id);
  const game = await api("GET", `/api/games/${eid}`);
  if (!live()) return;
  const info = gameInfo(game.game);
  if (game.status !== "finished") {
    main().replaceChildren(h("section", { class: "panel" }, h("h2", {}, "Replay"), h("p", {}, "Replays open once a game is over. "), h("a", { class: "button", href: `#/game/${id}` }, "Back to the game")));
    setState("ready");
    return;
  }
  const [board, record, renderer] = await Promise.all([api("GET", `/api/games/${eid}/board`).catch(() => null), api("GET", `/api/games/${eid}/record`).catch(() => null), loadRenderer(game.game)]);
  let steps = null;
  try {
    const r = await api("GET", `/api/games/${eid}/replay`);
    if (r && Array.isArray(r.steps) && r.steps.length) steps = r.steps;
  } catch (e) {
    steps = null;
  }
  if (!live()) return;
  const byViews = !!steps;
  // Without views, a step is a log entry.
  const count = byViews ? steps.length : game.log.length;
  let at = count - 1;

  const boardBox = h("div", { class: "board", id: "board" });
  const slider = h("input", { type: "range", min: 0, max: Math.max(0, count - 1), value: at, id: "replay-slider", "aria-label": "Step" });
  const pos = h("span", { class: "replay-pos", id: "replay-pos" });
  // Where the shown step stands (issue 17): turn and phase from the renderer's tracks, and who
  // decides next (the side of the next recorded action).
  const readout = h("div", { class: "replay-readout", id: "replay-readout" });
  const tracks = h("div", { class: "tracks", id: "tracks" });
  const stepGame = (i) => Object.assign({}, game, { view: steps[i].view, legal: [], to_act: steps[i + 1] ? steps[i + 1].side : null });
  const rowsAt = (i) => (renderer && renderer.tracks && board ? renderer.tracks(board, stepGame(i)) || [] : []);
  const turnAt = (i) => {
    const v = steps[i].view || {};
    if (typeof v.turn === "number") return v.turn;
    const row = rowsAt(i).find((r) => /^turn$/i.test(String(r.label)));
    return row && typeof row.value === "number" ? row.value : null;
  };
  const turnSel = h("select", { id: "replay-turn", "aria-label": "Jump to a turn" }, h("option", { value: "" }, "Jump to turn…"));
  const log = logView({ renderer, still: true, onSection: () => {} });
  const actionsList = h("ol", { class: "record", id: "record" });
  const note = byViews ? null : h("p", { class: "muted note" }, "This server sends no position per step: the map shows the final position, and the log and the record step forward and back.");

  const entryStep = []; // log index -> step
  const turns = [];
  if (byViews) {
    steps.forEach((s, i) => {
      const t = turnAt(i);
      if (t !== null && t !== undefined && !turns.some((x) => x.turn === t)) turns.push({ turn: t, step: i });
    });
  } else if (renderer && renderer.turnOf) {
    game.log.forEach((e, i) => {
      const t = renderer.turnOf(e);
      if (t !== null && t !== undefined && !turns.some((x) => x.turn === t)) turns.push({ turn: t, step: i });
      entryStep.push(i);
    });
  }
  turnSel.append(...turns.map((t) => h("option", { value: t.step }, `Turn ${t.turn}`)));
  if (record) {
    actionsList.append(...record.actions.map((a, i) => h("li", { dataset: { index: i } }, sideBadge(renderer, game.game, a.side), " ", h("code", {}, a.action))));
  }

  function show() {
    slider.value = at;
    if (byViews) {
      const s = steps[at];
      pos.textContent = `Action ${at} of ${count - 1}`;
      const g = Object.assign(stepGame(at), { log: s.log || game.log.slice(0, s.log_len || 0) });
      const rows = drawTracks(tracks, renderer, board, g);
      const turnRow = rows.find((r) => /^turn$/i.test(String(r.label)));
      const phaseRow = rows.find((r) => /^phase$/i.test(String(r.label)));
      const t = turnAt(at);
      put(
        readout,
        t !== null ? h("strong", {}, `Turn ${turnRow && turnRow.text ? turnRow.text : t}`) : null,
        phaseRow ? h("span", {}, ` · ${phaseRow.text}`) : null,
        g.to_act ? [" · next: ", sideBadge(renderer, game.game, g.to_act)] : null,
        s.action ? h("span", { class: "muted" }, " · last: ", sideBadge(renderer, game.game, s.side), " ", h("code", {}, s.action)) : null,
      );
      turnSel.value = String([...turns].reverse().find((x) => x.step <= at)?.step ?? "");
      // The board marks what the shown action changed, as the game page marks a step.
      const recent = at > 0 ? { views: [steps[at - 1].view, s.view] } : null;
      if (renderer && board) renderer.render(boardBox, board, g, { interactive: false, choose: () => {}, label: (a) => a, sideLook: (x) => sideLook(renderer, game.game, x), recent, recentDiff, drawRecent, markRecent: markRecentOf(recent) });
      log.update(g.log, g.log.length - 1);
      $$("li", actionsList).forEach((li) => li.classList.toggle("current", Number(li.dataset.index) === at - 1));
    } else {
      pos.textContent = `Entry ${at + 1} of ${count}`;
      log.update(game.log.slice(0, at + 1), at);
    }
    setState("ready", { step: at });
  }
  const go = (n) => {
    at = Math.max(0, Math.min(count - 1, n));
    show();
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  turnSel.addEventListener("change", () => turnSel.value !== "" && go(Number(turnSel.value)));

  const controls = h(
    "div",
    { class: "replay-controls" },
    h("button", { id: "replay-first", onclick: () => go(0), title: "First (Home)", "aria-label": "First" }, "|◀"),
    h("button", { id: "replay-back", onclick: () => go(at - 1), title: "Back (←)" }, "◀"),
    h("button", { id: "replay-forward", onclick: () => go(at + 1), title: "Forward (→)" }, "▶"),
    h("button", { id: "replay-last", onclick: () => go(count - 1), title: "Last (End)", "aria-label": "Last" }, "▶|"),
    slider,
    pos,
    turns.length ? turnSel : null,
  );
  const vp = game.outcome ? Object.entries(game.outcome.vp || {}).map(([s, v]) => `${titleCase(s)} ${v}`).join(", ") : "";
  main().replaceChildren(
    h(
      "div",
      { class: "game-page replay" },
      h(
        "section",
        { class: "play" },
        h("div", { class: "promptbar" }, h("div", { class: "game-title" }, h("strong", {}, "Replay: ", info ? info.name : game.game), " · ", scenarioName(game.game, game.scenario)), h("div", { class: "prompt" }, game.outcome ? `${titleCase(game.outcome.winner || "nobody")} won — VP ${vp}. ${game.outcome.reason || ""}` : ""), controls, byViews ? readout : null, note),
        renderer && board ? h("div", { class: "board-area" }, h("div", { class: "board-wrap" }, boardBox)) : h("p", { class: "muted" }, "This game has no board drawing yet."),
      ),
      h("aside", { class: "sidebar" }, byViews && renderer && board ? tracksPanel(tracks) : null, h("h3", {}, "Log"), log.el, record ? h("details", { class: "record-box" }, h("summary", {}, `Record: ${record.actions.length} actions`), actionsList) : null),
    ),
  );
  if (renderer && board) renderer.render(boardBox, board, Object.assign({}, game, { legal: [] }), { interactive: false, choose: () => {}, label: (a) => a, sideLook: (x) => sideLook(renderer, game.game, x) });
  const onKey = (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowLeft") go(at - 1);
    else if (ev.key === "ArrowRight") go(at + 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(count - 1);
  };
  document.addEventListener("keydown", onKey);
  S.page = { kind: "replay", cleanup: () => document.removeEventListener("keydown", onKey) };
  show();
}

// ---------------------------------------------------------------------------------------------

async function start() {
  try {
    await loadSession();
  } catch (e) {
    main().replaceChildren(h("section", { class: "panel error" }, h("h2", {}, "The server cannot be reached"), h("p", {}, e.message)));
    return;
  }
  window.addEventListener("hashchange", route);
  route();
}

document.addEventListener("DOMContentLoaded", start);

// ---------------------------------------------------------------------------------------------
// Notifications (issue 16 §1): the account's mail and webhook settings (#/account), the
// browser's Notification API while a Muster tab is open, and the count of games waiting on
// the player in the lobby.

const notices = { known: null, timer: null };

/// The count of the player's games that wait on them, beside "My games".
function turnBadge(lobby) {
  const n = lobby.mine.filter((g) => g.my_turn).length;
  return n ? h("span", { class: "badge turn-count", id: "turn-count", title: `${n} of your games wait${n === 1 ? "s" : ""} on you` }, String(n)) : null;
}

function notifyButton() {
  if (!S.user || !("Notification" in window) || Notification.permission !== "default") return null;
  return h(
    "button",
    {
      id: "notify-button",
      onclick: async () => {
        const answer = await Notification.requestPermission();
        if (answer === "granted") {
          flash("This tab will tell you when it is your turn.");
          watchTurns();
        }
        if (S.page && S.page.kind === "lobby") lobbyPage();
      },
    },
    "Notify me of my turns",
  );
}

/// Tells the player (a browser notification) of each game that has become theirs since the
/// last look at the lobby.
function noticeTurns(lobby) {
  const now = new Set(lobby.mine.filter((g) => g.my_turn).map((g) => g.id));
  if (notices.known && "Notification" in window && Notification.permission === "granted") {
    for (const g of lobby.mine) {
      if (!g.my_turn || notices.known.has(g.id)) continue;
      const info = gameInfo(g.game);
      const scenario = info && info.scenarios.find((s) => s.id === g.scenario);
      const n = new Notification("Your turn — Muster", { body: scenario ? scenario.name : g.scenario, tag: `muster-${g.id}` });
      n.onclick = () => {
        window.focus();
        location.hash = `#/game/${g.id}`;
      };
    }
  }
  notices.known = now;
  watchTurns();
}

/// While permission is granted, looks at the lobby every 30 s even from a hidden tab.
function watchTurns() {
  if (notices.timer || !S.user || !("Notification" in window) || Notification.permission !== "granted") return;
  notices.timer = setInterval(async () => {
    if (!S.user) return;
    try {
      noticeTurns(await api("GET", "/api/lobby"));
    } catch (e) {
      /* the next tick tries again */
    }
  }, 30000);
}

/// "2d 03:10", "1:05:09", "4:07": seconds left on a clock.
function clockText(secs) {
  const d = Math.floor(secs / 86400);
  const hh = Math.floor((secs % 86400) / 3600);
  const mm = Math.floor((secs % 3600) / 60);
  const ss = secs % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (d > 0) return `${d}d ${two(hh)}:${two(mm)}`;
  if (hh > 0) return `${hh}:${two(mm)}:${two(ss)}`;
  return `${mm}:${two(ss)}`;
}

/// Vacation days (issue 16 §2): they stop the clocks of the player's games.
async function vacationPanel() {
  const v = await api("GET", "/api/account/vacation");
  const days = h("input", { type: "number", id: "vacation-days", min: 1, max: v.days_left || 1, value: Math.min(7, v.days_left || 1) });
  const err = h("p", { class: "form-error", role: "alert" });
  const until = v.on_vacation_until ? new Date(v.on_vacation_until * 1000).toLocaleString() : null;
  const submit = h("button", { type: "submit", id: "vacation-start", disabled: !!until || !v.days_left }, "Start a vacation");
  return h(
    "form",
    {
      class: "panel auth",
      id: "vacation-form",
      onsubmit: async (ev) => {
        ev.preventDefault();
        err.textContent = "";
        try {
          await api("POST", "/api/account/vacation", { days: Math.round(Number(days.value)) });
          flash("Vacation started: your clocks are stopped.");
          accountPage();
        } catch (e) {
          err.textContent = e.message;
        }
      },
    },
    h("h2", {}, "Vacation"),
    h("p", {}, until ? `On vacation until ${until}: your clocks are stopped.` : `${v.days_left} of ${v.days_per_year} days left in the last 365 days.`),
    until ? null : h("label", {}, "Days", days),
    h("p", { class: "hint" }, until ? "Ending it now starts your clocks again, each with the time it had left." : "Starts now and stops the clocks of all your games until it ends."),
    err,
    until
      ? h(
          "button",
          {
            type: "button",
            id: "vacation-end",
            onclick: async () => {
              err.textContent = "";
              try {
                await api("POST", "/api/account/vacation/end", {});
                flash("Vacation ended: your clocks run again.");
                accountPage();
              } catch (e) {
                err.textContent = e.message;
              }
            },
          },
          "End the vacation now",
        )
      : submit,
  );
}

async function accountPage() {
  if (needLogin()) return;
  const live = routeLive();
  const n = await api("GET", "/api/account/notifications");
  if (!live()) return;
  const confirmState = () => {
    if (!n.email) return h("p", { class: "hint", id: "email-state" }, "No e-mail address: no mail, and no password reset by mail.");
    if (n.email_confirmed) return h("p", { class: "hint confirmed", id: "email-state" }, `${n.email} is confirmed.`);
    return h(
      "p",
      { class: "hint unconfirmed", id: "email-state" },
      `${n.email} is not confirmed yet: open the link mailed to it. Nothing else is mailed there until then. `,
      h(
        "button",
        {
          type: "button",
          class: "link",
          id: "email-resend",
          onclick: async () => {
            try {
              await api("POST", "/api/account/confirm", {});
              flash(`A new link was mailed to ${n.email}.`);
            } catch (e) {
              flash(e.message, "error");
            }
          },
        },
        "Send the link again",
      ),
    );
  };
  const err = h("p", { class: "form-error", role: "alert" });
  const email = h("input", { id: "notify-email", type: "email", value: n.email || "", autocomplete: "email", maxlength: 254 });
  const webhook = h("input", { id: "notify-webhook", type: "url", value: n.webhook || "", placeholder: "https://discord.com/api/webhooks/…", maxlength: 2000 });
  const mail = h("input", { id: "notify-mail", type: "checkbox" });
  mail.checked = n.mail;
  const labels = { your_turn: "It is my turn", game_over: "A game of mine ends", invited: "I am seated in a new game", offer: "An offer (rematch, draw)", chat: "A chat message", time_running_out: "My time in a game runs out soon" };
  const boxes = Object.keys(n.events).map((k) => {
    const box = h("input", { type: "checkbox", name: k, id: `notify-${k}` });
    box.checked = n.events[k];
    return h("label", { class: "inline" }, box, labels[k] || k);
  });
  const submit = h("button", { type: "submit", class: "primary", id: "notify-save" }, "Save");
  main().replaceChildren(
    h(
      "form",
      {
        class: "panel auth",
        id: "notify-form",
        onsubmit: async (ev) => {
          ev.preventDefault();
          err.textContent = "";
          submit.disabled = true;
          const events = {};
          for (const l of boxes) events[l.firstChild.name] = l.firstChild.checked;
          try {
            const before = n.email;
            Object.assign(n, await api("POST", "/api/account/notifications", { email: email.value.trim() || null, webhook: webhook.value.trim() || null, mail: mail.checked, events }));
            $("#email-state").replaceWith(confirmState());
            flash(n.email && n.email !== before && !n.email_confirmed ? `Saved. A confirmation link was mailed to ${n.email}.` : "Notification settings saved.");
          } catch (e) {
            err.textContent = e.message;
          } finally {
            submit.disabled = false;
          }
        },
      },
      h("h2", {}, "Notifications"),
      h("label", {}, "E-mail address", email),
      confirmState(),
      h("p", { class: "hint" }, "Mails link to the game; at most one “your turn” mail per game an hour while you have not looked."),
      h("label", { class: "inline" }, mail, "Send me mail"),
      h("label", {}, "Webhook", webhook),
      h("p", { class: "hint" }, "The server POSTs JSON (event, game, url, text, content) here: Discord and Slack incoming webhooks take it."),
      h("fieldset", {}, h("legend", {}, "Tell me when"), ...boxes),
      err,
      submit,
      notifyButton(),
    ),
    passwordForm(),
    deleteForm(),
  );
  const vacation = await vacationPanel();
  if (!live()) return;
  main().append(vacation);
  setState("ready");
  S.page = { kind: "account" };
}

function passwordForm() {
  const old = h("input", { id: "password-old", type: "password", required: true, autocomplete: "current-password", maxlength: 200 });
  const neu = h("input", { id: "password-new", type: "password", required: true, minlength: 8, maxlength: 200, autocomplete: "new-password" });
  return simpleForm(
    "password",
    "Change password",
    [h("label", {}, "Current password", old), h("label", {}, "New password", neu)],
    "Change password",
    async () => {
      await api("POST", "/api/account/password", { old: old.value, new: neu.value });
      old.value = neu.value = "";
      flash("Password changed. Your other sessions were logged out.");
    },
    "Every other session of your account (other browsers, devices) is logged out; this one stays.",
  );
}

// Deleting asks once more, in the page, before anything is sent.
function deleteForm() {
  const pass = h("input", { id: "delete-password", type: "password", required: true, autocomplete: "current-password", maxlength: 200 });
  const ask = h("div", { class: "confirm", id: "delete-confirm", hidden: true });
  const f = simpleForm(
    "delete",
    "Delete account",
    [h("label", {}, "Password", pass), ask],
    "Delete my account",
    async () => {
      ask.hidden = false;
      ask.replaceChildren(
        h("p", {}, "Delete your account for good? You cannot log in again; your games stay, under a replaced name."),
        h(
          "button",
          {
            type: "button",
            class: "danger",
            id: "delete-yes",
            onclick: async () => {
              ask.hidden = true;
              try {
                await api("POST", "/api/account/delete", { password: pass.value });
                await loadSession();
                flash("Your account was deleted.");
                location.hash = "#/";
              } catch (e) {
                f.querySelector(".form-error").textContent = e.message;
              }
            },
          },
          "Delete it",
        ),
        h("button", { type: "button", id: "delete-no", onclick: () => (ask.hidden = true) }, "Cancel"),
      );
    },
    "Your e-mail address, webhook and settings are removed and your open games withdrawn. Your games stay, with your name replaced by deleted-… ; your name becomes free for others.",
  );
  f.classList.add("danger");
  return f;
}
