//! Knowledge for the search bots: an estimate of who is winning, so that playouts can stop
//! after a few dozen decisions instead of running to the twelfth turn.
//!
//! The estimate scores the position as if the game ended now (13.0: the VP won so far plus the
//! end-of-game items of the VP aid, the unsearched hidden arms at their expected worth, Percy's
//! missed award while it is still possible), and, in the two-player game, weighs it by the
//! British chance of still reaching Concord (11.0: without it the Patriots win outright),
//! judged from the nearest unbroken Regular's distance against the turns left. The solitaire
//! scenarios (15.2) score their objectives instead, with the end-of-game attrition at its
//! expected worth and the consolidation (2 VP to one side or the other) by the chance that the
//! British still gather in one region.

use super::Concord;
use super::pieces::members;
use super::state::*;
use muster_core::{Knowledge, Side};

/// Steepness of the logistic over the score lead, per VP.
const VP_SCALE: f32 = 0.45;

impl Concord {
    /// The British lead in half points if the game were tallied now, without dice (what
    /// [`Knowledge::evaluate`] turns into a chance; `examples/concord_calibration.rs` sets it
    /// against results).
    pub fn provisional_lead(&self, s: &State) -> f32 {
        let vp = self.data.vp;
        let mut halves = [s.vp.halves(PATRIOT) as i32, s.vp.halves(BRITISH) as i32];
        // Expected end-of-game half points of the solitaire scenarios, in twelfths of a half.
        let mut solitaire_twelfths = [0i32; 2];
        // The British lead those and the consolidation's chance add, in half points.
        let mut expected = 0.0f32;
        let solitaire = s.mode.solitaire();
        for (i, x) in s.units.iter().enumerate() {
            let Loc::At(_) = x.at else { continue };
            if !x.flipped {
                continue;
            }
            let side = self.side_of(s, i as u8) as usize;
            match x.kind {
                Kind::Leader if !solitaire => halves[1 - side] += 2 * vp.wounded_leader as i32,
                // 15.2 attrition at its expected worth, in twelfths of a half point: a wounded
                // leader dies on a 6 (1 VP, so 4); a broken unit counts 1/2 VP (12), and 1 VP if
                // it disbands, British on a 6 (2 more), Patriot on 5-6 (4 more).
                Kind::Leader => solitaire_twelfths[1 - side] += 4,
                k if k.military() && solitaire => {
                    solitaire_twelfths[1 - side] +=
                        12 + if side == BRITISH as usize { 2 } else { 4 }
                }
                Kind::Son if !solitaire => halves[1] += 2 * vp.captured_son as i32,
                Kind::Rider if !solitaire => halves[1] += 2 * vp.captured_rider as i32,
                k if k.military() => halves[1 - side] += 2 * vp.broken_unit as i32,
                _ => {}
            }
        }
        if !solitaire {
            for r in 0..self.data.map.regions.len().min(s.arms.len()) {
                if s.arms[r] == ARMS_HIDDEN {
                    let numbered = self.data.map.regions[r].arms.unwrap_or(0) as i32;
                    let worth = if numbered > 0 {
                        numbered
                    } else if s.options.arms_balance == 0 {
                        vp.unnumbered_arms as i32
                    } else {
                        0
                    };
                    halves[PATRIOT as usize] += 2 * worth;
                }
            }
            if !s.percy_award {
                halves[PATRIOT as usize] += vp.percy_missed as i32;
            }
        } else {
            // 15.2 objectives: Lexington as it stands (2, 3 or 4 VP by the odds there),
            // casualties as they stand, and the consolidation's 2 VP to one side or the other
            // by the chance that the British still end in one region.
            halves[BRITISH as usize] += 2 * self.lexington_points(s) as i32;
            if self.casualties_halves(s) > 12 {
                halves[PATRIOT as usize] += 4;
            }
            let p = self.consolidation(s);
            let british = solitaire_twelfths[BRITISH as usize] as f32 + 48.0 * p;
            let patriot = solitaire_twelfths[PATRIOT as usize] as f32 + 48.0 * (1.0 - p);
            expected = (british - patriot) / 12.0;
        }
        (halves[BRITISH as usize] - halves[PATRIOT as usize]) as f32 + expected
    }

    /// 15.2: the chance that every British piece on the map ends the game in one region (2 VP
    /// to the British, otherwise 2 to the Patriot), judged from how far apart they stand: the
    /// fewest regions the farthest piece must cover to reach a common region, against the
    /// turns left (a move covers up to two road regions in the solitaire game; leave room for
    /// opposition and for the actions the card does not give).
    fn consolidation(&self, s: &State) -> f32 {
        let map = &self.data.map;
        let mut regions = self.british_regions(s);
        // Percy's force, still to arrive, arrives in Boston (12.0); only it is ever pending.
        if s.units.iter().any(|x| x.at == Loc::Pending) {
            regions |= 1u64 << map.boston;
        }
        if regions == 0 {
            return 0.0;
        }
        let spread = (0..map.apsp.len())
            .filter(|&m| map.regions.get(m).is_some_and(|x| !x.alert_box))
            .map(|m| {
                members(regions)
                    .map(|r| map.apsp[r as usize].get(m).copied().unwrap_or(255))
                    .max()
                    .unwrap_or(0)
            })
            .min()
            .unwrap_or(255) as f32;
        let turns_left = self.setup(s).last_turn.saturating_sub(s.turn) as f32 + 0.5;
        let slack = 1.6 * turns_left + 1.0 - spread;
        1.0 / (1.0 + (-1.2 * slack).exp())
    }

    /// 11.0: the chance the British still get an unbroken Regular into Concord.
    fn reach_concord(&self, s: &State) -> f32 {
        if s.concord {
            return 1.0;
        }
        let dist = &self.data.map.dist_concord;
        let nearest = s
            .units
            .iter()
            .filter(|x| x.kind == Kind::Regular && !x.flipped && !x.under)
            .filter_map(|x| x.at.region())
            .filter_map(|r| dist.get(r as usize).copied())
            .min();
        let Some(nearest) = nearest else {
            return 0.02;
        };
        let turns_left = self.setup(s).last_turn.saturating_sub(s.turn) as f32 + 0.5;
        // A March covers about two regions a turn when unopposed; leave room for opposition.
        let slack = 1.6 * turns_left - nearest as f32;
        1.0 / (1.0 + (-1.2 * slack).exp())
    }
}

impl Knowledge for Concord {
    fn evaluate(&self, s: &State, side: Side) -> Option<f32> {
        let lead = self.provisional_lead(s) / 2.0;
        // Ties go to the British (13.0), hence the half-point lean.
        let by_points = 1.0 / (1.0 + (-VP_SCALE * (lead + 0.25)).exp());
        let british = if s.mode.solitaire() {
            by_points
        } else {
            self.reach_concord(s) * by_points
        };
        Some(if side == BRITISH {
            british
        } else {
            1.0 - british
        })
    }

    fn playout_depth(&self) -> u32 {
        30
    }

    /// A march is chosen one unit and one region at a time (6.4), and with six playouts a
    /// step the greedy `easy` British marched back and forth out of Boston and lost to random
    /// play four games in five. Sixteen (docs/performance.md, the ladder's step 8).
    fn greedy_samples(&self) -> u32 {
        16
    }
}
