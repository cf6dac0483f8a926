//! The Nightriders: 6.12 Call to Arms (four Activity Points each, streams cost two, evading
//! the British or risking capture, alerting Gather markers with a capture roll each, leaving
//! the map and removing Alert markers from the next turn), 9.0 the free opening Call to Arms,
//! 4.3 Gather markers flipped by riders, 4.6 Alert markers.

use super::Concord;
use super::action::{Action, Event};
use super::pieces::{Ev, bit};
use super::sequence::Actions;
use super::state::*;
use arrayvec::ArrayVec;

impl Concord {
    /// The Nightriders in roster order.
    pub fn riders(&self, s: &State) -> ArrayVec<u8, 3> {
        let mut out = ArrayVec::new();
        for (i, u) in s.units.iter().enumerate() {
            if u.kind == Kind::Rider && !out.is_full() {
                out.push(i as u8);
            }
        }
        out
    }

    /// Can this rider do anything in a Call to Arms now?
    fn rider_ready(&self, s: &State, u: u8) -> bool {
        let x = s.units[u as usize];
        if x.flipped || x.under || x.moved {
            return false;
        }
        match x.at {
            Loc::At(_) => true,
            Loc::Edge(e) => self.removable_alerts(s, u, e) != 0,
            _ => false,
        }
    }

    /// Riders that a Call to Arms would activate (by ordinal).
    pub fn riders_ready(&self, s: &State) -> u8 {
        self.riders(s)
            .iter()
            .enumerate()
            .filter(|(_, u)| self.rider_ready(s, **u))
            .fold(0, |m, (k, _)| m | 1 << k)
    }

    /// Alert boxes on edge `e` whose marker this rider may remove (4.6, 6.12).
    fn removable_alerts(&self, s: &State, u: u8, e: u8) -> u64 {
        let x = s.units[u as usize];
        if x.since >= s.turn || s.alerted_by & bit(u) != 0 {
            return 0;
        }
        let mut m = 0;
        for (i, r) in self.data.map.regions.iter().enumerate() {
            if r.alert_box && r.edge == Some(e) && s.alert[i] {
                m |= 1u64 << i;
            }
        }
        m
    }

    fn ride_cost(&self, r: u8, t: u8) -> u8 {
        if self.data.map.is_stream(r, t) { 2 } else { 1 }
    }

    pub fn legal_riders(&self, s: &State, out: &mut Actions) {
        let Phase::Riders {
            opening,
            rider,
            ap,
            done,
        } = s.phase
        else {
            return;
        };
        let map = &self.data.map;
        if rider == 255 {
            for (k, u) in self.riders(s).iter().enumerate() {
                if done & (1 << k) == 0 && self.rider_ready(s, *u) {
                    out.push(Action::Rider(*u));
                }
            }
            out.push(Action::Done);
            return;
        }
        let x = s.units[rider as usize];
        match x.at {
            Loc::At(r) => {
                let guarded = self.unbroken_regulars(s, r) > 0;
                for t in 0..map.regions.len() as u8 {
                    if !map.adjacent(r, t) || !self.may_enter(s, PATRIOT, t) {
                        continue;
                    }
                    let cost = self.ride_cost(r, t);
                    // 9.0: Dawes pays two points to slip out of Boston.
                    let forced = opening && r == map.boston;
                    if guarded || forced {
                        if cost < ap {
                            out.push(Action::Ride(t, true));
                        }
                        if !forced && cost <= ap {
                            out.push(Action::Ride(t, false));
                        }
                    } else if cost <= ap {
                        out.push(Action::Ride(t, false));
                    }
                }
                if ap >= 1
                    && s.gather[r as usize] == GATHER
                    && !guarded
                    && !self.hindered(s, HINDER_MUSTER, r)
                {
                    out.push(Action::Alert);
                }
                // 6.12: leaving by the map edge is leaving the region, so from a region with an
                // unbroken Regular it costs the extra point or takes the capture roll (C35).
                if map.regions[r as usize].edge.is_some() {
                    if guarded && ap >= 2 {
                        out.push(Action::ExitEvade);
                    }
                    if ap >= 1 {
                        out.push(Action::Exit);
                    }
                }
            }
            Loc::Edge(e) => {
                let m = self.removable_alerts(s, rider, e);
                for b in 0..map.regions.len() as u8 {
                    if m & (1u64 << b) != 0 {
                        out.push(Action::RemoveAlert(b));
                    }
                }
            }
            _ => {}
        }
        out.push(Action::Done);
    }

    /// The British capture roll (6.12): a 6 captures the rider where it is.
    fn capture_roll(&self, s: &mut State, u: u8, ev: &mut Ev) -> bool {
        let d = s.dice.d6();
        ev.push(Event::Die {
            side: BRITISH,
            unit: u,
            die: d,
            section: "6.12",
        });
        if d == 6 {
            let x = &mut s.units[u as usize];
            x.flipped = true;
            x.since = s.turn;
            ev.push(Event::Captured { unit: u });
            self.riders_captured_check(s, ev);
            true
        } else {
            false
        }
    }

    pub fn apply_riders(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let Phase::Riders {
            opening,
            rider,
            ap,
            done,
        } = s.phase
        else {
            return;
        };
        let ordinal = self.riders(s).iter().position(|u| *u == rider).unwrap_or(0) as u8;
        let finish_rider = |s: &mut State| {
            s.phase = Phase::Riders {
                opening,
                rider: 255,
                ap: 0,
                done: done | 1 << ordinal,
            };
        };
        match a {
            Action::Rider(u) => {
                s.phase = Phase::Riders {
                    opening,
                    rider: u,
                    ap: 4,
                    done,
                };
            }
            Action::Ride(t, evade) => {
                let Loc::At(r) = s.units[rider as usize].at else {
                    return;
                };
                let guarded = self.unbroken_regulars(s, r) > 0;
                let cost = self.ride_cost(r, t) + evade as u8;
                if guarded && !evade && !opening && self.capture_roll(s, rider, ev) {
                    finish_rider(s);
                    return;
                }
                let x = &mut s.units[rider as usize];
                x.at = Loc::At(t);
                x.moved = true;
                let left = ap.saturating_sub(cost);
                s.phase = Phase::Riders {
                    opening,
                    rider,
                    ap: left,
                    done,
                };
            }
            Action::Alert => {
                let Loc::At(r) = s.units[rider as usize].at else {
                    return;
                };
                self.flip_gather(s, r, ev);
                s.phase = Phase::Riders {
                    opening,
                    rider,
                    ap: ap - 1,
                    done,
                };
                if !opening && self.capture_roll(s, rider, ev) {
                    finish_rider(s);
                }
            }
            Action::Exit | Action::ExitEvade => {
                let Loc::At(r) = s.units[rider as usize].at else {
                    return;
                };
                let guarded = self.unbroken_regulars(s, r) > 0;
                if guarded && a == Action::Exit && !opening && self.capture_roll(s, rider, ev) {
                    finish_rider(s);
                    return;
                }
                let e = self.data.map.regions[r as usize].edge.unwrap_or(0);
                let x = &mut s.units[rider as usize];
                x.at = Loc::Edge(e);
                x.moved = true;
                x.since = s.turn;
                finish_rider(s);
            }
            Action::RemoveAlert(b) => {
                s.alert[b as usize] = false;
                ev.push(Event::AlertRemoved { region: b });
                for u in s.units.iter_mut() {
                    if u.at == Loc::At(b) {
                        u.under = false;
                    }
                }
                s.alerted_by |= bit(rider);
                finish_rider(s);
            }
            _ => {
                if rider != 255 {
                    finish_rider(s);
                } else {
                    if opening {
                        for u in self.riders(s) {
                            if matches!(s.units[u as usize].at, Loc::At(_) | Loc::Edge(_))
                                && !s.units[u as usize].under
                            {
                                s.units[u as usize].moved = true;
                            }
                        }
                        s.called = true;
                    }
                    self.end_action(s, ev);
                }
            }
        }
    }
}
