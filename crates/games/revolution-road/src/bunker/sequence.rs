//! Chapter 5, the turn sequence (5.1 action points, 5.2 alternating actions with passing and
//! Reserve Actions, 5.3 end of turn), the set-up of 12.1, and the routing of every decision:
//! `legal` lists exactly what `apply` accepts (apply asks `is_legal`, which gives the answer
//! membership in the list would give, checking only the action asked about where it can).

use super::Bunker;
use super::action::{Action, Event};
use super::data::RegionKind;
use super::state::*;
use arrayvec::ArrayVec;
use muster_core::Prompt;
use muster_core::game::IllegalAction;

pub type Ev = Vec<Event>;
pub const MAX_ACTIONS: usize = 1024;
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// Where every side's counters are, computed once per decision.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    /// Regions (bit 60: the Muster Box) holding any counter of the side.
    pub any: [u64; 2],
    /// Regions holding a military unit of the side.
    pub mil: [u64; 2],
    /// Regions holding an unbroken military unit of the side.
    pub healthy: [u64; 2],
    /// Military units per region and side.
    pub n: [[u8; 64]; 2],
    /// Unbroken military units per region and side.
    pub h: [[u8; 64]; 2],
    /// Regions holding a healthy leader of the side.
    pub leaders: [u64; 2],
}

impl Board {
    /// A summary of nothing (for the steps that do not look at the board).
    pub fn empty() -> Board {
        Board {
            any: [0; 2],
            mil: [0; 2],
            healthy: [0; 2],
            n: [[0; 64]; 2],
            h: [[0; 64]; 2],
            leaders: [0; 2],
        }
    }

    pub fn of(s: &State) -> Board {
        let mut b = Board {
            any: [0; 2],
            mil: [0; 2],
            healthy: [0; 2],
            n: [[0; 64]; 2],
            h: [[0; 64]; 2],
            leaders: [0; 2],
        };
        for u in &s.units {
            if u.at > MUSTER {
                continue;
            }
            let side = u.side as usize & 1;
            let bit = 1u64 << u.at;
            b.any[side] |= bit;
            if u.kind.military() {
                b.mil[side] |= bit;
                b.n[side][u.at as usize] += 1;
                if !u.broken() {
                    b.healthy[side] |= bit;
                    b.h[side][u.at as usize] += 1;
                }
            } else if u.kind == Kind::Leader && !u.broken() {
                b.leaders[side] |= bit;
            }
        }
        b
    }
    pub fn occupied(&self) -> u64 {
        self.mil[0] | self.mil[1]
    }
}

/// Who decides now.
pub fn to_act(s: &State) -> Option<u8> {
    if s.ended.is_some() {
        return None;
    }
    if let Some(t) = s.tasks.first() {
        return Some(match *t {
            Task::Hits { side, .. } => side,
            Task::Flee { unit, .. } | Task::Retreat { unit, .. } | Task::Evacuate { unit } => {
                s.side_of(unit)
            }
            Task::Spread { .. } => BRITISH,
            Task::Scatter { .. } | Task::AssaultStep | Task::NextTurn => s.mover,
        });
    }
    Some(match s.phase {
        Phase::Over => return None,
        Phase::SetupBritish
        | Phase::Objective
        | Phase::ThreePick
        | Phase::ZonePick
        | Phase::Reinforce
        | Phase::Panic
        | Phase::FinalFire => BRITISH,
        Phase::SetupPatriot | Phase::Focus => PATRIOT,
        Phase::Assault { stage } => match stage {
            Stage::Select | Stage::AttBack => s.fight.attacker,
            _ => 1 - s.fight.attacker,
        },
        _ => s.mover,
    })
}

impl Bunker {
    // ----- small helpers -----

    /// Counters at a location.
    pub fn here(&self, s: &State, at: u8) -> Units {
        let mut m = 0u128;
        for (i, u) in s.units.iter().enumerate() {
            if u.at == at {
                m |= 1 << i;
            }
        }
        m
    }

    /// Regions next to a region, the Muster Box (bit 60) included.
    #[inline]
    pub fn adj(&self, r: u8) -> u64 {
        if r == MUSTER {
            self.data.map.muster_adj
        } else {
            let a = self.data.map.regions[r as usize].adj;
            if r == self.data.map.neck {
                a | 1 << MUSTER
            } else {
                a
            }
        }
    }

    #[inline]
    pub fn muster_dist(&self, r: u8) -> u8 {
        if r == MUSTER {
            0
        } else {
            self.data.map.muster_dist[r as usize]
        }
    }

    #[inline]
    pub fn is_town(&self, r: u8) -> bool {
        r < MUSTER && self.data.map.town >> r & 1 == 1
    }

    #[inline]
    pub fn is_zone(&self, r: u8) -> bool {
        r < MUSTER && self.data.map.zones >> r & 1 == 1
    }

    #[inline]
    pub fn is_staging(&self, r: u8) -> bool {
        r < MUSTER && self.data.map.staging >> r & 1 == 1
    }

    /// 3.0, 3.2, 3.5: how many military units of a side a location may hold.
    #[inline]
    pub fn cap(&self, side: u8, r: u8) -> u8 {
        if r == MUSTER || (side == BRITISH && (self.is_staging(r) || self.is_zone(r))) {
            255
        } else {
            3
        }
    }

    /// Combat strength of a counter (4.1); hidden militia must be revealed first.
    pub fn strength(&self, s: &State, u: u8) -> u8 {
        let x = &s.units[u as usize];
        match x.kind {
            Kind::Cannon => {
                if x.side == BRITISH && !s.ammo_arrived {
                    0
                } else if x.broken() {
                    1
                } else {
                    2
                }
            }
            _ if x.broken() => 0,
            Kind::Regular => 2,
            Kind::Marine => 3,
            Kind::Minuteman => 1,
            Kind::Militia => x.value,
            Kind::Leader | Kind::Battery => 0,
        }
    }

    /// 4.1 / 12.1: draws a hidden militia piece's strength from the pool.
    pub fn reveal(&self, s: &mut State, u: u8, ev: &mut Ev) {
        let x = s.units[u as usize];
        if x.has(HIDDEN) {
            let v = s.pool.draw(&mut s.dice).unwrap_or(1);
            let y = &mut s.units[u as usize];
            y.value = v;
            y.flags &= !HIDDEN;
            ev.push(Event::Revealed { unit: u, value: v });
        }
    }

    /// Is a counter healthy (unbroken unit, healthy leader, undamaged cannon)?
    #[inline]
    pub fn healthy(&self, s: &State, u: u8) -> bool {
        !s.units[u as usize].broken()
    }

    pub fn unit_id(&self, s: &State, u: u8) -> String {
        let x = &s.units[u as usize];
        match x.kind {
            Kind::Leader => LEADERS
                .get(x.value as usize)
                .map_or("leader".into(), |l| l.0.to_string()),
            Kind::Battery => "copps".into(),
            k => {
                let n = s.units[..u as usize]
                    .iter()
                    .filter(|y| y.kind == k && y.side == x.side)
                    .count()
                    + 1;
                let p = if k == Kind::Cannon {
                    if x.side == BRITISH { "bgun" } else { "pgun" }
                } else {
                    k.code()
                };
                format!("{p}{n}")
            }
        }
    }

    pub fn region_id(&self, r: u8) -> &str {
        match r {
            MUSTER => "muster",
            _ => self
                .data
                .map
                .regions
                .get(r as usize)
                .map_or("?", |x| x.id.as_str()),
        }
    }

    /// The region index of a zone number.
    pub fn zone_region(&self, z: u8) -> u8 {
        self.data
            .map
            .regions
            .iter()
            .position(|r| r.zone == z)
            .unwrap_or(0) as u8
    }

    // ----- routing -----

    pub fn legal(&self, s: &State, out: &mut Actions) {
        out.clear();
        if to_act(s).is_none() {
            return;
        }
        if let Some(t) = s.tasks.first().copied() {
            self.legal_task(s, t, out);
            return;
        }
        // Only the phases that look at the whole board pay for the summary.
        let needs_board = matches!(
            s.phase,
            Phase::SetupPatriot
                | Phase::Panic
                | Phase::Main
                | Phase::FinalFire
                | Phase::Cannonade
                | Phase::Move { .. }
        );
        let b = if needs_board {
            Board::of(s)
        } else {
            Board::empty()
        };
        match s.phase {
            Phase::SetupBritish | Phase::SetupPatriot => self.legal_setup(s, &b, out),
            Phase::Objective | Phase::ThreePick | Phase::ZonePick | Phase::Focus => {
                self.legal_solo(s, out)
            }
            Phase::Reinforce => {
                for z in self.reinforce_zones(s) {
                    out.push(Action::Zone(z));
                }
            }
            Phase::Panic => {
                for r in bits64(self.panic_regions(s, &b)) {
                    out.push(Action::PanicAt(r));
                }
            }
            Phase::Main => self.legal_main(s, &b, out),
            Phase::FinalFire => {
                self.legal_volleys(s, &b, BRITISH, out);
                out.push(Action::Done);
            }
            Phase::Volley { from, to, .. } => self.legal_volley_pick(s, from, to, out),
            Phase::Assault { stage } => self.legal_assault(s, &b, stage, out),
            Phase::Cannonade => {
                self.legal_guns(s, &b, s.mover, out);
                if s.count > 0 {
                    out.push(Action::Done);
                }
            }
            Phase::Bombard { which } => self.legal_bombard_pick(s, &b, which, out),
            Phase::Move { from, .. } => self.legal_go(s, &b, from, out),
            Phase::Reorg { a, b: r2 } => self.legal_reorg_pick(s, &b, a, r2, out),
            Phase::Rally { region } => self.legal_rally_pick(s, region, out),
            Phase::Land { zone, to } => self.legal_land_pick(s, zone, to, out),
            Phase::Over => {}
        }
    }

    pub fn apply_action(&self, s: &mut State, a: Action, ev: &mut Ev) -> Result<(), IllegalAction> {
        if !self.is_legal(s, a) {
            return Err(IllegalAction::not_legal(format!(
                "{} is not a legal action now",
                super::notation::notation(self, s, a)
            )));
        }
        if let Some(t) = s.tasks.first().copied() {
            self.apply_task(s, t, a, ev);
        } else {
            match s.phase {
                Phase::SetupBritish | Phase::SetupPatriot => self.apply_setup(s, a, ev),
                Phase::Objective | Phase::ThreePick | Phase::ZonePick | Phase::Focus => {
                    self.apply_solo(s, a, ev)
                }
                Phase::Reinforce => {
                    if let Action::Zone(z) = a {
                        self.reinforce_to(s, z, ev);
                    }
                    self.begin_turn_2(s, ev);
                }
                Phase::Panic => {
                    if let Action::PanicAt(r) = a {
                        self.panic_check(s, r, ev);
                    }
                    self.begin_actions(s, ev);
                }
                Phase::Main => self.apply_main(s, a, ev),
                Phase::FinalFire => match a {
                    Action::Volley { from, to } => {
                        // A new volley, as from the main round: nothing picked, no extra die.
                        s.sel = 0;
                        s.count = 0;
                        s.phase = Phase::Volley {
                            from,
                            to,
                            free: true,
                        };
                    }
                    _ => self.end_turn(s, ev),
                },
                Phase::Volley { from, to, free } => {
                    self.apply_volley_pick(s, from, to, free, a, ev)
                }
                Phase::Assault { stage } => self.apply_assault(s, stage, a, ev),
                Phase::Cannonade => match a {
                    Action::Gun { from, to } => {
                        s.count += 1;
                        self.fire_guns(s, from, to, ev);
                    }
                    _ => self.finish_action(s),
                },
                Phase::Bombard { which } => self.apply_bombard_pick(s, which, a, ev),
                Phase::Move { from, exempt } => self.apply_go(s, from, exempt, a, ev),
                Phase::Reorg { a: r1, b: r2 } => self.apply_reorg_pick(s, r1, r2, a, ev),
                Phase::Rally { region } => self.apply_rally_pick(s, region, a, ev),
                Phase::Land { zone, to } => self.apply_land_pick(s, zone, to, a, ev),
                Phase::Over => {}
            }
        }
        self.run(s, ev);
        Ok(())
    }

    /// Does the automatic work until someone must decide.
    pub fn run(&self, s: &mut State, ev: &mut Ev) {
        for _ in 0..10_000 {
            if s.ended.is_some() {
                s.tasks.clear();
                s.phase = Phase::Over;
                return;
            }
            if let Some(t) = s.tasks.first().copied() {
                match t {
                    Task::Scatter { region } => {
                        s.tasks.remove(0);
                        self.scatter(s, region);
                        continue;
                    }
                    Task::AssaultStep => {
                        s.tasks.remove(0);
                        self.assault_step(s, ev);
                        continue;
                    }
                    Task::NextTurn => {
                        s.tasks.remove(0);
                        self.next_turn(s, ev);
                        continue;
                    }
                    _ => {
                        let mut out = Actions::new();
                        self.legal_task(s, t, &mut out);
                        if out.is_empty() {
                            s.tasks.remove(0);
                            self.task_without_choice(s, t, ev);
                            continue;
                        }
                        if s.mode.solitaire() && matches!(t, Task::Hits { .. }) {
                            // 12.2: hits fall on a random counter of the region.
                            let k = s.dice.below(out.len() as u32) as usize;
                            self.apply_task(s, t, out[k], ev);
                            continue;
                        }
                        return;
                    }
                }
            }
            match s.phase {
                Phase::Main => {
                    if s.mode == Mode::SolitairePatriot && self.objective_achieved(s) {
                        // 12.4: the scenario ends once the British objective is met.
                        self.end_game(s, 2, ev);
                        continue;
                    }
                    let me = s.mover;
                    if s.actions[0] == 0 && s.actions[1] == 0 {
                        self.end_actions(s, ev);
                        continue;
                    }
                    if s.actions[me as usize] == 0 {
                        s.mover = 1 - me;
                        s.no_pass = false;
                    }
                    return;
                }
                Phase::FinalFire => {
                    let mut out = Actions::new();
                    self.legal_volleys(s, &Board::of(s), BRITISH, &mut out);
                    if out.is_empty() {
                        self.end_turn(s, ev);
                        continue;
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// Ends the current action and hands the next one over (5.2).
    pub fn finish_action(&self, s: &mut State) {
        s.phase = Phase::Main;
        s.sel = 0;
        s.count = 0;
        s.reserve = false;
        s.no_pass = false;
        let me = s.mover as usize;
        if s.actions[1 - me] > 0 {
            s.mover = 1 - s.mover;
        }
    }

    // ----- set-up (12.1) -----

    fn next_setup(&self, s: &State, side: u8) -> Option<u8> {
        s.units
            .iter()
            .position(|u| u.at == SETUP && u.side == side)
            .map(|i| i as u8)
    }

    fn legal_setup(&self, s: &State, b: &Board, out: &mut Actions) {
        let side = if s.phase == Phase::SetupBritish {
            BRITISH
        } else {
            PATRIOT
        };
        let Some(u) = self.next_setup(s, side) else {
            return;
        };
        let map = &self.data.map;
        for (i, r) in map.regions.iter().enumerate() {
            let ok = if side == BRITISH {
                r.staging_zone == 2
            } else {
                // 12.1: regions with a defensive modifier, Moulton's Hill excepted.
                r.assault > 0
                    && r.hill != Some(super::data::Hill::Moultons)
                    && (!s.units[u as usize].kind.military() || b.n[0][i] < 3)
            };
            if ok {
                out.push(Action::Place(i as u8));
            }
        }
    }

    fn apply_setup(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let side = if s.phase == Phase::SetupBritish {
            BRITISH
        } else {
            PATRIOT
        };
        if let (Action::Place(r), Some(u)) = (a, self.next_setup(s, side)) {
            s.units[u as usize].at = r;
            ev.push(Event::Placed { unit: u, region: r });
        }
        if self.next_setup(s, side).is_none() {
            if side == BRITISH && self.next_setup(s, PATRIOT).is_some() {
                s.phase = Phase::SetupPatriot;
            } else {
                self.begin_turn(s, ev);
            }
        }
    }

    // ----- 5.1 -----

    /// Start of a turn: reinforcements, then 5.1.
    pub fn begin_turn(&self, s: &mut State, ev: &mut Ev) {
        let turn = s.turn;
        for i in 0..s.units.len() {
            let u = s.units[i];
            if u.at == PENDING && u.arrive == turn {
                if u.side == PATRIOT {
                    s.units[i].at = MUSTER;
                    ev.push(Event::Arrived { unit: i as u8 });
                } else if u.zone > 0 {
                    s.units[i].at = self.zone_region(u.zone);
                    ev.push(Event::Arrived { unit: i as u8 });
                }
            }
        }
        let waiting = s
            .units
            .iter()
            .any(|u| u.at == PENDING && u.arrive == turn && u.side == BRITISH);
        if waiting {
            if s.mode.solitaire() {
                self.solo_reinforce(s, ev);
            } else {
                s.phase = Phase::Reinforce;
                return;
            }
        }
        self.begin_turn_2(s, ev);
    }

    /// 12.1 / 11.3: the landing zones a waiting British group may use.
    pub fn reinforce_zones(&self, s: &State) -> ArrayVec<u8, 6> {
        if s.options.any_zone {
            (1..=6).collect()
        } else if s.turn == 3 {
            [2].into_iter().collect()
        } else {
            [2, 3].into_iter().collect()
        }
    }

    fn reinforce_to(&self, s: &mut State, z: u8, ev: &mut Ev) {
        let r = self.zone_region(z);
        for i in 0..s.units.len() {
            let u = s.units[i];
            if u.at == PENDING && u.arrive == s.turn && u.side == BRITISH {
                s.units[i].at = r;
                ev.push(Event::Arrived { unit: i as u8 });
            }
        }
    }

    /// 5.1: the card, the actions, the ammunition roll (4.3) and the panic check (9.1).
    pub fn begin_turn_2(&self, s: &mut State, ev: &mut Ev) {
        let card = s.deck.draw(&mut s.dice).unwrap_or(1);
        s.card = card;
        let c = self
            .data
            .cards
            .iter()
            .find(|c| c.id == card)
            .copied()
            .unwrap_or(self.data.cards[0]);
        ev.push(Event::Card {
            card,
            patriot: c.patriot,
            british: c.british,
        });
        for side in 0..2 {
            let mut n = c.actions(side as u8);
            if s.demoralized[side] {
                n = n.saturating_sub(1);
            }
            s.actions[side] = n;
        }
        if s.turn >= 4 && !s.ammo_arrived {
            let d = s.dice.d6();
            s.ammo_arrived = d + s.turn >= 10;
            ev.push(Event::AmmoRoll {
                die: d,
                arrived: s.ammo_arrived,
            });
        }
        if s.morale[PATRIOT as usize] <= 12 && self.panic_regions(s, &Board::of(s)) != 0 {
            s.phase = Phase::Panic;
            return;
        }
        self.begin_actions(s, ev);
    }

    /// 5.2: who acts first.
    pub fn begin_actions(&self, s: &mut State, ev: &mut Ev) {
        let (p, b) = (s.actions[0], s.actions[1]);
        if p != b {
            s.mover = if p > b { PATRIOT } else { BRITISH };
            ev.push(Event::First {
                side: s.mover,
                die: 0,
            });
        } else {
            let d = s.dice.d6();
            s.mover = if d % 2 == 0 { PATRIOT } else { BRITISH };
            ev.push(Event::First {
                side: s.mover,
                die: d,
            });
        }
        s.no_pass = false;
        s.reserve = false;
        s.phase = Phase::Main;
    }

    // ----- 5.2 -----

    fn legal_main(&self, s: &State, b: &Board, out: &mut Actions) {
        self.legal_game_actions(s, b, out);
        if s.reserve {
            return;
        }
        let any_game_action = !out.is_empty();
        if may_yield(s) {
            out.push(Action::Yield);
        }
        if may_reserve(s, any_game_action) {
            out.push(Action::Reserve);
        }
        if may_plan(s) {
            out.push(Action::Plan);
        }
        out.push(Action::Pass);
        if s.mode == Mode::SolitaireBritish && s.mover == BRITISH {
            self.legal_upgrades(s, out);
        }
    }

    /// Every action of 6.1-6.10 the mover may start now.
    fn legal_game_actions(&self, s: &State, b: &Board, out: &mut Actions) {
        self.legal_game_actions_of(s, b, None, out)
    }

    /// The same, limited to the kind of one action (to check an action cheaply).
    fn legal_game_actions_of(&self, s: &State, b: &Board, only: Option<u8>, out: &mut Actions) {
        let me = s.mover;
        let want = |k: u8| only.is_none_or(|o| o == k);
        if want(1) {
            self.legal_volleys(s, b, me, out);
        }
        if want(2) {
            self.legal_assaults(s, b, me, out);
        }
        if want(3) {
            let mut guns = Actions::new();
            self.legal_guns(s, b, me, &mut guns);
            if !guns.is_empty() {
                out.push(Action::Cannonade);
            }
        }
        if !want(4) {
        } else if me == BRITISH {
            // Either bombarding unit has something to do other than hold.
            let pairs = self.patriot_pairs(s);
            let (shell0, hot0) = self.bombard_targets(s, 0, pairs);
            let (shell1, hot1) = self.bombard_targets(s, 1, pairs);
            if shell0 | hot0 | shell1 | hot1 != 0 {
                out.push(Action::Bombard);
            }
        }
        if want(5) {
            self.legal_moves(s, b, me, out);
        }
        if want(6) {
            for j in 0..3u8 {
                if self.naval_ok(s, j) {
                    out.push(Action::Naval(j));
                }
            }
        }
        if want(7) {
            self.legal_rallies(s, me, out);
        }
        if want(8) {
            self.legal_reorgs(s, me, out);
        }
        if me == PATRIOT && want(9) {
            self.legal_snipes(s, b, out);
        }
        if me == BRITISH && want(10) {
            self.legal_landings(s, b, out);
        }
    }

    /// The kind of a game action (for `legal_game_actions_of`), 0 for the others.
    fn action_kind(a: Action) -> u8 {
        match a {
            Action::Volley { .. } => 1,
            Action::Assault { .. } => 2,
            Action::Cannonade => 3,
            Action::Bombard => 4,
            Action::Move(_) => 5,
            Action::Naval(_) => 6,
            Action::Rally(_) => 7,
            Action::Reorg { .. } => 8,
            Action::Snipe(_) => 9,
            Action::Land { .. } => 10,
            _ => 0,
        }
    }

    /// Is `a` among the legal actions? The same answer as `legal`, computed more cheaply:
    /// where a step offers many options, only the one asked about is checked.
    pub fn is_legal(&self, s: &State, a: Action) -> bool {
        if to_act(s).is_none() {
            return false;
        }
        if s.tasks.is_empty() {
            match s.phase {
                Phase::Main => return self.main_is_legal(s, a),
                Phase::Move { from, .. } => return self.go_is_legal(s, from, a),
                Phase::Reorg { a: r1, b: r2 } => return self.reorg_pick_is_legal(s, r1, r2, a),
                Phase::Volley { from, .. } => return self.volley_pick_is_legal(s, from, a),
                Phase::Land { zone, .. } => return self.land_pick_is_legal(s, zone, a),
                _ => {}
            }
        }
        let mut legal = Actions::new();
        self.legal(s, &mut legal);
        legal.contains(&a)
    }

    /// `is_legal` in the main action round (5.2), following `legal_main`.
    fn main_is_legal(&self, s: &State, a: Action) -> bool {
        let k = Self::action_kind(a);
        if k > 0 {
            match a {
                Action::Reorg { a: r1, b: r2 } => return self.reorg_is_legal(s, s.mover, r1, r2),
                Action::Naval(j) => return self.naval_ok(s, j),
                _ => {}
            }
            let b = Board::of(s);
            let mut legal = Actions::new();
            self.legal_game_actions_of(s, &b, Some(k), &mut legal);
            return legal.contains(&a);
        }
        // With a Reserve Action under way only game actions are offered.
        if s.reserve {
            return false;
        }
        match a {
            Action::Yield => may_yield(s),
            Action::Reserve => may_reserve(s, true) && self.any_game_action(s),
            Action::Plan => may_plan(s),
            Action::Pass => true,
            Action::Upgrade(_) => {
                if s.mode != Mode::SolitaireBritish || s.mover != BRITISH {
                    return false;
                }
                let mut legal = Actions::new();
                self.legal_upgrades(s, &mut legal);
                legal.contains(&a)
            }
            _ => false,
        }
    }

    /// 6.6: may the British fleet sail to Fleet Box `j` (one next to its own)?
    fn naval_ok(&self, s: &State, j: u8) -> bool {
        let f = &self.data.map.fleet[s.fleet as usize % 3];
        s.mover == BRITISH && j < 3 && f.adj >> j & 1 == 1
    }

    /// Can the mover start any action of 6.1-6.10?
    fn any_game_action(&self, s: &State) -> bool {
        let mut legal = Actions::new();
        self.legal_game_actions(s, &Board::of(s), &mut legal);
        !legal.is_empty()
    }

    fn apply_main(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let me = s.mover as usize;
        match a {
            Action::Yield => {
                s.mover = 1 - s.mover;
                s.no_pass = true;
                ev.push(Event::Took {
                    side: me as u8,
                    action: a,
                    reserve: false,
                });
                return;
            }
            Action::Reserve => {
                s.reserve = true;
                return;
            }
            Action::Upgrade(o) => {
                ev.push(Event::Took {
                    side: me as u8,
                    action: a,
                    reserve: false,
                });
                self.upgrade(s, o, ev);
                return;
            }
            _ => {}
        }
        ev.push(Event::Took {
            side: me as u8,
            action: a,
            reserve: s.reserve,
        });
        if s.reserve {
            s.reserves[me] = s.reserves[me].saturating_sub(1);
        } else {
            s.actions[me] = s.actions[me].saturating_sub(1);
        }
        s.sel = 0;
        s.count = 0;
        match a {
            Action::Pass => self.finish_action(s),
            Action::Plan => {
                s.actions[me] = 0;
                s.reserves[me] = (s.reserves[me] + 1).min(2);
                self.finish_action(s);
            }
            Action::Volley { from, to } => {
                s.phase = Phase::Volley {
                    from,
                    to,
                    free: false,
                }
            }
            Action::Assault { from, to } => {
                s.fight = Fight {
                    from,
                    to,
                    attacker: me as u8,
                    round: 0,
                    hit: 5,
                    att: 0,
                    def: 0,
                    dice: [0, 0],
                };
                s.phase = Phase::Assault {
                    stage: Stage::Select,
                };
            }
            Action::Cannonade => s.phase = Phase::Cannonade,
            Action::Bombard => s.phase = Phase::Bombard { which: 0 },
            Action::Move(from) => {
                let exempt = if s.mode.solitaire() && from == MUSTER {
                    // 12.2: each Patriot leader spares one accompanying unit the Neck check.
                    bits(self.here(s, MUSTER))
                        .filter(|&u| {
                            let x = s.units[u as usize];
                            x.kind == Kind::Leader && x.side == PATRIOT && !x.has(MOVED)
                        })
                        .count() as u8
                } else {
                    0
                };
                s.phase = Phase::Move { from, exempt };
            }
            Action::Naval(j) => {
                s.fleet = j;
                self.finish_action(s);
            }
            Action::Rally(region) => s.phase = Phase::Rally { region },
            Action::Reorg { a, b } => s.phase = Phase::Reorg { a, b },
            Action::Snipe(r) => {
                self.snipe(s, r, ev);
                self.finish_action(s);
            }
            Action::Land { zone, to } => s.phase = Phase::Land { zone, to },
            _ => self.finish_action(s),
        }
    }

    /// 5.2: both sides have spent their actions.
    fn end_actions(&self, s: &mut State, ev: &mut Ev) {
        if s.mode == Mode::SolitairePatriot {
            // 12.4: British Final Fire before the turn ends (B40).
            s.phase = Phase::FinalFire;
            s.mover = BRITISH;
            return;
        }
        self.end_turn(s, ev);
    }

    // ----- 5.3 -----

    pub fn end_turn(&self, s: &mut State, ev: &mut Ev) {
        for u in s.units.iter_mut() {
            u.flags &= !(MOVED | FIRED | RALLIED);
        }
        // 9.1: each healthy leader may remove one Panic marker in its region (B31).
        if s.morale[PATRIOT as usize] > 0 {
            for l in 0..s.units.len() {
                let x = s.units[l];
                if x.kind != Kind::Leader || x.side != PATRIOT || x.broken() || x.at > MUSTER {
                    continue;
                }
                if let Some(p) = s
                    .units
                    .iter()
                    .position(|y| y.at == x.at && y.has(PANIC) && y.side == PATRIOT)
                {
                    s.units[p].flags &= !PANIC;
                    ev.push(Event::PanicRemoved { unit: p as u8 });
                }
            }
        }
        s.hot_shot = false;
        ev.push(Event::TurnEnds { turn: s.turn });
        // 5.3: fire spreads from each burning town region that still has an unburnt neighbour.
        let town = self.data.map.town;
        for r in bits64(s.ablaze) {
            let free = self.data.map.regions[r as usize].adj & town & !s.ablaze;
            if free == 0 {
                continue;
            }
            // The roll is logged as it is made, spread or not: a decision that follows it
            // (where the fire goes) comes after a die, which undo cannot take back.
            let d = s.dice.d6();
            let spreads = d >= 5;
            ev.push(Event::SpreadRoll {
                from: r,
                die: d,
                spreads,
            });
            if spreads {
                s.tasks.push(Task::Spread { from: r });
            }
        }
        s.phase = Phase::Main;
        s.actions = [0, 0];
        // The next turn starts once the spreading is placed.
        s.tasks.push(Task::NextTurn);
    }

    /// After the end-of-turn tasks: the next turn, or the end of the game.
    pub fn next_turn(&self, s: &mut State, ev: &mut Ev) {
        if s.turn >= s.last_turn {
            self.final_spread(s, ev);
            self.end_game(s, 0, ev);
            return;
        }
        s.turn += 1;
        self.begin_turn(s, ev);
    }

    /// 5.3: at the end of the game every unburnt town region next to a fire may catch.
    fn final_spread(&self, s: &mut State, ev: &mut Ev) {
        let town = self.data.map.town;
        let mut exposed = 0u64;
        for r in bits64(s.ablaze) {
            exposed |= self.data.map.regions[r as usize].adj & town;
        }
        exposed &= !s.ablaze;
        for r in bits64(exposed) {
            let d = s.dice.d6();
            if d >= 5 {
                s.ablaze |= 1 << r;
                ev.push(Event::Ablaze { region: r, die: d });
            } else {
                ev.push(Event::NoFire { region: r, die: d });
            }
        }
    }

    // ----- tasks -----

    pub fn legal_task(&self, s: &State, t: Task, out: &mut Actions) {
        match t {
            Task::Hits {
                side,
                region,
                mode,
                n,
            } => {
                if n == 0 {
                    return;
                }
                for u in bits(self.here(s, region)) {
                    if self.hit_eligible(s, u, side, mode) {
                        out.push(Action::Hit(u));
                    }
                }
            }
            Task::Flee { unit, steps } => {
                for r in bits64(self.flee_options(s, unit, steps)) {
                    out.push(Action::Dest(r));
                }
            }
            Task::Retreat { unit, origin } => {
                for r in bits64(self.retreat_options(s, unit, origin)) {
                    out.push(Action::Dest(r));
                }
            }
            Task::Evacuate { unit } => {
                for r in bits64(self.evacuate_options(s, unit)) {
                    out.push(Action::Dest(r));
                }
            }
            Task::Spread { from } => {
                let free =
                    self.data.map.regions[from as usize].adj & self.data.map.town & !s.ablaze;
                for r in bits64(free) {
                    out.push(Action::Spread(r));
                }
            }
            Task::Scatter { .. } | Task::AssaultStep | Task::NextTurn => {}
        }
    }

    fn apply_task(&self, s: &mut State, t: Task, a: Action, ev: &mut Ev) {
        s.tasks.remove(0);
        match (t, a) {
            (
                Task::Hits {
                    side,
                    region,
                    n,
                    mode,
                },
                Action::Hit(u),
            ) => {
                self.take_hit(s, u, ev);
                if n > 1 {
                    s.tasks.insert(
                        0,
                        Task::Hits {
                            side,
                            region,
                            n: n - 1,
                            mode,
                        },
                    );
                }
            }
            (Task::Flee { unit, .. }, Action::Dest(r))
            | (Task::Evacuate { unit }, Action::Dest(r)) => {
                self.relocate(s, unit, r, ev);
            }
            (Task::Retreat { unit, .. }, Action::Dest(r)) => {
                if s.group == 255 {
                    s.group = r;
                }
                self.relocate(s, unit, r, ev);
            }
            (Task::Spread { .. }, Action::Spread(r)) => {
                self.set_ablaze(s, r, 0, ev);
            }
            _ => {}
        }
    }

    /// A task whose decision has no option left.
    fn task_without_choice(&self, s: &mut State, t: Task, ev: &mut Ev) {
        match t {
            // 7.1: a retreat with nowhere to go, 6.4: a counter trapped by fire (B13, B18).
            Task::Retreat { unit, .. } | Task::Evacuate { unit }
                if s.units[unit as usize].at <= MUSTER =>
            {
                self.destroy(s, unit, ev);
            }
            // Hits with no eligible counter are lost; a flight with no way stays put (B32).
            _ => {}
        }
    }

    /// Moves a counter (no markers).
    pub fn relocate(&self, s: &mut State, u: u8, to: u8, ev: &mut Ev) {
        s.units[u as usize].at = to;
        ev.push(Event::Moved { unit: u, to });
    }

    pub fn prompt(&self, s: &State) -> Prompt {
        let p = |t: &str, sec: &str| Prompt {
            text: t.to_string(),
            section: sec.to_string(),
        };
        if s.ended.is_some() {
            return p("The game is over.", "10.0");
        }
        if let Some(t) = s.tasks.first() {
            return match t {
                Task::Hits { .. } => p("Choose the counter that takes the next hit.", "7.0"),
                Task::Flee { .. } => p(
                    "Choose where the panicked unit runs, toward the Muster Box.",
                    "9.1",
                ),
                Task::Retreat { .. } => p("Choose where the counter retreats.", "7.1"),
                Task::Evacuate { .. } => p("Choose where the counter escapes the fire.", "6.4"),
                Task::Spread { .. } => p("Choose the town region the fire spreads to.", "5.3"),
                _ => p("Continue.", "5.2"),
            };
        }
        match s.phase {
            Phase::SetupBritish => p("Place a Regular in a Landing Zone 2 staging area.", "12.1"),
            Phase::SetupPatriot => p(
                "Place the next Patriot counter in a region with a defensive modifier.",
                "12.1",
            ),
            Phase::Objective => p("Choose the British objective (or roll for it).", "12.3"),
            Phase::ThreePick => p("Pick an objective for 'any three'.", "12.3"),
            Phase::ZonePick => p("Pick a landing zone.", "12.3"),
            Phase::Focus => p("Choose the Patriot defence focus.", "12.4"),
            Phase::Reinforce => p("Choose the landing zone of the reinforcements.", "12.1"),
            Phase::Panic => p("Choose a region whose militia checks for panic.", "9.1"),
            Phase::Main => p("Choose an action.", "5.2"),
            Phase::FinalFire => p(
                "British Final Fire: volley with units that have not fired, or stop.",
                "12.4",
            ),
            Phase::Volley { .. } => p("Add firing units, then fire.", "6.1"),
            Phase::Assault { stage } => match stage {
                Stage::Select => p("Add assaulting counters, then attack.", "6.2"),
                Stage::Withdraw => p("Withdraw counters before the assault, or stand.", "7.1"),
                Stage::DefFire => p("Free defensive fire: fire or hold fire.", "6.2"),
                Stage::AttBack => p("Fall back with counters, or stay.", "7.1"),
                Stage::DefBack => p("Retreat counters, or stand.", "7.1"),
            },
            Phase::Cannonade => p("Choose cannons and a target, or end.", "6.3"),
            Phase::Bombard { .. } => p("Choose the bombardment target, Hot Shot, or hold.", "6.4"),
            Phase::Move { .. } => p("Move a counter, or end the move.", "6.5"),
            Phase::Reorg { .. } => p("Shift counters between the two regions, then end.", "6.8"),
            Phase::Rally { .. } => p("Rally a broken unit, or end.", "6.7"),
            Phase::Land { .. } => p("Add counters to land, then land.", "6.10"),
            Phase::Over => p("The game is over.", "10.0"),
        }
    }

    /// Is the region one with a defensive modifier of 12.1 (for tests and docs)?
    pub fn setup_region(&self, r: u8) -> bool {
        let x = &self.data.map.regions[r as usize];
        x.assault > 0 && x.kind != RegionKind::Zone && x.hill != Some(super::data::Hill::Moultons)
    }
}

/// 5.2: the mover may hand the action over while not ahead on actions, unless it was just
/// handed to him, and only to an opponent who still has actions.
fn may_yield(s: &State) -> bool {
    let me = s.mover as usize;
    s.actions[me] <= s.actions[1 - me] && !s.no_pass && s.actions[1 - me] > 0
}

/// 5.2: a Reserve Action, with a reserve left and not demoralized (9.2), when not ahead on
/// actions or on the last one, and only if some action of 6.1-6.10 can be taken with it.
fn may_reserve(s: &State, any_game_action: bool) -> bool {
    let me = s.mover as usize;
    let (mine, theirs) = (s.actions[me], s.actions[1 - me]);
    any_game_action && s.reserves[me] > 0 && !s.demoralized[me] && (mine <= theirs || mine == 1)
}

/// 6.11: Plan on the mover's last action, not demoralized, at most two reserves.
fn may_plan(s: &State) -> bool {
    let me = s.mover as usize;
    s.actions[me] == 1 && !s.demoralized[me] && s.reserves[me] < 2
}

/// 6.5: counters sent to one region one after another are told in one line (issue 17). A
/// plain move (a decision whose only event is one counter's move, after which the same side
/// decides again) is held back in `State::went` until that side does something else or moves
/// a counter elsewhere; a hand-over, a roll or any other event writes it at once. Within one
/// decision (a landing, a Reorganize) consecutive moves of one side's counters to one region
/// are joined too.
///
/// 12.1: set-up placements are held back the same way (`went_to` is then `SETUP`) and told
/// as one line per side, as are the counters arriving together at the start of a turn.
pub fn group_moves(s: &mut State, same_side: bool, ev: Vec<Event>) -> Vec<Event> {
    let side = |s: &State, u: u8| s.units.get(u as usize).map(|x| x.side);
    let mut ev = ev;
    if let Some(&Event::Placed { unit, .. }) = ev.first() {
        let joins = s.went == 0
            || (s.went_to == SETUP && side(s, s.went.trailing_zeros() as u8) == side(s, unit));
        if joins {
            s.went |= 1 << unit;
            s.went_to = SETUP;
            ev.remove(0);
            if same_side && ev.is_empty() {
                return ev;
            }
        }
    }
    let ev = join_arrivals(s, ev);
    let plain = match ev.as_slice() {
        [Event::Moved { unit, to }] if same_side && s.ended.is_none() => Some((*unit, *to)),
        _ => None,
    };
    let mut out = Vec::with_capacity(ev.len() + 1);
    if s.went != 0 && s.went_to == SETUP {
        out.push(set_up_line(s, s.went));
        s.went = 0;
        s.went_to = 0;
    }
    if s.went != 0 && plain.is_none_or(|(_, to)| to != s.went_to) {
        out.push(moved_line(s, s.went, s.went_to));
        s.went = 0;
        s.went_to = 0;
    }
    if let Some((unit, to)) = plain {
        s.went |= 1 << unit;
        s.went_to = to;
        return out;
    }
    let mut run: (Units, u8) = (0, 0);
    for e in ev {
        if let Event::Moved { unit, to } = e {
            let first = run.0.trailing_zeros() as u8;
            if run.0 == 0 || (run.1 == to && side(s, first) == side(s, unit)) {
                run = (run.0 | 1 << unit, to);
                continue;
            }
            out.push(moved_line(s, run.0, run.1));
            run = (1 << unit, to);
            continue;
        }
        if run.0 != 0 {
            out.push(moved_line(s, run.0, run.1));
            run = (0, 0);
        }
        out.push(e);
    }
    if run.0 != 0 {
        out.push(moved_line(s, run.0, run.1));
    }
    out
}

/// The line of one side's set-up placements: one counter's own line, or the group's.
fn set_up_line(s: &State, units: Units) -> Event {
    let first = units.trailing_zeros() as u8;
    if units.count_ones() == 1 {
        Event::Placed {
            unit: first,
            region: s.units.get(first as usize).map_or(0, |x| x.at),
        }
    } else {
        Event::SetUp {
            side: s.units.get(first as usize).map_or(0, |x| x.side),
            units,
        }
    }
}

/// 12.1: counters of one side arriving one after another, in one line.
fn join_arrivals(s: &State, ev: Vec<Event>) -> Vec<Event> {
    let side = |u: u8| s.units.get(u as usize).map_or(0, |x| x.side);
    let mut out: Vec<Event> = Vec::with_capacity(ev.len());
    for e in ev {
        if let Event::Arrived { unit } = e {
            let joined: Option<Units> = match out.last() {
                Some(&Event::Arrived { unit: v }) if side(v) == side(unit) => Some(1 << v),
                Some(&Event::Together { side: sd, units }) if sd == side(unit) => Some(units),
                _ => None,
            };
            if let Some(units) = joined {
                out.pop();
                out.push(Event::Together {
                    side: side(unit),
                    units: units | 1 << unit,
                });
                continue;
            }
        }
        out.push(e);
    }
    out
}

/// The line of counters moved to `to`: one counter's own line, or the group's.
fn moved_line(s: &State, units: Units, to: u8) -> Event {
    let first = units.trailing_zeros() as u8;
    if units.count_ones() == 1 {
        Event::Moved { unit: first, to }
    } else {
        Event::Went {
            side: s.units.get(first as usize).map_or(0, |x| x.side),
            units,
            to,
        }
    }
}
