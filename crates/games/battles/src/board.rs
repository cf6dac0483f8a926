//! Who stands where: occupancy and enemy adjacency, rebuilt from the units when needed.

use crate::data::Scenario;
use crate::map::NO_HEX;
use crate::state::{Loc, State};
use muster_core::hex::{Hex, SLOTS};

/// Occupancy of every hex: unit index + 1, or 0 for empty.
pub struct Board {
    occ: [u8; SLOTS],
}

impl Board {
    pub fn new(s: &State) -> Board {
        let mut occ = [0u8; SLOTS];
        for (i, u) in s.units.iter().enumerate() {
            if let Loc::Map(h) = u.at {
                occ[h.slot()] = i as u8 + 1;
            }
        }
        Board { occ }
    }

    #[inline]
    pub fn at_slot(&self, slot: usize) -> Option<u8> {
        match self.occ[slot] {
            0 => None,
            n => Some(n - 1),
        }
    }

    #[inline]
    pub fn empty(&self, h: Hex) -> bool {
        self.occ[h.slot()] == 0
    }
}

/// Hexes next to at least one unit of `enemy`.
pub fn adjacent_to(sc: &Scenario, s: &State, enemy: u8) -> [bool; SLOTS] {
    let mut mask = [false; SLOTS];
    for (i, u) in s.units.iter().enumerate() {
        if let Loc::Map(h) = u.at
            && sc.units[i].side == enemy
        {
            for &n in sc.map.neighbors_of(h.slot()) {
                if n != NO_HEX {
                    mask[n as usize] = true;
                }
            }
        }
    }
    mask
}

/// Current combat factor (§2: reduced units use their back).
pub fn cf(sc: &Scenario, s: &State, i: u8) -> u8 {
    let d = &sc.units[i as usize];
    if s.units[i as usize].reduced {
        d.reduced_cf
    } else {
        d.cf
    }
}

/// Current movement points.
pub fn mp(sc: &Scenario, s: &State, i: u8) -> u8 {
    let d = &sc.units[i as usize];
    if s.units[i as usize].reduced {
        d.reduced_mp
    } else {
        d.mp
    }
}

pub fn side_of(sc: &Scenario, i: u8) -> u8 {
    sc.units[i as usize].side
}

/// Units of `side` on the map, by index.
pub fn on_map<'a>(
    sc: &'a Scenario,
    s: &'a State,
    side: u8,
) -> impl Iterator<Item = (u8, Hex)> + 'a {
    let units = &sc.units;
    s.units
        .iter()
        .enumerate()
        .filter_map(move |(i, u)| match u.at {
            Loc::Map(h) if units[i].side == side => Some((i as u8, h)),
            _ => None,
        })
}

/// Is any unit of `side` next to `h`?
pub fn next_to(sc: &Scenario, s: &State, h: Hex, side: u8) -> bool {
    on_map(sc, s, side).any(|(_, x)| sc.map.adjacent(h, x))
}
