//! The state of a battle: plain data, saved and loaded as the position format
//! (`docs/protocol.md`). Units appear in roster order; phases refer to units by that index.

use crate::data::{MAX_UNITS, SIDE_IDS};
use arrayvec::ArrayVec;
use muster_core::hex::Hex;
use muster_core::{Dice, Key};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A side, written "american" or "british".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideId(pub u8);

impl SideId {
    pub fn other(self) -> SideId {
        SideId(1 - self.0)
    }
}

impl Serialize for SideId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(SIDE_IDS[self.0 as usize & 1])
    }
}

impl<'de> Deserialize<'de> for SideId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        SIDE_IDS
            .iter()
            .position(|x| *x == s)
            .map(|i| SideId(i as u8))
            .ok_or_else(|| serde::de::Error::custom(format!("unknown side {s:?}")))
    }
}

/// A number per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PerSide {
    pub american: u8,
    pub british: u8,
}

impl PerSide {
    pub fn get(&self, side: u8) -> u8 {
        if side == 0 {
            self.american
        } else {
            self.british
        }
    }
    pub fn get_mut(&mut self, side: u8) -> &mut u8 {
        if side == 0 {
            &mut self.american
        } else {
            &mut self.british
        }
    }
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Map(Hex),
    /// A reinforcement that has not entered yet.
    Pending,
    /// Oriskany: not yet set up.
    Unplaced,
    Eliminated,
    /// Left the map at the exit hex (Oriskany).
    Exited,
    /// Not in this position at all (hand-built positions and puzzles).
    Absent,
}

impl Serialize for Loc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Loc::Map(h) => s.collect_str(h),
            Loc::Pending => s.serialize_str("pending"),
            Loc::Unplaced => s.serialize_str("unplaced"),
            Loc::Eliminated => s.serialize_str("eliminated"),
            Loc::Exited => s.serialize_str("exited"),
            Loc::Absent => s.serialize_str("absent"),
        }
    }
}

impl<'de> Deserialize<'de> for Loc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(match s.as_str() {
            "pending" => Loc::Pending,
            "unplaced" => Loc::Unplaced,
            "eliminated" => Loc::Eliminated,
            "exited" => Loc::Exited,
            "absent" => Loc::Absent,
            other => Loc::Map(other.parse().map_err(|e: String| {
                serde::de::Error::custom(format!(
                    "{e}; or one of pending, unplaced, eliminated, exited, absent"
                ))
            })?),
        })
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One counter's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: Key,
    pub at: Loc,
    /// Showing its reduced side.
    #[serde(default, skip_serializing_if = "is_false")]
    pub reduced: bool,
    /// Has moved (or chosen to stay) this turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub moved: bool,
    /// Has attacked this turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub attacked: bool,
    /// Has been the target of an attack this turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub defended: bool,
    /// Rallied this turn, so may not move (§9.3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub rallied: bool,
}

impl Unit {
    pub fn hex(&self) -> Option<Hex> {
        match self.at {
            Loc::Map(h) => Some(h),
            _ => None,
        }
    }
}

/// Units in one attack, in the order the attacker committed them.
pub type Attackers = ArrayVec<u8, 6>;

/// An attack after it has been committed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub target: u8,
    pub attackers: Attackers,
    /// The unit given +2 CF by a Leadership point (§9.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<u8>,
    /// The defender got +2 CF from an Artillery point (§8.1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub support: bool,
    /// The defender's hex when the attack was declared.
    pub hex: Hex,
    /// Did the attacker win?
    #[serde(default, skip_serializing_if = "is_false")]
    pub attacker_won: bool,
}

/// Where the game stands: whose decision, and about what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Phase {
    /// Free set-up (Oriskany, §12): `side` places its next unplaced unit.
    Setup { side: SideId },
    /// The active player may try one Rally before moving (§9.3).
    Rally,
    /// The active player places its next arriving reinforcement (§5.3).
    Reinforce,
    /// The active player moves units one at a time (§5).
    Movement {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        selected: Option<u8>,
        /// A Leadership point gives the selected unit +2 MP (§9.1).
        #[serde(default, skip_serializing_if = "is_false")]
        force_march: bool,
    },
    /// After movement, the non-active player may fire artillery at a unit (§8.2).
    ArtilleryFire,
    /// The owner of a unit hit by artillery picks its retreat hex (§8.2, §6.6).
    ArtilleryRetreat { unit: u8 },
    /// The active player picks the next defender, or ends the turn (§6.1).
    Attacks,
    /// The active player names the attackers of one defender (§6.1).
    Declare {
        target: u8,
        attackers: Attackers,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        charge: Option<u8>,
    },
    /// The non-active player may add artillery to the defender before the dice (§8.1).
    Support { battle: Battle },
    /// The attacker, having lost, picks which attacking unit takes each loss (§6.5).
    Losses { battle: Battle, remaining: u8 },
    /// The losing side retreats its units one at a time, in this order (§6.6).
    Retreat { battle: Battle, queue: Attackers },
    /// The winning attacker may move one attacking unit into the vacated hex (§6.6).
    Advance { battle: Battle },
    /// The game is over.
    Over,
}

/// The members each step of a phase may have besides `step` (`docs/protocol/battles.md`).
fn phase_members(step: &str) -> Option<&'static [&'static str]> {
    Some(match step {
        "setup" => &["side"],
        "rally" | "reinforce" | "artillery-fire" | "attacks" | "over" => &[],
        "movement" => &["selected", "force_march"],
        "artillery-retreat" => &["unit"],
        "declare" => &["target", "attackers", "charge"],
        "support" | "advance" => &["battle"],
        "losses" => &["battle", "remaining"],
        "retreat" => &["battle", "queue"],
        _ => return None,
    })
}

/// Reads a phase, refusing members its step does not have. (Serde's internally tagged enums
/// ignore unknown members of the steps that have none, such as `{"step":"rally","x":1}`; the
/// protocol promises that unknown members are refused everywhere in `state`.)
fn strict_phase<'de, D: Deserializer<'de>>(d: D) -> Result<Phase, D::Error> {
    use serde::de::Error;
    let map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
    if let Some(step) = map.get("step").and_then(|v| v.as_str())
        && let Some(members) = phase_members(step)
        && let Some(k) = map
            .keys()
            .find(|k| *k != "step" && !members.contains(&k.as_str()))
    {
        return Err(D::Error::custom(if members.is_empty() {
            format!("unknown member {k:?} in step {step:?}, which has no other members")
        } else {
            format!("unknown member {k:?} in step {step:?}; its other members are {members:?}")
        }));
    }
    Phase::deserialize(serde_json::Value::Object(map)).map_err(D::Error::custom)
}

/// Options of one game (see `GameInfo::options`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Opts {
    /// Oriskany: the storm's −1 MP applies on every turn instead of only turns 7–8.
    #[serde(default, skip_serializing_if = "is_false")]
    pub storm_all_day: bool,
}

/// Why the game ended (§10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A side reached its VP goal: instant victory.
    VpGoal,
    /// The last turn ended; most VP wins, ties to the Americans.
    LastTurn,
}

/// The end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    pub winner: SideId,
    pub vp: PerSide,
    pub reason: EndReason,
}

/// The whole state of a battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub scenario: Key,
    #[serde(default)]
    pub options: Opts,
    pub turn: u8,
    pub active: SideId,
    #[serde(deserialize_with = "strict_phase")]
    pub phase: Phase,
    pub leadership: PerSide,
    pub artillery: PerSide,
    /// The active player has used its Leadership point this turn (§9).
    #[serde(default, skip_serializing_if = "is_false")]
    pub leader_used: bool,
    /// The non-active player has used its Artillery point this turn (§8).
    #[serde(default, skip_serializing_if = "is_false")]
    pub artillery_used: bool,
    pub units: ArrayVec<Unit, MAX_UNITS>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ended>,
    pub dice: Dice,
}
