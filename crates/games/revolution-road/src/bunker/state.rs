//! The state of a game of Bunker Hill: plain data with no heap, saved and loaded as the
//! position format. Counters are named by their index in `units`; regions by their index in
//! the map (`data/bunker-hill/map.toml`).

use crate::common::{Deck, MilitiaPool};
use arrayvec::ArrayVec;
use muster_core::Dice;
use serde::{Deserialize, Serialize};

pub const PATRIOT: u8 = 0;
pub const BRITISH: u8 = 1;
pub const SIDE_IDS: [&str; 2] = ["patriot", "british"];
pub use crate::common::{SIDE_NAMES, SIDE_PEOPLE};

pub const MAX_UNITS: usize = 80;
/// A set of counters by index.
pub type Units = u128;

/// Where a counter is: a region index below [`MUSTER`], or one of these.
pub const MUSTER: u8 = 60;
/// On the turn track, arriving at the start of turn `Unit::arrive` (12.1, 12.2 B).
pub const PENDING: u8 = 61;
pub const REMOVED: u8 = 62;
/// Waiting to be placed during set-up (12.1).
pub const SETUP: u8 = 63;
/// The Copp's Hill Battery, in Boston (4.4).
pub const COPPS: u8 = 64;
/// Not in this scenario (a deleted piece, 12.3/12.4 Charlestown objective).
pub const UNUSED: u8 = 65;

/// Counter flags.
pub const BROKEN: u8 = 1;
pub const MOVED: u8 = 2;
pub const FIRED: u8 = 4;
pub const RALLIED: u8 = 8;
pub const PANIC: u8 = 16;
/// A militia piece whose strength has not been drawn from the pool yet (4.1, 12.1).
pub const HIDDEN: u8 = 32;

/// What a counter is (4.1-4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Regular,
    Marine,
    Cannon,
    Minuteman,
    Militia,
    Leader,
    /// The Copp's Hill Battery (4.4): fires only with Bombard, never moves or takes hits.
    Battery,
}

impl Kind {
    /// A military unit (counts for stacking, 3.0).
    #[inline]
    pub fn military(self) -> bool {
        !matches!(self, Kind::Leader | Kind::Battery)
    }
    pub fn code(self) -> &'static str {
        match self {
            Kind::Regular => "reg",
            Kind::Marine => "mar",
            Kind::Cannon => "gun",
            Kind::Minuteman => "mm",
            Kind::Militia => "mil",
            Kind::Leader => "ldr",
            Kind::Battery => "copps",
        }
    }
}

pub const LEADERS: [(&str, &str, u8); 14] = [
    ("gage", "Gage", BRITISH),
    ("pigot", "Pigot", BRITISH),
    ("howe", "Howe", BRITISH),
    ("abercrombie", "Abercrombie", BRITISH),
    ("clinton", "Clinton", BRITISH),
    ("ward", "Ward", PATRIOT),
    ("putnam", "Putnam", PATRIOT),
    ("prescott", "Prescott", PATRIOT),
    ("knowlton", "Knowlton", PATRIOT),
    ("callender", "Callender", PATRIOT),
    ("stark", "Stark", PATRIOT),
    ("nixon", "Nixon", PATRIOT),
    ("reed", "Reed", PATRIOT),
    ("woodbridge", "Woodbridge", PATRIOT),
];

fn no_units(u: &Units) -> bool {
    *u == 0
}

fn zero(x: &u8) -> bool {
    *x == 0
}

/// One counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub kind: Kind,
    pub side: u8,
    pub at: u8,
    #[serde(default, skip_serializing_if = "zero")]
    pub flags: u8,
    /// Militia strength once drawn (4.1); a leader's index in [`LEADERS`].
    #[serde(default, skip_serializing_if = "zero")]
    pub value: u8,
    /// Turn of arrival while pending; the landing zone of a pending British counter.
    #[serde(default, skip_serializing_if = "zero")]
    pub arrive: u8,
    #[serde(default, skip_serializing_if = "zero")]
    pub zone: u8,
}

impl Unit {
    #[inline]
    pub fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
    #[inline]
    pub fn broken(&self) -> bool {
        self.flags & BROKEN != 0
    }
    #[inline]
    pub fn on_map(&self) -> bool {
        self.at < MUSTER
    }
    #[inline]
    pub fn in_play(&self) -> bool {
        self.at <= MUSTER
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Standard,
    SolitaireBritish,
    SolitairePatriot,
}

impl Mode {
    pub fn id(self) -> &'static str {
        match self {
            Mode::Standard => "standard",
            Mode::SolitaireBritish => "solitaire-british",
            Mode::SolitairePatriot => "solitaire-patriot",
        }
    }
    pub fn solitaire(self) -> bool {
        self != Mode::Standard
    }
}

/// Optional rules (11.1-11.3 and the FAQ's solitaire rally).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Opts {
    /// 11.1: the first British hit on the Redoubt or a wall region is ignored.
    pub strong_works: bool,
    /// 11.2: spend ammunition for an extra Volley die or better defensive hits.
    pub more_ammo: bool,
    /// 11.3: British reinforcements may use any landing zone.
    pub any_zone: bool,
    /// FAQ: the solitaire rally procedure in the two-player game.
    pub solo_rally: bool,
}

/// Steps of an Assault (6.2, 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The attacker picks the assaulting counters.
    Select,
    /// The Patriot defender picks counters to withdraw before combat (7.1).
    Withdraw,
    /// The Patriot defender decides on the free defensive fire (6.2, 8.0, 11.2).
    DefFire,
    /// After a round: the attacker may fall back (7.1).
    AttBack,
    /// After a round: the defender may retreat (7.1).
    DefBack,
}

/// Written as `{"phase": "<step>", ...its members}`; reading refuses a member the step does
/// not have (see [`strict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "phase")]
pub enum Phase {
    /// 12.1: the British place five Regulars in the zone 2 staging areas.
    SetupBritish,
    /// 12.1: the Patriot places his at-start counters.
    SetupPatriot,
    /// 12.3: the British player chooses an objective (or rolls for it).
    Objective,
    /// 12.3: picking the three objectives of "any three".
    ThreePick,
    /// 12.3: picking the three landing zones of "any three".
    ZonePick,
    /// 12.4: the Patriot chooses his defence focus.
    Focus,
    /// 12.1 / 11.3: the British choose the landing zone of a reinforcement group.
    Reinforce,
    /// 9.1: the British choose the region that checks for panic.
    Panic,
    /// 5.2: the player to act chooses an action.
    Main,
    Volley {
        from: u8,
        to: u8,
        free: bool,
    },
    Assault {
        stage: Stage,
    },
    Cannonade,
    Bombard {
        which: u8,
    },
    Move {
        from: u8,
        exempt: u8,
    },
    Reorg {
        a: u8,
        b: u8,
    },
    Rally {
        region: u8,
    },
    Land {
        zone: u8,
        to: u8,
    },
    /// 12.4 British Final Fire (docs/rulings/bunker-hill.md B40).
    FinalFire,
    Over,
}

/// Strict reading of the two tagged enums. serde's derived reading of an internally tagged enum
/// ignores unknown members of its unit variants (`{"phase": "main", "x": 1}` would load), so
/// the members are checked against the variant first, then the derived reader (the `remote`
/// mirrors below, which must list the same variants) builds the value.
mod strict {
    use super::*;
    use serde::Deserializer;
    use serde::de::Error;

    /// The members each variant may have, besides its tag.
    fn members(
        tag: &str,
        of: &[(&str, &'static [&'static str])],
    ) -> Option<&'static [&'static str]> {
        of.iter().find(|(t, _)| *t == tag).map(|(_, m)| *m)
    }

    const PHASE: &[(&str, &[&str])] = &[
        ("setup-british", &[]),
        ("setup-patriot", &[]),
        ("objective", &[]),
        ("three-pick", &[]),
        ("zone-pick", &[]),
        ("focus", &[]),
        ("reinforce", &[]),
        ("panic", &[]),
        ("main", &[]),
        ("volley", &["from", "to", "free"]),
        ("assault", &["stage"]),
        ("cannonade", &[]),
        ("bombard", &["which"]),
        ("move", &["from", "exempt"]),
        ("reorg", &["a", "b"]),
        ("rally", &["region"]),
        ("land", &["zone", "to"]),
        ("final-fire", &[]),
        ("over", &[]),
    ];

    const TASK: &[(&str, &[&str])] = &[
        ("hits", &["side", "region", "n", "mode"]),
        ("scatter", &["region"]),
        ("flee", &["unit", "steps"]),
        ("retreat", &["unit", "origin"]),
        ("evacuate", &["unit"]),
        ("spread", &["from"]),
        ("assault-step", &[]),
        ("next-turn", &[]),
    ];

    fn check<E: Error>(
        v: &serde_json::Value,
        tag: &str,
        of: &[(&str, &'static [&'static str])],
    ) -> Result<(), E> {
        let Some(o) = v.as_object() else {
            return Err(E::custom(format!(
                "expected an object with a {tag:?} member"
            )));
        };
        let Some(t) = o.get(tag).and_then(|t| t.as_str()) else {
            return Err(E::custom(format!("missing the {tag:?} member (a string)")));
        };
        let Some(allowed) = members(t, of) else {
            let all: Vec<&str> = of.iter().map(|(t, _)| *t).collect();
            return Err(E::custom(format!(
                "no {tag} {t:?}; it is one of {}",
                all.join(", ")
            )));
        };
        for k in o.keys() {
            if k != tag && !allowed.contains(&k.as_str()) {
                return Err(E::custom(format!(
                    "unknown member {k:?} in {tag} {t:?} (its members: {})",
                    if allowed.is_empty() {
                        "none".to_string()
                    } else {
                        allowed.join(", ")
                    }
                )));
            }
        }
        Ok(())
    }

    #[derive(Deserialize)]
    #[serde(
        remote = "Phase",
        rename_all = "kebab-case",
        tag = "phase",
        deny_unknown_fields
    )]
    enum PhaseDe {
        SetupBritish,
        SetupPatriot,
        Objective,
        ThreePick,
        ZonePick,
        Focus,
        Reinforce,
        Panic,
        Main,
        Volley { from: u8, to: u8, free: bool },
        Assault { stage: Stage },
        Cannonade,
        Bombard { which: u8 },
        Move { from: u8, exempt: u8 },
        Reorg { a: u8, b: u8 },
        Rally { region: u8 },
        Land { zone: u8, to: u8 },
        FinalFire,
        Over,
    }

    #[derive(Deserialize)]
    #[serde(
        remote = "Task",
        rename_all = "kebab-case",
        tag = "task",
        deny_unknown_fields
    )]
    enum TaskDe {
        Hits {
            side: u8,
            region: u8,
            n: u8,
            mode: HitMode,
        },
        Scatter {
            region: u8,
        },
        Flee {
            unit: u8,
            steps: u8,
        },
        Retreat {
            unit: u8,
            origin: u8,
        },
        Evacuate {
            unit: u8,
        },
        Spread {
            from: u8,
        },
        AssaultStep,
        NextTurn,
    }

    impl<'de> Deserialize<'de> for Phase {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Phase, D::Error> {
            let v = serde_json::Value::deserialize(d)?;
            check::<D::Error>(&v, "phase", PHASE)?;
            PhaseDe::deserialize(v).map_err(D::Error::custom)
        }
    }

    impl<'de> Deserialize<'de> for Task {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Task, D::Error> {
            let v = serde_json::Value::deserialize(d)?;
            check::<D::Error>(&v, "task", TASK)?;
            TaskDe::deserialize(v).map_err(D::Error::custom)
        }
    }
}

/// How hits may be taken (7.0, 6.3, 6.4, 6.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HitMode {
    /// Volley Fire and Assault: any counter of the side in the region.
    Any,
    /// Cannonade and Bombard: healthy counters only, one hit each.
    Healthy,
    /// Snipe: healthy counters other than field cannon.
    Snipe,
}

/// Work waiting to be done, in order; the first one may need a decision.
/// Written as `{"task": "<kind>", ...its members}`; reading refuses a member the kind does not
/// have (see [`strict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "task")]
pub enum Task {
    /// `side` takes `n` hits in `region`.
    Hits {
        side: u8,
        region: u8,
        n: u8,
        mode: HitMode,
    },
    /// 9.1: panicked survivors of ranged fire in `region` run three more regions.
    Scatter { region: u8 },
    /// 9.1, 9.2: a counter moves `steps` regions toward the Muster Box.
    Flee { unit: u8, steps: u8 },
    /// 7.1: a defender retreats away from the assault launched from `origin`.
    Retreat { unit: u8, origin: u8 },
    /// 6.4: a counter leaves a region that caught fire.
    Evacuate { unit: u8 },
    /// 5.3: fire spreads from `from` to an adjacent town region of the British choice.
    Spread { from: u8 },
    /// 6.2: the assault goes on once the hits are taken.
    AssaultStep,
    /// 5.3: the next turn starts once the fire has spread.
    NextTurn,
}

/// The running assault (6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Fight {
    pub from: u8,
    pub to: u8,
    pub attacker: u8,
    pub round: u8,
    /// The Patriot defender's hit number (5, or 4 and 3 with 11.2).
    pub hit: u8,
    /// The counters that assaulted.
    #[serde(with = "unit_list")]
    pub att: Units,
    /// The counters that defended.
    #[serde(with = "unit_list")]
    pub def: Units,
    /// Dice rolled by each side in the last round (to stop a round with no dice, B15).
    pub dice: [u8; 2],
}

/// Solitaire objective data (12.2-12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Solo {
    /// 1 Charlestown, 2 Northern Defense Works, 3 Breed's Hill, 4 Bunker Hill + one,
    /// 5 Neck + one, 6 any three (12.3); 12.4 numbers its own list the same way, see
    /// `solitaire.rs`.
    pub objective: u8,
    /// Objective targets as a mask over [`TARGETS`](super::solitaire::TARGETS).
    pub targets: u8,
    /// Landing zones in use, as a mask of zone numbers (bit z).
    pub zones: u8,
    /// The Patriot set-up used (1-4).
    pub setup: u8,
    /// Next zone for alternating reinforcements.
    pub next_zone: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    pub winner: u8,
    pub vp: [i16; 2],
    /// 0 turns over, 1 mutual demoralization, 2 solitaire objective achieved.
    pub why: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub mode: Mode,
    pub options: Opts,
    pub turn: u8,
    pub last_turn: u8,
    pub deck: Deck,
    pub card: u8,
    pub actions: [u8; 2],
    pub reserves: [u8; 2],
    pub mover: u8,
    /// The mover was passed to and may not pass back (5.2).
    pub no_pass: bool,
    /// The current action is paid with a Reserve Action (5.2).
    pub reserve: bool,
    pub units: ArrayVec<Unit, MAX_UNITS>,
    pub pool: MilitiaPool,
    /// Fleet Box: 0 Mystic, 1 Boston Harbor, 2 Charles (4.5).
    pub fleet: u8,
    /// Ablaze town regions (4.6).
    pub ablaze: u64,
    /// An Ablaze marker was placed by Bombard this turn (6.4).
    pub hot_shot: bool,
    /// Staging areas whose Staging Number has been met (3.5).
    pub staged: u64,
    pub ammo: u8,
    pub morale: [u8; 2],
    pub demoralized: [bool; 2],
    /// 4.3: the Ammo Arrives side is up.
    pub ammo_arrived: bool,
    /// 9.2: the Patriot ammunition reached 0 at some time (12.2 VP).
    pub ammo_out: bool,
    /// Destination chosen for the current retreating group (7.1 FAQ), 255 if none.
    pub group: u8,
    pub phase: Phase,
    pub fight: Fight,
    /// Counters picked so far in the current action.
    #[serde(with = "unit_list")]
    pub sel: Units,
    /// Steps done in the current action (counters moved, cannons fired...).
    pub count: u8,
    /// 6.5: counters of the current Move action gone to `went_to` one after another, told
    /// in one line once the player does something else (issue 17: one line for a group).
    #[serde(default, with = "unit_list", skip_serializing_if = "no_units")]
    pub went: Units,
    #[serde(default, skip_serializing_if = "zero")]
    pub went_to: u8,
    pub tasks: ArrayVec<Task, 48>,
    pub solo: Solo,
    pub ended: Option<Ended>,
    pub dice: Dice,
}

impl State {
    #[inline]
    pub fn side_of(&self, u: u8) -> u8 {
        self.units[u as usize].side
    }
}

/// A set of counters in the position format: the list of their indices, ascending
/// (`[3, 17, 70]`). A mask does not fit JSON's numbers once a counter of index 64 or more is
/// in it; a list is also readable. Reading refuses an index of [`MAX_UNITS`] or more and an
/// index given twice or out of order, so every set has exactly one form.
pub mod unit_list {
    use super::{MAX_UNITS, Units, bits};
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::ser::SerializeSeq;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(m: &Units, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(m.count_ones() as usize))?;
        for i in bits(*m) {
            seq.serialize_element(&i)?;
        }
        seq.end()
    }

    struct V;

    impl<'de> Visitor<'de> for V {
        type Value = Units;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(
                f,
                "a list of counter indices (0 to {}), ascending, each once",
                MAX_UNITS - 1
            )
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Units, A::Error> {
            let mut m: Units = 0;
            let mut last: Option<u8> = None;
            while let Some(i) = seq.next_element::<u8>()? {
                if i as usize >= MAX_UNITS {
                    return Err(A::Error::custom(format!(
                        "counter index {i}: there are at most {MAX_UNITS} counters"
                    )));
                }
                if last.is_some_and(|l| l >= i) {
                    return Err(A::Error::custom(format!(
                        "counter index {i}: list each counter once, in ascending order"
                    )));
                }
                last = Some(i);
                m |= 1u128 << i;
            }
            Ok(m)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Units, D::Error> {
        d.deserialize_seq(V)
    }
}

/// Iterates over the set bits of a mask.
pub fn bits(mut m: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(i)
        }
    })
}

pub fn bits64(mut m: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(i)
        }
    })
}
