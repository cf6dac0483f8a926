//! Knowledge for search bots: an estimate of who is winning, so playouts can stop early.

use crate::Battles;
use crate::board::cf;
use crate::data::AMERICAN;
use crate::state::{Loc, State};
use crate::victory;
use muster_core::{Knowledge, Side};

impl Knowledge for Battles {
    /// A logistic of the VP lead (stars held, units eliminated, exits) and of the combat
    /// strength still in play, with the tie (which goes to the Americans, §10) as a small lean.
    fn evaluate(&self, s: &State, side: Side) -> Option<f32> {
        let sc = self.scenario(s);
        let vp = victory::vp(sc, s);
        let mut strength = [0i32; 2];
        for (i, u) in s.units.iter().enumerate() {
            if matches!(u.at, Loc::Map(_) | Loc::Pending | Loc::Unplaced) {
                strength[sc.units[i].side as usize] += cf(sc, s, i as u8) as i32;
            }
        }
        let me = side as usize & 1;
        let other = 1 - me;
        let vp = [vp.american as i32, vp.british as i32];
        let mut x =
            0.55 * (vp[me] - vp[other]) as f32 + 0.12 * (strength[me] - strength[other]) as f32;
        x += if side == AMERICAN { 0.3 } else { -0.3 };
        Some(1.0 / (1.0 + (-x).exp()))
    }

    fn playout_depth(&self) -> u32 {
        24
    }
}
