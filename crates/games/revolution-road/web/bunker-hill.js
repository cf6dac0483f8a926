// Board renderer of "Revolution Road: Bunker Hill" for Muster's browser client, following the
// contract in docs/server.md ("Board renderers"): it registers
// window.MusterBoards["bunker-hill"] = { render, rules, irreversible, shortcuts, sides, tracks, turnOf }.
// The map comes from GET /api/games/<id>/board (src/bunker/mod.rs, `board`: each region's
// drawn outline `shape` and anchor `at`, elevation, terrain, modifiers, staging areas, landing
// zones, fleet boxes, and `drawing`: frame, roads, works, land off the peninsula, labels), the
// pieces and tracks from the viewer's view (src/bunker/mod.rs, `view`): a militia piece whose
// strength is not drawn yet shows "?". The map and its drawing are reconstructions
// (docs/rulings/bunker-hill.md R1-R9, R12); map units are drawn S times larger here.
(function () {
  "use strict";

  const NS = "http://www.w3.org/2000/svg";
  const S = 6; // screen units per map unit
  const SIDES = {
    patriot: { label: "Patriot", emblem: "★", cls: "american", fill: "#1f4e8c", light: "#a9c0e2", ink: "#ffffff" },
    british: { label: "British", emblem: "◆", cls: "british", fill: "#a3271f", light: "#e6b0a9", ink: "#ffffff" },
  };
  const KIND_CODE = { regular: "REG", marine: "MAR", cannon: "GUN", minuteman: "MM", militia: "MIL", leader: "LDR", battery: "BTY" };
  const KIND_NAME = { regular: "Regulars", marine: "Marines", cannon: "field cannon", minuteman: "Minutemen", militia: "militia", leader: "leader", battery: "Copp's Hill Battery" };
  const FILL = { low: "#e4ebc4", slope: "#dcc596", ridge: "#d2b783", hilltop: "#9dbb74", town: "#ece0c4", zone: "rgba(255,255,255,0.16)" };
  const ELEV = { low: "elevation 0", slope: "slope, elevation 1", ridge: "ridge line, elevation 1", hilltop: "hilltop, elevation 2", town: "town region, elevation 0", zone: "Landing Zone (water)" };
  const HILL_NAME = { bunker: "Bunker Hill", breeds: "Breed's Hill", moultons: "Moulton's Hill" };
  // Which word of an action's notation names the region it is about.
  const REGION_WORD = { place: 1, panic: 1, volley: 2, assault: 2, move: 1, rally: 1, reorg: 2, snipe: 1, land: 2, gun: 2, shell: 1, hotshot: 1, to: 1, spread: 1, go: 2 };
  // Which word names a counter.
  const UNIT_WORD = { add: 1, hit: 1 };
  // Boxes off the peninsula, in map units of the drawing (its frame is 250 by 228): the Muster
  // Box on the mainland beyond the Neck, the Fleet Boxes in the Mystic, the harbour and the
  // Charles, the Copp's Hill battery on Boston's shore. VIEW is the frame of a board without
  // a drawing.
  const MUSTER = { id: "muster", x: 2, y: 3, w: 27, h: 34 };
  const FLEET = {
    mystic: { x: 152, y: 6, w: 32, h: 11 },
    harbour: { x: 208, y: 184, w: 32, h: 11 },
    charles: { x: 3, y: 146, w: 32, h: 11 },
  };
  const SHORT = { mystic: "Mystic", harbour: "Harbor", charles: "Charles" };
  const COPPS = { x: 66, y: 191, w: 32, h: 11 };
  const VIEW = { x0: 0, y0: 0, x1: 250, y1: 228 };
  const TITLE = { x: 66, y: 9 };
  const LEGEND = { x: 134, y: 214 };
  const C = 6.4; // counter side, map units

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
  const n1 = (v) => Math.round(v * S * 10) / 10;
  const pts = (poly) => poly.map((p) => `${n1(p[0])},${n1(p[1])}`).join(" ");

  const style = `
    .bh-region { stroke: none; }
    .bh-region.zone { stroke: #2f6690; stroke-width: 1.6; stroke-dasharray: 6 4; stroke-linejoin: round; }
    .bh-border { fill: none; stroke: #5c4a30; stroke-width: 1.3; stroke-opacity: 0.75; stroke-linejoin: round; stroke-linecap: round; pointer-events: none; }
    .bh-shallows { fill: none; stroke: #b7d6ea; stroke-width: 22; stroke-linejoin: round; stroke-linecap: round; pointer-events: none; }
    .bh-beach { fill: none; stroke: #eadcae; stroke-width: 9; stroke-linejoin: round; stroke-linecap: round; pointer-events: none; }
    .bh-offmap { fill: #d8dcc2; stroke: #8b8f70; stroke-width: 1.4; }
    .bh-contour { fill: none; stroke: #8a6a3c; stroke-width: 1.6; stroke-linejoin: round; pointer-events: none; }
    .bh-contour.top { stroke: #5d4522; stroke-width: 2.2; }
    .bh-hachure { fill: none; stroke: #9a7a48; stroke-width: 1.1; stroke-opacity: 0.7; pointer-events: none; }
    .bh-hachure.top { stroke: #6a5128; }
    .bh-houses { fill: #9c5a3c; fill-opacity: 0.55; stroke: #5e3320; stroke-width: 0.5; stroke-opacity: 0.6; pointer-events: none; }
    .bh-road-edge { fill: none; stroke: #9c7c4c; stroke-width: 6; stroke-linecap: round; stroke-linejoin: round; pointer-events: none; }
    .bh-road { fill: none; stroke: #efdfb4; stroke-width: 3.4; stroke-linecap: round; stroke-linejoin: round; }
    .bh-earthwork { fill: none; stroke: #5b3d1e; stroke-width: 5; stroke-linecap: square; stroke-linejoin: miter; }
    .bh-fence { fill: none; stroke: #6e4a24; stroke-width: 2.2; }
    .bh-fence.posts { stroke-width: 7; stroke-dasharray: 1.6 7; }
    .bh-wall { fill: none; stroke: #6c6c6c; stroke-width: 4; stroke-dasharray: 5 1.5; }
    .bh-name { font: 600 10px sans-serif; fill: #2b2417; text-anchor: middle; pointer-events: none; paint-order: stroke; stroke: rgba(255,255,255,0.75); stroke-width: 2.6px; }
    .bh-place { font: 700 18px Georgia, serif; fill: #4a4a38; text-anchor: middle; letter-spacing: 3px; pointer-events: none; }
    .bh-label { font: 700 17px Georgia, serif; fill: #2b261c; text-anchor: middle; pointer-events: none; paint-order: stroke; stroke: rgba(255,255,255,0.8); stroke-width: 3px; }
    .bh-water { font: italic 600 16px Georgia, serif; fill: #2f5f8a; text-anchor: middle; letter-spacing: 1px; pointer-events: none; }
    .bh-small { font: 600 11px sans-serif; text-anchor: middle; pointer-events: none; paint-order: stroke; stroke: rgba(255,255,255,0.75); stroke-width: 2px; }
    .bh-mod { font: 800 11px sans-serif; text-anchor: middle; pointer-events: none; }
    .bh-stage { font: italic 700 10.5px sans-serif; fill: #ffffff; text-anchor: middle; pointer-events: none; paint-order: stroke; stroke: #3f6f96; stroke-width: 2.4px; }
    .bh-num { font: 800 16px sans-serif; text-anchor: middle; pointer-events: none; }
    .bh-code { font: 700 7.5px sans-serif; text-anchor: middle; pointer-events: none; }
    .bh-box { fill: #f3efe3; stroke: #5b5446; stroke-width: 1.2; }
    .bh-box-title { font: 700 13px sans-serif; fill: #2e2a22; }
    .bh-title { font: 700 22px Georgia, serif; fill: #1f2a35; }
    .bh-legend { font: 12px sans-serif; fill: #1f2a35; }
    .bh-target { fill: #ffd21f; fill-opacity: 0.07; stroke: #ff8f00; stroke-width: 3; stroke-dasharray: 8 4; cursor: pointer; }
    .bh-target:hover, .bh-target:focus, g[data-target]:hover > .bh-target, g[data-target]:focus > .bh-target { fill-opacity: 0.38; stroke: #e65100; outline: none; }
    g[data-target] { cursor: pointer; outline: none; }
    .bh-target.unit { fill-opacity: 0.03; stroke-dasharray: none; stroke-width: 2.6; stroke: #ff6f00; }
    .bh-target.unit:hover, .bh-target.unit:focus { fill-opacity: 0.35; }
  `;

  function defs() {
    return svg(
      "defs",
      {},
      svg("style", {}, style),
      svg("linearGradient", { id: "bh-water", x1: 0, y1: 0, x2: 1, y2: 1 }, svg("stop", { offset: 0, "stop-color": "#93bfdf" }), svg("stop", { offset: 1, "stop-color": "#7fb0d6" })),
      svg("pattern", { id: "bh-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, svg("rect", { width: 2, height: 6, fill: "rgba(0,0,0,0.3)" })),
      svg("pattern", { id: "bh-fire", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-35)" }, svg("rect", { width: 10, height: 10, fill: "#e8743b" }), svg("rect", { width: 4, height: 10, fill: "#b8321a" })),
      svg("filter", { id: "bh-shadow", x: "-20%", y: "-20%", width: "150%", height: "150%" }, svg("feDropShadow", { dx: 1, dy: 1.2, stdDeviation: 0.7, "flood-color": "#000", "flood-opacity": 0.45 })),
    );
  }

  // ------------------------------------------------------------------------------------------
  // Counters

  function leaderName(id) {
    return String(id).slice(0, 4).toUpperCase();
  }

  function stateWord(p) {
    if (p.state === "healthy") return "";
    return { broken: "BRK", wounded: "WND", damaged: "DMG" }[p.state] || p.state;
  }

  function describe(p, count) {
    const side = SIDES[p.side] || SIDES.patriot;
    const what = p.kind === "leader" ? `${side.label} leader ${p.id}` : `${side.label} ${KIND_NAME[p.kind] || p.kind}${count > 1 ? "" : ` ${p.id}`}`;
    const bits = [];
    if (p.kind !== "leader" && p.kind !== "battery") bits.push(p.strength === null || p.strength === undefined ? "strength not drawn yet" : `strength ${p.strength}`);
    if (p.state !== "healthy") bits.push(p.state);
    for (const m of p.markers || []) bits.push(m);
    return `${count > 1 ? `${count} × ` : ""}${what}${bits.length ? ` (${bits.join(", ")})` : ""}`;
  }

  // One counter (or a stack of like counters with a count): square corners for the British and
  // rounded for the Patriot, round for leaders, the side's emblem top left, the strength large
  // ("?" while a militia piece is undrawn, the name for leaders), the kind code below. Broken,
  // wounded and damaged pieces are pale and hatched and say so. Chips on the right: M moved,
  // F fired, MF both, R rallied, P panic.
  function counter(p, x, y, count, k = 1) {
    const side = SIDES[p.side] || SIDES.patriot;
    const size = C * S;
    const half = size / 2;
    const down = p.state !== "healthy";
    const fill = down ? side.light : side.fill;
    const ink = down ? "#151515" : side.ink;
    const g = svg("g", { class: `bh-counter side-${p.side}`, "data-unit": p.id, transform: `translate(${n1(x)},${n1(y)})${k === 1 ? "" : ` scale(${Math.round(k * 100) / 100})`}`, filter: "url(#bh-shadow)" });
    g.append(svg("title", {}, describe(p, count)));
    const round = p.side === "patriot" ? 5 : 1;
    if (count > 1) for (const k of [4, 2]) g.append(svg("rect", { x: -half + k, y: -half - k, width: size, height: size, rx: round, fill, stroke: "#151515", "stroke-width": 0.8 }));
    if (p.kind === "leader") {
      g.append(svg("circle", { r: half * 0.9, fill, stroke: "#151515", "stroke-width": 1 }));
      if (down) g.append(svg("circle", { r: half * 0.9 - 0.6, fill: "url(#bh-hatch)" }));
    } else {
      g.append(svg("rect", { x: -half, y: -half, width: size, height: size, rx: round, fill, stroke: "#151515", "stroke-width": 1 }));
      if (down) g.append(svg("rect", { x: -half + 0.6, y: -half + 0.6, width: size - 1.2, height: size - 1.2, rx: round, fill: "url(#bh-hatch)" }));
    }
    // Side emblem, top left: a star for the Patriot, a diamond for the British.
    g.append(svg("text", { class: "bh-code", x: -half + 6, y: -half + 9, fill: down ? side.fill : "#fff", style: "font-size:9px" }, side.emblem));
    let big;
    if (p.kind === "leader") big = leaderName(p.id);
    else if (p.kind === "battery") big = "CH";
    else big = p.strength === null || p.strength === undefined ? "?" : String(p.strength);
    g.append(svg("text", { class: "bh-num", x: 0, y: p.kind === "leader" ? 3.5 : 5, fill: ink, style: p.kind === "leader" ? "font-size:9.5px" : "" }, big));
    const code = stateWord(p) || (p.kind === "leader" ? "" : KIND_CODE[p.kind] || p.kind);
    if (code) g.append(svg("text", { class: "bh-code", x: 0, y: half - (p.kind === "leader" ? 6 : 3), fill: ink }, code));
    const m = new Set(p.markers || []);
    const chips = [];
    if (m.has("moved") && m.has("fired")) chips.push(["MF", "#f5a623", "#221400"]);
    else if (m.has("moved")) chips.push(["M", "#e6e6e6", "#222"]);
    else if (m.has("fired")) chips.push(["F", "#f5a623", "#221400"]);
    if (m.has("rallied")) chips.push(["R", "#9fd39a", "#102010"]);
    if (m.has("panic")) chips.push(["P", "#ffe14d", "#3a0000"]);
    chips.forEach(([t, bg, fg], i) => {
      const w = t.length > 1 ? 12 : 9;
      g.append(svg("g", { transform: `translate(${half - 4},${-half - 2 + i * 10})` }, svg("rect", { width: w, height: 9, rx: 1.5, fill: bg, stroke: "#222", "stroke-width": 0.5 }), svg("text", { class: "bh-code", x: w / 2, y: 6.8, fill: fg, style: "font-size:6.5px" }, t)));
    });
    if (count > 1) {
      g.append(svg("g", { transform: `translate(${half - 4},${half - 3})` }, svg("rect", { x: -3, y: -5, width: 17, height: 10, rx: 5, fill: "#fff", stroke: "#222", "stroke-width": 0.6 }), svg("text", { class: "bh-code", x: 5.5, y: 2.6, fill: "#111", style: "font-size:7.5px" }, `×${count}`)));
    }
    return g;
  }

  // Like counters (same side, kind, strength, state and markers) share one stack; leaders and
  // the battery stay single (each has a name).
  function groups(list) {
    const out = [];
    const byKey = new Map();
    for (const p of list) {
      const key = p.kind === "leader" || p.kind === "battery" ? `#${p.id}` : [p.side, p.kind, p.strength, p.state, (p.markers || []).join("+")].join("|");
      if (!byKey.has(key)) {
        const g = { first: p, ids: [] };
        byKey.set(key, g);
        out.push(g);
      }
      byKey.get(key).ids.push(p.id);
    }
    const rank = { patriot: 0, british: 1 };
    const krank = { regular: 0, marine: 1, minuteman: 2, militia: 3, cannon: 4, battery: 5, leader: 6 };
    out.sort((a, b) => (rank[a.first.side] - rank[b.first.side]) || (krank[a.first.kind] - krank[b.first.kind]));
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Targets

  // Is the point inside the polygon, at least `margin` map units from its border?
  function inside(pt, poly, margin) {
    const probe = (x, y) => {
      let c = false;
      for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
        const [xi, yi] = poly[i];
        const [xj, yj] = poly[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
      }
      return c;
    };
    const [x, y] = pt;
    return [[0, 0], [margin, margin], [-margin, margin], [margin, -margin], [-margin, -margin]].every(([dx, dy]) => probe(x + dx, y + dy));
  }

  function targetsOf(game) {
    const regions = new Map();
    const units = new Map();
    const fleet = new Map();
    const add = (m, k, a) => {
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(a);
    };
    for (const l of game.legal || []) {
      const words = String(l.action || "").split(/\s+/);
      const verb = words[0];
      if (verb === "naval" && words[1]) add(fleet, words[1], l.action);
      else if (REGION_WORD[verb] !== undefined && words[REGION_WORD[verb]]) add(regions, words[REGION_WORD[verb]], l.action);
      else if (UNIT_WORD[verb] !== undefined && words[UNIT_WORD[verb]]) add(units, words[UNIT_WORD[verb]], l.action);
    }
    return { regions, units, fleet };
  }

  // Issue 17: the same decision for identical counters (same side, kind, strength, state and
  // markers: what `groups` stacks) is one choice for the client, "3 × Move British Regulars
  // to Breed's Hill", taken for all of them in one batch (or, shift-click / long press, for
  // some). Leaders and the battery have names and stay single.
  const VERB_WORDS = { go: "Move", add: "Choose", hit: "Hit on" };
  function pieceName(p) {
    const side = SIDES[p.side] || SIDES.patriot;
    const bits = [];
    if (p.kind !== "leader" && p.kind !== "battery") bits.push(p.strength === null || p.strength === undefined ? "strength not drawn" : `strength ${p.strength}`);
    if (p.state !== "healthy") bits.push(p.state);
    return `${side.label} ${KIND_NAME[p.kind] || p.kind}${bits.length ? ` (${bits.join(", ")})` : ""}`;
  }
  function grouped(actions, pieces, byId) {
    const byUnit = new Map(pieces.map((p) => [p.id, p]));
    const out = [];
    const byKey = new Map();
    for (const a of actions) {
      const w = String(a).split(/\s+/);
      const verb = w[0];
      const unit = verb === "go" ? w[1] : UNIT_WORD[verb] !== undefined ? w[UNIT_WORD[verb]] : null;
      const p = unit ? byUnit.get(unit) : null;
      if (!p || !VERB_WORDS[verb] || p.kind === "leader" || p.kind === "battery") {
        out.push(a);
        continue;
      }
      const to = verb === "go" ? w[2] : "";
      const key = [verb, to, p.at, p.side, p.kind, p.strength, p.state, (p.markers || []).join("+")].join("|");
      let g = byKey.get(key);
      if (!g) {
        const region = to ? byId.get(to) || (to === "muster" ? { name: "the Muster Box" } : null) : null;
        g = { label: `${VERB_WORDS[verb]} ${pieceName(p)}${region ? ` to ${region.name}` : ""}`, actions: [] };
        byKey.set(key, g);
        out.push(g);
      }
      g.actions.push(a);
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // The ground (docs/rulings/bunker-hill.md R12): the board draws each region's `shape` and
  // puts its counters round its anchor `at`, from the `[drawing]` table of map.toml; the
  // schematic `polygon`s the rules measure Line of Sight on (R1) are not drawn.

  // A region as drawn: its outline and anchor in place of the schematic polygon and centre.
  function drawnRegion(r) {
    return { ...r, polygon: r.shape || r.polygon || [], centre: r.at || r.centre };
  }

  const key = (p) => `${Math.round(p[0] * 10)},${Math.round(p[1] * 10)}`;

  // The sides of a set of outlines that no other outline of the set shares: the outline of
  // their union (a contour line round a hill, the shore round the land), with the side of the
  // region it belongs to (its corners in order tell which way is inside).
  function outlineOf(rs) {
    const seen = new Map();
    for (const r of rs) {
      const p = r.polygon;
      for (let i = 0; i < p.length; i++) {
        const a = p[i];
        const b = p[(i + 1) % p.length];
        const k = [key(a), key(b)].sort().join("|");
        if (seen.has(k)) seen.set(k, null);
        else seen.set(k, { a, b, r });
      }
    }
    return [...seen.values()].filter(Boolean);
  }

  function signedArea(p) {
    let s = 0;
    for (let i = 0; i < p.length; i++) {
      const a = p[i];
      const b = p[(i + 1) % p.length];
      s += a[0] * b[1] - b[0] * a[1];
    }
    return s / 2;
  }

  // Short hachures on the downhill side of a contour.
  function hachures(sides, len, cls) {
    let d = "";
    for (const { a, b, r } of sides) {
      const dx = b[0] - a[0];
      const dy = b[1] - a[1];
      const l = Math.hypot(dx, dy);
      if (l < 0.8) continue;
      // Outward normal: corners run clockwise on screen when the signed area is positive.
      const s = signedArea(r.polygon) > 0 ? 1 : -1;
      const nx = (dy / l) * s;
      const ny = (-dx / l) * s;
      const n = Math.max(1, Math.round(l / 1.6));
      for (let i = 0; i < n; i++) {
        const t = (i + 0.5) / n;
        const x = a[0] + dx * t;
        const y = a[1] + dy * t;
        d += `M${n1(x)} ${n1(y)}l${n1(nx * len)} ${n1(ny * len)}`;
      }
    }
    return svg("path", { class: cls, d });
  }

  const sidesPath = (sides) => sides.map(({ a, b }) => `M${n1(a[0])} ${n1(a[1])}L${n1(b[0])} ${n1(b[1])}`).join("");
  const linePath = (line) => line.map((p, i) => `${i ? "L" : "M"}${n1(p[0])} ${n1(p[1])}`).join("");

  // A small deterministic hash of a point, for the houses of the town.
  function jitter(x, y) {
    const s = Math.sin(x * 12.9898 + y * 78.233) * 43758.5453;
    return s - Math.floor(s);
  }

  // Houses along the lanes of a town region: small blocks turned with the peninsula's streets,
  // kept off the border.
  function houses(r, angle) {
    const p = r.polygon;
    const xs = p.map((q) => q[0]);
    const ys = p.map((q) => q[1]);
    const c = Math.cos((angle * Math.PI) / 180);
    const s = Math.sin((angle * Math.PI) / 180);
    let d = "";
    for (let u = -60; u <= 60; u += 3.3) {
      for (let v = -60; v <= 60; v += 4.4) {
        const x = r.centre[0] + u * c - v * s;
        const y = r.centre[1] + u * s + v * c;
        if (x < Math.min(...xs) || x > Math.max(...xs) || y < Math.min(...ys) || y > Math.max(...ys)) continue;
        if (jitter(x, y) < 0.3 || !inside([x, y], p, 1.4)) continue;
        const w = 1.1 + jitter(y, x) * 0.5;
        const h = 0.8;
        const corner = (du, dv) => [x + du * c - dv * s, y + du * s + dv * c];
        const q = [corner(-w, -h), corner(w, -h), corner(w, h), corner(-w, h)];
        d += `M${q.map((k) => `${n1(k[0])} ${n1(k[1])}`).join("L")}Z`;
      }
    }
    return svg("path", { class: "bh-houses", d });
  }

  // The label a region carries on the board: its name without what the map shows already
  // (the hill's or the town's name, the staging area).
  function shortName(r) {
    return String(r.name || r.id)
      .replace(/^Charlestown: /, "")
      .replace(/\s*\((Staging Area \d|Breed's Hill)\)$/, "")
      .replace(/^(Bunker Hill|Breed's Hill),? /, "")
      .replace(/^Northern Defense Works, /, "works, ")
      .replace(/^Moulton's Point /, "point ")
      .replace(/ on the .*$/, "");
  }

  function ground(root, regions, drawing, ablaze) {
    const [fx, fy, fw, fh] = drawing.frame || [VIEW.x0, VIEW.y0, VIEW.x1 - VIEW.x0, VIEW.y1 - VIEW.y0];
    root.append(svg("rect", { x: fx * S, y: fy * S, width: fw * S, height: fh * S, fill: "url(#bh-water)" }));
    for (const a of drawing.land || []) root.append(svg("polygon", { class: "bh-offmap", points: pts(a.shape) }, svg("title", {}, a.name)));
    const landRegions = regions.filter((r) => r.kind !== "zone");
    const shore = outlineOf(landRegions);
    // Shallows and beach under the land, the land on top.
    root.append(svg("path", { class: "bh-shallows", d: sidesPath(shore) }));
    root.append(svg("path", { class: "bh-beach", d: sidesPath(shore) }));
    for (const r of regions) {
      const burning = ablaze.has(r.id);
      const title = [r.name, ELEV[r.kind] || r.kind];
      if (r.volley_modifier || r.assault_modifier) title.push(`terrain ${r.volley_modifier}/+${r.assault_modifier} (volley dice / assault dice, ${r.modifier_kind}, 3.1)`);
      if ((r.wall_from || []).length) title.push(`the modifiers count only from ${r.wall_from.join(", ")}`);
      if (r.staging_zone) title.push(`Staging Area of zone ${r.staging_zone} (3.5)`);
      if (r.zone) title.push(`transport ${r.zone.transport} / staging ${r.zone.staging} (3.5)`);
      if (burning) title.push("ABLAZE: closed to all counters (3.3)");
      root.append(svg("polygon", { class: `bh-region ${r.kind}`, points: pts(r.polygon), fill: burning ? "url(#bh-fire)" : FILL[r.kind] || "#dddddd", "data-region": r.id }, svg("title", {}, title.join(" · "))));
    }
    // Hills: hachures down from the slopes and ridges, contour lines round elevation 1 and 2.
    const high = landRegions.filter((r) => r.elevation >= 1);
    const top = landRegions.filter((r) => r.elevation >= 2);
    const lower = outlineOf(high);
    const upper = outlineOf(top);
    root.append(hachures(lower, 1.3, "bh-hachure"));
    root.append(hachures(upper, 1.0, "bh-hachure top"));
    root.append(svg("path", { class: "bh-contour", d: sidesPath(lower) }));
    root.append(svg("path", { class: "bh-contour top", d: sidesPath(upper) }));
    // Charlestown's houses, the roads, the works.
    for (const r of regions) if (r.kind === "town" && !ablaze.has(r.id)) root.append(houses(r, drawing.street_angle === undefined ? 36 : drawing.street_angle));
    for (const road of drawing.roads || []) {
      root.append(svg("path", { class: "bh-road-edge", d: linePath(road.line) }));
      root.append(svg("path", { class: "bh-road", d: linePath(road.line) }, svg("title", {}, road.name)));
    }
    for (const w of drawing.works || []) {
      const cls = { redoubt: "bh-earthwork", breastwork: "bh-earthwork", "rail fence": "bh-fence", "stone wall": "bh-wall" }[w.kind] || "bh-earthwork";
      root.append(svg("path", { class: cls, d: linePath(w.line) }, svg("title", {}, w.kind)));
      if (w.kind === "rail fence") root.append(svg("path", { class: "bh-fence posts", d: linePath(w.line) }));
    }
    // Region borders on top of the ground.
    root.append(svg("path", { class: "bh-border", d: sidesPath(innerSides(landRegions)) }));
    for (const l of drawing.labels || []) {
      const x = l.at[0] * S;
      const y = l.at[1] * S;
      root.append(svg("text", { class: l.style === "place" ? "bh-place" : "bh-water", x, y, transform: l.angle ? `rotate(${l.angle} ${x} ${y})` : null }, l.text));
    }
  }

  // The sides two land regions share: the borders of the game.
  function innerSides(rs) {
    const seen = new Map();
    const out = [];
    for (const r of rs) {
      const p = r.polygon;
      for (let i = 0; i < p.length; i++) {
        const a = p[i];
        const b = p[(i + 1) % p.length];
        const k = [key(a), key(b)].sort().join("|");
        if (seen.has(k)) out.push({ a, b });
        else seen.set(k, true);
      }
    }
    return out;
  }

  // Where a region's counters go: the largest counters (at most full size, at least 0.55 of
  // it) in the fewest rows that all lie inside the outline round its anchor, moving the block
  // a little off the anchor if that helps.
  function fitCounters(r, n, below) {
    const poly = r.polygon;
    const a = r.centre;
    const shifts = [[0, 0], [0, -1.5], [0, 1.5], [-1.5, 0], [1.5, 0], [0, -3], [0, 3], [-3, 0], [3, 0], [-2, -2], [2, 2], [2, -2], [-2, 2]];
    // Rows of up to three first, as in a stack on the table; then wider or narrower blocks.
    const first = Math.min(n, 3);
    const order = [first];
    for (let c = first + 1; c <= n; c++) order.push(c);
    for (let c = first - 1; c >= 1; c--) order.push(c);
    for (let k = 1; k >= 0.549; k -= 0.05) {
      const step = (C + 0.7) * k;
      const h = (C / 2) * k;
      for (const cols of order) {
        const rows = Math.ceil(n / cols);
        for (const [sx, sy] of shifts) {
          const cx = a[0] + sx;
          const cy = a[1] + sy - ((rows - 1) * step) / 2 + (below || 0);
          let ok = true;
          for (let i = 0; i < n && ok; i++) {
            const row = Math.floor(i / cols);
            const inRow = Math.min(cols, n - row * cols);
            const x = cx + ((i % cols) - (inRow - 1) / 2) * step;
            const y = cy + row * step;
            ok = [[-h, -h], [h, -h], [h, h], [-h, h], [0, -h], [0, h], [-h, 0], [h, 0]].every(([dx, dy]) => inside([x + dx, y + dy], poly, 0));
          }
          if (ok) return { cols, k, cx, cy };
        }
      }
    }
    const cols = Math.ceil(Math.sqrt(n));
    const k = 0.55;
    return { cols, k, cx: a[0], cy: a[1] - ((Math.ceil(n / cols) - 1) * (C + 0.7) * k) / 2 + (below || 0) };
  }

  // ------------------------------------------------------------------------------------------
  // The board

  function render(container, board, game, ui) {
    const regions = ((board && board.regions) || []).map(drawnRegion);
    const drawing = (board && board.drawing) || {};
    const view = (game && game.view) || {};
    const tr = view.tracks || {};
    const pieces = view.pieces || [];
    const ablaze = new Set(tr.ablaze || []);
    const fr = drawing.frame || [VIEW.x0, VIEW.y0, VIEW.x1 - VIEW.x0, VIEW.y1 - VIEW.y0];
    const root = svg("svg", { xmlns: NS, viewBox: `${fr[0] * S} ${fr[1] * S} ${fr[2] * S} ${fr[3] * S}`, role: "img", "aria-label": "Map of the Charlestown peninsula, 17 June 1775" });
    root.append(defs());
    ground(root, regions, drawing, ablaze);

    const centres = new Map();
    const byId = new Map();
    for (const r of regions) {
      byId.set(r.id, r);
      centres.set(r.id, r.centre);
    }
    // Labels: hills, region names, zones, staging areas, modifiers, fires.
    const hills = new Map();
    for (const r of regions) if (r.hill) (hills.get(r.hill) || hills.set(r.hill, []).get(r.hill)).push(r);
    const labels = svg("g", {});
    for (const [h, rs] of hills) {
      const xs = rs.flatMap((r) => r.polygon.map((p) => p[0]));
      const ys = rs.flatMap((r) => r.polygon.map((p) => p[1]));
      const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
      labels.append(svg("text", { class: "bh-label", x: cx * S, y: (Math.min(...ys) - 0.9) * S }, HILL_NAME[h] || h));
    }
    for (const r of regions) {
      const c = r.centre;
      if (r.zone) {
        labels.append(svg("circle", { cx: c[0] * S, cy: (c[1] - 4.2) * S, r: 13, fill: "#ffe27a", stroke: "#6b5a10", "stroke-width": 1.2 }));
        labels.append(svg("text", { class: "bh-num", x: c[0] * S, y: (c[1] - 4.2) * S + 1, fill: "#2b2200", style: "font-size:12px" }, String(r.zone.number)));
        labels.append(svg("text", { class: "bh-code", x: c[0] * S, y: (c[1] - 4.2) * S + 9, fill: "#2b2200", style: "font-size:6.5px" }, `${r.zone.transport}/${r.zone.staging}`));
        continue;
      }
      const above = [c[0], c[1] - C / 2 - 1.1];
      const nameAt = inside(above, r.polygon, 0.4) ? above : [c[0], c[1] + C / 2 + 2.1];
      labels.append(svg("text", { class: "bh-name", x: n1(nameAt[0]), y: n1(nameAt[1]) }, shortName(r)));
      const badgeY = nameAt === above ? c[1] + C / 2 + 2.3 : c[1] - C / 2 - 1.6;
      if (r.staging_zone) labels.append(svg("text", { class: "bh-stage", x: c[0] * S, y: badgeY * S }, `staging ${r.staging_zone}`));
      if (r.volley_modifier || r.assault_modifier) {
        const colour = r.modifier_kind === "redoubt" ? "#c25400" : r.modifier_kind === "wall" ? "#d8b400" : "#ffffff";
        const x = c[0] * S;
        const y = badgeY * S;
        labels.append(svg("rect", { x: x - 15, y: y - 8, width: 30, height: 11, rx: 3, fill: colour, stroke: "#3b3020", "stroke-width": 0.6, opacity: 0.92 }));
        labels.append(svg("text", { class: "bh-mod", x, y: y + 1, fill: "#1b1406" }, `${r.volley_modifier}/+${r.assault_modifier}`));
      }
      if (ablaze.has(r.id)) labels.append(svg("text", { class: "bh-small", x: c[0] * S, y: (c[1] + 0.8) * S, fill: "#4a0d00" }, "ABLAZE"));
    }
    root.append(labels);

    // The Muster Box (3.2), the Fleet Boxes (4.5, 6.6) and the Copp's Hill Battery (4.4).
    const neck = byId.get("neck");
    root.append(svg("rect", { class: "bh-box", x: MUSTER.x * S, y: MUSTER.y * S, width: MUSTER.w * S, height: MUSTER.h * S, rx: 4 }, svg("title", {}, "Patriot Muster Box (3.2): next to the Neck; reinforcements arrive here; it cannot be attacked")));
    root.append(svg("text", { class: "bh-box-title", x: (MUSTER.x + 1.5) * S, y: (MUSTER.y + 3) * S }, "Muster Box"));
    if (neck) root.append(svg("path", { d: `M${n1(MUSTER.x + MUSTER.w)} ${n1(MUSTER.y + MUSTER.h / 2)}L${n1(neck.centre[0])} ${n1(neck.centre[1])}`, stroke: "#5b5446", "stroke-width": 2, "stroke-dasharray": "4 3" }));
    centres.set("muster", [MUSTER.x + MUSTER.w / 2, MUSTER.y + 8]);
    const fleetNames = new Map(((board && board.fleet_boxes) || []).map((f) => [f.id, f]));
    for (const [id, b] of Object.entries(FLEET)) {
      const f = fleetNames.get(id);
      const here = tr.fleet_box === id;
      root.append(svg("rect", { class: "bh-box", x: b.x * S, y: b.y * S, width: b.w * S, height: b.h * S, rx: 4, fill: here ? "#fff8dc" : null }, svg("title", {}, `Fleet Box: ${f ? f.name : id} (6.6); Bombard from here reaches ${f ? f.targets.length : "?"} regions (6.4)`)));
      root.append(svg("text", { class: "bh-box-title", x: (b.x + 1.2) * S, y: (b.y + 2.8) * S }, `Fleet: ${SHORT[id] || id}`));
      if (here) {
        const x = (b.x + b.w / 2) * S;
        const y = (b.y + b.h / 2 + 1.5) * S;
        root.append(svg("g", { transform: `translate(${x},${y})`, filter: "url(#bh-shadow)" }, svg("title", {}, `The British fleet is in the ${f ? f.name : id} box`), svg("path", { d: "M-26 -6 H26 L18 10 H-18 Z", fill: SIDES.british.fill, stroke: "#151515" }), svg("path", { d: "M0 -6 V-22 L14 -12 Z", fill: "#fff", stroke: "#151515" }), svg("text", { class: "bh-code", x: 0, y: 5, fill: "#fff" }, "◆ FLEET")));
      }
    }
    root.append(svg("rect", { class: "bh-box", x: COPPS.x * S, y: COPPS.y * S, width: COPPS.w * S, height: COPPS.h * S, rx: 4 }, svg("title", {}, "Copp's Hill in Boston (4.4): the battery never moves; it bombards the regions listed on the aid")));
    root.append(svg("text", { class: "bh-box-title", x: (COPPS.x + 1.2) * S, y: (COPPS.y + 2.8) * S }, "Copp's Hill battery"));
    centres.set("copps", [COPPS.x + COPPS.w / 2, COPPS.y + COPPS.h / 2 + 1.5]);

    // Title and legend.
    root.append(svg("text", { class: "bh-title", x: TITLE.x * S, y: TITLE.y * S }, "Bunker Hill, 17 June 1775"));
    [
      "★ rounded: Patriot · ◆ square: British · round: leader · big figure: strength (? undrawn)",
      "hatched, BRK/WND/DMG: broken, wounded, damaged · chips M moved, F fired, R rallied, P panic",
      "green hilltop (2) inside the dark contour · tan slope/ridge (1) · meadow (0) · houses: town",
      "x/+y: volley/assault dice · dashed water: Landing Zone · map reconstructed (rulings R1, R12)",
    ].forEach((t, k) => root.append(svg("text", { class: "bh-legend", x: LEGEND.x * S, y: (LEGEND.y + k * 2.8) * S }, t)));

    // Pieces: like counters stacked, in a block round the region's anchor that fits inside its
    // outline (smaller counters when needed); in the Muster Box and on Copp's Hill in their box.
    const t = ui && ui.interactive ? targetsOf(game) : { regions: new Map(), units: new Map(), fleet: new Map() };
    const byPlace = new Map();
    for (const p of pieces) {
      if (!centres.has(p.at)) continue;
      if (!byPlace.has(p.at)) byPlace.set(p.at, []);
      byPlace.get(p.at).push(p);
    }
    const layer = svg("g", { class: "bh-pieces" });
    const unitTargets = [];
    for (const [at, list] of byPlace) {
      const c = centres.get(at);
      const gs = groups(list);
      const r = byId.get(at);
      let cols = Math.min(gs.length, 3);
      let k = 1;
      let cx = c[0];
      let cy = c[1];
      if (r) ({ cols, k, cx, cy } = fitCounters(r, gs.length, r.zone ? 2 : 0));
      else if (at === "muster") cy = c[1] + 0.5;
      const step = (C + 0.7) * k;
      gs.forEach((g, i) => {
        const col = i % cols;
        const row = Math.floor(i / cols);
        const inRow = Math.min(cols, gs.length - row * cols);
        const x = cx + (col - (inRow - 1) / 2) * step;
        const y = cy + row * step;
        layer.append(counter(g.first, x, y, g.ids.length, k));
        const acts = g.ids.flatMap((id) => t.units.get(id) || []);
        if (acts.length) unitTargets.push([x, y, acts, g.ids[0], k]);
      });
    }
    root.append(layer);
    // What happened since the viewer's last decision (issue 17): trails, fights, losses.
    const recentNotes = ui && ui.markRecent ? ui.markRecent(root, (v) => piecesOf(v, centres, byId), C * S) : [];

    // Targets for the legal actions, on top: regions (their whole area), fleet boxes, counters.
    const placed = new Set();
    if (ui && ui.interactive) {
      const tl = svg("g", { class: "bh-targets" });
      const spots = [];
      const hook = (el, actions, focusable = true) => {
        const text = actions.map((a) => (ui.label ? ui.label(a) : a)).join("\n");
        if (focusable) {
          el.setAttribute("tabindex", 0);
          el.setAttribute("role", "button");
          el.setAttribute("aria-label", text);
        }
        el.append(svg("title", {}, text));
        el.setAttribute("data-actions", actions.join("|"));
        const list = grouped(actions, pieces, byId);
        // A region to move out of is held back (a draft, from the server's preview): the
        // click on the destination sends the Move action with the counters' moves, one batch.
        const pick = (ev) => {
          const only = actions.length === 1 ? actions[0] : null;
          if (only && only.split(/\s+/)[0] === "move" && ui.draft) ui.draft([only], { label: ui.label ? ui.label(only) : only });
          else ui.choose(list, ev);
        };
        el.addEventListener("click", pick);
        el.addEventListener("keydown", (ev) => {
          if (ev.key === " " || ev.key === "Enter") {
            ev.preventDefault();
            pick(ev);
          }
        });
        actions.forEach((a) => placed.add(a));
        tl.append(el);
      };
      // Does a region's bounding box have its middle safely inside the region?
      const needsSpot = (id) => {
        const r = byId.get(id);
        if (!r || !(r.polygon || []).length) return false;
        const xs = r.polygon.map((p) => p[0]);
        const ys = r.polygon.map((p) => p[1]);
        return !inside([(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2], r.polygon, 0.3);
      };
      for (const [id, actions] of t.regions) {
        if (id === "muster") {
          hook(svg("rect", { class: "bh-target", x: MUSTER.x * S, y: MUSTER.y * S, width: MUSTER.w * S, height: MUSTER.h * S, rx: 4, "data-target": "region", "data-region": id }), actions);
          continue;
        }
        const r = byId.get(id);
        if (!r) continue;
        const poly = svg("polygon", { class: "bh-target", points: pts(r.polygon || []) });
        if (!needsSpot(id)) {
          hook(svg("g", { "data-target": "region", "data-region": id }, poly), actions);
          continue;
        }
        // The middle of its bounding box is not safely inside: the region is drawn as usual,
        // and the marked target is a spot on its centre, above every region.
        hook(svg("g", {}, poly), actions);
        spots.push([r, actions]);
      }
      for (const [r, actions] of spots) {
        const h = 1.2 * S;
        hook(svg("rect", { x: n1(r.centre[0]) - h, y: n1(r.centre[1]) - h, width: 2 * h, height: 2 * h, fill: "transparent", "pointer-events": "all", "data-target": "region", "data-region": r.id }), actions, false);
      }
      for (const [id, actions] of t.fleet) {
        const b = FLEET[id];
        if (!b) continue;
        hook(svg("rect", { class: "bh-target", x: b.x * S, y: b.y * S, width: b.w * S, height: b.h * S, rx: 4, "data-target": "fleet", "data-box": id }), actions);
      }
      for (const [x, y, actions, id, k] of unitTargets) {
        const h = (C / 2 + 0.3) * k * S;
        hook(svg("rect", { class: "bh-target unit", x: n1(x) - h, y: n1(y) - h, width: 2 * h, height: 2 * h, rx: 4, "data-target": "unit", "data-unit": id }), actions);
      }
      root.append(tl);
    }
    container.replaceChildren(root);
    return { targets: placed, recent: recentNotes };
  }

  // The pieces of one view as the client's marks of recent changes need them (app.js,
  // recentDiff): each at its place's centre.
  function piecesOf(view, centres, byId) {
    return (view.pieces || []).map((p) => {
      const c = centres.get(p.at);
      const r = byId.get(p.at);
      return { id: p.id, on: !!c, x: c ? n1(c[0]) : 0, y: c ? n1(c[1]) : 0, place: p.at, placeName: r ? r.name : p.at === "muster" ? "the Muster Box" : p.at, down: p.state && p.state !== "healthy" ? 1 : 0, fight: (p.markers || []).includes("fired"), side: p.side, label: `${(SIDES[p.side] || {}).label || p.side} ${p.kind === "leader" ? "leader" : KIND_NAME[p.kind] || p.kind}` };
    });
  }

  // ------------------------------------------------------------------------------------------
  // Tracks

  const OBJECTIVES = ["", "Clear or burn Charlestown", "Northern Defense Works", "Breed's Hill", "Bunker Hill and one more", "The Neck and one more", "Any three", "Breed's Hill and the Neck", "Bunker Hill"];

  function tracks(board, game) {
    const v = (game && game.view) || {};
    const t = v.tracks;
    if (!t) return [];
    const pieces = v.pieces || [];
    const rows = [{ label: "Turn", value: t.turn, max: t.last_turn, text: `${t.turn} / ${t.last_turn}` }];
    rows.push({ label: "Card", text: v.card ? `card ${v.card} · ${v.draw_pile} left` : `${v.draw_pile} in the deck` });
    ["patriot", "british"].forEach((s, i) => rows.push({ side: s, label: "Actions", value: t.actions[i], max: 5, text: String(t.actions[i]) }));
    ["patriot", "british"].forEach((s, i) => rows.push({ side: s, label: "Reserve", value: t.reserves[i], max: 2, text: String(t.reserves[i]) }));
    const ammoNote = t.ammo === 0 ? "out (8.0)" : t.ammo <= 12 ? "low (8.0)" : "";
    rows.push({ side: "patriot", label: "Ammo", text: `${t.ammo} / 24${ammoNote ? ` · ${ammoNote}` : ""}` });
    ["patriot", "british"].forEach((s, i) => {
      const note = t.demoralized[i] ? " · demoralized (9.2)" : i === 0 && t.morale[0] <= 12 ? " · panic checks (9.1)" : "";
      rows.push({ side: s, label: "Morale", text: `${t.morale[i]} / 24${note}` });
    });
    ["patriot", "british"].forEach((s, i) => {
      const h = (t.vp_halves || [0, 0])[i];
      const causes = (t.vp_causes || []).filter((c) => c.side === i && c.halves).map((c) => `${c.cause}${c.count > 1 ? ` ×${c.count}` : ""}`);
      rows.push({ side: s, label: "VP", text: `${h / 2}${causes.length ? ` (${causes.join(", ")})` : ""}` });
    });
    const fleet = ((board && board.fleet_boxes) || []).find((f) => f.id === t.fleet_box);
    rows.push({ side: "british", label: "Fleet", text: fleet ? fleet.name : t.fleet_box });
    rows.push({ side: "british", label: "Cannon", text: t.wrong_ammo ? "wrong ammunition (4.3)" : "ammunition arrived" });
    if ((t.ablaze || []).length) rows.push({ label: "Ablaze", text: `${t.ablaze.length} town region${t.ablaze.length > 1 ? "s" : ""}` });
    const coming = new Map();
    for (const p of pieces) {
      if (p.at !== "pending") continue;
      const k = `${p.arrives}|${p.side}`;
      if (!coming.has(k)) coming.set(k, { turn: p.arrives, side: p.side, n: new Map() });
      const code = p.kind === "leader" ? p.id : KIND_CODE[p.kind] || p.kind;
      const m = coming.get(k).n;
      m.set(code, (m.get(code) || 0) + 1);
    }
    [...coming.values()]
      .sort((a, b) => a.turn - b.turn)
      .forEach((c) => rows.push({ side: c.side, label: `Arrive t${c.turn}`, text: [...c.n].map(([k, n]) => (n > 1 ? `${n} ${k}` : k)).join(", ") }));
    // Counters still to be set up (12.1), in the order they are placed.
    for (const side of ["british", "patriot"]) {
      const n = new Map();
      for (const p of pieces) {
        if (p.at !== "setup" || p.side !== side) continue;
        const code = p.kind === "leader" ? p.id : p.kind === "militia" && (p.strength === null || p.strength === undefined) ? "MIL?" : KIND_CODE[p.kind] || p.kind;
        n.set(code, (n.get(code) || 0) + 1);
      }
      if (n.size) rows.push({ side, label: "To place", text: [...n].map(([k, c]) => (c > 1 ? `${c} ${k}` : k)).join(", ") });
    }
    const gone = [0, 0];
    for (const p of pieces) if (p.at === "removed") gone[p.side === "british" ? 1 : 0] += 1;
    if (gone[0] || gone[1]) rows.push({ label: "Lost", text: `Patriot ${gone[0]} · British ${gone[1]}` });
    if (v.solo && v.solo.objective) rows.push({ side: "british", label: "Objective", text: `${OBJECTIVES[v.solo.objective] || v.solo.objective} (12.3)` });
    return rows;
  }

  function turnOf(entry) {
    const m = /^End of turn (\d+)/.exec(entry && entry.text ? entry.text : "");
    return m ? Number(m[1]) + 1 : null;
  }

  // A summary of Part Two in Muster's own words, by the sections that prompts and log entries
  // cite (docs/rules/bunker-hill.md maps every section to the code; the printed rulebook is the
  // authority).
  const RULES = [
    { section: "2", title: "The board", text: ["Tracks record the turn, the Victory Points, each side's actions (up to five) and Reserve Actions (up to two), the Patriot ammunition and both sides' morale. Ten of the Revolution Road cards form the deck; each card gives both sides their actions for a turn."] },
    { section: "3", title: "The map", text: ["The Charlestown peninsula is cut into regions; regions with a common border are adjacent. A side may keep at most three military units in a land region (leaders do not count). The map here is a reconstruction (docs/rulings/bunker-hill.md R1-R9)."] },
    { section: "3.0", title: "Terrain", text: ["Hilltops (dark green) are elevation 2, slopes and ridge lines (brown) elevation 1, everything else 0. Bunker Hill has three hilltop regions, Breed's Hill two (one is the Redoubt), Moulton's Hill one. Holding every hilltop region of a hill scores VP. The Fleet can sit in one of three Fleet Boxes; the harbour box touches the other two."] },
    { section: "3.1", title: "Terrain modifiers", text: ["A region printed x/+y takes x dice off a Volley fired into it and gives its defenders y more dice in an Assault. Firing or assaulting from a hilltop ignores them; between neighbouring slopes or ridges they are ignored too; the yellow fence and wall modifiers count only against the regions beside the fence or wall; the Redoubt's orange ones always count."] },
    { section: "3.2", title: "Muster Box", text: ["Patriot reinforcements arrive in this off-map box next to the Neck. No British piece may enter it and nothing in it can be attacked."] },
    { section: "3.3", title: "Charlestown", text: ["Ten green-edged town regions. British counters stop as they enter one. A Volley may go into a town region but not across one; it rolls one die fewer, and town defenders roll one die more in an Assault. Burning (ablaze) regions are closed and score for the British."] },
    { section: "3.4", title: "Charlestown Neck", text: ["While the Fleet is in the Charles River box, each militia piece entering the Neck from the Muster Box rolls a die plus its strength; 1-3 sends it back to the Muster Box, marked as moved."] },
    { section: "3.5", title: "Landing Zones and Staging Areas", text: ["British reinforcements wait afloat in numbered Landing Zones (no limit there). Land Troops brings up to the zone's transport number of units (leaders free) to its Staging Area, marked as moved. British units there may not Move out until the area has held the staging number of units once; Staging Areas have no British stacking limit."] },
    { section: "4", title: "Playing pieces", text: ["Counters are the military units and their leaders; markers record the tracks and what happened this turn (moved, fired, rallied, panic, ablaze)."] },
    { section: "4.1", title: "Military units", text: ["Regulars 2, Marines 3, field cannon 2 (1 when damaged), Minutemen 1, militia 0, 1 or 2. A hit flips a unit to its broken side (no strength), a second hit removes it. Every unit hits on 5-6 unless range says otherwise. Each leader lifts one 0-strength militia of its group to one die. A broken unit moving without a leader may only go toward its own rear."] },
    { section: "4.2", title: "Leaders", text: ["A hit wounds a healthy leader and kills a wounded one. Wounded leaders stay wounded but can still rally. Leaders do not count for stacking."] },
    { section: "4.3", title: "British cannon ammunition", text: ["British field cannon cannot fight until their ammunition arrives: from turn 4 the British roll a die each turn and add the turn number; 10 or more and the cannon may fire for the rest of the game."] },
    { section: "4.4", title: "Copp's Hill Battery", text: ["A fixed British battery in Boston that fires with the Bombard Action at the regions in its range."] },
    { section: "5", title: "Turn sequence", text: ["Draw a card for both sides' actions (and from turn 4 roll for the British cannon ammunition), take actions in turn, then end the turn."] },
    { section: "5.1", title: "Action points", text: ["The card sets each side's actions for the turn; a demoralized side gets one fewer."] },
    { section: "5.2", title: "Taking actions", text: ["The side with more actions goes first; on a tie a die decides (even: Patriot). Sides then alternate. A side that is not ahead in actions may hand the next action to the opponent, who must then act. A Reserve Action may pay for an action when a side is not ahead or has one action left."] },
    { section: "5.3", title: "End of the turn", text: ["Moved, Fired and Rallied markers come off; each healthy Patriot leader may lift one Panic marker in its region. Each burning town region next to an unburnt one spreads fire on 5-6 to a region the British pick. After the last turn every unburnt region next to a fire catches on 5-6."] },
    { section: "6", title: "Actions", text: ["Each action costs one action point; the same action may be taken again while its conditions hold. Pieces move once and fight once a turn."] },
    { section: "6.1", title: "Volley Fire", text: ["Units of one region that have not fired shoot at one region up to two regions away in Line of Sight: one die per strength point, less the target's volley modifier; 5-6 hits next door, only 6 two regions away. The player picks which units fire; they are marked as fired."] },
    { section: "6.2", title: "Assault", text: ["Units of one region that have neither moved nor fired attack an adjacent enemy region; they need at least as many healthy units as the defenders. They move in and the defenders fire a free round first. Then both sides roll each round; after every round either side may pull some or all of its counters back. The attacker falls back as soon as he has fewer healthy units than the defender."] },
    { section: "6.3", title: "Cannonade", text: ["Every field cannon that has not fired may shoot at a region it can see, any range; cannon of one region pick the same target. Terrain does not count; 5-6 hits within two regions, 6 beyond; hits go only to healthy counters."] },
    { section: "6.4", title: "Bombard", text: ["The Fleet and the Copp's Hill Battery each fire once at a region in their target area: two dice at a region with two or more healthy Patriot counters (6 hits, 5-6 in a Staging Area), or one Hot Shot die at a town region (4-6 sets it ablaze, once a turn). Counters in a region that catches fire leave it at once or are lost."] },
    { section: "6.5", title: "Land Move", text: ["Counters of one region that have not moved go up to three regions (leaders four), each on its own path. They stop on entering a region next to enemy units; the British also stop on entering a town region. No one enters a burning region; stacking holds at every step."] },
    { section: "6.6", title: "Naval Move", text: ["The Fleet moves to an adjacent Fleet Box."] },
    { section: "6.7", title: "Rally", text: ["In a region with a leader, each leader (wounded ones too) flips one broken unit back; damaged cannon cannot be rallied. A leader rallies once a turn. Each rally raises morale by one."] },
    { section: "6.8", title: "Reorganize the Line", text: ["Counters that have not moved may trade places between two adjacent regions; stacking must hold when it ends."] },
    { section: "6.9", title: "Snipe", text: ["The Patriot rolls one die at healthy British counters in or next to Charlestown that touch an unburnt town region; 5-6 is a hit on a healthy non-cannon counter. Not allowed once ammunition is low."] },
    { section: "6.10", title: "Land Troops", text: ["British units leave a Landing Zone for its Staging Area (3.5)."] },
    { section: "6.11", title: "Plan", text: ["With exactly one action left, a side may give it up for a Reserve Action (two at most); its actions end for the turn."] },
    { section: "6.12", title: "Pass", text: ["A side may spend an action doing nothing."] },
    { section: "7", title: "Battles", text: ["Volley Fire, Assault, Cannonade, Bombard and Snipe all end in hits that the owner places (7.0)."] },
    { section: "7.0", title: "Hits", text: ["The owner places each hit on a counter of the target region: a healthy counter flips, a flipped one is removed. Leaders and cannon may take hits even when other pieces are there."] },
    { section: "7.1", title: "Retreat", text: ["Retreats happen only in Assaults. Before the free defensive round the Patriot may withdraw Minutemen and leaders, each able to take one militia along. A defender retreats away from the attack, all to one region while stacking allows; the attacker goes back where he came from."] },
    { section: "7.2", title: "Line of Sight", text: ["Lines run between region centres. Neighbours always see each other. At equal elevation higher ground or military units in between block; between elevations 1 and 0 only obstructions block; a hilltop sees over lower ground except a low region right behind a ridge or slope that is not next to the hill. Fire never passes through a town region."] },
    { section: "8", title: "Patriot ammunition", text: ["The track starts at 24. A Volley costs one; an Assault costs one for taking part and, for a defender, one more for the free round unless he holds it. At 12 or less the Patriot rolls at most three dice and cannot snipe. At 0 at most two dice, no Patriot Assaults, Volleys only next door, and the British may assault whatever the numbers."] },
    { section: "9", title: "Morale", text: ["Each side starts at 24. A broken unit or wounded leader costs one, a destroyed unit one, a killed leader two; a rally gives one back."] },
    { section: "9.1", title: "Panic", text: ["At the start of each turn with Patriot morale at 12 or less, the British pick a region where militia touches British units; each unbroken militia there rolls a die plus its strength and panics on 1-4 (broken and marked). Broken Patriot units there are marked too. Panicked units run three regions toward the Muster Box, cannot be activated, run again if fired on, and are destroyed if assaulted."] },
    { section: "9.2", title: "Patriot demoralization", text: ["At morale 0: militia runs three regions toward the Muster Box once and afterwards moves only that way; no Rally, no Plan, no Reserve Actions, one action fewer, militia hits only on 6. Minutemen are not affected."] },
    { section: "9.3", title: "British demoralization", text: ["At morale 0: no Rally, no Plan, no Reserve Actions, one action fewer, one die fewer in Volleys and Assaults."] },
    { section: "9.4", title: "Both demoralized", text: ["The game ends at once."] },
    { section: "10", title: "Victory", text: ["The side with more Victory Points wins; on a tie the British win if they hold more hilltop regions, otherwise the Patriot."] },
    { section: "11", title: "Optional rules", text: ["Options agreed before play: stronger works, more ammunition choices, free landing zones, and the solitaire rally in the two-player game."] },
    { section: "11.1", title: "Option: works", text: ["Patriot units in the Redoubt and the two wall regions ignore the first British hit."] },
    { section: "11.2", title: "Option: more ammunition", text: ["The Patriot may pay one more ammunition for an extra Volley die, or two (four) to hit on 4-6 (3-6) when defending an Assault."] },
    { section: "11.3", title: "Option: landing zones", text: ["The British turn-3 and turn-6 reinforcements may use any Landing Zone."] },
    { section: "12", title: "Scenarios", text: ["The two-player battle (12.1) and two solitaire scenarios against the computer (12.3 as the British, 12.4 as the Patriot)."] },
    { section: "12.1", title: "Two-player set-up", text: ["The British place five Regulars in the zone-2 Staging Areas; the rest wait in Landing Zone 2. The Patriot then places his at-start counters one by one in regions with a defensive modifier (not Moulton's Hill). Reinforcements: British on turns 3 and 6, Patriot militia on turns 2-5."] },
    { section: "12.2", title: "Solitaire rules", text: ["Against the bot: the British objective sets the game's length and landing zones; hits fall on random counters; rallies may succeed without a leader on a die; two units land per action in zones 1 and 2. VP: 1 per destroyed unit or killed leader, ½ per broken or panicked unit, penalties for Patriot demoralization, empty ammunition and British failure."] },
    { section: "12.3", title: "Solitaire: British player", text: ["The British choose (or roll) one of six objectives and may upgrade it later, never downgrade; the Patriot set-up follows the objective."] },
    { section: "12.4", title: "Solitaire: Patriot player", text: ["The Patriot picks a defence focus and sets up; then the British objective is rolled. The game ends early if the British achieve it; the British fire once more at the end of each turn."] },
  ];

  window.MusterBoards = window.MusterBoards || {};
  window.MusterBoards["bunker-hill"] = {
    render,
    rules: RULES,
    // Verbs that roll dice, reveal a strength or hand play over.
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
