//! Knowledge for search bots: an estimate of who is winning, so playouts can stop early.

use crate::SupplyLines;
use crate::state::{SideId, State};
use crate::victory;
use muster_core::{Knowledge, Side};

impl Knowledge for SupplyLines {
    /// A logistic of the Patriot's way to victory (the Support Marker's progress toward the
    /// Treaty, §11.2) against the Crown's (its Victory Cities against the requirement, §13.2),
    /// with the armies and Leaders still on the map as a smaller term.
    fn evaluate(&self, s: &State, side: Side) -> Option<f32> {
        let d = self.data();
        let span = (d.treaty - d.support_start).max(1) as f32;
        let support = (s.support as f32 - d.support_start as f32) / span;
        let cities = victory::crown_cities(d, s) as f32 / victory::required(d, s).max(1) as f32;
        let men = s.units_of(SideId::PATRIOT) as f32 - s.units_of(SideId::CROWN) as f32;
        let leaders = s.leaders_of(SideId::PATRIOT) as f32 - s.leaders_of(SideId::CROWN) as f32;
        let patriot = 3.0 * support - 2.5 * (cities - 0.6) + 0.05 * men + 0.3 * leaders;
        let x = if side == SideId::PATRIOT.0 {
            patriot
        } else {
            -patriot
        };
        Some(1.0 / (1.0 + (-x).exp()))
    }

    fn playout_depth(&self) -> u32 {
        120
    }
}
