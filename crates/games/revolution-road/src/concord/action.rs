//! Decisions (one choice each) and the events they cause. Units and regions are named by
//! index (roster order, map order); notation names them by id.

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    // 5.2 / 6.0: the action of an action round.
    /// Pay the next action from the Reserve (5.2).
    Reserve,
    /// 6.1 Attack in a region.
    Attack(u8),
    /// 6.2 Assault from a region into an adjacent one.
    Assault(u8, u8),
    /// 6.3 Charge in a region (British).
    Charge(u8),
    /// 6.4 Move units out of a region.
    Move(u8),
    /// 4.4 Move Adams or Hancock.
    MoveSon(u8),
    /// 6.5 Assemble from a region into an adjacent one (Patriot).
    Assemble(u8, u8),
    /// 6.6 Ambush in a region (Patriot).
    Ambush(u8),
    /// 6.7 Snipe in a region (Patriot).
    Snipe(u8),
    /// 6.8 Rally in a region.
    Rally(u8),
    /// 6.9 Search / Capture in a region (British).
    Search(u8),
    /// 6.10 Escape attempt for a captured piece (Patriot).
    Escape(u8),
    /// 6.11 Place a Hinder marker (marker, region).
    Hinder(u8, u8),
    /// 6.11 Remove the opponent's Hinder marker.
    Unhinder(u8),
    /// 6.12 Call to Arms (Patriot).
    CallToArms,
    /// 6.13 Plan.
    Plan,
    /// 6.14 Gather Intelligence.
    Intel,
    /// 6.15 Pass.
    Pass,
    // Steps inside an action.
    /// Choose a unit (to move, attack, defend, retreat, rally, ambush, break).
    Pick(u8),
    /// Finish choosing.
    Done,
    /// Go to a region (move, retreat, free move, place).
    To(u8),
    /// End a march here (6.4.2).
    Stop,
    /// Leave a unit behind on the road (6.4.2).
    Drop(u8),
    /// Apply a hit to a unit (7.0).
    Hit(u8),
    /// 7.0 Simultaneous combat (the attacker takes a hit first).
    Simultaneous,
    /// 7.0 Face defensive fire.
    DefensiveFire,
    /// 7.1.3 Fire on the retreating force.
    OpFire,
    NoOpFire,
    /// 8.2 Pay 1 VP for one more capture draw.
    Redraw,
    NoRedraw,
    /// Stay where it is (4.3 free move, 8.2 moving a Son of Liberty).
    Stay,
    /// 6.12 Choose the Nightrider to ride next.
    Rider(u8),
    /// 6.12 Ride to a region; `true`: pay an extra point to evade the British.
    Ride(u8, bool),
    /// 6.12 Alert the Gather marker here.
    Alert,
    /// 6.12 Leave the map at this edge. From a region with an unbroken Regular this plain
    /// exit takes the British capture roll first.
    Exit,
    /// 6.12 Leave the map from a region with an unbroken Regular, paying an extra point to
    /// evade the British instead of taking the capture roll.
    ExitEvade,
    /// 6.12 Remove the Alert marker of an alert box on the rider's edge.
    RemoveAlert(u8),
    /// 8.1 Draw for the hidden arms next (a search with several draws, 8.0).
    SearchArms,
    /// 14.1 Re-roll one missed combat die of this unit.
    Reroll(u8),
    /// 14.1 Keep the roll as it is.
    KeepRoll,
}

/// Something that happened; `describe` turns it into a log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A side took an action (by its notation's verb) in an action round.
    Act {
        side: u8,
        action: Action,
        reserve: bool,
    },
    /// A decision inside an action, with the phase it was taken in and the units it
    /// concerns (the units chosen, when it ends a choice; else 0). Choices that only build a
    /// group (picking a unit to move or to fight) are not logged on their own: the line that
    /// ends the choice names the whole group.
    Step {
        side: u8,
        action: Action,
        phase: super::state::Phase,
        group: super::state::Units,
    },
    /// 6.4: a group moved one region (one line for the whole group).
    Marched {
        side: u8,
        group: super::state::Units,
        from: u8,
        to: u8,
    },
    /// 6.4.2: units the group left behind in `at` (one line for all of them).
    Dropped {
        side: u8,
        group: super::state::Units,
        at: u8,
    },
    TurnStart {
        turn: u8,
        card: u8,
        british: u8,
        patriot: u8,
        hash: u8,
    },
    FirstPlayer {
        side: u8,
        die: u8,
    },
    /// The Patriot hidden-militia marker revealed as a piece of this strength (4.1).
    Reveal {
        unit: u8,
        value: u8,
    },
    /// A combat or other roll: dice rolled and hits scored.
    Roll {
        side: u8,
        dice: u8,
        hits: u8,
        section: &'static str,
        /// The faces rolled.
        faces: muster_core::words::Faces,
        /// What a die needs to hit: 6 for every roll but combat's, where each unit hits on its
        /// own number (0: more than one number in the roll).
        need: u8,
    },
    /// A single die with its result.
    Die {
        side: u8,
        unit: u8,
        die: u8,
        section: &'static str,
    },
    Broken {
        unit: u8,
    },
    Wounded {
        unit: u8,
    },
    Removed {
        unit: u8,
    },
    /// 6.8: the units one Rally action flipped back (one line for all of them).
    Rallied {
        side: u8,
        group: super::state::Units,
    },
    /// 6.8: a leader that performed a rally gets a Rally marker.
    RallyMarker {
        unit: u8,
    },
    /// 7.1.2: a moved unit retreats accompanied by a leader or Minuteman (`true`), or not.
    Escorted {
        unit: u8,
        escorted: bool,
    },
    Captured {
        unit: u8,
    },
    Escaped {
        unit: u8,
    },
    /// A card drawn for a search or capture, with the marks left after Patriot units.
    SearchCard {
        card: u8,
        hash: u8,
        net: u8,
        son: u8,
    },
    /// 14.5: a card drawn at the end for an unsearched unnumbered Hidden Arms marker, from
    /// all the cards shuffled together (without replacement), and the VP it gives.
    ArmsCard {
        region: u8,
        card: u8,
        hash: u8,
        points: u8,
    },
    /// Gather Intelligence: the cards seen (only that side reads this).
    Peek {
        side: u8,
        top: u8,
        second: u8,
    },
    Flipped {
        region: u8,
    },
    MusterRemoved {
        region: u8,
    },
    AlertRemoved {
        region: u8,
    },
    Vp {
        side: u8,
        halves: i16,
        cause: u8,
    },
    Shot,
    Concord,
    PercyArrives,
    PrescottActive,
    Reinforcement {
        unit: u8,
        region: u8,
        die: u8,
    },
    Reshuffle,
    TurnEnd {
        turn: u8,
    },
    GameOver {
        winner: u8,
    },
}
