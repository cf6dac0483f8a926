// Board renderer of "Revolution Road: From Boston to Concord" for Muster's browser client. It
// follows the contract in docs/server.md ("Board renderers"): it registers
// window.MusterBoards.concord = { render, rules, irreversible, shortcuts, sides, tracks, turnOf }.
// The area map is drawn as SVG from GET /api/games/<id>/board (src/concord/board.rs: outlines,
// shared sides with their water, roads, boxes, the roster) and the pieces and markers from the
// viewer's view (src/concord/mod.rs, `view`), which holds only what that side may know: hidden
// militia show "?", the deck shows its size, and only this side's own peeks.
(function () {
  "use strict";

  const NS = "http://www.w3.org/2000/svg";
  const CS = 30; // counter side, in map units
  const GAP = 3;

  const SIDES = {
    patriot: { label: "Patriot", emblem: "★", cls: "american", fill: "#1f4e8c", light: "#9db7dc", ink: "#ffffff" },
    british: { label: "British", emblem: "◆", cls: "british", fill: "#a3271f", light: "#e3a9a2", ink: "#ffffff" },
  };
  const KIND_CODE = { regular: "REG", cannon: "GUN", leader: "LDR", militia: "MIL", hidden: "MIL", minuteman: "MM", son: "SoL", rider: "RDR" };
  const KIND_NAME = { regular: "British Regular", cannon: "Field Cannon", leader: "leader", militia: "militia", hidden: "hidden-value militia", minuteman: "Minuteman", son: "Son of Liberty", rider: "Nightrider" };
  const HINDER_LABEL = { movement: "Hinder Movement", muster: "Hinder Muster", search: "Hinder Search" };
  const HINDER_CODE = { movement: "MV", muster: "MU", search: "SR" };
  const PHASE_NAMES = {
    riders: "Call to Arms: Nightriders ride (6.12)",
    muster: "Minuteman's free move (4.3)",
    round: "Action round (5.2)",
    move: "Movement (6.4)",
    "cannon-break": "The cannon breaks a unit (4.1)",
    "forced-break": "Forced march: break a unit (6.4.2)",
    "move-son": "Moving a Son of Liberty (4.4)",
    assemble: "Assemble (6.5)",
    attackers: "Choosing attackers (7.0)",
    "retreat-pick": "Retreat before combat (7.1)",
    "retreat-to": "Retreat: where to (7.1)",
    "op-fire": "Opportunity fire (7.1.3)",
    escort: "Retreat: who goes along (7.1.2)",
    reroll: "Leader re-roll (14.1)",
    defenders: "Choosing defenders (7.0)",
    "fire-mode": "Simultaneous or defensive fire (7.0)",
    "after-pick": "Retreat after combat (7.1.4)",
    hits: "Applying hits (7.0)",
    advance: "Cannon advance (4.1)",
    "charge-leaders": "Charge: leaders go along (6.3)",
    ambush: "Ambush (6.6)",
    rally: "Rally (6.8)",
    redraw: "Capture: draw again? (8.2)",
    "son-away": "Son of Liberty slips away (8.2)",
    captives: "Captives toward Boston (5.3)",
    over: "Game over",
  };

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
  const f1 = (n) => (Math.round(n * 10) / 10).toString();
  const ptsAttr = (pts) => pts.map((p) => `${f1(p[0])},${f1(p[1])}`).join(" ");

  // Borders are drawn a little irregular, like a hand-drawn map; both regions on a side get the
  // same wiggle because it depends only on the side's two corners. Frame edges stay straight.
  function hash(a, b, c, d, i) {
    let h = (a * 73856093) ^ (b * 19349663) ^ (c * 83492791) ^ (d * 2654435761) ^ (i * 97);
    h = (h ^ (h >>> 13)) * 1274126177;
    return ((h ^ (h >>> 16)) >>> 0) / 4294967295;
  }
  function wiggle(p, q, frame) {
    const onFrame = (k, v) => p[k] === v && q[k] === v;
    if (onFrame(0, 0) || onFrame(1, 0) || onFrame(0, frame[0]) || onFrame(1, frame[1])) return [];
    const flip = p[0] > q[0] || (p[0] === q[0] && p[1] > q[1]);
    const [a, b] = flip ? [q, p] : [p, q];
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    const amp = Math.min(7, len * 0.07);
    const out = [];
    for (let i = 1; i <= 3; i++) {
      const t = i / 4;
      const o = (hash(a[0], a[1], b[0], b[1], i) - 0.5) * 2 * amp;
      out.push([a[0] + dx * t - (dy / len) * o, a[1] + dy * t + (dx / len) * o]);
    }
    return flip ? out.reverse() : out;
  }
  function outlinePts(shape, frame) {
    const pts = [];
    for (let i = 0; i < shape.length; i++) {
      const p = shape[i];
      const q = shape[(i + 1) % shape.length];
      pts.push(p, ...wiggle(p, q, frame));
    }
    return pts;
  }
  function sidePath(seg, frame) {
    const [p, q] = seg;
    const pts = [p, ...wiggle(p, q, frame), q];
    return "M" + pts.map((x) => `${f1(x[0])} ${f1(x[1])}`).join(" L");
  }
  function sideMid(seg, frame) {
    const w = wiggle(seg[0], seg[1], frame);
    return w.length ? w[1] : [(seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2];
  }

  function starPoints(cx, cy, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (Math.PI / 5) * i;
      const rr = i % 2 === 0 ? r : r * 0.42;
      pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
    }
    return ptsAttr(pts);
  }

  function defs() {
    return svg(
      "defs",
      {},
      svg("pattern", { id: "cc-town", width: 16, height: 16, patternUnits: "userSpaceOnUse" }, svg("rect", { width: 16, height: 16, fill: "#efe5c4" }), svg("circle", { cx: 4, cy: 5, r: 0.7, fill: "#d5c79a" }), svg("circle", { cx: 12, cy: 13, r: 0.7, fill: "#d5c79a" })),
      svg(
        "pattern",
        { id: "cc-country", width: 26, height: 26, patternUnits: "userSpaceOnUse" },
        svg("rect", { width: 26, height: 26, fill: "#d7dfb0" }),
        svg("circle", { cx: 6, cy: 7, r: 3.2, fill: "#b9c98b" }),
        svg("circle", { cx: 19, cy: 18, r: 3.6, fill: "#b3c484" }),
        svg("circle", { cx: 18, cy: 5, r: 1.8, fill: "#c3d197" }),
      ),
      svg("pattern", { id: "cc-boston", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, svg("rect", { width: 10, height: 10, fill: "#ecd6cc" }), svg("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#dcbcae", "stroke-width": 2 })),
      svg("pattern", { id: "cc-sea", width: 40, height: 14, patternUnits: "userSpaceOnUse" }, svg("rect", { width: 40, height: 14, fill: "#a9c9df" }), svg("path", { d: "M2 8 q5 -4 10 0 t10 0", fill: "none", stroke: "#8fb6d3", "stroke-width": 1 })),
      svg("pattern", { id: "cc-broken", width: 5, height: 5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, svg("rect", { width: 5, height: 5, fill: "rgba(255,255,255,0)" }), svg("rect", { width: 1.6, height: 5, fill: "rgba(0,0,0,0.28)" })),
      svg("filter", { id: "cc-shadow", x: "-20%", y: "-20%", width: "150%", height: "150%" }, svg("feDropShadow", { dx: 1, dy: 1.4, stdDeviation: 0.7, "flood-color": "#000", "flood-opacity": 0.45 })),
      svg("filter", { id: "cc-glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, svg("feDropShadow", { dx: 0, dy: 0, stdDeviation: 2.6, "flood-color": "#ffd21f", "flood-opacity": 1 })),
    );
  }

  const style = `
    .cc-region { stroke: #6d5f43; stroke-width: 1.1; stroke-linejoin: round; }
    .cc-name { font: 700 11px Georgia, serif; fill: #2e2a22; text-anchor: middle; pointer-events: none; paint-order: stroke; stroke: rgba(255,255,255,0.75); stroke-width: 2.6px; }
    .cc-name.country { font: italic 600 9.5px Georgia, serif; fill: #4b5230; }
    .cc-water-name { font: italic 600 10px Georgia, serif; fill: #2f5f8a; text-anchor: middle; letter-spacing: 1px; paint-order: stroke; stroke: rgba(220,235,245,0.7); stroke-width: 2px; }
    .cc-small { font: 600 7.5px sans-serif; text-anchor: middle; pointer-events: none; }
    .cc-num { font: 800 12px sans-serif; text-anchor: middle; pointer-events: none; }
    .cc-code { font: 700 6px sans-serif; text-anchor: middle; pointer-events: none; letter-spacing: 0.2px; }
    .cc-box-title { font: 700 9px sans-serif; fill: #2e2a22; }
    .cc-title { font: 700 15px Georgia, serif; fill: #2e2a22; }
    .cc-legend { font: 8.5px sans-serif; fill: #3a362c; }
    .cc-target { fill: #ffd21f; fill-opacity: 0.2; stroke: #ff9800; stroke-width: 2.6; cursor: pointer; }
    .cc-target.region { fill-opacity: 0.01; stroke: none; }
    .cc-target:hover, .cc-target:focus { fill-opacity: 0.3; stroke: #e65100; stroke-width: 3; outline: none; }
    .cc-target.unit { fill-opacity: 0.02; stroke-dasharray: 5 2; stroke-width: 2.4; stroke: #ff6f00; }
    .cc-target.unit:hover, .cc-target.unit:focus { fill-opacity: 0.3; }
    .cc-passive .cc-target { display: none; }
  `;

  // ------------------------------------------------------------------------------------------
  // Counters

  function unitLabel(def) {
    const name = (def && def.name) || "";
    if (!def) return "?";
    if (["leader", "son", "rider"].includes(def.kind)) {
      const last = name.replace(/\(.*\)/, "").trim().split(/\s+/).pop() || def.id;
      return last.slice(0, 4).toUpperCase();
    }
    return "";
  }

  // The number printed large: strength for military units ("?" for a hidden-value marker).
  function strengthText(u) {
    switch (u.kind) {
      case "regular":
        return u.flipped ? "0" : "2";
      case "militia":
        return u.flipped ? "0" : String(u.value);
      case "hidden":
        return "?";
      case "minuteman":
        return u.flipped ? "0" : "1";
      default:
        return "";
    }
  }

  function stateWords(u) {
    const w = [];
    if (u.flipped) w.push({ leader: "wounded", son: "captured", rider: "captured" }[u.kind] || "broken");
    if (u.under) w.push("under a marker (not active)");
    if (u.moved && u.fired) w.push("moved and fired");
    else if (u.moved) w.push("moved");
    else if (u.fired) w.push("fired");
    if (u.rallied) w.push("rallied");
    if (u.marched) w.push("marched along a road");
    return w;
  }

  // One counter (or a stack of like counters, with a count): the shape tells the kind (square
  // units, round leaders, a shield for Adams and Hancock, a pennant for the riders), the colour
  // and the emblem tell the side, the large figure is the strength ("?" while hidden), and the
  // small code under it names the kind. Broken, wounded and captured pieces are pale and
  // hatched and say so. Chips on the right: M moved, F fired, MF both, R rallied.
  function counter(def, u, x, y, size, opts = {}) {
    const side = SIDES[u.side] || SIDES.patriot;
    const half = size / 2;
    const down = !!u.flipped;
    const captured = down && (u.kind === "son" || u.kind === "rider");
    const fill = captured ? SIDES.british.light : down ? side.light : side.fill;
    const ink = down ? "#1b1b1b" : side.ink;
    const g = svg("g", { class: `cc-counter side-${u.side}`, "data-unit": u.id, transform: `translate(${f1(x)},${f1(y)})`, filter: opts.glow ? "url(#cc-glow)" : "url(#cc-shadow)" });
    const count = opts.count || 1;
    const words = stateWords(u);
    const name = def ? def.name : u.id;
    const title = `${count > 1 ? `${count} × ` : ""}${name} — ${side.label} ${KIND_NAME[u.kind] || u.kind}${strengthText(u) ? `, strength ${strengthText(u)}` : ""}${def && def.percy ? ", Percy's force" : ""}${words.length ? ` (${words.join(", ")})` : ""}`;
    g.append(svg("title", {}, title));
    if (count > 1) {
      // The stack: two edges peeking out behind.
      for (const k of [4, 2]) g.append(svg("rect", { x: -half + k, y: -half - k, width: size, height: size, rx: u.side === "patriot" ? 3.5 : 1, fill, stroke: "#1b1b1b", "stroke-width": 0.8 }));
    }
    const stroke = opts.selected ? "#ffd21f" : "#1b1b1b";
    const sw = opts.selected ? 2.6 : 0.9;
    if (u.kind === "leader") {
      g.append(svg("circle", { r: half, fill, stroke, "stroke-width": sw }));
    } else if (u.kind === "son") {
      g.append(svg("path", { d: `M${-half} ${-half} H${half} V${half * 0.2} Q${half} ${half} 0 ${half} Q${-half} ${half} ${-half} ${half * 0.2} Z`, fill, stroke, "stroke-width": sw }));
    } else if (u.kind === "rider") {
      g.append(svg("path", { d: `M${-half} ${-half} H${half} L${half * 0.7} 0 L${half} ${half} H${-half} Z`, fill, stroke, "stroke-width": sw }));
    } else {
      g.append(svg("rect", { x: -half, y: -half, width: size, height: size, rx: u.side === "patriot" ? 3.5 : 1, fill, stroke, "stroke-width": sw }));
    }
    if (down) {
      if (u.kind === "leader") g.append(svg("circle", { r: half - 0.5, fill: "url(#cc-broken)" }));
      else g.append(svg("rect", { x: -half + 0.5, y: -half + 0.5, width: size - 1, height: size - 1, fill: "url(#cc-broken)" }));
    }
    // Side emblem, top left.
    const ex = -half + size * 0.2;
    const ey = -half + size * 0.2;
    if (u.side === "patriot") g.append(svg("polygon", { points: starPoints(ex, ey, size * 0.12), fill: down ? "#1f4e8c" : "#fff" }));
    else g.append(svg("polygon", { points: `${f1(ex)},${f1(ey - size * 0.11)} ${f1(ex + size * 0.09)},${f1(ey)} ${f1(ex)},${f1(ey + size * 0.11)} ${f1(ex - size * 0.09)},${f1(ey)}`, fill: down ? "#a3271f" : "#fff" }));
    // Percy's black dot (12.0), top right.
    if (def && def.percy) g.append(svg("circle", { cx: half - size * 0.18, cy: -half + size * 0.18, r: size * 0.09, fill: "#111", stroke: "#fff", "stroke-width": 0.6 }));
    const st = strengthText(u);
    if (st) {
      g.append(svg("text", { class: "cc-num", x: 0, y: size * 0.16, fill: ink, style: `font-size:${f1(size * 0.5)}px` }, st));
    } else if (u.kind === "cannon") {
      // A gun barrel on a wheel.
      g.append(svg("path", { d: `M${-size * 0.3} ${size * 0.02} L${size * 0.32} ${-size * 0.14}`, stroke: ink, "stroke-width": size * 0.11, "stroke-linecap": "round" }));
      g.append(svg("circle", { cx: -size * 0.06, cy: size * 0.08, r: size * 0.13, fill: "none", stroke: ink, "stroke-width": 1.2 }));
    } else {
      const label = unitLabel(def);
      g.append(svg("text", { class: "cc-num", x: u.kind === "rider" ? -size * 0.06 : 0, y: size * 0.1, fill: ink, style: `font-size:${f1(size * 0.3)}px` }, label));
    }
    const code = down ? { leader: "WND", son: "CAPT", rider: "CAPT" }[u.kind] || "BRK" : KIND_CODE[u.kind] || "";
    g.append(svg("text", { class: "cc-code", x: u.kind === "rider" ? -size * 0.06 : 0, y: half - size * 0.1, fill: ink, style: `font-size:${f1(size * 0.25)}px` }, code));
    // Markers of this turn (4.8), as chips on the right edge.
    const chips = [];
    if (u.moved && u.fired) chips.push(["MF", "#f5a623", "#221400"]);
    else if (u.moved) chips.push(["M", "#e6e6e6", "#222"]);
    else if (u.fired) chips.push(["F", "#f5a623", "#221400"]);
    if (u.rallied) chips.push(["R", "#9fd39a", "#102010"]);
    chips.forEach(([t, bg, fg], i) => {
      const w = t.length > 1 ? 12 : 9;
      g.append(svg("g", { transform: `translate(${f1(half - 2)},${f1(-half + 1 + i * 10)})` }, svg("rect", { x: 0, y: 0, width: w, height: 9, rx: 1.5, fill: bg, stroke: "#222", "stroke-width": 0.5 }), svg("text", { class: "cc-code", x: w / 2, y: 6.6, fill: fg, style: "font-size:6.5px" }, t)));
    });
    if (count > 1) {
      g.append(svg("g", { transform: `translate(${f1(half - 3)},${f1(half - 3)})` }, svg("rect", { x: -2, y: -5, width: 15, height: 10, rx: 5, fill: "#fff", stroke: "#222", "stroke-width": 0.6 }), svg("text", { class: "cc-code", x: 5.5, y: 2.6, fill: "#111", style: "font-size:7px" }, `×${count}`)));
    }
    return g;
  }

  // Markers placed in regions: Gather (an ale mug) and Muster (three figures) (4.3, 4.5), Alert
  // (a diamond with "!", 4.6), Hidden Arms (a chest with its number, or "searched", 4.7),
  // Hinder (an octagon with its kind and turns, 6.11).
  function markerToken(kind, x, y, size, info) {
    const g = svg("g", { class: `cc-marker ${kind}`, transform: `translate(${f1(x)},${f1(y)})`, filter: "url(#cc-shadow)" });
    const h = size / 2;
    if (kind === "gather" || kind === "muster") {
      g.append(svg("title", {}, kind === "gather" ? "Gather marker: the units under it are not active yet (4.3)" : "Muster marker: alerted; it comes off at the end of the turn unless a Regular or Hinder Muster is here (4.5)"));
      g.append(svg("rect", { x: -h, y: -h, width: size, height: size, rx: 2, fill: kind === "gather" ? "#e3c469" : "#c9782f", stroke: "#3b2a10", "stroke-width": 0.9 }));
      if (kind === "gather") {
        g.append(svg("rect", { x: -size * 0.2, y: -size * 0.28, width: size * 0.32, height: size * 0.38, rx: 1, fill: "#fff6d8", stroke: "#3b2a10", "stroke-width": 0.9 }));
        g.append(svg("path", { d: `M${f1(size * 0.12)} ${f1(-size * 0.2)} h${f1(size * 0.1)} v${f1(size * 0.2)} h${f1(-size * 0.1)}`, fill: "none", stroke: "#3b2a10", "stroke-width": 0.9 }));
      } else {
        for (const dx of [-0.25, 0, 0.25]) {
          g.append(svg("circle", { cx: size * dx, cy: -size * 0.22, r: size * 0.07, fill: "#1b1b1b" }));
          g.append(svg("path", { d: `M${f1(size * (dx - 0.08))} ${f1(size * 0.12)} L${f1(size * dx)} ${f1(-size * 0.14)} L${f1(size * (dx + 0.08))} ${f1(size * 0.12)} Z`, fill: "#1b1b1b" }));
        }
      }
      g.append(svg("text", { class: "cc-code", x: 0, y: h - size * 0.1, fill: "#1b1b1b", style: `font-size:${f1(size * 0.24)}px` }, kind === "gather" ? "GATHER" : "MUSTER"));
    } else if (kind === "alert") {
      g.append(svg("title", {}, "Alert marker: the units under it wait for a Nightrider on this edge (4.6)"));
      g.append(svg("polygon", { points: `0,${-h} ${h},0 0,${h} ${-h},0`, fill: "#f2d23a", stroke: "#3b2a10", "stroke-width": 1 }));
      g.append(svg("text", { class: "cc-num", x: 0, y: size * 0.12, fill: "#1b1b1b", style: `font-size:${f1(size * 0.42)}px` }, "!"));
    } else if (kind === "arms") {
      const searched = info.searched;
      g.append(svg("title", {}, searched ? "Hidden Arms: searched (4.7)" : `Hidden Arms${info.n ? ` worth ${info.n} VP` : " (unnumbered, 1 VP)"} to the Patriot if never searched (4.7)`));
      g.append(svg("rect", { x: -h, y: -h * 0.75, width: size, height: size * 0.75, rx: 1.5, fill: searched ? "#bdbdbd" : "#6f4a2a", stroke: "#1b1b1b", "stroke-width": 0.8 }));
      g.append(svg("text", { class: "cc-code", x: 0, y: -h * 0.15, fill: searched ? "#333" : "#fff", style: `font-size:${f1(size * 0.28)}px` }, searched ? "✓" : "ARMS"));
      g.append(svg("text", { class: "cc-code", x: 0, y: h * 0.55 - 2, fill: searched ? "#333" : "#ffd98a", style: `font-size:${f1(size * 0.26)}px` }, searched ? "SRCH" : info.n ? `${info.n} VP` : "1 VP"));
    } else if (kind === "hinder") {
      g.append(svg("title", {}, `${HINDER_LABEL[info.name] || "Hinder"} marker, ${info.turns} turn${info.turns === 1 ? "" : "s"} left (6.11)`));
      const pts = [];
      for (let i = 0; i < 8; i++) {
        const a = Math.PI / 8 + (Math.PI / 4) * i;
        pts.push([h * Math.cos(a), h * Math.sin(a)]);
      }
      g.append(svg("polygon", { points: ptsAttr(pts), fill: info.name === "muster" ? "#a3271f" : "#5b2d82", stroke: "#111", "stroke-width": 0.9 }));
      g.append(svg("text", { class: "cc-code", x: 0, y: -size * 0.04, fill: "#fff", style: `font-size:${f1(size * 0.26)}px` }, HINDER_CODE[info.name] || "H"));
      g.append(svg("text", { class: "cc-code", x: 0, y: size * 0.3, fill: "#ffe08a", style: `font-size:${f1(size * 0.3)}px` }, String(info.turns)));
    }
    return g;
  }

  // ------------------------------------------------------------------------------------------
  // Stacks: like counters in a place (same side, kind, face, markers and Percy dot) form one
  // stack; named pieces (leaders, riders, Sons, the cannon) stand alone.

  function stackKey(def, u) {
    if (["leader", "son", "rider", "cannon"].includes(u.kind)) return `id:${u.id}`;
    return [u.side, u.kind, u.value, !!u.flipped, !!u.under, !!u.moved, !!u.fired, !!u.rallied, !!u.marched, def && def.percy].join("|");
  }
  function stacksOf(list, defs_) {
    const order = { regular: 0, cannon: 1, leader: 2, minuteman: 3, militia: 4, hidden: 5, son: 6, rider: 7 };
    const m = new Map();
    for (const u of list) {
      const k = stackKey(defs_[u.id], u);
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(u);
    }
    return [...m.values()].sort((a, b) => (a[0].side === b[0].side ? 0 : a[0].side === "british" ? -1 : 1) || (order[a[0].kind] ?? 9) - (order[b[0].kind] ?? 9));
  }

  // ------------------------------------------------------------------------------------------
  // Targets: which legal actions point at a region, a piece or a marker.

  function targetsOf(board, game, regionIndex, riderAt) {
    const tg = board.targets || { region: {}, unit: [], marker: [] };
    const regions = new Map();
    const units = new Map();
    const markers = new Map();
    const add = (m, k, a) => {
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(a);
    };
    for (const l of game.legal || []) {
      const words = l.action.split(/\s+/);
      const verb = words[0];
      if (tg.region && tg.region[verb] !== undefined) {
        const r = regionIndex.get(words[tg.region[verb]]);
        if (r !== undefined) add(regions, r, l.action);
      } else if ((tg.unit || []).includes(verb)) {
        add(units, words[1], l.action);
      } else if (verb === "alert" && riderAt !== null) {
        add(markers, `gather:${riderAt}`, l.action);
      } else if (verb === "exit" && riderAt !== null && board.regions[riderAt] && board.regions[riderAt].edge) {
        add(markers, `edge:${board.regions[riderAt].edge}`, l.action);
      } else if (verb === "unhinder") {
        add(markers, `hinder:${words[1]}`, l.action);
      }
    }
    return { regions, units, markers };
  }

  // ------------------------------------------------------------------------------------------
  // Issue 17: group moves in one gesture.

  const VERB_LABEL = { pick: "Choose", hit: "Hit on", drop: "Leave behind" };
  const verbOf = (a) => String(a).split(/\s+/)[0];
  const titleWord = (w) => w.charAt(0).toUpperCase() + w.slice(1);
  // The name of a stack of like counters, without ids: "British Regulars (strength 2)".
  function stackName(stack, defs) {
    const u = stack[0];
    const side = u.side === "british" ? "British" : "Patriot";
    const kind = { regular: "Regulars", minuteman: "Minutemen", militia: "militia", hidden: "hidden militia", cannon: "cannon", leader: "leader", son: "Son of Liberty", rider: "Nightrider" }[u.kind] || u.kind;
    if (stack.length === 1 && ["leader", "son", "rider", "cannon"].includes(u.kind)) return (defs[u.id] && defs[u.id].name) || `${side} ${kind}`;
    const bits = [];
    if (u.value !== undefined && u.value !== null) bits.push(`strength ${u.value}`);
    if (u.flipped) bits.push("broken");
    return `${side} ${kind}${bits.length ? ` (${bits.join(", ")})` : ""}`;
  }
  let regionNameOf = () => "the region";
  // The Move action out of a region and a pick of every unit that may go, built with the
  // server's preview one pick at a time (each pick legal after the ones before), sent as one
  // batch: "7 Regulars, Smith and Pitcairn" are chosen with one click.
  async function moveAll(ui, move, where) {
    const batch = [move];
    try {
      while (batch.length < 64) {
        const p = await ui.preview(batch);
        const last = new Set(p.irreversible || []);
        const next = (p.legal || []).map((l) => l.action).find((a) => verbOf(a) === "pick" && !batch.includes(a) && !last.has(a));
        if (!next) break;
        batch.push(next);
      }
    } catch (e) {
      batch.length = 1;
    }
    // Held back as a draft: the click on the destination sends it with the first step.
    const label = `${batch.length - 1} unit${batch.length === 2 ? "" : "s"} out of ${where}`;
    if (ui.draft) ui.draft(batch, { label });
    else ui.batch(batch, { label });
  }

  function render(container, board, game, ui) {
    const view = game.view || {};
    const frame = board.frame || [1000, 660];
    const regions = board.regions || [];
    const regionIndex = new Map(regions.map((r, i) => [r.id, i]));
    const defs_ = {};
    for (const u of board.units || []) defs_[u.id] = u;
    regionNameOf = (mv) => {
      const r = regions[regionIndex.get(String(mv).split(/\s+/)[1])];
      return r ? r.name : "the region";
    };
    const units = view.units || [];
    const phaseName = typeof view.phase === "string" ? view.phase : Object.keys(view.phase || {})[0] || "";
    const phase = typeof view.phase === "object" && view.phase ? view.phase[phaseName] || {} : {};

    // What the current step is about: a unit, a group, a region.
    const focusUnits = new Set();
    const one = (i) => {
      if (typeof i === "number" && i !== 255 && units[i]) focusUnits.add(units[i].id);
    };
    one(phase.unit);
    one(phase.rider);
    // The phase's unit sets come as a list (a 64-bit set loses precision in JavaScript).
    for (const i of view.phase_units || []) one(i);
    const focusRegions = new Set();
    for (const k of ["region", "at", "to"]) if (typeof phase[k] === "number" && regions[phase[k]]) focusRegions.add(phase[k]);
    let riderAt = null;
    if (phaseName === "riders" && typeof phase.rider === "number" && units[phase.rider] && units[phase.rider].at && units[phase.rider].at.at !== undefined) riderAt = units[phase.rider].at.at;

    // Extent: the frame and every box.
    const boxes = [];
    regions.forEach((r) => r.box && boxes.push(r.box));
    (board.riders || []).forEach((b) => boxes.push(b.box));
    if (board.pending) boxes.push(board.pending);
    if (board.removed) boxes.push(board.removed);
    let [x0, y0, x1, y1] = [0, -30, frame[0], frame[1]];
    for (const b of boxes) {
      x0 = Math.min(x0, b[0]);
      y0 = Math.min(y0, b[1]);
      x1 = Math.max(x1, b[0] + b[2]);
      y1 = Math.max(y1, b[1] + b[3]);
    }
    x0 -= 10;
    y0 -= 26;
    x1 += 10;
    y1 += 10;
    const root = svg("svg", { xmlns: NS, viewBox: `${x0} ${y0} ${x1 - x0} ${y1 - y0}`, role: "img", "aria-label": `Map of ${board.name || "From Boston to Concord"}`, class: ui && ui.interactive ? "cc-live" : "cc-passive" });
    root.append(svg("style", {}, style), defs());
    root.append(svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, fill: "#d9ceb2" }));
    root.append(svg("text", { class: "cc-title", x: x0 + 8, y: y0 + 18 }, `${board.name || "From Boston to Concord"}, 19 April 1775`));
    root.append(svg("rect", { x: 0, y: 0, width: frame[0], height: frame[1], fill: "url(#cc-sea)", stroke: "#5d513a", "stroke-width": 2 }));

    // Regions.
    const land = svg("g", { class: "cc-land" });
    regions.forEach((r, i) => {
      if (!r.shape) return;
      const fill = r.id === "boston" ? "url(#cc-boston)" : r.town ? "url(#cc-town)" : "url(#cc-country)";
      land.append(svg("polygon", { class: "cc-region", points: ptsAttr(outlinePts(r.shape, frame)), fill, "data-region": r.id, "data-index": i }, svg("title", {}, regionTitle(r))));
      if (focusRegions.has(i)) land.append(svg("polygon", { points: ptsAttr(outlinePts(r.shape, frame)), fill: "none", stroke: "#c00000", "stroke-width": 3, "stroke-dasharray": "8 4", "pointer-events": "none" }));
    });
    root.append(land);

    // Water on shared sides: dark-blue rivers (crossed only by a road), light-blue streams.
    const water = svg("g", { class: "cc-water", "pointer-events": "none" });
    for (const s of board.sides || []) {
      if (s.water === "none") continue;
      for (const seg of s.segments) {
        const d = sidePath(seg, frame);
        if (s.water === "dark") {
          water.append(svg("path", { d, stroke: "#2f6ea8", "stroke-width": 7, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }));
          water.append(svg("path", { d, stroke: "#6fa6d6", "stroke-width": 2.6, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }));
        } else {
          water.append(svg("path", { d, stroke: "#7fb3dd", "stroke-width": 3.2, fill: "none", "stroke-linecap": "round", "stroke-dasharray": "9 3", "stroke-linejoin": "round" }));
        }
      }
    }
    root.append(water);

    // Roads: from town to town across the middle of the shared side; bridges over dark water.
    const roads = svg("g", { class: "cc-roads", "pointer-events": "none" });
    const bridges = svg("g", { class: "cc-bridges", "pointer-events": "none" });
    const roadPaths = [];
    for (const rd of board.roads || []) {
      const side = (board.sides || []).find((s) => (s.a === rd.a && s.b === rd.b) || (s.a === rd.b && s.b === rd.a));
      let mid = rd.path.length === 3 ? rd.path[1] : null;
      if (side && side.segments.length) {
        const seg = side.segments.slice().sort((p, q) => Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]) - Math.hypot(p[1][0] - p[0][0], p[1][1] - p[0][1]))[0];
        mid = sideMid(seg, frame);
      }
      const a = rd.path[0];
      const b = rd.path[rd.path.length - 1];
      const pts = mid ? [a, mid, b] : [a, b];
      roadPaths.push(pts);
      if (rd.crossing === "bridge" && mid) {
        const ang = (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI;
        bridges.append(svg("g", { transform: `translate(${f1(mid[0])},${f1(mid[1])}) rotate(${f1(ang)})` }, svg("rect", { x: -9, y: -4.5, width: 18, height: 9, fill: "#8a6a45", stroke: "#3b2a18", "stroke-width": 0.8 }), svg("line", { x1: -9, y1: -4.5, x2: 9, y2: -4.5, stroke: "#2a1d10", "stroke-width": 1.6 }), svg("line", { x1: -9, y1: 4.5, x2: 9, y2: 4.5, stroke: "#2a1d10", "stroke-width": 1.6 })));
      }
    }
    const roadD = (pts) => "M" + pts.map((p) => `${f1(p[0])} ${f1(p[1])}`).join(" L");
    for (const pts of roadPaths) roads.append(svg("path", { d: roadD(pts), stroke: "#5a3f22", "stroke-width": 5, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }));
    for (const pts of roadPaths) roads.append(svg("path", { d: roadD(pts), stroke: "#dcbf82", "stroke-width": 2.2, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }));
    root.append(roads, bridges);

    // Names of waters.
    const waterNames = svg("g", { class: "cc-water-names", "pointer-events": "none" });
    for (const l of board.labels || []) {
      waterNames.append(svg("text", { class: "cc-water-name", transform: `translate(${l.at[0]},${l.at[1]}) rotate(${l.angle || 0})` }, l.text));
    }
    root.append(waterNames);

    // Borders that the flat map cannot show as a shared side: a dotted line.
    const linkLayer = svg("g", { class: "cc-links" });
    for (const l of board.links || []) {
      const a = regions[l.a];
      const b = regions[l.b];
      if (!a || !b || !a.at || !b.at) continue;
      linkLayer.append(svg("line", { x1: a.at[0], y1: a.at[1] + 4, x2: b.at[0], y2: b.at[1] + 4, stroke: "#4b5230", "stroke-width": 2, "stroke-dasharray": "1 4", "stroke-linecap": "round" }, svg("title", {}, `${a.name} and ${b.name} are adjacent`)));
    }
    root.append(linkLayer);

    // Printed icons and names: drawn once the pieces are laid out, just above them.
    const labels = svg("g", { class: "cc-labels" });
    function drawLabel(r, ax, ay) {
      const short = r.name.replace(/ landing$/, "").replace(/ country$/, "").replace(/^countryside by /, "").replace(/^woods above the /, "");
      labels.append(svg("text", { class: `cc-name${r.town ? "" : " country"}`, x: ax, y: ay - 4 }, r.id === "barretts-farm" ? "Barrett's Farm" : short));
      const icons = [];
      if (r.landing) icons.push(["⚓", "#1f4e8c", "naval landing icon: British may land here on turn 1 (9.0)"]);
      if (r.muster_icon) icons.push(["⌂", "#7a5a1a", "muster icon: a Gather marker starts here (4.3)"]);
      if (r.arms !== null && r.arms !== undefined) icons.push([r.arms ? `ha${r.arms}` : "ha", "#6f4a2a", "Hidden Arms site (4.7)"]);
      if (r.edge) icons.push([{ top: "⇡", left: "⇠", bottom: "⇣" }[r.edge], "#5b2d82", `on the ${r.edge} map edge: a Nightrider may leave here (6.12)`]);
      icons.forEach(([t, c, title], k) => {
        labels.append(svg("text", { class: "cc-small", x: ax + (k - (icons.length - 1) / 2) * 16, y: ay - 16, fill: c, style: "font-size:8.5px" }, svg("title", {}, title), t));
      });
    }

    // Off-map boxes.
    const boxLayer = svg("g", { class: "cc-boxes" });
    const drawBox = (b, title, color) => {
      boxLayer.append(svg("rect", { x: b[0], y: b[1], width: b[2], height: b[3], fill: "#efe8d3", stroke: color || "#6d5f43", "stroke-width": 1.4, rx: 3 }));
      boxLayer.append(svg("text", { class: "cc-box-title", x: b[0] + 5, y: b[1] + 11 }, title));
    };
    regions.forEach((r) => {
      if (r.box) drawBox(r.box, (r.box[2] < 150 ? r.name.replace(/ \(.*\)$/, "") : r.name).replace(/^Alert box, /, "Alert: "), "#8a6d1a");
    });
    for (const rb of board.riders || []) drawBox(rb.box, rb.box[2] < 150 ? `Riders off ${rb.edge} edge` : `Nightriders off the ${rb.edge} edge`, "#5b2d82");
    const percyTurn = view.options && view.options.percy_turn_8 ? 8 : board.percy_turn;
    if (board.pending) drawBox(board.pending, `Turn track: arriving turn ${percyTurn}`, "#a3271f");
    if (board.removed) drawBox(board.removed, "Out of play", "#555");
    root.append(boxLayer);

    // Where everything goes: region index -> pieces; boxes by name.
    const at = new Map();
    const put = (key, u) => {
      if (!at.has(key)) at.set(key, []);
      at.get(key).push(u);
    };
    for (const u of units) {
      const loc = u.at;
      if (loc && typeof loc === "object" && loc.at !== undefined) put(`r${loc.at}`, u);
      else if (loc && typeof loc === "object" && loc.edge !== undefined) put(`e${loc.edge}`, u);
      else if (loc === "pending") put("pending", u);
      else if (loc === "removed" && u.kind !== "hidden") put("removed", u);
    }
    const gatherAt = new Map((view.gather || []).map(([id, v]) => [regionIndex.get(id), v]));
    const armsAt = new Map((view.arms || []).map(([id, v]) => [regionIndex.get(id), v]));
    const alertAt = new Set((view.alerts || []).map((id) => regionIndex.get(id)));
    const hinderAt = new Map();
    (view.hinder || []).forEach((h, k) => {
      if (h && typeof h === "object" && h.map) {
        const r = h.map.region;
        if (!hinderAt.has(r)) hinderAt.set(r, []);
        hinderAt.get(r).push({ name: (board.hinder || [])[k] || String(k), turns: h.map.turns });
      }
    });

    const t = ui && ui.interactive ? targetsOf(board, game, regionIndex, riderAt) : { regions: new Map(), units: new Map(), markers: new Map() };
    const unitSpots = []; // [stack, x, y, size]
    const markerSpots = new Map(); // marker key -> [x, y, size]
    const pieces = svg("g", { class: "cc-pieces" });
    const trays = svg("g", { class: "cc-trays" });
    const MK = CS * 0.8;

    // Lay out one place: markers in a row, then active stacks, then what waits under the
    // Gather/Muster/Alert marker on a tray. The block starts at `top` but moves up to stay above
    // `bottom` (and below `ceiling`); it returns where it starts.
    function layoutPlace(cx, top, list, markers, trayKind, width, bottom, ceiling) {
      // Crowded places get smaller counters, so the block stays inside its region.
      const nStacks = stacksOf(list, defs_).length;
      let size = CS;
      const room = bottom !== undefined && ceiling !== undefined ? bottom - ceiling - (markers.length ? MK : 0) - 12 : Infinity;
      for (; size > CS * 0.62; size -= 1) {
        const per = Math.max(3, Math.floor((width + GAP) / (size + GAP)));
        if (Math.ceil(nStacks / per) * (size + GAP + 2) + (list.some((u) => u.under) ? 10 : 0) <= room) break;
      }
      const perRow = Math.max(3, Math.floor((width + GAP) / (size + GAP)));
      const ops = [];
      let y = 0;
      if (markers.length) {
        const w = markers.length * (MK + GAP) - GAP;
        markers.forEach((m, k) => ops.push(["marker", m, cx - w / 2 + MK / 2 + k * (MK + GAP), y + MK / 2]));
        y += MK + GAP;
      }
      const active = stacksOf(list.filter((u) => !u.under), defs_);
      const under = stacksOf(list.filter((u) => u.under), defs_);
      const row = (stacks, yy, size) => {
        stacks.forEach((st, k) => {
          const col = k % perRow;
          const r = Math.floor(k / perRow);
          const inRow = Math.min(perRow, stacks.length - r * perRow);
          const x = cx - (inRow * (size + GAP) - GAP) / 2 + size / 2 + col * (size + GAP);
          ops.push(["stack", st, x, yy + size / 2 + r * (size + GAP + 2), size]);
        });
        return Math.ceil(stacks.length / perRow) * (size + GAP + 2);
      };
      if (active.length) y += row(active, y + 2, size) + 2;
      if (under.length) {
        const sz = size * 0.86;
        const n = Math.min(perRow, under.length);
        const w = n * (sz + GAP) - GAP + 8;
        const h = Math.ceil(under.length / perRow) * (sz + GAP + 2) + 6;
        ops.push(["tray", cx - w / 2, y, w, h]);
        row(under, y + 4, sz);
        y += h + GAP;
      }
      let t0 = top;
      if (bottom !== undefined && t0 + y > bottom) t0 = bottom - y;
      if (ceiling !== undefined && t0 < ceiling) t0 = ceiling;
      for (const op of ops) {
        if (op[0] === "marker") {
          pieces.append(markerToken(op[1].kind, op[2], op[3] + t0, MK, op[1].info));
          if (op[1].key) markerSpots.set(op[1].key, [op[2], op[3] + t0, MK]);
        } else if (op[0] === "stack") {
          unitSpots.push([op[1], op[2], op[3] + t0, op[4]]);
        } else {
          trays.append(svg("rect", { x: op[1], y: op[2] + t0, width: op[3], height: op[4], rx: 4, fill: trayKind === "alert" ? "rgba(242,210,58,0.35)" : trayKind === "muster" ? "rgba(201,120,47,0.3)" : "rgba(227,196,105,0.45)", stroke: "#7a5a1a", "stroke-width": 0.8, "stroke-dasharray": "3 2" }, svg("title", {}, `Under the ${trayKind} marker: not active yet (4.3)`)));
        }
      }
      return t0;
    }

    regions.forEach((r, i) => {
      const list = at.get(`r${i}`) || [];
      const marks = [];
      const g = gatherAt.get(i);
      if (g === 1 || g === 2) marks.push({ kind: g === 1 ? "gather" : "muster", key: `gather:${i}` });
      if (alertAt.has(i)) marks.push({ kind: "alert", key: `alert:${i}` });
      const a = armsAt.get(i);
      if (a === 1 || a === 2) marks.push({ kind: "arms", info: { n: r.arms || 0, searched: a === 2 } });
      for (const h of hinderAt.get(i) || []) marks.push({ kind: "hinder", info: h, key: `hinder:${h.name}` });
      const trayKind = g === 2 ? "muster" : alertAt.has(i) ? "alert" : "gather";
      if (r.at) {
        const xs = r.shape.map((p) => p[0]);
        const ys = r.shape.map((p) => p[1]);
        const w = Math.min(6 * (CS + GAP), Math.max(...xs) - Math.min(...xs) - 16);
        const t0 = layoutPlace(r.at[0], r.at[1] + 2, list, marks, trayKind, w, Math.max(...ys) - 4, Math.min(...ys) + 24);
        drawLabel(r, r.at[0], t0);
      } else if (r.box) layoutPlace(r.box[0] + r.box[2] / 2, r.box[1] + 15, list, marks, trayKind, r.box[2] - 8);
    });
    (board.riders || []).forEach((rb, e) => {
      const b = rb.box;
      markerSpots.set(`edge:${rb.edge}`, [b[0] + b[2] / 2, b[1] + b[3] / 2, Math.min(b[2], b[3]) - 6]);
      layoutPlace(b[0] + b[2] / 2, b[1] + 15, at.get(`e${e}`) || [], [], "gather", b[2] - 8);
    });
    if (board.pending) layoutPlace(board.pending[0] + board.pending[2] / 2, board.pending[1] + 15, at.get("pending") || [], [], "gather", board.pending[2] - 8);
    if (board.removed) layoutPlace(board.removed[0] + board.removed[2] / 2, board.removed[1] + 15, at.get("removed") || [], [], "gather", board.removed[2] - 8);

    const unitPos = new Map();
    for (const [st, x, y, size] of unitSpots) {
      const u = st[0];
      const glow = st.some((v) => focusUnits.has(v.id));
      pieces.append(counter(defs_[u.id], u, x, y, size, { count: st.length, glow, selected: glow }));
      for (const v of st) unitPos.set(v.id, { x, y, size, stack: st });
    }
    root.append(labels, trays, pieces);

    // Legal targets on top, so a click reaches them.
    const placed = new Set();
    const tl = svg("g", { class: "cc-targets" });
    const hook = (el, actions, pick) => {
      const labelText = actions.map((a) => (ui.label ? ui.label(a) : a)).join("\n");
      el.setAttribute("tabindex", 0);
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", labelText);
      el.setAttribute("data-actions", actions.join("|"));
      el.append(svg("title", {}, labelText));
      const go = (ev) => {
        // Issue 17: a click on a region to move out of takes every unit there that may move
        // (the Move action and each pick, one batch); shift-click or a long press takes only
        // the Move action, to pick the units one stack at a time.
        const mv = actions.length === 1 && verbOf(actions[0]) === "move" && ui.preview && ui.batch ? actions[0] : null;
        if (mv && !ui.some(ev)) return moveAll(ui, mv, regionNameOf(mv));
        ui.choose(pick || actions, ev);
      };
      el.addEventListener("click", go);
      el.addEventListener("keydown", (ev) => {
        if (ev.key === " " || ev.key === "Enter") {
          ev.preventDefault();
          ev.stopPropagation();
          go(ev);
        }
      });
      actions.forEach((a) => placed.add(a));
      tl.append(el);
    };
    const under = svg("g", { class: "cc-highlights", "pointer-events": "none" });
    for (const [ri, actions] of t.regions) {
      const r = regions[ri];
      if (!r) continue;
      if (r.shape) {
        // The colour goes under the pieces; the clickable outline above them stays clear.
        const pts = ptsAttr(outlinePts(r.shape, frame));
        // When most of the map is a target (a Hinder can go anywhere), a lighter wash.
        under.append(svg("polygon", { points: pts, fill: "#ffd21f", "fill-opacity": t.regions.size > 12 ? 0.1 : 0.24, stroke: "#ff9800", "stroke-width": t.regions.size > 12 ? 1.8 : 2.6, "stroke-linejoin": "round" }));
        hook(svg("polygon", { class: "cc-target region", points: pts, "data-target": "region", "data-region": r.id }), actions);
      }
      else if (r.box) hook(svg("rect", { class: "cc-target region", x: r.box[0] + 1, y: r.box[1] + 1, width: r.box[2] - 2, height: r.box[3] - 2, rx: 3, "data-target": "region", "data-region": r.id }), actions);
    }
    // Pieces: one target per stack. Like counters are interchangeable, so a stack offers the
    // first of them for each verb; the next click offers the next.
    const byStack = new Map();
    for (const [id, actions] of t.units) {
      const p = unitPos.get(id);
      if (!p) continue;
      if (!byStack.has(p)) byStack.set(p, []);
      byStack.get(p).push(...actions);
    }
    for (const [p, actions] of byStack) {
      // Like counters are interchangeable: one choice per verb for the whole stack, taken for
      // all of them in one batch (shift-click / long press: for some).
      const pick = [];
      const byVerb = new Map();
      for (const a of actions) {
        const verb = a.split(/\s+/)[0];
        if (!byVerb.has(verb)) {
          const g = { label: `${VERB_LABEL[verb] || titleWord(verb)} ${stackName(p.stack, defs_)}`, actions: [] };
          byVerb.set(verb, g);
          pick.push(g);
        }
        byVerb.get(verb).actions.push(a);
      }
      const s = p.size + 6;
      hook(svg("rect", { class: "cc-target unit", x: p.x - s / 2, y: p.y - s / 2, width: s, height: s, rx: 4, "data-target": "unit", "data-unit": p.stack[0].id }), actions, pick);
    }
    for (const [key, actions] of t.markers) {
      const m = markerSpots.get(key);
      if (!m) continue;
      const s = m[2] + 6;
      hook(svg("rect", { class: "cc-target unit", x: m[0] - s / 2, y: m[1] - s / 2, width: s, height: s, rx: 4, "data-target": "marker", "data-marker": key }), actions);
    }
    pieces.before(under);
    // What happened since the viewer's last decision (issue 17): trails, fights, losses.
    const recentNotes = ui && ui.markRecent ? ui.markRecent(root, (v) => piecesOf(v, board, defs_, v === view ? unitPos : null), CS) : [];
    root.append(tl);

    // Legend, top left.
    const lg = svg("g", { class: "cc-legend-box", transform: `translate(${x0 + 8},${y0 + 34})` });
    [
      "★ rounded counters: Patriot · ◆ square: British",
      "square unit · round leader · shield Son of Liberty",
      "pennant Nightrider · ? militia not yet revealed",
      "BRK broken, WND wounded, CAPT captured",
      "chips: M moved · F fired · MF both · R rallied",
    ].forEach((line, k) => lg.append(svg("text", { class: "cc-legend", x: 0, y: k * 11 }, line)));
    root.append(lg);

    container.replaceChildren(root);
    return { targets: placed, recent: recentNotes };
  }

  // The pieces of one view as the client's marks of recent changes need them (app.js,
  // recentDiff): where each stands (its counter when drawn, else its region's name spot).
  function piecesOf(view, board, defs_, drawn) {
    const regions = board.regions || [];
    return (view.units || []).map((u) => {
      const r = u.at && typeof u.at === "object" && u.at.at !== undefined ? regions[u.at.at] : null;
      const spot = r ? r.at || (r.box ? [r.box[0] + r.box[2] / 2, r.box[1] + r.box[3] / 2] : null) : null;
      const p = drawn && drawn.get(u.id);
      const def = defs_[u.id];
      return { id: u.id, on: !!spot, x: p ? p.x : spot ? spot[0] : 0, y: p ? p.y : spot ? spot[1] + CS * 0.6 : 0, place: r ? r.id : String(u.at && u.at.edge !== undefined ? `edge-${u.at.edge}` : u.at), placeName: r ? r.name : null, down: u.flipped ? 1 : 0, fight: !!u.fired, side: u.side, label: def ? def.name : KIND_NAME[u.kind] || u.kind };
    });
  }

  function regionTitle(r) {
    const bits = [r.name];
    if (r.town) bits.push("town (may be searched, 8.1)");
    if (r.landing) bits.push("naval landing (9.0)");
    if (r.muster_icon) bits.push("muster icon");
    if (r.arms !== null && r.arms !== undefined) bits.push(r.arms ? `hidden arms ${r.arms}` : "hidden arms");
    if (r.edge) bits.push(`${r.edge} map edge`);
    if (r.id === "boston") bits.push("closed to Patriot units (3.0)");
    return bits.join(" · ");
  }

  // ------------------------------------------------------------------------------------------
  // Tracks panel

  function tracks(board, game) {
    const v = game.view;
    if (!v || !v.actions) return [];
    const first = board.first_turn || 1;
    const last = v.last_turn || board.last_turn || 12;
    const rows = [{ label: "Turn", value: v.turn, max: last, text: first > 1 ? `${v.turn} (turns ${first}–${last})` : `${v.turn} / ${last}` }];
    const card = (board.cards || []).find((c) => c.id === v.card);
    rows.push({ label: "Card", text: card ? `card ${card.id}: British ${card.british}, Patriot ${card.patriot} actions, ${card.hash} mark${card.hash === 1 ? "" : "s"} · ${v.draw_pile} in the deck` : `none drawn yet · ${v.draw_pile} in the deck` });
    if (v.seen && v.seen.length) rows.push({ label: "You saw", text: `next cards: ${v.seen.join(", ")} (6.14)` });
    ["patriot", "british"].forEach((s, i) => {
      rows.push({ side: s, label: "Actions", value: v.actions[i], max: 5, text: String(v.actions[i]) });
    });
    ["patriot", "british"].forEach((s, i) => {
      rows.push({ side: s, label: "Reserve", value: v.reserves[i], max: 2, text: String(v.reserves[i]) });
    });
    ["patriot", "british"].forEach((s, i) => {
      const h = (v.vp_halves || [0, 0])[i];
      rows.push({ side: s, label: "VP", value: Math.floor(h / 2), text: h % 2 ? `${(h / 2).toFixed(1)}` : String(h / 2) });
    });
    const hn = board.hinder || ["movement", "muster", "search"];
    const regions = board.regions || [];
    rows.push({
      label: "Hinder",
      text: (v.hinder || [])
        .map((h, k) => {
          const name = hn[k] || k;
          if (h === "available") return `${name}: ready`;
          if (h === "track") return `${name}: back next turn`;
          if (h && h.map) return `${name}: ${(regions[h.map.region] || {}).name || "?"} (${h.map.turns})`;
          return `${name}: ?`;
        })
        .join(" · "),
    });
    if (v.pool) rows.push({ label: "Militia pool", text: `${v.pool[0]} × 0, ${v.pool[1]} × 1, ${v.pool[2]} × 2 (drawn when revealed)` });
    const flags = [];
    flags.push(v.shot ? "the Shot has been fired (10.0)" : "no shot fired yet (10.0)");
    flags.push(v.concord ? "the British reached Concord (11.0)" : "Concord not reached (11.0)");
    if (v.percy_award) flags.push("Percy at Lexington (12.0)");
    rows.push({ label: "Events", text: flags.join(" · ") });
    const pn = typeof v.phase === "string" ? v.phase : Object.keys(v.phase || {})[0] || "";
    rows.push({ label: "Step", text: `${PHASE_NAMES[pn] || pn}${v.to_act ? ` · ${SIDES[v.to_act] ? SIDES[v.to_act].label : v.to_act} to decide` : ""}` });
    return rows;
  }

  function turnOf(entry) {
    const m = /^Turn (\d+):/.exec(entry && entry.text ? entry.text : "");
    return m ? Number(m[1]) : null;
  }

  // The rules of Part One in Muster's own words, by the rulebook's section numbers (docs/rules/
  // concord.md maps each to the code). A summary; the printed rulebook is the authority.
  const RULES = [
    { section: "2", title: "The board", text: ["The board holds the map and the tracks: victory points, the turn, each side's actions (up to five) and reserve actions (up to two), the list of actions each side may take, and the draw and discard piles of the 22 cards. An empty draw pile is refilled by shuffling the discards."] },
    { section: "3", title: "The map", text: ["The map is cut into regions. Regions that share a border are adjacent. Light-blue streams do not stop adjacency; across dark-blue water two regions are adjacent only where a road crosses. Any number of pieces may share a region.", "Town regions carry a name. Two regions carry a naval landing icon. Patriot pieces never enter Boston and Patriot actions never target British units there; Patriots may not enter Charlestown while an unbroken Regular is in it.", "On Muster's map: dark-blue bands are rivers (a bridge plank marks a road across), dashed light-blue lines are streams, brown lines are roads, a dotted line joins two regions the flat drawing could not make touch. ⌂ marks a muster icon, ha/ha1–ha5 a Hidden Arms site, ⚓ a landing, ⇡ ⇠ ⇣ a map edge a Nightrider may leave by. The map is a reconstruction (docs/rulings/concord.md, R2–R8, R13)."] },
    { section: "4", title: "Playing pieces", text: ["Counters are the units, their leaders and the Sons of Liberty and Nightriders; markers record what happened in a region or on a track."] },
    { section: "4.1", title: "Military units", text: ["Units have an unbroken side with a strength (the dice it rolls) and a broken side with none. A hit flips an unbroken unit; a hit on a broken unit destroys it. Broken Patriots avoid regions with Regulars and, without a leader, only move toward Concord; broken Regulars avoid Minutemen and, without a leader, only move toward Boston. A Rally can restore them.", "Regulars have strength 2 and hit on 4–6. Militia have 0, 1 or 2 and hit on 5–6; a 0 militia counts 1 when paired with a leader of its own. Militia values stay hidden (a \"?\" on the board) until something needs them; then the marker is swapped for a piece drawn at random from the pool of 21. Minutemen have strength 1, hit on 5–6 and may retreat before combat taking one militia along.", "Percy's field cannon has no strength and always goes with a Regular. Entering a region with Patriot units it breaks one of the Patriot's choosing (once per move); in an Attack or Assault, attacking or defending, it breaks one militia first. It adds a third hit to a Charge and may advance after a Patriot retreat before combat. A hit, or being alone with unbroken Patriots, destroys it."] },
    { section: "4.2", title: "Leaders", text: ["A hit wounds a healthy leader; a hit on a wounded leader kills it. Wounded leaders never heal but may still rally. Killed leaders score for the other side."] },
    { section: "4.3", title: "Gather markers", text: ["Pieces under a Gather, Muster or Alert marker are not active and take no actions. Gather markers start on the towns with a muster icon (Charlestown already on its Muster side). A Nightrider on a Call to Arms may spend a point to turn a Gather marker to Muster, never with an unbroken Regular present; British units leaving a Gather region also turn it. When a marker turns, the Minutemen under it become active and may move up to two regions at once, without a Moved marker."] },
    { section: "4.4", title: "Sons of Liberty and Nightriders", text: ["Adams and Hancock (Sons of Liberty) and Revere, Dawes and Prescott (Nightriders) never fight. Their back side means captured: the British may take captives up to two regions toward Boston at each turn's end; reaching Boston makes the capture final. Nightriders move only by a Call to Arms; a stream without a road costs them two points.", "Adams and Hancock use a Move action of their own (no one else moves with it), go up to two regions (crossing a stream ends the move), give no leader benefits and cannot be killed. Sharing a region with unbroken Regulars exposes them to capture."] },
    { section: "4.5", title: "Muster markers", text: ["At the end of each turn a Muster marker comes off, freeing the pieces under it, unless a British Regular or a Hinder Muster marker is there. A Muster marker never turns back."] },
    { section: "4.6", title: "Alert markers", text: ["Militia from beyond the map wait under Alert markers in boxes on the map edges. A Nightrider in the Nightrider box of that edge, activated by a Call to Arms, may lift one Alert marker of the edge; the pieces under it then enter the map from the box as from an adjacent region."] },
    { section: "4.7", title: "Hidden Arms markers", text: ["Thirteen caches: numbered 1–5 in Menotomy, Watertown, Lexington, Lincoln and Barrett's Farm, the rest unnumbered. A British search turns a marker to its searched side for good. At the end the Patriot scores each unsearched marker: its number, or 1 VP if unnumbered."] },
    { section: "4.8", title: "Moved and Fired markers", text: ["A unit moves once and fights once a turn. M on a counter means moved, F fired, MF both. Markers come off at the end of the turn."] },
    { section: "5", title: "Turn sequence", text: ["Before turn 1 the Patriot takes a free Call to Arms. Each turn: draw a card for action points, take actions in turn, then end the turn."] },
    { section: "5.1", title: "Action points", text: ["The card drawn sets each side's actions: the red circle the British, the blue the Patriot. Its black oval holds 0–3 marks used as a random result by searches and captures."] },
    { section: "5.2", title: "Actions in turn", text: ["The side with more actions goes first; on a tie a die decides (even Patriot, odd British). Sides alternate one action at a time, and must act when asked (Pass counts). When one side is out, the other spends the rest. A reserve action can be spent instead of a track action only when you do not have more actions than your opponent or have one left; unused reserves carry over."] },
    { section: "5.3", title: "End of turn", text: ["In order: lift Muster markers where no Regular or Hinder Muster stands; clear Hinder markers on their 1 side and turn those on 2 to 1 (those on the turn track come back); remove Moved, Fired, Rally, Ambush and Snipe markers; the British may move captives up to two regions toward Boston; advance the turn. The game ends after turn 12."] },
    { section: "6", title: "Actions", text: ["Each action costs one action point. Muster offers only the actions your side may take now; on the map, a highlighted region or piece is a choice you can click."] },
    { section: "6.1", title: "Attack", text: ["Your units in one region fight the enemy units in that region (7.0). The attackers must not have fired this turn. Units that fought get Fired markers, unless every defender retreated before combat."] },
    { section: "6.2", title: "Assault", text: ["Units that have neither moved nor fired go from one region into an adjacent enemy region and attack there. Attackers end up moved and fired."] },
    { section: "6.3", title: "Charge (British)", text: ["In a region with a British leader, an unbroken Regular that has neither moved nor fired, and Patriot units, every British unit without a marker charges: the British take one hit, the Patriot takes two (three with the cannon), may not retreat first, and must retreat all broken units to an adjacent region, optionally with up to two leaders. Everyone involved is marked moved and fired."] },
    { section: "6.4", title: "Movement", text: ["Pick a region: each of your units there without a Moved marker may scout or march, each its own way. British units stop on entering a region where unbroken Patriot military units are at least half the Regulars; Patriot units stop where Regulars are at least half their unbroken military units."] },
    { section: "6.4.1", title: "Scout", text: ["Move into one adjacent region."] },
    { section: "6.4.2", title: "March", text: ["Move up to two regions along a connected road, never leaving it. The whole group may force march to a third road region by breaking one of its units at the end. Units may be dropped along the way but none picked up."] },
    { section: "6.5", title: "Assemble (Patriot)", text: ["Move any of the units without a Moved marker from one region into one adjacent region."] },
    { section: "6.6", title: "Ambush (Patriot)", text: ["Only after the Shot (10.0). In a region with at least two unbroken Regulars that have moved, and no Ambush marker yet, roll a die for each of two of them: 5–6 breaks it. No Patriot unit needs to be there."] },
    { section: "6.7", title: "Snipe (Patriot)", text: ["Only after the Shot. Where four or more unbroken Regulars or healthy leaders marched at least two road regions this turn, and no Snipe marker is, roll a die for each such British piece (not the cannon): each 6 breaks a Regular or wounds a leader."] },
    { section: "6.8", title: "Rally", text: ["In one region, each leader not yet used to rally restores broken units: one for the Patriot, two for the British (Smith and Pitcairn one each once Concord is reached). The leader gets a Rally marker."] },
    { section: "6.9", title: "Search / Capture (British)", text: ["Search a town for hidden arms and try to capture Adams or Hancock there (8.0)."] },
    { section: "6.10", title: "Escape capture (Patriot)", text: ["One captured piece not yet in Boston tries to escape (a Son of Liberty not on the turn it was taken): one die, +1 per unbroken Patriot militia or Minuteman with it, −1 per unbroken Regular; 6 or more frees it into an adjacent region, marked moved."] },
    { section: "6.11", title: "Hinder", text: ["Place one of your Hinder markers (on its 2 side) or remove one of your opponent's (it waits on the next turn space). Hinder Movement (Patriot): British units entering its region stop there. Hinder Muster (British): on a Gather or Muster marker, it can neither turn nor come off. Hinder Search (Patriot): on a Hidden Arms marker, the British may not search it."] },
    { section: "6.12", title: "Call to Arms (Patriot)", text: ["Every active Nightrider gets four points: one per region entered, one to turn a Gather marker to Muster (never with an unbroken Regular present). Each such turn makes the British roll: on a 6 the rider is captured. Leaving a region with an unbroken Regular costs an extra point or risks the same roll. A rider may leave the map by the top, left or bottom edge for a point and, from the next turn, lift one Alert marker on that edge per Call to Arms. Prescott stays under the Lexington marker until that town is alerted, or until the British hold both Revere and Dawes. One Call to Arms per turn; the free one before turn 1 counts for turn 1."] },
    { section: "6.13", title: "Plan", text: ["Gain a reserve action (two at most). Allowed only with one action left, or when nothing but Pass is possible."] },
    { section: "6.14", title: "Gather Intelligence", text: ["Once per turn, look at the top two cards of the deck without changing their order. Only you see them (the Tracks panel lists them)."] },
    { section: "6.15", title: "Pass", text: ["Spend an action doing nothing."] },
    { section: "7", title: "Combat", text: ["The defender first may retreat any units (7.1), then chooses which remaining units take part. The attacker then picks simultaneous combat (he takes one hit first, then both sides roll) or defensive fire (the defender rolls, the attacker takes the hits, then the attacker rolls with what is left). Each side rolls one die per strength point of its taking part units: Patriots hit on 5–6, British on 4–6. The side taking hits chooses where they go, to units that took part first; a hit flips, a second removes. Only units whose strength was rolled get Fired markers."] },
    { section: "7.1", title: "Retreats", text: ["Retreats are optional (except after a Charge). Retreating units go together to one adjacent region, never into the region an Assault came from, Patriots toward Concord and British toward Boston where possible. Retreating into unbroken enemy units costs one more hit. With nowhere to go, units stay."] },
    { section: "7.1.1", title: "Retreat before combat: unmoved units", text: ["They retreat and are marked moved."] },
    { section: "7.1.2", title: "Retreat before combat: moved units", text: ["One retreating unit takes a hit first, then the units go in a fixed order: for the Patriot wounded leaders and broken Minutemen, healthy leaders (each with one militia), unbroken Minutemen (each with one militia), unbroken militia alone (they break), while broken militia alone cannot go; for the British wounded leaders and the cannon, healthy leaders (each with one Regular), unbroken Regulars alone (each breaks on a 6), broken Regulars."] },
    { section: "7.1.3", title: "Opportunity fire", text: ["If every defender retreated, the attacker may fire at them: one die per retreating unit and healthy leader against British, half that (rounded up) against Patriots; 6s hit, and the retreating side assigns them. The attackers get Fired markers; British opportunity fire counts as the Shot."] },
    { section: "7.1.4", title: "Retreat after combat", text: ["A side that lost a step may retreat its remaining units without penalty, the attacker first. An assaulting attacker can only go back where he came from; defenders may not retreat into it."] },
    { section: "8", title: "Search and capture", text: ["Each search for arms and each capture attempt draws its own card; one action can do all of them in a region. Gather Intelligence can tell you what is coming."] },
    { section: "8.1", title: "Searching", text: ["In a town with a Hidden Arms marker and an unbroken Regular, draw a card: its marks, less one if unbroken militia or Minutemen are there (two if both are), are British VP (never below zero). The marker turns to searched whatever the result."] },
    { section: "8.2", title: "Capture", text: ["With unbroken Regulars in the region of Adams or Hancock (under a marker or not), draw a card for each: any marks left after the same reduction capture him. After a failure the British may pay 1 VP for one more draw. If every try fails the Patriot may move him to an adjacent region."] },
    { section: "9", title: "One if by land, two if by sea", text: ["In the free Call to Arms before turn 1 riders cannot be captured, but Dawes pays two points to leave Boston. On turn 1 only, a British Move may ferry units from Boston to one or both landing regions, where they stop and are marked moved."] },
    { section: "10", title: "The Shot Heard 'Round the World", text: ["Ambush and Snipe are closed until dice are rolled in an Attack or Assault (or opportunity fire), the British Charge, the British search where an active unbroken Patriot unit stands, or any British unit enters Concord. If the Patriot starts the first combat, the British score 5 VP."] },
    { section: "11", title: "Concord", text: ["If no unbroken Regular ever reaches Concord, the Patriot wins outright. The first to arrive scores the British 5 VP and from then on Smith's column suffers: Smith and Pitcairn rally one Regular each, broken Regulars move one region per Move and cannot march, and each healthy leader and unbroken Regular retreating before combat risks a hit on a 6. Percy's troops are exempt."] },
    { section: "12", title: "Percy's reinforcements", text: ["On turn 9 (turn 8 by option) Percy arrives in Boston with eight Regulars (black dot) and the cannon. Once Percy, the cannon and four unbroken Regulars stand in Lexington, the British score 3 VP, once; if that never happens, the Patriot scores 5 VP at the end."] },
    { section: "13", title: "Victory", text: ["Unless the British never reached Concord, the higher VP total wins and the British win ties. Points come from the VP aid (destroyed units, killed or wounded leaders, captives, Concord, Percy, the first shot, searches, unsearched arms). Muster's VP aid is reconstructed (R9)."] },
    { section: "14", title: "Optional rules", text: ["Offered as game options: 14.1 one re-roll per combat with a healthy leader present; 14.2 moving through a region with an unbroken enemy draws one die of fire (6 hits); 14.3 Adams and Hancock move one region; 14.4 militia hit on 6 and Minutemen on 5–6; 14.5 less or random VP for unnumbered arms (cards dealt from the whole deck, none twice)."] },
    { section: "15", title: "Scenarios", text: ["The two-player game (15.1) and two solitaire games against a bot (15.2–15.4). In Muster the bot is whichever computer player the server offers."] },
    { section: "15.1", title: "From Boston to Concord", text: ["Twelve turns. Markers on the map icons; hidden militia under every Gather and Alert marker; Minutemen and leaders as the icons show; Revere in Charlestown, Dawes in Boston, Prescott, Adams and Hancock under the Lexington marker; Smith, Pitcairn and seven Regulars in Boston; Percy's force on the turn track."] },
    { section: "15.2", title: "Solitaire rules", text: ["Turns 8 to 12 with the British at Concord and Percy in Boston. The British cannot force march and go at most two road regions; Percy may land on turn 8; each card with marks brings a hidden militia to a place set by a die; Patriots at Concord may retreat toward Lexington; the Hinder marker goes between the British and Lexington; British moves draw Patriot fire, two hits at most in one Move action. Victory uses casualties, attrition rolls and the objectives of the scenario."] },
    { section: "15.3", title: "Solitaire: British player", text: ["You play the British against the Patriot bot, with the cards favouring the British removed."] },
    { section: "15.4", title: "Solitaire: Patriot player", text: ["You play the Patriot against the British bot, with the cards favouring the Patriot removed."] },
    { section: "FAQ", title: "Clarifications", text: ["Thirteen Gather markers; Alert markers are the edge diamonds. Only active Patriot units reduce search marks. At the end of a turn only captives move. One Search action tries both Sons of Liberty in one region. Unsearched numbered markers give the Patriot their number. Removing Hinder Search is not a search. On turn 1 the British may both land and march. A Move activates a region: its units may each move differently. Percy comes on turn 9 (8 by agreement). The cannon breaks a unit in defence too."] },
  ];

  window.MusterBoards = window.MusterBoards || {};
  window.MusterBoards.concord = {
    render,
    rules: RULES,
    // Decisions that roll dice, draw cards, reveal something or hand play to the other side:
    // the client asks to confirm them.
    irreversible: ["simultaneous", "defensive-fire", "opfire", "ambush", "snipe", "search", "redraw", "escape", "intel", "alert", "charge", "hit", "reroll", "done", "pass", "plan", "call-to-arms"],
    shortcuts: {
      Enter: ["done", "stop", "stay", "no-opfire", "no-redraw"],
      p: ["pass"],
      c: ["call-to-arms"],
      i: ["intel"],
      r: ["reserve"],
      s: ["stop", "stay"],
    },
    sides: {
      patriot: { label: SIDES.patriot.label, emblem: SIDES.patriot.emblem, cls: SIDES.patriot.cls },
      british: { label: SIDES.british.label, emblem: SIDES.british.emblem, cls: SIDES.british.cls },
    },
    tracks,
    turnOf,
  };
})();
