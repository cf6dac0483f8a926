//! Chapters 10-13: the end of the game. 11.0 the automatic Patriot victory, 12.0 Percy's
//! missed award, 13.0 the tally (ties go to the British) with the end-of-game items of the VP
//! aid (broken units, wounded leaders, captives, hidden arms with the 14.5 options). The
//! solitaire end (15.2: attrition rolls, casualties, objectives) is here too.

use super::Concord;
use super::action::Event;
use super::pieces::Ev;
use super::state::*;

impl Concord {
    /// Ends the game: final scoring and the winner.
    pub fn finish(&self, s: &mut State, ev: &mut Ev) {
        if s.mode.solitaire() {
            self.finish_solitaire(s, ev);
            return;
        }
        let vp = self.data.vp;
        for i in 0..s.units.len() {
            let x = s.units[i];
            let Loc::At(_) = x.at else { continue };
            let side = self.side_of(s, i as u8);
            match x.kind {
                Kind::Leader if x.flipped => {
                    self.score(s, 1 - side, Cause::EndWounded, vp.wounded_leader, ev)
                }
                Kind::Son if x.flipped => {
                    self.score(s, BRITISH, Cause::EndCaptured, vp.captured_son, ev)
                }
                Kind::Rider if x.flipped => {
                    self.score(s, BRITISH, Cause::EndCaptured, vp.captured_rider, ev)
                }
                k if k.military() && x.flipped => {
                    self.score(s, 1 - side, Cause::EndBroken, vp.broken_unit, ev)
                }
                _ => {}
            }
        }
        // 4.7 and 14.5: unsearched hidden arms. The card options shuffle every card together
        // and deal one per unnumbered marker, without replacement (ruling C32).
        let mut cards: arrayvec::ArrayVec<u8, { crate::common::cards::DECK_SIZE }> =
            (1..=self.data.cards.cards.len() as u8).collect();
        if matches!(s.options.arms_balance, 2 | 3) {
            crate::common::cards::shuffle(&mut cards, &mut s.dice);
        }
        for r in 0..self.data.map.regions.len() {
            if s.arms[r] != ARMS_HIDDEN {
                continue;
            }
            let numbered = self.data.map.regions[r].arms.unwrap_or(0);
            let points = if numbered > 0 {
                numbered as i16
            } else {
                match s.options.arms_balance {
                    1 => 0,
                    2 | 3 => match cards.pop() {
                        // The next card of the shuffled deck (there are 22 cards and 8
                        // unnumbered markers, so the deck never runs out in play; a position
                        // with more markers than cards scores the rest as unnumbered).
                        Some(card) => {
                            let hash = self.data.cards.get(card).hash;
                            let points = if s.options.arms_balance == 2 {
                                (hash > 0) as u8
                            } else {
                                hash
                            };
                            ev.push(Event::ArmsCard {
                                region: r as u8,
                                card,
                                hash,
                                points,
                            });
                            points as i16
                        }
                        None => vp.unnumbered_arms,
                    },
                    _ => vp.unnumbered_arms,
                }
            };
            self.score(s, PATRIOT, Cause::Arms, points, ev);
        }
        if !s.percy_award {
            self.score(s, PATRIOT, Cause::PercyMissed, vp.percy_missed, ev);
        }
        let automatic = !s.concord;
        let winner = if automatic || s.vp.halves(PATRIOT) > s.vp.halves(BRITISH) {
            PATRIOT
        } else {
            BRITISH
        };
        self.end(s, winner, automatic, ev);
    }

    fn end(&self, s: &mut State, winner: u8, automatic: bool, ev: &mut Ev) {
        s.ended = Some(Ended { winner, automatic });
        s.phase = Phase::Over;
        ev.push(Event::GameOver { winner });
    }

    /// 15.2: attrition rolls, then the solitaire VP schedule.
    fn finish_solitaire(&self, s: &mut State, ev: &mut Ev) {
        // Attrition: wounded leaders die on 6, broken British units disband on 6, broken
        // Patriot units on 5-6.
        for i in 0..s.units.len() {
            let x = s.units[i];
            if !matches!(x.at, Loc::At(_))
                || !x.flipped
                || !(x.kind.military() || x.kind == Kind::Leader)
            {
                continue;
            }
            let side = self.side_of(s, i as u8);
            let need = if x.kind == Kind::Leader || side == BRITISH {
                6
            } else {
                5
            };
            let d = s.dice.d6();
            ev.push(Event::Die {
                side: 1 - side,
                unit: i as u8,
                die: d,
                section: "15.2",
            });
            if d >= need {
                self.hit(s, i as u8, ev);
            }
        }
        // Broken units count 1/2 VP for the opponent (hits on destroyed units already scored).
        for i in 0..s.units.len() {
            let x = s.units[i];
            if matches!(x.at, Loc::At(_)) && x.flipped && x.kind.military() {
                let side = self.side_of(s, i as u8);
                s.vp.add(1 - side, Cause::EndBroken, 1);
                ev.push(Event::Vp {
                    side: 1 - side,
                    halves: 1,
                    cause: Cause::EndBroken as u8,
                });
            }
        }
        let points = self.lexington_points(s);
        if points > 0 {
            self.score(s, BRITISH, Cause::Objectives, points as i16, ev);
        }
        if self.british_regions(s).count_ones() == 1 {
            self.score(s, BRITISH, Cause::Objectives, 2, ev);
        } else {
            self.score(s, PATRIOT, Cause::Objectives, 2, ev);
        }
        if self.casualties_halves(s) > 12 {
            self.score(s, PATRIOT, Cause::Objectives, 2, ev);
        }
        let winner = if s.vp.halves(PATRIOT) > s.vp.halves(BRITISH) {
            PATRIOT
        } else {
            BRITISH
        };
        self.end(s, winner, false, ev);
    }

    /// 15.2: what Lexington is worth to the British as it stands: nothing without a British
    /// Regular there, 4 VP with no Patriot fighter there, 3 when the Regulars' unbroken strength
    /// is more than twice the Patriots', 2 otherwise.
    pub fn lexington_points(&self, s: &State) -> u8 {
        let lex = self.data.map.lexington;
        if self.regulars(s, lex) == 0 {
            return 0;
        }
        let patriots = self.fighters(s, PATRIOT, lex);
        let british_sp = 2 * self.unbroken_regulars(s, lex) as u16;
        let patriot_sp = self.strength(s, patriots) as u16;
        if patriots == 0 {
            4
        } else if british_sp > 2 * patriot_sp {
            3
        } else {
            2
        }
    }

    /// 15.2: British casualties in half points: 1/2 per broken unit, one per strength point of
    /// a destroyed unit, less one per British reserve action held at the end.
    pub fn casualties_halves(&self, s: &State) -> i16 {
        let mut c = 0i16;
        for (i, x) in s.units.iter().enumerate() {
            if self.side_of(s, i as u8) != BRITISH || !x.kind.military() {
                continue;
            }
            match x.at {
                Loc::At(_) if x.flipped => c += 1,
                Loc::Removed if x.kind == Kind::Regular => c += 4,
                _ => {}
            }
        }
        c - 2 * s.reserves[BRITISH as usize] as i16
    }
}
