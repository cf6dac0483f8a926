//! Revolution Road (Compass Games, 2017).
//!
//! - [`common`]: what both games of the box share: the 22-card deck (drawing, reshuffling,
//!   peeking, resampling what a side has not seen) and the 21-piece militia draw pool.
//! - [`concord`]: Part One, From Boston to Concord (game id `concord`), one module per rules
//!   chapter.
//! - [`bunker`]: Part Two, Bunker Hill (game id `bunker-hill`), one module per rules chapter;
//!   it reuses the deck and the militia pool of [`common`].

pub mod bunker;
pub mod common;
pub mod concord;

pub use bunker::Bunker;
pub use concord::{Action, Concord, Event, State};
