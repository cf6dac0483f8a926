//! Combat: 6.1 Attack, 6.2 Assault, 6.3 Charge and chapter 7 (the defender's retreat before
//! combat and choice of participants, simultaneous combat or defensive fire, hits applied by
//! the side taking them with participants first, 7.1 retreats with their order for moved
//! units, 7.1.3 OpFire, 7.1.4 retreats after combat), 4.1 the cannon in combat, 11.0 the
//! Smith/Pitcairn retreat penalty.

use super::Concord;
use super::action::{Action, Event};
use super::pieces::{Ev, at, bit, members};
use super::sequence::Actions;
use super::state::*;

const NONE: u8 = 255;
/// `Battle::after_side` once the cannon's advance (4.1) has been offered.
const ADVANCED: u8 = 9;

impl Concord {
    /// A unit that can carry an Attack (or Assault): an unbroken military unit with strength
    /// possible (not the cannon), not fired (and not moved for an Assault).
    pub fn can_attack_with(&self, s: &State, u: u8, assault: bool) -> bool {
        let x = s.units[u as usize];
        self.active(s, u)
            && x.kind.military()
            && x.kind != Kind::Cannon
            && !x.flipped
            && !x.fired
            && !(assault && x.moved)
            && self.side_of(s, u) == s.mover
    }

    /// A unit that may join an attack besides those: a leader or the cannon.
    pub(crate) fn may_join_attack(&self, s: &State, u: u8, assault: bool) -> bool {
        let x = s.units[u as usize];
        if self.can_attack_with(s, u, assault) {
            return true;
        }
        self.active(s, u)
            && matches!(x.kind, Kind::Leader | Kind::Cannon)
            && !x.fired
            && !(assault && x.moved)
            && !(x.kind == Kind::Cannon && x.flipped)
            && self.side_of(s, u) == s.mover
    }

    pub fn charge_ok(&self, s: &State, r: u8) -> bool {
        let mut leader = false;
        let mut regular = false;
        for (i, u) in at(s, r) {
            if self.side_of(s, i) != BRITISH {
                continue;
            }
            leader |= u.kind == Kind::Leader;
            regular |= u.kind == Kind::Regular && !u.flipped && !u.moved && !u.fired;
        }
        leader && regular && self.fighters(s, PATRIOT, r) != 0 && r != self.data.map.boston
    }

    pub fn start_attack(&self, s: &mut State, region: u8, from: u8) {
        s.battle = Battle {
            attacker: s.mover,
            region,
            from,
            ..Battle::default()
        };
        s.phase = Phase::Attackers;
    }

    pub fn start_charge(&self, s: &mut State, r: u8, ev: &mut Ev) {
        let mut charging = 0;
        for (i, u) in at(s, r) {
            if self.side_of(s, i) == BRITISH
                && !u.moved
                && !u.fired
                && (u.kind.military() || u.kind == Kind::Leader)
            {
                charging |= bit(i);
            }
        }
        for u in members(charging) {
            s.units[u as usize].moved = true;
            s.units[u as usize].fired = true;
        }
        s.battle = Battle {
            attacker: BRITISH,
            region: r,
            from: NONE,
            attackers: charging,
            // 6.3: no cannon advance after a Charge.
            after_side: ADVANCED,
            ..Battle::default()
        };
        self.shot(s, false, ev);
        s.phase = Phase::Hits {
            side: BRITISH,
            region: r,
            n: 1,
            first: 0,
            among: charging,
            then: Then::ChargePatriot,
        };
    }

    /// Where a force of `side` leaving `region` may retreat (7.1): adjacent, enterable, not
    /// into the Assault's origin (defender) or only into it (assaulting attacker), and toward
    /// Concord (Patriot) or Boston (British) when that is possible.
    pub fn retreat_dests(&self, s: &State, side: u8, region: u8) -> Regions {
        let map = &self.data.map;
        let b = &s.battle;
        let assault = b.from != NONE && b.region == region;
        let mut all = 0u64;
        for t in 0..map.regions.len() as u8 {
            if !map.adjacent(region, t) || !self.may_enter(s, side, t) {
                continue;
            }
            if assault && side != b.attacker && t == b.from {
                continue;
            }
            if assault && side == b.attacker && t != b.from {
                continue;
            }
            all |= 1u64 << t;
        }
        let dist = if side == PATRIOT {
            &map.dist_concord
        } else {
            &map.dist_boston
        };
        let mut closer = 0u64;
        for t in 0..map.regions.len() as u8 {
            if all & (1u64 << t) != 0 && dist[t as usize] < dist[region as usize] {
                closer |= 1u64 << t;
            }
        }
        let mut dests = if closer != 0 { closer } else { all };
        // 15.2: in the solitaire game Patriots in Concord may also fall back toward Lexington.
        // A permission: it adds those regions to what 7.1 allows and takes none away (ruling
        // C34; nothing is nearer Concord than Concord, so 7.1 already allows every region).
        if s.mode.solitaire() && side == PATRIOT && region == map.concord {
            for t in 0..map.regions.len() as u8 {
                if all & (1u64 << t) != 0
                    && map.dist_lexington[t as usize] < map.dist_lexington[region as usize]
                {
                    dests |= 1u64 << t;
                }
            }
        }
        dests
    }

    fn hit_candidates(&self, s: &State) -> Units {
        let Phase::Hits {
            side,
            region,
            first,
            among,
            ..
        } = s.phase
        else {
            return 0;
        };
        let mut c = self.fighters(s, side, region);
        if among != 0 {
            c &= among;
        }
        if c & first != 0 {
            c &= first;
        }
        c
    }

    pub fn legal_combat(&self, s: &State, out: &mut Actions) {
        let b = s.battle;
        let def = 1 - b.attacker;
        match s.phase {
            Phase::Attackers => {
                let src = if b.from == NONE { b.region } else { b.from };
                let assault = b.from != NONE;
                for (u, _) in at(s, src) {
                    if b.attackers & bit(u) == 0 && self.may_join_attack(s, u, assault) {
                        out.push(Action::Pick(u));
                    }
                }
                let core = members(b.attackers).any(|u| self.can_attack_with(s, u, assault));
                let cannon = members(b.attackers).any(|u| s.units[u as usize].kind == Kind::Cannon);
                let regular =
                    members(b.attackers).any(|u| s.units[u as usize].kind == Kind::Regular);
                if core && (!cannon || regular) {
                    out.push(Action::Done);
                }
            }
            Phase::RetreatPick => {
                if self.retreat_dests(s, def, b.region) != 0 {
                    for u in members(self.fighters(s, def, b.region) & !b.retreating) {
                        out.push(Action::Pick(u));
                    }
                }
                out.push(Action::Done);
            }
            Phase::RetreatTo { side, .. } => {
                let d = self.retreat_dests(s, side, b.region);
                for t in 0..64u8 {
                    if d & (1u64 << t) != 0 {
                        out.push(Action::To(t));
                    }
                }
            }
            Phase::OpFire => {
                out.push(Action::OpFire);
                out.push(Action::NoOpFire);
            }
            Phase::Defenders => {
                for u in members(self.fighters(s, def, b.region) & !b.defenders) {
                    out.push(Action::Pick(u));
                }
                out.push(Action::Done);
            }
            Phase::FireMode => {
                out.push(Action::Simultaneous);
                out.push(Action::DefensiveFire);
            }
            Phase::AfterPick { side } => {
                if self.retreat_dests(s, side, b.region) != 0 {
                    for u in members(self.fighters(s, side, b.region) & !b.retreating) {
                        out.push(Action::Pick(u));
                    }
                }
                out.push(Action::Done);
            }
            Phase::Hits { .. } => {
                for u in members(self.hit_candidates(s)) {
                    out.push(Action::Hit(u));
                }
            }
            Phase::Advance { picked } => {
                let map = &self.data.map;
                for u in members(b.attackers & !picked) {
                    if s.units[u as usize].at == Loc::At(b.region) {
                        out.push(Action::Pick(u));
                    }
                }
                let cannon = members(picked).any(|u| s.units[u as usize].kind == Kind::Cannon);
                let regular = members(picked).any(|u| s.units[u as usize].kind == Kind::Regular);
                if cannon && regular {
                    for t in members(map.adj[b.region as usize]) {
                        if self.may_enter(s, BRITISH, t) {
                            out.push(Action::To(t));
                        }
                    }
                }
                out.push(Action::Done);
            }
            Phase::Escort { picked } => self.legal_escort(s, picked, out),
            Phase::Reroll { side, .. } => {
                for u in members(b.missed[side as usize & 1]) {
                    out.push(Action::Reroll(u));
                }
                out.push(Action::KeepRoll);
            }
            Phase::ChargeLeaders { region, taken } => {
                if taken < 2 && self.retreat_dests(s, PATRIOT, region) != 0 {
                    for (u, x) in at(s, region) {
                        if x.kind == Kind::Leader
                            && !x.under
                            && self.side_of(s, u) == PATRIOT
                            && b.retreating & bit(u) == 0
                        {
                            out.push(Action::Pick(u));
                        }
                    }
                }
                out.push(Action::Done);
            }
            _ => {}
        }
    }

    pub fn apply_combat(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let b = s.battle;
        let def = 1 - b.attacker;
        match (s.phase, a) {
            (Phase::Attackers, Action::Pick(u)) => s.battle.attackers |= bit(u),
            (Phase::Attackers, _) => {
                self.reveal_all(s, b.attackers, ev);
                if b.from != NONE {
                    // 6.2: the assaulting units move into the region first.
                    for u in members(b.attackers) {
                        s.units[u as usize].at = Loc::At(b.region);
                    }
                }
                s.phase = Phase::RetreatPick;
            }
            (Phase::RetreatPick, Action::Pick(u)) => s.battle.retreating |= bit(u),
            (Phase::RetreatPick, _) => {
                if b.retreating != 0 {
                    s.phase = Phase::RetreatTo { side: def, mode: 0 };
                } else {
                    s.phase = Phase::Defenders;
                }
            }
            (Phase::RetreatTo { side, mode }, Action::To(t)) => {
                s.battle.dest = t;
                match mode {
                    0 => {
                        let moved = members(b.retreating).any(|u| s.units[u as usize].moved);
                        if moved {
                            // 7.1.2: a hit to one retreating unit first.
                            s.phase = Phase::Hits {
                                side,
                                region: b.region,
                                n: 1,
                                first: 0,
                                among: b.retreating,
                                then: Then::RetreatMoved,
                            };
                        } else {
                            self.retreat_before(s, ev);
                        }
                    }
                    _ => {
                        for u in members(b.retreating) {
                            if s.units[u as usize].at == Loc::At(b.region) {
                                s.units[u as usize].at = Loc::At(t);
                            }
                        }
                        let then = if mode == 1 {
                            Then::NextAfterRetreat
                        } else {
                            Then::Done
                        };
                        self.extra_retreat_hit(s, side, then, ev);
                    }
                }
            }
            (Phase::OpFire, Action::OpFire) => self.opfire(s, ev),
            (Phase::OpFire, _) => self.finish_battle(s, ev),
            (Phase::Defenders, Action::Pick(u)) => s.battle.defenders |= bit(u),
            (Phase::Defenders, _) => {
                self.reveal_all(s, b.defenders, ev);
                // 4.1: the cannon breaks a militia unit before combat, attacking or defending.
                let cannon_in = members(if b.attacker == BRITISH {
                    b.attackers
                } else {
                    b.defenders
                })
                .any(|u| s.units[u as usize].kind == Kind::Cannon);
                if cannon_in && self.cannon_targets(s, b.region, false) != 0 {
                    s.phase = Phase::CannonBreak {
                        region: b.region,
                        in_move: false,
                    };
                } else {
                    s.phase = Phase::FireMode;
                }
            }
            (Phase::FireMode, Action::Simultaneous) => {
                let among = self.fighters(s, b.attacker, b.region);
                s.phase = Phase::Hits {
                    side: b.attacker,
                    region: b.region,
                    n: 1,
                    first: b.attackers,
                    among,
                    then: Then::RollSimultaneous,
                };
                self.skip_empty_hits(s, ev);
            }
            (Phase::FireMode, _) => {
                s.battle.pending[b.attacker as usize] = self.fire(s, def, b.defenders, ev);
                self.offer_reroll(s, def, Then::DefenderFireHits, ev);
            }
            (Phase::Escort { picked }, _) => self.apply_escort(s, picked, a, ev),
            (Phase::Reroll { side, then }, Action::Reroll(u)) => {
                // 14.1: one missed die of `u` is rolled again.
                let need = self.hits_on(s, s.units[u as usize].kind);
                let d = s.dice.d6();
                ev.push(Event::Die {
                    side,
                    unit: u,
                    die: d,
                    section: "14.1",
                });
                if d >= need {
                    let target = &mut s.battle.pending[1 - (side & 1) as usize];
                    *target = target.saturating_add(1);
                }
                s.battle.missed[side as usize & 1] = 0;
                self.continue_then(s, then, ev);
            }
            (Phase::Reroll { side, then }, _) => {
                s.battle.missed[side as usize & 1] = 0;
                self.continue_then(s, then, ev);
            }
            (Phase::AfterPick { .. }, Action::Pick(u)) => s.battle.retreating |= bit(u),
            (Phase::AfterPick { side }, _) => {
                if b.retreating != 0 {
                    s.phase = Phase::RetreatTo { side, mode: 1 };
                } else {
                    self.next_after_retreat(s, side, ev);
                }
            }
            (
                Phase::Hits {
                    side,
                    region,
                    n,
                    first,
                    among,
                    then,
                },
                Action::Hit(u),
            ) => {
                self.hit(s, u, ev);
                if matches!(
                    then,
                    Then::RollSimultaneous
                        | Then::AttackerFires
                        | Then::DefenderTakes
                        | Then::AfterCombat
                ) {
                    s.battle.lost[side as usize] = true;
                }
                s.phase = Phase::Hits {
                    side,
                    region,
                    n: n.saturating_sub(1),
                    first,
                    among,
                    then,
                };
                self.skip_empty_hits(s, ev);
            }
            (Phase::Advance { picked }, Action::Pick(u)) => {
                s.phase = Phase::Advance {
                    picked: picked | bit(u),
                };
            }
            (Phase::Advance { picked }, act) => {
                if let Action::To(t) = act {
                    for u in members(picked) {
                        s.units[u as usize].at = Loc::At(t);
                        s.units[u as usize].moved = true;
                    }
                }
                s.battle.after_side = ADVANCED;
                self.finish_battle(s, ev);
            }
            (Phase::ChargeLeaders { region, taken }, Action::Pick(u)) => {
                s.battle.retreating |= bit(u);
                s.phase = Phase::ChargeLeaders {
                    region,
                    taken: taken + 1,
                };
            }
            (Phase::ChargeLeaders { region, .. }, _) => {
                if s.battle.retreating != 0 && self.retreat_dests(s, PATRIOT, region) != 0 {
                    s.phase = Phase::RetreatTo {
                        side: PATRIOT,
                        mode: 2,
                    };
                } else {
                    self.finish_battle(s, ev);
                }
            }
            _ => {}
        }
    }

    /// Rolls a side's participants and marks those that lent strength as Fired (7.0).
    fn fire(&self, s: &mut State, side: u8, set: Units, ev: &mut Ev) -> u8 {
        let region = s.battle.region;
        let alive = members(set)
            .filter(|u| s.units[*u as usize].at == Loc::At(region))
            .fold(0, |m, u| m | bit(u));
        let contributors = self.contributors(s, alive);
        if contributors != 0 {
            s.battle.fired = true;
            let by_patriot = s.battle.attacker == PATRIOT;
            self.shot(s, by_patriot, ev);
        }
        for u in members(contributors) {
            s.units[u as usize].fired = true;
        }
        self.roll(s, side, alive, region, ev)
    }

    /// After the checks of a decision: a hit allocation with nothing left to hit moves on.
    pub fn settle(&self, s: &mut State, ev: &mut Ev) {
        for _ in 0..8 {
            match s.phase {
                Phase::Hits { .. } if self.hit_candidates(s) == 0 => {
                    self.skip_empty_hits(s, ev);
                    self.refresh(s, ev);
                }
                Phase::Move {
                    from,
                    group,
                    at: here,
                    steps,
                    road,
                    cannon_used,
                    hits,
                    fire_hits,
                } if hits > 0
                    && !members(group).any(|u| s.units[u as usize].at == Loc::At(here)) =>
                {
                    s.phase = Phase::Move {
                        from,
                        group: 0,
                        at: here,
                        steps,
                        road,
                        cannon_used,
                        hits: 0,
                        fire_hits,
                    };
                    self.after_step(s, ev);
                    self.refresh(s, ev);
                }
                _ => return,
            }
        }
    }

    /// Moves on when the hit allocation is finished or nothing is left to take hits.
    fn skip_empty_hits(&self, s: &mut State, ev: &mut Ev) {
        let Phase::Hits { n, then, .. } = s.phase else {
            return;
        };
        if n > 0 && self.hit_candidates(s) != 0 {
            return;
        }
        self.continue_then(s, then, ev);
    }

    fn continue_then(&self, s: &mut State, then: Then, ev: &mut Ev) {
        let b = s.battle;
        let def = 1 - b.attacker;
        match then {
            Then::Done => self.finish_battle(s, ev),
            Then::RetreatMoved => self.retreat_before(s, ev),
            Then::AfterRetreat => {
                if self.fighters(s, def, b.region) == 0 {
                    // 3.0: British units that retreated into Boston are out of reach of every
                    // Patriot Action, the Attack's OpFire included (C36).
                    if def == BRITISH && b.dest == self.data.map.boston {
                        self.finish_battle(s, ev);
                        return;
                    }
                    s.phase = Phase::OpFire;
                } else {
                    s.battle.retreating = 0;
                    s.phase = Phase::Defenders;
                }
            }
            Then::RollSimultaneous => {
                let on_def = self.fire(s, b.attacker, b.attackers, ev);
                let on_atk = self.fire(s, def, b.defenders, ev);
                s.battle.pending[def as usize] = on_def;
                s.battle.pending[b.attacker as usize] = on_atk;
                // 14.1: each side may re-roll a miss, the attacker deciding first.
                self.offer_reroll(s, b.attacker, Then::SimDefenderReroll, ev);
            }
            Then::SimDefenderReroll => self.offer_reroll(s, def, Then::SimHits, ev),
            Then::SimHits => {
                s.phase = Phase::Hits {
                    side: b.attacker,
                    region: b.region,
                    n: b.pending[b.attacker as usize],
                    first: b.attackers,
                    among: 0,
                    then: Then::DefenderTakes,
                };
                self.skip_empty_hits(s, ev);
            }
            Then::DefenderFireHits => {
                s.phase = Phase::Hits {
                    side: b.attacker,
                    region: b.region,
                    n: b.pending[b.attacker as usize],
                    first: b.attackers,
                    among: 0,
                    then: Then::AttackerFires,
                };
                self.skip_empty_hits(s, ev);
            }
            Then::DefenderTakes => {
                let n = s.battle.pending[def as usize];
                s.phase = Phase::Hits {
                    side: def,
                    region: b.region,
                    n,
                    first: b.defenders,
                    among: 0,
                    then: Then::AfterCombat,
                };
                self.skip_empty_hits(s, ev);
            }
            Then::AttackerFires => {
                s.battle.pending[def as usize] = self.fire(s, b.attacker, b.attackers, ev);
                self.offer_reroll(s, b.attacker, Then::AttackerFireHits, ev);
            }
            Then::AttackerFireHits => {
                s.phase = Phase::Hits {
                    side: def,
                    region: b.region,
                    n: b.pending[def as usize],
                    first: b.defenders,
                    among: 0,
                    then: Then::AfterCombat,
                };
                self.skip_empty_hits(s, ev);
            }
            Then::AfterCombat => {
                s.battle.retreating = 0;
                self.after_pick(s, b.attacker, ev);
            }
            Then::NextAfterRetreat => {
                let side = match s.phase {
                    Phase::Hits { side, .. } => side,
                    _ => b.attacker,
                };
                self.next_after_retreat(s, side, ev);
            }
            Then::ChargePatriot => {
                let cannon = members(b.attackers).any(|u| s.units[u as usize].kind == Kind::Cannon);
                let among = self.fighters(s, PATRIOT, b.region);
                s.phase = Phase::Hits {
                    side: PATRIOT,
                    region: b.region,
                    n: 2 + cannon as u8,
                    first: 0,
                    among,
                    then: Then::ChargeRetreat,
                };
                self.skip_empty_hits(s, ev);
            }
            Then::ChargeRetreat => {
                // 6.3: every broken Patriot unit must go; up to two leaders may go with them.
                let broken = at(s, b.region)
                    .filter(|(i, u)| {
                        self.side_of(s, *i) == PATRIOT && u.kind.military() && u.flipped && !u.under
                    })
                    .fold(0, |m, (i, _)| m | bit(i));
                s.battle.retreating = broken;
                s.phase = Phase::ChargeLeaders {
                    region: b.region,
                    taken: 0,
                };
                if self.leaders(s, PATRIOT, b.region) == 0 {
                    if broken != 0 && self.retreat_dests(s, PATRIOT, b.region) != 0 {
                        s.phase = Phase::RetreatTo {
                            side: PATRIOT,
                            mode: 2,
                        };
                    } else {
                        self.finish_battle(s, ev);
                    }
                }
            }
            Then::MoveOn => {}
        }
    }

    /// 14.1: after `side`'s combat roll, the re-roll decision if the side may make one;
    /// otherwise the combat goes on with `then`.
    fn offer_reroll(&self, s: &mut State, side: u8, then: Then, ev: &mut Ev) {
        if self.reroll_open(s, side) {
            s.phase = Phase::Reroll { side, then };
        } else {
            s.battle.missed[side as usize & 1] = 0;
            self.continue_then(s, then, ev);
        }
    }

    /// 7.1.4: a side that lost a step may retreat what it has left in the region.
    fn after_pick(&self, s: &mut State, side: u8, ev: &mut Ev) {
        let b = s.battle;
        if b.lost[side as usize]
            && self.fighters(s, side, b.region) != 0
            && self.retreat_dests(s, side, b.region) != 0
        {
            s.battle.retreating = 0;
            s.phase = Phase::AfterPick { side };
        } else {
            self.next_after_retreat(s, side, ev);
        }
    }

    fn next_after_retreat(&self, s: &mut State, side: u8, ev: &mut Ev) {
        if side == s.battle.attacker {
            let def = 1 - side;
            self.after_pick(s, def, ev);
        } else {
            self.finish_battle(s, ev);
        }
    }

    /// 7.1: retreating into unbroken enemy units costs one more hit.
    fn extra_retreat_hit(&self, s: &mut State, side: u8, then: Then, ev: &mut Ev) {
        let dest = s.battle.dest;
        let enemy = self.unbroken_military(s, 1 - side, dest) > 0;
        if enemy {
            let among = s.battle.retreating;
            s.phase = Phase::Hits {
                side,
                region: dest,
                n: 1,
                first: 0,
                among,
                then,
            };
            self.skip_empty_hits(s, ev);
        } else {
            s.phase = Phase::Hits {
                side,
                region: dest,
                n: 0,
                first: 0,
                among: 0,
                then,
            };
            self.continue_then(s, then, ev);
        }
    }

    /// 7.1.2: the moved units of the retreat that want an escort (Patriot militia; British
    /// unbroken Regulars), and how many escorts go with them (Patriot healthy leaders and
    /// unbroken Minutemen; British healthy leaders), each escort taking one unit.
    pub fn escort_needs(&self, s: &State) -> (Units, u8) {
        let b = s.battle;
        let side = 1 - b.attacker;
        let mut wanting = 0;
        let mut escorts = 0u8;
        for u in members(b.retreating) {
            let x = s.units[u as usize];
            if x.at != Loc::At(b.region) || !x.moved {
                continue;
            }
            let escort = !x.flipped
                && (x.kind == Kind::Leader || (side == PATRIOT && x.kind == Kind::Minuteman));
            let wants = if side == PATRIOT {
                x.kind.militia()
            } else {
                x.kind == Kind::Regular && !x.flipped
            };
            if escort {
                escorts += 1;
            } else if wants {
                wanting |= bit(u);
            }
        }
        (wanting, escorts)
    }

    /// 7.1.1-7.1.2: the defender's retreat before combat, its hit for moved units taken. When
    /// fewer escorts than units wanting one go, the defender chooses who is accompanied
    /// (`Phase::Escort`); otherwise every such unit is (he chose them all to retreat).
    fn retreat_before(&self, s: &mut State, ev: &mut Ev) {
        let (wanting, escorts) = self.escort_needs(s);
        if escorts > 0 && wanting.count_ones() > escorts as u32 {
            s.phase = Phase::Escort { picked: 0 };
            return;
        }
        let escorted = if escorts > 0 { wanting } else { 0 };
        self.retreat_moved(s, escorted, ev);
    }

    fn legal_escort(&self, s: &State, picked: Units, out: &mut Actions) {
        let (wanting, escorts) = self.escort_needs(s);
        if picked.count_ones() < escorts as u32 {
            for u in members(wanting & !picked) {
                out.push(Action::Pick(u));
            }
        }
        out.push(Action::Done);
    }

    fn apply_escort(&self, s: &mut State, picked: Units, a: Action, ev: &mut Ev) {
        let (wanting, escorts) = self.escort_needs(s);
        let picked = match a {
            Action::Pick(u) => picked | bit(u),
            _ => picked,
        };
        let full = picked.count_ones() >= escorts as u32 || wanting & !picked == 0;
        if a == Action::Done || full {
            self.retreat_moved(s, picked, ev);
        } else {
            s.phase = Phase::Escort { picked };
        }
    }

    /// 7.1.1-7.1.2 (and 11.0): the retreat itself. Units that have not moved simply go.
    /// Moved units go in the printed order: Patriot leaders and Minutemen go; `escorted`
    /// militia go with them; other unbroken militia go and break; other broken militia stay.
    /// British units all go; unbroken Regulars not `escorted` roll and break on a 6.
    fn retreat_moved(&self, s: &mut State, escorted: Units, ev: &mut Ev) {
        let b = s.battle;
        let side = 1 - b.attacker;
        let dest = b.dest;
        let here = |s: &State, u: u8| s.units[u as usize].at == Loc::At(b.region);
        let set = members(b.retreating)
            .filter(|u| here(s, *u))
            .fold(0, |m, u| m | bit(u));
        let moved: Units = members(set)
            .filter(|u| s.units[*u as usize].moved)
            .fold(0, |m, u| m | bit(u));
        let (wanting, _) = self.escort_needs(s);
        for u in members(wanting) {
            ev.push(Event::Escorted {
                unit: u,
                escorted: escorted & bit(u) != 0,
            });
        }
        let mut go: Units = set & !moved;
        let mut break_after: Units = 0;
        if side == PATRIOT {
            for u in members(moved) {
                let x = s.units[u as usize];
                if !x.kind.militia() || escorted & bit(u) != 0 {
                    go |= bit(u);
                } else if !x.flipped {
                    // Unaccompanied unbroken militia retreat and break.
                    go |= bit(u);
                    break_after |= bit(u);
                }
                // Unaccompanied broken militia may not retreat.
            }
        } else {
            go |= moved;
            for u in members(moved & !escorted) {
                let x = s.units[u as usize];
                if x.kind == Kind::Regular && !x.flipped {
                    let d = s.dice.d6();
                    ev.push(Event::Die {
                        side,
                        unit: u,
                        die: d,
                        section: "7.1.2",
                    });
                    if d == 6 {
                        self.break_unit(s, u, ev);
                    }
                }
            }
        }
        for u in members(go) {
            if here(s, u) {
                s.units[u as usize].at = Loc::At(dest);
                s.units[u as usize].moved = true;
            }
        }
        for u in members(break_after) {
            self.break_unit(s, u, ev);
        }
        // 11.0: Smith and Pitcairn's healthy leaders and unbroken counters roll; 6 is a hit.
        if side == BRITISH && s.concord {
            for u in members(go) {
                let x = s.units[u as usize];
                if x.at == Loc::At(dest)
                    && !x.flipped
                    && !self.is_percy(s, u)
                    && x.kind != Kind::Cannon
                {
                    let d = s.dice.d6();
                    ev.push(Event::Die {
                        side,
                        unit: u,
                        die: d,
                        section: "11.0",
                    });
                    if d == 6 {
                        self.hit(s, u, ev);
                    }
                }
            }
        }
        s.battle.retreating = go;
        self.extra_retreat_hit(s, side, Then::AfterRetreat, ev);
    }

    /// 7.1.3: fire on a force that retreated entirely.
    fn opfire(&self, s: &mut State, ev: &mut Ev) {
        let b = s.battle;
        let def = 1 - b.attacker;
        let retreated = members(b.retreating)
            .filter(|u| {
                let x = s.units[*u as usize];
                x.at == Loc::At(b.dest)
                    && (x.kind.military() || (x.kind == Kind::Leader && !x.flipped))
            })
            .count() as u8;
        let dice = if b.attacker == BRITISH {
            retreated.div_ceil(2)
        } else {
            retreated
        };
        let mut hits = 0;
        let mut faces = muster_core::words::Faces::default();
        for _ in 0..dice {
            let d = s.dice.d6();
            faces.push(d);
            if d == 6 {
                hits += 1;
            }
        }
        ev.push(Event::Roll {
            side: b.attacker,
            dice,
            hits,
            section: "7.1.3",
            faces,
            need: 6,
        });
        for u in members(b.attackers) {
            if matches!(s.units[u as usize].at, Loc::At(_)) {
                s.units[u as usize].fired = true;
            }
        }
        self.shot(s, b.attacker == PATRIOT, ev);
        s.phase = Phase::Hits {
            side: def,
            region: b.dest,
            n: hits,
            first: 0,
            among: b.retreating,
            then: Then::Done,
        };
        self.skip_empty_hits(s, ev);
    }

    fn finish_battle(&self, s: &mut State, ev: &mut Ev) {
        let b = s.battle;
        // 4.1: the Patriot retreated before combat from a British attack with the cannon.
        let cannon_here = members(b.attackers).any(|u| {
            let x = s.units[u as usize];
            x.kind == Kind::Cannon && x.at == Loc::At(b.region)
        });
        if b.attacker == BRITISH
            && b.after_side != ADVANCED
            && b.retreating != 0
            && !b.fired
            && cannon_here
            && matches!(
                s.phase,
                Phase::OpFire
                    | Phase::Hits {
                        then: Then::Done,
                        ..
                    }
            )
        {
            s.phase = Phase::Advance { picked: 0 };
            return;
        }
        if b.from != NONE
            && !matches!(
                s.phase,
                Phase::Hits {
                    then: Then::ChargeRetreat,
                    ..
                }
            )
        {
            for u in members(b.attackers) {
                if matches!(s.units[u as usize].at, Loc::At(_)) {
                    s.units[u as usize].moved = true;
                }
            }
        }
        s.battle = Battle {
            from: NONE,
            ..Battle::default()
        };
        self.end_action(s, ev);
    }
}
