//! The parts of Revolution Road that From Boston to Concord and Bunker Hill share: the card
//! deck (rulebook Part One 2.0 and 5.1; Part Two 12.1 uses ten of the same cards) and the
//! militia draw pool (Part One 4.1 and 15.1; Part Two 4.x uses the same 21 pieces), and the
//! check both games make before applying a decision.

pub mod cards;
pub mod militia;

pub use cards::{Card, Cards, Deck};
pub use militia::{MILITIA_POOL, MilitiaPool};

use muster_core::{IllegalAction, IllegalKind, Side};

/// Both games' sides: 0 the Patriot, 1 the British.
pub const SIDE_NAMES: [&str; 2] = ["Patriot", "British"];

/// The sides as a people, for "the Patriots win", "the British are demoralized".
pub const SIDE_PEOPLE: [&str; 2] = ["Patriots", "British"];

/// Refuses a decision when the game is over (`to_act` is `None`) or when it is not `side`'s.
pub fn check_turn(to_act: Option<Side>, side: Side) -> Result<(), IllegalAction> {
    let Some(to_act) = to_act else {
        return Err(IllegalAction::new(
            IllegalKind::GameOver,
            "the game is over",
        ));
    };
    if side != to_act {
        return Err(IllegalAction::new(
            IllegalKind::NotYourTurn,
            format!(
                "it is the {} player's decision",
                SIDE_NAMES[to_act as usize & 1]
            ),
        ));
    }
    Ok(())
}
