//! The state budget (issue 4: at most 4 KB, no heap, so that bots clone it cheaply). Speed is
//! measured by `muster bench --game bunker-hill` and `benches/random_play.rs`, not here.

use muster_revolution_road::bunker::State;

#[test]
fn state_fits_in_4_kb() {
    assert!(
        std::mem::size_of::<State>() <= 4096,
        "{}",
        std::mem::size_of::<State>()
    );
}
