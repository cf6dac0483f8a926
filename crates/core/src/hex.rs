//! Shared helpers for hex maps labelled the wargame way: a column letter (A, B, ...) from west
//! to east and a row number (1, 2, ...) from north to south, with flat-topped hexes in
//! vertical columns, every other column sitting half a hex lower.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The largest map side supported (columns A..P, rows 1..16).
pub const MAX_SIDE: u8 = 16;
/// Number of slots in a dense per-hex array.
pub const SLOTS: usize = (MAX_SIDE as usize) * (MAX_SIDE as usize);

/// A hex, by column (0 = `A`) and row (0 = `1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hex {
    pub col: u8,
    pub row: u8,
}

impl Hex {
    pub const fn new(col: u8, row: u8) -> Hex {
        Hex { col, row }
    }

    /// Dense index in `0..SLOTS`.
    #[inline]
    pub fn slot(self) -> usize {
        self.row as usize * MAX_SIDE as usize + self.col as usize
    }

    /// The hex of a dense index.
    #[inline]
    pub fn from_slot(slot: usize) -> Hex {
        Hex {
            col: (slot % MAX_SIDE as usize) as u8,
            row: (slot / MAX_SIDE as usize) as u8,
        }
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col) as char, self.row as u32 + 1)
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromStr for Hex {
    type Err = String;
    fn from_str(s: &str) -> Result<Hex, String> {
        let s = s.trim();
        let mut chars = s.chars();
        let letter = chars
            .next()
            .ok_or_else(|| "empty hex label".to_string())?
            .to_ascii_uppercase();
        let bad = || format!("{s:?} is not a hex label like \"E2\" (column A-P, row 1-16)");
        if !('A'..='P').contains(&letter) {
            return Err(bad());
        }
        let row: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if row == 0 || row > MAX_SIDE {
            return Err(bad());
        }
        Ok(Hex {
            col: letter as u8 - b'A',
            row: row - 1,
        })
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Which columns sit half a hex lower than their neighbours.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LowColumns {
    /// B, D, F, ... (the second, fourth, ... columns).
    Even,
    /// A, C, E, ...
    Odd,
}

/// The shape of a rectangular hex grid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Grid {
    pub cols: u8,
    pub rows: u8,
    pub low: LowColumns,
}

/// The six directions of a flat-topped hex, clockwise from north.
pub const DIRECTIONS: [&str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];

impl Grid {
    /// Is the hex inside the rectangle?
    pub fn contains(&self, h: Hex) -> bool {
        h.col < self.cols && h.row < self.rows
    }

    fn is_low(&self, col: u8) -> bool {
        // Column A has index 0 and is the first ("odd") column.
        match self.low {
            LowColumns::Even => col % 2 == 1,
            LowColumns::Odd => col % 2 == 0,
        }
    }

    /// Cube coordinates (q, r, s) of a hex.
    pub fn cube(&self, h: Hex) -> (i32, i32, i32) {
        let q = h.col as i32;
        let odd = q & 1;
        // Offset-to-axial: the low columns are shifted half a hex south.
        let r = match self.low {
            LowColumns::Even => h.row as i32 - (q - odd) / 2,
            LowColumns::Odd => h.row as i32 - (q + odd) / 2,
        };
        (q, r, -q - r)
    }

    /// Hex distance on this grid.
    pub fn distance(&self, a: Hex, b: Hex) -> u8 {
        let (aq, ar, as_) = self.cube(a);
        let (bq, br, bs) = self.cube(b);
        ((aq - bq).abs().max((ar - br).abs()).max((as_ - bs).abs())) as u8
    }

    /// The neighbour in direction `dir` (0 = N, clockwise), if it is on the grid.
    pub fn neighbor(&self, h: Hex, dir: usize) -> Option<Hex> {
        let col = h.col as i32;
        let row = h.row as i32;
        let low = self.is_low(h.col);
        // Rows of the east/west neighbours: a low column touches rows r and r+1 of the
        // columns beside it; a high column touches rows r-1 and r.
        let (upper, lower) = if low { (row, row + 1) } else { (row - 1, row) };
        let (c, r) = match dir {
            0 => (col, row - 1),
            1 => (col + 1, upper),
            2 => (col + 1, lower),
            3 => (col, row + 1),
            4 => (col - 1, lower),
            5 => (col - 1, upper),
            _ => return None,
        };
        if c < 0 || r < 0 || c >= self.cols as i32 || r >= self.rows as i32 {
            return None;
        }
        Some(Hex::new(c as u8, r as u8))
    }

    /// The direction from `a` to an adjacent hex `b`.
    pub fn direction(&self, a: Hex, b: Hex) -> Option<usize> {
        (0..6).find(|&d| self.neighbor(a, d) == Some(b))
    }

    /// Every hex of the rectangle, column by column.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.cols).flat_map(move |c| (0..self.rows).map(move |r| Hex::new(c, r)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().unwrap()
    }

    #[test]
    fn labels_round_trip() {
        assert_eq!(h("E2"), Hex::new(4, 1));
        assert_eq!(h("L10").to_string(), "L10");
        assert!("Z1".parse::<Hex>().is_err());
        assert!("A0".parse::<Hex>().is_err());
        assert!("A".parse::<Hex>().is_err());
        assert!("B17".parse::<Hex>().is_err());
    }

    #[test]
    fn neighbours_of_low_and_high_columns() {
        let g = Grid {
            cols: 12,
            rows: 10,
            low: LowColumns::Even,
        };
        // C is a high column: it touches rows r-1 and r of the columns beside it.
        let c5: Vec<String> = (0..6)
            .filter_map(|d| g.neighbor(h("C5"), d))
            .map(|x| x.to_string())
            .collect();
        assert_eq!(c5, ["C4", "D4", "D5", "C6", "B5", "B4"]);
        // D is a low column: rows r and r+1 beside it.
        let d5: Vec<String> = (0..6)
            .filter_map(|d| g.neighbor(h("D5"), d))
            .map(|x| x.to_string())
            .collect();
        assert_eq!(d5, ["D4", "E5", "E6", "D6", "C6", "C5"]);
    }

    #[test]
    fn adjacency_is_symmetric_and_distance_one() {
        for low in [LowColumns::Even, LowColumns::Odd] {
            let g = Grid {
                cols: 9,
                rows: 7,
                low,
            };
            for a in g.hexes() {
                for d in 0..6 {
                    if let Some(b) = g.neighbor(a, d) {
                        assert_eq!(g.neighbor(b, (d + 3) % 6), Some(a));
                        assert_eq!(g.distance(a, b), 1, "{a} {b} {low:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn distance_matches_breadth_first_search() {
        for low in [LowColumns::Even, LowColumns::Odd] {
            let g = Grid {
                cols: 10,
                rows: 8,
                low,
            };
            for a in g.hexes() {
                let mut dist = [u8::MAX; SLOTS];
                dist[a.slot()] = 0;
                let mut queue = std::collections::VecDeque::from([a]);
                while let Some(x) = queue.pop_front() {
                    for d in 0..6 {
                        if let Some(y) = g.neighbor(x, d)
                            && dist[y.slot()] == u8::MAX
                        {
                            dist[y.slot()] = dist[x.slot()] + 1;
                            queue.push_back(y);
                        }
                    }
                }
                for b in g.hexes() {
                    assert_eq!(g.distance(a, b), dist[b.slot()], "{a}->{b} {low:?}");
                }
            }
        }
    }
}
