//! Decisions (one choice each) and the events they cause.

use crate::state::{Attackers, EndReason, SideId};
use muster_core::hex::Hex;

/// One decision. Units are named by their index in the roster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Put the unit being set up or entering at a hex (§5.3, §12).
    Place(Hex),
    /// Spend a Leadership point to try to rally a reduced unit (§9.3).
    Rally(u8),
    /// Do not rally this turn.
    NoRally,
    /// Pick the next unit to move (§5.2: units move one at a time).
    Select(u8),
    /// Spend a Leadership point: +2 MP for the selected unit (§9.1).
    ForceMarch,
    /// Move the selected unit to a hex it can reach (§5).
    MoveTo(Hex),
    /// Move the selected unit off the map at the exit hex (Oriskany, §12).
    Exit,
    /// The selected unit stays where it is.
    Hold,
    /// Finish movement (§4).
    EndMovement,
    /// Fire an Artillery point at an enemy unit (§8.2).
    Fire(u8),
    /// Do not fire artillery now.
    NoFire,
    /// Name the defender of the next attack (§6.1).
    Attack(u8),
    /// Add an adjacent unit to the attack (§6.1).
    Add(u8),
    /// Spend a Leadership point: +2 CF for one attacking unit (§9.2).
    Charge(u8),
    /// Resolve the declared attack (§6.3).
    Commit,
    /// Spend an Artillery point: +2 CF for the defender (§8.1).
    Support,
    /// Do not support the defender.
    NoSupport,
    /// This attacking unit takes the next loss (§6.5).
    TakeLoss(u8),
    /// Retreat the unit now retreating to this hex (§6.6).
    RetreatTo(Hex),
    /// Move this attacking unit into the vacated hex (§6.6).
    Advance(u8),
    /// Do not advance.
    NoAdvance,
    /// Make no more attacks this turn (§4).
    EndAttacks,
}

/// Artillery target results (§8.2 chart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bombardment {
    NoEffect,
    Retreat,
    ReduceAndRetreat,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    TurnBegins {
        turn: u8,
        side: SideId,
    },
    Placed {
        unit: u8,
        hex: Hex,
        entering: bool,
    },
    RallyRoll {
        unit: u8,
        roll: u8,
        success: bool,
    },
    ForceMarch {
        unit: u8,
    },
    Moved {
        unit: u8,
        from: Hex,
        to: Hex,
        halves: u8,
    },
    Held {
        unit: u8,
    },
    Exited {
        unit: u8,
        from: Hex,
    },
    MovementEnds {
        side: SideId,
    },
    StormNoAttacks {
        turn: u8,
    },
    ArtilleryFire {
        unit: u8,
        roll: u8,
        terrain: bool,
        result: Bombardment,
    },
    NoArtillery {
        side: SideId,
    },
    Declared {
        target: u8,
        attackers: Attackers,
    },
    Charge {
        unit: u8,
    },
    Support {
        target: u8,
    },
    Combat(Box<CombatReport>),
    Loss {
        unit: u8,
        eliminated: bool,
    },
    Retreated {
        unit: u8,
        from: Hex,
        to: Hex,
    },
    CannotRetreat {
        unit: u8,
    },
    Advanced {
        unit: u8,
        to: Hex,
    },
    GameEnds {
        winner: SideId,
        reason: EndReason,
        american: u8,
        british: u8,
    },
}

/// The arithmetic of one attack (§6.3), for the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CombatReport {
    pub target: u8,
    pub attackers: Attackers,
    /// Sum of the attackers' CF, without the charge.
    pub attack_cf: u8,
    pub charge: bool,
    pub defense_cf: u8,
    /// +2 for the defender's woods, hill or farm hex.
    pub terrain: bool,
    /// +2 because an attacker crosses a river or bridge hexside.
    pub river: bool,
    pub support: bool,
    /// Totals after the CF differential limit.
    pub attack_total: u8,
    pub defense_total: u8,
    pub attack_roll: u8,
    pub defense_roll: u8,
    pub attacker_won: bool,
    pub losses: u8,
}
