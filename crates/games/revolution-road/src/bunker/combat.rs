//! Combat: Volley Fire (6.1), Assault (6.2) with retreats (7.1), Cannonade (6.3), Bombard
//! (6.4), Snipe (6.9), Rally (6.7), hits (7.0), Line of Sight (7.2, computed in `data.rs`),
//! terrain modifiers (3.1, 3.3), ammunition (8.0, 11.2), morale, panic and demoralization
//! (9.0-9.4).

use super::Bunker;
use super::action::{Action, Event};
use super::data::{ModKind, RegionKind};
use super::sequence::{Actions, Board, Ev};
use super::state::*;
use muster_core::words::Faces;

impl Bunker {
    // ----- shared -----

    /// 8.0: the most dice the Patriot may roll.
    pub fn patriot_cap(&self, s: &State) -> u8 {
        if s.ammo == 0 {
            2
        } else if s.ammo <= 12 {
            3
        } else {
            u8::MAX
        }
    }

    /// 3.1: do the target region's printed modifiers count against fire or an assault from
    /// `from`?
    pub fn terrain_applies(&self, from: u8, to: u8) -> bool {
        let map = &self.data.map;
        if from >= MUSTER || to >= MUSTER {
            return false;
        }
        let t = &map.regions[to as usize];
        let f = &map.regions[from as usize];
        match t.modifier {
            ModKind::None => false,
            ModKind::Redoubt => true,
            _ if f.kind == RegionKind::Hilltop => false,
            ModKind::Wall => t.wall_from >> from & 1 == 1,
            ModKind::Normal => {
                let rough = |k| matches!(k, RegionKind::Slope | RegionKind::Ridge);
                !(rough(t.kind) && rough(f.kind) && map.adjacent(from, to))
            }
        }
    }

    /// 7.2: can `from` see `to` now?
    pub fn sees(&self, b: &Board, from: u8, to: u8) -> bool {
        if from >= MUSTER || to >= MUSTER {
            return false;
        }
        let sight = self.data.map.sight(from, to);
        !sight.blocked && sight.units & b.occupied() == 0
    }

    #[inline]
    pub fn dist(&self, a: u8, b: u8) -> u8 {
        if a >= MUSTER || b >= MUSTER {
            return 255;
        }
        self.data.map.dist[a as usize][b as usize]
    }

    /// Combat dice of a group of counters of one side in `region`: (dice that hit normally,
    /// Patriot militia dice that hit only on 6 once demoralized, 9.2). Each Patriot leader
    /// in the region counts one 0-strength militia as 1 (4.1). Hidden militia are revealed.
    fn group_dice(&self, s: &mut State, group: Units, region: u8, ev: &mut Ev) -> (i16, i16) {
        let mut leaders = 0u8;
        for x in s.units.iter() {
            if x.at == region && x.kind == Kind::Leader && x.side == PATRIOT {
                leaders += 1;
            }
        }
        let mut two_player_cap = u8::MAX;
        if s.mode.solitaire() && s.solo.objective == 1 && self.is_town(region) {
            // 12.3/12.4 Charlestown objective: two of three units fire in town.
            two_player_cap = 2;
        }
        let mut st: arrayvec::ArrayVec<(u8, bool), MAX_UNITS> = arrayvec::ArrayVec::new();
        for u in bits(group) {
            let x = s.units[u as usize];
            if !x.kind.military() {
                continue;
            }
            self.reveal(s, u, ev);
            let mut v = self.strength(s, u);
            let x = s.units[u as usize];
            let militia = x.kind == Kind::Militia;
            if militia && v == 0 && !x.broken() && leaders > 0 {
                leaders -= 1;
                v = 1;
            }
            let slow = militia && x.side == PATRIOT && s.demoralized[PATRIOT as usize];
            if !st.is_full() {
                st.push((v, slow));
            }
        }
        if st.len() > two_player_cap as usize {
            st.sort_by_key(|x| std::cmp::Reverse(x.0));
            st.truncate(two_player_cap as usize);
        }
        let mut n = 0i16;
        let mut m = 0i16;
        for (v, slow) in st {
            if slow {
                m += v as i16;
            } else {
                n += v as i16;
            }
        }
        (n, m)
    }

    /// Applies a dice modifier and the Patriot cap (8.0, FAQ): penalties fall on the
    /// slow militia dice first (B6).
    fn adjust(&self, s: &State, side: u8, n: i16, m: i16, delta: i16) -> (u8, u8) {
        let (mut n, mut m) = (n, m);
        if delta >= 0 {
            n += delta;
        } else {
            let mut d = -delta;
            let take = d.min(m);
            m -= take;
            d -= take;
            n = (n - d).max(0);
        }
        if side == PATRIOT {
            let cap = self.patriot_cap(s) as i16;
            while n + m > cap {
                if m > 0 {
                    m -= 1;
                } else {
                    n -= 1;
                }
            }
        }
        (n.max(0) as u8, m.max(0) as u8)
    }

    fn roll(&self, s: &mut State, side: u8, n: u8, m: u8, need: u8, ev: &mut Ev) -> u8 {
        let mut hits = 0;
        let (mut faces, mut sixes) = (Faces::default(), Faces::default());
        for _ in 0..n {
            let d = s.dice.d6();
            faces.push(d);
            if d >= need {
                hits += 1;
            }
        }
        for _ in 0..m {
            let d = s.dice.d6();
            sixes.push(d);
            if d >= 6 {
                hits += 1;
            }
        }
        ev.push(Event::Roll {
            side,
            dice: n + m,
            hits,
            need,
            faces,
            sixes,
        });
        hits
    }

    /// 11.1: the first British hit on the Redoubt or a wall region is ignored.
    fn works_absorb(&self, s: &State, side: u8, to: u8, hits: u8, ev: &mut Ev) -> u8 {
        if s.options.strong_works && side == BRITISH && hits > 0 && to < MUSTER {
            let m = self.data.map.regions[to as usize].modifier;
            if matches!(m, ModKind::Redoubt | ModKind::Wall) {
                ev.push(Event::Ignored { region: to });
                return hits - 1;
            }
        }
        hits
    }

    pub fn spend_ammo(&self, s: &mut State, n: u8, ev: &mut Ev) {
        if n == 0 {
            return;
        }
        s.ammo = s.ammo.saturating_sub(n);
        if s.ammo == 0 {
            s.ammo_out = true;
        }
        ev.push(Event::Ammo { value: s.ammo });
    }

    /// 9.0: moves a side's morale marker; at 0 the side is demoralized (9.2-9.4).
    pub fn morale(&self, s: &mut State, side: u8, delta: i8, ev: &mut Ev) {
        let i = side as usize & 1;
        let v = (s.morale[i] as i16 + delta as i16).clamp(0, 24) as u8;
        s.morale[i] = v;
        ev.push(Event::Morale { side, value: v });
        if v == 0 && !s.demoralized[i] {
            s.demoralized[i] = true;
            s.reserves[i] = 0;
            ev.push(Event::Demoralized { side });
            if side == PATRIOT {
                // 9.2: every militia unit moves three regions toward the Muster Box, once.
                for u in 0..s.units.len() {
                    let x = s.units[u];
                    if x.kind == Kind::Militia
                        && x.side == PATRIOT
                        && x.on_map()
                        && !s.tasks.is_full()
                    {
                        s.tasks.push(Task::Flee {
                            unit: u as u8,
                            steps: 3,
                        });
                    }
                }
            }
            if s.demoralized[0] && s.demoralized[1] {
                // 9.4: mutual demoralization ends the game at once.
                self.end_game(s, 1, ev);
            }
        }
    }

    // ----- 7.0 hits -----

    pub fn hit_eligible(&self, s: &State, u: u8, side: u8, mode: HitMode) -> bool {
        let x = &s.units[u as usize];
        if x.side != side || x.kind == Kind::Battery || !x.on_map() {
            return false;
        }
        match mode {
            HitMode::Any => true,
            HitMode::Healthy => !x.broken(),
            HitMode::Snipe => {
                !x.broken()
                    && x.kind != Kind::Cannon
                    && !(s.mode.solitaire()
                        && x.kind == Kind::Leader
                        && x.has(MOVED)
                        && self.is_staging(x.at))
            }
        }
    }

    /// 7.0: a hit flips a healthy counter and removes a flipped one (4.1, 4.2, 9.0).
    pub fn take_hit(&self, s: &mut State, u: u8, ev: &mut Ev) {
        let x = s.units[u as usize];
        if x.broken() {
            self.destroy(s, u, ev);
        } else {
            s.units[u as usize].flags |= BROKEN;
            ev.push(Event::Flipped { unit: u });
            self.morale(s, x.side, -1, ev);
        }
    }

    pub fn destroy(&self, s: &mut State, u: u8, ev: &mut Ev) {
        let x = s.units[u as usize];
        s.units[u as usize].at = REMOVED;
        s.units[u as usize].flags &= HIDDEN;
        // A removed counter has nowhere left to go: its pending forced moves (a 9.2 flight
        // ordered by the hit that demoralized its side, a retreat, an escape) are dropped
        // (they would pass without a decision anyway).
        s.tasks.retain(|t| {
            !matches!(*t, Task::Flee { unit, .. } | Task::Retreat { unit, .. } | Task::Evacuate { unit } if unit == u)
        });
        ev.push(Event::Removed { unit: u });
        let d = if x.kind == Kind::Leader { -2 } else { -1 };
        self.morale(s, x.side, d, ev);
    }

    // ----- 9.1 panic -----

    pub fn panic_regions(&self, s: &State, b: &Board) -> u64 {
        let mut m = 0u64;
        for x in s.units.iter() {
            if x.kind == Kind::Militia
                && x.side == PATRIOT
                && x.on_map()
                && !x.has(PANIC)
                && self.adj(x.at) & b.mil[BRITISH as usize] != 0
            {
                m |= 1 << x.at;
            }
        }
        m
    }

    pub fn panic_check(&self, s: &mut State, r: u8, ev: &mut Ev) {
        for u in bits(self.here(s, r)) {
            let x = s.units[u as usize];
            if x.side != PATRIOT || x.kind != Kind::Militia || x.broken() {
                continue;
            }
            self.reveal(s, u, ev);
            let d = s.dice.d6();
            let total = d + s.units[u as usize].value;
            let passed = total > 4;
            ev.push(Event::Courage {
                unit: u,
                die: d,
                total,
                passed,
            });
            if !passed {
                s.units[u as usize].flags |= BROKEN | PANIC;
                self.morale(s, PATRIOT, -1, ev);
            }
        }
        for u in bits(self.here(s, r)) {
            let x = s.units[u as usize];
            if x.side == PATRIOT && matches!(x.kind, Kind::Militia | Kind::Minuteman) && x.broken()
            {
                s.units[u as usize].flags |= PANIC;
                if !s.tasks.is_full() {
                    s.tasks.push(Task::Flee { unit: u, steps: 3 });
                }
            }
        }
    }

    /// 9.1: panicked survivors of ranged fire run three more regions.
    pub fn scatter(&self, s: &mut State, r: u8) {
        let mut k = 0;
        for u in bits(self.here(s, r)) {
            if s.units[u as usize].has(PANIC) && !s.tasks.is_full() {
                s.tasks.insert(k, Task::Flee { unit: u, steps: 3 });
                k += 1;
            }
        }
    }

    /// 4.6 / 6.4: a town region catches fire; every counter in it must leave.
    pub fn set_ablaze(&self, s: &mut State, r: u8, die: u8, ev: &mut Ev) {
        s.ablaze |= 1 << r;
        ev.push(Event::Ablaze { region: r, die });
        let mut k = 0;
        for u in bits(self.here(s, r)) {
            if !s.tasks.is_full() {
                s.tasks.insert(k, Task::Evacuate { unit: u });
                k += 1;
            }
        }
    }

    // ----- 6.1 Volley Fire -----

    pub(crate) fn can_volley(&self, s: &State, u: u8, side: u8) -> bool {
        let x = &s.units[u as usize];
        x.side == side
            && x.kind.military()
            && x.on_map()
            && (!x.broken() || x.kind == Kind::Cannon)
            && !x.has(FIRED)
            && !x.has(PANIC)
            && !(x.kind == Kind::Cannon && side == BRITISH && !s.ammo_arrived)
    }

    pub fn legal_volleys(&self, s: &State, b: &Board, side: u8, out: &mut Actions) {
        let mut from_mask = 0u64;
        for (i, x) in s.units.iter().enumerate() {
            // The cheap tests first (`can_volley` needs both).
            if x.side != side || x.at >= MUSTER {
                continue;
            }
            if !self.is_zone(x.at) && self.can_volley(s, i as u8, side) {
                from_mask |= 1 << x.at;
            }
        }
        let enemy = b.any[1 - side as usize] & self.data.map.land & !(1 << MUSTER);
        let range = if side == PATRIOT && s.ammo == 0 { 1 } else { 2 };
        for from in bits64(from_mask) {
            for to in bits64(enemy) {
                if to != from && self.dist(from, to) <= range && self.sees(b, from, to) {
                    out.push(Action::Volley { from, to });
                }
            }
        }
    }

    pub(crate) fn fire_cap(&self, s: &State, from: u8) -> u8 {
        if s.mover == BRITISH && self.is_staging(from) {
            3
        } else {
            u8::MAX
        }
    }

    /// The counters that may still join the current Volley Fire (in roster order, up to
    /// the staging-area cap), as a set.
    fn volley_pick_options(&self, s: &State, from: u8) -> Units {
        let side = s.mover;
        let n = s.sel.count_ones() as u8;
        let floor = if s.sel == 0 {
            0
        } else {
            128 - s.sel.leading_zeros() as u8
        };
        let mut ok: Units = 0;
        if n < self.fire_cap(s, from) {
            for u in bits(self.here(s, from)) {
                if u >= floor && self.can_volley(s, u, side) {
                    ok |= 1 << u;
                }
            }
        }
        ok
    }

    /// 11.2: may the Patriot buy an extra Volley die now?
    fn volley_boost_ok(&self, s: &State) -> bool {
        s.sel != 0 && s.options.more_ammo && s.mover == PATRIOT && s.count == 0 && s.ammo >= 2
    }

    pub fn legal_volley_pick(&self, s: &State, from: u8, _to: u8, out: &mut Actions) {
        for u in bits(self.volley_pick_options(s, from)) {
            out.push(Action::Add(u));
        }
        if s.sel != 0 {
            if self.volley_boost_ok(s) {
                out.push(Action::Boost);
            }
            out.push(Action::Done);
        }
    }

    /// Is `a` among `legal_volley_pick`?
    pub fn volley_pick_is_legal(&self, s: &State, from: u8, a: Action) -> bool {
        match a {
            Action::Add(u) => u < 128 && self.volley_pick_options(s, from) >> u & 1 == 1,
            Action::Boost => self.volley_boost_ok(s),
            Action::Done => s.sel != 0,
            _ => false,
        }
    }

    pub fn apply_volley_pick(
        &self,
        s: &mut State,
        from: u8,
        to: u8,
        free: bool,
        a: Action,
        ev: &mut Ev,
    ) {
        match a {
            Action::Add(u) => s.sel |= 1 << u,
            Action::Boost => s.count = 1,
            _ => {
                let side = s.mover;
                let group = s.sel;
                let (n, m) = self.group_dice(s, group, from, ev);
                let mut delta = 0i16;
                if self.terrain_applies(from, to) {
                    delta += self.data.map.regions[to as usize].volley as i16;
                }
                if self.is_town(to) {
                    delta -= 1;
                }
                if side == BRITISH && s.demoralized[1] {
                    delta -= 1;
                }
                if s.count == 1 {
                    delta += 1;
                }
                let (n, m) = self.adjust(s, side, n, m, delta);
                let need = if self.dist(from, to) <= 1 { 5 } else { 6 };
                let hits = self.roll(s, side, n, m, need, ev);
                let hits = self.works_absorb(s, side, to, hits, ev);
                if side == PATRIOT {
                    self.spend_ammo(s, 1 + s.count, ev);
                }
                for u in bits(group) {
                    s.units[u as usize].flags |= FIRED;
                }
                let enemy = 1 - side;
                s.tasks.push(Task::Hits {
                    side: enemy,
                    region: to,
                    n: hits,
                    mode: HitMode::Any,
                });
                s.tasks.push(Task::Scatter { region: to });
                if free {
                    s.sel = 0;
                    s.count = 0;
                    s.phase = Phase::FinalFire;
                } else {
                    self.finish_action(s);
                }
            }
        }
    }

    // ----- 6.3 Cannonade -----

    fn can_cannonade(&self, s: &State, u: u8, side: u8) -> bool {
        let x = &s.units[u as usize];
        x.side == side
            && x.kind == Kind::Cannon
            && x.on_map()
            && !self.is_zone(x.at)
            && !x.has(FIRED)
            && !x.has(PANIC)
            && (side == PATRIOT || s.ammo_arrived)
    }

    pub fn legal_guns(&self, s: &State, b: &Board, side: u8, out: &mut Actions) {
        let mut from_mask = 0u64;
        for (i, x) in s.units.iter().enumerate() {
            if x.side != side || x.at >= MUSTER {
                continue;
            }
            if self.can_cannonade(s, i as u8, side) {
                from_mask |= 1 << x.at;
            }
        }
        let enemy = b.any[1 - side as usize] & self.data.map.land;
        for from in bits64(from_mask) {
            for to in bits64(enemy) {
                if to != from && self.sees(b, from, to) {
                    out.push(Action::Gun { from, to });
                }
            }
        }
    }

    pub fn fire_guns(&self, s: &mut State, from: u8, to: u8, ev: &mut Ev) {
        let side = s.mover;
        let mut dice = 0i16;
        let mut group = 0u128;
        for u in bits(self.here(s, from)) {
            if self.can_cannonade(s, u, side) {
                dice += self.strength(s, u) as i16;
                group |= 1 << u;
            }
        }
        let (n, _) = self.adjust(s, side, dice, 0, 0);
        let need = if self.dist(from, to) <= 2 { 5 } else { 6 };
        let hits = self.roll(s, side, n, 0, need, ev);
        let hits = self.works_absorb(s, side, to, hits, ev);
        for u in bits(group) {
            s.units[u as usize].flags |= FIRED;
        }
        s.tasks.push(Task::Hits {
            side: 1 - side,
            region: to,
            n: hits,
            mode: HitMode::Healthy,
        });
        s.tasks.push(Task::Scatter { region: to });
    }

    // ----- 6.4 Bombard -----

    /// Regions holding at least two healthy Patriot counters (a Bombard needs two, 6.4).
    pub fn patriot_pairs(&self, s: &State) -> u64 {
        let (mut once, mut twice) = (0u64, 0u64);
        for x in s.units.iter() {
            if x.side == PATRIOT && x.on_map() && !x.broken() {
                let bit = 1u64 << x.at;
                twice |= once & bit;
                once |= bit;
            }
        }
        twice
    }

    /// 6.4: the regions the bombarding unit `which` (0 the fleet, 1 Copp's Hill) may fire on
    /// and those it may set ablaze with Hot Shot; `pairs` from `patriot_pairs`.
    pub fn bombard_targets(&self, s: &State, which: u8, pairs: u64) -> (u64, u64) {
        let area = if which == 0 {
            self.data.map.fleet[s.fleet as usize % 3].targets
        } else if s
            .units
            .iter()
            .any(|u| u.kind == Kind::Battery && u.at == COPPS)
        {
            self.data.map.copps
        } else {
            0
        };
        let hot = if s.hot_shot {
            0
        } else {
            area & self.data.map.town & !s.ablaze & ((1u64 << MUSTER) - 1)
        };
        (area & pairs, hot)
    }

    pub fn legal_bombard_pick(&self, s: &State, b: &Board, which: u8, out: &mut Actions) {
        let _ = b;
        let (shell, hot) = self.bombard_targets(s, which, self.patriot_pairs(s));
        for r in bits64(shell | hot) {
            if shell >> r & 1 == 1 {
                out.push(Action::Shell(r));
            }
            if hot >> r & 1 == 1 {
                out.push(Action::HotShot(r));
            }
        }
        out.push(Action::Hold);
    }

    pub fn apply_bombard_pick(&self, s: &mut State, which: u8, a: Action, ev: &mut Ev) {
        match a {
            Action::Shell(r) => {
                let need = if self.is_staging(r) { 5 } else { 6 };
                let hits = self.roll(s, BRITISH, 2, 0, need, ev);
                let hits = self.works_absorb(s, BRITISH, r, hits, ev);
                s.tasks.push(Task::Hits {
                    side: PATRIOT,
                    region: r,
                    n: hits,
                    mode: HitMode::Healthy,
                });
                s.tasks.push(Task::Scatter { region: r });
            }
            Action::HotShot(r) => {
                let d = s.dice.d6();
                if d >= 4 {
                    s.hot_shot = true;
                    self.set_ablaze(s, r, d, ev);
                } else {
                    ev.push(Event::NoFire { region: r, die: d });
                }
            }
            _ => {}
        }
        if which == 0 {
            s.phase = Phase::Bombard { which: 1 };
        } else {
            self.finish_action(s);
        }
    }

    // ----- 6.9 Snipe -----

    pub fn legal_snipes(&self, s: &State, b: &Board, out: &mut Actions) {
        if s.ammo <= 12 {
            return;
        }
        let town = self.data.map.town;
        let _ = b;
        let mut targets = 0u64;
        for (i, x) in s.units.iter().enumerate() {
            if x.side != BRITISH || x.at >= MUSTER {
                continue;
            }
            if self.hit_eligible(s, i as u8, BRITISH, HitMode::Snipe) {
                targets |= 1 << x.at;
            }
        }
        for r in bits64(targets) {
            let adj = self.data.map.regions[r as usize].adj;
            let near_town = self.is_town(r) || adj & town != 0;
            if near_town && adj & town & !s.ablaze != 0 {
                out.push(Action::Snipe(r));
            }
        }
    }

    pub fn snipe(&self, s: &mut State, r: u8, ev: &mut Ev) {
        let hits = self.roll(s, PATRIOT, 1, 0, 5, ev);
        s.tasks.push(Task::Hits {
            side: BRITISH,
            region: r,
            n: hits,
            mode: HitMode::Snipe,
        });
    }

    // ----- 6.7 Rally -----

    fn solo_rally(&self, s: &State) -> bool {
        s.mode.solitaire() || s.options.solo_rally
    }

    fn rallyable(&self, s: &State, u: u8, side: u8) -> bool {
        let x = &s.units[u as usize];
        x.side == side && x.broken() && x.kind.military() && x.kind != Kind::Cannon && !x.has(PANIC)
    }

    fn free_leader(&self, s: &State, r: u8, side: u8) -> Option<u8> {
        // Healthy leaders first (they rally without a roll in the solitaire procedure).
        let mut wounded = None;
        for u in bits(self.here(s, r)) {
            let x = &s.units[u as usize];
            if x.side == side && x.kind == Kind::Leader && !x.has(RALLIED) {
                if !x.broken() {
                    return Some(u);
                }
                wounded = wounded.or(Some(u));
            }
        }
        wounded
    }

    pub fn legal_rallies(&self, s: &State, side: u8, out: &mut Actions) {
        if s.demoralized[side as usize] {
            return;
        }
        let mut regions = 0u64;
        // Where `free_leader` finds a leader: one of the side that has not rallied yet.
        let mut leaders = 0u64;
        for (i, x) in s.units.iter().enumerate() {
            if x.side != side || x.at > MUSTER {
                continue;
            }
            if !self.is_zone(x.at) && self.rallyable(s, i as u8, side) {
                regions |= 1 << x.at;
            }
            if x.kind == Kind::Leader && !x.has(RALLIED) {
                leaders |= 1 << x.at;
            }
        }
        for r in bits64(regions) {
            if self.solo_rally(s) || leaders >> r & 1 == 1 {
                out.push(Action::Rally(r));
            }
        }
    }

    pub fn legal_rally_pick(&self, s: &State, r: u8, out: &mut Actions) {
        let side = s.mover;
        if self.free_leader(s, r, side).is_some() {
            for u in bits(self.here(s, r)) {
                if self.rallyable(s, u, side) {
                    out.push(Action::Add(u));
                }
            }
        }
        if s.count > 0 || self.solo_rally(s) {
            out.push(Action::Done);
        }
    }

    pub fn apply_rally_pick(&self, s: &mut State, r: u8, a: Action, ev: &mut Ev) {
        let side = s.mover;
        match a {
            Action::Add(u) => {
                let Some(l) = self.free_leader(s, r, side) else {
                    return;
                };
                s.units[l as usize].flags |= RALLIED;
                s.count += 1;
                let wounded = s.units[l as usize].broken();
                let die = if self.solo_rally(s) && wounded {
                    s.dice.d6()
                } else {
                    0
                };
                if die == 0 || die >= 4 {
                    s.units[u as usize].flags &= !BROKEN;
                    ev.push(Event::Rallied { unit: u, die });
                    self.morale(s, side, 1, ev);
                } else {
                    ev.push(Event::Rallied { unit: 255, die });
                }
            }
            _ => {
                if self.solo_rally(s) {
                    // 12.2 / FAQ: every other broken unit rolls for itself.
                    let mut tries = if side == BRITISH && self.is_staging(r) {
                        3
                    } else {
                        u8::MAX
                    };
                    for u in bits(self.here(s, r)) {
                        if !self.rallyable(s, u, side) || tries == 0 {
                            continue;
                        }
                        tries -= 1;
                        let need = match s.units[u as usize].kind {
                            Kind::Marine => 3,
                            Kind::Minuteman | Kind::Regular => 5,
                            _ => 6,
                        };
                        let d = s.dice.d6();
                        if d >= need {
                            s.units[u as usize].flags &= !BROKEN;
                            ev.push(Event::Rallied { unit: u, die: d });
                            self.morale(s, side, 1, ev);
                        } else {
                            ev.push(Event::Rallied { unit: 255, die: d });
                        }
                    }
                }
                self.finish_action(s);
            }
        }
    }

    // ----- 6.2 Assault -----

    pub(crate) fn can_assault(&self, s: &State, u: u8, side: u8) -> bool {
        let x = &s.units[u as usize];
        x.side == side
            && x.on_map()
            && !x.has(MOVED | FIRED | PANIC)
            && (x.kind == Kind::Leader
                || (x.kind.military()
                    && !x.broken()
                    && !(x.kind == Kind::Cannon && side == BRITISH && !s.ammo_arrived)))
    }

    fn healthy_in(&self, s: &State, side: u8, r: u8) -> u8 {
        s.units
            .iter()
            .filter(|x| x.at == r && x.side == side && x.kind.military() && !x.broken())
            .count() as u8
    }

    /// 8.0: at 0 ammunition the British assault whatever the numbers.
    fn numbers_waived(&self, s: &State, side: u8) -> bool {
        side == BRITISH && s.ammo == 0
    }

    pub fn legal_assaults(&self, s: &State, b: &Board, side: u8, out: &mut Actions) {
        if side == PATRIOT && s.ammo == 0 {
            return;
        }
        let mut eligible = [0u8; 64];
        let mut froms = 0u64;
        for (i, x) in s.units.iter().enumerate() {
            if x.side != side || x.at >= MUSTER {
                continue;
            }
            if x.kind.military() && !self.is_zone(x.at) && self.can_assault(s, i as u8, side) {
                eligible[x.at as usize] += 1;
                froms |= 1 << x.at;
            }
        }
        let enemy = b.any[1 - side as usize] & self.data.map.land;
        let regions = self.data.map.n();
        if regions < 64 {
            froms &= (1u64 << regions) - 1;
        }
        for from in bits64(froms) {
            let n = eligible[from as usize].min(3);
            for to in bits64(self.data.map.regions[from as usize].adj & enemy) {
                if self.numbers_waived(s, side) || n >= b.h[1 - side as usize][to as usize] {
                    out.push(Action::Assault { from, to });
                }
            }
        }
    }

    pub fn legal_assault(&self, s: &State, b: &Board, stage: Stage, out: &mut Actions) {
        let _ = b;
        let f = s.fight;
        let side = crate::bunker::sequence::to_act(s).unwrap_or(0);
        let floor = if s.sel == 0 {
            0
        } else {
            128 - s.sel.leading_zeros() as u8
        };
        match stage {
            Stage::Select => {
                let mil = bits(s.sel)
                    .filter(|u| s.units[*u as usize].kind.military())
                    .count() as u8;
                // Counters are picked in roster order, units and leaders each on their own.
                let floor_of = |leader: bool| {
                    bits(s.sel)
                        .filter(|v| (s.units[*v as usize].kind == Kind::Leader) == leader)
                        .map(|v| v + 1)
                        .max()
                        .unwrap_or(0)
                };
                let (fm, fl) = (floor_of(false), floor_of(true));
                let need = if self.numbers_waived(s, side) {
                    1
                } else {
                    self.healthy_in(s, 1 - side, f.to).max(1)
                };
                let pool: arrayvec::ArrayVec<u8, 80> = bits(self.here(s, f.from))
                    .filter(|&v| {
                        s.units[v as usize].kind.military() && self.can_assault(s, v, side)
                    })
                    .collect();
                for u in bits(self.here(s, f.from)) {
                    if self.can_assault(s, u, side) {
                        let x = s.units[u as usize];
                        // A unit is offered only if the attack can still reach the numbers.
                        let later = pool.iter().filter(|&&v| v > u).count() as u8;
                        let ok = if x.kind.military() {
                            u >= fm && mil < 3 && (mil + 1 + later).min(3) >= need
                        } else {
                            u >= fl
                        };
                        if ok {
                            out.push(Action::Add(u));
                        }
                    }
                }
                if mil > 0
                    && (self.numbers_waived(s, side) || mil >= self.healthy_in(s, 1 - side, f.to))
                {
                    out.push(Action::Done);
                }
            }
            Stage::Withdraw => {
                let (mil_sel, pair_sel) = self.pairing(s, s.sel);
                for u in bits(self.here(s, f.to) & f.def) {
                    if u < floor {
                        continue;
                    }
                    let x = s.units[u as usize];
                    // Whatever is added, the militia picked so far must still find partners
                    // among the counters that may follow (roster order).
                    let later = bits(self.here(s, f.to) & f.def)
                        .filter(|&v| v > u && self.pairer(s, v))
                        .count() as u8;
                    let (m2, p2) = match x.kind {
                        Kind::Militia => (mil_sel + 1, pair_sel),
                        _ if self.pairer(s, u) => (mil_sel, pair_sel + 1),
                        _ => (mil_sel, pair_sel),
                    };
                    let ok = matches!(x.kind, Kind::Minuteman | Kind::Leader | Kind::Militia)
                        && m2 <= p2 + later;
                    if ok {
                        out.push(Action::Add(u));
                    }
                }
                if mil_sel <= pair_sel {
                    out.push(Action::Done);
                }
            }
            Stage::DefFire => {
                out.push(Action::Fire(0));
                out.push(Action::Fire(5));
                if s.options.more_ammo {
                    if s.ammo >= 4 {
                        out.push(Action::Fire(4));
                    }
                    if s.ammo >= 6 {
                        out.push(Action::Fire(3));
                    }
                }
            }
            Stage::AttBack | Stage::DefBack => {
                let mine = if stage == Stage::AttBack {
                    f.att
                } else {
                    f.def
                };
                for u in bits(self.here(s, f.to) & mine) {
                    if u >= floor && s.units[u as usize].side == side {
                        out.push(Action::Add(u));
                    }
                }
                out.push(Action::Done);
            }
        }
    }

    /// 7.1 FAQ: a healthy Minuteman or leader can take one militia unit along.
    fn pairer(&self, s: &State, u: u8) -> bool {
        let x = &s.units[u as usize];
        matches!(x.kind, Kind::Minuteman | Kind::Leader) && !x.broken()
    }

    fn pairing(&self, s: &State, sel: Units) -> (u8, u8) {
        let mut mil = 0;
        let mut pair = 0;
        for u in bits(sel) {
            if s.units[u as usize].kind == Kind::Militia {
                mil += 1;
            } else if self.pairer(s, u) {
                pair += 1;
            }
        }
        (mil, pair)
    }

    pub fn apply_assault(&self, s: &mut State, stage: Stage, a: Action, ev: &mut Ev) {
        let f = s.fight;
        if let Action::Add(u) = a {
            s.sel |= 1 << u;
            return;
        }
        match stage {
            Stage::Select => {
                let att = s.sel;
                s.sel = 0;
                let dfd = 1 - f.attacker;
                // 9.1: panicked units attacked by an assault are destroyed.
                for u in bits(self.here(s, f.to)) {
                    if s.units[u as usize].side == dfd && s.units[u as usize].has(PANIC) {
                        self.destroy(s, u, ev);
                    }
                }
                for u in bits(att) {
                    self.relocate(s, u, f.to, ev);
                }
                let def = self.here(s, f.to) & !att;
                s.fight.att = att;
                s.fight.def = def;
                if f.attacker == PATRIOT {
                    self.spend_ammo(s, 1, ev);
                }
                if dfd == PATRIOT {
                    let mut opts = Actions::new();
                    s.phase = Phase::Assault {
                        stage: Stage::Withdraw,
                    };
                    self.legal_assault(s, &Board::of(s), Stage::Withdraw, &mut opts);
                    if opts.iter().all(|x| *x == Action::Done) {
                        s.phase = Phase::Assault {
                            stage: Stage::Select,
                        };
                        s.tasks.push(Task::AssaultStep);
                    }
                } else {
                    s.tasks.push(Task::AssaultStep);
                }
            }
            Stage::Withdraw => {
                let sel = s.sel;
                s.sel = 0;
                s.group = 255;
                s.fight.def &= !sel;
                for u in bits(sel) {
                    s.tasks.push(Task::Retreat {
                        unit: u,
                        origin: f.from,
                    });
                }
                s.tasks.push(Task::AssaultStep);
            }
            Stage::DefFire => {
                let Action::Fire(level) = a else { return };
                let extra = match level {
                    4 => 2,
                    3 => 4,
                    _ => 0,
                };
                let fire = level > 0;
                self.spend_ammo(s, 1 + fire as u8 + extra, ev);
                s.fight.hit = if fire { level } else { 5 };
                self.free_round(s, fire, ev);
            }
            Stage::AttBack => {
                let sel = s.sel;
                s.sel = 0;
                for u in bits(sel) {
                    self.relocate(s, u, f.from, ev);
                }
                s.phase = Phase::Assault {
                    stage: Stage::DefBack,
                };
                if sel != 0 {
                    // 6.2: a fall-back that leaves the attacker with no unit, or with fewer
                    // healthy units than the defender, ends the assault at once; otherwise
                    // the defender is asked next (7.1), as after a round.
                    self.fall_back_check(s, ev);
                }
            }
            Stage::DefBack => {
                let sel = s.sel;
                s.sel = 0;
                s.group = 255;
                for u in bits(sel) {
                    s.tasks.push(Task::Retreat {
                        unit: u,
                        origin: f.from,
                    });
                }
                s.tasks.push(Task::AssaultStep);
            }
        }
    }

    /// The defender's dice in `to` against an assault from `from`.
    fn defence_dice(&self, s: &mut State, ev: &mut Ev) -> (u8, u8) {
        let f = s.fight;
        let dfd = 1 - f.attacker;
        let group = self.here(s, f.to) & f.def;
        let (n, m) = self.group_dice(s, group, f.to, ev);
        let mut delta = 0i16;
        if self.terrain_applies(f.from, f.to) {
            delta += self.data.map.regions[f.to as usize].assault as i16;
        }
        if self.is_town(f.to) {
            delta += 1;
        }
        if dfd == BRITISH && s.demoralized[1] {
            delta -= 1;
        }
        if n + m == 0 {
            // Modifiers add dice only to counters that roll (B14).
            return (0, 0);
        }
        self.adjust(s, dfd, n, m, delta)
    }

    fn free_round(&self, s: &mut State, fire: bool, ev: &mut Ev) {
        let f = s.fight;
        s.fight.round = 1;
        let dfd = 1 - f.attacker;
        let (n, m) = if fire {
            self.defence_dice(s, ev)
        } else {
            (0, 0)
        };
        let need = if dfd == PATRIOT { f.hit } else { 5 };
        let hits = self.roll(s, dfd, n, m, need, ev);
        s.fight.dice = [n + m, 0];
        s.tasks.push(Task::Hits {
            side: f.attacker,
            region: f.to,
            n: hits,
            mode: HitMode::Any,
        });
        s.tasks.push(Task::AssaultStep);
    }

    fn next_round(&self, s: &mut State, ev: &mut Ev) {
        let f = s.fight;
        s.fight.round = s.fight.round.saturating_add(1);
        // The round's hits come first; then `assault_step` offers the retreats again.
        s.phase = Phase::Assault {
            stage: Stage::Select,
        };
        let atk = f.attacker;
        let dfd = 1 - atk;
        let (dn, dm) = self.defence_dice(s, ev);
        let group = self.here(s, f.to) & f.att;
        let (an, am) = self.group_dice(s, group, f.to, ev);
        let delta = if atk == BRITISH && s.demoralized[1] {
            -1
        } else {
            0
        };
        let (an, am) = self.adjust(s, atk, an, am, delta);
        let need = if dfd == PATRIOT { f.hit } else { 5 };
        let dhits = self.roll(s, dfd, dn, dm, need, ev);
        let ahits = self.roll(s, atk, an, am, 5, ev);
        let ahits = self.works_absorb(s, atk, f.to, ahits, ev);
        s.fight.dice = [dn + dm, an + am];
        s.tasks.push(Task::Hits {
            side: dfd,
            region: f.to,
            n: ahits,
            mode: HitMode::Any,
        });
        s.tasks.push(Task::Hits {
            side: atk,
            region: f.to,
            n: dhits,
            mode: HitMode::Any,
        });
        s.tasks.push(Task::AssaultStep);
    }

    /// The checks between the steps of an assault (6.2).
    pub fn assault_step(&self, s: &mut State, ev: &mut Ev) {
        let Phase::Assault { stage } = s.phase else {
            return;
        };
        let f = s.fight;
        let atk = f.attacker;
        let dfd = 1 - atk;
        let here = self.here(s, f.to);
        let mil = |side: u8| {
            bits(here)
                .filter(|&u| {
                    s.units[u as usize].side == side && s.units[u as usize].kind.military()
                })
                .count()
        };
        if mil(atk) == 0 {
            self.end_assault(s, false, ev);
            return;
        }
        if mil(dfd) == 0 {
            self.end_assault(s, true, ev);
            return;
        }
        if f.round == 0 {
            if dfd == PATRIOT {
                s.phase = Phase::Assault {
                    stage: Stage::DefFire,
                };
            } else {
                self.free_round(s, true, ev);
            }
            return;
        }
        if stage == Stage::DefBack {
            self.next_round(s, ev);
            return;
        }
        let healthy_a = self.healthy_in(s, atk, f.to);
        let healthy_d = self.healthy_in(s, dfd, f.to);
        let stalled = f.round > 1 && f.dice == [0, 0];
        if (!self.numbers_waived(s, atk) && healthy_a < healthy_d) || stalled {
            self.end_assault(s, false, ev);
            return;
        }
        s.phase = Phase::Assault {
            stage: Stage::AttBack,
        };
    }

    /// After the attacker fell back with some counters (7.1): the assault ends if he has no
    /// military unit left in the region or fewer healthy units than the defender (6.2);
    /// otherwise the stage stays `DefBack` and the defender decides.
    fn fall_back_check(&self, s: &mut State, ev: &mut Ev) {
        let f = s.fight;
        let atk = f.attacker;
        let left = bits(self.here(s, f.to))
            .filter(|&u| s.units[u as usize].side == atk && s.units[u as usize].kind.military())
            .count();
        let fewer = self.healthy_in(s, atk, f.to) < self.healthy_in(s, 1 - atk, f.to);
        if left == 0 || (!self.numbers_waived(s, atk) && fewer) {
            self.end_assault(s, false, ev);
        }
    }

    fn end_assault(&self, s: &mut State, attacker_won: bool, ev: &mut Ev) {
        let f = s.fight;
        for u in bits(f.att) {
            let x = &mut s.units[u as usize];
            if x.at <= MUSTER {
                x.flags |= MOVED | FIRED;
            }
        }
        for u in bits(f.def) {
            let x = &mut s.units[u as usize];
            if x.at <= MUSTER {
                x.flags |= FIRED;
            }
        }
        let dfd = 1 - f.attacker;
        s.group = 255;
        for u in bits(self.here(s, f.to)) {
            let side = s.units[u as usize].side;
            if !attacker_won && side == f.attacker {
                self.relocate(s, u, f.from, ev);
            } else if attacker_won && side == dfd && !s.tasks.is_full() {
                s.tasks.push(Task::Retreat {
                    unit: u,
                    origin: f.from,
                });
            }
        }
        ev.push(Event::AssaultEnds { attacker_won });
        s.fight.att = 0;
        s.fight.def = 0;
        self.finish_action(s);
    }
}

#[allow(dead_code)]
fn _unused(_: RegionKind) {}
