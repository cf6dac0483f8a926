//! The data files: the built-in ones load, every reconstruction is reported, and a broken file
//! is refused with a message naming the file and the item at fault.

use muster_supply_lines::{DATA_FILES, SupplyLines};

fn with(file: &str, from: &str, to: &str) -> Result<SupplyLines, String> {
    let texts: Vec<(String, String)> = DATA_FILES
        .iter()
        .map(|(f, t)| {
            let t = if *f == file {
                assert!(t.contains(from), "{from:?} not in {f}");
                t.replacen(from, to, 1)
            } else {
                t.to_string()
            };
            (f.to_string(), t)
        })
        .collect();
    SupplyLines::from_texts(&texts)
}

fn err(file: &str, from: &str, to: &str) -> String {
    match with(file, from, to) {
        Ok(_) => panic!("{file}: {from:?} -> {to:?} was accepted"),
        Err(e) => e,
    }
}

#[test]
fn built_in_data_loads_and_lists_its_reconstructions() {
    let g = SupplyLines::new().unwrap();
    let info = muster_core::Game::info(&g);
    let r = &info.scenarios[0].reconstructed;
    for item in ["map", "turn", "pass", "support", "crown", "patriot"] {
        assert!(r.iter().any(|x| x.contains(item)), "{item} in {r:?}");
    }
}

#[test]
fn a_line_listed_from_one_end_only_is_refused() {
    let e = err(
        "map.toml",
        "lines = [\"quebec\", \"kennebec\"]",
        "lines = [\"quebec\"]",
    );
    assert!(
        e.contains("map.toml") && e.contains("kennebec") && e.contains("chaudiere"),
        "{e}"
    );
}

#[test]
fn an_unknown_area_is_refused() {
    let e = err(
        "map.toml",
        "lines = [\"tiverton\"]",
        "lines = [\"tiverton\", \"atlantis\"]",
    );
    assert!(e.contains("atlantis") && e.contains("newport"), "{e}");
    let e = err("reinforcements.toml", "\"york\"", "\"yorktown\"");
    assert!(
        e.contains("reinforcements.toml") && e.contains("yorktown"),
        "{e}"
    );
    let e = err("tracks.toml", "area = \"albany\"", "area = \"albanny\"");
    assert!(e.contains("tracks.toml") && e.contains("albanny"), "{e}");
}

#[test]
fn bad_kinds_and_tracks_are_refused() {
    let e = err(
        "map.toml",
        "kind = \"fort\"\nwar = 1",
        "kind = \"castle\"\nwar = 1",
    );
    assert!(e.contains("castle"), "{e}");
    let e = err(
        "map.toml",
        "kind = \"point\"\nlines = [\"quebec\", \"montreal\"]",
        "kind = \"point\"\nwar = 3\nlines = [\"quebec\", \"montreal\"]",
    );
    assert!(e.contains("trois-rivieres") && e.contains("forts"), "{e}");
    let e = err(
        "tracks.toml",
        "{ draws = 0, treaty = true }",
        "{ draws = 0 }",
    );
    assert!(e.contains("Treaty"), "{e}");
    let e = err("tracks.toml", "rolls = [5, 6]", "rolls = [5]");
    assert!(e.contains("6"), "{e}");
    let e = err(
        "tracks.toml",
        "vc = 6, asterisk = true",
        "vc = 2, asterisk = true",
    );
    assert!(e.contains("marker \"4\""), "{e}");
    let e = err("tracks.toml", "winter = [4, 8]", "winter = [4, 13]");
    assert!(e.contains("13"), "{e}");
}

#[test]
fn from_dir_reads_corrections_and_falls_back_to_built_in_files() {
    let dir = std::env::temp_dir().join(format!("muster-sl-{}", std::process::id()));
    let sub = dir.join("supply-lines");
    std::fs::create_dir_all(&sub).unwrap();
    let tracks = DATA_FILES[1].1.replace("capacity = 8", "capacity = 9");
    std::fs::write(sub.join("tracks.toml"), tracks).unwrap();
    let g = SupplyLines::from_dir(&dir).unwrap();
    assert_eq!(g.data().capacity, 9);
    std::fs::write(sub.join("map.toml"), "[[area]]\nid = \"x\"").unwrap();
    let e = SupplyLines::from_dir(&dir).err().unwrap();
    assert!(e.contains("map.toml"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(SupplyLines::from_dir(&dir).is_err());
}
