//! Actions (one small decision each) and events of Bunker Hill.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// 12.1 set-up: the next counter goes to this region.
    Place(u8),
    /// 12.3: choose objective 1-6, or 0 to roll for it.
    Objective(u8),
    /// 12.3 "any three": pick objective target 0-4.
    Target(u8),
    /// A landing zone number (12.3 "any three", 12.1/11.3 reinforcements).
    Zone(u8),
    /// 12.4: the Patriot defence focus 1-4.
    Focus(u8),
    /// 9.1: the region that checks for panic.
    PanicAt(u8),
    /// 5.2: hand the next action to the opponent (free).
    Yield,
    /// 6.12: spend an action doing nothing.
    Pass,
    /// 6.11.
    Plan,
    /// 5.2: pay the next action with a Reserve Action.
    Reserve,
    Volley {
        from: u8,
        to: u8,
    },
    Assault {
        from: u8,
        to: u8,
    },
    Cannonade,
    Bombard,
    Move(u8),
    Naval(u8),
    Rally(u8),
    Reorg {
        a: u8,
        b: u8,
    },
    Snipe(u8),
    Land {
        zone: u8,
        to: u8,
    },
    /// 12.3: raise the British objective (free).
    Upgrade(u8),
    /// Pick a counter for the current step (fire, assault, withdraw, land, shift, rally).
    Add(u8),
    /// End the current step.
    Done,
    /// 11.2: one more Volley die for one ammunition.
    Boost,
    /// 6.3: the cannons in `from` fire at `to`.
    Gun {
        from: u8,
        to: u8,
    },
    /// 6.4: the current bombarding unit fires at the counters in a region.
    Shell(u8),
    /// 6.4: Hot Shot at a town region.
    HotShot(u8),
    /// 6.4: the current bombarding unit does not fire.
    Hold,
    /// 6.5: move a counter to a region.
    Go {
        unit: u8,
        to: u8,
    },
    /// 7.0: this counter takes the next hit.
    Hit(u8),
    /// The destination of a retreat, flight or evacuation.
    Dest(u8),
    /// 6.2 / 8.0 / 11.2: the Patriot defender's free fire: 0 hold fire, else the hit number.
    Fire(u8),
    /// 5.3: fire spreads to this town region.
    Spread(u8),
}

/// What happened, for the log (`notation::describe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Placed {
        unit: u8,
        region: u8,
    },
    Took {
        side: u8,
        action: Action,
        reserve: bool,
    },
    Card {
        card: u8,
        patriot: u8,
        british: u8,
    },
    First {
        side: u8,
        die: u8,
    },
    AmmoRoll {
        die: u8,
        arrived: bool,
    },
    Arrived {
        unit: u8,
    },
    Revealed {
        unit: u8,
        value: u8,
    },
    Roll {
        side: u8,
        dice: u8,
        hits: u8,
        need: u8,
        /// The faces of the dice that hit on `need`.
        faces: muster_core::words::Faces,
        /// The faces of the dice that hit only on a 6 (11.2's extra dice, 8.0's lacking
        /// ammunition).
        sixes: muster_core::words::Faces,
    },
    Flipped {
        unit: u8,
    },
    Removed {
        unit: u8,
    },
    Moved {
        unit: u8,
        to: u8,
    },
    /// 12.1: several counters of one side set up, one after another (one line; each
    /// counter's region is where it stands).
    SetUp {
        side: u8,
        units: super::state::Units,
    },
    /// 12.1: several counters of one side arriving together (one line; each counter's
    /// region is where it stands).
    Together {
        side: u8,
        units: super::state::Units,
    },
    /// 6.5: several counters of one side moved to `to`, one after another (one line).
    Went {
        side: u8,
        units: super::state::Units,
        to: u8,
    },
    Courage {
        unit: u8,
        die: u8,
        total: u8,
        passed: bool,
    },
    Morale {
        side: u8,
        value: u8,
    },
    Ammo {
        value: u8,
    },
    Demoralized {
        side: u8,
    },
    Ablaze {
        region: u8,
        die: u8,
    },
    NoFire {
        region: u8,
        die: u8,
    },
    /// 5.3: the end-of-turn die of a burning town region: on 5–6 (`spreads`) the fire
    /// spreads to a neighbour the British choose. A roll, logged when it is made.
    SpreadRoll {
        from: u8,
        die: u8,
        spreads: bool,
    },
    Rallied {
        unit: u8,
        die: u8,
    },
    PanicRemoved {
        unit: u8,
    },
    Ignored {
        region: u8,
    },
    AssaultEnds {
        attacker_won: bool,
    },
    Objective {
        objective: u8,
        die: u8,
    },
    TurnEnds {
        turn: u8,
    },
    GameEnds {
        winner: u8,
        why: u8,
    },
}
