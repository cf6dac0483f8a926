//! Chapter 4, the playing pieces: who a counter is, whether it is active, its strength, hits
//! (4.1, 4.2), revealing hidden militia (4.1), and the checks made after every decision:
//! British departures flip Gather markers (4.3), a lone cannon is lost (4.1), the Shot and
//! Concord (10.0, 11.0), Percy's award (12.0).

use super::Concord;
use super::action::Event;
use super::state::*;

pub type Ev = Vec<Event>;

impl Concord {
    #[inline]
    pub fn side_of(&self, s: &State, u: u8) -> u8 {
        (u < 64 && self.setup(s).british & (1u64 << u) != 0) as u8
    }
    #[inline]
    pub fn is_percy(&self, s: &State, u: u8) -> bool {
        u < 64 && self.setup(s).percy & (1u64 << u) != 0
    }
    pub fn unit_id<'a>(&'a self, s: &State, u: u8) -> &'a str {
        self.setup(s)
            .roster
            .get(u as usize)
            .map_or("?", |d| d.id.as_str())
    }
    pub fn leader_named(&self, s: &State, u: u8, name: &str) -> bool {
        s.units
            .get(u as usize)
            .is_some_and(|x| x.kind == Kind::Leader)
            && self.unit_id(s, u) == name
    }
    pub fn region_of(&self, name: &str) -> u8 {
        self.data.map.index(name).unwrap_or(0)
    }
}

/// Units at a region (any state).
pub fn at(s: &State, r: u8) -> impl Iterator<Item = (u8, &Unit)> {
    s.units
        .iter()
        .enumerate()
        .filter(move |(_, u)| u.at == Loc::At(r))
        .map(|(i, u)| (i as u8, u))
}

/// A bit for a unit.
#[inline]
pub fn bit(u: u8) -> Units {
    1u64 << u
}

/// Iterates the members of a set.
pub fn members(set: Units) -> impl Iterator<Item = u8> {
    let mut m = set;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(i)
        }
    })
}

impl Concord {
    /// A piece in play on the map and free to act or be acted on: not under a marker, not
    /// captured (4.3, 4.4).
    pub fn active(&self, s: &State, u: u8) -> bool {
        let Some(x) = s.units.get(u as usize) else {
            return false;
        };
        matches!(x.at, Loc::At(_))
            && !x.under
            && !(matches!(x.kind, Kind::Son | Kind::Rider) && x.flipped)
    }

    /// A fighting piece of `side` active in `r`: military unit or leader (not Sons of Liberty
    /// or Nightriders, who never fight, 4.4).
    pub fn fighters(&self, s: &State, side: u8, r: u8) -> Units {
        let mut m = 0;
        for (i, u) in at(s, r) {
            if !u.under
                && (u.kind.military() || u.kind == Kind::Leader)
                && self.side_of(s, i) == side
            {
                m |= bit(i);
            }
        }
        m
    }

    /// Active unbroken military units of `side` in `r` (the cannon excluded).
    pub fn unbroken_military(&self, s: &State, side: u8, r: u8) -> u8 {
        at(s, r)
            .filter(|(i, u)| {
                !u.under
                    && u.kind.military()
                    && u.kind != Kind::Cannon
                    && !u.flipped
                    && self.side_of(s, *i) == side
            })
            .count() as u8
    }

    /// Unbroken British Regulars in `r`.
    pub fn unbroken_regulars(&self, s: &State, r: u8) -> u8 {
        at(s, r)
            .filter(|(_, u)| u.kind == Kind::Regular && !u.flipped)
            .count() as u8
    }

    /// All British Regulars in `r`, broken or not.
    pub fn regulars(&self, s: &State, r: u8) -> u8 {
        at(s, r).filter(|(_, u)| u.kind == Kind::Regular).count() as u8
    }

    /// Active Minutemen in `r`.
    pub fn minutemen(&self, s: &State, r: u8) -> u8 {
        at(s, r)
            .filter(|(_, u)| u.kind == Kind::Minuteman && !u.under)
            .count() as u8
    }

    /// Leaders of `side` active in `r`.
    pub fn leaders(&self, s: &State, side: u8, r: u8) -> u8 {
        at(s, r)
            .filter(|(i, u)| u.kind == Kind::Leader && !u.under && self.side_of(s, *i) == side)
            .count() as u8
    }

    /// Combat strength of a set of units (4.1): Regulars 2, Minutemen 1, militia their value,
    /// a "0" militia 1 when paired one for one with a Patriot leader in its region.
    pub fn strength(&self, s: &State, set: Units) -> u8 {
        let mut total = 0u8;
        let mut zeros_by_region = [0u8; MAX_REGIONS];
        for u in members(set) {
            let x = s.units[u as usize];
            if x.flipped || x.under {
                continue;
            }
            match x.kind {
                Kind::Regular => total += 2,
                Kind::Minuteman => total += 1,
                Kind::Militia => {
                    if x.value == 0 {
                        if let Loc::At(r) = x.at {
                            zeros_by_region[r as usize] += 1;
                        }
                    } else {
                        total += x.value;
                    }
                }
                _ => {}
            }
        }
        if zeros_by_region.iter().any(|z| *z > 0) {
            let leaders = self.patriot_leaders(s);
            for (z, l) in zeros_by_region.iter().zip(leaders.iter()) {
                total += (*z).min(*l);
            }
        }
        total
    }

    /// Active Patriot leaders per region (for pairing "0" militia, 4.1).
    pub fn patriot_leaders(&self, s: &State) -> [u8; MAX_REGIONS] {
        let mut n = [0u8; MAX_REGIONS];
        let british = self.setup(s).british;
        for (i, u) in s.units.iter().enumerate() {
            if let Loc::At(r) = u.at
                && u.kind == Kind::Leader
                && !u.under
                && british & (1u64 << i) == 0
            {
                n[r as usize] += 1;
            }
        }
        n
    }

    /// The units of a set that lend strength (they get Fired markers, 7.0).
    pub fn contributors(&self, s: &State, set: Units) -> Units {
        let mut m = 0;
        let zeros_left = &mut self.patriot_leaders(s);
        for u in members(set) {
            let x = s.units[u as usize];
            if x.flipped || x.under {
                continue;
            }
            let gives = match x.kind {
                Kind::Regular | Kind::Minuteman => true,
                Kind::Militia if x.value > 0 => true,
                Kind::Militia => match x.at {
                    Loc::At(r) if zeros_left[r as usize] > 0 => {
                        zeros_left[r as usize] -= 1;
                        true
                    }
                    _ => false,
                },
                _ => false,
            };
            if gives {
                m |= bit(u);
            }
        }
        m
    }

    /// 4.1: a hidden-value marker whose strength must be known becomes a piece drawn from
    /// the pool.
    pub fn reveal(&self, s: &mut State, u: u8, ev: &mut Ev) {
        let Some(x) = s.units.get(u as usize) else {
            return;
        };
        if x.kind != Kind::Hidden {
            return;
        }
        let v = s.pool.draw(&mut s.dice).unwrap_or(0);
        let x = &mut s.units[u as usize];
        x.kind = Kind::Militia;
        x.value = v;
        ev.push(Event::Reveal { unit: u, value: v });
    }

    pub fn reveal_all(&self, s: &mut State, set: Units, ev: &mut Ev) {
        for u in members(set) {
            self.reveal(s, u, ev);
        }
    }

    /// Scores half points for a side.
    pub fn score(&self, s: &mut State, side: u8, cause: Cause, points: i16, ev: &mut Ev) {
        if points == 0 {
            return;
        }
        s.vp.add(side, cause, points * 2);
        ev.push(Event::Vp {
            side,
            halves: points * 2,
            cause: cause as u8,
        });
    }

    /// Applies one hit (4.1, 4.2): flip an unbroken unit or healthy leader, remove a broken
    /// unit, wounded leader or the cannon. Returns true if the unit left the game.
    pub fn hit(&self, s: &mut State, u: u8, ev: &mut Ev) -> bool {
        self.reveal(s, u, ev);
        let side = self.side_of(s, u);
        let Some(x) = s.units.get_mut(u as usize) else {
            return false;
        };
        if matches!(x.kind, Kind::Son | Kind::Rider) {
            return false;
        }
        if x.flipped || x.kind == Kind::Cannon {
            let leader = x.kind == Kind::Leader;
            x.at = Loc::Removed;
            x.flipped = x.kind != Kind::Cannon;
            ev.push(Event::Removed { unit: u });
            let vp = self.data.vp;
            // 15.2: in the solitaire game every destroyed unit or killed leader is 1 VP.
            let solo = s.mode.solitaire();
            if leader {
                let v = if solo { 1 } else { vp.killed_leader };
                self.score(s, 1 - side, Cause::Killed, v, ev);
            } else {
                let v = if solo { 1 } else { vp.destroyed_unit };
                self.score(s, 1 - side, Cause::Destroyed, v, ev);
            }
            true
        } else {
            x.flipped = true;
            if x.kind == Kind::Leader {
                ev.push(Event::Wounded { unit: u });
            } else {
                ev.push(Event::Broken { unit: u });
            }
            false
        }
    }

    /// Breaks an unbroken unit (cannon, forced march, ambush...): a hit on an unbroken unit.
    pub fn break_unit(&self, s: &mut State, u: u8, ev: &mut Ev) {
        if s.units.get(u as usize).is_some_and(|x| !x.flipped) {
            self.hit(s, u, ev);
        }
    }

    /// Regions holding British units (Percy's pending force excluded).
    pub fn british_regions(&self, s: &State) -> Regions {
        let mut m = 0;
        for (i, u) in s.units.iter().enumerate() {
            if let Loc::At(r) = u.at
                && self.side_of(s, i as u8) == BRITISH
            {
                m |= 1u64 << r;
            }
        }
        m
    }

    /// 4.3: flips a Gather marker to its Muster side and frees the Minutemen under it for
    /// their free move.
    pub fn flip_gather(&self, s: &mut State, r: u8, ev: &mut Ev) {
        if s.gather[r as usize] != GATHER {
            return;
        }
        s.gather[r as usize] = MUSTER;
        ev.push(Event::Flipped { region: r });
        for i in 0..s.units.len() {
            let x = s.units[i];
            if x.at == Loc::At(r) && x.under && x.kind == Kind::Minuteman {
                s.units[i].under = false;
                s.mustering |= bit(i as u8);
            }
        }
        // 6.12: Prescott, under the Lexington marker, rides once Lexington is alerted.
        if r == self.data.map.lexington {
            for i in 0..s.units.len() {
                if s.units[i].kind == Kind::Rider && s.units[i].at == Loc::At(r) && s.units[i].under
                {
                    s.units[i].under = false;
                    ev.push(Event::PrescottActive);
                }
            }
        }
    }

    /// The checks made after every decision.
    pub fn refresh(&self, s: &mut State, ev: &mut Ev) {
        let map = &self.data.map;
        let setup = self.setup(s);
        // One pass: where the British are, Regulars and unbroken Patriots per region, the
        // cannon, Percy.
        let mut now: Regions = 0;
        let mut regulars: Regions = 0;
        let mut patriots: Regions = 0;
        let mut cannon = None;
        let mut percy_at = None;
        let mut lex_unbroken_regs = 0u8;
        let mut concord_unbroken_reg = false;
        for (i, u) in s.units.iter().enumerate() {
            let Loc::At(r) = u.at else { continue };
            let british = setup.british & (1u64 << i) != 0;
            if british {
                now |= 1u64 << r;
                match u.kind {
                    Kind::Regular => {
                        regulars |= 1u64 << r;
                        if !u.flipped {
                            if r == map.lexington {
                                lex_unbroken_regs += 1;
                            }
                            if r == map.concord {
                                concord_unbroken_reg = true;
                            }
                        }
                    }
                    Kind::Cannon => cannon = Some((i, r)),
                    Kind::Leader if setup.percy & (1u64 << i) != 0 => percy_at = Some(r),
                    _ => {}
                }
            } else if !u.under && !u.flipped && u.kind.military() {
                patriots |= 1u64 << r;
            }
        }
        // 4.1: a cannon alone with unbroken Patriot units is destroyed.
        if let Some((i, r)) = cannon
            && regulars & (1u64 << r) == 0
            && patriots & (1u64 << r) != 0
        {
            self.hit(s, i as u8, ev);
            now = self.british_regions(s);
            cannon = None;
        }
        // 4.3: all British units left a region with a Gather marker.
        let left = s.british_in & !now;
        s.british_in = now;
        for r in members(left) {
            if s.gather[r as usize] == GATHER && !self.hindered(s, HINDER_MUSTER, r) {
                self.flip_gather(s, r, ev);
            }
        }
        // 10.0: any British unit in Concord; 11.0: an unbroken Regular in Concord.
        if now & (1u64 << map.concord) != 0 && !s.shot {
            s.shot = true;
            ev.push(Event::Shot);
        }
        if !s.concord && concord_unbroken_reg {
            s.concord = true;
            ev.push(Event::Concord);
            if !s.mode.solitaire() {
                self.score(s, BRITISH, Cause::Concord, self.data.vp.concord, ev);
            }
        }
        // 12.0: Percy with the cannon and four unbroken Regulars in Lexington.
        if !s.percy_award
            && !s.mode.solitaire()
            && percy_at == Some(map.lexington)
            && cannon.is_some_and(|(_, r)| r == map.lexington)
            && lex_unbroken_regs >= 4
        {
            s.percy_award = true;
            self.score(s, BRITISH, Cause::Percy, self.data.vp.percy_lexington, ev);
        }
    }

    /// 10.0: combat dice were rolled, a charge, a search among active Patriot units.
    pub fn shot(&self, s: &mut State, by_patriot_attack: bool, ev: &mut Ev) {
        if s.shot {
            return;
        }
        s.shot = true;
        ev.push(Event::Shot);
        if by_patriot_attack && !s.mode.solitaire() {
            self.score(s, BRITISH, Cause::FirstShot, self.data.vp.first_shot, ev);
        }
    }

    pub fn hindered(&self, s: &State, marker: u8, r: u8) -> bool {
        matches!(s.hinder[marker as usize], HinderAt::Map { region, .. } if region == r)
    }

    /// Hits on one die for a unit kind (7.0, 14.4).
    pub fn hits_on(&self, s: &State, kind: Kind) -> u8 {
        match kind {
            Kind::Regular => 4,
            Kind::Militia | Kind::Hidden if s.options.militia_six => 6,
            _ => 5,
        }
    }

    /// Rolls a set's combat dice (7.0): each unit rolls its strength and hits on its own
    /// number. The units with a missed die are kept in `Battle::missed` for 14.1, whose
    /// re-roll is the side's own decision (`Phase::Reroll`).
    pub fn roll(&self, s: &mut State, side: u8, set: Units, _region: u8, ev: &mut Ev) -> u8 {
        let mut dice = 0u8;
        let mut hits = 0u8;
        let mut missed: Units = 0;
        let mut faces = muster_core::words::Faces::default();
        let mut needs = 0u8;
        let contributors = self.contributors(s, set);
        for u in members(contributors) {
            let x = s.units[u as usize];
            let n = match x.kind {
                Kind::Regular => 2,
                Kind::Militia if x.value > 0 => x.value,
                _ => 1,
            };
            let need = self.hits_on(s, x.kind);
            needs |= 1 << need;
            for _ in 0..n {
                dice += 1;
                let d = s.dice.d6();
                faces.push(d);
                if d >= need {
                    hits += 1;
                } else {
                    missed |= bit(u);
                }
            }
        }
        s.battle.missed[side as usize & 1] = missed;
        ev.push(Event::Roll {
            side,
            dice,
            hits,
            section: "7.0",
            faces,
            need: if needs.count_ones() == 1 {
                needs.trailing_zeros() as u8
            } else {
                0
            },
        });
        hits
    }

    /// 14.1: may `side` re-roll a missed die of its last combat roll now? It needs a healthy
    /// leader in the combat region.
    pub fn reroll_open(&self, s: &State, side: u8) -> bool {
        let b = &s.battle;
        s.options.leader_rerolls
            && b.missed[side as usize & 1] != 0
            && at(s, b.region).any(|(i, u)| {
                u.kind == Kind::Leader && !u.flipped && !u.under && self.side_of(s, i) == side
            })
    }
}
