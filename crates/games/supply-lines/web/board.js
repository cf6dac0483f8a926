// Board renderer of "Supply Lines of the American Revolution: The Northern Theater" for
// Muster's browser client. It follows the contract in docs/server.md ("Board renderers"): it
// registers window.MusterBoards["supply-lines"] = { render, rules, irreversible, shortcuts,
// sides, tracks, turnOf }. The point-to-point map is drawn as SVG from GET
// /api/games/<id>/board (src/board.rs: areas with their reconstructed positions, Movement
// Lines, the printed tracks) and from the view (src/lib.rs `View`: armies, cubes, markers),
// which holds only what every player may see.
(function () {
  "use strict";

  const NS = "http://www.w3.org/2000/svg";
  const SIDES = {
    patriot: { label: "Patriot", emblem: "★", cls: "american", fill: "#1f4e8c", light: "#c9d8ee", ink: "#ffffff" },
    crown: { label: "Crown", emblem: "◆", cls: "british", fill: "#a3271f", light: "#efcdc9", ink: "#ffffff" },
  };
  const FOOD = { fill: "#3f8f3a", stroke: "#1d4a1b" };
  const WAR = { fill: "#d9b77c", stroke: "#6b4e22" };
  const STEP_NAMES = {
    "nova-scotia": "Supply Phase: Nova Scotia's output",
    supply: "Supply Phase: moving supplies",
    request: "Supply Phase: Crown reinforcements",
    impulse: "Impulse Phase",
    activate: "Impulse Phase: activation",
    after: "Impulse Phase: supplies after the activation",
    refuse: "Battle: accept or refuse",
    "refuse-carry": "Battle: refusing with supplies",
    "attacker-commit": "Battle: attacker's commitment",
    "defender-commit": "Battle: defender's commitment",
    retreat: "Battle: retreat",
    "place-leader": "Turn End: the third Patriot Leader",
    over: "Game over",
  };
  const ORDER_NAMES = {
    march: "March",
    transport: "Transport",
    attack: "Attack",
    skirmish: "Skirmish",
    "dig-in": "Dig-In",
    bombard: "Bombard",
    destroy: "Destroy",
  };
  // Verbs that always roll dice or hand play to the other side; render() adds the phase's
  // own ones (see dynamicIrreversible) before the client asks.
  const IRREVERSIBLE = ["done", "pass", "request", "triumvirate", "no-request", "accept", "end-march", "concede"];
  const irreversible = IRREVERSIBLE.slice();

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

  const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;

  function starPoints(cx, cy, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (Math.PI / 5) * i;
      const rr = i % 2 === 0 ? r : r * 0.42;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  function emblem(side, x, y, r, fill) {
    if (side === "patriot") return svg("polygon", { points: starPoints(x, y, r), fill });
    return svg("polygon", { points: `${x},${y - r} ${x + r * 0.8},${y} ${x},${y + r} ${x - r * 0.8},${y}`, fill });
  }

  function defs() {
    return svg(
      "defs",
      {},
      svg("pattern", { id: "sl-paper", width: 40, height: 40, patternUnits: "userSpaceOnUse" }, svg("rect", { width: 40, height: 40, fill: "#ece3c6" }), svg("circle", { cx: 7, cy: 9, r: 0.9, fill: "#d6c89c" }), svg("circle", { cx: 27, cy: 31, r: 0.9, fill: "#d6c89c" }), svg("circle", { cx: 33, cy: 12, r: 0.6, fill: "#d9cda5" })),
      svg("pattern", { id: "sl-waves", width: 24, height: 12, patternUnits: "userSpaceOnUse" }, svg("rect", { width: 24, height: 12, fill: "#a9c6d8" }), svg("path", { d: "M0 8 Q6 3 12 8 T24 8", fill: "none", stroke: "#7fa6bf", "stroke-width": 1.2 })),
      svg("pattern", { id: "sl-wood", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, svg("rect", { width: 8, height: 8, fill: "#93b86c" }), svg("path", { d: "M1 6 l2 -3 l2 3 z", fill: "#6f9a4c" })),
      svg("pattern", { id: "sl-stone", width: 10, height: 6, patternUnits: "userSpaceOnUse" }, svg("rect", { width: 10, height: 6, fill: "#d8d2c2" }), svg("path", { d: "M0 5.5 H10 M5 0 V3", stroke: "#b9b09a", "stroke-width": 0.7 })),
      svg("filter", { id: "sl-shadow", x: "-20%", y: "-20%", width: "150%", height: "150%" }, svg("feDropShadow", { dx: 1.2, dy: 1.6, stdDeviation: 0.8, "flood-color": "#000", "flood-opacity": 0.45 })),
      svg("marker", { id: "sl-arrow-patriot", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, svg("path", { d: "M0 0 L10 5 L0 10 z", fill: SIDES.patriot.fill })),
      svg("marker", { id: "sl-arrow-crown", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, svg("path", { d: "M0 0 L10 5 L0 10 z", fill: SIDES.crown.fill })),
      svg("marker", { id: "sl-arrow-supply", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, svg("path", { d: "M0 0 L10 5 L0 10 z", fill: "#b27c00" })),
    );
  }

  const STYLE = `
    .sl-name { font: 700 12.5px Georgia, serif; fill: #2b2418; text-anchor: middle; paint-order: stroke; stroke: #f4edd6; stroke-width: 3px; stroke-linejoin: round; pointer-events: none; }
    .sl-name.point { font-size: 10.5px; }
    .sl-small { font: 700 8.5px sans-serif; fill: #3a3224; text-anchor: middle; pointer-events: none; }
    .sl-units { font: 700 14px sans-serif; text-anchor: middle; pointer-events: none; }
    .sl-chip { font: 700 7px sans-serif; text-anchor: middle; pointer-events: none; }
    .sl-title { font: 700 21px Georgia, serif; fill: #2b2418; }
    .sl-sub { font: italic 11px Georgia, serif; fill: #4a3f2c; }
    .sl-legend { font: 9.5px sans-serif; fill: #3a3224; }
    .sl-water-name { font: italic 9px Georgia, serif; fill: #3f6d8a; text-anchor: middle; pointer-events: none; }
    .sl-sea-name { font: italic 700 15px Georgia, serif; fill: #4f7c99; letter-spacing: 4px; text-anchor: middle; pointer-events: none; }
    .sl-panel-title { font: 700 11px Georgia, serif; fill: #2b2418; }
    .sl-cell { font: 700 8.5px sans-serif; text-anchor: middle; pointer-events: none; }
    .sl-target { fill: #ffd21f; fill-opacity: 0.14; stroke: #ffb300; stroke-width: 3; cursor: pointer; }
    .sl-target:hover, .sl-target:focus { fill-opacity: 0.45; stroke: #ff6f00; outline: none; }
    .sl-passive .sl-target { display: none; }
  `;

  // ---- geometry ---------------------------------------------------------------------------

  function bounds(board) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const a of board.areas || []) {
      const f = (board.footprint || {})[a.kind] || { w: 60, h: 60 };
      x0 = Math.min(x0, a.x - f.w / 2);
      y0 = Math.min(y0, a.y - f.h / 2);
      x1 = Math.max(x1, a.x + f.w / 2);
      y1 = Math.max(y1, a.y + f.h / 2);
    }
    if (!isFinite(x0)) return { x0: 0, y0: 0, x1: 1000, y1: 1000 };
    return { x0, y0, x1, y1 };
  }

  // ---- pieces -----------------------------------------------------------------------------

  // An army: a stack of counters in the side's colour with its emblem (a star for the
  // Patriots, a diamond for the Crown), the number of Units, gold Leader chips and a Dug-In
  // chip. Deeper stacks show more counters underneath.
  function army(area, x, y, size, opts = {}) {
    const side = SIDES[area.side];
    if (!side) return null;
    const units = area.units || 0;
    const leaders = area.leaders || 0;
    const half = size / 2;
    // An army on the map is a counter to the client (`data-counter`: its phone zoom, issue 17).
    const g = svg("g", { class: `sl-army side-${area.side}`, "data-counter": opts.counter ? area.id || "" : null, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
    const notes = [plural(units, "Unit"), plural(leaders, "Leader")];
    if (area.dug_in) notes.push("Dug-In");
    g.append(svg("title", {}, `${side.label} army: ${notes.join(", ")}`));
    const rx = area.side === "patriot" ? size * 0.16 : 1.5;
    const depth = Math.min(3, Math.max(1, Math.ceil(units / 4)));
    for (let i = depth - 1; i > 0; i--) g.append(svg("rect", { x: -half + i * 2.2, y: -half - i * 2.2, width: size, height: size, rx, fill: side.fill, stroke: "#1b1b1b", "stroke-width": 0.8, opacity: 0.85 }));
    g.append(svg("rect", { x: -half, y: -half, width: size, height: size, rx, fill: units ? side.fill : side.light, stroke: opts.selected ? "#ffd21f" : "#1b1b1b", "stroke-width": opts.selected ? 2.6 : 1, filter: "url(#sl-shadow)" }));
    g.append(svg("rect", { x: -half + 1.8, y: -half + 1.8, width: size - 3.6, height: size - 3.6, rx: rx * 0.7, fill: "none", stroke: "rgba(255,255,255,0.5)", "stroke-width": 0.6 }));
    g.append(emblem(area.side, -half + size * 0.2, -half + size * 0.2, size * 0.13, units ? "#fff" : side.fill));
    g.append(svg("text", { class: "sl-units", x: size * 0.06, y: size * 0.3, fill: units ? side.ink : side.fill, style: `font-size:${(size * 0.5).toFixed(1)}px` }, units ? String(units) : "—"));
    // Leaders: one gold chip with a tricorn hat and the count.
    if (leaders) {
      const lg = svg("g", { transform: `translate(${half - 1},${-half + 1})` });
      lg.append(svg("rect", { x: -7, y: -6, width: 14 + (leaders > 1 ? 6 : 0), height: 12, rx: 3, fill: "#f2c230", stroke: "#3b2a00", "stroke-width": 0.8 }));
      lg.append(svg("path", { d: "M-5 2 Q-4 -4 0 -4 Q4 -4 5 2 Q0 0 -5 2 Z", fill: "#1b1b1b" }));
      if (leaders > 1) lg.append(svg("text", { class: "sl-chip", x: 9, y: 3, fill: "#1b1b1b", style: "font-size:8px" }, String(leaders)));
      g.append(lg);
    }
    // Dug-In: a brown chip with a "D" and an earthwork line under the counter.
    if (area.dug_in) {
      g.append(svg("path", { d: `M${-half - 2} ${half + 3} q4 -4 8 0 t8 0 t8 0 t8 0 t8 0`, fill: "none", stroke: "#6b4218", "stroke-width": 2 }));
      g.append(svg("g", { transform: `translate(${-half + 1},${half - 1})` }, svg("rect", { x: -6, y: -6, width: 12, height: 12, rx: 2, fill: "#8a5a2b", stroke: "#2a1a08", "stroke-width": 0.8 }), svg("text", { class: "sl-chip", x: 0, y: 2.6, fill: "#fff" }, "D")));
    }
    return g;
  }

  // One supply cube: Food a green cube, War a natural-wood cube with a dark cross (so the two
  // differ by more than colour).
  function cube(kind, x, y, s) {
    const c = kind === "food" ? FOOD : WAR;
    const g = svg("g", {});
    g.append(svg("rect", { x, y, width: s, height: s, rx: 1, fill: c.fill, stroke: c.stroke, "stroke-width": 0.8 }));
    if (kind === "war") g.append(svg("path", { d: `M${x + 2} ${y + 2} L${x + s - 2} ${y + s - 2} M${x + s - 2} ${y + 2} L${x + 2} ${y + s - 2}`, stroke: c.stroke, "stroke-width": 0.9 }));
    else g.append(svg("rect", { x: x + 1.6, y: y + 1.6, width: s * 0.35, height: s * 0.35, fill: "rgba(255,255,255,0.35)" }));
    return g;
  }

  // A Supply Box: `capacity` slots, filled with Food then War; extra cubes (allowed while a
  // player moves supplies) show as "+n".
  function supplyBox(food, war, capacity, x, y, cols) {
    const g = svg("g", { class: "sl-supplies" });
    const s = 9.5;
    const gap = 2.2;
    const slots = Math.max(capacity, 1);
    for (let i = 0; i < slots; i++) {
      const cx = x + (i % cols) * (s + gap);
      const cy = y + Math.floor(i / cols) * (s + gap);
      if (i < food) g.append(cube("food", cx, cy, s));
      else if (i < food + war) g.append(cube("war", cx, cy, s));
      else g.append(svg("rect", { x: cx, y: cy, width: s, height: s, rx: 1, fill: "rgba(255,255,255,0.45)", stroke: "#b5a782", "stroke-width": 0.6, "stroke-dasharray": "1.5 1" }));
    }
    const over = food + war - slots;
    if (over > 0) g.append(svg("text", { class: "sl-chip", x: x + cols * (s + gap) + 5, y: y + 8, fill: "#b00000", style: "font-size:8px" }, `+${over}`));
    return g;
  }

  // Cubes carried by an army at a Point (or held in the Sea Box): cube glyphs with counts.
  function carried(food, war, x, y) {
    const g = svg("g", { class: "sl-carried" });
    const parts = [];
    if (food) parts.push(["food", food]);
    if (war) parts.push(["war", war]);
    const w = parts.length * 20;
    let cx = x - w / 2;
    for (const [kind, n] of parts) {
      g.append(cube(kind, cx, y - 4.5, 9));
      g.append(svg("text", { class: "sl-small", x: cx + 15, y: y + 3.2, style: "text-anchor:middle" }, String(n)));
      cx += 20;
    }
    return g;
  }

  function badge(x, y, text, fill, ink, title) {
    return svg("g", { transform: `translate(${x},${y})` }, svg("title", {}, title), svg("circle", { r: 7.2, fill, stroke: "#2b2418", "stroke-width": 0.9 }), svg("text", { class: "sl-chip", x: 0, y: 3.2, fill: ink, style: "font-size:9px" }, text));
  }

  function kindWord(a) {
    if (a.kind === "sea") return "the Sea Box";
    const w = a.kind === "city" ? (a.victory ? "Victory City" : "City") : a.kind === "fort" ? "Fort" : "Point";
    return `${w}${a.port ? (a.kind === "point" ? " with a port" : ", port") : ""}`;
  }

  function areaTitle(a, st, board) {
    const parts = [`${a.name}: ${kindWord(a)}`];
    if (st.units || st.leaders) parts.push(`${(SIDES[st.side] || {}).label || st.side} army of ${plural(st.units || 0, "Unit")} and ${plural(st.leaders || 0, "Leader")}${st.dug_in ? ", Dug-In" : ""}`);
    else parts.push("no army");
    const cubes = (st.food || 0) + (st.war || 0);
    if (a.kind === "city" || a.kind === "fort") parts.push(`supplies ${st.food || 0} Food, ${st.war || 0} War (${cubes} of ${board.capacity})`);
    else if (a.kind === "point") parts.push(`carried ${st.food || 0} Food, ${st.war || 0} War${st.units ? ` (at most ${st.units + 1})` : ""}`);
    else parts.push(`${st.war || 0} War reserved for Bombardment`);
    if (st.destroyed) parts.push("Destroyed: makes no supplies");
    return parts.join("; ");
  }

  // ---- the map ----------------------------------------------------------------------------

  function drawArea(a, st, board, view, marks) {
    const g = svg("g", { class: `sl-area kind-${a.kind}`, "data-area": a.id });
    g.append(svg("title", {}, areaTitle(a, st, board)));
    const { x, y } = a;
    const sel = marks.selected.has(a.id);
    if (a.kind === "city" || a.kind === "fort") {
      const bx = x - 48;
      const by = y - 15;
      const bw = 96;
      const bh = 42;
      if (a.kind === "city") {
        g.append(svg("rect", { x: bx, y: by, width: bw, height: bh, rx: 3, fill: st.destroyed ? "#d6cbb4" : "#f6efd9", stroke: a.victory ? "#7a5a00" : "#5b4a32", "stroke-width": a.victory ? 2.4 : 1.4 }));
        if (a.victory) g.append(svg("rect", { x: bx + 2.5, y: by + 2.5, width: bw - 5, height: bh - 5, rx: 2, fill: "none", stroke: "#c9a227", "stroke-width": 1 }));
      } else {
        const c = 7;
        const pts = [[bx + c, by], [bx + bw - c, by], [bx + bw, by + c], [bx + bw, by + bh - c], [bx + bw - c, by + bh], [bx + c, by + bh], [bx, by + bh - c], [bx, by + c]];
        g.append(svg("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: "url(#sl-stone)", stroke: "#4a4536", "stroke-width": 1.6 }));
      }
      // Unit Box (left) and Supply Box (right).
      g.append(svg("rect", { x: bx + 3, y: by + 3, width: 38, height: bh - 6, rx: 2, fill: "rgba(255,255,255,0.55)", stroke: "#9c8a66", "stroke-width": 0.7 }));
      g.append(svg("rect", { x: bx + 44, y: by + 3, width: bw - 47, height: bh - 6, rx: 2, fill: "rgba(255,255,255,0.35)", stroke: "#9c8a66", "stroke-width": 0.7 }));
      g.append(supplyBox(st.food || 0, st.war || 0, board.capacity || 8, bx + 47, by + 6, 4));
      g.append(svg("text", { class: "sl-small", x: bx + 70, y: by + bh - 5, style: "font-size:7px" }, `${st.food || 0}F ${st.war || 0}W`));
      g.append(svg("text", { class: "sl-name", x, y: by - 4 }, a.name));
      if (a.victory) g.append(badge(bx + 1, by, "♛", "#f2c230", "#3b2a00", "Victory City"));
      if (a.port) g.append(badge(bx + bw - 1, by, "⚓", "#dbe8f2", "#123a5a", "Port: adjacent to the Sea Box"));
      if (a.kind === "fort") g.append(badge(a.port ? bx + bw - 17 : bx + bw - 1, by, "▲", "#bdb5a0", "#2b2418", "Fort: stores supplies, makes none"));
      if (st.destroyed) {
        g.append(svg("path", { d: `M${bx + 44} ${by + 3} L${bx + bw - 3} ${by + bh - 3} M${bx + bw - 3} ${by + 3} L${bx + 44} ${by + bh - 3}`, stroke: "#8b0000", "stroke-width": 2.2, opacity: 0.8 }));
        g.append(svg("g", { transform: `translate(${bx + 70},${by + bh + 7})` }, svg("rect", { x: -26, y: -6, width: 52, height: 11, rx: 2, fill: "#8b0000" }), svg("text", { class: "sl-chip", x: 0, y: 2.6, fill: "#fff" }, "DESTROYED")));
      }
      if (st.units || st.leaders) g.append(army(st, bx + 22, by + bh / 2, 28, { selected: sel, counter: true }));
      if (a.nova_scotia) {
        const bits = view.in_nova || 0;
        const waiting = [];
        (board.crown_track.markers || []).forEach((m, i) => {
          if ((bits >> i) & 1) waiting.push([m.id, `Crown reinforcement marker ${m.id} waiting: ${plural(m.units, "Unit")}${m.leaders ? `, ${plural(m.leaders, "Leader")}` : ""} arrive next Campaign Turn`]);
        });
        if ((bits >> 7) & 1) waiting.push(["T", "The Triumvirate of Reputation marker waiting in Nova Scotia"]);
        waiting.forEach(([t, title], i) => {
          const cx = bx + 10 + i * 20;
          g.append(svg("g", { transform: `translate(${cx},${by + bh + 11})` }, svg("title", {}, title), svg("rect", { x: -8, y: -7, width: 16, height: 14, rx: 2, fill: SIDES.crown.fill, stroke: "#1b1b1b", "stroke-width": 0.8 }), svg("text", { class: "sl-chip", x: 0, y: 3, fill: "#fff", style: "font-size:8px" }, t)));
        });
      }
    } else if (a.kind === "point") {
      g.append(svg("rect", { x: x - 17, y: y - 17, width: 34, height: 34, rx: 2, fill: "url(#sl-wood)", stroke: "#3f5e2a", "stroke-width": 1.4 }));
      g.append(svg("text", { class: "sl-name point", x, y: y - 21 }, a.name));
      if (a.port) g.append(badge(x + 17, y + 17, "⚓", "#dbe8f2", "#123a5a", "Port Point: works as a port"));
      if (st.units || st.leaders) g.append(army(st, x, y, 28, { selected: sel, counter: true }));
      if ((st.food || 0) + (st.war || 0)) g.append(carried(st.food || 0, st.war || 0, x, y + 25));
    } else {
      // The Sea Box.
      const bx = x - 98;
      const by = y - 56;
      g.append(svg("rect", { x: bx, y: by, width: 196, height: 112, rx: 6, fill: "url(#sl-waves)", stroke: "#2f5d7c", "stroke-width": 2 }));
      g.append(svg("text", { class: "sl-name", x, y: by + 15, style: "stroke:#cfe0ea" }, a.name));
      g.append(svg("text", { class: "sl-small", x, y: by + 27, style: "font-weight:400" }, "adjacent to every ⚓ port · Crown only"));
      if (st.units || st.leaders) g.append(army(st, bx + 40, y + 16, 30, { selected: sel, counter: true }));
      g.append(svg("text", { class: "sl-small", x: x + 40, y: y + 2 }, "War for Bombardment"));
      g.append(carried(0, st.war || 0, x + 40, y + 18));
      if (!st.war) g.append(svg("text", { class: "sl-small", x: x + 40, y: y + 21, style: "font-weight:400" }, "none"));
    }
    return g;
  }

  // Seas, lakes and rivers (map.toml `[[water]]`), for orientation only: nothing moves across
  // them. A smooth curve through each river's points.
  function smooth(pts) {
    if (pts.length < 3) return `M${pts.map((p) => p.join(" ")).join(" L")}`;
    let d = `M${pts[0][0]} ${pts[0][1]}`;
    for (let i = 1; i < pts.length - 1; i++) {
      const mx = (pts[i][0] + pts[i + 1][0]) / 2;
      const my = (pts[i][1] + pts[i + 1][1]) / 2;
      d += ` Q${pts[i][0]} ${pts[i][1]} ${mx} ${my}`;
    }
    const last = pts[pts.length - 1];
    return `${d} L${last[0]} ${last[1]}`;
  }

  function drawWater(board) {
    const g = svg("g", { class: "sl-water" });
    const labels = svg("g", {});
    for (const w of board.water || []) {
      const pts = w.points || [];
      if (pts.length < 2) continue;
      if (w.kind === "sea") {
        g.append(svg("path", { d: `${smooth(pts)} Z`, fill: "#b7d1e0", stroke: "#6f9bb8", "stroke-width": 1.4 }, svg("title", {}, w.name)));
      } else {
        const lake = w.kind === "lake";
        g.append(svg("path", { d: smooth(pts), fill: "none", stroke: "#6f9bb8", "stroke-width": lake ? 16 : 5.5, "stroke-linecap": "round", "stroke-linejoin": "round" }, svg("title", {}, w.name)));
        g.append(svg("path", { d: smooth(pts), fill: "none", stroke: "#b7d1e0", "stroke-width": lake ? 13 : 3, "stroke-linecap": "round", "stroke-linejoin": "round" }));
      }
    }
    for (const w of board.water || []) {
      if (w.label) labels.append(svg("text", { class: w.kind === "sea" ? "sl-sea-name" : "sl-water-name", x: w.label[0], y: w.label[1] }, w.kind === "sea" ? w.name.toUpperCase() : w.name));
    }
    g.append(labels);
    return g;
  }

  function drawLines(board, pos) {
    const g = svg("g", { class: "sl-lines" });
    const pairs = (board.lines || []).map(([p, q]) => [pos[p], pos[q]]).filter(([a, b]) => a && b);
    for (const [a, b] of pairs) g.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#5a3f22", "stroke-width": 5, "stroke-linecap": "round" }));
    for (const [a, b] of pairs) g.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#e2c78e", "stroke-width": 2, "stroke-linecap": "round", "stroke-dasharray": "7 3" }));
    return g;
  }

  // An arrow between two areas, stopping short of both.
  function arrow(a, b, cls, width, dashed) {
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const s = Math.min(30, len / 3);
    return svg("line", { x1: a.x + (dx / len) * s, y1: a.y + (dy / len) * s, x2: b.x - (dx / len) * s, y2: b.y - (dy / len) * s, stroke: cls === "supply" ? "#b27c00" : SIDES[cls].fill, "stroke-width": width, "stroke-linecap": "round", "stroke-dasharray": dashed ? "6 4" : null, "marker-end": `url(#sl-arrow-${cls})`, opacity: 0.9 });
  }

  // What the current decision is about: the supply source, the activated army and where its
  // detachment goes, the battle.
  function decisionMarks(board, view) {
    const ids = (board.areas || []).map((a) => a.id);
    const ph = view.phase || {};
    const selected = new Set();
    const arrows = [];
    const rings = [];
    const id = (i) => (i === undefined || i === null ? null : ids[i] || null);
    const pick = ph.pick || (ph.act && ph.act.pick) || {};
    if (id(pick.from)) {
      selected.add(id(pick.from));
      rings.push([id(pick.from), "#b27c00", "Supplies from here", true]);
      if (id(pick.to)) arrows.push([id(pick.from), id(pick.to), "supply"]);
    }
    if (ph.step === "activate" && ph.act) {
      const o = id(ph.act.origin);
      selected.add(o);
      const left = ph.act.left === undefined || ph.act.left === null ? "" : ` · ${ph.act.left} to go`;
      rings.push([o, SIDES[ph.side].fill, `${ORDER_NAMES[ph.act.order] || ph.act.order}${left}`, true]);
      const to = ph.act.group && id(ph.act.group.to);
      if (to) arrows.push([o, to, ph.side]);
    }
    const battle = ph.battle;
    let force = null;
    if (battle) {
      const o = id(battle.origin);
      const t = id(battle.target);
      if (o && t) arrows.push([o, t, battle.attacker]);
      if (t) rings.push([t, "#c00000", `Battle${battle.dice ? ` · ${plural(battle.dice, "die", "dice")}` : ""}`, true]);
      // The attacking Units have left their area and stand between the two.
      if (o && t) force = { from: o, to: t, st: { side: battle.attacker, units: battle.units, leaders: battle.leaders }, food: battle.food || 0, war: battle.war || 0, dice: battle.dice || 0 };
    }
    if (ph.step === "refuse-carry" && id(ph.to)) arrows.push([id(battle.target), id(ph.to), battle.attacker === "crown" ? "patriot" : "crown"]);
    return { selected, arrows, rings, force };
  }

  // Legal actions by area: every verb the board lists as naming an area (board.rs), plus
  // the track targets.
  function targetsOf(board, game) {
    const verbs = new Set(board.area_verbs || []);
    const ids = new Set((board.areas || []).map((a) => a.id));
    const byArea = new Map();
    const track = { request: [], triumvirate: [], pass: [] };
    for (const l of game.legal || []) {
      const [verb, arg] = l.action.split(/\s+/);
      if (verbs.has(verb) && ids.has(arg)) {
        if (!byArea.has(arg)) byArea.set(arg, []);
        byArea.get(arg).push(l.action);
      } else if (verb in track && !arg) track[verb].push(l.action);
    }
    return { byArea, track };
  }

  function dynamicIrreversible(view) {
    const ph = (view && view.phase) || {};
    const extra = [];
    if (["attacker-commit", "defender-commit", "refuse-carry"].includes(ph.step)) extra.push("war");
    if (["refuse", "retreat", "place-leader"].includes(ph.step)) extra.push("to");
    if (ph.step === "activate" && ph.act) {
      if (ph.act.order === "skirmish" || ph.act.order === "attack") extra.push("war");
      if (ph.act.order === "bombard") extra.push("to");
    }
    irreversible.length = 0;
    irreversible.push(...IRREVERSIBLE, ...extra);
  }

  // ---- the tracks panel -------------------------------------------------------------------

  function target(x, y, w, h, actions, ui, kind) {
    const text = actions.map((a) => (ui.label ? ui.label(a) : a)).join("\n");
    const r = svg("rect", { class: "sl-target", x, y, width: w, height: h, rx: 4, "data-target": kind, "data-actions": actions.join("|"), tabindex: 0, role: "button", "aria-label": text }, svg("title", {}, text));
    // Issue 17: a supply move's source and destination are one gesture: the click on the
    // source holds "from" back (a draft, drawn from the server's preview), the click on the
    // destination sends both as one batch, which one undo takes back.
    const pick = (ev) => {
      const only = actions.length === 1 ? actions[0] : null;
      if (only && only.split(/\s+/)[0] === "from" && ui.draft) ui.draft([only], { label: ui.label ? ui.label(only) : only });
      else ui.choose(actions, ev);
    };
    r.addEventListener("click", pick);
    r.addEventListener("keydown", (ev) => {
      if (ev.key === " " || ev.key === "Enter") {
        ev.preventDefault();
        ev.stopPropagation();
        pick(ev);
      }
    });
    return r;
  }

  function marker(x, y, text, fill, title) {
    return svg("g", { transform: `translate(${x},${y})`, filter: "url(#sl-shadow)" }, svg("title", {}, title), svg("circle", { r: 8, fill, stroke: "#111", "stroke-width": 1 }), svg("text", { class: "sl-chip", x: 0, y: 2.6, fill: "#fff", style: "font-size:7.5px" }, text));
  }

  function drawTracks(board, view, x0, y0, w, t, ui, placed) {
    const g = svg("g", { class: "sl-tracks" });
    const h = 246;
    g.append(svg("rect", { x: x0, y: y0, width: w, height: h, rx: 5, fill: "#f4ecd3", stroke: "#6d5f43", "stroke-width": 1.5, opacity: 0.97 }));
    let y = y0 + 16;
    const cell = (x, y, cw, ch, fill, label, title, on) => svg("g", {}, svg("title", {}, title), svg("rect", { x, y, width: cw, height: ch, rx: 2, fill, stroke: on ? "#111" : "#7d6d4d", "stroke-width": on ? 2 : 0.8 }), label === null ? null : svg("text", { class: "sl-cell", x: x + cw / 2, y: y + ch / 2 + 3, fill: "#2b2418" }, label));

    // Game Turn Record Track.
    g.append(svg("text", { class: "sl-panel-title", x: x0 + 10, y }, "Game Turn"));
    const turns = board.turns || [];
    const tw = Math.min(44, (w - 100) / Math.max(1, turns.length));
    turns.forEach((tt, i) => {
      const cx = x0 + 90 + i * tw;
      const on = tt.turn === view.turn;
      g.append(cell(cx, y - 12, tw - 3, 22, tt.winter ? "#bcd3ea" : "#efe2bd", null, `Turn ${tt.turn}, ${tt.year}${tt.winter ? ", Winter Turn" : ", Campaign Turn"}`, on));
      g.append(svg("text", { class: "sl-cell", x: cx + (tw - 3) / 2, y: y - 3, fill: "#2b2418" }, tt.winter ? `❄${tt.turn}` : String(tt.turn)));
      g.append(svg("text", { class: "sl-cell", x: cx + (tw - 3) / 2, y: y + 6, fill: "#6a5a3a", style: "font-size:6.5px;font-weight:400" }, String(tt.year)));
      if (on) g.append(marker(cx + tw - 5, y - 12, "T", "#222", `Game Turn marker: turn ${tt.turn}`));
    });
    y += 30;

    // Pass Track.
    g.append(svg("text", { class: "sl-panel-title", x: x0 + 10, y }, "Pass Track"));
    const pass = board.pass || [];
    pass.forEach((label, i) => {
      const cx = x0 + 90 + i * 46;
      const on = i === view.pass;
      g.append(cell(cx, y - 12, 42, 18, i === 0 ? "#e3d3c8" : "#efe2bd", label, `Pass Track space "${label}"${i === 0 ? ": the Impulse Phase ends" : ""}`, on));
      if (on) g.append(marker(cx + 40, y - 12, "P", "#555", `Pass Marker on "${label}"`));
    });
    if (t.track.pass.length) {
      // Pass is a target on the track and, not counted as placed, a numbered button too: the
      // track sits in a corner of the map, out of view at most zooms (issue 17).
      const cx = x0 + 90 + (view.pass || 0) * 46;
      g.append(target(cx - 2, y - 14, 46, 22, t.track.pass, ui, "pass"));
    }
    // Supply stock, beside the pass track.
    const sx = x0 + 90 + pass.length * 46 + 18;
    const foodLeft = view.stock_food === undefined ? "?" : view.stock_food;
    const warLeft = view.stock_war === undefined ? "?" : view.stock_war;
    g.append(svg("text", { class: "sl-panel-title", x: sx, y }, "Stock"));
    g.append(svg("g", {}, svg("title", {}, `Cubes off the map: ${foodLeft} of ${board.food_cubes} Food, ${warLeft} of ${board.war_cubes} War`), cube("food", sx + 38, y - 9, 9), svg("text", { class: "sl-legend", x: sx + 50, y }, `${foodLeft}/${board.food_cubes}`), cube("war", sx + 92, y - 9, 9), svg("text", { class: "sl-legend", x: sx + 104, y }, `${warLeft}/${board.war_cubes}`)));
    y += 28;

    // Support Track: two rows, the second the Declaration of Independence row, then the Treaty.
    g.append(svg("text", { class: "sl-panel-title", x: x0 + 10, y }, "Support Track"));
    const sup = board.support || [];
    const decl = board.declaration || 0;
    const sw = 38;
    sup.forEach((sp, i) => {
      const row = sp.treaty ? 1 : i >= decl ? 1 : 0;
      const col = sp.treaty ? sup.length - 1 - decl : row ? i - decl : i;
      const cx = x0 + 90 + col * (sw + 3) + (row ? 0 : 0);
      const cy = y - 12 + row * 24;
      const on = i === view.support;
      const fill = sp.treaty ? "#f2c230" : sp.declaration ? "#cfe0c0" : "#efe2bd";
      const label = sp.treaty ? "Treaty" : `${sp.draws}`;
      const title = sp.treaty ? "Treaty of Alliance: the Patriot wins at once" : `Support space ${i + 1}: ${plural(sp.draws, "reinforcement marker")} drawn at Turn End${sp.declaration ? (i === decl ? "; Declaration of Independence" : "; after the Declaration") : ""}${i === board.support_start ? "; start" : ""}`;
      g.append(cell(cx, cy, sp.treaty ? sw + 14 : sw, 20, fill, label, title, on));
      if (i === decl) g.append(svg("text", { class: "sl-cell", x: cx + 6, y: cy + 7, fill: "#2d5a1a", style: "font-size:6px" }, "D"));
      if (on) g.append(marker(cx + sw - 4, cy, "S", "#2d5a1a", `Support Marker on space ${i + 1}${view.declared ? " (Independence declared)" : ""}`));
    });
    g.append(svg("text", { class: "sl-legend", x: x0 + 10, y: y + 12, style: "font-size:8px" }, "draws per turn"));
    g.append(svg("text", { class: "sl-legend", x: x0 + 10, y: y + 22, style: "font-size:8px" }, view.declared ? "Independence declared" : "D = Declaration"));
    y += 56;

    // Crown Reinforcement Track and the Victory Cities it requires.
    g.append(svg("text", { class: "sl-panel-title", x: x0 + 10, y }, "Crown track"));
    const ct = board.crown_track || { markers: [], triumvirate: {} };
    const mw = 66;
    ct.markers.forEach((m, i) => {
      const cx = x0 + 90 + i * (mw + 4);
      const taken = i < (view.crown_taken || 0);
      const title = `Marker ${m.id}: ${plural(m.units, "Unit")}${m.leaders ? ` and ${plural(m.leaders, "Leader")}` : ""}; then ${m.vc} Victory Cities required${m.asterisk ? " by the end of that year's last Campaign Turn (*)" : ""}${taken ? "; taken" : ""}`;
      g.append(cell(cx, y - 12, mw, 30, taken ? "#e6dcc6" : "#f3d9d5", null, title, false));
      g.append(svg("text", { class: "sl-cell", x: cx + mw / 2, y: y + 13, fill: "#2b2418", style: "font-weight:400" }, `${m.vc} VC${m.asterisk ? " *" : ""}`));
      if (!taken) g.append(svg("g", { transform: `translate(${cx + mw / 2},${y - 1})`, filter: "url(#sl-shadow)" }, svg("title", {}, title), svg("rect", { x: -27, y: -9, width: 54, height: 13, rx: 2, fill: SIDES.crown.fill, stroke: "#111", "stroke-width": 0.8 }), svg("text", { class: "sl-chip", x: 0, y: 1, fill: "#fff", style: "font-size:7.5px" }, `${m.id}: ${m.units}U${m.leaders ? `+${m.leaders}L` : ""}`)));
      if (!taken && i === (view.crown_taken || 0) && t.track.request.length) {
        g.append(target(cx - 2, y - 14, mw + 4, 34, t.track.request, ui, "request"));
        t.track.request.forEach((a) => placed.add(a));
      }
    });
    {
      const cx = x0 + 90 + ct.markers.length * (mw + 4) + 6;
      const tri = ct.triumvirate || {};
      const title = `Triumvirate of Reputation: ${plural(tri.leaders || 0, "Leader")} replace the Crown's Leaders; +${tri.vc || 0} Victory City required${view.triumvirate ? "; taken" : ""}`;
      g.append(cell(cx, y - 12, 80, 30, view.triumvirate ? "#e6dcc6" : "#e9d7f0", null, title, false));
      g.append(svg("text", { class: "sl-cell", x: cx + 40, y: y + 13, fill: "#2b2418", style: "font-weight:400" }, `Triumvirs +${tri.vc || 0} VC`));
      if (!view.triumvirate) g.append(svg("g", { transform: `translate(${cx + 40},${y - 1})`, filter: "url(#sl-shadow)" }, svg("title", {}, title), svg("rect", { x: -30, y: -9, width: 60, height: 13, rx: 2, fill: "#5b2d82", stroke: "#111", "stroke-width": 0.8 }), svg("text", { class: "sl-chip", x: 0, y: 1, fill: "#fff", style: "font-size:7.5px" }, `T: ${tri.leaders || 0}L`)));
      if (t.track.triumvirate.length) {
        g.append(target(cx - 2, y - 14, 84, 34, t.track.triumvirate, ui, "triumvirate"));
        t.track.triumvirate.forEach((a) => placed.add(a));
      }
    }
    g.append(svg("text", { class: "sl-legend", x: x0 + 10, y: y + 12, style: "font-size:8px" }, `start: ${ct.base_vc} VC`));
    y += 40;

    // Victory Cities and the Patriot cup.
    const held = view.crown_victory_cities === undefined ? "?" : view.crown_victory_cities;
    const req = view.crown_required === undefined ? "?" : view.crown_required;
    g.append(svg("text", { class: "sl-panel-title", x: x0 + 10, y }, "Crown holds"));
    g.append(svg("text", { class: "sl-legend", x: x0 + 90, y }, `${held} of the ${req} Victory Cities it needs (${board.victory_cities} on the map) ♛`));
    y += 16;
    const cup = view.cup || [];
    const drawn = view.drawn || [];
    const counts = {};
    for (const c of cup) counts[c] = (counts[c] || 0) + 1;
    const names = {};
    for (const a of board.areas || []) names[a.id] = a.name;
    const list = Object.entries(counts).map(([c, n]) => `${names[c] || c}${n > 1 ? ` ×${n}` : ""}`).join(", ");
    g.append(svg("text", { class: "sl-panel-title", x: x0 + 10, y }, "Patriot cup"));
    g.append(svg("g", {}, svg("title", {}, `In the cup (known from the markers drawn so far; the draw itself is blind): ${list || "none"}. Drawn and set aside: ${drawn.map((c) => names[c] || c).join(", ") || "none"}.`), svg("text", { class: "sl-legend", x: x0 + 90, y }, `${plural(cup.length, "marker")} in the cup · ${drawn.length} drawn and set aside · ${view.support_draws || 0} drawn per Turn End`)));
    return g;
  }

  // ---- render -----------------------------------------------------------------------------

  function render(container, board, game, ui) {
    ui = ui || {};
    const view = game.view || {};
    dynamicIrreversible(view);
    const areas = board.areas || [];
    const states = view.areas || [];
    const pos = {};
    areas.forEach((a) => (pos[a.id] = a));
    const b = bounds(board);
    const pad = 14;
    const W = Math.max(b.x1 + pad, 1000);
    const panelW = 560;
    const panelH = 246;
    // The tracks panel sits in the open Atlantic at the bottom right, below everything east
    // of the Philadelphia area; the map grows downwards if an area would sit under it.
    const px = W - panelW - pad;
    let py = b.y1 - panelH + 10;
    for (const a of areas) {
      const f = (board.footprint || {})[a.kind] || { w: 60, h: 60 };
      if (a.x + f.w / 2 > px && a.y + f.h / 2 + 6 > py) py = a.y + f.h / 2 + 8;
    }
    const H = Math.max(b.y1 + pad, py + panelH + pad);
    const marks = decisionMarks(board, view);
    const interactive = !!(ui && ui.interactive);
    const root = svg("svg", { xmlns: NS, viewBox: `0 0 ${W.toFixed(0)} ${H.toFixed(0)}`, role: "img", "aria-label": `Map of ${board.name || "the Northern Theater"}`, class: interactive ? "sl-live" : "sl-passive" });
    root.append(svg("style", {}, STYLE), defs());
    root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#sl-paper)" }));
    root.append(svg("rect", { x: 4, y: 4, width: W - 8, height: H - 8, fill: "none", stroke: "#6d5f43", "stroke-width": 2 }));
    root.append(svg("rect", { x: 8, y: 8, width: W - 16, height: H - 16, fill: "none", stroke: "#6d5f43", "stroke-width": 0.7 }));

    // Title cartouche and key, top left.
    const key = svg("g", { class: "sl-key" });
    key.append(svg("text", { class: "sl-title", x: 22, y: 36 }, "Supply Lines"));
    key.append(svg("text", { class: "sl-sub", x: 22, y: 51 }, "The Northern Theater, 1775–1777"));
    const turnInfo = (board.turns || [])[(view.turn || 1) - 1];
    if (turnInfo) key.append(svg("text", { class: "sl-sub", x: 22, y: 66, style: "font-style:normal;font-weight:700" }, `Turn ${view.turn} of ${(board.turns || []).length} · ${turnInfo.year}${turnInfo.winter ? " · Winter ❄" : ""}`));
    const ph = view.phase || {};
    const phaseSide = ph.side || (ph.battle ? null : null);
    key.append(svg("text", { class: "sl-sub", x: 22, y: 80 }, `${STEP_NAMES[ph.step] || ph.step || ""}${phaseSide && SIDES[phaseSide] ? ` · ${SIDES[phaseSide].label}` : ""}${view.to_act && SIDES[view.to_act] ? ` · ${SIDES[view.to_act].label} to decide` : ""}`));
    if (view.ended) {
      const w = view.ended.winner;
      key.append(svg("text", { class: "sl-sub", x: 22, y: 94, style: "font-style:normal;font-weight:700;fill:#8b0000" }, w ? `${SIDES[w].label} victory (${view.ended.reason})` : `No winner (${view.ended.reason})`));
    }
    // Key.
    const ky = 104;
    key.append(svg("rect", { x: 18, y: ky, width: 196, height: 156, rx: 4, fill: "#f4ecd3", stroke: "#6d5f43", "stroke-width": 1, opacity: 0.95 }));
    key.append(svg("rect", { x: 26, y: ky + 8, width: 22, height: 13, rx: 2, fill: "#f6efd9", stroke: "#5b4a32", "stroke-width": 1.2 }));
    key.append(svg("text", { class: "sl-legend", x: 56, y: ky + 18 }, "City: unit box, supply box (8)"));
    key.append(svg("polygon", { points: `${29},${ky + 26} ${45},${ky + 26} ${48},${ky + 29} ${48},${ky + 36} ${45},${ky + 39} ${29},${ky + 39} ${26},${ky + 36} ${26},${ky + 29}`, fill: "url(#sl-stone)", stroke: "#4a4536", "stroke-width": 1.2 }));
    key.append(svg("text", { class: "sl-legend", x: 56, y: ky + 36 }, "Fort: stores supplies"));
    key.append(svg("rect", { x: 30, y: ky + 43, width: 14, height: 14, rx: 1.5, fill: "url(#sl-wood)", stroke: "#3f5e2a", "stroke-width": 1.2 }));
    key.append(svg("text", { class: "sl-legend", x: 56, y: ky + 54 }, "Point: armies carry supplies"));
    key.append(badge(37, ky + 70, "♛", "#f2c230", "#3b2a00", "Victory City"));
    key.append(svg("text", { class: "sl-legend", x: 56, y: ky + 73 }, "Victory City"));
    key.append(badge(125, ky + 70, "⚓", "#dbe8f2", "#123a5a", "Port"));
    key.append(svg("text", { class: "sl-legend", x: 137, y: ky + 73 }, "Port"));
    key.append(cube("food", 25, ky + 81, 9.5));
    key.append(svg("text", { class: "sl-legend", x: 38, y: ky + 89 }, "Food"));
    key.append(cube("war", 75, ky + 81, 9.5));
    key.append(svg("text", { class: "sl-legend", x: 88, y: ky + 89 }, "War"));
    key.append(svg("rect", { x: 120, y: ky + 80, width: 12, height: 12, rx: 3, fill: "#f2c230", stroke: "#3b2a00", "stroke-width": 0.8 }), svg("path", { d: `M${121.5} ${ky + 88} Q${122.5} ${ky + 82} ${126} ${ky + 82} Q${129.5} ${ky + 82} ${130.5} ${ky + 88} Q${126} ${ky + 86} ${121.5} ${ky + 88} Z`, fill: "#1b1b1b" }));
    key.append(svg("text", { class: "sl-legend", x: 137, y: ky + 89 }, "Leader"));
    key.append(army({ side: "patriot", units: 2 }, 34, ky + 110, 20));
    key.append(svg("text", { class: "sl-legend", x: 48, y: ky + 108 }, "Patriot"));
    key.append(army({ side: "crown", units: 2 }, 102, ky + 110, 20));
    key.append(svg("text", { class: "sl-legend", x: 116, y: ky + 108 }, "Crown"));
    key.append(svg("text", { class: "sl-legend", x: 26, y: ky + 131 }, "armies: the number is their Units"));
    key.append(svg("line", { x1: 26, y1: ky + 145, x2: 48, y2: ky + 145, stroke: "#5a3f22", "stroke-width": 5, "stroke-linecap": "round" }), svg("line", { x1: 26, y1: ky + 145, x2: 48, y2: ky + 145, stroke: "#e2c78e", "stroke-width": 2, "stroke-dasharray": "7 3" }));
    key.append(svg("text", { class: "sl-legend", x: 56, y: ky + 148 }, "Movement Line"));
    root.append(key);

    root.append(drawWater(board));
    root.append(drawLines(board, pos));

    // Rings and arrows of the decision at hand, under the areas.
    const marksLayer = svg("g", { class: "sl-marks" });
    const tags = svg("g", { class: "sl-tags" });
    for (const [id, colour, title, tag] of marks.rings) {
      const a = pos[id];
      if (!a) continue;
      const f = (board.footprint || {})[a.kind] || { w: 60, h: 60 };
      marksLayer.append(svg("rect", { x: a.x - f.w / 2 - 3, y: a.y - f.h / 2 - 3, width: f.w + 6, height: f.h + 6, rx: 8, fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": "7 4" }, svg("title", {}, title)));
      if (tag) {
        const w = title.length * 4.6 + 10;
        tags.append(svg("g", { transform: `translate(${(a.x - f.w / 2 - 3).toFixed(1)},${(a.y + f.h / 2 + 3).toFixed(1)})` }, svg("title", {}, title), svg("rect", { x: 0, y: -1, width: w, height: 12, rx: 3, fill: colour }), svg("text", { class: "sl-chip", x: w / 2, y: 7.8, fill: "#fff", style: "font-size:8px" }, title)));
      }
    }
    root.append(marksLayer);

    const areaLayer = svg("g", { class: "sl-areas" });
    areas.forEach((a, i) => {
      const st = states[i] && states[i].id === a.id ? states[i] : states.find((s) => s.id === a.id) || {};
      areaLayer.append(drawArea(a, st, board, view, marks));
    });
    root.append(areaLayer);

    const arrowLayer = svg("g", { class: "sl-arrows" });
    for (const [p, q, cls] of marks.arrows) {
      if (pos[p] && pos[q]) arrowLayer.append(arrow(pos[p], pos[q], cls, 4, cls === "supply"));
    }
    if (marks.force && pos[marks.force.from] && pos[marks.force.to]) {
      const a = pos[marks.force.from];
      const b2 = pos[marks.force.to];
      // Just outside the target's box, on the side the attack comes from.
      const dx = a.x - b2.x;
      const dy = a.y - b2.y;
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len;
      const uy = dy / len;
      const f = (board.footprint || {})[b2.kind] || { w: 60, h: 60 };
      const edge = Math.min(ux ? f.w / 2 / Math.abs(ux) : Infinity, uy ? f.h / 2 / Math.abs(uy) : Infinity);
      const d = Math.min(len / 2, edge + 16);
      const mx = b2.x + ux * d;
      const my = b2.y + uy * d;
      const fg = army(marks.force.st, mx, my, 24, {});
      if (fg) {
        fg.querySelector("title").textContent = `Attacking: ${plural(marks.force.st.units, "Unit")}, ${plural(marks.force.st.leaders, "Leader")}, carrying ${marks.force.food} Food and ${marks.force.war} War`;
        arrowLayer.append(fg);
        if (marks.force.food || marks.force.war) arrowLayer.append(carried(marks.force.food, marks.force.war, mx, my + 20));
      }
    }
    root.append(arrowLayer);
    root.append(tags);

    // Targets, on top so that a click reaches them: one per area, with every legal action on
    // that area (several make a menu).
    const placed = new Set();
    const t = targetsOf(board, game);
    const tl = svg("g", { class: "sl-targets" });
    const panel = drawTracks(board, view, px, py, panelW, t, interactive ? ui : { label: ui.label, choose: () => {} }, interactive ? placed : new Set());
    root.append(panel);
    if (interactive) {
      for (const [id, actions] of t.byArea) {
        const a = pos[id];
        if (!a) continue;
        const f = (board.footprint || {})[a.kind] || { w: 60, h: 60 };
        actions.forEach((x) => placed.add(x));
        const r = target(a.x - f.w / 2, a.y - f.h / 2, f.w, f.h, actions, ui, "area");
        r.setAttribute("data-area", id);
        tl.append(r);
      }
    } else {
      panel.querySelectorAll(".sl-target").forEach((el) => el.remove());
    }
    root.append(tl);
    // What happened since the viewer's last decision (issue 17): marches, battles, losses.
    let recentNotes = [];
    if (ui.recent && ui.drawRecent && ui.recent.views.length > 1) {
      const diff = recentOf(ui.recent.views, board, pos);
      tl.before(ui.drawRecent(diff, 28));
      recentNotes = diff.notes;
    }

    container.replaceChildren(root);
    return { targets: placed, recent: recentNotes };
  }

  // The marks of what changed over a sequence of views, from the armies: an army that shrank
  // while others of its side grew marched to them (an arrow each); a side with fewer Units and
  // Leaders at the end lost them where its armies shrank; a battle in any view is a fight at its
  // target. Attacking Units standing between two areas (phase.battle) count at their origin.
  function recentOf(views, board, pos) {
    const ids = (board.areas || []).map((a) => a.id);
    const out = { paths: [], marks: [], notes: [] };
    const counts = (v, side) => {
      const m = new Map();
      (v.areas || []).forEach((st, i) => {
        if (st && st.side === side) m.set(st.id || ids[i], (st.units || 0) + (st.leaders || 0));
      });
      const bt = v.phase && v.phase.battle;
      if (bt && bt.attacker === side && ids[bt.origin]) m.set(ids[bt.origin], (m.get(ids[bt.origin]) || 0) + (bt.units || 0) + (bt.leaders || 0));
      return m;
    };
    const at = (id) => [pos[id].x, pos[id].y];
    const moved = new Set();
    const fought = new Set();
    let marches = 0;
    for (let k = 1; k < views.length; k++) {
      for (const side of Object.keys(SIDES)) {
        const a = counts(views[k - 1], side);
        const b = counts(views[k], side);
        const from = [];
        const to = [];
        for (const id of new Set([...a.keys(), ...b.keys()])) {
          const d = (b.get(id) || 0) - (a.get(id) || 0);
          if (d < 0) from.push(id);
          if (d > 0) to.push(id);
        }
        if (from.length === 1 && pos[from[0]]) {
          for (const id of to) {
            if (!pos[id]) continue;
            out.paths.push({ points: [at(from[0]), at(id)], side, title: `${SIDES[side].label}: ${pos[from[0]].name} → ${pos[id].name}` });
            moved.add(id);
            marches += 1;
          }
        }
      }
      const bt = views[k].phase && views[k].phase.battle;
      if (bt && ids[bt.target]) fought.add(ids[bt.target]);
    }
    for (const id of moved) if (pos[id]) out.marks.push({ kind: "moved", x: pos[id].x, y: pos[id].y, title: `An army marched to ${pos[id].name}` });
    for (const id of fought) if (pos[id]) out.marks.push({ kind: "fight", x: pos[id].x, y: pos[id].y, title: `Battle at ${pos[id].name}` });
    let losses = 0;
    for (const side of Object.keys(SIDES)) {
      const a = counts(views[0], side);
      const b = counts(views[views.length - 1], side);
      const total = (m) => [...m.values()].reduce((x, y) => x + y, 0);
      if (total(b) >= total(a)) continue;
      for (const [id, n] of a) {
        if ((b.get(id) || 0) < n && pos[id] && !moved.has(id)) {
          out.marks.push({ kind: "loss", x: pos[id].x, y: pos[id].y, title: `${SIDES[side].label} losses at ${pos[id].name}` });
          losses += 1;
        }
      }
    }
    if (marches) out.notes.push(`${marches} march${marches > 1 ? "es" : ""}`);
    if (fought.size) out.notes.push(`${fought.size} battle${fought.size > 1 ? "s" : ""}`);
    if (losses) out.notes.push(`losses in ${losses} area${losses > 1 ? "s" : ""}`);
    return out;
  }

  // ---- tracks for the side panel ----------------------------------------------------------

  function tracks(board, game) {
    const v = game.view;
    if (!v || !v.turn) return [];
    const turns = board.turns || [];
    const tt = turns[v.turn - 1] || {};
    const rows = [{ label: "Turn", value: v.turn, max: turns.length, text: `${v.turn} / ${turns.length} · ${tt.year || ""}${tt.winter ? " ❄ winter" : ""}` }];
    const ph = v.phase || {};
    const who = ph.side || (ph.battle ? ph.battle.attacker : null);
    rows.push({ label: "Phase", text: `${STEP_NAMES[ph.step] || ph.step || ""}${who && SIDES[who] ? ` · ${SIDES[who].label}` : ""}` });
    if (ph.step === "impulse" || ph.step === "activate" || ph.step === "after") rows.push({ side: ph.side, label: "Impulse", text: `${SIDES[ph.side] ? SIDES[ph.side].label : ""} has the impulse` });
    rows.push({ label: "Pass Track", text: `"${(board.pass || [])[v.pass] || v.pass}"` });
    const sup = board.support || [];
    rows.push({ side: "patriot", label: "Support", value: v.support + 1, max: sup.length, goal: sup.length, text: `${v.support + 1} / ${sup.length} · draws ${v.support_draws}${v.declared ? " · declared" : ""}` });
    rows.push({ side: "crown", label: "Victory Cities", value: v.crown_victory_cities, max: board.victory_cities, goal: v.crown_required, text: `${v.crown_victory_cities} held / ${v.crown_required} needed` });
    const markers = (board.crown_track || {}).markers || [];
    rows.push({ side: "crown", label: "Reinforcements", value: v.crown_taken, max: markers.length, text: `${v.crown_taken} of ${markers.length} taken${v.triumvirate ? " + Triumvirate" : ""}` });
    rows.push({ side: "patriot", label: "Cup", text: `${(v.cup || []).length} markers · ${(v.drawn || []).length} drawn` });
    rows.push({ label: "Stock", text: `Food ${v.stock_food}/${board.food_cubes} · War ${v.stock_war}/${board.war_cubes}` });
    return rows;
  }

  function turnOf(entry) {
    const m = /^Turn (\d+) \(/.exec(entry && entry.text ? entry.text : "");
    return m ? Number(m[1]) : null;
  }

  // The rules in Muster's own words, by the rulebook's section numbers (docs/rules/
  // supply-lines.md maps each to its code). A summary: the printed rulebook is the authority,
  // and docs/rulings/supply-lines.md records Muster's readings and the reconstructed map.
  const RULES = [
    { section: "2", title: "Reading Muster's map", text: ["Cities are cream boxes (unit box left, 8-slot supply box right), Forts grey stone boxes with cut corners, Points green squares; ♛ marks a Victory City, ⚓ a port. Food cubes are green with a light corner, War cubes tan with a dark cross. A Patriot army is a blue counter with a star and rounded corners, a Crown army a red counter with a diamond and square corners; the big number is its Units, the gold chip its Leaders, a brown D chip Dug-In. Thicker stacks hold more Units.", "Click a highlighted area to act: the source or destination of a supply move, an army to activate (a menu lists the orders), where a detachment goes, a retreat. The tracks panel, bottom right, shows the turn, passes, the stock, support, the Crown track and the cup; a highlighted marker there is a choice too. Every choice is also listed under the prompt."] },
    { section: "2.0", title: "Components", text: ["One map, two dice, 88 counters and 100 wooden cubes: 60 green Food and 40 natural War."] },
    { section: "2.1", title: "The map", text: ["Areas joined by Movement Lines; two areas on one line are adjacent. Cities make and store supplies: each has a Unit Box and a Supply Box holding at most 8 cubes; a crown marks a Victory City, an anchor a port. Forts store up to 8 cubes but make none; each starts with War (two at Ticonderoga, one elsewhere). Cities and Forts give the defender the Defensive Bonus.", "Points are open country: they store nothing and give no bonus, only they can be skirmished, and who holds them decides which Cities produce. An army on a Point carries its cubes. Two Points have an anchor and count as ports.", "The Sea Box belongs to the Crown alone: it touches every port, Crown units pass through it between ports, and cubes placed there are kept for Bombardment. Muster's map is reconstructed (rulings R1–R8, R15).", "All of one side's units in an area form one army, of any size. An army may carry one cube more than its Units. The map also has four tracks: game turns (two of them winter), passes, Crown reinforcements and Patriot support."] },
    { section: "2.2", title: "Units and Leaders", text: ["Blue counters are Patriot, red are Crown; the number on a counter is how many Units it stands for, and change can be made freely. Leaders (tricorn hats) are not Units; only an army with one can start a battle. A side with no Leader on the map loses (except during the Triumvirate's arrival, §12.1)."] },
    { section: "2.3", title: "Supply cubes", text: ["Food pays for activations, War for fighting. Cities make them each turn; they are kept in Cities and Forts (8 at most) or carried by armies on Points, and can be shifted along supply lines during your impulse. Spent cubes go back to the stock. The cube count is a hard limit: when the stock runs short, the Patriot produces first and the Crown gets what is left."] },
    { section: "2.4", title: "Other counters", text: ["Reinforcement markers, the Game Turn, Support and Pass markers, Destroyed City markers and Dug-In markers. On Muster's map the Turn, Pass and Support markers are the round tokens T, P and S on the tracks panel; a Dug-In army has a brown D chip and an earthwork line; a Destroyed City is crossed out."] },
    { section: "3.0", title: "Set-up", text: ["Turn marker on turn 1 (1775); Support marker on the third space (the left-most 3); Patriot reinforcement markers into a cup; Crown markers 1 to 4 on their track in order, the Triumvirate on its own space; two War cubes in Ticonderoga and one in every other Fort."] },
    { section: "3.1", title: "Crown set-up", text: ["Boston: 4 Units and a Leader. Quebec: 4 Units and a Leader. Montreal: 2 Units."] },
    { section: "3.2", title: "Patriot set-up", text: ["Cambridge: 4 Units. The Point west of Cambridge (Watertown on Muster's map): 2 Units and a Leader. New York: 2 Units and a Leader. Albany and Providence: 2 Units each."] },
    { section: "4.0", title: "Sequence of play", text: ["Each of the twelve turns runs: Supply Phase (cubes made, then the Crown and then the Patriot move supplies, then the Crown may ask for reinforcements; nothing is made in winter), Initiative Phase (one die each), Impulse Phase (alternate activations or passes), Turn End Phase (housekeeping, Patriot musters, winter disbanding). A victory ends the game at once; if nobody has won after turn 12, both sides lose."] },
    { section: "5.0", title: "Supplies", text: ["Nothing moves or fights without cubes, so making, storing, carrying and shifting them is the heart of the game."] },
    { section: "5.1", title: "Making supplies", text: ["In a Campaign Turn an occupied City makes 2 Food and then 1 War, if at least one adjacent Point is empty or held by its own side. New cubes go into its Supply Box, never beyond 8 (Food first). Winter Turns make nothing, and neither does a Destroyed City."] },
    { section: "5.2", title: "Nova Scotia", text: ["Nova Scotia produces in every Campaign Turn whoever is there, as many cubes as the number on the last Crown marker taken from the track; the Crown picks Food or War for each. Cubes leave it but never enter it."] },
    { section: "5.3", title: "Moving supplies by land", text: ["In the Supply Phase (Crown first) and before, during or after each of his own non-passing impulses, a player may shift cubes along his supply lines: his armies in adjacent areas are linked, and two armies both next to a third one are linked too. While moving, limits do not matter; when he stops, no City or Fort may hold more than 8 and no army on a Point more than one plus its Units. In Muster a move is: source, destination, then how many of one kind; while an area is over its limit, its owner must first move its excess away or, with nowhere to put it, discard (rulings S5)."] },
    { section: "5.4", title: "Moving supplies by sea", text: ["The Crown may move cubes between any two ports it holds. Nova Scotia only sends; Quebec only receives by sea from Nova Scotia. Cubes go into the Sea Box only as a reserve for Bombardment, whether or not Crown units are there."] },
    { section: "5.5", title: "Carrying supplies", text: ["An army on a Point carries up to one cube more than its Units (Leaders do not count) and takes them along when it moves; entering a friendly or empty City or Fort, it stores them there; attacking a City or Fort, it brings them into battle. Leaving a City or Fort, it may pick up what it can carry. Anything over a limit must be moved along supply lines; only what fits nowhere is thrown away, War first."] },
    { section: "5.6", title: "Spending supplies", text: ["Activations and battles spend cubes from the army's own area; they return to the stock and can be made again later."] },
    { section: "5.7", title: "Crown reinforcements", text: ["At the end of the Supply Phase the Crown may take the next numbered marker (lowest first) and put it in Nova Scotia; at the start of the next Campaign Turn's Supply Phase it turns into the Units and Leaders it shows, in Nova Scotia. One marker per turn at most. The Triumvirate marker may be taken instead (§12.1). Taking a marker moves support toward the Patriot (§11.0) and may raise the Crown's target (§12.0)."] },
    { section: "6.0", title: "Initiative", text: ["Both roll a die; the higher roll moves first and the Pass Marker goes on the space of that higher roll (3-4, 5-6...). On a tie the Crown moves first until Independence is declared, the Patriot afterwards, and the marker goes on 5-6. It never starts on 1."] },
    { section: "7.0", title: "Impulses", text: ["Players alternate. In an impulse you either activate one army or pass. A pass moves the Pass Marker down one space; at zero, or after two passes in a row, the Impulse Phase ends.", "Activations: March, Transport (Crown), Attack (needs a Leader), Skirmish (Patriot), Dig-In, Bombard (Crown, needs a Leader) and Destroy (Crown). The cost must be paid in cubes. An army may be activated any number of times in a turn. Supplies may be moved before and after the activation of a non-passing impulse."] },
    { section: "7.1", title: "March", text: ["The army's Units go to adjacent friendly or empty areas, together or split up, and some may stay. The cost is 1 Food per four Units activated, rounded up; without a Leader every Unit of the army counts, with a Leader only the ones that move. Leaders go with any part. Armies meeting in one area merge. Marching never enters an enemy area."] },
    { section: "7.2", title: "Transport (Crown)", text: ["Free: Crown Units in a port go into the Sea Box, or Units in the Sea Box land in one friendly or empty port. Transported Units carry no cubes."] },
    { section: "7.3", title: "Attack", text: ["An army with a Leader sends Units and at least one Leader into one adjacent enemy area, paying Food as for a March (only the Units that go) and holding enough War for at least one Battle Die. Then a battle is fought (§8). An army in the Sea Box cannot attack."] },
    { section: "7.4", title: "Skirmish (Patriot)", text: ["One or two Patriot Units (with or without a Leader) next to an enemy army on a Point strike it for 1 Food, then come back home (§8.8)."] },
    { section: "7.5", title: "Dig-In", text: ["An army in a City or Fort pays 1 Food and 1 War and gets a Dug-In marker until the turn ends: it cannot be activated or refuse battle, and the first hit against it is ignored."] },
    { section: "7.6", title: "Bombard (Crown)", text: ["A Crown army with a Leader spends every War cube in the Sea Box against one Patriot-held port (a City or a port Point): one die per cube, each 1 removes a Patriot Unit there. Digging in does not help."] },
    { section: "7.7", title: "Destroy (Crown)", text: ["A Crown army in a City that is not a Victory City pays 2 War to destroy it: it produces nothing more but still stores cubes and still gives the Defensive Bonus. Support moves one space toward the Patriot."] },
    { section: "8.0", title: "Battle", text: ["Steps: the defender may refuse; the attacker commits War; the defender commits War; the defender rolls; the attacker rolls; the larger army (Units plus Leaders) wins; a beaten defender checks morale."] },
    { section: "8.1", title: "Refusing battle", text: ["A defender with an adjacent friendly or empty area, other than the one the attack came from and never the Sea Box, may refuse: the whole army falls back there together, spending nothing. It leaves its cubes behind, except that an army with a Leader may take up to half its Units (rounded down) in cubes. The attacker then takes the area and the impulse ends."] },
    { section: "8.2", title: "Attacker's commitment", text: ["Each War cube spent against a Point buys a Battle Die. Against a City or Fort two cubes buy one die; the Crown rounds an odd cube up, the Patriot rounds it down. At least one die is required."] },
    { section: "8.3", title: "Defender's commitment", text: ["The defender may spend War cubes, one die each, or none."] },
    { section: "8.4", title: "Defender's roll", text: ["Each 1 or 2 removes an attacking Unit. Every two attacking Units lost cost the attacker one of his dice (the War stays spent)."] },
    { section: "8.5", title: "Attacker's roll", text: ["A Patriot attacker hits on 1 or 2, a Crown attacker on 1, 2 or 3. A Dug-In defender ignores the first hit."] },
    { section: "8.6", title: "Who wins", text: ["Count Units plus Leaders on each side: more wins, a tie goes to the defender. A Patriot attacker's win moves support toward the Patriot; a Crown win against a Patriot army with a Leader moves it back (not below the Declaration)."] },
    { section: "8.7", title: "After the battle", text: ["If the defender wins, the attacker goes back to where it started and its carried cubes go to the defender. If the attacker wins, the defender rolls morale: the Crown once, the Patriot twice; a roll at least equal to the difference in size passes. On a Point the check fails automatically. Passing: the defender stays and the attacker goes home with its cubes. Failing: the defender retreats to an adjacent friendly or empty area (not the Sea Box), leaving its cubes.", "With nowhere to go, the army surrenders: its Units and Leaders are removed and support moves once for the army and once for each Leader, toward the Patriot when the Crown surrenders and away when the Patriot does. A side left without Units in the battle surrenders at once."] },
    { section: "8.8", title: "Skirmish battle", text: ["The defender can neither refuse nor roll. The Patriot spends War one die per cube; each 1 or 2 removes a Crown Unit. The skirmishers then return to their starting area whatever happened."] },
    { section: "9.0", title: "Turn End", text: ["In order: the Crown checks victory; Dug-In markers come off; in winter the Continental Army disbands; the Patriot musters; the turn marker advances.", "Mustering: draw blindly from the cup as many markers as the Support space shows. Each names a City: two new Patriot Units appear there unless the Crown holds it. Drawn markers are set aside until a winter returns them. An empty cup gives nothing. No mustering in the last four turns."] },
    { section: "10.0", title: "Winter Turns", text: ["Two of the twelve turns: no supplies are made, each side may attack (or skirmish) only once, and the Continental Army disbands at Turn End."] },
    { section: "10.1", title: "Disbanding", text: ["Patriot armies with a Leader lose half their Units (rounded down); those in a Victory City without a Leader keep two; all others go home, with the cubes they carried and the Food of the City or Fort they held. Set-aside markers whose City the Crown holds leave the game; the others go back to the cup. This winter's muster draws two extra markers, and in the first winter the Patriot gains his third Leader, placed with any army."] },
    { section: "11.0", title: "Support Track", text: ["Toward the Patriot: a Patriot attack won (not a skirmish), a Crown army or Leader surrendering, a City destroyed, a Crown reinforcement request, the first Patriot attack on Quebec, and each Turn End with the Patriot in Quebec. Away from him: a Crown attack won against a Patriot army with a Leader, a Patriot army or Leader surrendering, and each Turn End with the Crown in Philadelphia."] },
    { section: "11.1", title: "Declaration of Independence", text: ["Reaching the first Declaration space: every Patriot-held City gains two War at once, the Patriot wins tied initiative rolls from then on, support can no longer fall back below that space, and the Crown can now win by holding New York, Albany and Philadelphia at a Turn End."] },
    { section: "11.2", title: "Treaty of Alliance", text: ["Support reaching the last space wins the game for the Patriot at once."] },
    { section: "12.0", title: "Crown expectations", text: ["The Crown starts needing three Victory Cities (it holds Boston and Quebec). Each marker taken from the reinforcement track may raise the number. An asterisk means the number must be held by the end of that year's last Campaign Turn, or the Crown loses."] },
    { section: "12.1", title: "The Triumvirate", text: ["When this marker is turned in Nova Scotia, every Crown Leader leaves the map and three new ones appear in Nova Scotia, who leave it only with an army. Taking the marker adds one Victory City to the target."] },
    { section: "13.1", title: "Patriot victory", text: ["The Crown has no Leader on the map; or support reaches the Treaty of Alliance; or the Crown took its fourth numbered marker and has not won by the last Campaign Turn of that year."] },
    { section: "13.2", title: "Crown victory", text: ["The Patriot has no Leader on the map; or at the end of the game the Crown holds the Victory Cities its track demands; or at a Turn End it holds New York and Albany (and Philadelphia too once Independence is declared)."] },
    { section: "13.3", title: "Draw", text: ["If nobody has won when the last turn ends, both sides lose."] },
    { section: "13.4", title: "Concession", text: ["A player may concede; in Muster it is an action of the player whose impulse it is."] },
  ];

  window.MusterBoards = window.MusterBoards || {};
  window.MusterBoards["supply-lines"] = {
    render,
    rules: RULES,
    // Decisions that roll dice or hand play to the other side: the client asks to confirm.
    // render() adds the verbs that do so only in some steps ("war" when committing to
    // battle, "to" for a retreat or a bombardment).
    irreversible,
    shortcuts: {
      Enter: ["done", "end-march", "accept", "no-request", "pass"],
      d: ["done"],
      p: ["pass"],
      c: ["cancel"],
      e: ["end-march"],
      a: ["accept"],
      r: ["request"],
      n: ["no-request"],
    },
    sides: {
      patriot: { label: SIDES.patriot.label, emblem: SIDES.patriot.emblem, cls: SIDES.patriot.cls },
      crown: { label: SIDES.crown.label, emblem: SIDES.crown.emblem, cls: SIDES.crown.cls },
    },
    tracks,
    turnOf,
  };
})();
