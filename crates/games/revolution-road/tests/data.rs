//! The data files: the reconstructed deck against every published fact (2.0, Part Two 12.1,
//! 15.3, 15.4), the reconstructed map against every hint of the rules and FAQ (3.0, 4.3, 4.7,
//! 9.0, 15.1, 15.2), the set-ups (15.1, 15.2), and clear errors for broken files.

mod common;
use common::*;
use muster_revolution_road::concord::data::{self, DATA_FILES};
use muster_revolution_road::concord::state::*;

#[test]
fn rule_2_0_the_deck_agrees_with_every_published_fact() {
    let g = game();
    let cards = &g.data.cards.cards;
    assert_eq!(cards.len(), 22);
    let with = |h: u8| cards.iter().filter(|c| c.hash == h).count();
    assert_eq!([with(0), with(1), with(2), with(3)], [12, 4, 4, 2]);
    assert!(cards.iter().any(|c| c.british == 5) && cards.iter().any(|c| c.patriot == 5));
    assert!(
        cards
            .iter()
            .all(|c| c.british <= 5 && c.patriot <= 5 && c.british >= 1 && c.patriot >= 1)
    );
    // Bunker Hill's ten cards mostly give both sides equal actions.
    let bh = [1u8, 6, 8, 10, 11, 12, 13, 14, 16, 17];
    let equal = bh.iter().filter(|id| {
        let c = g.data.cards.get(**id);
        c.british == c.patriot
    });
    assert!(equal.count() >= 6, "most Bunker Hill cards are even");
    // 15.3 and 15.4 leave playable decks, each removing what they say and nothing else.
    for (mode, side) in [
        (Mode::SolitaireBritish, BRITISH),
        (Mode::SolitairePatriot, PATRIOT),
    ] {
        let kept = g.deck_ids(mode);
        assert!(kept.len() >= 10, "{mode:?} keeps {} cards", kept.len());
        for c in cards {
            let (mine, theirs) = if side == BRITISH {
                (c.british, c.patriot)
            } else {
                (c.patriot, c.british)
            };
            let removed = mine == 5 || mine > theirs;
            assert_eq!(kept.contains(&c.id), !removed, "card {}", c.id);
        }
    }
}

#[test]
fn rule_3_0_the_map_follows_the_rules_hints() {
    let g = game();
    let m = &g.data.map;
    let r = |id: &str| region(&g, id);
    // FAQ: the thirteen gather towns, Charlestown already mustering.
    let towns = [
        "concord",
        "lincoln",
        "lexington",
        "waltham",
        "menotomy",
        "watertown",
        "medford",
        "watsons-corner",
        "cambridge",
        "brookline",
        "winnisimmet",
        "roxbury",
        "charlestown",
    ];
    let gathers: Vec<&str> = m
        .regions
        .iter()
        .filter(|x| x.gather != 0)
        .map(|x| x.id.as_str())
        .collect();
    assert_eq!(gathers.len(), 13);
    for t in towns {
        assert!(gathers.contains(&t), "{t}");
    }
    assert_eq!(m.regions[r("charlestown") as usize].gather, 2);
    // 4.7 / 15.1: thirteen hidden arms, the numbered ones where 15.1 puts them.
    assert_eq!(m.regions.iter().filter(|x| x.arms.is_some()).count(), 13);
    for (id, n) in [
        ("menotomy", 1),
        ("watertown", 2),
        ("lexington", 3),
        ("lincoln", 4),
        ("barretts-farm", 5),
    ] {
        assert_eq!(m.regions[r(id) as usize].arms, Some(n), "{id}");
    }
    assert!(m.regions[r("boston") as usize].arms.is_none());
    assert!(
        m.regions[r("concord") as usize].arms.is_none(),
        "Concord's cache is at Barrett's farm"
    );
    assert!(m.adjacent(r("concord"), r("barretts-farm")));
    assert!(
        m.adjacent(r("cambridge"), r("prospect-hill"))
            && m.regions[r("prospect-hill") as usize].arms == Some(0)
    );
    // 3.0 / 9.0: two landing regions, Lechmere Point one of them.
    assert_eq!(m.landings.count_ones(), 2);
    assert!(m.regions[r("lechmere-point") as usize].landing);
    // The land road from Boston to Concord.
    let road = [
        "boston",
        "roxbury",
        "brookline",
        "cambridge",
        "menotomy",
        "lexington",
        "lincoln",
        "concord",
    ];
    for w in road.windows(2) {
        assert!(m.is_road(r(w[0]), r(w[1])), "{} - {}", w[0], w[1]);
    }
    // Revere's ride: Charlestown, Medford, Menotomy, Lexington, all by road.
    for w in ["charlestown", "medford", "menotomy", "lexington"].windows(2) {
        assert!(m.is_road(r(w[0]), r(w[1])));
    }
    // Boston touches the mainland only over the Neck.
    let boston_adj: Vec<u8> = (0..m.regions.len() as u8)
        .filter(|x| m.adjacent(r("boston"), *x))
        .collect();
    assert_eq!(boston_adj, vec![r("roxbury")]);
    // Alert boxes sit on map edges and lead onto regions of that edge.
    for (i, x) in m.regions.iter().enumerate() {
        if x.alert_box {
            assert!(x.edge.is_some());
            assert!(m.adj[i] != 0);
            for t in 0..m.regions.len() {
                if m.adj[i] & (1u64 << t) != 0 {
                    assert_eq!(m.regions[t].edge, x.edge);
                }
                assert!(m.adj[t] & (1u64 << i) == 0, "nobody enters an alert box");
            }
        }
    }
}

#[test]
fn rule_15_1_standard_setup() {
    let g = game();
    let s = g.start(Mode::Standard, Opts::default(), 1);
    let count = |f: &dyn Fn(usize, &Unit) -> bool| {
        s.units.iter().enumerate().filter(|(i, u)| f(*i, u)).count()
    };
    let boston = region(&g, "boston");
    assert_eq!(
        count(&|_, u| u.kind == Kind::Regular && u.at == Loc::At(boston)),
        7
    );
    assert_eq!(
        count(&|_, u| u.at == Loc::Pending),
        10,
        "Percy, the cannon and eight Regulars wait"
    );
    assert_eq!(count(&|_, u| u.kind == Kind::Minuteman), 7);
    assert_eq!(
        count(&|i, u| u.kind == Kind::Leader && g.side_of(&s, i as u8) == PATRIOT),
        10
    );
    assert_eq!(
        count(&|_, u| u.kind == Kind::Hidden && matches!(u.at, Loc::At(_))),
        17,
        "one under each Gather and Alert marker"
    );
    assert_eq!(s.pool.len(), 21);
    let lex = region(&g, "lexington");
    for id in ["adams", "hancock", "prescott"] {
        let u = s.units[unit(&g, &s, id) as usize];
        assert_eq!(u.at, Loc::At(lex));
        assert!(u.under);
    }
    assert_eq!(
        s.units[unit(&g, &s, "revere") as usize].at,
        Loc::At(region(&g, "charlestown"))
    );
    assert_eq!(s.units[unit(&g, &s, "dawes") as usize].at, Loc::At(boston));
    assert!(
        matches!(s.phase, Phase::Riders { opening: true, .. }),
        "9.0: the free Call to Arms comes first"
    );
    assert_eq!(s.alert.iter().filter(|a| **a).count(), 4);
}

#[test]
fn rule_15_2_solitaire_setup() {
    let g = game();
    let s = g.start(Mode::SolitaireBritish, Opts::default(), 1);
    assert_eq!(s.turn, 8);
    let here = |id: &str| {
        let r = region(&g, id);
        s.units.iter().filter(move |u| u.at == Loc::At(r))
    };
    assert_eq!(
        here("boston").filter(|u| u.kind == Kind::Regular).count(),
        8
    );
    assert_eq!(here("boston").filter(|u| u.kind == Kind::Cannon).count(), 1);
    assert_eq!(
        here("concord")
            .filter(|u| u.kind == Kind::Regular && !u.flipped)
            .count(),
        3
    );
    assert_eq!(
        here("concord")
            .filter(|u| u.kind == Kind::Regular && u.flipped)
            .count(),
        4
    );
    assert_eq!(
        here("concord")
            .filter(|u| u.kind == Kind::Minuteman && u.flipped)
            .count(),
        2
    );
    assert_eq!(
        here("concord").filter(|u| u.kind == Kind::Militia).count(),
        5,
        "drawn from the pool"
    );
    assert_eq!(
        here("lincoln").filter(|u| u.kind == Kind::Militia).count(),
        3
    );
    assert_eq!(
        here("cambridge").filter(|u| u.kind == Kind::Hidden).count(),
        4
    );
    assert_eq!(
        here("watertown").filter(|u| u.kind == Kind::Hidden).count(),
        3
    );
    assert_eq!(
        here("lexington").filter(|u| u.kind == Kind::Hidden).count(),
        3
    );
    assert_eq!(s.pool.len(), 13);
    assert!(s.concord, "the British are in Concord already");
    assert!(s.gather.iter().all(|g| *g == NO_MARKER));
}

fn files_with(name: &str, text: String) -> Vec<(String, &'static str, String)> {
    DATA_FILES
        .iter()
        .map(|(f, t)| {
            let t = if *f == name {
                text.clone()
            } else {
                t.to_string()
            };
            (format!("test/{f}"), *f, t)
        })
        .collect()
}

fn builtin(name: &str) -> String {
    DATA_FILES
        .iter()
        .find(|f| f.0 == name)
        .unwrap()
        .1
        .to_string()
}

#[test]
fn broken_data_files_get_clear_errors() {
    let cases = [
        (
            "map.toml",
            builtin("map.toml").replace("\"lincoln\", \"concord\"", "\"lincoln\", \"concorde\""),
            "no region \"concorde\"",
        ),
        (
            "map.toml",
            builtin("map.toml").replace(
                "{ between = [\"concord\", \"barretts-farm\"],     road = true, water = \"dark\" }",
                "{ between = [\"concord\", \"barretts-farm\"], water = \"dark\" }",
            ),
            "dark-blue",
        ),
        (
            "map.toml",
            builtin("map.toml").replace(
                "name = \"Sewall's Point landing\",          landing = true",
                "name = \"Sewall's Point\"",
            ),
            "landing",
        ),
        (
            "cards.toml",
            builtin("cards.toml").replace("{ id = 22, british = 2, patriot = 3, hash = 0 },", ""),
            "22 cards",
        ),
        (
            "cards.toml",
            builtin("cards.toml").replace("{ id = 4,  british = 5,", "{ id = 4,  british = 6,"),
            "card 4",
        ),
        (
            "vp.toml",
            builtin("vp.toml").replace("[concord]", "[concorde]"),
            "concorde",
        ),
        (
            "scenarios.toml",
            builtin("scenarios.toml")
                .replace("leaders = [\"parker\"]", "leaders = [\"washington\"]"),
            "washington",
        ),
        (
            "scenarios.toml",
            builtin("scenarios.toml").replace(
                "{ at = \"waltham\",        hidden = 1, under = true }",
                "{ at = \"waltham\", hidden = 9, under = true }",
            ),
            "pool",
        ),
    ];
    for (file, text, needle) in cases {
        assert_ne!(
            text,
            builtin(file),
            "the test edit of {file} for {needle:?} must change it"
        );
        let err = match data::load(&files_with(file, text)) {
            Ok(_) => panic!("{file}: the edit for {needle:?} was accepted"),
            Err(e) => e,
        };
        assert!(err.contains(&format!("test/{file}")), "{err}");
        assert!(err.contains(needle), "{err} should mention {needle}");
    }
}

#[test]
fn data_folder_overrides_the_built_in_files() {
    let dir = std::env::temp_dir().join(format!("concord-data-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("concord")).unwrap();
    std::fs::write(dir.join("concord").join("vp.toml"), builtin("vp.toml").replace("[first_shot]                      # British: the Patriot fired first (10.0)\nvalue = 5", "[first_shot]\nvalue = 4")).unwrap();
    let g = muster_revolution_road::Concord::from_dir(&dir).unwrap();
    assert_eq!(g.data.vp.first_shot, 4);
    std::fs::write(dir.join("concord").join("cards.toml"), "cards = []").unwrap();
    let err = muster_revolution_road::Concord::from_dir(&dir)
        .err()
        .unwrap();
    assert!(err.contains("cards.toml"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
