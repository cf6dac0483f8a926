//! The pieces of the `muster` command that tests and other front ends reuse: the registry of
//! every game, and the engine protocol (`docs/protocol.md`).

pub mod choices;
pub mod engine;
pub mod loadtest;

use muster_core::Registry;
use std::path::Path;

/// The bots of every game Muster holds (every game type in [`registry`] must be here).
pub fn bots() -> muster_ai::Bots {
    let mut b = muster_ai::Bots::new();
    b.add::<muster_battles::Battles>();
    b.add::<muster_supply_lines::SupplyLines>();
    b.add::<muster_revolution_road::Concord>();
    b.add::<muster_revolution_road::Bunker>();
    b
}

/// What `--data DIR` may hold: one folder per game, named by its game id (`DIR/battles/`,
/// `DIR/supply-lines/`, `DIR/concord/`, `DIR/bunker-hill/`), with the data files that game
/// reads, each file optional. In the order of [`registry`].
pub fn data_layout() -> Vec<(&'static str, Vec<&'static str>)> {
    let names = |files: &[(&'static str, &'static str)]| files.iter().map(|f| f.0).collect();
    vec![
        ("battles", names(&muster_battles::DATA_FILES)),
        ("supply-lines", names(&muster_supply_lines::DATA_FILES)),
        (
            "concord",
            names(&muster_revolution_road::concord::data::DATA_FILES),
        ),
        (
            "bunker-hill",
            names(&muster_revolution_road::bunker::data::DATA_FILES),
        ),
    ]
}

/// Checks that `dir` holds only the folders and files of [`data_layout`] (a misspelt folder or
/// file would otherwise be ignored and the built-in data used in its place). Names starting
/// with `.` (`.DS_Store`, `.git`) are skipped.
pub fn check_data_dir(dir: &Path) -> Result<(), String> {
    let layout = data_layout();
    let folders = layout
        .iter()
        .map(|(g, _)| format!("{}/", dir.join(g).display()))
        .collect::<Vec<_>>()
        .join(", ");
    for entry in entries(dir)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let Some((game, files)) = layout.iter().find(|(g, _)| *g == name) else {
            return Err(format!(
                "{}: not a data folder; the data folders are {folders} (one per game id)",
                path.display()
            ));
        };
        if !path.is_dir() {
            return Err(format!(
                "{}: must be a folder holding {game}'s data files ({})",
                path.display(),
                files.join(", ")
            ));
        }
        for file in entries(&path)? {
            let fname = file.file_name().to_string_lossy().into_owned();
            let fpath = file.path();
            if !files.contains(&fname.as_str()) {
                return Err(format!(
                    "{}: not a data file of {game}; {}/ holds only {}",
                    fpath.display(),
                    path.display(),
                    files.join(", ")
                ));
            }
            if !fpath.is_file() {
                return Err(format!("{}: must be a file", fpath.display()));
            }
        }
    }
    Ok(())
}

/// The entries of a folder, sorted by name, without those whose name starts with `.`.
fn entries(dir: &Path) -> Result<Vec<std::fs::DirEntry>, String> {
    if !dir.is_dir() {
        return Err(format!("{}: no such data folder", dir.display()));
    }
    let mut list = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let e = e.map_err(|e| format!("{}: {e}", dir.display()))?;
        if !e.file_name().to_string_lossy().starts_with('.') {
            list.push(e);
        }
    }
    list.sort_by_key(|e| e.file_name());
    Ok(list)
}

/// Every game Muster holds. With `data`, scenario files found under it replace the built-in
/// ones (a player correcting a map or a counter from the printed game); the folder must hold
/// only the layout of [`data_layout`].
pub fn registry(data: Option<&Path>) -> Result<Registry, String> {
    if let Some(dir) = data {
        check_data_dir(dir)?;
    }
    let mut r = Registry::new();
    let battles = match data {
        Some(dir) => {
            let b = muster_battles::Battles::from_dir(dir)?;
            // A battles file names its scenario: DIR/battles/oriskany.toml must hold scenario
            // "oriskany", or the corrected file would replace a scenario under another id.
            for ((file, _), s) in muster_battles::DATA_FILES.iter().zip(b.scenarios()) {
                let want = file.trim_end_matches(".toml");
                if s.id != want {
                    return Err(format!(
                        "{}: scenario id {:?}: this file holds scenario {want:?} (its name names \
                         the scenario), so its id must be {want:?}",
                        dir.join("battles").join(file).display(),
                        s.id
                    ));
                }
            }
            b
        }
        None => muster_battles::Battles::new()?,
    };
    r.add(battles);
    let supply_lines = match data {
        Some(dir) => muster_supply_lines::SupplyLines::from_dir(dir)?,
        None => muster_supply_lines::SupplyLines::new()?,
    };
    r.add(supply_lines);
    let concord = match data {
        Some(dir) => muster_revolution_road::Concord::from_dir(dir)?,
        None => muster_revolution_road::Concord::new()?,
    };
    r.add(concord);
    let bunker_hill = match data {
        Some(dir) => muster_revolution_road::Bunker::from_dir(dir)?,
        None => muster_revolution_road::Bunker::new()?,
    };
    r.add(bunker_hill);
    Ok(r)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_data_layout_names_every_game_by_its_id() {
        let r = super::registry(None).unwrap();
        let ids: Vec<_> = r.games().iter().map(|g| g.id.clone()).collect();
        let folders: Vec<_> = super::data_layout()
            .iter()
            .map(|l| l.0.to_string())
            .collect();
        assert_eq!(folders, ids);
    }
}
