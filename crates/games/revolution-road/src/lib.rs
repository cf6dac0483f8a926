//! Revolution Road (Compass Games, 2017).
//!
//! - [`common`]: what both games of the box share: the 22-card deck (drawing, reshuffling,
//!   peeking, resampling what a side has not seen) and the 21-piece militia draw pool.
//! - [`concord`]: Part One, From Boston to Concord (game id `concord`), one module per rules
//!   chapter.
//!
//! Part Two, Bunker Hill, is a later issue; it reuses [`common`].

pub mod common;
pub mod concord;

pub use concord::{Action, Concord, Event, State};
