//! Chapter 8, Search and Capture (6.9): a card per hidden arms marker and per Son of
//! Liberty, hash marks reduced by the kinds of active unbroken Patriot units, the paid extra
//! capture draw, and the Patriot's move of a Son of Liberty that was not found. 10.0: a
//! search among active Patriot units fires the Shot.

use super::Concord;
use super::action::{Action, Event};
use super::pieces::{Ev, at, bit, members};
use super::state::*;

impl Concord {
    /// May the British search or attempt a capture in `r` (8.1, 8.2)?
    pub fn search_ok(&self, s: &State, r: u8) -> bool {
        (self.arms_searchable(s, r) || self.sons_here(s, r) != 0)
            && self.unbroken_regulars(s, r) > 0
    }

    fn arms_searchable(&self, s: &State, r: u8) -> bool {
        s.arms[r as usize] == ARMS_HIDDEN
            && self.data.map.regions[r as usize].town
            && !self.hindered(s, HINDER_SEARCH, r)
    }

    /// Sons of Liberty in `r` not yet captured, under a marker or not (8.2, FAQ).
    fn sons_here(&self, s: &State, r: u8) -> Units {
        at(s, r)
            .filter(|(_, u)| u.kind == Kind::Son && !u.flipped)
            .fold(0, |m, (i, _)| m | bit(i))
    }

    /// 8.1: the reduction for active unbroken militia and/or Minutemen.
    fn reduction(&self, s: &State, r: u8) -> u8 {
        let militia = at(s, r).any(|(_, u)| !u.under && !u.flipped && u.kind.militia());
        let minutemen = at(s, r).any(|(_, u)| !u.under && !u.flipped && u.kind == Kind::Minuteman);
        militia as u8 + minutemen as u8
    }

    fn search_card(&self, s: &mut State, son: u8, ev: &mut Ev) -> u8 {
        if s.deck.draw.is_empty() {
            ev.push(Event::Reshuffle);
        }
        let id = s.deck.draw(&mut s.dice).unwrap_or(1);
        let hash = self.data.cards.get(id).hash;
        let net = hash.saturating_sub(self.reduction(s, s.battle.region));
        ev.push(Event::SearchCard {
            card: id,
            hash,
            net,
            son,
        });
        net
    }

    pub fn start_search(&self, s: &mut State, r: u8, ev: &mut Ev) {
        s.battle = Battle {
            from: 255,
            attacker: BRITISH,
            region: r,
            after_side: 1,
            ..Battle::default()
        };
        // 10.0: searching among active unbroken Patriot military units fires the Shot.
        if self.unbroken_military(s, PATRIOT, r) > 0 {
            self.shot(s, false, ev);
        }
        s.battle.arms = self.arms_searchable(s, r);
        s.battle.defenders = self.sons_here(s, r);
        self.next_son(s, ev);
    }

    /// 8.0: the next draw of the search. With more than one left (the hidden arms, Adams,
    /// Hancock), the British choose which comes next (`Phase::SearchNext`); the order matters
    /// when they know the next cards (6.14).
    pub fn next_son(&self, s: &mut State, ev: &mut Ev) {
        let left = s.battle.defenders.count_ones() + s.battle.arms as u32;
        if left > 1 {
            s.phase = Phase::SearchNext {
                region: s.battle.region,
            };
            return;
        }
        if s.battle.arms {
            self.search_arms(s, ev);
            return;
        }
        let Some(son) = members(s.battle.defenders).next() else {
            s.battle = Battle {
                from: 255,
                ..Battle::default()
            };
            self.end_action(s, ev);
            return;
        };
        self.search_son(s, son, ev);
    }

    /// 8.1: the card for the hidden arms.
    fn search_arms(&self, s: &mut State, ev: &mut Ev) {
        let r = s.battle.region;
        s.battle.arms = false;
        let net = self.search_card(s, 255, ev);
        self.score(s, BRITISH, Cause::Search, net as i16, ev);
        s.arms[r as usize] = ARMS_SEARCHED;
        self.next_son(s, ev);
    }

    pub fn legal_search_next(&self, s: &State, out: &mut super::sequence::Actions) {
        if s.battle.arms {
            out.push(Action::SearchArms);
        }
        for u in members(s.battle.defenders) {
            out.push(Action::Pick(u));
        }
    }

    pub fn apply_search_next(&self, s: &mut State, a: Action, ev: &mut Ev) {
        match a {
            Action::SearchArms => self.search_arms(s, ev),
            Action::Pick(son) => self.search_son(s, son, ev),
            _ => {}
        }
    }

    /// 8.2: the card for a Son of Liberty.
    fn search_son(&self, s: &mut State, son: u8, ev: &mut Ev) {
        s.battle.defenders &= !bit(son);
        let net = self.search_card(s, son, ev);
        if net > 0 {
            self.capture(s, son, ev);
            self.next_son(s, ev);
        } else {
            self.son_not_found(s, son, true, ev);
        }
    }

    fn capture(&self, s: &mut State, son: u8, ev: &mut Ev) {
        let x = &mut s.units[son as usize];
        x.flipped = true;
        x.under = false;
        x.since = s.turn;
        ev.push(Event::Captured { unit: son });
    }

    /// 8.2: a failed draw; the British may pay 1 VP (if they have it) for one more.
    fn son_not_found(&self, s: &mut State, son: u8, may_redraw: bool, ev: &mut Ev) {
        let price = self.data.vp.capture_redraw * 2;
        if may_redraw && s.vp.halves(BRITISH) >= price && price > 0 {
            s.phase = Phase::Redraw {
                region: s.battle.region,
                son,
            };
            return;
        }
        if self.away_dests(s, son) != 0 {
            s.phase = Phase::SonAway {
                unit: son,
                optional: true,
            };
        } else {
            self.next_son(s, ev);
        }
    }

    pub fn apply_redraw(&self, s: &mut State, a: Action, ev: &mut Ev) {
        let Phase::Redraw { son, .. } = s.phase else {
            return;
        };
        if a == Action::Redraw {
            self.score(
                s,
                BRITISH,
                Cause::RedrawCost,
                -self.data.vp.capture_redraw,
                ev,
            );
            let net = self.search_card(s, son, ev);
            if net > 0 {
                self.capture(s, son, ev);
                self.next_son(s, ev);
                return;
            }
        }
        self.son_not_found(s, son, false, ev);
    }
}
