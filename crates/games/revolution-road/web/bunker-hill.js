// Board renderer of "Revolution Road: Bunker Hill" for Muster's browser client, following the
// contract in docs/server.md ("Board renderers"): it registers
// window.MusterBoards["bunker-hill"] = { render, rules, irreversible, shortcuts, sides, tracks, turnOf }.
// The map comes from GET /api/games/<id>/board (src/bunker/mod.rs, `board`: region polygons,
// centres, elevation, terrain, landing zones), the pieces and tracks from the viewer's view
// (src/bunker/mod.rs, `view`): unknown militia strengths show "?".
(function () {
  "use strict";

  const NS = "http://www.w3.org/2000/svg";
  const SIDES = {
    patriot: { label: "Patriot", emblem: "★", cls: "american", fill: "#1f4e8c", ink: "#ffffff" },
    british: { label: "British", emblem: "◆", cls: "british", fill: "#a3271f", ink: "#ffffff" },
  };
  const KIND = { regular: "REG", marine: "MAR", cannon: "GUN", minuteman: "MM", militia: "MIL", leader: "LDR", battery: "CH" };
  const FILL = { low: "#dbe8c2", slope: "#c9a77a", ridge: "#b48f63", hilltop: "#6f9a55", town: "#eadfc4", zone: "#a9d0ec" };
  // Which word of an action's notation names the region (or the piece) it is about.
  const REGION_WORD = { place: 1, panic: 1, volley: 2, assault: 2, move: 1, rally: 1, reorg: 2, snipe: 1, land: 2, gun: 2, shell: 1, hotshot: 1, to: 1, spread: 1, go: 2 };
  const UNIT_WORD = { add: 1, hit: 1 };
  const MUSTER = { id: "muster", x: -42, y: 14, w: 36, h: 44 };
  const CS = 5.2; // counter side in map units

  function svg(tag, attrs, ...kids) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      el.setAttribute(k, String(v));
    }
    for (const k of kids.flat(Infinity)) {
      if (k === null || k === undefined || k === false) continue;
      el.append(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return el;
  }

  function pts(poly) {
    return poly.map((p) => `${p[0]},${p[1]}`).join(" ");
  }

  function targetsOf(game) {
    const regions = new Map();
    const units = new Map();
    const add = (m, k, a) => {
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(a);
    };
    for (const l of game.legal || []) {
      const words = String(l.action || "").split(/\s+/);
      const verb = words[0];
      if (REGION_WORD[verb] !== undefined && words[REGION_WORD[verb]]) add(regions, words[REGION_WORD[verb]], l.action);
      else if (UNIT_WORD[verb] !== undefined && words[UNIT_WORD[verb]]) add(units, words[UNIT_WORD[verb]], l.action);
    }
    return { regions, units };
  }

  function render(container, board, game, ui) {
    const regions = (board && board.regions) || [];
    const view = (game && game.view) || {};
    const pieces = view.pieces || [];
    const ablaze = new Set((view.tracks && view.tracks.ablaze) || []);
    let x0 = MUSTER.x - 4, y0 = 0, x1 = 0, y1 = 0;
    for (const r of regions) {
      for (const p of r.polygon || []) {
        x1 = Math.max(x1, p[0]);
        y1 = Math.max(y1, p[1]);
        y0 = Math.min(y0, p[1]);
      }
    }
    x1 += 6;
    y1 += 6;
    y0 -= 6;
    const root = svg("svg", { xmlns: NS, viewBox: `${x0} ${y0} ${x1 - x0} ${y1 - y0}`, role: "img", "aria-label": "Map of the Charlestown peninsula" });
    root.append(svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, fill: "#7fb2d9" }));
    const centres = new Map();
    for (const r of regions) {
      centres.set(r.id, r.centre);
      const fill = ablaze.has(r.id) ? "#e2733a" : FILL[r.kind] || "#dddddd";
      const stroke = r.kind === "town" ? "#2e7d32" : r.kind === "zone" ? "#5b8fb9" : "#8a7350";
      const title = [r.name, `elevation ${r.elevation}`];
      if (r.volley_modifier || r.assault_modifier) title.push(`modifiers ${r.volley_modifier}/+${r.assault_modifier} (${r.modifier_kind})`);
      if (r.staging_zone) title.push(`staging area of zone ${r.staging_zone}`);
      if (r.zone) title.push(`landing zone ${r.zone.number}: transport ${r.zone.transport} / staging ${r.zone.staging}`);
      if (ablaze.has(r.id)) title.push("ablaze");
      root.append(svg("polygon", { points: pts(r.polygon || []), fill, stroke, "stroke-width": r.kind === "town" ? 0.9 : 0.5 }, svg("title", {}, title.join(" · "))));
      if (r.zone) root.append(svg("text", { x: r.centre[0], y: r.centre[1] + 1.5, "font-size": 5, "text-anchor": "middle", fill: "#1d4e74" }, String(r.zone.number)));
      if (r.volley_modifier || r.assault_modifier) {
        root.append(svg("text", { x: r.centre[0], y: r.centre[1] - 3.5, "font-size": 2.6, "text-anchor": "middle", fill: r.modifier_kind === "redoubt" ? "#c25400" : r.modifier_kind === "wall" ? "#a08600" : "#333" }, `${r.volley_modifier}/+${r.assault_modifier}`));
      }
    }
    root.append(svg("rect", { x: MUSTER.x, y: MUSTER.y, width: MUSTER.w, height: MUSTER.h, fill: "#f2efe6", stroke: "#555", "stroke-width": 0.6 }, svg("title", {}, "Patriot Muster Box (3.2), next to the Neck")));
    root.append(svg("text", { x: MUSTER.x + 2, y: MUSTER.y + 4, "font-size": 3 }, "Muster Box"));
    centres.set("muster", [MUSTER.x + MUSTER.w / 2, MUSTER.y + 8]);

    // Pieces: a small grid of counters around the region centre.
    const byPlace = new Map();
    for (const p of pieces) {
      if (!centres.has(p.at)) continue;
      if (!byPlace.has(p.at)) byPlace.set(p.at, []);
      byPlace.get(p.at).push(p);
    }
    const unitPos = new Map();
    const layer = svg("g", { class: "bh-pieces" });
    for (const [at, list] of byPlace) {
      const c = centres.get(at);
      const cols = at === "muster" ? 6 : 4;
      list.forEach((p, k) => {
        const col = k % cols;
        const row = Math.floor(k / cols);
        const x = c[0] + (col - (Math.min(list.length, cols) - 1) / 2) * (CS + 0.6);
        const y = c[1] + row * (CS + 0.6) - (at === "muster" ? 0 : CS / 2);
        unitPos.set(p.id, [x, y]);
        const side = SIDES[p.side] || SIDES.patriot;
        const leader = p.kind === "leader";
        const shape = leader
          ? svg("circle", { cx: x, cy: y, r: CS / 2, fill: side.fill, stroke: "#111", "stroke-width": 0.3 })
          : svg(p.side === "british" ? "rect" : "rect", { x: x - CS / 2, y: y - CS / 2, width: CS, height: CS, rx: p.side === "patriot" ? 1.2 : 0, fill: side.fill, stroke: "#111", "stroke-width": 0.3 });
        if (p.state !== "healthy") shape.setAttribute("fill-opacity", "0.55");
        const strength = p.strength === null || p.strength === undefined ? "?" : String(p.strength);
        const label = leader ? p.id.slice(0, 3).toUpperCase() : `${KIND[p.kind] || p.kind}${p.kind === "militia" || p.kind === "cannon" ? strength : ""}`;
        const tip = [`${side.label} ${p.kind} ${p.id}`, `strength ${strength}`, p.state].concat(p.markers || []).join(" · ");
        layer.append(svg("g", {}, shape, svg("text", { x, y: y + 0.9, "font-size": 1.9, "text-anchor": "middle", fill: side.ink }, label), svg("title", {}, tip)));
        if ((p.markers || []).length) {
          layer.append(svg("text", { x: x + CS / 2 - 0.3, y: y - CS / 2 + 1.6, "font-size": 1.5, "text-anchor": "end", fill: "#ffd21f" }, (p.markers || []).map((m) => m[0].toUpperCase()).join("")));
        }
      });
    }
    root.append(layer);

    // Targets for the legal actions, on top.
    const placed = new Set();
    if (ui && ui.interactive) {
      const t = targetsOf(game);
      const tl = svg("g", { class: "bh-targets" });
      const hook = (el, actions) => {
        const text = actions.map((a) => (ui.label ? ui.label(a) : a)).join("\n");
        el.setAttribute("tabindex", 0);
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", text);
        el.append(svg("title", {}, text));
        el.addEventListener("click", (ev) => ui.choose(actions, ev));
        el.addEventListener("keydown", (ev) => {
          if (ev.key === " " || ev.key === "Enter") {
            ev.preventDefault();
            ui.choose(actions, ev);
          }
        });
        actions.forEach((a) => placed.add(a));
        tl.append(el);
      };
      for (const [id, actions] of t.regions) {
        if (id === "muster") {
          hook(svg("rect", { x: MUSTER.x, y: MUSTER.y, width: MUSTER.w, height: MUSTER.h, fill: "#ffd21f", "fill-opacity": 0.2, stroke: "#ff9800", "stroke-width": 0.8, "data-target": "region", "data-region": id }), actions);
          continue;
        }
        const r = regions.find((x) => x.id === id);
        if (!r) continue;
        hook(svg("polygon", { points: pts(r.polygon || []), fill: "#ffd21f", "fill-opacity": 0.22, stroke: "#ff9800", "stroke-width": 0.9, "data-target": "region", "data-region": id }), actions);
      }
      for (const [id, actions] of t.units) {
        const p = unitPos.get(id);
        if (!p) continue;
        hook(svg("rect", { x: p[0] - CS / 2 - 0.5, y: p[1] - CS / 2 - 0.5, width: CS + 1, height: CS + 1, fill: "none", stroke: "#ff9800", "stroke-width": 0.7, "pointer-events": "all", "data-target": "unit", "data-unit": id }), actions);
      }
      root.append(tl);
    }
    container.replaceChildren(root);
    return { targets: placed };
  }

  function tracks(board, game) {
    const v = (game && game.view) || {};
    const t = v.tracks;
    if (!t) return [];
    const rows = [{ label: "Turn", value: t.turn, max: t.last_turn, text: `${t.turn} / ${t.last_turn}` }];
    rows.push({ label: "Card", text: v.card ? `card ${v.card} · ${v.draw_pile} left in the deck` : `${v.draw_pile} cards in the deck` });
    ["patriot", "british"].forEach((s, i) => rows.push({ side: s, label: "Actions", value: t.actions[i], max: 5, text: String(t.actions[i]) }));
    ["patriot", "british"].forEach((s, i) => rows.push({ side: s, label: "Reserve", value: t.reserves[i], max: 2, text: String(t.reserves[i]) }));
    rows.push({ side: "patriot", label: "Ammunition", value: t.ammo, max: 24, text: `${t.ammo} (limits at 12 and 0, 8.0)` });
    ["patriot", "british"].forEach((s, i) => rows.push({ side: s, label: "Morale", value: t.morale[i], max: 24, text: `${t.morale[i]}${t.demoralized[i] ? " (demoralized)" : ""}` }));
    ["patriot", "british"].forEach((s, i) => {
      const h = (t.vp_halves || [0, 0])[i];
      rows.push({ side: s, label: "VP", text: String(h / 2) });
    });
    rows.push({ label: "Fleet", text: `${t.fleet_box} · British cannon: ${t.wrong_ammo ? "wrong ammunition (4.3)" : "ammunition arrived"}` });
    if ((t.ablaze || []).length) rows.push({ label: "Ablaze", text: t.ablaze.join(", ") });
    return rows;
  }

  function turnOf(entry) {
    const m = /^End of turn (\d+)/.exec(entry && entry.text ? entry.text : "");
    return m ? Number(m[1]) + 1 : null;
  }

  // A short summary of Part Two in Muster's own words (docs/rules/bunker-hill.md maps every
  // section to the code; the printed rulebook is the authority).
  const RULES = [
    { section: "3.0", title: "The map", text: ["Regions sharing a border are adjacent. Each side may keep three military units in a land region (leaders are free; British units in staging areas and landing zones are not limited). Hilltops are elevation 2, slopes and ridges 1, the rest 0. The map is a reconstruction (docs/rulings/bunker-hill.md R1-R9)."] },
    { section: "3.3", title: "Charlestown", text: ["British units stop on entering a town region. Fire may go into a town region but not across one; a volley into town loses a die and defenders in town gain one. Burning regions are closed and score for the British."] },
    { section: "5.2", title: "Actions", text: ["The side with more actions goes first (a die on ties). A side not ahead may hand the next action over once; Reserve Actions and Plan follow 5.2 and 6.11."] },
    { section: "6.2", title: "Assault", text: ["Attackers need at least as many healthy units as the defenders, move in, and face a free defensive round; then both sides roll each round, and either may pull back after a round."] },
    { section: "7.2", title: "Line of Sight", text: ["Computed from the region centres: adjacent regions always see each other; towns and higher ground block; units block fire at the same elevation."] },
    { section: "8.0", title: "Ammunition", text: ["The Patriot track starts at 24. At 12 the Patriot rolls at most three dice and cannot snipe; at 0 at most two, no Patriot assaults, volleys only next door."] },
    { section: "9.0", title: "Morale", text: ["Breaks, wounds and losses lower morale; rallies raise it. At 12 Patriot militia may panic; at 0 a side is demoralized; both demoralized ends the game."] },
    { section: "10.0", title: "Victory", text: ["More Victory Points wins; on a tie the side holding more hilltop regions, else the Patriot."] },
  ];

  window.MusterBoards = window.MusterBoards || {};
  window.MusterBoards["bunker-hill"] = {
    render,
    rules: RULES,
    irreversible: ["done", "fire", "gun", "shell", "hotshot", "snipe", "yield", "pass", "plan", "objective", "focus", "panic", "go", "naval", "zone", "spread", "hit"],
    shortcuts: { Enter: ["done", "hold"], p: ["pass"], y: ["yield"], r: ["reserve"] },
    sides: {
      patriot: { label: SIDES.patriot.label, emblem: SIDES.patriot.emblem, cls: SIDES.patriot.cls },
      british: { label: SIDES.british.label, emblem: SIDES.british.emblem, cls: SIDES.british.cls },
    },
    tracks,
    turnOf,
  };
})();
