//! Issue 15: every position is valid or refused, no input can crash the engine. Real positions
//! and records from random play, mutated field by field by the core test kit
//! (`muster_core::testkit`), loaded through the engine's own load and replay paths: each is
//! refused as `bad_position` / `bad_record`, or accepted and then sound (legal, act, undo,
//! view, text, position never panic; a side to act has a legal action; every state reached
//! loads again; position → load → position is byte-identical). `validation.rs` adds a
//! Supply-Lines-only mutation test over every field of the state.
//!
//! `MUSTER_FUZZ=100000 cargo test -p muster-supply-lines --release --test fuzz` for a long run.

use muster_core::registry::Entry;
use muster_core::testkit::{FuzzConfig, assert_fuzz};
use muster_supply_lines::SupplyLines;
use std::sync::Arc;

#[test]
fn mutated_positions_and_records_are_refused_or_sound() {
    let game = Entry(Arc::new(SupplyLines::new().unwrap()));
    let report = assert_fuzz(&game, &FuzzConfig::from_env(600));
    eprintln!("{report}");
    assert_eq!(report.inputs, report.refused + report.accepted);
}
