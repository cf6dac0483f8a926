#!/usr/bin/env python3
"""Usage: python3 scripts/bunker-hill-drawing.py GRID_MAP.toml [ANGLE] > drawing.toml

One-off generator of the [drawing] table of data/bunker-hill/map.toml (docs/rulings/bunker-hill.md R12).

Reads the schematic grid polygons of map.toml, cuts their sides into short pieces, bends the grid
onto the outline of the Charlestown peninsula (a smooth radial-basis warp pinned at a few shore
points, a turn of the peninsula's axis to north-west / south-east, a small wobble so that borders
look like ground, a little more on the shore), draws each Landing Zone as a strip of water off its
staging areas, and finds each region's anchor (the inside point farthest from its border).
Shared sides stay shared, because both regions get the same points. The output is data: correct it
by editing map.toml, not by rerunning this."""
import math, sys, tomllib

SRC = sys.argv[1]
m = tomllib.load(open(SRC, "rb"))
regions = m["region"]
land = [r for r in regions if r["kind"] != "zone"]
zones = [r for r in regions if r["kind"] == "zone"]

# ---- the warp -------------------------------------------------------------------------------
# control points: grid point -> where it goes (same frame, before the turn)
CTRL = [
    ((0, 20), (-16, 41)), ((0, 50), (-16, 49)),
    ((10, 20), (10, 37)), ((10, 50), (10, 53)),
    ((20, 10), (24, 24)), ((30, 10), (34, 14)),
    ((10, 60), (14, 61)), ((10, 80), (14, 81)), ((10, 100), (18, 103)), ((40, 100), (44, 106)),
    ((90, 100), (96, 106)), ((120, 100), (124, 104)), ((150, 100), (152, 99)),
    ((100, 10), (100, 8)), ((160, 10), (162, 8)), ((180, 10), (188, 10)),
    ((180, 55), (196, 56)), ((180, 90), (188, 94)), ((170, 100), (170, 102)), ((150, 30), (154, 28)),
    ((95, 55), (95, 55)), ((50, 40), (50, 42)), ((140, 50), (140, 50)),
]
# Monotonic stretches along each axis first (they keep every border): wider strips at
# Moulton's Point, where the British land.
XK = [(-20, -20), (10, 10), (20, 21), (30, 36), (40, 51), (110, 114), (120, 126), (140, 143), (150, 149), (160, 155), (170, 169), (180, 184), (200, 204)]
YK = [(-20, -20), (10, 10), (60, 55), (100, 107), (200, 207)]
def pl(v, K):
    for (a, fa), (b, fb) in zip(K, K[1:]):
        if v <= b:
            return fa + (fb - fa) * (v - a) / (b - a)
    return K[-1][1] + (v - K[-1][0])
def remap(p):
    return (pl(p[0], XK), pl(p[1], YK))
CTRL = [(remap(s_), (t[0] + remap(s_)[0] - s_[0], t[1])) for s_, t in CTRL]
SIG = 38.0
def phi(d2):
    return math.exp(-d2 / (2 * SIG * SIG))
def solve(A, b):
    n = len(A)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c:
                f = M[r][c] / M[c][c]
                for k in range(c, n + 1):
                    M[r][k] -= f * M[c][k]
    return [M[i][n] / M[i][i] for i in range(n)]
A = [[phi((p[0]-q[0])**2 + (p[1]-q[1])**2) for q, _ in CTRL] for p, _ in CTRL]
WX = solve(A, [t[0]-s[0] for s, t in CTRL])
WY = solve(A, [t[1]-s[1] for s, t in CTRL])
TH = math.radians(float(sys.argv[2]) if len(sys.argv) > 2 else 26)
# Round the hills: round each hill's block of squares, pulling corners in along rays from its
# middle (a homeomorphism: every ray keeps its order of points), fading out beyond R1.
# Breed's Hill also drawn a little larger (its redoubt holds the most counters).
HILLS = [((160, 40), 14.5, 26, 0.0), ((35, 35), 21.5, 30, 0.08), ((108, 55), 19, 31, 0.25)]
def round_hills(p):
    x, y = p
    for (cx, cy), r0, r1, grow in HILLS:
        dx, dy = x - cx, y - cy
        r = math.hypot(dx, dy)
        if r == 0 or r >= r1:
            continue
        m = max(abs(dx), abs(dy)) / r
        w = 1.0 if r <= r0 else (r1 - r) / (r1 - r0)
        f = m ** (0.9 * w) * (1 + grow * w)
        x, y = cx + dx * f, cy + dy * f
    return (x, y)
def warp(p, coast=False):
    x, y = remap(round_hills(p))
    dx = sum(w * phi((x-c[0][0])**2 + (y-c[0][1])**2) for w, c in zip(WX, CTRL))
    dy = sum(w * phi((x-c[0][0])**2 + (y-c[0][1])**2) for w, c in zip(WY, CTRL))
    x, y = x + dx, y + dy
    # wobble
    a = 1.5
    x += a * math.sin(x / 7.3 + 1.1) * math.cos(y / 9.1 + 0.4)
    y += a * math.sin(y / 6.7 + 2.3) * math.cos(x / 8.3 + 1.7)
    x += 0.8 * math.sin(y / 3.3 + 0.7)
    y += 0.8 * math.sin(x / 3.1 + 2.9)
    if coast:
        x += 1.1 * math.sin(x / 2.9 + y / 3.7)
        y += 1.1 * math.cos(y / 3.1 - x / 2.3)
    c, s = math.cos(TH), math.sin(TH)
    return (x * c - y * s, x * s + y * c)

STEP = 5.0
def pieces(poly):
    """Corners of the polygon with every side cut at multiples of STEP."""
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        L = math.hypot(b[0]-a[0], b[1]-a[1])
        k = max(1, round(L / STEP))
        for j in range(k):
            t = j / k
            out.append((a[0] + (b[0]-a[0]) * t, a[1] + (b[1]-a[1]) * t))
    return out

def seg_key(a, b):
    return (min(a, b), max(a, b))

# which unit segments are shared between land regions
count = {}
land_pieces = {}
for r in land:
    pts = pieces([tuple(p) for p in r["polygon"]])
    land_pieces[r["id"]] = pts
    for i in range(len(pts)):
        k = seg_key(pts[i], pts[(i+1) % len(pts)])
        count[k] = count.get(k, 0) + 1

out_shape = {}
coast_pts = set()
for r in land:
    pts = land_pieces[r["id"]]
    n = len(pts)
    for i in range(n):
        a, b = pts[i], pts[(i+1) % n]
        if count[seg_key(a, b)] == 1:
            coast_pts.add(a); coast_pts.add(b)
# points on an inner border keep the plain warp (both sides agree); pure coast points wobble more
inner_pts = set()
for r in land:
    pts = land_pieces[r["id"]]
    n = len(pts)
    for i in range(n):
        a, b = pts[i], pts[(i+1) % n]
        if count[seg_key(a, b)] == 2:
            inner_pts.add(a); inner_pts.add(b)

def W(p):
    return warp(p, coast=(p in coast_pts and p not in inner_pts))

# offset so that the map starts near 0,0
allp = [W(p) for r in land for p in land_pieces[r["id"]]]
OX = -min(p[0] for p in allp) + 30
OY = -min(p[1] for p in allp) + 26
def T(p):
    q = W(p)
    return (round(q[0] + OX, 1), round(q[1] + OY, 1))
def Tfree(p, coast=False):
    q = warp(p, coast)
    return (round(q[0] + OX, 1), round(q[1] + OY, 1))

for r in land:
    pts = [T(p) for p in land_pieces[r["id"]]]
    # drop repeated corners
    clean = []
    for p in pts:
        if not clean or clean[-1] != p:
            clean.append(p)
    if clean[0] == clean[-1]:
        clean.pop()
    out_shape[r["id"]] = clean

# ---- zones: a strip of water off the staging areas ------------------------------------------
def zone_shape(z):
    zp = [tuple(p) for p in z["polygon"]]
    zpts = pieces(zp)
    # the chain of the zone's sides that the land shares
    n = len(zpts)
    chain_segs = []
    for i in range(n):
        a, b = zpts[i], zpts[(i+1) % n]
        if count.get(seg_key(a, b), 0) == 1:
            chain_segs.append((a, b))
    # order the chain
    pts = [chain_segs[0][0], chain_segs[0][1]]
    rest = chain_segs[1:]
    while rest:
        for s in rest:
            if s[0] == pts[-1]:
                pts.append(s[1]); rest.remove(s); break
            if s[1] == pts[0]:
                pts.insert(0, s[0]); rest.remove(s); break
        else:
            raise SystemExit(f"zone {z['id']}: chain broken")
    chain = [T(p) for p in pts]
    # outward: away from the land side
    cx = sum(p[0] for p in zp) / len(zp); cy = sum(p[1] for p in zp) / len(zp)
    mid = ((pts[0][0]+pts[-1][0])/2, (pts[0][1]+pts[-1][1])/2)
    d = (cx - mid[0], cy - mid[1]); L = math.hypot(*d); d = (d[0]/L, d[1]/L)
    c, s = math.cos(TH), math.sin(TH)
    dd = (d[0]*c - d[1]*s, d[0]*s + d[1]*c)
    D = float(z.get("_depth", 15))
    a, b = chain[0], chain[-1]
    ab = (b[0]-a[0], b[1]-a[1]); lab = math.hypot(*ab); u = (ab[0]/lab, ab[1]/lab)
    inset = min(2.5, lab/6)
    far = [(round(b[0] + dd[0]*D - u[0]*inset, 1), round(b[1] + dd[1]*D - u[1]*inset, 1)),
           (round(a[0] + dd[0]*D + u[0]*inset, 1), round(a[1] + dd[1]*D + u[1]*inset, 1))]
    return chain + far

for z in zones:
    out_shape[z["id"]] = zone_shape(z)

# ---- anchors ---------------------------------------------------------------------------------
def inside(p, poly):
    x, y = p; c = False
    n = len(poly)
    for i in range(n):
        xi, yi = poly[i]; xj, yj = poly[i-1]
        if (yi > y) != (yj > y) and x < (xj-xi)*(y-yi)/(yj-yi) + xi:
            c = not c
    return c
def segdist(p, a, b):
    ax, ay = a; bx, by = b; px, py = p
    dx, dy = bx-ax, by-ay
    L = dx*dx + dy*dy
    t = 0 if L == 0 else max(0, min(1, ((px-ax)*dx + (py-ay)*dy)/L))
    return math.hypot(px-ax-t*dx, py-ay-t*dy)
def anchor(poly):
    xs = [p[0] for p in poly]; ys = [p[1] for p in poly]
    cx = sum(xs)/len(xs); cy = sum(ys)/len(ys)
    best = None
    y = min(ys)
    while y <= max(ys):
        x = min(xs)
        while x <= max(xs):
            if inside((x, y), poly):
                d = min(segdist((x, y), poly[i], poly[(i+1) % len(poly)]) for i in range(len(poly)))
                score = d - 0.02 * math.hypot(x-cx, y-cy)
                if best is None or score > best[0]:
                    best = (score, (round(x, 1), round(y, 1)))
            x += 0.5
        y += 0.5
    return best[1]

at = {rid: anchor(poly) for rid, poly in out_shape.items()}

# ---- features, drawn in grid coordinates and bent with the map -------------------------------
def line(pts, step=2.5):
    out = []
    for i in range(len(pts)-1):
        a, b = pts[i], pts[i+1]
        k = max(1, round(math.hypot(b[0]-a[0], b[1]-a[1]) / step))
        for j in range(k):
            t = j/k
            out.append(Tfree((a[0]+(b[0]-a[0])*t, a[1]+(b[1]-a[1])*t)))
    out.append(Tfree(pts[-1]))
    return out
ROADS = {
    "Main Street": [(-14, 35), (4, 37), (12, 45), (18, 55), (28, 64), (42, 72), (56, 79), (68, 86), (80, 94), (88, 99)],
    "Bunker Hill road": [(12, 45), (22, 42), (34, 38), (50, 35), (64, 36), (80, 42)],
    "lane to the brick kilns": [(80, 94), (96, 88), (112, 82), (128, 80), (146, 82), (162, 90)],
    "lane up Breed's Hill": [(56, 79), (68, 70), (80, 62), (92, 52)],
}
WORKS = [
    ("redoubt", [(93, 43), (106, 43), (106, 57), (93, 57), (93, 43)]),
    ("breastwork", [(92, 42), (86, 36), (81, 26), (79, 15)]),
    ("rail fence", [(89, 18), (97, 15), (104, 13), (109, 11)]),
    ("stone wall", [(111, 12), (120, 11.2), (130, 11)]),
]

FRAME = "[0, 0, 250, 228]"
LABELS = [
    ("MYSTIC RIVER", (182, 44), 27, "water"),
    ("CHARLES RIVER", (44, 176), 22, "water"),
    ("BOSTON HARBOR", (168, 203), -8, "water"),
    ("Mill Pond", (22, 70), 62, "water"),
    ("BOSTON", (70, 214), 0, "place"),
    ("CHARLESTOWN", (58, 142), 27, "place"),
]
LAND = [
    ("Boston (North End)", [(0, 196), (22, 190), (44, 184), (66, 181), (88, 184), (108, 192), (124, 204), (130, 228), (0, 228)]),
    ("the mainland (Cambridge and Medford)", [(0, 0), (58, 0), (50, 8), (42, 16), (37, 23), (36.5, 27), (35.5, 30.5), (28, 36), (16, 42), (0, 46)]),
]
def fmt(p):
    return f"[{p[0]:g}, {p[1]:g}]"
allx = [p[0] for s in out_shape.values() for p in s]; ally = [p[1] for s in out_shape.values() for p in s]
print()
print("# The drawing of the map for the browser board (docs/rulings/bunker-hill.md, R12): drawing data")
print("# only, reconstructed from 1775 maps of the peninsula as history.md describes it. Line of Sight")
print("# (7.2) is measured on the `polygon`s and `centre`s above, never on these. Each region has a")
print("# `shape` (corners in order, x to the east, y to the south) and an anchor `at` inside it, where")
print("# its counters go. Regions adjacent in the rules must share a side: two consecutive corners with")
print("# the same coordinates in both shapes, or list the pair in `across_water`. Shapes must not cross")
print("# themselves or each other. `frame` is [x, y, width, height] of the drawn area; `roads`, `works`")
print("# and `land` (ground off the peninsula) are lines and outlines, `labels` name waters and places.")
print("[drawing]")
print("reconstructed = true")
print(f"frame = {FRAME}")
print("across_water = []")
print("labels = [")
for text, p, angle, style in LABELS:
    print(f'  {{ text = "{text}", at = {fmt(p)}, angle = {angle}, style = "{style}" }},')
print("]")
print()
print("[drawing.regions]")
for r in regions:
    rid = r["id"]
    print(f'{rid} = {{ at = {fmt(at[rid])}, shape = [{", ".join(fmt(p) for p in out_shape[rid])}] }}')
print()
for name, pts in ROADS.items():
    print("[[drawing.roads]]")
    print(f'name = "{name}"')
    print(f'line = [{", ".join(fmt(p) for p in line(pts))}]')
    print()
for name, pts in LAND:
    print("[[drawing.land]]")
    print(f'name = "{name}"')
    print(f'shape = [{", ".join(fmt(p) for p in pts)}]')
    print()
for kind, pts in WORKS:
    print("[[drawing.works]]")
    print(f'kind = "{kind}"')
    print(f'line = [{", ".join(fmt(p) for p in line(pts, 2))}]')
    print()
def fits(rid, k):
    h = 3.2 * k; a = at[rid]; poly = out_shape[rid]
    return all(inside((a[0]+dx, a[1]+dy), poly) for dx, dy in [(-h,-h),(h,-h),(h,h),(-h,h)])
bad = [(rid, max([k/20 for k in range(10, 31) if fits(rid, k/20)] or [0])) for rid in out_shape if not fits(rid, 1.05)]
if bad:
    print("# regions without room for a full counter round the anchor:", bad, file=sys.stderr)
