//! The Revolution Road cards (Part One 2.0, 5.1; Part Two 12.1): each card gives the British
//! and the Patriot player their actions for a turn and carries 0-3 hash marks used as a random
//! result (searches and captures, 8.0; solitaire reinforcements, 15.2).
//!
//! The deck order is hidden from both players. A side that used Gather Intelligence (6.14)
//! knows the top cards it looked at until they are drawn; [`Deck::known`] records how many.

use muster_core::Dice;
use serde::{Deserialize, Serialize};

/// Cards in the box.
pub const DECK_SIZE: usize = 22;

/// One card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: u8,
    pub british: u8,
    pub patriot: u8,
    pub hash: u8,
}

impl Card {
    /// Actions for a side: 0 Patriot, 1 British (the order of the game's sides).
    pub fn actions(&self, side: u8) -> u8 {
        if side == 0 {
            self.patriot
        } else {
            self.british
        }
    }
}

/// The checked card list, indexed by `id - 1`.
#[derive(Clone, Debug)]
pub struct Cards {
    pub cards: Vec<Card>,
    pub reconstructed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    #[serde(default)]
    reconstructed: bool,
    cards: Vec<Card>,
}

impl Cards {
    /// Reads and checks `cards.toml`; errors name the file and the card.
    pub fn load(file: &str, text: &str) -> Result<Cards, String> {
        let f: CardsFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        if f.cards.len() != DECK_SIZE {
            return Err(format!(
                "{file}: the deck must hold {DECK_SIZE} cards, not {}",
                f.cards.len()
            ));
        }
        for (i, c) in f.cards.iter().enumerate() {
            if c.id as usize != i + 1 {
                return Err(format!(
                    "{file}: card {} is listed where card {} should be (list them 1 to {DECK_SIZE} in order)",
                    c.id,
                    i + 1
                ));
            }
            if !(1..=5).contains(&c.british) || !(1..=5).contains(&c.patriot) {
                return Err(format!(
                    "{file}: card {}: actions must be 1 to 5 (the action tracks stop at 5)",
                    c.id
                ));
            }
            if c.hash > 3 {
                return Err(format!("{file}: card {}: hash marks must be 0 to 3", c.id));
            }
        }
        Ok(Cards {
            cards: f.cards,
            reconstructed: f.reconstructed,
        })
    }

    /// A card by id (1-based). Ids in states are checked on load.
    pub fn get(&self, id: u8) -> Card {
        self.cards
            .get((id as usize).wrapping_sub(1))
            .copied()
            .unwrap_or(Card {
                id,
                british: 0,
                patriot: 0,
                hash: 0,
            })
    }
}

/// The draw pile and the discard pile. The top of the draw pile is its last element.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    pub draw: arrayvec::ArrayVec<u8, DECK_SIZE>,
    pub discard: arrayvec::ArrayVec<u8, DECK_SIZE>,
    /// How many cards from the top each side has seen (6.14), by side index.
    pub known: [u8; 2],
}

impl Deck {
    /// A shuffled deck of the given card ids (15.3/15.4 remove some before shuffling).
    pub fn shuffled(ids: impl Iterator<Item = u8>, dice: &mut Dice) -> Deck {
        let mut d = Deck::default();
        for id in ids {
            if !d.draw.is_full() {
                d.draw.push(id);
            }
        }
        shuffle(&mut d.draw, dice);
        d
    }

    /// Draws the top card to the discard pile, reshuffling the discards first if the draw
    /// pile is empty (2.0). `None` only if every card is gone (never in play).
    pub fn draw(&mut self, dice: &mut Dice) -> Option<u8> {
        if self.draw.is_empty() {
            std::mem::swap(&mut self.draw, &mut self.discard);
            shuffle(&mut self.draw, dice);
            self.known = [0, 0];
        }
        let c = self.draw.pop()?;
        for k in &mut self.known {
            *k = k.saturating_sub(1);
        }
        if !self.discard.is_full() {
            self.discard.push(c);
        }
        Some(c)
    }

    /// Gather Intelligence (6.14): `side` looks at the top two cards.
    pub fn peek(&mut self, side: u8) -> arrayvec::ArrayVec<u8, 2> {
        let n = self.draw.len().min(2);
        self.known[side as usize & 1] = n as u8;
        self.draw.iter().rev().take(n).copied().collect()
    }

    /// The top cards `side` has seen, top first.
    pub fn seen_by(&self, side: u8) -> arrayvec::ArrayVec<u8, 2> {
        let n = (self.known[side as usize & 1] as usize).min(self.draw.len());
        self.draw.iter().rev().take(n).copied().collect()
    }

    /// Resamples the order of every card `viewer` has not seen (for `determinize`).
    pub fn resample(&mut self, viewer: u8, dice: &mut Dice) {
        let keep = (self.known[viewer as usize & 1] as usize).min(self.draw.len());
        let n = self.draw.len() - keep;
        // Sort first, so the result depends only on which cards are unseen (public), never on
        // the order they were in (hidden).
        self.draw[..n].sort_unstable();
        shuffle(&mut self.draw[..n], dice);
    }
}

/// Fisher-Yates with the game's dice.
pub fn shuffle(xs: &mut [u8], dice: &mut Dice) {
    for i in (1..xs.len()).rev() {
        let j = dice.below(i as u32 + 1) as usize;
        xs.swap(i, j);
    }
}
