//! The militia draw pool (Part One 4.1, 15.1): 21 numbered militia pieces, five of strength 0,
//! eleven of strength 1 and five of strength 2. A hidden-value marker is exchanged for a piece
//! drawn at random from the pool when its strength must be known.

use muster_core::Dice;
use serde::{Deserialize, Serialize};

/// The pieces of the pool by strength: `[zeros, ones, twos]` (15.1).
pub const MILITIA_POOL: [u8; 3] = [5, 11, 5];

/// How many pieces of each strength are still in the cup. Which pieces have left the cup is
/// public (they are face up on the map), so nothing here is hidden from either side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MilitiaPool(pub [u8; 3]);

impl Default for MilitiaPool {
    fn default() -> Self {
        MilitiaPool(MILITIA_POOL)
    }
}

impl MilitiaPool {
    /// Pieces left in the cup.
    pub fn len(&self) -> u8 {
        self.0.iter().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Draws one piece at random and returns its strength, or `None` if the cup is empty.
    pub fn draw(&mut self, dice: &mut Dice) -> Option<u8> {
        let n = self.len();
        if n == 0 {
            return None;
        }
        let mut k = dice.below(n as u32) as u8;
        for v in 0..3 {
            if k < self.0[v] {
                self.0[v] -= 1;
                return Some(v as u8);
            }
            k -= self.0[v];
        }
        None
    }

    /// Takes a piece of a known strength out of the cup (hand-built positions).
    pub fn take(&mut self, value: u8) -> bool {
        match self.0.get_mut(value as usize) {
            Some(c) if *c > 0 => {
                *c -= 1;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_15_1_pool_holds_21_pieces_and_draws_them_all() {
        let mut p = MilitiaPool::default();
        assert_eq!(p.len(), 21);
        let mut d = Dice::from_seed(3);
        let mut seen = [0u8; 3];
        while let Some(v) = p.draw(&mut d) {
            seen[v as usize] += 1;
        }
        assert_eq!(seen, MILITIA_POOL);
        assert!(p.is_empty());
    }
}
