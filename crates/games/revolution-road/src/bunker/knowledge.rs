//! Knowledge for the search bots: an estimate of who is winning, so that playouts stop after a
//! couple of dozen decisions and the search weighs positions rather than the noise of long
//! random continuations.
//!
//! The estimate is the score if the game ended now (10.0: the VP aid, or the solitaire
//! schedule of 12.2, with hills held, units broken and fires counted as they stand), plus a
//! little for progress the score does not show yet: hilltop regions held toward a whole hill
//! (which also break ties, 10.0), the morale gap (9.0: a falling morale leads to panic and
//! demoralization), and a little against leaders standing without a unit of their own (7.0:
//! every hit fired into their region falls on them, and a killed leader is worth two VP).

use super::Bunker;
use super::sequence::Board;
use super::state::*;
use muster_core::{Knowledge, Side};

/// Steepness of the logistic, per half point of lead.
const SCALE: f32 = 0.25;
/// Half points per hilltop region held.
const HILLTOP: f32 = 0.75;
/// Half points per point of morale ahead.
const MORALE: f32 = 0.1;
/// Half points against each leader without a military unit of his side in his region (double
/// for a wounded one, whom one more hit kills).
const EXPOSED: f32 = 1.0;

impl Bunker {
    /// `side`'s lead in half points, as the bots judge it.
    pub fn judged_lead(&self, s: &State, side: u8) -> f32 {
        let me = side as usize & 1;
        let vp = self.vp_halves(s);
        let hills = self.hill_regions(s);
        let mut lead = (vp[me] - vp[1 - me]) as f32;
        lead += HILLTOP * (hills[me] as f32 - hills[1 - me] as f32);
        lead += MORALE * (s.morale[me] as f32 - s.morale[1 - me] as f32);
        let exposed = self.exposed_leaders(s);
        lead -= EXPOSED * (exposed[me] - exposed[1 - me]);
        lead
    }

    /// Per side: leaders on the map with no military unit of their side beside them, a
    /// wounded one counting twice.
    fn exposed_leaders(&self, s: &State) -> [f32; 2] {
        let covered = Board::of(s).mil;
        let mut n = [0.0f32; 2];
        for x in s.units.iter() {
            let side = x.side as usize & 1;
            if x.on_map() && x.kind == Kind::Leader && covered[side] >> x.at & 1 == 0 {
                n[side] += if x.broken() { 2.0 } else { 1.0 };
            }
        }
        n
    }
}

impl Knowledge for Bunker {
    fn evaluate(&self, s: &State, side: Side) -> Option<f32> {
        let lead = self.judged_lead(s, side);
        Some(1.0 / (1.0 + (-SCALE * lead).exp()))
    }

    fn playout_depth(&self) -> u32 {
        24
    }
}
