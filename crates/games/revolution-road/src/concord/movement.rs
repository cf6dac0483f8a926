//! Movement: 6.4 Move (Scout 6.4.1, March and forced march 6.4.2, the two stopping tests),
//! 6.5 Assemble, 4.4 Adams and Hancock, 4.1 the field cannon on the move and broken units'
//! limits, 9.0 the first-turn landing, 11.0 the Smith/Pitcairn penalty, 14.2 opportunity
//! fire during movement and 15.2 the solitaire Patriot opportunity fire.

use super::Concord;
use super::action::{Action, Event};
use super::pieces::{Ev, at, bit, members};
use super::sequence::Actions;
use super::state::*;

impl Concord {
    /// May this unit be moved with a Move action (6.4)?
    pub fn can_move(&self, s: &State, u: u8) -> bool {
        let x = s.units[u as usize];
        self.active(s, u)
            && !x.moved
            && (x.kind.military() || x.kind == Kind::Leader)
            && self.side_of(s, u) == s.mover
    }

    /// May units of `side` enter region `t` at all (3.0)?
    pub fn may_enter(&self, s: &State, side: u8, t: u8) -> bool {
        let map = &self.data.map;
        if map.regions.get(t as usize).is_none_or(|r| r.alert_box) {
            return false;
        }
        if side == PATRIOT {
            t != map.boston && !(t == map.charlestown && self.unbroken_regulars(s, t) > 0)
        } else {
            true
        }
    }

    /// 6.5 / 4.1: may this unit join an Assemble from `from` to `to` on its own account?
    pub fn may_assemble(&self, s: &State, u: u8, from: u8, to: u8) -> bool {
        let x = s.units[u as usize];
        if !x.flipped || x.kind == Kind::Leader {
            return true;
        }
        let map = &self.data.map;
        // Without a leader already in the group, a broken unit only goes toward Concord.
        self.regulars(s, to) == 0 && map.dist_concord[to as usize] < map.dist_concord[from as usize]
    }

    /// Smith and Pitcairn's force after Concord (11.0): a broken Regular without Percy's dot.
    fn slowed(&self, s: &State, u: u8) -> bool {
        let x = s.units[u as usize];
        s.concord && x.kind == Kind::Regular && x.flipped && !self.is_percy(s, u)
    }

    pub fn start_move(&self, s: &mut State, r: u8) {
        s.phase = Phase::Move {
            from: r,
            group: 0,
            at: r,
            steps: 0,
            road: false,
            cannon_used: false,
            hits: 0,
            fire_hits: 0,
        };
    }

    /// May the group step from `at` to `t` as its step number `steps + 1`?
    fn step_ok(&self, s: &State, group: Units, at_r: u8, t: u8, steps: u8, road: bool) -> bool {
        let map = &self.data.map;
        let side = s.mover;
        if group == 0 || !(map.adjacent(at_r, t) || steps == 0 && at_r == map.boston) {
            return false;
        }
        if !self.may_enter(s, side, t) {
            return false;
        }
        let landing = steps == 0
            && side == BRITISH
            && at_r == map.boston
            && map.landings & (1u64 << t) != 0
            && s.turn == self.setup(s).first_turn;
        if !landing {
            if !map.adjacent(at_r, t) {
                return false;
            }
            if steps > 0 && !(road && map.is_road(at_r, t)) {
                return false;
            }
        }
        let max = if side == BRITISH && s.mode.solitaire() {
            2
        } else {
            3
        };
        if steps >= max {
            return false;
        }
        let mut leader = false;
        let mut regular = false;
        let mut cannon = false;
        let mut breakable = false;
        for u in members(group) {
            let x = s.units[u as usize];
            leader |= x.kind == Kind::Leader;
            regular |= x.kind == Kind::Regular;
            cannon |= x.kind == Kind::Cannon;
            breakable |= x.kind.military() && x.kind != Kind::Cannon && !x.flipped;
        }
        if cannon && !regular {
            return false;
        }
        if steps == 2 && !breakable {
            return false;
        }
        for u in members(group) {
            let x = s.units[u as usize];
            if self.slowed(s, u) && steps > 0 {
                return false;
            }
            if !x.flipped || x.kind == Kind::Leader {
                continue;
            }
            // 4.1: broken units' limits.
            if side == PATRIOT {
                if self.regulars(s, t) > 0 {
                    return false;
                }
                if !leader && map.dist_concord[t as usize] >= map.dist_concord[at_r as usize] {
                    return false;
                }
            } else {
                if !leader && map.dist_boston[t as usize] >= map.dist_boston[at_r as usize] {
                    return false;
                }
                if !leader && self.minutemen(s, t) > 0 {
                    return false;
                }
            }
        }
        true
    }

    pub fn legal_move(&self, s: &State, out: &mut Actions) {
        let n = self.data.map.regions.len() as u8;
        match s.phase {
            Phase::Move {
                from,
                group,
                at: at_r,
                steps,
                road,
                hits,
                ..
            } => {
                if hits > 0 {
                    for u in members(group) {
                        if s.units[u as usize].at == Loc::At(at_r) {
                            out.push(Action::Hit(u));
                        }
                    }
                    return;
                }
                if steps == 0 {
                    for (u, _) in at(s, from) {
                        if group & bit(u) == 0 && self.can_move(s, u) {
                            out.push(Action::Pick(u));
                        }
                    }
                    for t in 0..n {
                        if self.step_ok(s, group, at_r, t, 0, false) {
                            out.push(Action::To(t));
                        }
                    }
                    // Done ends the Move action; a group not yet on its way stays unmoved.
                    out.push(Action::Done);
                } else {
                    for t in 0..n {
                        if self.step_ok(s, group, at_r, t, steps, road) {
                            out.push(Action::To(t));
                        }
                    }
                    if group.count_ones() > 1 {
                        let regulars = members(group)
                            .filter(|u| s.units[*u as usize].kind == Kind::Regular)
                            .count();
                        let cannon =
                            members(group).any(|u| s.units[u as usize].kind == Kind::Cannon);
                        for u in members(group) {
                            let k = s.units[u as usize].kind;
                            if !(cannon && k == Kind::Regular && regulars == 1) {
                                out.push(Action::Drop(u));
                            }
                        }
                    }
                    out.push(Action::Stop);
                }
            }
            Phase::ForcedBreak { group, .. } => {
                for u in self.forced_candidates(s, group) {
                    out.push(Action::Pick(u));
                }
            }
            Phase::MoveSon { unit, steps } => {
                for t in 0..n {
                    if self.son_step_ok(s, unit, steps, t) {
                        out.push(Action::To(t));
                    }
                }
                if steps > 0 {
                    out.push(Action::Done);
                }
            }
            _ => {}
        }
    }

    fn forced_candidates<'a>(
        &'a self,
        s: &'a State,
        group: Units,
    ) -> impl Iterator<Item = u8> + 'a {
        members(group).filter(move |&u| {
            let x = s.units[u as usize];
            x.kind.military() && x.kind != Kind::Cannon && !x.flipped && matches!(x.at, Loc::At(_))
        })
    }

    pub fn apply_move(&self, s: &mut State, a: Action, ev: &mut Ev) {
        match s.phase {
            Phase::Move {
                from,
                group,
                at: at_r,
                steps,
                road,
                cannon_used,
                hits,
                fire_hits,
            } => match a {
                Action::Hit(u) => {
                    self.hit(s, u, ev);
                    let group = members(group)
                        .filter(|&v| matches!(s.units[v as usize].at, Loc::At(_)))
                        .fold(0, |m, v| m | bit(v));
                    let left = if group == 0 { 0 } else { hits - 1 };
                    s.phase = Phase::Move {
                        from,
                        group,
                        at: at_r,
                        steps,
                        road,
                        cannon_used,
                        hits: left,
                        fire_hits,
                    };
                    if left == 0 {
                        self.after_step(s, ev);
                    }
                }
                Action::Pick(u) => {
                    s.phase = Phase::Move {
                        from,
                        group: group | bit(u),
                        at: at_r,
                        steps,
                        road,
                        cannon_used,
                        hits,
                        fire_hits,
                    };
                }
                Action::Done => self.end_action(s, ev),
                Action::To(t) => self.step(s, t, ev),
                Action::Drop(u) => {
                    s.dropped |= bit(u);
                    let x = &mut s.units[u as usize];
                    x.moved = true;
                    x.marched |= road && steps >= 2;
                    s.phase = Phase::Move {
                        from,
                        group: group & !bit(u),
                        at: at_r,
                        steps,
                        road,
                        cannon_used,
                        hits,
                        fire_hits,
                    };
                }
                Action::Stop => self.finish_group(s, ev),
                _ => {}
            },
            Phase::ForcedBreak { from, .. } => {
                if let Action::Pick(u) = a {
                    self.break_unit(s, u, ev);
                }
                self.back_to_selection(s, from, ev);
            }
            Phase::MoveSon { unit, steps } => match a {
                Action::To(t) => {
                    let stream = self
                        .data
                        .map
                        .is_stream(s.units[unit as usize].at.region().unwrap_or(t), t);
                    s.units[unit as usize].at = Loc::At(t);
                    let max = if s.options.hobbled_sons { 1 } else { 2 };
                    if stream
                        || steps + 1 >= max
                        || !(0..self.data.map.regions.len() as u8)
                            .any(|x| self.son_step_ok(s, unit, steps + 1, x))
                    {
                        s.units[unit as usize].moved = true;
                        self.end_action(s, ev);
                    } else {
                        s.phase = Phase::MoveSon {
                            unit,
                            steps: steps + 1,
                        };
                    }
                }
                _ => {
                    s.units[unit as usize].moved = true;
                    self.end_action(s, ev);
                }
            },
            _ => {}
        }
    }

    /// 4.4: may the Son of Liberty take its step number `steps + 1` into `t`?
    pub fn son_step_ok(&self, s: &State, u: u8, steps: u8, t: u8) -> bool {
        let map = &self.data.map;
        let Loc::At(r) = s.units[u as usize].at else {
            return false;
        };
        let max = if s.options.hobbled_sons { 1 } else { 2 };
        steps < max
            && map.adjacent(r, t)
            && self.may_enter(s, PATRIOT, t)
            // A stream without a road is crossed as the whole move (4.4).
            && !(map.is_stream(r, t) && steps > 0)
    }

    pub fn son_can_step(&self, s: &State, u: u8, steps: u8) -> bool {
        (0..self.data.map.regions.len() as u8).any(|t| self.son_step_ok(s, u, steps, t))
    }

    fn step(&self, s: &mut State, t: u8, ev: &mut Ev) {
        let Phase::Move {
            from,
            group,
            at: at_r,
            steps,
            cannon_used,
            hits,
            fire_hits,
            ..
        } = s.phase
        else {
            return;
        };
        let map = &self.data.map;
        let is_road = map.adjacent(at_r, t) && map.is_road(at_r, t);
        // 14.2: leaving a region passed through that holds an unbroken enemy piece.
        let mut new_hits = hits;
        if s.options.movement_fire && steps > 0 {
            let enemy = 1 - s.mover;
            let unbroken_enemy = at(s, at_r).any(|(i, u)| {
                !u.under
                    && !u.flipped
                    && (u.kind.military() || u.kind == Kind::Leader)
                    && self.side_of(s, i) == enemy
            });
            if unbroken_enemy {
                let d = s.dice.d6();
                ev.push(Event::Die {
                    side: enemy,
                    unit: 255,
                    die: d,
                    section: "14.2",
                });
                if d == 6 {
                    new_hits += 1;
                }
            }
        }
        for u in members(group) {
            s.units[u as usize].at = Loc::At(t);
        }
        ev.push(Event::Marched {
            side: s.mover,
            group,
            from: at_r,
            to: t,
        });
        s.phase = Phase::Move {
            from,
            group,
            at: t,
            steps: steps + 1,
            road: is_road,
            cannon_used,
            hits: new_hits,
            fire_hits,
        };
        if s.mode.solitaire() && s.mover == BRITISH {
            self.solitaire_fire(s, ev);
        }
        if let Phase::Move { hits, .. } = s.phase
            && hits > 0
        {
            return;
        }
        self.after_step(s, ev);
    }

    /// After a step and any hits it drew: the cannon, then the stopping tests (6.4).
    pub fn after_step(&self, s: &mut State, ev: &mut Ev) {
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
        if group == 0 {
            self.back_to_selection(s, from, ev);
            return;
        }
        let has_cannon = members(group).any(|u| s.units[u as usize].kind == Kind::Cannon);
        if has_cannon && !cannon_used && self.cannon_targets(s, t, true) != 0 {
            // 4.1: the first region entered with Patriot militia or Minutemen loses a unit.
            s.phase = Phase::Move {
                from,
                group,
                at: t,
                steps,
                road,
                cannon_used: true,
                hits,
                fire_hits,
            };
            s.phase = Phase::CannonBreak {
                region: t,
                in_move: true,
            };
            s.battle.attackers = group;
            s.battle.from = from;
            s.battle.region = t;
            s.battle.after_side = steps | if road { 0x80 } else { 0 };
            s.battle.defenders = fire_hits as u64;
            return;
        }
        if self.must_stop(s, group, t, steps, road) {
            self.finish_group(s, ev);
        }
    }

    fn must_stop(&self, s: &State, group: Units, t: u8, steps: u8, road: bool) -> bool {
        // A scout step, or a landing from Boston (9.0), ends the move.
        if !road {
            return true;
        }
        let max = if s.mover == BRITISH && s.mode.solitaire() {
            2
        } else {
            3
        };
        if steps >= max {
            return true;
        }
        if members(group).any(|u| self.slowed(s, u)) {
            return true;
        }
        if s.mover == BRITISH {
            if self.hindered(s, HINDER_MOVEMENT, t) {
                return true;
            }
            let regs = members(group)
                .filter(|u| s.units[*u as usize].kind == Kind::Regular)
                .count() as u8;
            let pats = self.unbroken_military(s, PATRIOT, t);
            pats > 0 && 2 * pats >= regs
        } else {
            let regs = self.regulars(s, t);
            let pats = members(group)
                .filter(|u| {
                    let x = s.units[*u as usize];
                    x.kind.military() && !x.flipped
                })
                .count() as u8;
            regs > 0 && 2 * regs >= pats
        }
    }

    fn finish_group(&self, s: &mut State, ev: &mut Ev) {
        let Phase::Move {
            from,
            group,
            steps,
            road,
            ..
        } = s.phase
        else {
            return;
        };
        for u in members(group) {
            let x = &mut s.units[u as usize];
            x.moved = true;
            x.marched |= road && steps >= 2;
        }
        if steps == 3 && self.forced_candidates(s, group).next().is_some() {
            s.phase = Phase::ForcedBreak { from, group };
            return;
        }
        self.back_to_selection(s, from, ev);
    }

    /// The next group of the same Move action: what the action has used so far carries over
    /// (the cannon's one break, 4.1; the solitaire opportunity-fire hits, two per British
    /// Move action, 15.2). Only a new Move action (`start_move`) starts them afresh. (A
    /// forced march, `Phase::ForcedBreak`, carries nothing, but the solitaire British never
    /// force march.)
    fn back_to_selection(&self, s: &mut State, from: u8, ev: &mut Ev) {
        let (cannon_used, fire_hits) = match s.phase {
            Phase::Move {
                cannon_used,
                fire_hits,
                ..
            } => (cannon_used, fire_hits),
            _ => (false, 0),
        };
        self.start_move(s, from);
        if let Phase::Move {
            cannon_used: c,
            fire_hits: f,
            ..
        } = &mut s.phase
        {
            *c = cannon_used;
            *f = fire_hits;
        }
        if !at(s, from).any(|(u, _)| self.can_move(s, u)) {
            self.end_action(s, ev);
        }
    }

    /// Patriot units the cannon may break in `r` (4.1): militia (and in movement Minutemen).
    pub fn cannon_targets(&self, s: &State, r: u8, in_move: bool) -> Units {
        at(s, r)
            .filter(|(_, u)| {
                !u.under
                    && !u.flipped
                    && (u.kind.militia() || (in_move && u.kind == Kind::Minuteman))
            })
            .fold(0, |m, (i, _)| m | bit(i))
    }

    pub fn legal_cannon_break(&self, s: &State, region: u8, out: &mut Actions) {
        let in_move = matches!(s.phase, Phase::CannonBreak { in_move: true, .. });
        for u in members(self.cannon_targets(s, region, in_move)) {
            out.push(Action::Pick(u));
        }
    }

    pub fn apply_cannon_break(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let Phase::CannonBreak { in_move, .. } = s.phase else {
            return;
        };
        if let Action::Pick(u) = a {
            self.break_unit(s, u, ev);
        }
        if in_move {
            let b = s.battle;
            s.phase = Phase::Move {
                from: b.from,
                group: b.attackers,
                at: b.region,
                steps: b.after_side & 0x7f,
                road: b.after_side & 0x80 != 0,
                cannon_used: true,
                hits: 0,
                fire_hits: b.defenders as u8,
            };
            s.battle = Battle::default();
            self.after_step(s, ev);
        } else {
            s.phase = Phase::FireMode;
        }
    }

    pub fn legal_assemble(&self, s: &State, out: &mut Actions) {
        let Phase::Assemble {
            from, to, group, ..
        } = s.phase
        else {
            return;
        };
        let leader = members(group).any(|u| s.units[u as usize].kind == Kind::Leader);
        let map = &self.data.map;
        for (u, x) in at(s, from) {
            if group & bit(u) != 0 || !self.can_move(s, u) {
                continue;
            }
            if x.flipped && x.kind != Kind::Leader {
                // 4.1: broken units never enter Regulars' regions; without a leader they only
                // go toward Concord.
                if self.regulars(s, to) > 0 {
                    continue;
                }
                if !leader && map.dist_concord[to as usize] >= map.dist_concord[from as usize] {
                    continue;
                }
            }
            out.push(Action::Pick(u));
        }
        if group != 0 {
            out.push(Action::Done);
        }
    }

    pub fn apply_assemble(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let Phase::Assemble {
            from,
            to,
            group,
            reserve,
        } = s.phase
        else {
            return;
        };
        match a {
            Action::Pick(u) => {
                s.phase = Phase::Assemble {
                    from,
                    to,
                    group: group | bit(u),
                    reserve,
                }
            }
            _ => {
                for u in members(group) {
                    let x = &mut s.units[u as usize];
                    x.at = Loc::At(to);
                    x.moved = true;
                }
                self.end_action(s, ev);
            }
        }
    }
}
