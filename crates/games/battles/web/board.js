// Board renderer of "Battles of the American Revolution" for Muster's browser client. It follows
// the contract in docs/server.md ("Board renderers"): it registers
// window.MusterBoards.battles = { render, rules, irreversible, shortcuts, sides, tracks, turnOf }.
// The map is drawn as SVG from GET /api/games/<id>/board (board_json.rs) and the view
// (state.rs): flat-topped hexes in columns, every other column half a hex lower.
(function () {
  "use strict";

  const NS = "http://www.w3.org/2000/svg";
  const R = 36; // hex radius (centre to corner), in SVG units
  const SQ3 = Math.sqrt(3);
  const HH = (SQ3 * R) / 2; // half a hex's height
  const MARGIN = R * 1.3;
  const C = R * 1.08; // counter side on the map

  const SIDES = {
    american: { label: "American", emblem: "★", cls: "american", fill: "#1f4e8c", light: "#7d9fcc", ink: "#ffffff" },
    british: { label: "British", emblem: "◆", cls: "british", fill: "#a3271f", light: "#d08a83", ink: "#ffffff" },
  };
  const TERRAIN = {
    clear: "url(#bt-clear)",
    woods: "url(#bt-woods)",
    hill: "url(#bt-hill)",
    farm: "url(#bt-farm)",
    swamp: "url(#bt-swamp)",
  };
  const STEP_NAMES = {
    setup: "Set-up",
    rally: "Rally",
    reinforce: "Reinforcements",
    movement: "Movement",
    "artillery-fire": "Artillery fire",
    "artillery-retreat": "Retreat after artillery fire",
    attacks: "Attacks",
    declare: "Declaring an attack",
    support: "Artillery support",
    losses: "Losses",
    retreat: "Retreats",
    advance: "Advance after combat",
    over: "Game over",
  };
  // Verbs whose target is a hex, and verbs whose target is a unit (by id).
  const HEX_VERBS = ["place", "move", "retreat"];
  const UNIT_VERBS = ["select", "attack", "add", "charge", "fire", "loss", "advance", "rally"];

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

  function parseHex(label) {
    const m = /^([A-P])(\d{1,2})$/.exec(String(label || ""));
    if (!m) return null;
    return { col: m[1].charCodeAt(0) - 65, row: Number(m[2]) - 1 };
  }

  function geometry(board) {
    const low = (col) => (board.low_columns === "odd" ? col % 2 === 0 : col % 2 === 1);
    const center = (label) => {
      const p = parseHex(label);
      if (!p) return null;
      return {
        x: MARGIN + R + p.col * 1.5 * R,
        y: MARGIN + HH + p.row * 2 * HH + (low(p.col) ? HH : 0),
      };
    };
    const width = MARGIN * 2 + R * 2 + (board.columns - 1) * 1.5 * R;
    const mapHeight = MARGIN * 2 + 2 * HH * board.rows + HH;
    return { center, width, mapHeight };
  }

  function corners(c, r = R) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      pts.push([c.x + r * Math.cos(a), c.y + r * Math.sin(a)]);
    }
    return pts;
  }
  const pointsAttr = (pts) => pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");

  // The hexside shared by two adjacent hexes: its two end points.
  function sharedEdge(a, b) {
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const px = (-dy / len) * (R / 2);
    const py = (dx / len) * (R / 2);
    return { x1: mx - px, y1: my - py, x2: mx + px, y2: my + py, mx, my, ux: dx / len, uy: dy / len };
  }

  function starPoints(cx, cy, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (Math.PI / 5) * i;
      const rr = i % 2 === 0 ? r : r * 0.42;
      pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
    }
    return pointsAttr(pts);
  }

  function defs() {
    return svg(
      "defs",
      {},
      svg("pattern", { id: "bt-clear", width: 24, height: 24, patternUnits: "userSpaceOnUse" }, svg("rect", { width: 24, height: 24, fill: "#e8e2c0" }), svg("circle", { cx: 6, cy: 8, r: 0.8, fill: "#c9c096" }), svg("circle", { cx: 18, cy: 19, r: 0.8, fill: "#c9c096" })),
      svg(
        "pattern",
        { id: "bt-woods", width: 22, height: 22, patternUnits: "userSpaceOnUse" },
        svg("rect", { width: 22, height: 22, fill: "#a9c486" }),
        svg("circle", { cx: 5, cy: 6, r: 4, fill: "#7fa45c" }),
        svg("circle", { cx: 16, cy: 15, r: 4.5, fill: "#769d53" }),
        svg("circle", { cx: 15, cy: 4, r: 2.6, fill: "#86ab63" }),
        svg("circle", { cx: 5, cy: 17, r: 2.6, fill: "#86ab63" }),
        svg("circle", { cx: 4, cy: 5, r: 1.3, fill: "#9cbd79" }),
        svg("circle", { cx: 15, cy: 14, r: 1.4, fill: "#9cbd79" }),
      ),
      svg(
        "pattern",
        { id: "bt-hill", width: 30, height: 18, patternUnits: "userSpaceOnUse" },
        svg("rect", { width: 30, height: 18, fill: "#d9be86" }),
        svg("path", { d: "M0 14 Q7.5 6 15 14 T30 14", fill: "none", stroke: "#b0894a", "stroke-width": 1.3 }),
        svg("path", { d: "M-15 5 Q-7.5 -3 0 5 T15 5 T30 5", fill: "none", stroke: "#c39e60", "stroke-width": 1 }),
      ),
      svg(
        "pattern",
        { id: "bt-farm", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(30)" },
        svg("rect", { width: 10, height: 10, fill: "#eddc93" }),
        svg("line", { x1: 0, y1: 2, x2: 10, y2: 2, stroke: "#cdb55c", "stroke-width": 1.4 }),
      ),
      svg(
        "pattern",
        { id: "bt-swamp", width: 20, height: 16, patternUnits: "userSpaceOnUse" },
        svg("rect", { width: 20, height: 16, fill: "#a8c4b8" }),
        svg("path", { d: "M3 12 v-5 M5 12 v-7 M7 12 v-5", stroke: "#3f6f5d", "stroke-width": 1, fill: "none" }),
        svg("path", { d: "M11 6 h6 M13 9 h5 M1 15 h6", stroke: "#5b8fb0", "stroke-width": 1, fill: "none" }),
      ),
      svg("pattern", { id: "bt-reduced", width: 5, height: 5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, svg("rect", { width: 5, height: 5, fill: "rgba(255,255,255,0.25)" }), svg("rect", { width: 2.2, height: 5, fill: "rgba(255,255,255,0.9)" })),
      svg("filter", { id: "bt-shadow", x: "-20%", y: "-20%", width: "150%", height: "150%" }, svg("feDropShadow", { dx: 1.4, dy: 1.8, stdDeviation: 0.9, "flood-color": "#000", "flood-opacity": 0.45 })),
      svg("filter", { id: "bt-glow", x: "-40%", y: "-40%", width: "180%", height: "180%" }, svg("feDropShadow", { dx: 0, dy: 0, stdDeviation: 3, "flood-color": "#ffd21f", "flood-opacity": 1 })),
    );
  }

  const style = `
    .bt-hex { stroke: #5e5a44; stroke-width: 0.8; stroke-opacity: 0.55; }
    .bt-label { font: 600 8px sans-serif; fill: #3b3a2c; fill-opacity: 0.7; text-anchor: middle; pointer-events: none; }
    .bt-name { font: 700 7.2px sans-serif; text-anchor: middle; pointer-events: none; }
    .bt-values { font: 700 11.5px sans-serif; text-anchor: middle; pointer-events: none; }
    .bt-chip { font: 700 10px sans-serif; text-anchor: middle; pointer-events: none; }
    .bt-area { fill: none; stroke: #5b2d82; stroke-width: 2.6; stroke-dasharray: 7 4; stroke-linecap: round; pointer-events: none; }
    .bt-area-label { font: 700 9px sans-serif; fill: #fff; text-anchor: middle; pointer-events: none; }
    .bt-box-title { font: 700 11px Georgia, serif; fill: #2e2a22; }
    .bt-box-sub { font: 600 8.5px sans-serif; fill: #5a5345; }
    .bt-target { fill: #ffd21f; fill-opacity: 0.28; stroke: #ffb300; stroke-width: 3; cursor: pointer; }
    .bt-target:hover { fill-opacity: 0.5; stroke: #ff6f00; }
    .bt-target.unit { fill-opacity: 0.12; stroke-dasharray: 6 3; }
    .bt-target.unit:hover { fill-opacity: 0.35; }
    .bt-passive .bt-target { display: none; }
    .bt-title { font: 700 13px Georgia, serif; fill: #2e2a22; }
    .bt-legend { font: 9px sans-serif; fill: #3a362c; }
  `;

  function shortName(u) {
    const m = /\(([^()]*)\)\s*$/.exec(u.name || "");
    return m ? m[1] : u.id;
  }

  // A counter: side colour, emblem shape (star or diamond), name, infantry symbol, CF-MP; a
  // hatched band and the reduced values when reduced; chips for this turn's markers.
  function counter(def, st, x, y, size, opts = {}) {
    const side = SIDES[def.side] || SIDES.american;
    const reduced = !!(st && st.reduced);
    const half = size / 2;
    const g = svg("g", { class: `bt-counter side-${def.side}`, "data-unit": def.id, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, filter: "url(#bt-shadow)" });
    const cf = reduced ? def.reduced_cf : def.cf;
    const mp = reduced ? def.reduced_mp : def.mp;
    const notes = [];
    if (reduced) notes.push(`reduced, printed ${def.cf}-${def.mp}`);
    if (st && st.moved) notes.push("moved");
    if (st && st.attacked) notes.push("attacked");
    if (st && st.defended) notes.push("was attacked");
    if (st && st.rallied) notes.push("rallied (may not move)");
    g.append(svg("title", {}, `${def.name} — ${side.label}, ${cf}-${mp}${st && parseHex(st.at) ? ` at ${st.at}` : ""}${notes.length ? ` (${notes.join(", ")})` : ""}`));
    g.append(svg("rect", { x: -half, y: -half, width: size, height: size, rx: def.side === "american" ? size * 0.14 : 1.5, fill: reduced ? side.light : side.fill, stroke: opts.selected ? "#ffd21f" : "#1b1b1b", "stroke-width": opts.selected ? 3.2 : 1 }));
    // Inner frame
    g.append(svg("rect", { x: -half + 2, y: -half + 2, width: size - 4, height: size - 4, rx: def.side === "american" ? size * 0.1 : 0.5, fill: "none", stroke: "rgba(255,255,255,0.55)", "stroke-width": 0.7 }));
    if (reduced) g.append(svg("polygon", { points: `${half - size * 0.42},${-half} ${half},${-half} ${half},${-half + size * 0.42}`, fill: "url(#bt-reduced)", stroke: "none" }));
    // Emblem: a star for the Americans, a diamond for the British.
    const ex = -half + size * 0.17;
    const ey = -half + size * 0.17;
    if (def.side === "american") g.append(svg("polygon", { points: starPoints(ex, ey, size * 0.12), fill: "#fff" }));
    else g.append(svg("polygon", { points: `${ex},${ey - size * 0.11} ${ex + size * 0.09},${ey} ${ex},${ey + size * 0.11} ${ex - size * 0.09},${ey}`, fill: "#fff" }));
    // Name
    const name = shortName(def);
    const nameAttrs = { class: "bt-name", x: size * 0.06, y: -half + size * 0.27, fill: side.ink };
    if (name.length > 8) Object.assign(nameAttrs, { textLength: size * 0.66, lengthAdjust: "spacingAndGlyphs" });
    g.append(svg("text", nameAttrs, name));
    // Infantry symbol
    const bw = size * 0.46;
    const bh = size * 0.26;
    const by = -size * 0.12;
    g.append(svg("rect", { x: -bw / 2, y: by, width: bw, height: bh, fill: "none", stroke: side.ink, "stroke-width": 1 }));
    g.append(svg("path", { d: `M${-bw / 2} ${by} L${bw / 2} ${by + bh} M${bw / 2} ${by} L${-bw / 2} ${by + bh}`, stroke: side.ink, "stroke-width": 0.9 }));
    // Values
    g.append(svg("text", { class: "bt-values", x: 0, y: half - size * 0.1, fill: reduced ? "#111" : side.ink }, `${cf}-${mp}`));
    // Markers of this turn, as lettered chips along the right edge.
    const chips = [];
    if (st && st.moved) chips.push(["M", "#e6e6e6", "#222", "moved"]);
    if (st && st.rallied) chips.push(["R", "#9fd39a", "#102010", "rallied"]);
    if (st && st.attacked) chips.push(["A", "#f5a623", "#221400", "attacked"]);
    if (st && st.defended) chips.push(["D", "#c9b6e4", "#1a1030", "was attacked"]);
    for (const extra of opts.chips || []) chips.push(extra);
    // Chips of 14 units (about 10 px at the default zoom on a laptop), explained by the map's
    // legend line (issue 17).
    chips.forEach(([t, bg, fg, title], i) => {
      const cy = -half - 2 + i * 14.5;
      const w = t.length > 1 ? 18 : 14;
      g.append(svg("g", { class: "bt-chipbox", "data-chip": t, transform: `translate(${half - 5},${cy})`, filter: "none" }, svg("title", {}, title), svg("rect", { x: 0, y: 0, width: w, height: 14, rx: 2, fill: bg, stroke: "#222", "stroke-width": 0.7 }), svg("text", { class: "bt-chip", x: w / 2, y: 10.5, fill: fg }, t)));
    });
    return g;
  }

  // Which legal actions can be made on the map: hex -> actions, plus the exit marker.
  function targetsOf(game, selectedHex) {
    const units = {};
    for (const u of (game.view && game.view.units) || []) units[u.id] = u;
    const byHex = new Map();
    const exit = [];
    const add = (hex, action, kind) => {
      if (!parseHex(hex)) return;
      if (!byHex.has(hex)) byHex.set(hex, { actions: [], unit: false });
      const t = byHex.get(hex);
      t.actions.push(action);
      if (kind === "unit") t.unit = true;
    };
    for (const l of game.legal || []) {
      const [verb, arg] = l.action.split(/\s+/);
      if (HEX_VERBS.includes(verb)) add(arg, l.action, "hex");
      else if (UNIT_VERBS.includes(verb) && units[arg]) add(units[arg].at, l.action, "unit");
      else if (verb === "hold" && selectedHex) add(selectedHex, l.action, "unit");
      else if (verb === "exit") exit.push(l.action);
    }
    return { byHex, exit };
  }

  function render(container, board, game, ui) {
    const geo = geometry(board);
    const view = game.view || {};
    const defs_ = {};
    for (const u of board.units || []) defs_[u.id] = u;
    const states = view.units || [];
    const phase = view.phase || {};
    const unitAt = new Map();
    states.forEach((u) => {
      if (parseHex(u.at)) unitAt.set(u.at, u);
    });
    const idx = (i) => (i === undefined || i === null ? null : states[i] || null);
    const selected = phase.step === "movement" ? idx(phase.selected) : null;
    const battle = phase.battle || null;
    const target = phase.step === "declare" ? idx(phase.target) : battle ? idx(battle.target) : null;
    const attackers = new Set(((phase.step === "declare" ? phase.attackers : battle && battle.attackers) || []).map((i) => idx(i)).filter(Boolean).map((u) => u.id));
    const chargeIdx = phase.step === "declare" ? phase.charge : battle && battle.charge;
    const charger = idx(chargeIdx);
    const artilleryTarget = phase.step === "artillery-retreat" ? idx(phase.unit) : null;
    const retreating = phase.step === "retreat" && phase.queue && phase.queue.length ? idx(phase.queue[0]) : null;

    // Off-map boxes below the map.
    const offmap = { american: { pending: [], unplaced: [], eliminated: [], exited: [] }, british: { pending: [], unplaced: [], eliminated: [], exited: [] } };
    for (const u of states) {
      const d = defs_[u.id];
      if (!d || !offmap[d.side] || !offmap[d.side][u.at]) continue;
      offmap[d.side][u.at].push(u);
    }
    // Off-map boxes: beside the map on a wide screen, under it on a narrow one.
    const wide = (container.clientWidth || 800) >= 640;
    const sc = 0.82; // off-map counter scale
    const cs = C * sc;
    const boxW = wide ? 262 : (geo.width - (MARGIN * 2) / 3 - 12) / 2;
    const perRow = Math.max(1, Math.floor((boxW - 16) / (cs + 12)));
    const boxes = { american: [], british: [] };
    for (const side of ["american", "british"]) {
      const o = offmap[side];
      const groups = [];
      if (o.unplaced.length) groups.push({ title: "To set up", units: o.unplaced });
      const byEntry = new Map();
      for (const u of o.pending) {
        const e = defs_[u.id].entry;
        const key = e ? `Enter on turn ${e.turn}, area ${e.area}` : "Reinforcements";
        if (!byEntry.has(key)) byEntry.set(key, []);
        byEntry.get(key).push(u);
      }
      for (const [k, v] of byEntry) groups.push({ title: k, units: v });
      if (o.exited.length) groups.push({ title: "Left the map", units: o.exited });
      if (o.eliminated.length) groups.push({ title: "Eliminated", units: o.eliminated });
      boxes[side] = groups;
    }
    const groupHeight = (g) => 14 + Math.ceil(g.units.length / perRow) * (cs + 8);
    const boxHeight = (side) => Math.max(48, 30 + boxes[side].reduce((a, g) => a + groupHeight(g), 0));
    const place = {};
    let W;
    let H;
    if (wide) {
      place.american = { x: geo.width - MARGIN / 3 + 10, y: MARGIN / 3, h: boxHeight("american") };
      place.british = { x: place.american.x, y: place.american.y + place.american.h + 10, h: boxHeight("british") };
      W = place.american.x + boxW + 10;
      H = Math.max(geo.mapHeight, place.british.y + place.british.h + 10);
    } else {
      const h = Math.max(boxHeight("american"), boxHeight("british"));
      place.american = { x: MARGIN / 3, y: geo.mapHeight - MARGIN / 3 + 10, h };
      place.british = { x: MARGIN / 3 + boxW + 12, y: place.american.y, h };
      W = geo.width;
      H = place.american.y + h + 10;
    }

    const root = svg("svg", { xmlns: NS, viewBox: `0 0 ${W.toFixed(0)} ${H.toFixed(0)}`, role: "img", "aria-label": `Map of ${board.name}`, class: ui && ui.interactive ? "bt-live" : "bt-passive" });
    root.append(svg("style", {}, style), defs());
    root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#cfc3a6" }));
    root.append(svg("rect", { x: MARGIN / 3, y: MARGIN / 3, width: geo.width - (MARGIN * 2) / 3, height: geo.mapHeight - (MARGIN * 2) / 3, fill: "#e9e2c7", stroke: "#6d5f43", "stroke-width": 1.5 }));
    root.append(svg("text", { class: "bt-title", x: MARGIN / 3 + 6, y: MARGIN / 3 + 15 }, `${board.name}, ${formatDate(board.date)}`));
    root.append(svg("text", { class: "bt-legend", id: "bt-chip-legend", x: MARGIN / 3 + 6, y: MARGIN / 3 + 27 }, CHIP_LEGEND));

    // Terrain
    const terrainLayer = svg("g", { class: "bt-terrain" });
    const hexSet = new Set();
    for (const hx of board.hexes || []) {
      const c = geo.center(hx.hex);
      if (!c) continue;
      hexSet.add(hx.hex);
      terrainLayer.append(svg("polygon", { class: "bt-hex", points: pointsAttr(corners(c)), fill: TERRAIN[hx.terrain] || "#ddd", "data-hex": hx.hex, "data-terrain": hx.terrain }, svg("title", {}, `${hx.hex}: ${hx.terrain}`)));
    }
    root.append(terrainLayer);

    // Stars, drawn large and faint under everything else so an empty objective is obvious.
    const starLayer = svg("g", { class: "bt-stars" });
    for (const s of board.stars || []) {
      const c = geo.center(s.hex);
      if (!c) continue;
      const fill = s.side === "british" ? SIDES.british.fill : s.side === "american" ? SIDES.american.fill : "#6b4d8a";
      starLayer.append(svg("polygon", { points: starPoints(c.x, c.y, R * 0.72), fill, "fill-opacity": 0.22, stroke: fill, "stroke-width": 1.5 }));
    }
    root.append(starLayer);

    // Areas: the outline of each set of hexes.
    const areaLayer = svg("g", { class: "bt-areas" });
    for (const a of board.areas || []) {
      const cs_ = a.hexes.map((x) => geo.center(x)).filter(Boolean);
      const inside = (x, y) => cs_.some((c) => Math.hypot(c.x - x, c.y - y) < R * 0.5);
      let d = "";
      for (const c of cs_) {
        const pts = corners(c, R - 2);
        for (let i = 0; i < 6; i++) {
          const p = pts[i];
          const q = pts[(i + 1) % 6];
          const mx = (p[0] + q[0]) / 2;
          const my = (p[1] + q[1]) / 2;
          const nx = c.x + 2 * (mx - c.x) * (R / (R - 2));
          const ny = c.y + 2 * (my - c.y) * (R / (R - 2));
          if (!inside(nx, ny)) d += `M${p[0].toFixed(1)} ${p[1].toFixed(1)} L${q[0].toFixed(1)} ${q[1].toFixed(1)} `;
        }
      }
      areaLayer.append(svg("path", { class: "bt-area", d }));
      // Label on the area's northernmost hex.
      const top = cs_.slice().sort((p, q) => p.y - q.y || p.x - q.x)[0];
      if (top) areaLayer.append(svg("g", {}, svg("rect", { x: top.x - 20, y: top.y - HH - 7, width: 40, height: 12, rx: 6, fill: "#5b2d82" }), svg("text", { class: "bt-area-label", x: top.x, y: top.y - HH + 2 }, `Area ${a.name}`)));
    }

    // Rivers, roads, bridges
    const water = svg("g", { class: "bt-rivers" });
    for (const [p, q] of (board.rivers || []).concat(board.bridges || [])) {
      const a = geo.center(p);
      const b = geo.center(q);
      if (!a || !b) continue;
      const e = sharedEdge(a, b);
      water.append(svg("line", { x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2, stroke: "#2f6ea8", "stroke-width": 5.5, "stroke-linecap": "round" }));
      water.append(svg("line", { x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2, stroke: "#6fa6d6", "stroke-width": 2, "stroke-linecap": "round" }));
    }
    root.append(water);
    const roads = svg("g", { class: "bt-roads" });
    const roadPairs = (board.roads || []).map(([p, q]) => [geo.center(p), geo.center(q)]).filter(([a, b]) => a && b);
    for (const [a, b] of roadPairs) roads.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#5a3f22", "stroke-width": 6, "stroke-linecap": "round" }));
    for (const [a, b] of roadPairs) roads.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#d8b878", "stroke-width": 2.6, "stroke-linecap": "round" }));
    root.append(roads);
    const bridges = svg("g", { class: "bt-bridges" });
    for (const [p, q] of board.bridges || []) {
      const a = geo.center(p);
      const b = geo.center(q);
      if (!a || !b) continue;
      const e = sharedEdge(a, b);
      const ang = (Math.atan2(e.uy, e.ux) * 180) / Math.PI;
      bridges.append(
        svg(
          "g",
          { transform: `translate(${e.mx.toFixed(1)},${e.my.toFixed(1)}) rotate(${ang.toFixed(1)})` },
          svg("title", {}, `Bridge ${p}–${q}`),
          svg("rect", { x: -R * 0.36, y: -5.5, width: R * 0.72, height: 11, fill: "#8a6a45", stroke: "#3b2a18", "stroke-width": 1 }),
          svg("line", { x1: -R * 0.36, y1: -5.5, x2: R * 0.36, y2: -5.5, stroke: "#2a1d10", "stroke-width": 2 }),
          svg("line", { x1: -R * 0.36, y1: 5.5, x2: R * 0.36, y2: 5.5, stroke: "#2a1d10", "stroke-width": 2 }),
        ),
      );
    }
    root.append(bridges);
    root.append(areaLayer);

    // Hex labels and small star markers (visible even under a counter).
    const labels = svg("g", { class: "bt-labels" });
    for (const hex of hexSet) {
      const c = geo.center(hex);
      labels.append(svg("text", { class: "bt-label", x: c.x, y: c.y - HH + 9 }, hex));
    }
    for (const s of board.stars || []) {
      const c = geo.center(s.hex);
      if (!c) continue;
      const sideName = s.side === "both" ? "both sides" : (SIDES[s.side] || {}).label || s.side;
      const fill = s.side === "british" ? SIDES.british.fill : s.side === "american" ? SIDES.american.fill : "#6b4d8a";
      const g = svg("g", { class: "bt-star", "data-hex": s.hex }, svg("title", {}, `${s.hex}: VP star for ${sideName} (1 VP while occupied)`));
      const sx = c.x;
      const sy = c.y + HH - 8;
      if (s.side === "british") g.append(svg("circle", { cx: sx, cy: sy, r: 7, fill: "#fff", stroke: fill, "stroke-width": 1.6 }));
      g.append(svg("polygon", { points: starPoints(sx, sy, s.side === "british" ? 5.6 : 7), fill, stroke: "#fff", "stroke-width": 0.8 }));
      labels.append(g);
    }
    root.append(labels);

    // The exit hex: an arrow off the nearest edge.
    const exitLayer = svg("g", { class: "bt-exit" });
    let exitPos = null;
    if (board.exit) {
      const p = parseHex(board.exit.hex);
      const c = geo.center(board.exit.hex);
      if (p && c) {
        let dx = 0;
        let dy = 0;
        if (p.col === 0) dx = -1;
        else if (p.col === board.columns - 1) dx = 1;
        else if (p.row === 0) dy = -1;
        else dy = 1;
        const ax = c.x + dx * R * 1.05;
        const ay = c.y + dy * HH * 1.1;
        exitPos = { x: ax, y: ay };
        const ang = (Math.atan2(dy, dx) * 180) / Math.PI;
        exitLayer.append(
          svg(
            "g",
            { transform: `translate(${ax.toFixed(1)},${ay.toFixed(1)})` },
            svg("title", {}, `Exit at ${board.exit.hex}: ${(SIDES[board.exit.side] || {}).label || board.exit.side} units leaving here score ${board.exit.vp} VP each`),
            svg("g", { transform: `rotate(${ang})` }, svg("path", { d: "M-10 -6 L4 -6 L4 -11 L14 0 L4 11 L4 6 L-10 6 Z", fill: (SIDES[board.exit.side] || SIDES.american).fill, stroke: "#fff", "stroke-width": 1.2 })),
            svg("text", { class: "bt-chip", x: 2, y: dy >= 0 ? 22 : -16, fill: "#2e2a22", style: "font-size:8px" }, `EXIT +${board.exit.vp}`),
          ),
        );
      }
    }
    root.append(exitLayer);

    // Counters on the map.
    const unitsLayer = svg("g", { class: "bt-units" });
    for (const u of states) {
      const d = defs_[u.id];
      const c = geo.center(u.at);
      if (!d || !c) continue;
      const chips = [];
      if (target && target.id === u.id) chips.push(["⊕", "#ffffff", "#b00000", "target of the attack"]);
      if (attackers.has(u.id)) chips.push(["⚔", "#f5a623", "#221400", "attacking"]);
      if (charger && charger.id === u.id) chips.push(["+2", "#ffd21f", "#000", "charge: +2 CF"]);
      if (battle && battle.support && target && target.id === u.id) chips.push(["+2", "#9ec5ff", "#000", "artillery support: +2 CF"]);
      const isSel = (selected && selected.id === u.id) || (artilleryTarget && artilleryTarget.id === u.id) || (retreating && retreating.id === u.id);
      const g = counter(d, u, c.x, c.y, C, { selected: isSel, chips });
      if (isSel) g.setAttribute("filter", "url(#bt-glow)");
      if (target && target.id === u.id) unitsLayer.append(svg("circle", { cx: c.x, cy: c.y, r: R * 0.86, fill: "none", stroke: "#c00000", "stroke-width": 2.5, "stroke-dasharray": "5 3" }));
      unitsLayer.append(g);
    }
    root.append(unitsLayer);
    // What happened since the viewer's last decision (issue 17): trails, fights, losses.
    const recentNotes = ui && ui.markRecent ? ui.markRecent(root, (v) => piecesOf(v, geo, defs_), C) : [];

    // Legal targets, on top so that a click on a counter reaches them.
    const placed = new Set();
    const tl = svg("g", { class: "bt-targets" });
    if (ui && ui.interactive) {
      const t = targetsOf(game, selected && selected.at);
      for (const [hex, info] of t.byHex) {
        const c = geo.center(hex);
        if (!c) continue;
        info.actions.forEach((a) => placed.add(a));
        const labelText = info.actions.map((a) => (ui.label ? ui.label(a) : a)).join("\n");
        const poly = svg("polygon", { class: `bt-target ${info.unit ? "unit" : "hex"}`, points: pointsAttr(corners(c, R - 2.5)), "data-target": info.unit ? "unit" : "hex", "data-hex": hex, "data-actions": info.actions.join("|"), tabindex: 0, role: "button", "aria-label": labelText }, svg("title", {}, labelText));
        // Issue 17: a unit's move is one gesture: the click on the unit selects it without
        // sending anything (a draft, drawn from the server's preview), the click on the hex
        // sends "select" and "move" together as one batch, which one undo takes back.
        const pick = (ev) => {
          const only = info.actions.length === 1 ? info.actions[0] : null;
          if (only && only.split(/\s+/)[0] === "select" && ui.draft) ui.draft([only], { label: ui.label ? ui.label(only) : only });
          else ui.choose(info.actions, ev);
        };
        poly.addEventListener("click", pick);
        poly.addEventListener("keydown", (ev) => {
          if (ev.key === " " || ev.key === "Enter") {
            ev.preventDefault();
            ev.stopPropagation();
            pick(ev);
          }
        });
        tl.append(poly);
      }
      if (t.exit.length && exitPos) {
        t.exit.forEach((a) => placed.add(a));
        const circ = svg("circle", { class: "bt-target unit", cx: exitPos.x, cy: exitPos.y, r: 16, "data-target": "exit", "data-actions": t.exit.join("|"), tabindex: 0, role: "button", "aria-label": ui.label ? ui.label(t.exit[0]) : "exit" }, svg("title", {}, ui.label ? ui.label(t.exit[0]) : "exit"));
        circ.addEventListener("click", (ev) => ui.choose(t.exit, ev));
        tl.append(circ);
      }
    }
    root.append(tl);

    // Off-map boxes: set-up pool, reinforcements by entry turn and area, exited, eliminated.
    ["american", "british"].forEach((side) => {
      const { x: x0, y: oy, h: bh } = place[side];
      const look = SIDES[side];
      const box = svg("g", { class: `bt-offmap side-${side}` });
      box.append(svg("rect", { x: x0, y: oy, width: boxW, height: bh, fill: "#efe8d3", stroke: look.fill, "stroke-width": 1.5, rx: 3 }));
      box.append(svg("rect", { x: x0, y: oy, width: boxW, height: 18, fill: look.fill, rx: 3 }));
      box.append(svg("text", { class: "bt-box-title", x: x0 + 8, y: oy + 13, style: "fill:#fff" }, `${look.emblem} ${look.label}: off the map`));
      let y = oy + 30;
      if (!boxes[side].length) box.append(svg("text", { class: "bt-box-sub", x: x0 + 8, y: y + 4 }, "Every unit is on the map."));
      for (const g of boxes[side]) {
        box.append(svg("text", { class: "bt-box-sub", x: x0 + 8, y: y + 2 }, g.title));
        y += 8;
        g.units.forEach((u, i) => {
          const cx = x0 + 12 + cs / 2 + (i % perRow) * (cs + 12);
          const cy = y + cs / 2 + Math.floor(i / perRow) * (cs + 8);
          const cnt = counter(defs_[u.id], u, cx, cy, cs, {});
          if (u.at === "eliminated") cnt.setAttribute("opacity", "0.55");
          box.append(cnt);
        });
        y += Math.ceil(g.units.length / perRow) * (cs + 8) + 6;
      }
      root.append(box);
    });

    container.replaceChildren(root);
    return { targets: placed, recent: recentNotes };
  }

  const CHIP_LEGEND = "Chips: M moved · A attacked · D was attacked · R rallied · ⊕ target · ⚔ attacking · +2 charge or artillery support";

  // The units of one view as the client's marks of recent changes need them (app.js, recentDiff).
  function piecesOf(view, geo, defs_) {
    return (view.units || []).map((u) => {
      const c = geo.center(u.at);
      const d = defs_[u.id];
      return { id: u.id, on: !!c, x: c ? c.x : 0, y: c ? c.y : 0, place: u.at, down: u.at === "eliminated" ? 2 : u.reduced ? 1 : 0, fight: !!u.defended, side: d && d.side, label: d ? shortName(d) : u.id };
    });
  }

  function formatDate(iso) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || "");
    if (!m) return iso || "";
    const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    return `${Number(m[3])} ${months[Number(m[2]) - 1]} ${m[1]}`;
  }

  function tracks(board, game) {
    const v = game.view;
    if (!v || !v.vp) return [];
    const start = (board.tracks || {}).leadership || {};
    const art = (board.tracks || {}).artillery || {};
    const rows = [{ label: "Turn", value: v.turn, max: v.turns, text: `${v.turn} / ${v.turns}` }];
    for (const s of ["american", "british"]) rows.push({ side: s, label: "VP", value: v.vp[s], max: v.vp_goal, goal: v.vp_goal, text: `${v.vp[s]} / ${v.vp_goal}` });
    for (const s of ["american", "british"]) {
      const used = v.leader_used && v.active === s ? " · used" : "";
      rows.push({ side: s, label: "Leadership", value: v.leadership[s], max: start[s] || undefined, text: `${v.leadership[s]}${used}` });
    }
    for (const s of ["american", "british"]) {
      if (!art[s] && !v.artillery[s]) continue;
      const used = v.artillery_used && v.active !== s ? " · used" : "";
      rows.push({ side: s, label: "Artillery", value: v.artillery[s], max: art[s] || undefined, text: `${v.artillery[s]}${used}` });
    }
    // The phase row names whose turn it is and, when the other side decides (set-up in
    // Oriskany, artillery fire and support, a defender's retreat), that side too: `active` is
    // the player whose half-turn it is, not always the one deciding (issue 17).
    const step = (v.phase && v.phase.step) || "";
    const label = (s) => (SIDES[s] ? SIDES[s].label : s);
    let who = "";
    if (step === "setup") who = v.phase.side ? ` · ${label(v.phase.side)} sets up` : "";
    else if (step !== "over") {
      if (v.active) who = ` · ${label(v.active)} player's turn`;
      if (game.to_act && game.to_act !== v.active) who += ` · ${label(game.to_act)} decides`;
    }
    rows.push({ label: "Phase", text: `${STEP_NAMES[step] || step}${who}` });
    return rows;
  }

  function turnOf(entry) {
    const m = /^Turn (\d+):/.exec(entry && entry.text ? entry.text : "");
    return m ? Number(m[1]) : null;
  }

  // The rules in Muster's own words, by the section numbers Muster uses (crate doc of
  // muster-battles and docs/rules/battles.md). A summary; the printed rulebook is the authority.
  const RULES = [
    { section: "1", title: "The board", text: ["Each battlefield is printed with a hex grid that governs movement and how terrain helps a defender. Stars mark victory objectives: a blue star counts for the Americans and a red star for the British while one of their units stands on it. Tracks on the board keep the turn, the Artillery points and the Leadership points."] },
    { section: "2", title: "The units", text: ["Every counter is an infantry formation with two numbers: its Combat Factor (CF, how hard it fights) and its Movement Points (MP, how far it goes). The back of the counter shows the weaker reduced values. A hex never holds more than one unit.", "Leadership points (used by the active player) and Artillery points (used by the other player) are spent from the tracks, one per turn at most, and do not come back."] },
    { section: "3", title: "Set-up", text: ["Each battle's chart lists the starting units and hexes, the reinforcements with their turn and entry area, the points on each track and who goes first. Everything starts at full strength and the turn marker on 1."] },
    { section: "4", title: "Sequence of play", text: ["A turn has two halves. The first player moves and then attacks; then the second player does the same. The player whose half it is, the active player, may move any or none of the units, and after all moving is done fights any attacks he wants."] },
    { section: "5", title: "Movement", text: ["Units go one at a time, from hex to adjacent hex, spending MP up to their allowance; unused MP are lost. A unit may pass through friends but not through enemies, and must end in an empty hex. One Leadership point per turn can give a single unit 2 more MP (force march, §9.1)."] },
    { section: "5.1", title: "Movement costs", text: ["Entering a hex costs 1 MP. Woods and hills add 1, a river crossing without a bridge adds 1, and stepping next to an enemy unit adds 1; these extras stack.", "Following a connected road costs half an MP per hex (round the total up) and ignores the terrain extras. Muster shows the cost of every reachable hex on its button and in the map's tooltip."] },
    { section: "5.2", title: "Movement restrictions", text: ["A unit that arrives next to an enemy stops there. A unit that starts next to an enemy may not move to another hex that is also next to one. Swamp hexes are closed to all units. All movement ends before any attack."] },
    { section: "5.3", title: "Reinforcements", text: ["Arriving units come in on their entry area's hexes, or on a free hex beside them when those are blocked, and may move in the turn they arrive."] },
    { section: "6", title: "Combat", text: ["Only the active player attacks, and attacking is always optional. Each attack is one defending unit against any of the active player's units next to it. The active player chooses the order of the attacks."] },
    { section: "6.1", title: "Attacking", text: ["Name the defender, then add the adjacent units that join in: one, several or all of them. In Muster each unit attacks at most once a turn and each enemy unit is attacked at most once a turn. A Leadership point can add 2 CF to one attacking unit (charge, §9.2) before the other side decides on artillery."] },
    { section: "6.2", title: "Defending", text: ["The defender fights alone. It gains 2 CF in woods, on a hill or on a farm, and 2 more when any attacker strikes across a river or bridge hexside; these bonuses add up. The non-active player may also spend an Artillery point for 2 more CF (§8.1) before the dice are rolled."] },
    { section: "6.3", title: "Resolving an attack", text: ["Add up the attacking CF and the defending CF with their bonuses. Neither total may exceed the other by more than 10; any excess is dropped. Then each player rolls one die and adds it to his total."] },
    { section: "6.4", title: "Who wins", text: ["The attacker wins only with the higher result; a tie or a higher defence result means the defender wins. The loser's units retreat."] },
    { section: "6.5", title: "Losses", text: ["Winning by 4, 5 or 6 costs the loser one loss; winning by 7 or more costs two. A loss flips a full-strength unit to its reduced side, or removes a unit that is already reduced. When attackers lose, their owner picks which attacker takes each loss."] },
    { section: "6.6", title: "Retreats", text: ["Each losing unit moves back one hex, toward its own side and into an empty hex; this costs no MP. A unit with nowhere to go takes one more loss instead. After a win, the attacker may move one of the attacking units into the hex the defender left."] },
    { section: "7", title: "Terrain and board key", text: ["Clear: 1 MP. Woods and hills: +1 MP to enter, +2 CF to a defender. Farms (Freeman's Farm): 1 MP, +2 CF to a defender. Rivers: +1 MP to cross except at a bridge, +2 CF to a defender attacked across them. Roads: half an MP per hex, ignoring terrain. Swamps: impassable. The board's tracks hold the turn, Artillery and Leadership points, and its charts summarise leadership, combat results and artillery fire.", "On Muster's map: woods are drawn with tree crowns, hills with contour lines, farms with furrows, swamps with reeds and water; roads are brown, rivers blue, bridges are planks across a river hexside; dashed purple lines outline the entry and set-up areas."] },
    { section: "8", title: "Artillery (Freeman's Farm)", text: ["Only the player who is not active uses artillery: one point per turn, on one unit, and a spent point is gone."] },
    { section: "8.1", title: "Artillery support", text: ["Give a defending unit 2 more CF, decided after the attack is declared and before any die is rolled."] },
    { section: "8.2", title: "Artillery fire", text: ["After the active player has moved and before any attack is named, fire at one enemy unit no more than 3 hexes from one of your infantry units. Roll a die, 1 less when the target is in woods, on a hill or on a farm: 1 to 3 does nothing, 4 or 5 makes the target retreat one hex, 6 reduces it and makes it retreat one hex."] },
    { section: "9", title: "Leadership", text: ["Only the active player spends Leadership points: at most one per turn, for one unit, on one of the three uses below."] },
    { section: "9.1", title: "Force march", text: ["One unit gets 2 extra MP for its move this turn."] },
    { section: "9.2", title: "Charge", text: ["One attacking unit adds 2 CF to its attack, declared before the defender's artillery support."] },
    { section: "9.3", title: "Rally", text: ["Before moving, pick a reduced unit that has no enemy next to it and roll a die: on 4, 5 or 6 it turns back to full strength, and it may not move this turn."] },
    { section: "10", title: "Victory", text: ["Each eliminated enemy unit is worth 1 VP, and so is each star of your own colour that one of your units holds; holding the other side's star is worth nothing. Reaching the battle's VP goal wins at once; otherwise the higher total after the last turn wins, and a tie goes to the Americans."] },
    { section: "11", title: "Freeman's Farm", text: ["The Americans move first with 10 Leadership points and no artillery; the British have 5 Leadership and 5 Artillery points. Both sides start with a few units on the map and receive columns of reinforcements on later turns (see the off-map boxes under the map). The first side to 7 VP wins."] },
    { section: "12", title: "Oriskany", text: ["The Americans set up first, all inside Area 1; then the British set up anywhere outside Area 1 and not next to an American unit, and the British move first. Leadership points: 7 American, 5 British; no artillery. The first side to 6 VP wins.", "Special rules: each American unit that leaves the map at the exit hex scores 1 VP; no attacks on turns 7 and 8, and a storm costs every unit 1 MP (Muster applies it on turns 7 and 8 by default; the storm option makes it last all day)."] },
    { section: "13", title: "Things to remember", text: ["Totals, then the 10-CF limit, then one die each. Ties go to the defender. A margin of 4 to 6 costs one loss, 7 or more costs two. One Leadership point per turn when active; one Artillery point per turn when not active."] },
  ];

  window.MusterBoards = window.MusterBoards || {};
  window.MusterBoards.battles = {
    render,
    rules: RULES,
    // Decisions that roll dice or hand play to the other side: the client asks to confirm.
    irreversible: ["commit", "support", "no-support", "fire", "rally", "end-movement", "end-attacks"],
    shortcuts: {
      Enter: ["commit", "hold", "end-movement", "end-attacks", "no-fire", "no-support", "no-rally", "no-advance"],
      h: ["hold"],
      f: ["force-march"],
      x: ["exit"],
      e: ["end-movement", "end-attacks"],
    },
    sides: {
      american: { label: SIDES.american.label, emblem: SIDES.american.emblem, cls: "american" },
      british: { label: SIDES.british.label, emblem: SIDES.british.emblem, cls: "british" },
    },
    tracks,
    turnOf,
  };
})();
