//! 12.2-12.4, the solitaire scenarios: objectives and their turn counts, set-up by objective
//! with the Patriot defence set-ups, the reinforcement schedule, upgrading objectives (never
//! downgrading), the solitaire VP schedule and the early end when the bot's objective is met.
//! The bot itself is the generic search bot seated on `ScenarioInfo::bot_side` (like
//! From Boston to Concord); the printed bot sheets are not in the rulebook text.

use super::Bunker;
use super::action::{Action, Event};
use super::sequence::{Actions, Ev};
use super::state::*;

/// Objective targets (12.3): 0 Charlestown, 1 Northern Defense Works, 2 Breed's Hill,
/// 3 Bunker Hill, 4 Charlestown Neck.
pub const TARGETS: [&str; 5] = ["charlestown", "works", "breeds", "bunker", "neck"];

/// The objective targets for people, in the order of [`TARGETS`].
pub const TARGET_NAMES: [&str; 5] = [
    "Charlestown",
    "the Northern Defense Works",
    "Breed's Hill",
    "Bunker Hill",
    "the Charlestown Neck",
];

/// 12.4's defence focuses 1-4, by the names the rulebook gives them (its die results 1, 2,
/// 3-4 and 5-6).
pub const FOCUS_NAMES: [&str; 5] = [
    "",
    "Charlestown Objective",
    "Northern Defense Objective",
    "Breed's Hill Objective",
    "Bunker Hill Focus",
];

/// Objectives: 1-6 as listed in 12.3; 7 (Breed's Hill and the Neck) and 8 (Bunker Hill alone)
/// are 12.4's own entries 5 and 6.
pub const OBJECTIVES: [&str; 9] = [
    "",
    "Clear and/or burn Charlestown",
    "Capture the Northern Defense Works",
    "Capture Breed's Hill",
    "Capture Bunker Hill and one other objective",
    "Capture the Charlestown Neck and one other objective",
    "Meet any three objectives",
    "Capture Breed's Hill and the Charlestown Neck",
    "Capture Bunker Hill",
];

pub const TURNS: [u8; 9] = [10, 5, 6, 7, 8, 8, 9, 8, 9];

/// Landing zones of each objective (bit z for zone z).
pub const ZONES: [u8; 9] = [
    0,
    1 << 5 | 1 << 6,
    1 << 2 | 1 << 3,
    1 << 3 | 1 << 4,
    1 << 1 | 1 << 2,
    1 << 1 | 1 << 2,
    0,
    1 << 1 | 1 << 2,
    1 << 1 | 1 << 2,
];

/// 12.3 / 12.4 Patriot defence set-ups (1 Charlestown, 2 Northern Defense Works, 3 Breed's
/// Hill, 4 Bunker Hill): (region, counters) with `c` cannon, `m` Minuteman, `i` militia and
/// `l` leader. "breeds-town" is the town region nearest the west slope (12.3 g).
pub const SETUPS: [&[(&str, &str)]; 4] = [
    &[
        ("works-n", "m"),
        ("works-s", "mi"),
        ("redoubt", "iml"),
        ("breeds-s", "cml"),
        ("breeds-slope-w", "iml"),
        ("town-5", "iml"),
        ("town-6", "iml"),
    ],
    &[
        ("bunker-s", "m"),
        ("mystic-shore", "iml"),
        ("breeds-slope-n", "iml"),
        ("works-s", "cml"),
        ("works-n", "iml"),
        ("redoubt", "iml"),
        ("breeds-s", "im"),
    ],
    &[
        ("works-n", "m"),
        ("works-s", "mi"),
        ("breeds-slope-n", "iml"),
        ("redoubt", "cml"),
        ("breeds-s", "iml"),
        ("breeds-slope-w", "iml"),
        ("breeds-town", "iml"),
    ],
    &[
        ("neck", "i"),
        ("bunker-c", "cml"),
        ("bunker-n", "iml"),
        ("bunker-s", "iml"),
        ("works-s", "m"),
        ("works-n", "iml"),
        ("redoubt", "iml"),
        ("breeds-s", "im"),
    ],
];

impl Bunker {
    /// Regions of an objective target.
    pub fn target_regions(&self, k: u8) -> u64 {
        let id = |x: &str| self.region_of(x).map_or(0u64, |r| 1u64 << r);
        match k {
            0 => self.data.map.town,
            1 => id("works-n") | id("works-s"),
            2 => id("redoubt") | id("breeds-s"),
            3 => self.data.map.hills[2],
            _ => 1u64 << self.data.map.neck,
        }
    }

    pub fn region_of(&self, id: &str) -> Option<u8> {
        self.data
            .map
            .regions
            .iter()
            .position(|r| r.id == id)
            .map(|i| i as u8)
    }

    /// Regions of a target held by the British (burned town regions count for Charlestown).
    pub fn captured(&self, s: &State, k: u8) -> u8 {
        let mut n = 0;
        for r in bits64(self.target_regions(k)) {
            if self.controls(s, BRITISH, r) || (k == 0 && s.ablaze >> r & 1 == 1) {
                n += 1;
            }
        }
        n
    }

    fn target_done(&self, s: &State, k: u8) -> bool {
        let c = self.captured(s, k);
        if k == 0 {
            c >= 6
        } else {
            c as u32 == self.target_regions(k).count_ones()
        }
    }

    /// The targets of the current objective (4 and 5 add the best other one).
    fn objective_targets(&self, s: &State) -> u8 {
        match s.solo.objective {
            1 => 1,
            2 => 1 << 1,
            3 => 1 << 2,
            4 | 5 => {
                let main = if s.solo.objective == 4 { 3 } else { 4 };
                let best = (0..5u8)
                    .filter(|&k| k != main)
                    .max_by_key(|&k| (self.captured(s, k), 5 - k))
                    .unwrap_or(0);
                1 << main | 1 << best
            }
            6 => s.solo.targets,
            7 => 1 << 2 | 1 << 4,
            _ => 1 << 3,
        }
    }

    /// 12.4: the scenario ends when the bot's objective is met.
    pub fn objective_achieved(&self, s: &State) -> bool {
        let t = self.objective_targets(s);
        t != 0
            && (0..5u8)
                .filter(|k| t >> k & 1 == 1)
                .all(|k| self.target_done(s, k))
    }

    /// 12.2-12.4 objective Victory Points: (side, cause, count, half points each).
    pub fn objective_vp(&self, s: &State) -> arrayvec::ArrayVec<(u8, &'static str, u8, i16), 6> {
        let mut out = arrayvec::ArrayVec::new();
        let t = self.objective_targets(s);
        let mut any = 0u8;
        for k in 0..5u8 {
            if t >> k & 1 == 0 {
                continue;
            }
            let c = self.captured(s, k);
            any += c;
            if k == 0 {
                if c >= 6 && !out.is_full() {
                    out.push((BRITISH, "Charlestown objective achieved", 1, 2));
                    if c > 6 {
                        out.push((BRITISH, "Charlestown regions beyond six", c - 6, 2));
                    }
                }
            } else if c > 0 && !out.is_full() {
                let each = if s.solo.objective == 6 { 2 } else { 4 };
                out.push((BRITISH, TARGETS[k as usize], c, each));
            }
        }
        if any == 0 && !out.is_full() {
            if s.mode == Mode::SolitairePatriot {
                out.push((PATRIOT, "no objective region captured", 1, 2));
            } else {
                let mut near = 0u64;
                for k in 0..5u8 {
                    if t >> k & 1 == 1 {
                        for r in bits64(self.target_regions(k)) {
                            near |= self.data.map.regions[r as usize].adj;
                        }
                    }
                }
                let excused = s.units.iter().any(|x| {
                    x.side == BRITISH
                        && x.kind.military()
                        && !x.broken()
                        && x.at < MUSTER
                        && near >> x.at & 1 == 1
                });
                if !excused {
                    let each = if s.solo.objective == 6 { -4 } else { -2 };
                    out.push((BRITISH, "no objective region captured", 1, each));
                }
            }
        }
        out
    }

    pub fn legal_solo(&self, s: &State, out: &mut Actions) {
        match s.phase {
            Phase::Objective => (0..=6).for_each(|o| out.push(Action::Objective(o))),
            Phase::ThreePick => {
                for k in 0..5u8 {
                    if s.solo.targets >> k & 1 == 0 {
                        out.push(Action::Target(k));
                    }
                }
            }
            Phase::ZonePick => {
                for z in 1..=6u8 {
                    if s.solo.zones >> z & 1 == 0 {
                        out.push(Action::Zone(z));
                    }
                }
            }
            Phase::Focus => (1..=4).for_each(|f| out.push(Action::Focus(f))),
            _ => {}
        }
    }

    pub fn apply_solo(&self, s: &mut State, a: Action, ev: &mut Ev) {
        match a {
            Action::Objective(o) => {
                let (o, die) = if o == 0 {
                    let d = s.dice.d6();
                    (d, d)
                } else {
                    (o, 0)
                };
                ev.push(Event::Objective { objective: o, die });
                self.set_objective(s, o);
                if o == 6 {
                    s.phase = Phase::ThreePick;
                } else {
                    self.solo_start(s, ev);
                }
            }
            Action::Target(k) => {
                s.solo.targets |= 1 << k;
                if s.solo.targets.count_ones() >= 3 {
                    s.phase = Phase::ZonePick;
                }
            }
            Action::Zone(z) => {
                s.solo.zones |= 1 << z;
                if s.solo.zones.count_ones() >= 3 {
                    if s.solo.setup == 0 {
                        self.solo_start(s, ev);
                    } else {
                        s.phase = Phase::Main;
                    }
                }
            }
            Action::Focus(f) => {
                s.solo.setup = f;
                self.place_patriots(s, f);
                let d = s.dice.d6();
                let o = match d {
                    1 => 1,
                    2 => 2,
                    3 | 4 => 3,
                    5 => 7,
                    _ => 8,
                };
                ev.push(Event::Objective {
                    objective: o,
                    die: d,
                });
                self.set_objective(s, o);
                self.place_british(s);
                self.begin_turn(s, ev);
            }
            _ => {}
        }
    }

    fn set_objective(&self, s: &mut State, o: u8) {
        s.solo.objective = o;
        s.last_turn = TURNS[o as usize];
        s.solo.zones = ZONES[o as usize];
        if o == 6 && s.solo.setup != 0 {
            // Upgraded to "any three": the old zones stay and one more is added.
            s.solo.zones = 0;
        }
    }

    /// 12.3: after the British objective, the Patriot bot's set-up, then the British.
    fn solo_start(&self, s: &mut State, ev: &mut Ev) {
        let setup = match s.solo.objective {
            1 => 1,
            2 => 2,
            3 => 3,
            4 | 5 => 4,
            _ => match s.dice.d6() {
                1 | 2 => 3,
                3 | 4 => 4,
                5 => 1,
                _ => 2,
            },
        };
        s.solo.setup = setup;
        self.place_patriots(s, setup);
        self.place_british(s);
        self.begin_turn(s, ev);
    }

    /// 12.3 / 12.4 Patriot defence set-up; the rest arrive by the 12.2 B schedule.
    fn place_patriots(&self, s: &mut State, setup: u8) {
        let list = SETUPS[(setup.clamp(1, 4) - 1) as usize];
        for (rid, pieces) in list {
            let r = if *rid == "breeds-town" {
                self.nearest_town("breeds-slope-w")
            } else {
                self.region_of(rid).unwrap_or(0)
            };
            for c in pieces.chars() {
                let kind = match c {
                    'c' => Kind::Cannon,
                    'm' => Kind::Minuteman,
                    'i' => Kind::Militia,
                    _ => Kind::Leader,
                };
                if let Some(u) = s
                    .units
                    .iter()
                    .position(|x| x.side == PATRIOT && x.kind == kind && x.at == SETUP)
                {
                    s.units[u].at = r;
                }
            }
        }
        // 12.2 B: 3 militia with Stark and Nixon on turn 1, 3 on turns 2-4, 4 with Reed and
        // Woodbridge on turn 5 (as many as the 21 pieces allow, B43).
        let mut sched = [(1u8, 3u8), (2, 3), (3, 3), (4, 3), (5, 4)].into_iter();
        let mut cur = sched.next();
        for u in 0..s.units.len() {
            let x = s.units[u];
            if x.side != PATRIOT || x.at != SETUP {
                continue;
            }
            if x.kind == Kind::Militia {
                match cur {
                    Some((t, n)) => {
                        s.units[u].at = PENDING;
                        s.units[u].arrive = t;
                        cur = if n > 1 {
                            Some((t, n - 1))
                        } else {
                            sched.next()
                        };
                    }
                    None => s.units[u].at = UNUSED,
                }
            } else if x.kind == Kind::Leader {
                let t = match LEADERS.get(x.value as usize).map(|l| l.0) {
                    Some("stark") | Some("nixon") => 1,
                    Some("reed") | Some("woodbridge") => 5,
                    _ => 0,
                };
                if t > 0 {
                    s.units[u].at = PENDING;
                    s.units[u].arrive = t;
                } else {
                    s.units[u].at = UNUSED;
                }
            } else {
                s.units[u].at = UNUSED;
            }
        }
    }

    fn nearest_town(&self, slope: &str) -> u8 {
        let map = &self.data.map;
        let Some(p) = self.region_of(slope) else {
            return 0;
        };
        let c = map.regions[p as usize].centre;
        bits64(map.town & map.regions[p as usize].adj)
            .min_by(|&a, &b| {
                let d = |r: u8| {
                    let q = map.regions[r as usize].centre;
                    (q.0 - c.0).powi(2) + (q.1 - c.1).powi(2)
                };
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(0)
    }

    fn zone_list(&self, s: &State) -> arrayvec::ArrayVec<u8, 6> {
        (1..=6u8).filter(|z| s.solo.zones >> z & 1 == 1).collect()
    }

    /// 12.2 A: the British set-up in the objective's landing zones.
    fn place_british(&self, s: &mut State) {
        let zones = self.zone_list(s);
        if zones.is_empty() {
            return;
        }
        let k = zones.len();
        let odd = s.dice.below(k as u32) as usize;
        let mut regs = 0usize;
        let mut leaders = 0usize;
        let mut guns = 0usize;
        for u in 0..s.units.len() {
            let x = s.units[u];
            if x.side != BRITISH || x.at != SETUP {
                continue;
            }
            match x.kind {
                Kind::Regular => {
                    // 16 Regulars split evenly, an odd one placed by die (12.2 A).
                    let per = 16 / k;
                    let z = if regs / per.max(1) < k {
                        regs / per.max(1)
                    } else {
                        odd
                    };
                    s.units[u].at = self.zone_region(zones[z]);
                    regs += 1;
                }
                Kind::Leader => {
                    s.units[u].at = self.zone_region(zones[leaders % k]);
                    leaders += 1;
                }
                Kind::Cannon => {
                    if s.solo.objective == 1 {
                        s.units[u].at = UNUSED;
                    } else {
                        s.units[u].at = self.zone_region(zones[guns % k]);
                    }
                    guns += 1;
                }
                _ => s.units[u].at = UNUSED,
            }
        }
    }

    /// 12.2 B: British reinforcements land in the objective's zones in turn (B42).
    pub fn solo_reinforce(&self, s: &mut State, ev: &mut Ev) {
        let zones = self.zone_list(s);
        let turn = s.turn;
        for u in 0..s.units.len() {
            let x = s.units[u];
            if x.side == BRITISH && x.at == PENDING && x.arrive == turn {
                let z = if zones.is_empty() {
                    2
                } else {
                    zones[s.solo.next_zone as usize % zones.len()]
                };
                s.solo.next_zone = s.solo.next_zone.wrapping_add(1);
                s.units[u].at = self.zone_region(z);
                ev.push(Event::Arrived { unit: u as u8 });
            }
        }
    }

    /// 12.3: the objectives the British may still upgrade to.
    pub fn legal_upgrades(&self, s: &State, out: &mut Actions) {
        for o in s.solo.objective + 1..=6 {
            if TURNS[o as usize] >= s.turn {
                out.push(Action::Upgrade(o));
            }
        }
    }

    pub fn upgrade(&self, s: &mut State, o: u8, _ev: &mut Ev) {
        let old = s.solo.zones;
        s.solo.objective = o;
        s.last_turn = TURNS[o as usize].max(s.turn);
        if o == 6 {
            s.solo.zones = old;
            s.solo.targets = 0;
            s.phase = Phase::ThreePick;
        } else {
            s.solo.zones = ZONES[o as usize];
        }
        for u in 0..s.units.len() {
            if s.units[u].side == BRITISH && s.units[u].at == PENDING {
                s.units[u].zone = 0;
            }
        }
    }
}
