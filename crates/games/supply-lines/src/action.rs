//! Decisions (one small choice each) and the events they cause.

use crate::state::{EndReason, Order, SideId};

/// One decision. Areas are named by their index in the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// §5.3: pick the area supplies move from.
    From(u8),
    /// A destination: of supplies (§5.3), a detachment (§7.1-§7.4), a bombardment (§7.6), a
    /// refusal or retreat (§8.1, §8.7), or the third Patriot Leader (§10.1).
    To(u8),
    /// A count of Food cubes: to move (§5.3), to carry (§5.5, §8.1), or Nova Scotia's Food
    /// (§5.2).
    Food(u8),
    /// A count of War cubes: to move, to carry, or to expend in battle (§8.2, §8.3).
    War(u8),
    /// Give up the supply move being chosen.
    Cancel,
    /// §5.5: discard a cube (War first) from an over-full area that no move can relieve.
    Discard(u8),
    /// Finish moving supplies (§5.3, §7.0).
    Done,
    /// §7.0: activate the army in an area.
    Activate(u8, Order),
    /// How many Units go (or are activated, §7.1 with a Leader).
    Units(u8),
    /// How many Leaders go with them.
    Leaders(u8),
    /// §7.1: no more detachments march.
    EndMarch,
    /// §7.0: pass.
    Pass,
    /// §8.1: accept battle.
    Accept,
    /// §5.7: take the next numbered reinforcement marker.
    Request,
    /// §5.7, §12.1: take the Triumvirate of Reputation marker instead.
    Triumvirate,
    /// §5.7: take no marker this turn.
    NoRequest,
    /// §13.4: concede the game.
    Concede,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    TurnBegins {
        turn: u8,
        winter: bool,
    },
    Arrived {
        marker: u8,
        units: u8,
        leaders: u8,
    },
    TriumvirsArrive {
        removed: u8,
        placed: u8,
    },
    Generated {
        area: u8,
        food: u8,
        war: u8,
    },
    NovaScotia {
        food: u8,
        war: u8,
    },
    SuppliesMoved {
        from: u8,
        to: u8,
        food: u8,
        war: u8,
    },
    Discarded {
        area: u8,
        food: u8,
        war: u8,
    },
    Requested {
        marker: u8,
    },
    RequestedTriumvirate,
    Initiative {
        patriot: u8,
        crown: u8,
        winner: SideId,
        pass: u8,
    },
    Passed {
        side: SideId,
        pass: u8,
    },
    ImpulsesEnd,
    Activated {
        side: SideId,
        area: u8,
        order: Order,
        food: u8,
        war: u8,
    },
    Moved {
        side: SideId,
        from: u8,
        to: u8,
        units: u8,
        leaders: u8,
        food: u8,
        war: u8,
    },
    DugIn {
        area: u8,
    },
    Destroyed {
        area: u8,
    },
    Bombarded {
        target: u8,
        rolls: Vec<u8>,
        eliminated: u8,
    },
    Refused {
        from: u8,
        to: u8,
        food: u8,
        war: u8,
    },
    Committed {
        side: SideId,
        war: u8,
        dice: u8,
    },
    Rolled {
        side: SideId,
        rolls: Vec<u8>,
        hits: u8,
        ignored: bool,
    },
    BattleResult {
        attacker_won: bool,
        attacker: u8,
        defender: u8,
    },
    Morale {
        rolls: Vec<u8>,
        passed: bool,
        automatic: bool,
    },
    Stood {
        area: u8,
    },
    Retreated {
        from: u8,
        to: u8,
    },
    Surrendered {
        side: SideId,
        area: u8,
        units: u8,
        leaders: u8,
    },
    AttackerReturns {
        to: u8,
        food: u8,
        war: u8,
        kept: bool,
    },
    SkirmishReturns {
        to: u8,
    },
    Support {
        from: u8,
        to: u8,
        why: &'static str,
        section: &'static str,
    },
    Declaration,
    DeclarationSupplies {
        area: u8,
        war: u8,
    },
    DugInRemoved,
    Disbanded {
        area: u8,
        units: u8,
        food: u8,
    },
    MarkersReturned {
        to_cup: u8,
        to_box: u8,
    },
    Drew {
        marker: u8,
        city: u8,
        placed: bool,
    },
    CupEmpty,
    LeaderPlaced {
        area: u8,
    },
    /// §13.4: `side` concedes; told to `reader` (each player reads it in their own words).
    Conceded {
        side: SideId,
        reader: SideId,
    },
    GameEnds {
        winner: Option<SideId>,
        reason: EndReason,
    },
}
