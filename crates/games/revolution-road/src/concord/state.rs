//! The state of a game of From Boston to Concord: plain data with no heap, saved and loaded as
//! the position format. Units appear in the scenario's roster order and are named by index;
//! region numbers are indices into the map (`data/map.toml`).

use crate::common::{Deck, MilitiaPool};
use arrayvec::ArrayVec;
use muster_core::Dice;
use serde::{Deserialize, Serialize};

/// Side indices (the order of `GameInfo::sides`).
pub const PATRIOT: u8 = 0;
pub const BRITISH: u8 = 1;
pub const SIDE_IDS: [&str; 2] = ["patriot", "british"];
pub use crate::common::{SIDE_NAMES, SIDE_PEOPLE};

/// Most units a scenario may hold (the roster plus spare hidden-militia slots).
pub const MAX_UNITS: usize = 64;
/// Most regions (on-map regions and off-map alert boxes).
pub const MAX_REGIONS: usize = 40;
/// A set of units by index.
pub type Units = u64;
/// A set of regions by index.
pub type Regions = u64;

/// What a counter is (4.1-4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Regular,
    Cannon,
    Leader,
    /// A militia piece whose strength is known (`Unit::value`).
    Militia,
    /// A hidden-value militia marker (4.1); exchanged for a pool piece when revealed.
    Hidden,
    Minuteman,
    /// Adams or Hancock (4.4).
    Son,
    /// Revere, Dawes or Prescott (4.4).
    Rider,
}

impl Kind {
    /// A military unit (not a leader, Son of Liberty or Nightrider). The cannon is a British
    /// unit but has no strength (4.1).
    pub fn military(self) -> bool {
        matches!(
            self,
            Kind::Regular | Kind::Cannon | Kind::Militia | Kind::Hidden | Kind::Minuteman
        )
    }
    pub fn militia(self) -> bool {
        matches!(self, Kind::Militia | Kind::Hidden)
    }
}

/// Where a counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loc {
    /// In a region or an off-map alert box (by map index).
    At(u8),
    /// In the Nightrider box of a map edge: 0 top, 1 left, 2 bottom (6.12).
    Edge(u8),
    /// On the turn track, not yet arrived (Percy, 12.0).
    Pending,
    /// Destroyed, killed, taken to Boston, or a revealed hidden marker (out of the game).
    Removed,
    /// A spare hidden-militia slot not in use.
    Spare,
}

impl Loc {
    pub fn region(self) -> Option<u8> {
        match self {
            Loc::At(r) => Some(r),
            _ => None,
        }
    }
}

fn no(b: &bool) -> bool {
    !*b
}

/// One counter's changing state. Its identity (id, kind at set-up, side, Percy's dot) is in
/// the roster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub kind: Kind,
    pub at: Loc,
    /// Militia strength once known (4.1).
    #[serde(default)]
    pub value: u8,
    /// Broken unit, wounded leader, or captured Son of Liberty / Nightrider.
    #[serde(default, skip_serializing_if = "no")]
    pub flipped: bool,
    /// Under a Gather, Muster or Alert marker: not active (4.3).
    #[serde(default, skip_serializing_if = "no")]
    pub under: bool,
    #[serde(default, skip_serializing_if = "no")]
    pub moved: bool,
    #[serde(default, skip_serializing_if = "no")]
    pub fired: bool,
    /// Carries a Rally marker (6.8).
    #[serde(default, skip_serializing_if = "no")]
    pub rallied: bool,
    /// Marched at least two regions along a road this turn (6.7).
    #[serde(default, skip_serializing_if = "no")]
    pub marched: bool,
    /// Turn of capture (6.10) or of leaving the map (6.12).
    #[serde(default)]
    pub since: u8,
}

/// Where a Hinder marker is (6.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "kebab-case")]
pub enum HinderAt {
    Available,
    /// On the map, in a region, with the number of turns it has left (2 or 1).
    Map {
        region: u8,
        turns: u8,
    },
    /// Removed by the opponent: on the next turn space of the turn track.
    Track,
}

/// The three Hinder markers (6.11).
pub const HINDER_MOVEMENT: u8 = 0;
pub const HINDER_MUSTER: u8 = 1;
pub const HINDER_SEARCH: u8 = 2;
pub const HINDER_NAMES: [&str; 3] = ["movement", "muster", "search"];
/// Which side places each Hinder marker.
pub const HINDER_OWNER: [u8; 3] = [PATRIOT, BRITISH, PATRIOT];

/// Gather marker sides (4.3, 4.5).
pub const NO_MARKER: u8 = 0;
pub const GATHER: u8 = 1;
pub const MUSTER: u8 = 2;

/// Hidden Arms marker states (4.7).
pub const ARMS_NONE: u8 = 0;
pub const ARMS_HIDDEN: u8 = 1;
pub const ARMS_SEARCHED: u8 = 2;

/// Game options (14.1-14.5, 12.0 FAQ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Opts {
    /// 14.1 Leader re-rolls.
    pub leader_rerolls: bool,
    /// 14.2 Opportunity fire during movement.
    pub movement_fire: bool,
    /// 14.3 Hancock and Adams move one region.
    pub hobbled_sons: bool,
    /// 14.4 Militia hit on 6, Minutemen on 5-6.
    pub militia_six: bool,
    /// 14.5: 0 standard, 1 no VP, 2 one card each (any marks: 1 VP), 3 one card each (marks).
    pub arms_balance: u8,
    /// 12.0 FAQ: Percy arrives on turn 8.
    pub percy_turn_8: bool,
}

/// Which rules apply: the two-player game or a solitaire scenario (15.2-15.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Standard,
    /// 15.3: the player is British, the Patriot side is a bot.
    SolitaireBritish,
    /// 15.4: the player is Patriot, the British side is a bot.
    SolitairePatriot,
}

impl Mode {
    pub fn solitaire(self) -> bool {
        self != Mode::Standard
    }
    pub fn id(self) -> &'static str {
        match self {
            Mode::Standard => "standard",
            Mode::SolitaireBritish => "solitaire-british",
            Mode::SolitairePatriot => "solitaire-patriot",
        }
    }
}

/// Causes of Victory Points (the VP aid); the track is their sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cause {
    Destroyed = 0,
    Killed,
    Search,
    Concord,
    Percy,
    FirstShot,
    RedrawCost,
    Delivered,
    EndBroken,
    EndWounded,
    EndCaptured,
    Arms,
    PercyMissed,
    Objectives,
}
pub const CAUSES: usize = 14;
pub const CAUSE_NAMES: [&str; CAUSES] = [
    "destroyed units",
    "killed leaders",
    "searches",
    "Concord",
    "Percy at Lexington",
    "first shot",
    "capture redraws",
    "captives taken to Boston",
    "broken units at the end",
    "wounded leaders at the end",
    "captives at the end",
    "hidden arms",
    "Percy did not reach Lexington",
    "solitaire objectives",
];

/// Victory points by cause, in half points (15.2 counts broken units as 1/2), by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Ledger(pub [[i16; CAUSES]; 2]);

impl Ledger {
    pub fn add(&mut self, side: u8, cause: Cause, half_points: i16) {
        self.0[side as usize & 1][cause as usize] += half_points;
    }
    /// Half points of a side.
    pub fn halves(&self, side: u8) -> i16 {
        self.0[side as usize & 1].iter().sum()
    }
}

/// A unit taking part in a battle, by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub attacker: u8,
    pub region: u8,
    /// The Assault's origin (6.2), or 255 for an Attack.
    pub from: u8,
    pub attackers: Units,
    pub defenders: Units,
    /// Units chosen to retreat, or retreated this battle (7.1).
    pub retreating: Units,
    /// Units that lost a step in the battle, by side (7.1.4).
    pub lost: [bool; 2],
    /// Combat dice were rolled (10.0).
    pub fired: bool,
    /// Scratch: packed step data while the cannon breaks a unit in a move (4.1).
    pub after_side: u8,
    /// Where the retreating units go (7.1).
    pub dest: u8,
    /// Hits scored on each side not yet applied, by side (7.0).
    pub pending: [u8; 2],
    /// 14.1: the units of each side with a missed die in that side's last combat roll, while
    /// the side may still choose one to re-roll.
    #[serde(default)]
    pub missed: [Units; 2],
    /// 8.1: the search still has the hidden arms to draw for.
    #[serde(default)]
    pub arms: bool,
}

/// Where a hit allocation returns to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Then {
    /// Finish the action.
    Done,
    /// 7.1.2: after the hit for retreating moved units, retreat them.
    RetreatMoved,
    /// 7.0: the attacker's hit for simultaneous combat is applied; roll.
    RollSimultaneous,
    /// 7.0: the defender's fire is applied; the attacker rolls.
    AttackerFires,
    /// 7.0: the defender applies the attacker's hits after defensive fire.
    AfterCombat,
    /// 7.0 simultaneous: the attacker's hits on the defender come next.
    DefenderTakes,
    /// 7.1.2 / 7.1.3: the retreat is over; OpFire may follow.
    AfterRetreat,
    /// 6.3: the British hit is applied; the Patriot takes the charge's hits.
    ChargePatriot,
    /// 6.3: the Patriot's hits are applied; he retreats broken units.
    ChargeRetreat,
    /// 7.1.4: a retreat after combat took its extra hit; the next side may retreat.
    NextAfterRetreat,
    /// 6.4 / 14.2: a movement hit is applied; the move continues.
    MoveOn,
    /// 14.1 simultaneous combat: the attacker has decided on a re-roll; the defender may.
    SimDefenderReroll,
    /// 7.0 simultaneous combat: both rolls are final; the attacker takes its hits.
    SimHits,
    /// 7.0 defensive fire is final; the attacker takes its hits.
    DefenderFireHits,
    /// 7.0 the attacker's fire is final; the defender takes its hits.
    AttackerFireHits,
}

/// What is being decided now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// 6.12 / 9.0: Nightriders spend Activity Points. `rider` is the one riding (255: none).
    Riders {
        opening: bool,
        rider: u8,
        ap: u8,
        done: u8,
    },
    /// 4.3: a Minuteman freed by a flipped Gather marker may move up to two regions, at once
    /// (the interrupted decision waits in `State::resume`).
    Muster {
        unit: u8,
    },
    /// 7.1.2: the side retreating moved units chooses which of them its escorts accompany
    /// (Patriot: militia with healthy leaders and unbroken Minutemen; British: unbroken
    /// Regulars with healthy leaders). `picked`: chosen so far.
    Escort {
        picked: Units,
    },
    /// 14.1: a side with a healthy leader in the combat region may re-roll one missed die of
    /// its last combat roll; `then` continues the combat.
    Reroll {
        side: u8,
        then: Then,
    },
    /// 5.2: the side to act chooses an action. `reserve`: it is paid from the reserve.
    Round {
        reserve: bool,
    },
    /// 6.4: moving units out of `from`. `group` is the group on the way at `at`.
    Move {
        from: u8,
        group: Units,
        at: u8,
        steps: u8,
        /// The group has marched along a road (it may go on) rather than scouted.
        road: bool,
        /// A cannon in this move already broke a unit (4.1).
        cannon_used: bool,
        /// Hits from fire during the move the mover must still apply (14.2, 15.2).
        hits: u8,
        /// Solitaire opportunity-fire hits scored in this move action (15.2: two at most).
        fire_hits: u8,
    },
    /// 4.1: the Patriot chooses the unit the cannon breaks; then `then` continues.
    CannonBreak {
        region: u8,
        in_move: bool,
    },
    /// 6.4.2: the mover chooses the unit a forced march breaks.
    ForcedBreak {
        from: u8,
        group: Units,
    },
    /// 4.4: Adams or Hancock moving.
    MoveSon {
        unit: u8,
        steps: u8,
    },
    /// 6.5: units joining an Assemble from `from` to `to`.
    Assemble {
        from: u8,
        to: u8,
        group: Units,
        /// Paid from the reserve (5.2): said in the action's one log line.
        #[serde(default)]
        reserve: bool,
    },
    /// 7.0: the attacker chooses units for an Attack or Assault.
    Attackers,
    /// 7.1: the defender picks units to retreat before combat.
    RetreatPick,
    /// 7.1: the retreating side chooses where its picked units go.
    /// `mode`: 0 before combat (7.1.1-7.1.2), 1 after combat (7.1.4), 2 after a Charge (6.3).
    RetreatTo {
        side: u8,
        mode: u8,
    },
    /// 7.1.3: the attacker may fire on a force that retreated entirely.
    OpFire,
    /// 7.0: the defender picks participants.
    Defenders,
    /// 7.0: the attacker chooses simultaneous combat or defensive fire.
    FireMode,
    /// 7.1.4: a side that lost a step picks units to retreat after combat.
    AfterPick {
        side: u8,
    },
    /// A side allocates `n` hits to units in `region`, `first` before others.
    Hits {
        side: u8,
        region: u8,
        n: u8,
        first: Units,
        among: Units,
        then: Then,
    },
    /// 4.1: after a Patriot retreat before combat the British may advance the cannon and
    /// units with it (at least one Regular) into an adjacent region.
    Advance {
        picked: Units,
    },
    /// 6.3: the Patriot may take up to two leaders along with the broken units.
    ChargeLeaders {
        region: u8,
        taken: u8,
    },
    /// 6.6: the Patriot picks the two Regulars to ambush.
    Ambush {
        region: u8,
        picked: Units,
    },
    /// 6.8: units to rally in a region; `left` flips remain.
    Rally {
        region: u8,
        left: u8,
    },
    /// 6.8: the player names the leaders that performed the rally (they get Rally markers),
    /// one at a time, until they cover the `need` flips made.
    RallyLeaders {
        region: u8,
        need: u8,
    },
    /// 8.0: the British choose what the search draws for next in `region`: the hidden arms
    /// or one of the Sons of Liberty there.
    SearchNext {
        region: u8,
    },
    /// 8.2: a capture draw failed; the British may pay 1 VP for another.
    Redraw {
        region: u8,
        son: u8,
    },
    /// 8.2 / 6.10: the Patriot may move a Son of Liberty (or escaped piece) to an adjacent region.
    SonAway {
        unit: u8,
        optional: bool,
    },
    /// 5.3: the British may move a captive up to two regions toward Boston.
    Captives {
        unit: u8,
        steps: u8,
    },
    Over,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    pub winner: u8,
    /// 11.0: the British never reached Concord.
    pub automatic: bool,
}

/// The whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub mode: Mode,
    pub options: Opts,
    pub turn: u8,
    pub deck: Deck,
    /// The card of this turn (5.1), 0 before the first.
    pub card: u8,
    /// Actions left on each side's track, by side (5.1).
    pub actions: [u8; 2],
    pub reserves: [u8; 2],
    /// The side whose action round it is (5.2).
    pub mover: u8,
    pub units: ArrayVec<Unit, MAX_UNITS>,
    pub pool: MilitiaPool,
    /// Gather marker side per region (4.3).
    pub gather: ArrayVec<u8, MAX_REGIONS>,
    /// Hidden Arms marker per region (4.7).
    pub arms: ArrayVec<u8, MAX_REGIONS>,
    /// Alert marker present per region (only alert boxes carry one, 4.6).
    pub alert: ArrayVec<bool, MAX_REGIONS>,
    pub hinder: [HinderAt; 3],
    pub ambushed: Regions,
    pub sniped: Regions,
    /// Regions holding British units after the last decision (4.3: departures flip Gather).
    pub british_in: Regions,
    /// Minutemen waiting for their free move (4.3).
    pub mustering: Units,
    /// 4.3: the decision a Minuteman's free move interrupted, taken up again after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Phase>,
    /// 6.4.2: units dropped off by the group on the way since its last step, logged as one
    /// line when the group goes on or stops (issue 17: one line for a group's decision).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: Units,
    /// 6.8: units rallied so far in the current Rally action, logged as one line when the
    /// rally ends (issue 17: one line for a group's decision).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rallying: Units,
    /// 10.0: the Shot Heard 'Round the World has happened.
    pub shot: bool,
    /// 11.0: an unbroken Regular has entered Concord.
    pub concord: bool,
    /// 12.0: Percy's one-time award has been made.
    pub percy_award: bool,
    /// 6.12: a Call to Arms was taken this turn; Gather Intelligence used this turn, by side.
    pub called: bool,
    pub peeked: [bool; 2],
    /// Nightriders that removed an Alert marker this turn.
    pub alerted_by: Units,
    /// 6.12: Prescott becomes active at the start of this turn (0: not pending).
    pub prescott_turn: u8,
    pub battle: Battle,
    pub phase: Phase,
    pub vp: Ledger,
    pub ended: Option<Ended>,
    pub dice: Dice,
}

fn is_zero(u: &Units) -> bool {
    *u == 0
}
