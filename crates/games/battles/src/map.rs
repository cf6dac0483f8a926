//! The hex map (rulebook §1 Game Board, §7 Board and Game Explanation): terrain per hex, and
//! roads, rivers and bridges along hexsides.

use muster_core::hex::{Grid, Hex, SLOTS};

/// The terrain of a hex (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Not part of the map.
    None,
    Clear,
    Woods,
    Hill,
    /// Farm (Freeman's Farm): clear for movement, +2 CF to a defender.
    Farm,
    /// Impassable.
    Swamp,
}

impl Terrain {
    pub fn from_code(code: &str) -> Option<Terrain> {
        Some(match code {
            "-" => Terrain::None,
            "." => Terrain::Clear,
            "w" => Terrain::Woods,
            "h" => Terrain::Hill,
            "f" => Terrain::Farm,
            "s" => Terrain::Swamp,
            _ => return None,
        })
    }

    pub fn code(self) -> char {
        match self {
            Terrain::None => ' ',
            Terrain::Clear => '.',
            Terrain::Woods => 'w',
            Terrain::Hill => 'h',
            Terrain::Farm => 'f',
            Terrain::Swamp => 's',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::None => "off the map",
            Terrain::Clear => "clear",
            Terrain::Woods => "woods",
            Terrain::Hill => "hill",
            Terrain::Farm => "farm",
            Terrain::Swamp => "swamp",
        }
    }

    /// Woods and hills cost +1 MP to enter (§5.1, §7).
    pub fn costs_extra(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Hill)
    }

    /// Woods, hills and farms give the defender +2 CF (§6.2, §7).
    pub fn defends(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Hill | Terrain::Farm)
    }
}

/// Hexside flags.
pub const ROAD: u8 = 1;
pub const RIVER: u8 = 2;
pub const BRIDGE: u8 = 4;
/// No neighbour in that direction.
pub const NO_HEX: u8 = u8::MAX;

/// A checked map with its adjacency precomputed.
#[derive(Clone, Debug)]
pub struct Map {
    pub grid: Grid,
    terrain: [Terrain; SLOTS],
    sides: [[u8; 6]; SLOTS],
    /// Slot of the neighbour in each direction, or [`NO_HEX`].
    neighbors: [[u8; 6]; SLOTS],
}

impl Map {
    pub fn new(grid: Grid, terrain: [Terrain; SLOTS]) -> Map {
        let mut neighbors = [[NO_HEX; 6]; SLOTS];
        for h in grid.hexes() {
            if terrain[h.slot()] == Terrain::None {
                continue;
            }
            for (d, slot) in neighbors[h.slot()].iter_mut().enumerate() {
                if let Some(n) = grid.neighbor(h, d)
                    && terrain[n.slot()] != Terrain::None
                {
                    *slot = n.slot() as u8;
                }
            }
        }
        Map {
            grid,
            terrain,
            sides: [[0; 6]; SLOTS],
            neighbors,
        }
    }

    /// Is the hex part of the map?
    #[inline]
    pub fn exists(&self, h: Hex) -> bool {
        self.grid.contains(h) && self.terrain[h.slot()] != Terrain::None
    }

    /// May a unit enter it (on the map and not swamp)?
    #[inline]
    pub fn passable(&self, h: Hex) -> bool {
        self.exists(h) && self.terrain[h.slot()] != Terrain::Swamp
    }

    #[inline]
    pub fn terrain(&self, h: Hex) -> Terrain {
        if self.grid.contains(h) {
            self.terrain[h.slot()]
        } else {
            Terrain::None
        }
    }

    #[inline]
    pub fn terrain_at(&self, slot: usize) -> Terrain {
        self.terrain[slot]
    }

    /// The flags of the hexside of `h` in direction `dir`.
    #[inline]
    pub fn side(&self, h: Hex, dir: usize) -> u8 {
        self.sides[h.slot()][dir]
    }

    #[inline]
    pub fn side_at(&self, slot: usize, dir: usize) -> u8 {
        self.sides[slot][dir]
    }

    /// Sets a flag on a hexside, on both of its hexes.
    pub fn set_side(&mut self, h: Hex, dir: usize, flag: u8) {
        self.sides[h.slot()][dir] |= flag;
        if let Some(n) = self.grid.neighbor(h, dir) {
            self.sides[n.slot()][(dir + 3) % 6] |= flag;
        }
    }

    /// Neighbour slots of a slot.
    #[inline]
    pub fn neighbors_of(&self, slot: usize) -> &[u8; 6] {
        &self.neighbors[slot]
    }

    /// The flags of the hexside between two adjacent hexes (0 if they are not adjacent).
    pub fn between(&self, a: Hex, b: Hex) -> u8 {
        match self.grid.direction(a, b) {
            Some(d) => self.sides[a.slot()][d],
            None => 0,
        }
    }

    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        self.neighbors[a.slot()].contains(&(b.slot() as u8))
    }

    pub fn distance(&self, a: Hex, b: Hex) -> u8 {
        self.grid.distance(a, b)
    }

    /// Every hex of the map.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.grid.hexes().filter(|h| self.exists(*h))
    }
}
