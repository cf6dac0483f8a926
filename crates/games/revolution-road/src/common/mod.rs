//! The parts of Revolution Road that From Boston to Concord and Bunker Hill share: the card
//! deck (rulebook Part One 2.0 and 5.1; Part Two 12.1 uses ten of the same cards) and the
//! militia draw pool (Part One 4.1 and 15.1; Part Two 4.x uses the same 21 pieces).

pub mod cards;
pub mod militia;

pub use cards::{Card, Cards, Deck};
pub use militia::{MILITIA_POOL, MilitiaPool};
