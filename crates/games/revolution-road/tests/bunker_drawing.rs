//! The drawing of the Bunker Hill map (`[drawing]` in data/bunker-hill/map.toml,
//! docs/rulings/bunker-hill.md R12): every region has a simple outline with its anchor inside,
//! outlines do not overlap, regions adjacent in the rules touch on the drawing and regions that
//! touch are adjacent, the drawing changes no rule, and a broken drawing is refused with the
//! file and the item named.

mod bunker_support;
use bunker_support::*;
use muster_revolution_road::Bunker;
use muster_revolution_road::bunker::data::{DATA_FILES, RegionKind};
use muster_revolution_road::bunker::drawing::{inside, share_side};

type P = [f32; 2];

fn text_of(name: &str) -> String {
    DATA_FILES
        .iter()
        .find(|f| f.0 == name)
        .unwrap()
        .1
        .to_string()
}

fn load_map(map: String) -> Result<Bunker, String> {
    let files: Vec<(String, &str, String)> = DATA_FILES
        .iter()
        .map(|(f, t)| {
            let body = if *f == "map.toml" {
                map.clone()
            } else {
                t.to_string()
            };
            (format!("test/{f}"), *f, body)
        })
        .collect();
    Bunker::from_files(&files)
}

/// The map file with one region's drawing line replaced.
fn with_region_line(id: &str, line: &str) -> String {
    let text = text_of("map.toml");
    let start = text
        .find(&format!("\n{id} = {{ at = "))
        .unwrap_or_else(|| panic!("no drawing line for {id}"));
    let end = start + 1 + text[start + 1..].find('\n').unwrap();
    format!("{}\n{line}{}", &text[..start], &text[end..])
}

fn shape_of(g: &Bunker, id: &str) -> Vec<P> {
    g.data.map.drawing.regions[r(g, id) as usize].shape.clone()
}

fn area(p: &[P]) -> f32 {
    (0..p.len())
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % p.len()]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f32>()
        .abs()
        / 2.0
}

#[test]
fn drawing_every_region_has_a_simple_outline_with_room_for_a_counter_round_its_anchor() {
    let g = game();
    let map = &g.data.map;
    assert!(
        map.drawing.reconstructed,
        "the drawing is marked reconstructed"
    );
    assert_eq!(map.drawing.regions.len(), map.n());
    for (i, d) in map.drawing.regions.iter().enumerate() {
        let id = &map.regions[i].id;
        let s = &d.shape;
        assert!(s.len() >= 3, "{id}: at least 3 corners");
        // Simple: no two sides that are not neighbours meet.
        let n = s.len();
        for a in 0..n {
            for b in a + 2..n {
                if a == 0 && b == n - 1 {
                    continue;
                }
                assert!(
                    !segments_meet(s[a], s[(a + 1) % n], s[b], s[(b + 1) % n]),
                    "{id}: sides {a} and {b} meet"
                );
            }
        }
        // A counter (6.4 map units a side, as the board draws it) fits round the anchor.
        let h = 3.2;
        for (dx, dy) in [(0.0, 0.0), (-h, -h), (h, -h), (h, h), (-h, h)] {
            assert!(
                inside([d.at[0] + dx, d.at[1] + dy], s),
                "{id}: a counter at its anchor {:?} sticks out of the outline",
                d.at
            );
        }
        assert!(
            map.drawing
                .regions
                .iter()
                .enumerate()
                .all(|(j, o)| j == i || !inside(d.at, &o.shape)),
            "{id}: its anchor lies in another region"
        );
    }
}

/// Do two closed segments have a point in common?
fn segments_meet(a: P, b: P, c: P, d: P) -> bool {
    let o = |p: P, q: P, r: P| (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
    let on = |p: P, q: P, r: P| {
        o(p, q, r).abs() < 1e-4
            && r[0] >= p[0].min(q[0]) - 1e-4
            && r[0] <= p[0].max(q[0]) + 1e-4
            && r[1] >= p[1].min(q[1]) - 1e-4
            && r[1] <= p[1].max(q[1]) + 1e-4
    };
    let (d1, d2, d3, d4) = (o(a, b, c), o(a, b, d), o(c, d, a), o(c, d, b));
    (d1 * d2 < 0.0 && d3 * d4 < 0.0) || on(a, b, c) || on(a, b, d) || on(c, d, a) || on(c, d, b)
}

#[test]
fn drawing_outlines_do_not_overlap() {
    // Sampled independently of the loader: no point of a fine grid lies inside two outlines,
    // and the outlines' areas add up to the area the grid finds covered.
    let g = game();
    let d = &g.data.map.drawing;
    let [x0, y0, w, h] = d.frame;
    let step = 0.5;
    let boxes: Vec<(P, P)> = d
        .regions
        .iter()
        .map(|r| {
            let xs = r.shape.iter().map(|p| p[0]);
            let ys = r.shape.iter().map(|p| p[1]);
            (
                [
                    xs.clone().fold(f32::MAX, f32::min),
                    ys.clone().fold(f32::MAX, f32::min),
                ],
                [xs.fold(f32::MIN, f32::max), ys.fold(f32::MIN, f32::max)],
            )
        })
        .collect();
    let mut covered = 0usize;
    let mut y = y0 + step / 4.0;
    while y < y0 + h {
        let mut x = x0 + step / 3.0;
        while x < x0 + w {
            let hits: Vec<usize> = (0..d.regions.len())
                .filter(|&i| {
                    let (lo, hi) = boxes[i];
                    x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1]
                })
                .filter(|&i| inside([x, y], &d.regions[i].shape))
                .collect();
            assert!(
                hits.len() <= 1,
                "({x}, {y}) lies in {:?}",
                hits.iter()
                    .map(|&i| &g.data.map.regions[i].id)
                    .collect::<Vec<_>>()
            );
            covered += hits.len();
            x += step;
        }
        y += step;
    }
    let total: f32 = d.regions.iter().map(|r| area(&r.shape)).sum();
    let sampled = covered as f32 * step * step;
    assert!(
        (sampled - total).abs() < total * 0.01,
        "sampled {sampled}, outlines {total}: every outline inside the frame"
    );
}

#[test]
fn drawing_regions_adjacent_in_the_rules_share_a_side_and_only_they_do() {
    let g = game();
    let map = &g.data.map;
    let d = &map.drawing;
    assert!(d.across_water.is_empty(), "every border is drawn as a side");
    for a in 0..map.n() {
        for b in a + 1..map.n() {
            let adj = map.adjacent(a as u8, b as u8);
            let side = share_side(&d.regions[a].shape, &d.regions[b].shape);
            assert_eq!(
                adj, side,
                "{} and {}: adjacent {adj}, a common side on the drawing {side}",
                map.regions[a].id, map.regions[b].id
            );
        }
    }
    // A Landing Zone is water drawn off the shore of its Staging Areas only (3.5).
    for (i, reg) in map.regions.iter().enumerate() {
        if reg.kind == RegionKind::Zone {
            assert!(reg.adj & !map.staging == 0, "{}", reg.id);
            assert!(d.regions[i].shape.len() >= 4);
        }
    }
}

#[test]
fn drawing_changes_no_rule_line_of_sight_and_adjacency_come_from_the_grid() {
    // Move and stretch every drawn outline: the rules' map is the same.
    let g = game();
    let text = text_of("map.toml");
    let start = text.find("\n[drawing.regions]\n").unwrap();
    let mut moved = text[..start].to_string();
    for line in text[start..].lines() {
        if line.contains(" = { at = [") {
            // x -> 2x + 5 on every number pair of the line.
            let mut out = String::new();
            let mut rest = line;
            while let Some(k) = rest.find('[') {
                out.push_str(&rest[..=k]);
                rest = &rest[k + 1..];
                if let Some(e) = rest.find(',') {
                    if let Ok(x) = rest[..e].trim().parse::<f32>() {
                        out.push_str(&format!("{}", 2.0 * x + 5.0));
                        rest = &rest[e..];
                    }
                }
            }
            out.push_str(rest);
            moved.push('\n');
            moved.push_str(&out);
        } else {
            moved.push('\n');
            moved.push_str(line);
        }
    }
    let h = load_map(moved).expect("the stretched drawing loads");
    assert_ne!(
        h.data.map.drawing.regions[0].at, g.data.map.drawing.regions[0].at,
        "the drawing did move"
    );
    assert_eq!(h.data.map.sight, g.data.map.sight, "7.2 sight is unchanged");
    for (a, b) in h.data.map.regions.iter().zip(&g.data.map.regions) {
        assert_eq!(
            (a.adj, &a.polygon, a.centre),
            (b.adj, &b.polygon, b.centre),
            "{}",
            a.id
        );
    }
}

#[test]
fn drawing_shows_the_printed_line_of_sight_example_over_the_south_ridge() {
    // 7.2's example: from the Redoubt to Staging Area 6 the line runs over the south ridge.
    // The rules measure it on the grid; the drawing must show the same thing.
    let g = game();
    let d = &g.data.map.drawing;
    let (a, b) = (
        d.regions[r(&g, "redoubt") as usize].at,
        d.regions[r(&g, "town-dock") as usize].at,
    );
    let ridge = shape_of(&g, "ridge-s");
    let over = (0..=100).any(|k| {
        let t = k as f32 / 100.0;
        inside([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t], &ridge)
    });
    assert!(
        over,
        "the drawn line from the Redoubt to the town dock crosses the south ridge"
    );
}

#[test]
fn drawing_places_the_peninsula_as_1775_maps_do() {
    // history.md: the Neck to the north-west, Bunker Hill north of Breed's Hill, Moulton's Point
    // at the south-east tip, the Mystic to the north-east and Charlestown south-west of Breed's.
    let g = game();
    let d = &g.data.map.drawing;
    let at = |id: &str| d.regions[r(&g, id) as usize].at;
    let (neck, bunker, redoubt, moultons) =
        (at("neck"), at("bunker-c"), at("redoubt"), at("moultons"));
    assert!(
        neck[0] < bunker[0] && neck[1] < bunker[1],
        "the Neck is north-west of Bunker Hill"
    );
    assert!(
        bunker[1] < redoubt[1],
        "Bunker Hill is north of Breed's Hill"
    );
    assert!(
        moultons[0] > redoubt[0] && moultons[1] > redoubt[1],
        "Moulton's Hill is south-east of Breed's"
    );
    let mean = |ids: &[&str]| {
        let n = ids.len() as f32;
        let s = ids
            .iter()
            .map(|id| at(id))
            .fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]);
        [s[0] / n, s[1] / n]
    };
    let towns: Vec<String> = (1..=10).map(|i| format!("town-{i}")).collect();
    let towns: Vec<&str> = towns.iter().map(String::as_str).collect();
    let (town, breeds) = (mean(&towns), mean(&["redoubt", "breeds-s"]));
    assert!(
        town[0] < breeds[0] && town[1] > breeds[1],
        "Charlestown lies south-west of Breed's Hill"
    );
    let mystic = at("mystic-shore");
    assert!(
        mystic[0] > bunker[0] && mystic[1] < redoubt[1],
        "the Mystic shore is north-east"
    );
}

#[test]
fn drawing_errors_name_the_file_and_the_region() {
    let refused = |map: String, words: &[&str]| {
        let e = load_map(map).err().expect("refused");
        assert!(e.contains("test/map.toml"), "{e}");
        for w in words {
            assert!(e.contains(w), "{w:?} not in: {e}");
        }
    };
    // No drawing at all.
    let text = text_of("map.toml");
    refused(
        text[..text.find("\n[drawing]\n").unwrap()].to_string(),
        &["no [drawing] table"],
    );
    // A region without a drawing.
    refused(
        with_region_line("pastures", ""),
        &["\"pastures\"", "missing"],
    );
    // An outline that crosses itself (a bow tie).
    refused(
        with_region_line(
            "pastures",
            "pastures = { at = [1, 1], shape = [[0, 0], [6, 6], [6, 0], [0, 3]] }",
        ),
        &["\"pastures\"", "crosses itself"],
    );
    // An anchor outside the outline.
    let s = shape_of(&game(), "pastures");
    let pts: Vec<String> = s.iter().map(|p| format!("[{}, {}]", p[0], p[1])).collect();
    refused(
        with_region_line(
            "pastures",
            &format!(
                "pastures = {{ at = [-50, -50], shape = [{}] }}",
                pts.join(", ")
            ),
        ),
        &["\"pastures\"", "anchor"],
    );
    // An outline on top of another region.
    let s = shape_of(&game(), "redoubt");
    let pts: Vec<String> = s
        .iter()
        .map(|p| format!("[{}, {}]", p[0] + 1.0, p[1] + 0.5))
        .collect();
    let at = game().data.map.drawing.regions[r(&game(), "redoubt") as usize].at;
    refused(
        with_region_line(
            "redoubt",
            &format!(
                "redoubt = {{ at = [{}, {}], shape = [{}] }}",
                at[0] + 1.0,
                at[1] + 0.5,
                pts.join(", ")
            ),
        ),
        &["\"redoubt\"", "overlap"],
    );
    // A neighbour drawn apart: the Neck shrunk to a triangle round its anchor.
    let at = game().data.map.drawing.regions[r(&game(), "neck") as usize].at;
    refused(
        with_region_line(
            "neck",
            &format!(
                "neck = {{ at = [{0}, {1}], shape = [[{2}, {1}], [{3}, {4}], [{3}, {5}]] }}",
                at[0],
                at[1],
                at[0] - 1.0,
                at[0] + 1.0,
                at[1] - 1.0,
                at[1] + 1.0
            ),
        ),
        &["\"neck\"", "share no side"],
    );
    // A region the rules do not know.
    refused(
        text.replace(
            "\n[drawing.regions]\n",
            "\n[drawing.regions]\nhill-99 = { at = [1, 1], shape = [[0, 0], [4, 0], [0, 4]] }\n",
        ),
        &["\"hill-99\"", "no region"],
    );
    // Works of an unknown kind.
    refused(
        text.replacen("kind = \"redoubt\"", "kind = \"fort\"", 1),
        &["\"fort\"", "kind"],
    );
}
