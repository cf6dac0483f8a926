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

    /// May counter `u` (in `from`) move on in the current Land Move?
    fn go_unit_ok(&self, s: &State, b: &Board, from: u8, u: u8) -> bool {
        let side = s.mover;
        // 3.5: at most three units leave a staging area in one move.
        let staging_cap = side == BRITISH && self.is_staging(from) && s.count >= 3;
        let x = s.units[u as usize];
        x.at == from
            && x.side == side
            && self.can_move(s, b, u)
            && !(staging_cap && x.kind.military())
    }

    pub fn legal_go(&self, s: &State, b: &Board, from: u8, out: &mut Actions) {
        for u in bits(self.here(s, from)) {
            if !self.go_unit_ok(s, b, from, u) {
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

    /// Is `a` among `legal_go`? Only the named counter's reach is computed.
    pub fn go_is_legal(&self, s: &State, from: u8, a: Action) -> bool {
        match a {
            Action::Go { unit, to } => {
                if unit as usize >= s.units.len() || to >= 64 || s.units[unit as usize].at != from {
                    return false;
                }
                let b = Board::of(s);
                self.go_unit_ok(s, &b, from, unit) && self.reach(s, &b, unit) >> to & 1 == 1
            }
            Action::Done => s.sel != 0,
            _ => false,
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

    /// How far `r` is from where a side's broken units fall back to (4.1): the Muster Box
    /// for the Patriot, the nearest staging area for the British.
    fn rear_dist(&self, side: u8, r: u8) -> u8 {
        if side == PATRIOT {
            self.muster_dist(r)
        } else if r < MUSTER {
            self.data.map.staging_dist[r as usize]
        } else {
            255
        }
    }

    /// 9.2 (ruling B60): a demoralized Patriot's militia may shift in a reorganization only
    /// to the region nearer the Muster Box; 4.1 (ruling B61): so may a broken unit that had
    /// no healthy leader of its side in its region when the action began (toward the Neck,
    /// or toward a staging area for the British).
    fn reorg_shift_ok(&self, s: &State, u: u8, to: u8) -> bool {
        let x = &s.units[u as usize];
        let demoralized =
            x.side == PATRIOT && x.kind == Kind::Militia && s.demoralized[PATRIOT as usize];
        let broken = x.broken() && x.kind.military() && x.kind != Kind::Cannon && {
            // Leaders that began the action in the unit's region: those still there, and
            // those already shifted to the other region.
            let led = s.units.iter().enumerate().any(|(i, l)| {
                l.kind == Kind::Leader
                    && l.side == x.side
                    && !l.broken()
                    && ((l.at == x.at && s.sel >> i & 1 == 0)
                        || (l.at == to && s.sel >> i & 1 == 1))
            });
            !led
        };
        !(demoralized || broken) || self.rear_dist(x.side, to) < self.rear_dist(x.side, x.at)
    }

    fn reorg_feasible(&self, s: &State, a: u8, b: u8, c: [[u8; 2]; 2]) -> bool {
        let side = s.mover;
        reorg_range(c, self.cap(side, a), self.cap(side, b), true)
    }

    /// What the Reorganize the Line actions of a side depend on, region by region, in one
    /// pass over the counters (the same counts as `Board`, for this side only).
    fn reorg_masks(&self, s: &State, side: u8) -> ReorgMasks {
        let mut m = ReorgMasks {
            land: 0,
            movable: 0,
            free_mil: 0,
            leaders: 0,
            room: !0,
            settled: !0,
            restricted: 0,
            n: [0; 64],
            free: [0; 64],
            homeward: [0; 64],
        };
        let mut enemy = 0u64;
        let mut mil = 0u64;
        let mut led = 0u64;
        for x in s.units.iter() {
            if x.side == side && x.kind == Kind::Leader && !x.broken() && x.at < MUSTER {
                led |= 1 << x.at;
            }
        }
        for x in s.units.iter() {
            if x.at > MUSTER {
                continue;
            }
            if x.side != side {
                enemy |= 1 << x.at;
                continue;
            }
            if x.kind.military() {
                mil |= 1 << x.at;
                m.n[x.at as usize] += 1;
            }
            if x.at < MUSTER && !x.has(MOVED | PANIC) && x.kind != Kind::Battery {
                m.movable |= 1 << x.at;
                if x.kind.military() {
                    m.free[x.at as usize] += 1;
                    m.free_mil |= 1 << x.at;
                    let demoralized =
                        x.kind == Kind::Militia && side == PATRIOT && s.demoralized[0];
                    let broken = x.broken() && x.kind != Kind::Cannon && led >> x.at & 1 == 0;
                    if demoralized || broken {
                        m.homeward[x.at as usize] += 1;
                        m.restricted |= 1 << x.at;
                    }
                } else {
                    m.leaders |= 1 << x.at;
                }
            }
        }
        let blocked = enemy | s.ablaze | self.data.map.zones;
        m.land = self.data.map.land & !blocked;
        // Regions with no military unit of the side have room and are within their cap.
        for r in bits64(mil) {
            let cap = self.cap(side, r);
            if m.n[r as usize] >= cap {
                m.room &= !(1 << r);
            }
            if m.n[r as usize] > cap {
                m.settled &= !(1 << r);
            }
        }
        m
    }

    /// 6.8: may the side reorganize the regions `a` < `b` (adjacent, both open)? Some
    /// shift must leave both within their stacking limit, or a free leader may shift alone.
    fn reorg_pair_ok(&self, side: u8, m: &ReorgMasks, a: u8, bb: u8) -> bool {
        // Free units that may shift to the partner: demoralized militia (9.2) and broken
        // units without a leader (4.1) only toward the rear.
        let free = |x: u8, y: u8| {
            let mut f = m.free[x as usize];
            if self.rear_dist(side, y) >= self.rear_dist(side, x) {
                f -= m.homeward[x as usize];
            }
            f
        };
        let c = [
            [m.n[a as usize], free(a, bb)],
            [m.n[bb as usize], free(bb, a)],
        ];
        let leaders = (m.leaders >> a | m.leaders >> bb) & 1 == 1;
        let ok = reorg_range(c, self.cap(side, a), self.cap(side, bb), false);
        let (ca, cb) = (self.cap(side, a) as i16, self.cap(side, bb) as i16);
        let settled = c[0][0] as i16 <= ca && c[1][0] as i16 <= cb;
        ok || (leaders && settled)
    }

    /// The partners `bb` in `cand` (open land regions next to `a`, where `a` holds a free
    /// counter) with which `a` may be reorganized: `reorg_pair_ok` computed a mask at a time.
    /// When both regions are within their caps the test reduces to: a free leader in either,
    /// or, `a` having a free unit, `bb` having a free counter or room for one more unit.
    fn reorg_partners(&self, side: u8, m: &ReorgMasks, a: u8, cand: u64) -> u64 {
        let mut ok = 0u64;
        let mut slow = cand;
        if m.settled >> a & 1 == 1 && m.restricted >> a & 1 == 0 {
            let fast = cand & m.settled & !m.restricted;
            ok = if m.leaders >> a & 1 == 1 {
                fast
            } else {
                fast & (m.room | m.free_mil | m.leaders)
            };
            slow &= !fast;
        }
        for bb in bits64(slow) {
            let (x, y) = if a < bb { (a, bb) } else { (bb, a) };
            if self.reorg_pair_ok(side, m, x, y) {
                ok |= 1 << bb;
            }
        }
        ok
    }

    pub fn legal_reorgs(&self, s: &State, side: u8, out: &mut Actions) {
        let m = self.reorg_masks(s, side);
        for a in bits64(m.land & m.movable) {
            // Each pair once: skip a partner that is itself movable and came earlier.
            let below = (1u64 << a) - 1;
            let cand = self.data.map.regions[a as usize].adj & m.land & !(m.movable & below);
            for bb in bits64(self.reorg_partners(side, &m, a, cand)) {
                let (x, y) = if a < bb { (a, bb) } else { (bb, a) };
                out.push(Action::Reorg { a: x, b: y });
            }
        }
    }

    /// Is `Reorg { a, b }` among `legal_reorgs`? Adjacency is symmetric and no region is
    /// next to itself (checked when the map is loaded), so the listed pairs are exactly the
    /// adjacent open land regions `a` < `b` with a free counter in either that pass
    /// `reorg_pair_ok`.
    pub fn reorg_is_legal(&self, s: &State, side: u8, a: u8, bb: u8) -> bool {
        if a >= bb || bb >= MUSTER {
            return false;
        }
        let m = self.reorg_masks(s, side);
        let both = 1u64 << a | 1u64 << bb;
        m.land & both == both
            && self.data.map.regions[a as usize].adj >> bb & 1 == 1
            && m.movable & both != 0
            && self.reorg_pair_ok(side, &m, a, bb)
    }

    /// The counters that may shift between `a` and `b` now, and whether the step may end.
    /// Whether a shift keeps the reorganization feasible depends only on the counter's
    /// region and on whether it is a military unit, so each of the four cases is worked out
    /// once.
    fn reorg_pick_options(&self, s: &State, a: u8, b: u8) -> (Units, bool) {
        let side = s.mover;
        // [region][0: all own military, 1: own military still free to shift]
        let mut c = [[0u8; 2]; 2];
        // Counters free to shift: military units in a, in b; leaders in either.
        let mut mil: [Units; 2] = [0; 2];
        let mut others: Units = 0;
        for (i, x) in s.units.iter().enumerate() {
            if x.side != side || (x.at != a && x.at != b) {
                continue;
            }
            let k = if x.at == a { 0 } else { 1 };
            let other = if k == 0 { b } else { a };
            let free = s.sel >> i & 1 == 0
                && !x.has(MOVED | PANIC)
                && self.reorg_shift_ok(s, i as u8, other);
            if x.kind.military() {
                c[k][0] += 1;
                if free {
                    c[k][1] += 1;
                    mil[k] |= 1 << i;
                }
            } else if free && x.kind != Kind::Battery {
                others |= 1 << i;
            }
        }
        let mut ok: Units = 0;
        for k in 0..2 {
            if mil[k] != 0 {
                // One unit leaves region k for the other one.
                let mut d = c;
                d[k][0] -= 1;
                d[k][1] -= 1;
                d[1 - k][0] += 1;
                if self.reorg_feasible(s, a, b, d) {
                    ok |= mil[k];
                }
            }
        }
        if others != 0 && self.reorg_feasible(s, a, b, c) {
            ok |= others;
        }
        let done = s.sel != 0 && c[0][0] <= self.cap(side, a) && c[1][0] <= self.cap(side, b);
        (ok, done)
    }

    pub fn legal_reorg_pick(&self, s: &State, _b: &Board, a: u8, b: u8, out: &mut Actions) {
        let (ok, done) = self.reorg_pick_options(s, a, b);
        for u in bits(ok) {
            out.push(Action::Add(u));
        }
        if done {
            out.push(Action::Done);
        }
    }

    /// Is `act` among `legal_reorg_pick`?
    pub fn reorg_pick_is_legal(&self, s: &State, a: u8, b: u8, act: Action) -> bool {
        let (ok, done) = self.reorg_pick_options(s, a, b);
        match act {
            Action::Add(u) => u < 128 && ok >> u & 1 == 1,
            Action::Done => done,
            _ => false,
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

    /// The counters that may still join the current landing (in roster order, up to the
    /// zone's transport number of units), as a set.
    fn land_pick_options(&self, s: &State, zone: u8) -> Units {
        let floor = if s.sel == 0 {
            0
        } else {
            128 - s.sel.leading_zeros() as u8
        };
        let mil = bits(s.sel)
            .filter(|u| s.units[*u as usize].kind.military())
            .count() as u8;
        let cap = self.transport(s, zone);
        let mut ok: Units = 0;
        for u in bits(self.here(s, zone)) {
            let x = s.units[u as usize];
            if u >= floor && x.side == BRITISH && !x.has(MOVED) && (!x.kind.military() || mil < cap)
            {
                ok |= 1 << u;
            }
        }
        ok
    }

    pub fn legal_land_pick(&self, s: &State, zone: u8, _to: u8, out: &mut Actions) {
        for u in bits(self.land_pick_options(s, zone)) {
            out.push(Action::Add(u));
        }
        if s.sel != 0 {
            out.push(Action::Done);
        }
    }

    /// Is `a` among `legal_land_pick`?
    pub fn land_pick_is_legal(&self, s: &State, zone: u8, a: Action) -> bool {
        match a {
            Action::Add(u) => u < 128 && self.land_pick_options(s, zone) >> u & 1 == 1,
            Action::Done => s.sel != 0,
            _ => false,
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
        // One region further, still away from the assault (7.1): never back next to the
        // region the attack came from.
        let mut beyond = 0u64;
        for r in bits64(rear) {
            for n in bits64(self.adj(r)) {
                if open(n) && far(n) && self.room(s, u, n) {
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

/// Per region (bit r), for one side's Reorganize the Line actions.
struct ReorgMasks {
    /// Land regions with no enemy counter, not ablaze (landing zones excluded).
    land: u64,
    /// A counter of the side free to shift (not moved, not panicked).
    movable: u64,
    /// A military unit of the side free to shift.
    free_mil: u64,
    /// A leader of the side free to shift.
    leaders: u64,
    /// Fewer military units of the side than the stacking limit.
    room: u64,
    /// No more military units of the side than the stacking limit.
    settled: u64,
    /// Military units of the side.
    n: [u8; 64],
    /// Military units of the side free to shift.
    free: [u8; 64],
    /// Regions holding a free unit counted in `homeward`: their pairs are worked out one by
    /// one.
    restricted: u64,
    /// Of `free`, the units that may shift only toward the rear: demoralized militia (9.2),
    /// broken units with no healthy leader of the side in the region (4.1).
    homeward: [u8; 64],
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
