//! The state of a game: plain data, saved and loaded as the position format
//! (`docs/protocol.md`). Areas appear in map order; phases refer to areas by that index.

use crate::data::{MAX_AREAS, SIDE_IDS};
use arrayvec::ArrayVec;
use muster_core::{Dice, Key};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A side, written "patriot" or "crown".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideId(pub u8);

impl SideId {
    pub const PATRIOT: SideId = SideId(0);
    pub const CROWN: SideId = SideId(1);
    pub fn other(self) -> SideId {
        SideId(1 - self.0)
    }
    pub fn is_crown(self) -> bool {
        self.0 == 1
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

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// One area: who occupies it, with how many Units and Leaders, and the supplies there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub id: Key,
    /// The side whose army is here (none when `units` is zero).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<SideId>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub units: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub leaders: u8,
    /// Food (green) supply cubes stored here or carried by the army here.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub food: u8,
    /// War (natural wood) supply cubes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub war: u8,
    /// Covered by a Dug-In marker (§7.5).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dug_in: bool,
    /// Carries a Destroyed City marker (§7.7).
    #[serde(default, skip_serializing_if = "is_false")]
    pub destroyed: bool,
}

impl Area {
    pub fn cubes(&self) -> u8 {
        // Saturating: a loaded position may carry any u8 here until `validate` refuses it.
        self.food.saturating_add(self.war)
    }
    pub fn held_by(&self, side: SideId) -> bool {
        self.units > 0 && self.side == Some(side)
    }
    pub fn enemy_of(&self, side: SideId) -> bool {
        self.units > 0 && self.side == Some(side.other())
    }
}

/// A supply move being chosen (§5.3): source, then destination, then kind and count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Pick {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u8>,
}

impl Pick {
    pub fn is_empty(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }
}

/// What an army is activated for (§7.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    March,
    Transport,
    Attack,
    Skirmish,
    DigIn,
    Bombard,
    Destroy,
}

impl Order {
    pub const ALL: [Order; 7] = [
        Order::March,
        Order::Transport,
        Order::Attack,
        Order::Skirmish,
        Order::DigIn,
        Order::Bombard,
        Order::Destroy,
    ];
    pub fn word(self) -> &'static str {
        match self {
            Order::March => "march",
            Order::Transport => "transport",
            Order::Attack => "attack",
            Order::Skirmish => "skirmish",
            Order::DigIn => "dig-in",
            Order::Bombard => "bombard",
            Order::Destroy => "destroy",
        }
    }
    pub fn section(self) -> &'static str {
        match self {
            Order::March => "7.1",
            Order::Transport => "7.2",
            Order::Attack => "7.3",
            Order::Skirmish => "7.4",
            Order::DigIn => "7.5",
            Order::Bombard => "7.6",
            Order::Destroy => "7.7",
        }
    }
}

/// A detachment being formed for a March, Attack, Skirmish, Transport or Bombard: the
/// destination, then Units, Leaders, carried Food and carried War, one decision each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Group {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaders: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub food: Option<u8>,
}

/// An activation in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Activation {
    pub order: Order,
    pub origin: u8,
    /// March: Units activated and not yet moved (§7.1). `None` until a Leader's army has
    /// chosen how many Units it activates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<u8>,
    /// March: at least one detachment has moved.
    #[serde(default, skip_serializing_if = "is_false")]
    pub moved: bool,
    #[serde(default)]
    pub group: Group,
    /// §5.3 (rulings S16): a supply move being chosen between two detachments of a March.
    #[serde(default, skip_serializing_if = "Pick::is_empty")]
    pub pick: Pick,
}

/// A battle in progress (§8.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub attacker: SideId,
    /// The area the attacker began the impulse in.
    pub origin: u8,
    pub target: u8,
    pub units: u8,
    pub leaders: u8,
    /// Supplies the attacking army carries (§5.5).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub food: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub war: u8,
    /// Battle dice earned by the attacker (§8.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dice: u8,
}

/// Where the game stands: whose decision, and about what.
///
/// Read through [`PhaseIn`], whose steps without members are empty structs, so that an
/// unknown member is refused in every step (serde ignores members given to a unit variant of
/// an internally tagged enum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "step",
    rename_all = "kebab-case",
    deny_unknown_fields,
    from = "PhaseIn"
)]
pub enum Phase {
    /// §5.2: the Crown chooses how many of Nova Scotia's supplies are Food (the rest War).
    NovaScotia { output: u8 },
    /// §5.3: `side` moves supplies in the Supply Phase.
    Supply {
        side: SideId,
        #[serde(default)]
        pick: Pick,
    },
    /// §5.7: the Crown may request reinforcements.
    Request,
    /// §7.0: `side`'s impulse, before it activates an army or passes.
    Impulse {
        side: SideId,
        #[serde(default)]
        pick: Pick,
        /// Supplies have moved this impulse, so it may not be a passing one (§7.0).
        #[serde(default, skip_serializing_if = "is_false")]
        moved: bool,
    },
    /// §7.1-§7.6: an activation being carried out.
    Activate { side: SideId, act: Activation },
    /// §7.0: after the activation, `side` may move supplies again.
    After {
        side: SideId,
        #[serde(default)]
        pick: Pick,
    },
    /// §8.1: the defender accepts or refuses battle.
    Refuse { battle: Battle },
    /// §8.1: a defender with a Leader refusing battle picks the Food, then the War, it takes.
    RefuseCarry {
        battle: Battle,
        to: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        food: Option<u8>,
    },
    /// §8.2: the attacker chooses how many War supplies to expend.
    AttackerCommit { battle: Battle },
    /// §8.3: the defender chooses how many War supplies to expend.
    DefenderCommit { battle: Battle },
    /// §8.7: the defeated defender picks where to retreat.
    Retreat { battle: Battle },
    /// §10.1: the Patriot places the third Leader with one of his armies.
    PlaceLeader,
    /// The game is over.
    Over,
}

/// The form `phase` is read in: [`Phase`] with every step a struct (see there).
#[derive(Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PhaseIn {
    NovaScotia {
        output: u8,
    },
    Supply {
        side: SideId,
        #[serde(default)]
        pick: Pick,
    },
    Request {},
    Impulse {
        side: SideId,
        #[serde(default)]
        pick: Pick,
        #[serde(default)]
        moved: bool,
    },
    Activate {
        side: SideId,
        act: Activation,
    },
    After {
        side: SideId,
        #[serde(default)]
        pick: Pick,
    },
    Refuse {
        battle: Battle,
    },
    RefuseCarry {
        battle: Battle,
        to: u8,
        #[serde(default)]
        food: Option<u8>,
    },
    AttackerCommit {
        battle: Battle,
    },
    DefenderCommit {
        battle: Battle,
    },
    Retreat {
        battle: Battle,
    },
    PlaceLeader {},
    Over {},
}

impl From<PhaseIn> for Phase {
    fn from(p: PhaseIn) -> Phase {
        match p {
            PhaseIn::NovaScotia { output } => Phase::NovaScotia { output },
            PhaseIn::Supply { side, pick } => Phase::Supply { side, pick },
            PhaseIn::Request {} => Phase::Request,
            PhaseIn::Impulse { side, pick, moved } => Phase::Impulse { side, pick, moved },
            PhaseIn::Activate { side, act } => Phase::Activate { side, act },
            PhaseIn::After { side, pick } => Phase::After { side, pick },
            PhaseIn::Refuse { battle } => Phase::Refuse { battle },
            PhaseIn::RefuseCarry { battle, to, food } => Phase::RefuseCarry { battle, to, food },
            PhaseIn::AttackerCommit { battle } => Phase::AttackerCommit { battle },
            PhaseIn::DefenderCommit { battle } => Phase::DefenderCommit { battle },
            PhaseIn::Retreat { battle } => Phase::Retreat { battle },
            PhaseIn::PlaceLeader {} => Phase::PlaceLeader,
            PhaseIn::Over {} => Phase::Over,
        }
    }
}

/// Why the game ended (§13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// §2.2, §13.1, §13.2: a side has no Leader left on the map.
    NoLeaders,
    /// §11.2: the Support Marker reached the Treaty of Alliance.
    Treaty,
    /// §13.1: the fourth Crown marker was taken and the Crown did not win that year.
    FourthMarker,
    /// §12.0: an asterisk deadline passed without the Victory Cities required.
    Expectations,
    /// §13.2: New York and Albany (and Philadelphia after the Declaration) at Turn End.
    HudsonLine,
    /// §13.2: the required Victory Cities at the end of the game.
    VictoryCities,
    /// §13.3: the last turn ended and nobody won; both lose.
    Draw,
    /// §13.4: a player conceded.
    Concession,
}

/// The end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    pub winner: Option<SideId>,
    pub reason: EndReason,
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub scenario: Key,
    pub turn: u8,
    pub phase: Phase,
    pub areas: ArrayVec<Area, MAX_AREAS>,
    /// Index of the Support Marker's space (§11.0).
    pub support: u8,
    /// The Declaration of Independence has occurred (§11.1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub declared: bool,
    /// Index of the Pass Marker's space (§7.0).
    pub pass: u8,
    /// The last impulse was a pass (two in a row end the phase, §7.0).
    #[serde(default, skip_serializing_if = "is_false")]
    pub passed: bool,
    /// Each side's Attack or Skirmish this Winter Turn (§10.0), indexed by side.
    #[serde(default)]
    pub winter_attack: [bool; 2],
    /// Numbered Crown reinforcement markers taken from the track (§5.7).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub crown_taken: u8,
    /// The Triumvirate marker has been taken from the track (§12.1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub triumvirate: bool,
    /// Markers waiting in Nova Scotia: bit i for numbered marker i+1, bit 7 the Triumvirate;
    /// bit 6 when the Triumvirate was taken before the numbered marker waiting with it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub in_nova: u8,
    /// Turns whose Turn End checks an asterisk deadline (§12.0), as bits (bit t = turn t).
    #[serde(default)]
    pub deadlines: u64,
    /// The Turn End by which the Crown must have won, after the fourth marker (§13.1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub last_chance: u8,
    /// The Patriot has attacked Quebec (§11.0: only the first time counts).
    #[serde(default, skip_serializing_if = "is_false")]
    pub quebec_attacked: bool,
    /// Patriot reinforcement markers in the cup, and drawn and set aside (bits, §9.0).
    pub cup: u32,
    #[serde(default)]
    pub drawn: u32,
    pub ended: Option<Ended>,
    pub dice: Dice,
}

impl State {
    pub fn area(&self, a: u8) -> &Area {
        &self.areas[a as usize]
    }
    pub fn area_mut(&mut self, a: u8) -> &mut Area {
        &mut self.areas[a as usize]
    }
    /// Areas held by `side`'s armies, as bits.
    pub fn held(&self, side: SideId) -> u64 {
        let mut m = 0;
        for (i, a) in self.areas.iter().enumerate() {
            if a.held_by(side) {
                m |= 1 << i;
            }
        }
        m
    }
    /// Areas with any army, as bits.
    pub fn occupied(&self) -> u64 {
        let mut m = 0;
        for (i, a) in self.areas.iter().enumerate() {
            if a.units > 0 {
                m |= 1 << i;
            }
        }
        m
    }
    /// Leaders on the map (the Triumvirs may wait in Nova Scotia without Units, §12.1).
    pub fn leaders_of(&self, side: SideId) -> u32 {
        self.areas
            .iter()
            .filter(|a| a.side == Some(side))
            .map(|a| a.leaders as u32)
            .sum()
    }
    pub fn units_of(&self, side: SideId) -> u32 {
        self.areas
            .iter()
            .filter(|a| a.held_by(side))
            .map(|a| a.units as u32)
            .sum()
    }
    pub fn food_on_map(&self) -> u32 {
        self.areas.iter().map(|a| a.food as u32).sum()
    }
    pub fn war_on_map(&self) -> u32 {
        self.areas.iter().map(|a| a.war as u32).sum()
    }
}
