//! Knowledge for search bots: an estimate of who is winning, so playouts can stop early, and
//! which set-up hexes are worth weighing.

use crate::Battles;
use crate::action::Action;
use crate::board::cf;
use crate::data::AMERICAN;
use crate::state::{Loc, Phase, State};
use crate::victory;
use muster_core::{Knowledge, Side};

/// How far from a star of its colour (or the exit) a unit still counts as closing on it.
const APPROACH: u8 = 5;

/// What each side's units are worth in VP they are closing on but do not hold yet: for every
/// star a side scores at (§10) that it does not occupy, the nearest of its units on the map
/// counts `0.4 × (APPROACH − distance) / APPROACH` of a VP; in Oriskany every American unit
/// counts the same toward the exit, weighted by the VP an exit scores. Without it a playout of
/// 24 decisions (mostly movement) rarely changes the VP or the strengths, every child of a
/// movement decision reads the same, and the search picks among them by noise (issue 18).
fn approach(sc: &crate::data::Scenario, s: &State) -> [f32; 2] {
    let mut out = [0f32; 2];
    let credit = |d: u8| 0.4 * APPROACH.saturating_sub(d) as f32 / APPROACH as f32;
    for &(star, colour) in &sc.stars {
        for side in 0..2u8 {
            if !colour.scores_for(side) {
                continue;
            }
            let mut nearest = u8::MAX;
            for (i, u) in s.units.iter().enumerate() {
                if sc.units[i].side == side
                    && let Loc::Map(h) = u.at
                {
                    nearest = nearest.min(sc.map.distance(h, star));
                }
            }
            // Held stars already score in `victory::vp`.
            if nearest > 0 && nearest != u8::MAX {
                out[side as usize] += credit(nearest);
            }
        }
    }
    if let Some((exit, side, per)) = sc.exit {
        for (i, u) in s.units.iter().enumerate() {
            if sc.units[i].side == side
                && let Loc::Map(h) = u.at
            {
                out[side as usize] += per as f32 * credit(sc.map.distance(h, exit) + 1);
            }
        }
    }
    out
}

/// How far from the nearest enemy a free set-up (§12, Oriskany) is worth considering: the
/// side setting up second wants to strike on its first turn, and a unit placed farther than
/// this can neither attack nor block in the opening turns.
const SETUP_REACH: u8 = 3;

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
        let reach = approach(sc, s);
        let mut x = 0.55 * (vp[me] - vp[other]) as f32
            + 0.12 * (strength[me] - strength[other]) as f32
            + 0.55 * (reach[me] - reach[other]);
        x += if side == AMERICAN { 0.3 } else { -0.3 };
        Some(1.0 / (1.0 + (-x).exp()))
    }

    fn playout_depth(&self) -> u32 {
        24
    }

    /// A move or an attack is chosen one unit and one hex at a time, and with six playouts
    /// a step the greedy `easy` bot could not tell the steps apart: it lost Oriskany's
    /// British side to random play in more than half its games. Sixteen (docs/performance.md, the
    /// ladder's step 8).
    fn greedy_samples(&self) -> u32 {
        16
    }

    /// Free set-up (§12): bots weigh only hexes within [`SETUP_REACH`] of an enemy unit
    /// already on the map (when there are any), instead of every legal hex of the board.
    fn prune(&self, s: &State, actions: &mut Vec<Action>) {
        let Phase::Setup { side } = s.phase else {
            return;
        };
        let sc = self.scenario(s);
        let enemies: Vec<_> = s
            .units
            .iter()
            .enumerate()
            .filter(|(i, _)| sc.units[*i].side != side.0)
            .filter_map(|(_, u)| match u.at {
                Loc::Map(h) => Some(h),
                _ => None,
            })
            .collect();
        if enemies.is_empty() {
            return;
        }
        let near = |a: &Action| match a {
            Action::Place(h) => enemies
                .iter()
                .any(|&e| sc.map.distance(*h, e) <= SETUP_REACH),
            _ => true,
        };
        if actions.iter().any(near) {
            actions.retain(near);
        }
    }
}
