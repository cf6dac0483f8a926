//! The smaller actions of chapter 6: 6.6 Ambush, 6.7 Snipe, 6.8 Rally, 6.10 Escape Capture,
//! 6.11 Hinder markers (placement rules; removal and the turn track are in 5.3).

use super::Concord;
use super::action::{Action, Event};
use super::pieces::{Ev, at, bit, members};
use super::sequence::Actions;
use super::state::*;

impl Concord {
    /// 6.6: unbroken Regulars with Moved markers in `r` (the cannon never counts).
    pub fn ambush_targets(&self, s: &State, r: u8) -> Units {
        at(s, r)
            .filter(|(_, u)| u.kind == Kind::Regular && !u.flipped && u.moved)
            .fold(0, |m, (i, _)| m | bit(i))
    }

    /// 6.7: four or more unbroken Regulars or healthy leaders that marched two regions.
    pub fn snipe_ok(&self, s: &State, r: u8) -> bool {
        s.sniped & (1u64 << r) == 0
            && at(s, r)
                .filter(|(i, u)| {
                    self.side_of(s, *i) == BRITISH
                        && matches!(u.kind, Kind::Regular | Kind::Leader)
                        && !u.flipped
                        && u.moved
                        && u.marched
                })
                .count()
                >= 4
    }

    pub fn snipe(&self, s: &mut State, r: u8, ev: &mut Ev) {
        let targets = at(s, r)
            .filter(|(i, u)| {
                self.side_of(s, *i) == BRITISH
                    && matches!(u.kind, Kind::Regular | Kind::Leader)
                    && !u.flipped
            })
            .fold(0, |m, (i, _)| m | bit(i));
        let dice = targets.count_ones() as u8;
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
            side: PATRIOT,
            dice,
            hits,
            section: "6.7",
            faces,
            need: 6,
        });
        s.sniped |= 1u64 << r;
        s.battle = Battle {
            from: 255,
            attacker: PATRIOT,
            region: r,
            ..Battle::default()
        };
        s.phase = Phase::Hits {
            side: BRITISH,
            region: r,
            n: hits,
            first: 0,
            among: targets,
            then: Then::Done,
        };
        if hits == 0 {
            self.end_action(s, ev);
        }
    }

    /// 6.8 (and 11.0, 15.2): broken units the leaders in `r` of `side` may still rally.
    pub fn rally_capacity(&self, s: &State, side: u8, r: u8) -> u8 {
        at(s, r)
            .filter(|(i, u)| {
                u.kind == Kind::Leader && !u.under && !u.rallied && self.side_of(s, *i) == side
            })
            .map(|(i, _)| self.leader_rallies(s, i))
            .sum()
    }

    fn leader_rallies(&self, s: &State, u: u8) -> u8 {
        if self.side_of(s, u) == PATRIOT {
            return 1;
        }
        let smith_or_pitcairn =
            self.leader_named(s, u, "smith") || self.leader_named(s, u, "pitcairn");
        if s.mode.solitaire() {
            // 15.2: Smith and Pitcairn one each; Percy two while healthy, one when wounded.
            if smith_or_pitcairn || s.units[u as usize].flipped {
                1
            } else {
                2
            }
        } else if smith_or_pitcairn && s.concord {
            1
        } else {
            2
        }
    }

    pub fn hinder_target_ok(&self, s: &State, m: u8, r: u8) -> bool {
        self.hinder_target_in(s, m, r, s.british_in)
    }

    /// As [`Concord::hinder_target_ok`], with the regions holding British units given.
    pub fn hinder_target_in(&self, s: &State, m: u8, r: u8, british: Regions) -> bool {
        let map = &self.data.map;
        if map.regions[r as usize].alert_box {
            return false;
        }
        match m {
            HINDER_MOVEMENT => {
                if s.mode.solitaire() {
                    // 15.2: between a British force and Lexington: on a shortest way from a
                    // region holding British units to Lexington, past that region.
                    let lex = map.lexington as usize;
                    members(british).any(|b| {
                        b != r
                            && map.apsp[b as usize][r as usize] as u16
                                + map.apsp[r as usize][lex] as u16
                                == map.apsp[b as usize][lex] as u16
                    })
                } else {
                    true
                }
            }
            HINDER_MUSTER => s.gather[r as usize] != NO_MARKER,
            _ => s.arms[r as usize] == ARMS_HIDDEN,
        }
    }

    /// 6.10: the escape roll, +1 per active unbroken militia or Minuteman, -1 per unbroken
    /// Regular; 6 or more escapes.
    pub fn escape(&self, s: &mut State, u: u8, ev: &mut Ev) {
        let Loc::At(r) = s.units[u as usize].at else {
            self.end_action(s, ev);
            return;
        };
        let plus = at(s, r)
            .filter(|(_, x)| {
                !x.under && !x.flipped && (x.kind.militia() || x.kind == Kind::Minuteman)
            })
            .count() as i16;
        let minus = self.unbroken_regulars(s, r) as i16;
        let d = s.dice.d6();
        ev.push(Event::Die {
            side: PATRIOT,
            unit: u,
            die: d,
            section: "6.10",
        });
        if d as i16 + plus - minus >= 6 {
            s.units[u as usize].flipped = false;
            s.units[u as usize].moved = true;
            ev.push(Event::Escaped { unit: u });
            s.battle = Battle {
                from: 255,
                after_side: 2,
                ..Battle::default()
            };
            if self.away_dests(s, u) != 0 {
                s.phase = Phase::SonAway {
                    unit: u,
                    optional: false,
                };
                return;
            }
        }
        self.end_action(s, ev);
    }

    pub fn away_dests(&self, s: &State, u: u8) -> Regions {
        let map = &self.data.map;
        let Loc::At(r) = s.units[u as usize].at else {
            return 0;
        };
        (0..map.regions.len() as u8)
            .filter(|t| map.adjacent(r, *t) && self.may_enter(s, PATRIOT, *t))
            .fold(0, |m, t| m | 1u64 << t)
    }

    pub fn legal_minor(&self, s: &State, out: &mut Actions) {
        match s.phase {
            Phase::Ambush { region, picked } => {
                for u in members(self.ambush_targets(s, region) & !picked) {
                    out.push(Action::Pick(u));
                }
            }
            Phase::Rally { region, left } => {
                if left > 0 {
                    for (u, x) in at(s, region) {
                        if x.flipped
                            && !x.under
                            && x.kind.military()
                            && self.side_of(s, u) == s.mover
                        {
                            out.push(Action::Pick(u));
                        }
                    }
                }
                out.push(Action::Done);
            }
            Phase::RallyLeaders { region, .. } => {
                for l in members(self.rally_leaders(s, region)) {
                    out.push(Action::Pick(l));
                }
            }
            Phase::SonAway { unit, optional } => {
                let d = self.away_dests(s, unit);
                for t in 0..64u8 {
                    if d & (1u64 << t) != 0 {
                        out.push(Action::To(t));
                    }
                }
                if optional || d == 0 {
                    out.push(Action::Stay);
                }
            }
            _ => {}
        }
    }

    pub fn apply_minor(&self, s: &mut State, a: Action, ev: &mut Ev) {
        match (s.phase, a) {
            (Phase::Ambush { region, picked }, Action::Pick(u)) => {
                let picked = picked | bit(u);
                if picked.count_ones() < 2 {
                    s.phase = Phase::Ambush { region, picked };
                    return;
                }
                for t in members(picked) {
                    let d = s.dice.d6();
                    ev.push(Event::Die {
                        side: PATRIOT,
                        unit: t,
                        die: d,
                        section: "6.6",
                    });
                    if d >= 5 {
                        self.break_unit(s, t, ev);
                    }
                }
                s.ambushed |= 1u64 << region;
                self.end_action(s, ev);
            }
            (Phase::Rally { region, left }, Action::Pick(u)) => {
                s.units[u as usize].flipped = false;
                // Told in one line for all the units when the rally ends (finish_rally).
                s.rallying |= bit(u);
                s.phase = Phase::Rally {
                    region,
                    left: left - 1,
                };
                let more = at(s, region).any(|(i, x)| {
                    x.flipped && !x.under && x.kind.military() && self.side_of(s, i) == s.mover
                });
                if left == 1 || !more {
                    self.finish_rally(s, ev);
                }
            }
            (Phase::Rally { .. }, _) => self.finish_rally(s, ev),
            (Phase::RallyLeaders { region, need }, Action::Pick(l)) => {
                s.units[l as usize].rallied = true;
                ev.push(Event::RallyMarker { unit: l });
                let need = need.saturating_sub(self.leader_rallies(s, l));
                self.mark_rallies(s, region, need, ev);
            }
            (Phase::SonAway { unit, .. }, act) => {
                if let Action::To(t) = act {
                    let x = &mut s.units[unit as usize];
                    x.at = Loc::At(t);
                    x.under = false;
                }
                if s.battle.after_side == 1 {
                    self.next_son(s, ev);
                } else {
                    self.end_action(s, ev);
                }
            }
            _ => {}
        }
    }

    /// 6.8: Rally markers go on the leaders whose rallies were used.
    fn finish_rally(&self, s: &mut State, ev: &mut Ev) {
        let Phase::Rally { region, left } = s.phase else {
            return;
        };
        if s.rallying != 0 {
            ev.push(Event::Rallied {
                side: s.mover,
                group: s.rallying,
            });
            s.rallying = 0;
        }
        let cap = self.rally_capacity(s, s.mover, region);
        self.mark_rallies(s, region, cap.saturating_sub(left), ev);
    }

    /// Leaders of the side to act in `region` that have not rallied this turn.
    pub fn rally_leaders(&self, s: &State, region: u8) -> Units {
        at(s, region)
            .filter(|(i, u)| {
                u.kind == Kind::Leader && !u.under && !u.rallied && self.side_of(s, *i) == s.mover
            })
            .fold(0, |m, (i, _)| m | bit(i))
    }

    /// 6.8: the leaders performing `need` flips get Rally markers. Which leaders they are is
    /// the player's choice (`Phase::RallyLeaders`), unless every leader there is needed.
    fn mark_rallies(&self, s: &mut State, region: u8, need: u8, ev: &mut Ev) {
        let leaders = self.rally_leaders(s, region);
        if need == 0 || leaders == 0 {
            self.end_action(s, ev);
            return;
        }
        let total: u8 = members(leaders).map(|l| self.leader_rallies(s, l)).sum();
        let all_needed = members(leaders).all(|l| total - self.leader_rallies(s, l) < need);
        if all_needed {
            for l in members(leaders) {
                s.units[l as usize].rallied = true;
                ev.push(Event::RallyMarker { unit: l });
            }
            self.end_action(s, ev);
        } else {
            s.phase = Phase::RallyLeaders { region, need };
        }
    }
}
