//! Chapter 5, the turn sequence: obtaining actions from the card (5.1), alternating action
//! rounds with Reserve Actions (5.2), the end of the turn in its printed order (5.3). This
//! module also knows whose decision it is and routes each decision to the chapter that
//! governs it; `apply` accepts exactly the actions `legal` lists.

use super::Concord;
use super::action::{Action, Event};
use super::pieces::{Ev, at, bit};
use super::state::*;
use arrayvec::ArrayVec;
use muster_core::Prompt;
use muster_core::game::IllegalAction;

/// Upper bound on the number of legal actions in any position.
pub const MAX_ACTIONS: usize = 512;
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// Who decides now.
pub fn to_act(s: &State) -> Option<u8> {
    if s.ended.is_some() {
        return None;
    }
    Some(match s.phase {
        Phase::Over => return None,
        Phase::Riders { .. }
        | Phase::Muster { .. }
        | Phase::CannonBreak { .. }
        | Phase::ChargeLeaders { .. }
        | Phase::Ambush { .. }
        | Phase::SonAway { .. } => PATRIOT,
        Phase::Captives { .. } | Phase::Redraw { .. } | Phase::SearchNext { .. } => BRITISH,
        Phase::Round { .. }
        | Phase::Move { .. }
        | Phase::ForcedBreak { .. }
        | Phase::MoveSon { .. }
        | Phase::Assemble { .. }
        | Phase::Rally { .. }
        | Phase::RallyLeaders { .. } => s.mover,
        Phase::Attackers | Phase::FireMode | Phase::OpFire | Phase::Advance { .. } => {
            s.battle.attacker
        }
        Phase::RetreatPick | Phase::Defenders | Phase::Escort { .. } => 1 - s.battle.attacker,
        Phase::RetreatTo { side, .. }
        | Phase::AfterPick { side }
        | Phase::Hits { side, .. }
        | Phase::Reroll { side, .. } => side,
    })
}

impl Concord {
    /// Every legal action now.
    pub fn legal(&self, s: &State, out: &mut Actions) {
        if to_act(s).is_none() {
            return;
        }
        match s.phase {
            Phase::Round { reserve } => self.legal_round(s, reserve, out),
            Phase::Riders { .. } => self.legal_riders(s, out),
            Phase::Muster { unit } => self.legal_muster(s, unit, out),
            Phase::Move { .. } | Phase::ForcedBreak { .. } | Phase::MoveSon { .. } => {
                self.legal_move(s, out)
            }
            Phase::CannonBreak { region, .. } => self.legal_cannon_break(s, region, out),
            Phase::Assemble { .. } => self.legal_assemble(s, out),
            Phase::Attackers
            | Phase::RetreatPick
            | Phase::RetreatTo { .. }
            | Phase::OpFire
            | Phase::Defenders
            | Phase::FireMode
            | Phase::AfterPick { .. }
            | Phase::Hits { .. }
            | Phase::Advance { .. }
            | Phase::Escort { .. }
            | Phase::Reroll { .. }
            | Phase::ChargeLeaders { .. } => self.legal_combat(s, out),
            Phase::Ambush { .. }
            | Phase::Rally { .. }
            | Phase::RallyLeaders { .. }
            | Phase::SonAway { .. } => self.legal_minor(s, out),
            Phase::Redraw { .. } => {
                out.push(Action::Redraw);
                out.push(Action::NoRedraw);
            }
            Phase::Captives { .. } => self.legal_captives(s, out),
            Phase::SearchNext { .. } => self.legal_search_next(s, out),
            Phase::Over => {}
        }
    }

    /// Applies a decision of the side to act. On error nothing has changed.
    pub fn apply_action(&self, s: &mut State, a: Action, ev: &mut Ev) -> Result<(), IllegalAction> {
        let ok = match s.phase {
            Phase::Round { reserve } => self.round_legal(s, reserve, a),
            _ => {
                let mut legal = Actions::new();
                self.legal(s, &mut legal);
                legal.contains(&a)
            }
        };
        if !ok {
            return Err(IllegalAction::not_legal(format!(
                "{} is not legal now ({})",
                super::notation::notation(self, s, a),
                self.prompt(s).text
            )));
        }
        let side = to_act(s).unwrap_or(0);
        // 6.4.2: the units dropped off since the group's last step, in one line, once the
        // group goes on or stops.
        if s.dropped != 0 && !matches!((s.phase, a), (Phase::Move { .. }, Action::Drop(_))) {
            let at = match s.phase {
                Phase::Move { at, .. } => at,
                _ => s.units[s.dropped.trailing_zeros() as usize]
                    .at
                    .region()
                    .unwrap_or(0),
            };
            ev.push(Event::Dropped {
                side,
                group: s.dropped,
                at,
            });
            s.dropped = 0;
        }
        if let Some(group) = super::notation::step_group(s, a) {
            ev.push(Event::Step {
                side,
                action: a,
                phase: s.phase,
                group,
            });
        }
        match s.phase {
            Phase::Round { reserve } => self.apply_round(s, reserve, a, ev),
            Phase::Riders { .. } => self.apply_riders(s, a, ev),
            Phase::Muster { unit } => self.apply_muster(s, unit, a, ev),
            Phase::Move { .. } | Phase::ForcedBreak { .. } | Phase::MoveSon { .. } => {
                self.apply_move(s, a, ev)
            }
            Phase::CannonBreak { .. } => self.apply_cannon_break(s, a, ev),
            Phase::Assemble { .. } => self.apply_assemble(s, a, ev),
            Phase::Attackers
            | Phase::RetreatPick
            | Phase::RetreatTo { .. }
            | Phase::OpFire
            | Phase::Defenders
            | Phase::FireMode
            | Phase::AfterPick { .. }
            | Phase::Hits { .. }
            | Phase::Advance { .. }
            | Phase::Escort { .. }
            | Phase::Reroll { .. }
            | Phase::ChargeLeaders { .. } => self.apply_combat(s, a, ev),
            Phase::Ambush { .. }
            | Phase::Rally { .. }
            | Phase::RallyLeaders { .. }
            | Phase::SonAway { .. } => self.apply_minor(s, a, ev),
            Phase::Redraw { .. } => self.apply_redraw(s, a, ev),
            Phase::Captives { .. } => self.apply_captives(s, a, ev),
            Phase::SearchNext { .. } => self.apply_search_next(s, a, ev),
            Phase::Over => {}
        }
        self.refresh(s, ev);
        // The checks may have taken away the units a pending hit was waiting for (a lone
        // cannon is lost, 4.1): move on rather than wait for a choice that cannot be made.
        self.settle(s, ev);
        // 4.3: a Gather marker flipped by this decision frees its Minutemen for their free move
        // at once, even in the middle of an action (of either side); what was being decided
        // waits and is taken up again after the last of them.
        if s.mustering != 0
            && s.ended.is_none()
            && !matches!(s.phase, Phase::Muster { .. } | Phase::Over)
        {
            s.resume = Some(s.phase);
            s.phase = Phase::Muster {
                unit: s.mustering.trailing_zeros() as u8,
            };
        }
        Ok(())
    }

    /// 5.2: may the side to act pay from its Reserve? It must not have more actions than its
    /// opponent, or have only one action left.
    pub fn reserve_usable(&self, s: &State) -> bool {
        let me = s.mover as usize;
        s.reserves[me] > 0
            && s.actions[me] > 0
            && (s.actions[me] <= s.actions[1 - me] || s.actions[me] == 1)
    }

    /// Is `a` among `legal_round`'s actions? (Checked without listing them all.)
    fn round_legal(&self, s: &State, reserve: bool, a: Action) -> bool {
        let me = s.mover as usize;
        match a {
            Action::Reserve | Action::Plan | Action::Pass if reserve => false,
            Action::Pass => true,
            Action::Reserve => {
                self.reserve_usable(s) && self.available_into(s, s.mover, &mut |_| true)
            }
            Action::Plan => {
                s.reserves[me] < 2
                    && (s.actions[me] == 1 || !self.available_into(s, s.mover, &mut |_| true))
            }
            _ => self.available_into(s, s.mover, &mut |x| x == a),
        }
    }

    fn legal_round(&self, s: &State, reserve: bool, out: &mut Actions) {
        self.available(s, s.mover, out);
        if reserve {
            return;
        }
        let me = s.mover as usize;
        let others = !out.is_empty();
        if others && self.reserve_usable(s) {
            out.push(Action::Reserve);
        }
        // 6.13: Plan on the 1 space, or when nothing but Pass is legal; two reserves at most.
        if s.reserves[me] < 2 && (s.actions[me] == 1 || !others) {
            out.push(Action::Plan);
        }
        out.push(Action::Pass);
    }

    /// Every action of chapter 6 that `side` may take now, except Plan and Pass.
    pub fn available(&self, s: &State, side: u8, out: &mut Actions) {
        self.available_into(s, side, &mut |a| {
            out.push(a);
            false
        });
    }

    /// Gives every available action to `emit`, stopping early (and returning true) when
    /// `emit` returns true: `apply` checks an action without listing them all.
    pub fn available_into<F: FnMut(Action) -> bool>(
        &self,
        s: &State,
        side: u8,
        emit: &mut F,
    ) -> bool {
        macro_rules! emit {
            ($a:expr) => {
                if emit($a) {
                    return true;
                }
            };
        }
        let map = &self.data.map;
        let n = map.regions.len() as u8;
        let boston = map.boston;
        let c = Census::new(self, s, side);
        // Regions a Patriot may enter (3.0): the alert boxes, Boston and a held Charlestown not.
        let mut enterable: Regions = 0;
        for t in 0..n {
            if !map.regions[t as usize].alert_box
                && (side == BRITISH
                    || (t != boston && !(t == map.charlestown && c.unbroken_regs[t as usize] > 0)))
            {
                enterable |= 1u64 << t;
            }
        }
        let enemy_regions = (0..n)
            .filter(|r| c.theirs[*r as usize] != 0)
            .fold(0u64, |m, r| m | 1u64 << r);
        for r in 0..n {
            let ri = r as usize;
            let targetable = c.theirs[ri] != 0 && !(side == PATRIOT && r == boston);
            // 6.1 Attack.
            if targetable && c.attack[ri] {
                emit!(Action::Attack(r));
            }
            // 6.2 Assault.
            if c.assault[ri] {
                let targets = map.adj[ri] & enterable & enemy_regions;
                for t in super::pieces::members(targets) {
                    if !(side == PATRIOT && t == boston) {
                        emit!(Action::Assault(r, t));
                    }
                }
            }
            // 6.3 Charge.
            if side == BRITISH
                && c.theirs[ri] != 0
                && c.charge_ready[ri]
                && c.leaders[ri]
                && r != boston
            {
                emit!(Action::Charge(r));
            }
            // 6.4 Move, 6.5 Assemble.
            if c.movable[ri] != 0 {
                emit!(Action::Move(r));
                if side == PATRIOT {
                    let whole = c.movable_whole[ri];
                    for t in super::pieces::members(map.adj[ri] & enterable) {
                        // A broken unit alone goes only toward Concord and never into Regulars.
                        let ok = whole
                            || (c.movable_broken[ri]
                                && c.regs[t as usize] == 0
                                && map.dist_concord[t as usize] < map.dist_concord[ri]);
                        if ok {
                            emit!(Action::Assemble(r, t));
                        }
                    }
                }
            }
            if side == PATRIOT && s.shot && r != boston {
                // 6.6 Ambush, 6.7 Snipe (after the Shot only, 10.0).
                if c.ambush[ri] >= 2 && s.ambushed & (1u64 << r) == 0 {
                    emit!(Action::Ambush(r));
                }
                if c.snipe[ri] >= 4 && s.sniped & (1u64 << r) == 0 {
                    emit!(Action::Snipe(r));
                }
            }
            // 6.8 Rally.
            if c.broken_own[ri] && c.leaders_own[ri] && self.rally_capacity(s, side, r) > 0 {
                emit!(Action::Rally(r));
            }
            // 6.9 Search / Capture.
            if side == BRITISH && c.unbroken_regs[ri] > 0 && self.search_ok(s, r) {
                emit!(Action::Search(r));
            }
        }
        for (i, u) in s.units.iter().enumerate() {
            let i = i as u8;
            if side != PATRIOT {
                break;
            }
            // 4.4 Adams and Hancock move with a Move action of their own.
            if u.kind == Kind::Son && self.active(s, i) && !u.moved && self.son_can_step(s, i, 0) {
                emit!(Action::MoveSon(i));
            }
            // 6.10 Escape Capture.
            if matches!(u.kind, Kind::Son | Kind::Rider)
                && u.flipped
                && matches!(u.at, Loc::At(_))
                && !(u.kind == Kind::Son && u.since == s.turn)
            {
                emit!(Action::Escape(i));
            }
        }
        // 6.11 Hinder markers.
        let british = self.british_regions(s);
        for m in 0..3u8 {
            match s.hinder[m as usize] {
                HinderAt::Available if HINDER_OWNER[m as usize] == side => {
                    for r in 0..n {
                        if self.hinder_target_in(s, m, r, british) {
                            emit!(Action::Hinder(m, r));
                        }
                    }
                }
                HinderAt::Map { .. } if HINDER_OWNER[m as usize] != side => {
                    emit!(Action::Unhinder(m))
                }
                _ => {}
            }
        }
        // 6.12 Call to Arms.
        if side == PATRIOT && !s.called && self.riders_ready(s) != 0 {
            emit!(Action::CallToArms);
        }
        // 6.14 Gather Intelligence, once per turn per side.
        if !s.peeked[side as usize] {
            emit!(Action::Intel);
        }
        false
    }

    fn apply_round(&self, s: &mut State, reserve: bool, a: Action, ev: &mut Ev) {
        let me = s.mover;
        if a == Action::Reserve {
            s.phase = Phase::Round { reserve: true };
            return;
        }
        if reserve {
            s.reserves[me as usize] -= 1;
        } else {
            s.actions[me as usize] = s.actions[me as usize].saturating_sub(1);
        }
        // An Assemble is told in one line once its units are chosen (issue 17).
        if !matches!(a, Action::Assemble(..)) {
            ev.push(Event::Act {
                side: me,
                action: a,
                reserve,
            });
        }
        s.phase = Phase::Round { reserve: false };
        match a {
            Action::Attack(r) => self.start_attack(s, r, 255),
            Action::Assault(f, t) => self.start_attack(s, t, f),
            Action::Charge(r) => self.start_charge(s, r, ev),
            Action::Move(r) => self.start_move(s, r),
            Action::MoveSon(u) => s.phase = Phase::MoveSon { unit: u, steps: 0 },
            Action::Assemble(f, t) => {
                s.phase = Phase::Assemble {
                    from: f,
                    to: t,
                    group: 0,
                    reserve,
                }
            }
            Action::Ambush(r) => {
                s.phase = Phase::Ambush {
                    region: r,
                    picked: 0,
                }
            }
            Action::Snipe(r) => self.snipe(s, r, ev),
            Action::Rally(r) => {
                let left = self.rally_capacity(s, me, r);
                s.phase = Phase::Rally { region: r, left };
            }
            Action::Search(r) => self.start_search(s, r, ev),
            Action::Escape(u) => self.escape(s, u, ev),
            Action::Hinder(m, r) => {
                s.hinder[m as usize] = HinderAt::Map {
                    region: r,
                    turns: 2,
                };
                self.end_action(s, ev);
            }
            Action::Unhinder(m) => {
                s.hinder[m as usize] = HinderAt::Track;
                self.end_action(s, ev);
            }
            Action::CallToArms => {
                s.phase = Phase::Riders {
                    opening: false,
                    rider: 255,
                    ap: 0,
                    done: 0,
                };
            }
            Action::Plan => {
                s.reserves[me as usize] = (s.reserves[me as usize] + 1).min(2);
                self.end_action(s, ev);
            }
            Action::Intel => {
                s.peeked[me as usize] = true;
                let seen = s.deck.peek(me);
                ev.push(Event::Peek {
                    side: me,
                    top: seen.first().copied().unwrap_or(0),
                    second: seen.get(1).copied().unwrap_or(0),
                });
                self.end_action(s, ev);
            }
            _ => self.end_action(s, ev),
        }
    }

    /// After an action: free Minutemen move (4.3), then the other side acts if it has actions
    /// left, else this side goes on; when both tracks are at 0 the turn ends (5.2).
    pub fn end_action(&self, s: &mut State, ev: &mut Ev) {
        if s.mustering != 0 {
            let u = s.mustering.trailing_zeros() as u8;
            s.phase = Phase::Muster { unit: u };
            return;
        }
        if s.card == 0 {
            // The opening Call to Arms is over (9.0): the first turn begins.
            self.begin_turn(s, ev);
            return;
        }
        let me = s.mover as usize;
        if s.actions[1 - me] > 0 {
            s.mover = 1 - s.mover;
            s.phase = Phase::Round { reserve: false };
        } else if s.actions[me] > 0 {
            s.phase = Phase::Round { reserve: false };
        } else {
            self.end_turn(s, ev);
        }
    }

    /// 5.1: Percy arrives, Prescott wakes, the card is drawn, the first player is found.
    pub fn begin_turn(&self, s: &mut State, ev: &mut Ev) {
        let percy_turn = if s.options.percy_turn_8 {
            8
        } else {
            self.setup(s).percy_turn
        };
        if s.turn == percy_turn {
            let boston = self.data.map.boston;
            let mut any = false;
            for u in s.units.iter_mut() {
                if u.at == Loc::Pending {
                    u.at = Loc::At(boston);
                    any = true;
                }
            }
            if any {
                ev.push(Event::PercyArrives);
            }
        }
        if s.prescott_turn == s.turn && s.prescott_turn != 0 {
            for u in s.units.iter_mut() {
                if u.kind == Kind::Rider && u.under {
                    u.under = false;
                    ev.push(Event::PrescottActive);
                }
            }
        }
        if s.card != 0 {
            // 6.12: only the opening Call to Arms bars another one on turn 1.
            s.called = false;
        }
        s.peeked = [false; 2];
        s.alerted_by = 0;
        if s.deck.draw.is_empty() {
            ev.push(Event::Reshuffle);
        }
        let id = s.deck.draw(&mut s.dice).unwrap_or(1);
        let card = self.data.cards.get(id);
        s.card = id;
        s.actions = [card.patriot, card.british];
        ev.push(Event::TurnStart {
            turn: s.turn,
            card: id,
            british: card.british,
            patriot: card.patriot,
            hash: card.hash,
        });
        if s.mode.solitaire() {
            self.solitaire_reinforce(s, card.hash, ev);
        }
        s.mover = if s.actions[0] > s.actions[1] {
            PATRIOT
        } else if s.actions[1] > s.actions[0] {
            BRITISH
        } else {
            let d = s.dice.d6();
            let first = if d % 2 == 0 { PATRIOT } else { BRITISH };
            ev.push(Event::FirstPlayer {
                side: first,
                die: d,
            });
            first
        };
        s.phase = Phase::Round { reserve: false };
    }

    /// 5.3: the end of the turn, step by step.
    pub fn end_turn(&self, s: &mut State, ev: &mut Ev) {
        let n = self.data.map.regions.len() as u8;
        // 1. Muster markers come off where no unbroken Regular stands and no Hinder Muster.
        for r in 0..n {
            if s.gather[r as usize] == MUSTER
                && self.unbroken_regulars(s, r) == 0
                && !self.hindered(s, HINDER_MUSTER, r)
            {
                s.gather[r as usize] = NO_MARKER;
                ev.push(Event::MusterRemoved { region: r });
                for u in s.units.iter_mut() {
                    if u.at == Loc::At(r) {
                        u.under = false;
                    }
                }
            }
        }
        // 2-3 (6.11): markers on the track come back; 1s come off; 2s become 1s.
        for h in s.hinder.iter_mut() {
            *h = match *h {
                HinderAt::Track => HinderAt::Available,
                HinderAt::Map { turns: 1, .. } => HinderAt::Available,
                HinderAt::Map { region, .. } => HinderAt::Map { region, turns: 1 },
                x => x,
            };
        }
        // 4. Moved, Fired, Rally, Ambush and Snipe markers come off.
        for u in s.units.iter_mut() {
            u.moved = false;
            u.fired = false;
            u.rallied = false;
            u.marched = false;
        }
        s.ambushed = 0;
        s.sniped = 0;
        // 5. Captives may be moved toward Boston.
        self.next_captive(s, 0, ev);
    }

    fn is_captive(&self, s: &State, u: u8) -> bool {
        let x = s.units[u as usize];
        matches!(x.kind, Kind::Son | Kind::Rider)
            && x.flipped
            && matches!(x.at, Loc::At(r) if r != self.data.map.boston)
    }

    fn next_captive(&self, s: &mut State, from: u8, ev: &mut Ev) {
        for u in from..s.units.len() as u8 {
            if self.is_captive(s, u) && !self.captive_steps(s, u).is_empty() {
                s.phase = Phase::Captives { unit: u, steps: 0 };
                return;
            }
        }
        self.finish_turn(s, ev);
    }

    fn captive_steps(&self, s: &State, u: u8) -> ArrayVec<u8, 16> {
        let map = &self.data.map;
        let mut out = ArrayVec::new();
        if let Loc::At(r) = s.units[u as usize].at {
            for t in 0..map.regions.len() as u8 {
                if map.adjacent(r, t)
                    && map.dist_boston[t as usize] < map.dist_boston[r as usize]
                    && !out.is_full()
                {
                    out.push(t);
                }
            }
        }
        out
    }

    fn legal_captives(&self, s: &State, out: &mut Actions) {
        if let Phase::Captives { unit, .. } = s.phase {
            for t in self.captive_steps(s, unit) {
                out.push(Action::To(t));
            }
            out.push(Action::Done);
        }
    }

    fn apply_captives(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let Phase::Captives { unit, steps } = s.phase else {
            return;
        };
        match a {
            Action::To(t) => {
                s.units[unit as usize].at = Loc::At(t);
                if t == self.data.map.boston {
                    // 5.3: in Boston the captive is out of the game for good.
                    s.units[unit as usize].at = Loc::Removed;
                    ev.push(Event::Removed { unit });
                    let vp = if s.units[unit as usize].kind == Kind::Son {
                        self.data.vp.captured_son
                    } else {
                        self.data.vp.captured_rider
                    };
                    if !s.mode.solitaire() {
                        self.score(s, BRITISH, Cause::Delivered, vp, ev);
                    }
                    self.riders_captured_check(s, ev);
                    self.next_captive(s, unit + 1, ev);
                } else if steps + 1 >= 2 || self.captive_steps(s, unit).is_empty() {
                    self.next_captive(s, unit + 1, ev);
                } else {
                    s.phase = Phase::Captives {
                        unit,
                        steps: steps + 1,
                    };
                }
            }
            _ => self.next_captive(s, unit + 1, ev),
        }
    }

    /// 6.12: both Revere and Dawes captured before Lexington is alerted: Prescott rides from
    /// the next turn.
    pub fn riders_captured_check(&self, s: &mut State, _ev: &mut Ev) {
        if s.prescott_turn != 0 {
            return;
        }
        let setup = self.setup(s);
        let gone = |id: &str| {
            setup.unit(id).is_none_or(|u| {
                let x = s.units[u as usize];
                x.flipped || x.at == Loc::Removed
            })
        };
        let prescott_waiting = setup
            .unit("prescott")
            .is_some_and(|u| s.units[u as usize].under);
        if prescott_waiting && gone("revere") && gone("dawes") {
            s.prescott_turn = s.turn + 1;
        }
    }

    fn finish_turn(&self, s: &mut State, ev: &mut Ev) {
        ev.push(Event::TurnEnd { turn: s.turn });
        if s.turn >= self.setup(s).last_turn {
            self.finish(s, ev);
        } else {
            s.turn += 1;
            self.begin_turn(s, ev);
        }
    }

    /// 4.3: the Minuteman's free move of up to two regions.
    fn legal_muster(&self, s: &State, unit: u8, out: &mut Actions) {
        for t in self.within_two(s, unit) {
            out.push(Action::To(t));
        }
        out.push(Action::Stay);
    }

    fn within_two(&self, s: &State, unit: u8) -> ArrayVec<u8, MAX_REGIONS> {
        let map = &self.data.map;
        let mut out = ArrayVec::new();
        let Loc::At(r) = s.units[unit as usize].at else {
            return out;
        };
        let n = map.regions.len() as u8;
        for t in 0..n {
            if t == r || map.regions[t as usize].alert_box || !self.may_enter(s, PATRIOT, t) {
                continue;
            }
            let near = map.adjacent(r, t)
                || (0..n).any(|m| {
                    map.adjacent(r, m)
                        && map.adjacent(m, t)
                        && !map.regions[m as usize].alert_box
                        && self.may_enter(s, PATRIOT, m)
                });
            if near {
                out.push(t);
            }
        }
        out
    }

    fn apply_muster(&self, s: &mut State, unit: u8, a: Action, ev: &mut Ev) {
        if let Action::To(t) = a {
            s.units[unit as usize].at = Loc::At(t);
        }
        s.mustering &= !bit(unit);
        if s.mustering != 0 {
            s.phase = Phase::Muster {
                unit: s.mustering.trailing_zeros() as u8,
            };
        } else if let Some(p) = s.resume.take() {
            s.phase = p;
        } else {
            self.end_action(s, ev);
        }
    }

    /// What the side to act is asked.
    pub fn prompt(&self, s: &State) -> Prompt {
        let (text, section) = self.asked(s.phase);
        Prompt {
            text: text.to_string(),
            section: section.to_string(),
        }
    }

    /// The section of the decision asked in a phase.
    pub fn prompt_of(&self, phase: Phase) -> &'static str {
        self.asked(phase).1
    }

    /// What is asked in a phase, and its rule section.
    fn asked(&self, phase: Phase) -> (&'static str, &'static str) {
        let p = |t: &'static str, sec: &'static str| (t, sec);
        match phase {
            Phase::Round { reserve: false } => p("Choose an action (or plan, or pass).", "5.2"),
            Phase::Round { reserve: true } => p("Choose the action paid from the reserve.", "5.2"),
            Phase::Riders { rider: 255, .. } => p(
                "Choose a Nightrider to ride, or finish the Call to Arms.",
                "6.12",
            ),
            Phase::Riders { .. } => p("Ride, alert, leave the map, or finish this rider.", "6.12"),
            Phase::Muster { .. } => p("Place the mustered Minuteman within two regions.", "4.3"),
            Phase::Move { group: 0, .. } => p("Choose units to move, or finish moving.", "6.4"),
            Phase::Move { steps: 0, .. } => p("Choose more units, or where the group goes.", "6.4"),
            Phase::Move { .. } => p("March on along the road, drop off units, or stop.", "6.4.2"),
            Phase::ForcedBreak { .. } => p("Choose the unit the forced march breaks.", "6.4.2"),
            Phase::MoveSon { .. } => p("Move the Son of Liberty, or stop.", "4.4"),
            Phase::CannonBreak { .. } => p("Choose the unit the field cannon breaks.", "4.1"),
            Phase::Assemble { .. } => p("Choose units to assemble, then done.", "6.5"),
            Phase::Attackers => p("Choose attacking units, then done.", "7.0"),
            Phase::RetreatPick => p("Choose units to retreat before combat, then done.", "7.1"),
            Phase::RetreatTo { .. } => p("Choose where the retreating units go.", "7.1"),
            Phase::OpFire => p("Fire on the retreating units, or not.", "7.1.3"),
            Phase::Defenders => p("Choose defending units that take part, then done.", "7.0"),
            Phase::FireMode => p("Simultaneous combat or defensive fire?", "7.0"),
            Phase::AfterPick { .. } => {
                p("Choose units to retreat after combat, then done.", "7.1.4")
            }
            Phase::Hits { .. } => p("Choose the unit that takes the next hit.", "7.0"),
            Phase::Escort { .. } => p(
                "Choose which moved units your escorts take along in the retreat, then done.",
                "7.1.2",
            ),
            Phase::Reroll { .. } => p(
                "A healthy leader is present: re-roll one missed die, or keep the roll.",
                "14.1",
            ),
            Phase::Advance { .. } => p(
                "Choose units to advance with the cannon, then a region, or done.",
                "4.1",
            ),
            Phase::ChargeLeaders { .. } => p(
                "Choose up to two leaders to leave with the broken units, then done.",
                "6.3",
            ),
            Phase::Ambush { .. } => p("Choose a Regular to ambush.", "6.6"),
            Phase::Rally { .. } => p("Choose a broken unit to rally, or done.", "6.8"),
            Phase::RallyLeaders { .. } => p("Choose a leader who performed the rally.", "6.8"),
            Phase::Redraw { .. } => p("Pay 1 VP for one more capture draw?", "8.2"),
            Phase::SearchNext { .. } => p(
                "Choose what the search draws a card for next: the hidden arms or a Son of Liberty.",
                "8.0",
            ),
            Phase::SonAway { .. } => p("Move the piece to an adjacent region, or stay.", "8.2"),
            Phase::Captives { .. } => p("Move the captive toward Boston, or done.", "5.3"),
            Phase::Over => p("The game is over.", "13.0"),
        }
    }
}

/// Units of a side in a region, as a set.
pub fn side_units(g: &Concord, s: &State, side: u8, r: u8) -> u64 {
    at(s, r)
        .filter(|(i, _)| g.side_of(s, *i) == side)
        .fold(0, |m, (i, _)| m | bit(i))
}

/// One pass over the units: what each region holds, for [`Concord::available`].
struct Census {
    theirs: [Units; MAX_REGIONS],
    attack: [bool; MAX_REGIONS],
    assault: [bool; MAX_REGIONS],
    movable: [Units; MAX_REGIONS],
    /// A movable unit that is unbroken (or a leader): it may assemble anywhere enterable.
    movable_whole: [bool; MAX_REGIONS],
    movable_broken: [bool; MAX_REGIONS],
    charge_ready: [bool; MAX_REGIONS],
    leaders: [bool; MAX_REGIONS],
    leaders_own: [bool; MAX_REGIONS],
    broken_own: [bool; MAX_REGIONS],
    regs: [u8; MAX_REGIONS],
    unbroken_regs: [u8; MAX_REGIONS],
    ambush: [u8; MAX_REGIONS],
    snipe: [u8; MAX_REGIONS],
}

impl Census {
    fn new(g: &Concord, s: &State, side: u8) -> Census {
        let mut c = Census {
            theirs: [0; MAX_REGIONS],
            attack: [false; MAX_REGIONS],
            assault: [false; MAX_REGIONS],
            movable: [0; MAX_REGIONS],
            movable_whole: [false; MAX_REGIONS],
            movable_broken: [false; MAX_REGIONS],
            charge_ready: [false; MAX_REGIONS],
            leaders: [false; MAX_REGIONS],
            leaders_own: [false; MAX_REGIONS],
            broken_own: [false; MAX_REGIONS],
            regs: [0; MAX_REGIONS],
            unbroken_regs: [0; MAX_REGIONS],
            ambush: [0; MAX_REGIONS],
            snipe: [0; MAX_REGIONS],
        };
        let british = g.setup(s).british;
        for (i, u) in s.units.iter().enumerate() {
            let Loc::At(r) = u.at else { continue };
            let r = r as usize;
            let own = (british & (1u64 << i) != 0) as u8;
            if u.kind == Kind::Regular {
                c.regs[r] += 1;
                if !u.flipped {
                    c.unbroken_regs[r] += 1;
                    if u.moved {
                        c.ambush[r] += 1;
                    }
                }
            }
            if own == BRITISH
                && matches!(u.kind, Kind::Regular | Kind::Leader)
                && !u.flipped
                && u.moved
                && u.marched
            {
                c.snipe[r] += 1;
            }
            if u.under || !(u.kind.military() || u.kind == Kind::Leader) {
                continue;
            }
            if own != side {
                c.theirs[r] |= bit(i as u8);
                continue;
            }
            if u.kind == Kind::Leader {
                c.leaders[r] = true;
                c.leaders_own[r] |= !u.rallied;
            } else if u.flipped {
                c.broken_own[r] = true;
            }
            let core = u.kind != Kind::Cannon && u.kind != Kind::Leader && !u.flipped && !u.fired;
            if core {
                c.attack[r] = true;
                if !u.moved {
                    c.assault[r] = true;
                }
            }
            if u.kind == Kind::Regular && !u.flipped && !u.moved && !u.fired {
                c.charge_ready[r] = true;
            }
            if !u.moved && s.mover == side {
                c.movable[r] |= bit(i as u8);
                if u.flipped && u.kind != Kind::Leader {
                    c.movable_broken[r] = true;
                } else {
                    c.movable_whole[r] = true;
                }
            }
        }
        c
    }
}
