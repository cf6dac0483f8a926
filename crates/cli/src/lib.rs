//! The pieces of the `muster` command that tests and other front ends reuse: the registry of
//! every game, and the engine protocol (`docs/protocol.md`).

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

/// Every game Muster holds. With `data`, scenario files found under it replace the built-in
/// ones (a player correcting a map or a counter from the printed game).
pub fn registry(data: Option<&Path>) -> Result<Registry, String> {
    let mut r = Registry::new();
    let battles = match data {
        Some(dir) => muster_battles::Battles::from_dir(dir)?,
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
