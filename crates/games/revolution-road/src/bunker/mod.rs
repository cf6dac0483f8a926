//! Bunker Hill (Revolution Road, Part Two), game id `bunker-hill`.
//!
//! One module per rules chapter: [`sequence`] (5, 12.1 set-up, routing), [`combat`] (6.1-6.4,
//! 6.7, 6.9, 7, 8, 9), [`movement`] (3.0-3.5, 6.5, 6.8, 6.10, forced moves), [`victory`] (10),
//! [`solitaire`] (12.2-12.4); [`data`] reads the map, cards and VP aid and computes Line of
//! Sight (7.2); [`notation`] and [`text`] speak to people. Sides: 0 Patriot, 1 British.

pub mod action;
mod combat;
pub mod data;
pub mod drawing;
mod knowledge;
mod movement;
pub mod notation;
pub mod sequence;
pub mod solitaire;
pub mod state;
mod text;
pub mod validate;
pub mod victory;

pub use action::{Action, Event};
pub use state::State;

use crate::common::{Deck, MilitiaPool};
use data::Data;
use muster_core::game::{Game, GameInfo, IllegalAction, LogEntry, OptionInfo, Options};
use muster_core::{Dice, Outcome, Prompt, ScenarioInfo, Side, Viewer};
use state::*;
use std::path::Path;

/// The game with its checked data.
pub struct Bunker {
    info: GameInfo,
    pub data: Data,
    /// The counters of the standard and the solitaire scenarios at the start, in roster
    /// order (what `validate` compares a position's `units` with).
    rosters: [Vec<Unit>; 2],
}

const OPTIONS: [(&str, &str); 4] = [
    (
        "strong-works",
        "11.1: Patriots in the Redoubt and the two wall regions ignore the first British hit.",
    ),
    (
        "more-ammo",
        "11.2: the Patriot may spend ammunition for an extra Volley die or better defensive hits.",
    ),
    (
        "any-zone",
        "11.3: the British turn 3 and turn 6 reinforcements may use any landing zone.",
    ),
    (
        "solo-rally",
        "FAQ: use the solitaire rally procedure (leaders rally, wounded leaders on 4-6, units roll alone).",
    ),
];

impl Bunker {
    /// The game with the data files built into the binary.
    pub fn new() -> Result<Bunker, String> {
        let files: Vec<(String, &str, String)> = data::DATA_FILES
            .iter()
            .map(|(f, t)| (format!("built-in bunker-hill/{f}"), *f, t.to_string()))
            .collect();
        Self::from_files(&files)
    }

    /// The game with data files read from `dir/bunker-hill/` where present.
    pub fn from_dir(dir: &Path) -> Result<Bunker, String> {
        if !dir.is_dir() {
            return Err(format!("{}: no such data folder", dir.display()));
        }
        let mut files = Vec::new();
        for (file, builtin) in data::DATA_FILES {
            let path = dir.join("bunker-hill").join(file);
            match std::fs::read_to_string(&path) {
                Ok(t) => files.push((path.display().to_string(), file, t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => files.push((
                    format!("built-in bunker-hill/{file}"),
                    file,
                    builtin.to_string(),
                )),
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Self::from_files(&files)
    }

    pub fn from_files(files: &[(String, &str, String)]) -> Result<Bunker, String> {
        let data = data::load(files)?;
        let mut reconstructed = vec!["cards".to_string(), "vp-aid".to_string()];
        if data.map.reconstructed {
            reconstructed.insert(0, "map".to_string());
        }
        if data.map.drawing.reconstructed {
            reconstructed.push("map-drawing".to_string());
        }
        let source = data.sources.join(", ");
        let scen = |id: &str, name: &str, desc: &str, bot: Option<&str>| ScenarioInfo {
            id: id.into(),
            name: name.into(),
            description: desc.into(),
            source: source.clone(),
            reconstructed: reconstructed.clone(),
            bot_side: bot.map(str::to_string),
        };
        let info = GameInfo {
            id: "bunker-hill".into(),
            name: "Revolution Road: Bunker Hill".into(),
            sides: SIDE_IDS.iter().map(|s| s.to_string()).collect(),
            scenarios: vec![
                scen(
                    "standard",
                    "Bunker Hill (12.1)",
                    "Two players, ten turns: the British land on the Charlestown peninsula and storm the Patriot works.",
                    None,
                ),
                scen(
                    "solitaire-british",
                    "Solitaire: the British player (12.2, 12.3)",
                    "Five to ten turns: choose (and upgrade) a British objective; the Patriot side is played by a bot.",
                    Some("patriot"),
                ),
                scen(
                    "solitaire-patriot",
                    "Solitaire: the Patriot player (12.2, 12.4)",
                    "Five to ten turns: set up against an unknown British objective; the British side is played by a bot.",
                    Some("british"),
                ),
            ],
            options: OPTIONS
                .iter()
                .map(|(id, d)| OptionInfo {
                    id: id.to_string(),
                    description: d.to_string(),
                    values: vec!["off".into(), "on".into()],
                    default: "off".into(),
                    scenarios: Vec::new(),
                })
                .collect(),
        };
        let mut g = Bunker {
            info,
            data,
            rosters: [Vec::new(), Vec::new()],
        };
        g.rosters = [
            g.start(Mode::Standard, Opts::default(), 0).units.to_vec(),
            g.start(Mode::SolitaireBritish, Opts::default(), 0)
                .units
                .to_vec(),
        ];
        Ok(g)
    }

    /// The scenario's counters at the start, in roster order.
    pub fn roster(&self, mode: Mode) -> &[Unit] {
        &self.rosters[mode.solitaire() as usize]
    }

    fn opts_of(options: &Options) -> Opts {
        let on = |k: &str| options.get(k).is_some_and(|v| v == "on");
        Opts {
            strong_works: on("strong-works"),
            more_ammo: on("more-ammo"),
            any_zone: on("any-zone"),
            solo_rally: on("solo-rally"),
        }
    }

    /// A new game.
    pub fn start(&self, mode: Mode, opts: Opts, seed: u64) -> State {
        let mut dice = Dice::from_seed(seed);
        let ids: Vec<u8> = self
            .data
            .cards
            .iter()
            .filter(|c| !mode.solitaire() || c.hash == 0)
            .map(|c| c.id)
            .collect();
        let deck = Deck::shuffled(ids.into_iter(), &mut dice);
        let mut s = State {
            mode,
            options: opts,
            turn: 1,
            last_turn: 10,
            deck,
            card: 0,
            actions: [0, 0],
            reserves: [0, 0],
            mover: PATRIOT,
            no_pass: false,
            reserve: false,
            units: Default::default(),
            pool: MilitiaPool::default(),
            fleet: 1,
            ablaze: 0,
            hot_shot: false,
            staged: 0,
            ammo: 24,
            morale: [24, 24],
            demoralized: [false, false],
            ammo_arrived: false,
            ammo_out: false,
            group: 255,
            phase: Phase::Over,
            fight: Fight::default(),
            sel: 0,
            went: 0,
            went_to: 0,
            count: 0,
            tasks: Default::default(),
            solo: Solo::default(),
            ended: None,
            dice,
        };
        let z2 = self.zone_region(2);
        let mut add = |kind: Kind, side: u8, at: u8, arrive: u8, zone: u8, n: usize| {
            for _ in 0..n {
                let flags = if kind == Kind::Militia { HIDDEN } else { 0 };
                if !s.units.is_full() {
                    s.units.push(Unit {
                        kind,
                        side,
                        at,
                        flags,
                        value: 0,
                        arrive,
                        zone,
                    });
                }
            }
        };
        if mode.solitaire() {
            // 12.2: everything waits for the objective; `solitaire.rs` places it.
            add(Kind::Regular, BRITISH, SETUP, 0, 0, 16);
            add(Kind::Cannon, BRITISH, SETUP, 0, 0, 2);
            add(Kind::Regular, BRITISH, PENDING, 3, 0, 6);
            add(Kind::Marine, BRITISH, PENDING, 3, 0, 2);
            add(Kind::Regular, BRITISH, PENDING, 5, 0, 4);
            add(Kind::Marine, BRITISH, PENDING, 5, 0, 2);
            add(Kind::Battery, BRITISH, COPPS, 0, 0, 1);
            add(Kind::Minuteman, PATRIOT, SETUP, 0, 0, 7);
            add(Kind::Militia, PATRIOT, SETUP, 0, 0, 21);
            add(Kind::Cannon, PATRIOT, SETUP, 0, 0, 1);
        } else {
            // 12.1.
            add(Kind::Regular, BRITISH, SETUP, 0, 0, 5);
            add(Kind::Regular, BRITISH, z2, 0, 0, 10);
            add(Kind::Cannon, BRITISH, z2, 0, 0, 2);
            add(Kind::Regular, BRITISH, PENDING, 3, 0, 5);
            add(Kind::Marine, BRITISH, PENDING, 3, 0, 2);
            add(Kind::Regular, BRITISH, PENDING, 6, 0, 4);
            add(Kind::Marine, BRITISH, PENDING, 6, 0, 2);
            add(Kind::Battery, BRITISH, COPPS, 0, 0, 1);
            add(Kind::Minuteman, PATRIOT, SETUP, 0, 0, 7);
            add(Kind::Militia, PATRIOT, SETUP, 0, 0, 5);
            add(Kind::Cannon, PATRIOT, SETUP, 0, 0, 1);
            add(Kind::Militia, PATRIOT, MUSTER, 0, 0, 3);
            add(Kind::Militia, PATRIOT, PENDING, 2, 0, 3);
            add(Kind::Militia, PATRIOT, PENDING, 3, 0, 3);
            add(Kind::Militia, PATRIOT, PENDING, 4, 0, 3);
            add(Kind::Militia, PATRIOT, PENDING, 5, 0, 4);
        }
        // Leaders, in the order of `LEADERS`.
        for (i, (id, _, side)) in LEADERS.iter().enumerate() {
            let (at, arrive) = if mode.solitaire() {
                match *id {
                    "howe" | "abercrombie" => (PENDING, 3),
                    "clinton" => (PENDING, 5),
                    _ => (SETUP, 0),
                }
            } else {
                match *id {
                    "gage" | "pigot" => (z2, 0),
                    "howe" | "abercrombie" => (PENDING, 3),
                    "clinton" => (PENDING, 6),
                    "stark" | "nixon" => (MUSTER, 0),
                    "reed" | "woodbridge" => (PENDING, 5),
                    _ => (SETUP, 0),
                }
            };
            if !s.units.is_full() {
                s.units.push(Unit {
                    kind: Kind::Leader,
                    side: *side,
                    at,
                    flags: 0,
                    value: i as u8,
                    arrive,
                    zone: 0,
                });
            }
        }
        s.phase = match mode {
            Mode::Standard => Phase::SetupBritish,
            Mode::SolitaireBritish => Phase::Objective,
            Mode::SolitairePatriot => Phase::Focus,
        };
        let mut ev = Vec::new();
        self.run(&mut s, &mut ev);
        s
    }
}

impl Game for Bunker {
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = view::View;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_game(&self, scenario: &str, options: &Options, seed: u64) -> Result<State, String> {
        let mode = match scenario {
            "standard" => Mode::Standard,
            "solitaire-british" => Mode::SolitaireBritish,
            "solitaire-patriot" => Mode::SolitairePatriot,
            _ => {
                return Err(format!(
                    "no scenario {scenario:?}; the scenarios are standard, solitaire-british, solitaire-patriot"
                ));
            }
        };
        Ok(self.start(mode, Self::opts_of(options), seed))
    }

    fn scenario_of<'a>(&self, s: &'a State) -> &'a str {
        s.mode.id()
    }

    fn options_of(&self, s: &State) -> Options {
        let f = |b: bool| if b { "on" } else { "off" }.to_string();
        let mut o = Options::new();
        o.insert("strong-works".into(), f(s.options.strong_works));
        o.insert("more-ammo".into(), f(s.options.more_ammo));
        o.insert("any-zone".into(), f(s.options.any_zone));
        o.insert("solo-rally".into(), f(s.options.solo_rally));
        o
    }

    fn to_act(&self, s: &State) -> Option<Side> {
        sequence::to_act(s)
    }

    fn prompt(&self, s: &State) -> Prompt {
        Bunker::prompt(self, s)
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        let mut buf = sequence::Actions::new();
        self.legal(s, &mut buf);
        out.extend_from_slice(&buf);
    }

    fn apply(&self, s: &mut State, side: Side, a: Action) -> Result<Vec<Event>, IllegalAction> {
        crate::common::check_turn(sequence::to_act(s), side)?;
        let before = sequence::to_act(s);
        let mut ev = Vec::new();
        self.apply_action(s, a, &mut ev)?;
        let same_side = sequence::to_act(s) == before;
        Ok(sequence::group_moves(s, same_side, ev))
    }

    fn view(&self, s: &State, viewer: Viewer) -> view::View {
        view::View::new(self, s, viewer)
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        let e = s.ended?;
        let reason = match e.why {
            1 => "9.4: both sides demoralized; ",
            2 => "12.4: the British objective is met; ",
            _ => "",
        };
        Some(Outcome {
            winner: Some(e.winner),
            vp: vec![(e.vp[0] / 2) as i32, (e.vp[1] / 2) as i32],
            reason: format!(
                "{reason}10.0: Victory Points {} to {} (Patriot to British); a tie goes to the side holding more hilltop regions, else to the Patriots",
                e.vp[0] as f32 / 2.0,
                e.vp[1] as f32 / 2.0
            ),
        })
    }

    fn determinize(&self, s: &mut State, viewer: Side, rng: &mut dyn rand_core::Rng) {
        // Hidden: the order of the draw pile and the dice. Unknown militia strengths are not
        // decided until revealed, so new dice resample them.
        s.dice = Dice::from_rng(rng);
        s.deck.resample(viewer, &mut s.dice);
    }

    fn notation(&self, s: &State, a: Action) -> String {
        notation::notation(self, s, a)
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, IllegalAction> {
        notation::parse(self, s, text)
    }

    fn label(&self, s: &State, a: Action) -> String {
        notation::label(self, s, a)
    }

    fn describe(&self, s: &State, e: &Event) -> LogEntry {
        notation::describe(self, s, e)
    }

    fn validate(&self, s: &mut State) -> Result<(), String> {
        validate::validate(self, s)
    }

    fn render_text(&self, s: &State, viewer: Viewer) -> String {
        text::render(self, s, viewer)
    }

    fn board(&self, _scenario: &str) -> serde_json::Value {
        board::board(self)
    }

    fn client_script(&self) -> Option<&'static str> {
        Some(include_str!("../../web/bunker-hill.js"))
    }
}

/// What a side sees: everything on the board (all of it is public, unknown militia
/// strengths are undecided until drawn); the deck shows only its size and the discards; the
/// dice are never shown.
pub mod view {
    use super::Bunker;
    use super::state::*;
    use super::victory::VpItem;
    use muster_core::Viewer;
    use serde::Serialize;

    #[derive(Serialize)]
    pub struct PieceView {
        pub id: String,
        pub side: &'static str,
        pub kind: Kind,
        /// Region id, "muster", "pending", "removed", "setup", "copps" or "unused".
        pub at: String,
        /// Combat strength now, `None` while an unknown militia piece is undrawn.
        pub strength: Option<u8>,
        /// "healthy", "broken", "wounded" or "damaged".
        pub state: &'static str,
        pub markers: Vec<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub arrives: Option<u8>,
    }

    #[derive(Serialize)]
    pub struct Tracks {
        pub turn: u8,
        pub last_turn: u8,
        pub actions: [u8; 2],
        pub reserves: [u8; 2],
        pub ammo: u8,
        pub morale: [u8; 2],
        pub demoralized: [bool; 2],
        /// Victory points by side (Patriot, British), in half points, and their causes.
        pub vp_halves: [i16; 2],
        pub vp_causes: Vec<VpItem>,
        pub ablaze: Vec<String>,
        pub wrong_ammo: bool,
        pub fleet_box: String,
    }

    #[derive(Serialize)]
    pub struct View {
        pub scenario: &'static str,
        pub options: Opts,
        /// Sides are indexed 0 Patriot, 1 British in every pair.
        pub sides: [&'static str; 2],
        pub card: u8,
        pub draw_pile: u8,
        pub discards: Vec<u8>,
        pub to_act: Option<&'static str>,
        pub phase: Phase,
        pub tasks: Vec<Task>,
        pub tracks: Tracks,
        pub pieces: Vec<PieceView>,
        /// Militia pieces left in the draw cup by strength 0, 1, 2.
        pub pool: [u8; 3],
        pub solo: Solo,
        pub ended: Option<Ended>,
    }

    impl View {
        pub fn new(g: &Bunker, s: &State, _viewer: Viewer) -> View {
            let at = |a: u8| match a {
                MUSTER => "muster".to_string(),
                PENDING => "pending".into(),
                REMOVED => "removed".into(),
                SETUP => "setup".into(),
                COPPS => "copps".into(),
                UNUSED => "unused".into(),
                r => g.region_id(r).to_string(),
            };
            let pieces = s
                .units
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let mut markers = vec![];
                    for (f, n) in [
                        (MOVED, "moved"),
                        (FIRED, "fired"),
                        (RALLIED, "rallied"),
                        (PANIC, "panic"),
                    ] {
                        if x.has(f) {
                            markers.push(n);
                        }
                    }
                    PieceView {
                        id: g.unit_id(s, i as u8),
                        side: SIDE_IDS[x.side as usize & 1],
                        kind: x.kind,
                        at: at(x.at),
                        strength: if x.has(HIDDEN) {
                            None
                        } else {
                            Some(g.strength(s, i as u8))
                        },
                        state: match (x.broken(), x.kind) {
                            (false, _) => "healthy",
                            (true, Kind::Leader) => "wounded",
                            (true, Kind::Cannon) => "damaged",
                            _ => "broken",
                        },
                        markers,
                        arrives: (x.at == PENDING).then_some(x.arrive),
                    }
                })
                .collect();
            View {
                scenario: s.mode.id(),
                options: s.options,
                sides: SIDE_IDS,
                card: s.card,
                draw_pile: s.deck.draw.len() as u8,
                discards: s.deck.discard.to_vec(),
                to_act: super::sequence::to_act(s).map(|x| SIDE_IDS[x as usize & 1]),
                phase: s.phase,
                tasks: s.tasks.to_vec(),
                tracks: Tracks {
                    turn: s.turn,
                    last_turn: s.last_turn,
                    actions: s.actions,
                    reserves: s.reserves,
                    ammo: s.ammo,
                    morale: s.morale,
                    demoralized: s.demoralized,
                    vp_halves: g.vp_halves(s),
                    vp_causes: g.vp_items(s).to_vec(),
                    ablaze: bits64(s.ablaze)
                        .map(|r| g.region_id(r).to_string())
                        .collect(),
                    wrong_ammo: !s.ammo_arrived,
                    fleet_box: g
                        .data
                        .map
                        .fleet
                        .get(s.fleet as usize)
                        .map_or("?".into(), |f| f.id.clone()),
                },
                pieces,
                pool: s.pool.0,
                solo: s.solo,
                ended: s.ended,
            }
        }
    }
}

/// The static board for browser clients.
mod board {
    use super::Bunker;
    use serde_json::{Value, json};

    pub fn board(g: &Bunker) -> Value {
        let map = &g.data.map;
        let ids = |m: u64| -> Vec<String> {
            super::state::bits64(m)
                .map(|r| map.regions[r as usize].id.clone())
                .collect()
        };
        let drawing = &map.drawing;
        let regions: Vec<Value> = map
            .regions
            .iter()
            .zip(&drawing.regions)
            .map(|(r, d)| {
                json!({
                    "id": r.id,
                    "name": r.name,
                    "kind": format!("{:?}", r.kind).to_lowercase(),
                    "elevation": r.elevation,
                    "hill": r.hill.map(|h| super::data::HILL_IDS[h as usize]),
                    "volley_modifier": r.volley,
                    "assault_modifier": r.assault,
                    "modifier_kind": format!("{:?}", r.modifier).to_lowercase(),
                    "wall_from": ids(r.wall_from),
                    "staging_zone": (r.staging_zone > 0).then_some(r.staging_zone),
                    "zone": (r.zone > 0).then(|| json!({"number": r.zone, "transport": r.transport, "staging": r.staging})),
                    "polygon": r.polygon.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>(),
                    "centre": [r.centre.0, r.centre.1],
                    "shape": d.shape,
                    "at": d.at,
                    "adjacent": ids(r.adj),
                })
            })
            .collect();
        json!({
            "game": "bunker-hill",
            "coordinates": "x grows east, y grows south. `polygon` and `centre` are the schematic grid Line of Sight is measured on (7.2, 10 units a grid square); `shape` and `at` are the drawing of the peninsula (north up: the Neck north-west, the Mystic north-east, the Charles and Boston south-west, Boston Harbor south-east) and where a region's counters go",
            "regions": regions,
            "drawing": {
                "reconstructed": drawing.reconstructed,
                "frame": drawing.frame,
                "roads": drawing.roads,
                "works": drawing.works,
                "land": drawing.land,
                "labels": drawing.labels,
                "across_water": drawing.across_water.iter().map(|&(a, b)| [&map.regions[a as usize].id, &map.regions[b as usize].id]).collect::<Vec<_>>(),
            },
            "muster_box": {"id": "muster", "adjacent": ids(map.muster_adj)},
            "fleet_boxes": map.fleet.iter().map(|f| json!({"id": f.id, "name": f.name, "targets": ids(f.targets)})).collect::<Vec<_>>(),
            "copps_hill_targets": ids(map.copps),
            "tracks": {
                "turn": [1, 10], "ammo": [0, 24], "morale": [0, 24], "actions": [0, 5], "reserves": [0, 2],
                "sides": ["patriot", "british"],
                "vp": "half points in the view's tracks.vp_halves"
            },
            "pieces": "see the view: pieces[] with id, side, kind, at, strength, state, markers"
        })
    }
}
