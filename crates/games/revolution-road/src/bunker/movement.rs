//! Movement: Land Move (6.5) with stacking (3.0), the Charlestown stop (3.3), the Neck
//! courage check (3.4) and staging numbers (3.5); Naval Move (6.6, in `sequence.rs`);
//! Reorganize the Line (6.8); Land Troops (6.10); and the forced moves: retreats (7.1),
//! panic flight (9.1, 9.2) and escaping a fire (6.4).

use super::Bunker;
use super::action::{Action, Event};
use super::sequence::{Actions, Board, Ev};
use super::state::*;

impl Bunker {
    fn mil_at(&self, s: &State, side: u8, r: u8) -> u8 {
        s.units
            .iter()
            .filter(|x| x.at == r && x.side == side && x.kind.military())
            .count() as u8
    }

    fn any_at(&self, s: &State, side: u8, r: u8) -> bool {
        s.units.iter().any(|x| x.at == r && x.side == side)
    }

    fn room(&self, s: &State, u: u8, r: u8) -> bool {
        let x = &s.units[u as usize];
        !x.kind.military() || self.mil_at(s, x.side, r) < self.cap(x.side, r)
    }

    /// 3.5: British counters in a staging area move only once it has held its staging number.
    pub fn staging_ok(&self, s: &State, r: u8) -> bool {
        if !self.is_staging(r) || s.staged >> r & 1 == 1 {
            return true;
        }
        self.staging_met(r, self.mil_at(s, BRITISH, r))
    }

    /// Does `count` British military units meet the staging number of staging area `r`?
    fn staging_met(&self, r: u8, count: u8) -> bool {
        let z = self.data.map.regions[r as usize].staging_zone;
        let need = self
            .data
            .map
            .regions
            .iter()
            .find(|x| x.zone == z)
            .map_or(0, |x| x.staging);
        count >= need
    }

    fn can_move(&self, s: &State, b: &Board, u: u8) -> bool {
        let x = &s.units[u as usize];
        x.at <= MUSTER
            && !self.is_zone(x.at)
            && !x.has(MOVED | PANIC)
            && x.kind != Kind::Battery
            && (x.side == PATRIOT
                || !self.is_staging(x.at)
                || s.staged >> x.at & 1 == 1
                || self.staging_met(x.at, b.n[BRITISH as usize][x.at as usize]))
    }

    /// 6.5: every region a counter can reach this move.
    pub fn reach(&self, s: &State, b: &Board, u: u8) -> u64 {
        self.reach_steps(s, b, u, false)
    }

    /// With `first`, stops at the first region found (enough to know a move exists).
    fn reach_steps(&self, s: &State, b: &Board, u: u8, first: bool) -> u64 {
        let x = s.units[u as usize];
        let side = x.side;
        let enemy = 1 - side as usize;
        let from = x.at;
        let max = if x.kind == Kind::Leader { 4 } else { 3 };
        let leader_here = from <= MUSTER && b.leaders[side as usize] >> from & 1 == 1;
        // 4.1: broken units without a leader go only toward the Neck / their staging area;
        // 9.2: demoralized militia only toward the Muster Box.
        let toward: Option<&[u8; 60]> =
            if x.broken() && !matches!(x.kind, Kind::Leader | Kind::Cannon) && !leader_here {
                Some(if side == PATRIOT {
                    &self.data.map.muster_dist
                } else {
                    &self.data.map.staging_dist
                })
            } else if side == PATRIOT && x.kind == Kind::Militia && s.demoralized[0] {
                Some(&self.data.map.muster_dist)
            } else {
                None
            };
        let d = |r: u8| -> u8 {
            match toward {
                Some(t) => {
                    if r == MUSTER {
                        0
                    } else {
                        t[r as usize]
                    }
                }
                None => 0,
            }
        };
        let counts = &b.n[side as usize];
        let blocked = b.any[enemy] | s.ablaze | self.data.map.zones;
        let mut reached = 0u64;
        let mut frontier = 1u64 << from;
        let mut seen = frontier;
        for _ in 0..max {
            let mut next = 0u64;
            for c in bits64(frontier) {
                for n in bits64(self.adj(c) & !seen & !blocked) {
                    if side == BRITISH && n == MUSTER {
                        continue;
                    }
                    if x.kind.military() && counts[n as usize] >= self.cap(side, n) {
                        continue;
                    }
                    if toward.is_some() && d(n) >= d(c) {
                        continue;
                    }
                    reached |= 1 << n;
                    if first {
                        return reached;
                    }
                    // Stop next to unbroken enemy units (6.5, FAQ); the British stop on
                    // entering a town region (3.3).
                    let stop = (n != MUSTER && self.adj(n) & b.healthy[enemy] != 0)
                        || (side == BRITISH && self.is_town(n));
                    if !stop {
                        next |= 1 << n;
                    }
                }
            }
            seen |= next | reached;
            frontier = next;
        }
        reached & !(1 << from)
    }

    pub fn legal_moves(&self, s: &State, b: &Board, side: u8, out: &mut Actions) {
        let mut done = 0u64;
        for (i, x) in s.units.iter().enumerate() {
            if x.side != side || x.at > MUSTER || done >> x.at & 1 == 1 {
                continue;
            }
            if self.can_move(s, b, i as u8) && self.reach_steps(s, b, i as u8, true) != 0 {
                done |= 1 << x.at;
            }
        }
        for r in bits64(done) {
            out.push(Action::Move(r));
        }
    }

    pub fn legal_go(&self, s: &State, b: &Board, from: u8, out: &mut Actions) {
        let side = s.mover;
        let staging_cap = side == BRITISH && self.is_staging(from) && s.count >= 3;
        for u in bits(self.here(s, from)) {
            let x = s.units[u as usize];
            if x.side != side || !self.can_move(s, b, u) || (staging_cap && x.kind.military()) {
                continue;
            }
            for r in bits64(self.reach(s, b, u)) {
                out.push(Action::Go { unit: u, to: r });
            }
        }
        if s.sel != 0 {
            out.push(Action::Done);
        }
    }

    pub fn apply_go(&self, s: &mut State, from: u8, exempt: u8, a: Action, ev: &mut Ev) {
        let Action::Go { unit, to } = a else {
            self.finish_action(s);
            return;
        };
        if self.is_staging(from) {
            s.staged |= 1 << from;
        }
        s.sel |= 1 << unit;
        let x = s.units[unit as usize];
        if x.kind.military() {
            s.count += 1;
        }
        s.units[unit as usize].flags |= MOVED;
        // 3.4: militia crossing the Neck from the Muster Box under the fleet's guns.
        if from == MUSTER && x.kind == Kind::Militia && s.fleet == 2 {
            if exempt > 0 {
                s.phase = Phase::Move {
                    from,
                    exempt: exempt - 1,
                };
            } else {
                self.reveal(s, unit, ev);
                let d = s.dice.d6();
                // 3.4 adds the combat strength: none for a broken piece (4.1).
                let total = d + self.strength(s, unit);
                let passed = total > 3;
                ev.push(Event::Courage {
                    unit,
                    die: d,
                    total,
                    passed,
                });
                if !passed {
                    return;
                }
            }
        }
        self.relocate(s, unit, to, ev);
    }

    // ----- 6.8 Reorganize the Line -----

    fn reorg_counts(&self, s: &State, a: u8, b: u8) -> [[u8; 2]; 2] {
        // [region][0: all own military, 1: own military still free to shift]
        let side = s.mover;
        let mut c = [[0u8; 2]; 2];
        for (i, x) in s.units.iter().enumerate() {
            if x.side != side || !x.kind.military() {
                continue;
            }
            let k = if x.at == a {
                0
            } else if x.at == b {
                1
            } else {
                continue;
            };
            c[k][0] += 1;
            if s.sel >> i & 1 == 0 && !x.has(MOVED | PANIC) {
                c[k][1] += 1;
            }
        }
        c
    }

    fn reorg_feasible(&self, s: &State, a: u8, b: u8, c: [[u8; 2]; 2]) -> bool {
        let side = s.mover;
        reorg_range(c, self.cap(side, a), self.cap(side, b), true)
    }

    pub fn legal_reorgs(&self, s: &State, b: &Board, side: u8, out: &mut Actions) {
        let blocked = b.any[1 - side as usize] | s.ablaze | self.data.map.zones;
        // Per region: own military, own military free to shift, free leaders.
        let mut free = [0u8; 64];
        let mut free_leaders = 0u64;
        let mut movable = 0u64;
        for x in s.units.iter() {
            if x.side == side && x.on_map() && !x.has(MOVED | PANIC) && x.kind != Kind::Battery {
                movable |= 1 << x.at;
                if x.kind.military() {
                    free[x.at as usize] += 1;
                } else {
                    free_leaders |= 1 << x.at;
                }
            }
        }
        let n = &b.n[side as usize];
        let land = self.data.map.land & !blocked;
        for a in bits64(land & movable) {
            for bb in bits64(self.data.map.regions[a as usize].adj & land) {
                if movable >> bb & 1 == 1 && bb < a {
                    continue;
                }
                let (a, bb) = if a < bb { (a, bb) } else { (bb, a) };
                let c = [
                    [n[a as usize], free[a as usize]],
                    [n[bb as usize], free[bb as usize]],
                ];
                let leaders = (free_leaders >> a | free_leaders >> bb) & 1 == 1;
                let ok = reorg_range(c, self.cap(side, a), self.cap(side, bb), false);
                let (ca, cb) = (self.cap(side, a) as i16, self.cap(side, bb) as i16);
                let settled = c[0][0] as i16 <= ca && c[1][0] as i16 <= cb;
                if ok || (leaders && settled) {
                    out.push(Action::Reorg { a, b: bb });
                }
            }
        }
    }

    pub fn legal_reorg_pick(&self, s: &State, _b: &Board, a: u8, b: u8, out: &mut Actions) {
        let side = s.mover;
        let c = self.reorg_counts(s, a, b);
        for (i, x) in s.units.iter().enumerate() {
            if x.side != side || (x.at != a && x.at != b) || x.has(MOVED | PANIC) {
                continue;
            }
            if s.sel >> i & 1 == 1 || x.kind == Kind::Battery {
                continue;
            }
            let ok = if x.kind.military() {
                let mut d = c;
                let (k, o) = if x.at == a { (0, 1) } else { (1, 0) };
                d[k][0] -= 1;
                d[k][1] -= 1;
                d[o][0] += 1;
                self.reorg_feasible(s, a, b, d)
            } else {
                self.reorg_feasible(s, a, b, c)
            };
            if ok {
                out.push(Action::Add(i as u8));
            }
        }
        if s.sel != 0 && c[0][0] <= self.cap(side, a) && c[1][0] <= self.cap(side, b) {
            out.push(Action::Done);
        }
    }

    pub fn apply_reorg_pick(&self, s: &mut State, a: u8, b: u8, act: Action, ev: &mut Ev) {
        match act {
            Action::Add(u) => {
                let at = s.units[u as usize].at;
                let to = if at == a { b } else { a };
                s.sel |= 1 << u;
                self.relocate(s, u, to, ev);
            }
            _ => {
                for u in bits(s.sel) {
                    s.units[u as usize].flags |= MOVED;
                }
                self.finish_action(s);
            }
        }
    }

    // ----- 6.10 Land Troops -----

    pub fn transport(&self, s: &State, zone: u8) -> u8 {
        let z = &self.data.map.regions[zone as usize];
        if s.mode.solitaire() && (z.zone == 1 || z.zone == 2) {
            z.transport.max(2)
        } else {
            z.transport
        }
    }

    pub fn legal_landings(&self, s: &State, b: &Board, out: &mut Actions) {
        let mut zones = 0u64;
        for x in s.units.iter() {
            if x.side == BRITISH && self.is_zone(x.at) && !x.has(MOVED) {
                zones |= 1 << x.at;
            }
        }
        for z in bits64(zones) {
            for t in bits64(self.data.map.regions[z as usize].adj & self.data.map.staging) {
                if b.any[PATRIOT as usize] >> t & 1 == 0 && s.ablaze >> t & 1 == 0 {
                    out.push(Action::Land { zone: z, to: t });
                }
            }
        }
    }

    pub fn legal_land_pick(&self, s: &State, zone: u8, _to: u8, out: &mut Actions) {
        let floor = if s.sel == 0 {
            0
        } else {
            128 - s.sel.leading_zeros() as u8
        };
        let mil = bits(s.sel)
            .filter(|u| s.units[*u as usize].kind.military())
            .count() as u8;
        let cap = self.transport(s, zone);
        for u in bits(self.here(s, zone)) {
            let x = s.units[u as usize];
            if u >= floor && x.side == BRITISH && !x.has(MOVED) && (!x.kind.military() || mil < cap)
            {
                out.push(Action::Add(u));
            }
        }
        if s.sel != 0 {
            out.push(Action::Done);
        }
    }

    pub fn apply_land_pick(&self, s: &mut State, zone: u8, to: u8, a: Action, ev: &mut Ev) {
        match a {
            Action::Add(u) => s.sel |= 1 << u,
            _ => {
                for u in bits(s.sel) {
                    self.relocate(s, u, to, ev);
                    s.units[u as usize].flags |= MOVED;
                }
                let need = self.data.map.regions[zone as usize].staging;
                if self.mil_at(s, BRITISH, to) >= need {
                    s.staged |= 1 << to;
                }
                self.finish_action(s);
            }
        }
    }

    // ----- forced moves -----

    /// 9.1 / 9.2: where a counter may end a flight of `steps` regions toward the Muster Box,
    /// going further only when stacking demands it.
    pub fn flee_options(&self, s: &State, u: u8, steps: u8) -> u64 {
        let x = s.units[u as usize];
        if !x.on_map() {
            return 0;
        }
        let total = self.muster_dist(x.at);
        if total == 0 || total == 255 {
            return 0;
        }
        let passable = |r: u8| {
            r == MUSTER
                || (!self.is_zone(r) && s.ablaze >> r & 1 == 0 && !self.any_at(s, 1 - x.side, r))
        };
        let mut cur = 1u64 << x.at;
        for step in 1..=total {
            let mut next = 0u64;
            for c in bits64(cur) {
                let dc = self.muster_dist(c);
                for n in bits64(self.adj(c)) {
                    if dc.checked_sub(1) == Some(self.muster_dist(n)) && passable(n) {
                        next |= 1 << n;
                    }
                }
            }
            cur = next;
            if cur == 0 {
                return 0;
            }
            if step >= steps.min(total) {
                let mut ok = 0u64;
                for r in bits64(cur) {
                    if self.room(s, u, r) {
                        ok |= 1 << r;
                    }
                }
                if ok != 0 {
                    return ok;
                }
            }
        }
        0
    }

    /// 7.1: a defender's retreat goes to a region farther from the assault, all to the same
    /// region while stacking allows, one region further only when stacking demands.
    pub fn retreat_options(&self, s: &State, u: u8, origin: u8) -> u64 {
        let x = s.units[u as usize];
        let from = x.at;
        if from > MUSTER {
            return 0;
        }
        let enemy = 1 - x.side;
        let open = |r: u8| {
            r != origin
                && r != from
                && (r == MUSTER || (!self.is_zone(r) && s.ablaze >> r & 1 == 0))
                && !(x.side == BRITISH && r == MUSTER)
                && !self.any_at(s, enemy, r)
        };
        let far = |r: u8| r == MUSTER || self.dist(origin, r) >= 2;
        let mut rear = 0u64;
        for r in bits64(self.adj(from)) {
            if open(r) && far(r) {
                rear |= 1 << r;
            }
        }
        let mut ok = 0u64;
        for r in bits64(rear) {
            if self.room(s, u, r) {
                ok |= 1 << r;
            }
        }
        if s.group != 255 && ok >> s.group & 1 == 1 {
            return 1 << s.group;
        }
        if ok != 0 {
            return ok;
        }
        let mut beyond = 0u64;
        for r in bits64(rear) {
            for n in bits64(self.adj(r)) {
                if open(n) && self.room(s, u, n) {
                    beyond |= 1 << n;
                }
            }
        }
        beyond
    }

    /// 6.4: where a counter can escape a burning region.
    pub fn evacuate_options(&self, s: &State, u: u8) -> u64 {
        let x = s.units[u as usize];
        if !x.on_map() {
            return 0;
        }
        let mut ok = 0u64;
        for r in bits64(self.adj(x.at)) {
            let land = r == MUSTER || !self.is_zone(r);
            if land
                && !(x.side == BRITISH && r == MUSTER)
                && (r == MUSTER || s.ablaze >> r & 1 == 0)
                && !self.any_at(s, 1 - x.side, r)
                && self.room(s, u, r)
            {
                ok |= 1 << r;
            }
        }
        ok
    }
}

/// 6.8: can `x` units shift from the first region and `y` from the second (each at most the
/// free ones) so that both end within their caps? With `allow_none`, shifting nothing counts.
fn reorg_range(c: [[u8; 2]; 2], cap_a: u8, cap_b: u8, allow_none: bool) -> bool {
    let (a, fa) = (c[0][0] as i16, c[0][1] as i16);
    let (b, fb) = (c[1][0] as i16, c[1][1] as i16);
    // With d = x - y: a - d <= cap_a and b + d <= cap_b.
    let lo = (a - cap_a as i16).max(-fb);
    let hi = (cap_b as i16 - b).min(fa);
    if lo > hi {
        return false;
    }
    allow_none || lo != 0 || hi != 0 || (fa >= 1 && fb >= 1)
}
