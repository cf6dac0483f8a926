//! Issue 15: the core test kit's fuzzer on From Boston to Concord. Real positions and records
//! from random play are mutated field by field and fed to the engine's load and replay paths;
//! each must be refused with a clear error or accepted and sound (no panic, a legal action, a
//! state that loads again, byte-identical round trips). `MUSTER_FUZZ=N` sets the input count.

use muster_core::registry::Entry;
use muster_core::testkit::{FuzzConfig, assert_fuzz};
use muster_revolution_road::Concord;
use std::sync::Arc;

#[test]
fn concord_fuzz_refuses_or_accepts_soundly() {
    let game = Entry(Arc::new(Concord::new().unwrap()));
    let report = assert_fuzz(&game, &FuzzConfig::from_env(600));
    assert!(report.refused > 0 && report.accepted > 0);
}
