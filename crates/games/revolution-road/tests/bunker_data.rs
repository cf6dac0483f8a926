//! Bunker Hill data: the map geometry agrees with its adjacency, Line of Sight (7.2) is
//! computed from the geometry with the printed example, and broken files are refused with
//! the file and the item named.

mod bunker_support;
use bunker_support::*;
use muster_revolution_road::Bunker;
use muster_revolution_road::bunker::data::{DATA_FILES, RegionKind};
use muster_revolution_road::bunker::sequence::Board;
use muster_revolution_road::bunker::state::*;

#[test]
fn data_adjacency_agrees_with_the_geometry() {
    let g = game();
    let map = &g.data.map;
    for a in 0..map.n() {
        for b in 0..map.n() {
            if a == b {
                continue;
            }
            let adj = map.adjacent(a as u8, b as u8);
            let border = map.shared_border(a, b);
            if adj {
                assert!(
                    border,
                    "{} and {} are adjacent but share no border",
                    map.regions[a].id, map.regions[b].id
                );
            }
            let land = |i: usize| map.regions[i].kind != RegionKind::Zone;
            if border && land(a) && land(b) {
                assert!(
                    adj,
                    "{} and {} share a border but are not adjacent",
                    map.regions[a].id, map.regions[b].id
                );
            }
        }
    }
}

#[test]
fn data_map_has_the_printed_features() {
    let g = game();
    let map = &g.data.map;
    assert_eq!(map.town.count_ones(), 10, "3.3: ten town regions");
    assert_eq!(
        [
            map.hills[0].count_ones(),
            map.hills[1].count_ones(),
            map.hills[2].count_ones()
        ],
        [1, 2, 3]
    );
    let staging: Vec<u8> = map
        .regions
        .iter()
        .filter(|r| r.staging_zone > 0)
        .map(|r| r.staging_zone)
        .collect();
    assert_eq!(
        staging.len(),
        8,
        "3.5: zones 2 and 3 have two staging areas, the others one"
    );
    // 12.3: the two interior town regions are surrounded by town regions only.
    for id in ["town-5", "town-6"] {
        let x = r(&g, id) as usize;
        assert_eq!(map.regions[x].adj & !map.town, 0, "{id} is interior");
    }
    assert!(map.adjacent(r(&g, "works-s"), r(&g, "redoubt")));
    assert!(map.adjacent(r(&g, "mystic-shore"), r(&g, "works-n")));
    assert!(map.adjacent(r(&g, "mystic-shore"), r(&g, "bunker-n")));
}

#[test]
fn rule_7_2_printed_example_redoubt_and_staging_area_6_cannot_see_each_other() {
    let g = game();
    let (red, sa6) = (r(&g, "redoubt"), r(&g, "town-dock"));
    assert_eq!(g.data.map.regions[sa6 as usize].staging_zone, 6);
    let crossed = g.data.map.crossed(red as usize, sa6 as usize);
    assert!(
        crossed.contains(&(r(&g, "ridge-s") as usize)),
        "the line runs over the ridge: {crossed:?}"
    );
    let b = Board::of(&empty(&g));
    assert!(
        !g.sees(&b, red, sa6),
        "the ridge makes Staging Area 6 a blind region"
    );
    assert!(!g.sees(&b, sa6, red), "and the converse");
}

#[test]
fn rule_7_2_adjacent_regions_always_see_each_other() {
    let g = game();
    let mut s = empty(&g);
    for r in 0..g.data.map.n() as u8 {
        if g.data.map.regions[r as usize].kind != RegionKind::Zone {
            s.units[0].at = r;
        }
    }
    let b = Board::of(&s);
    let map = &g.data.map;
    for a in 0..map.n() as u8 {
        for x in 0..map.n() as u8 {
            if map.adjacent(a, x) && map.land >> a & 1 == 1 && map.land >> x & 1 == 1 {
                assert!(g.sees(&b, a, x));
            }
        }
    }
}

#[test]
fn rule_7_2_every_computed_line_follows_the_printed_cases() {
    let g = game();
    let map = &g.data.map;
    for a in 0..map.n() {
        for b in 0..map.n() {
            if a == b || map.adjacent(a as u8, b as u8) {
                continue;
            }
            let sight = map.sight(a as u8, b as u8);
            assert_eq!(
                sight,
                map.sight(b as u8, a as u8),
                "the converse is also true"
            );
            let crossed = map.crossed(a, b);
            let (ea, eb) = (map.regions[a].elevation, map.regions[b].elevation);
            if crossed
                .iter()
                .any(|&c| map.regions[c].kind == RegionKind::Town)
            {
                assert!(sight.blocked, "fire goes into but not through town regions");
            }
            if ea.min(eb) < 2 && crossed.iter().any(|&c| map.regions[c].elevation == 2) {
                assert!(sight.blocked, "an elevation 2 region blocks lower fire");
            }
            if ea == eb && ea < 2 && !sight.blocked {
                for &c in &crossed {
                    assert_eq!(
                        sight.units >> c & 1,
                        1,
                        "intervening units block at the same elevation"
                    );
                }
            }
            if ea != eb {
                assert_eq!(sight.units, 0, "firing up or down passes over units");
            }
        }
    }
}

#[test]
fn rule_7_2_units_block_a_line_at_the_same_elevation_leaders_do_not() {
    let g = game();
    let map = &g.data.map;
    // Find a clear low-to-low line over a low region.
    let mut found = None;
    'o: for a in 0..map.n() {
        for b in 0..map.n() {
            let s = map.sight(a as u8, b as u8);
            if map.regions[a].elevation == 0
                && map.regions[b].elevation == 0
                && !s.blocked
                && s.units != 0
            {
                found = Some((a as u8, b as u8, s.units.trailing_zeros() as u8));
                break 'o;
            }
        }
    }
    let (a, b, mid) = found.expect("some line over a low region");
    let mut s = empty(&g);
    assert!(g.sees(&Board::of(&s), a, b));
    let l = s
        .units
        .iter()
        .position(|u| u.kind == Kind::Leader && u.at == UNUSED)
        .unwrap();
    s.units[l].at = mid;
    assert!(
        g.sees(&Board::of(&s), a, b),
        "a leader alone does not block"
    );
    let m = s
        .units
        .iter()
        .position(|u| u.kind == Kind::Minuteman && u.at == UNUSED)
        .unwrap();
    s.units[m].at = mid;
    assert!(!g.sees(&Board::of(&s), a, b), "a military unit blocks");
}

fn files_with(name: &str, text: String) -> Vec<(String, &'static str, String)> {
    DATA_FILES
        .iter()
        .map(|(f, t)| {
            let body = if *f == name {
                text.clone()
            } else {
                t.to_string()
            };
            (format!("test/{f}"), *f, body)
        })
        .collect()
}

fn text_of(name: &str) -> String {
    DATA_FILES
        .iter()
        .find(|f| f.0 == name)
        .unwrap()
        .1
        .to_string()
}

#[test]
fn data_loader_errors_name_the_file_and_the_item() {
    let map = text_of("map.toml").replacen(
        "adjacent = [\"neck\", \"bunker-slope-w\"",
        "adjacent = [\"bunker-slope-w\"",
        1,
    );
    let e = Bunker::from_files(&files_with("map.toml", map))
        .err()
        .unwrap();
    assert!(e.contains("map.toml") && e.contains("neck"), "{e}");
    let map = text_of("map.toml").replacen("elevation = 2", "elevation = 1", 1);
    let e = Bunker::from_files(&files_with("map.toml", map))
        .err()
        .unwrap();
    assert!(e.contains("map.toml") && e.contains("region"), "{e}");
    let cards = text_of("cards.toml").replace("id = 6,", "id = 7,");
    let e = Bunker::from_files(&files_with("cards.toml", cards))
        .err()
        .unwrap();
    assert!(e.contains("cards.toml") && e.contains("card 7"), "{e}");
    let vp = text_of("vp.toml").replace("id = \"breeds\"", "id = \"copps\"");
    let e = Bunker::from_files(&files_with("vp.toml", vp))
        .err()
        .unwrap();
    assert!(e.contains("vp.toml") && e.contains("copps"), "{e}");
}

#[test]
fn data_from_dir_reads_corrections_and_refuses_missing_folders() {
    let dir = std::env::temp_dir().join(format!("bunker-data-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("bunker-hill")).unwrap();
    std::fs::write(
        dir.join("bunker-hill/vp.toml"),
        text_of("vp.toml").replace("points = 6", "points = 8"),
    )
    .unwrap();
    let g = Bunker::from_dir(&dir).unwrap();
    assert_eq!(g.data.vp.hill[2], 8);
    assert!(Bunker::from_dir(&dir.join("nope")).is_err());
    std::fs::remove_dir_all(&dir).ok();
}
