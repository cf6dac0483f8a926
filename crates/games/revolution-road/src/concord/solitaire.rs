//! 15.2-15.4, the solitaire scenarios' own rules: the hashmark reinforcements with their
//! placement die and the Patriot opportunity fire on British moves. (The turn-8 start, the
//! card removals, the British movement and rally limits, the retreat toward Lexington, the
//! Hinder placement and the objectives live beside the rules they change.)

use super::Concord;
use super::action::Event;
use super::pieces::{Ev, at, members};
use super::state::*;

/// 15.2: where a reinforcement goes, by die roll 1-6.
pub const REINFORCEMENT_REGIONS: [&str; 6] = [
    "concord",
    "lincoln",
    "lexington",
    "menotomy",
    "cambridge",
    "watertown",
];

impl Concord {
    /// 15.2: a card with hash marks brings one hidden militia marker if the pool can cover
    /// every marker on the map.
    pub fn solitaire_reinforce(&self, s: &mut State, hash: u8, ev: &mut Ev) {
        if hash == 0 {
            return;
        }
        let hidden = s
            .units
            .iter()
            .filter(|u| u.kind == Kind::Hidden && matches!(u.at, Loc::At(_)))
            .count() as u8;
        if hidden >= s.pool.len() {
            return;
        }
        let Some(slot) = s.units.iter().position(|u| u.at == Loc::Spare) else {
            return;
        };
        let d = s.dice.d6();
        let r = self.region_of(REINFORCEMENT_REGIONS[(d - 1) as usize]);
        s.units[slot].at = Loc::At(r);
        ev.push(Event::Reinforcement {
            unit: slot as u8,
            region: r,
            die: d,
        });
    }

    /// 15.2: a British force moving into, through or next to Patriot-held regions draws fire:
    /// one die per five unbroken Patriot strength points and one per unbroken Minuteman, per
    /// region; 6 hits; two hits per move action at most; none on a landing.
    pub fn solitaire_fire(&self, s: &mut State, ev: &mut Ev) {
        let Phase::Move {
            from,
            group,
            at: t,
            steps,
            road,
            cannon_used,
            hits,
            fire_hits,
        } = s.phase
        else {
            return;
        };
        let map = &self.data.map;
        if steps == 1 && from == map.boston && !map.adjacent(from, t) {
            return;
        }
        if fire_hits >= 2 {
            return;
        }
        let mut dice = 0u8;
        for r in 0..map.regions.len() as u8 {
            if r != t && !map.adjacent(t, r) || map.regions[r as usize].alert_box {
                continue;
            }
            let pats = self.fighters(s, PATRIOT, r);
            if pats == 0 {
                continue;
            }
            let unbroken: u64 = members(pats)
                .filter(|u| !s.units[*u as usize].flipped)
                .fold(0, |m, u| m | 1u64 << u);
            self.reveal_all(s, unbroken, ev);
            let sp = self.strength(s, unbroken);
            let mm = at(s, r)
                .filter(|(_, u)| u.kind == Kind::Minuteman && !u.flipped && !u.under)
                .count() as u8;
            dice += sp / 5 + mm;
        }
        if dice == 0 {
            return;
        }
        let mut scored = 0u8;
        let mut faces = muster_core::words::Faces::default();
        for _ in 0..dice {
            let d = s.dice.d6();
            faces.push(d);
            if d == 6 {
                scored += 1;
            }
        }
        let scored = scored.min(2 - fire_hits);
        ev.push(Event::Roll {
            side: PATRIOT,
            dice,
            hits: scored,
            section: "15.2",
            faces,
            need: 6,
        });
        s.phase = Phase::Move {
            from,
            group,
            at: t,
            steps,
            road,
            cannon_used,
            hits: hits + scored,
            fire_hits: fire_hits + scored,
        };
    }
}
