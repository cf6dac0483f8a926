//! 10.0 victory: the Victory Point aid (reconstructed in `data/bunker-hill/vp.toml`), the
//! solitaire schedule of 12.2-12.4, the hill-region tie-break, and the end of the game.

use super::Bunker;
use super::action::Event;
use super::sequence::Ev;
use super::state::*;
use arrayvec::ArrayVec;

/// One cause of Victory Points, in half points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VpItem {
    pub side: u8,
    pub cause: &'static str,
    pub count: u8,
    pub halves: i16,
}

pub type VpItems = ArrayVec<VpItem, 24>;

impl Bunker {
    /// Regions a side controls: one of its unbroken military units and no enemy unit.
    pub fn controls(&self, s: &State, side: u8, r: u8) -> bool {
        let mut mine = false;
        for x in s.units.iter() {
            if x.at == r && x.kind.military() {
                if x.side == side && !x.broken() {
                    mine = true;
                } else if x.side != side {
                    return false;
                }
            }
        }
        mine
    }

    /// Hilltop regions held by each side (10.0 tie-break).
    pub fn hill_regions(&self, s: &State) -> [u8; 2] {
        let mut n = [0u8; 2];
        for r in bits64(self.data.map.hilltops) {
            for side in 0..2u8 {
                if self.controls(s, side, r) {
                    n[side as usize] += 1;
                }
            }
        }
        n
    }

    /// Every cause of Victory Points now (the final score when the game is over).
    pub fn vp_items(&self, s: &State) -> VpItems {
        let mut out = VpItems::new();
        let mut destroyed = [0u8; 2];
        let mut killed = [0u8; 2];
        let mut broken = [0u8; 2];
        let mut wounded = [0u8; 2];
        for x in s.units.iter() {
            let i = x.side as usize & 1;
            if x.kind == Kind::Battery {
                continue;
            }
            if x.at == REMOVED {
                if x.kind == Kind::Leader {
                    killed[i] += 1;
                } else {
                    destroyed[i] += 1;
                }
            } else if x.at <= MUSTER && x.broken() {
                if x.kind == Kind::Leader {
                    wounded[i] += 1;
                } else {
                    broken[i] += 1;
                }
            }
        }
        let mut push = |side: u8, cause: &'static str, count: u8, each: i16| {
            if count > 0 && each != 0 && !out.is_full() {
                out.push(VpItem {
                    side,
                    cause,
                    count,
                    halves: count as i16 * each,
                });
            }
        };
        let vp = &self.data.vp;
        if !s.mode.solitaire() {
            for side in 0..2u8 {
                let o = 1 - side as usize;
                push(
                    side,
                    "enemy units destroyed",
                    destroyed[o],
                    vp.unit_destroyed,
                );
                push(side, "enemy leaders killed", killed[o], vp.leader_killed);
                push(side, "enemy units broken", broken[o], vp.unit_broken);
                push(side, "enemy leaders wounded", wounded[o], vp.leader_wounded);
                for (h, cause) in [
                    (0usize, "holds Moulton's Hill"),
                    (1, "holds Breed's Hill"),
                    (2, "holds Bunker Hill"),
                ] {
                    let all = bits64(self.data.map.hills[h]).all(|r| self.controls(s, side, r));
                    push(side, cause, all as u8, vp.hill[h]);
                }
            }
            let fires = s.ablaze.count_ones() as u8;
            push(
                BRITISH,
                "town regions ablaze beyond the fifth",
                fires.saturating_sub(vp.fires_free),
                vp.fire_each,
            );
        } else {
            for side in 0..2u8 {
                let o = 1 - side as usize;
                push(side, "enemy units destroyed", destroyed[o], 2);
                push(side, "enemy leaders killed", killed[o], 2);
                push(side, "enemy units broken or panicked", broken[o], 1);
            }
            push(PATRIOT, "Patriot demoralized", s.demoralized[0] as u8, -2);
            push(PATRIOT, "Patriot ammunition ran out", s.ammo_out as u8, -2);
            for (side, cause, count, each) in self.objective_vp(s) {
                push(side, cause, count, each);
            }
        }
        out
    }

    /// Victory Points by side, in half points.
    pub fn vp_halves(&self, s: &State) -> [i16; 2] {
        let mut v = [0i16; 2];
        for i in self.vp_items(s) {
            v[i.side as usize & 1] += i.halves;
        }
        v
    }

    /// 10.0: the end of the game and its winner.
    pub fn end_game(&self, s: &mut State, why: u8, ev: &mut Ev) {
        if s.ended.is_some() {
            return;
        }
        let vp = self.vp_halves(s);
        let winner = if vp[0] > vp[1] {
            PATRIOT
        } else if vp[1] > vp[0] {
            BRITISH
        } else {
            let h = self.hill_regions(s);
            if h[1] > h[0] { BRITISH } else { PATRIOT }
        };
        s.ended = Some(Ended { winner, vp, why });
        s.phase = Phase::Over;
        ev.push(Event::GameEnds { winner, why });
    }
}
