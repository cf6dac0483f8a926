//! From Boston to Concord (Revolution Road, Part One), game id `concord`.
//!
//! One module per rules chapter: [`pieces`] (4), [`sequence`] (5 and routing), [`movement`]
//! (6.4, 6.5, 4.4, 9.0), [`combat`] (6.1-6.3, 7), [`actions`] (6.6-6.8, 6.10, 6.11),
//! [`riders`] (6.12, 4.3, 4.6, 9.0), [`search`] (6.9, 8), [`victory`] (10-13), [`solitaire`]
//! (15.2-15.4); [`data`] reads the map, cards, VP aid and set-ups; [`notation`] and [`text`]
//! speak to people. Sides: 0 Patriot, 1 British.

pub mod action;
mod actions;
pub mod board;
mod combat;
pub mod data;
pub mod invariants;
mod knowledge;
mod movement;
mod notation;
pub mod pieces;
mod riders;
mod search;
pub mod sequence;
mod solitaire;
pub mod state;
mod text;
mod victory;

pub use action::{Action, Event};
pub use state::State;

use crate::common::Deck;
use data::{Data, Setup};
use muster_core::game::{Game, GameInfo, IllegalAction, LogEntry, OptionInfo, Options};
use muster_core::{Dice, Outcome, Prompt, ScenarioInfo, Side, Viewer};
use state::*;
use std::path::Path;

/// The game with its checked data.
pub struct Concord {
    info: GameInfo,
    pub data: Data,
    /// Indices of the standard and solitaire set-ups in `data.setups`.
    setup_index: [usize; 2],
}

const OPTIONS: [(&str, &str); 5] = [
    (
        "leader-rerolls",
        "14.1: a side with a healthy leader in the combat region re-rolls one die.",
    ),
    (
        "movement-fire",
        "14.2: moving through a region with an unbroken enemy piece draws one die of fire (6 hits).",
    ),
    (
        "hobbled-sons",
        "14.3: Hancock and Adams move one region instead of two.",
    ),
    (
        "militia-six",
        "14.4: militia hit on 6 only (Minutemen on 5-6).",
    ),
    (
        "percy-turn-8",
        "12.0 FAQ: Percy's reinforcements arrive on turn 8 instead of 9.",
    ),
];

impl Concord {
    /// The game with the data files built into the binary.
    pub fn new() -> Result<Concord, String> {
        let files: Vec<(String, &str, String)> = data::DATA_FILES
            .iter()
            .map(|(f, t)| (format!("built-in {f}"), *f, t.to_string()))
            .collect();
        Self::from_files(&files)
    }

    /// The game with data files read from `dir/concord/` where present (built-in otherwise).
    pub fn from_dir(dir: &Path) -> Result<Concord, String> {
        if !dir.is_dir() {
            return Err(format!("{}: no such data folder", dir.display()));
        }
        let mut files = Vec::new();
        for (file, builtin) in data::DATA_FILES {
            let path = dir.join("concord").join(file);
            match std::fs::read_to_string(&path) {
                Ok(t) => files.push((path.display().to_string(), file, t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    files.push((format!("built-in {file}"), file, builtin.to_string()))
                }
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Self::from_files(&files)
    }

    /// The game from (name shown in errors, file name, text) triples.
    pub fn from_files(files: &[(String, &str, String)]) -> Result<Concord, String> {
        let data = data::load(files)?;
        let mut reconstructed = Vec::new();
        if data.map_reconstructed {
            reconstructed.push("map".to_string());
        }
        if data.cards.reconstructed {
            reconstructed.push("cards".to_string());
        }
        reconstructed.push("vp-aid".to_string());
        let source = data.sources.join(", ");
        let scen = |id: &str, name: &str, desc: &str, setup: &str, bot_side: Option<&str>| {
            let mut rec = reconstructed.clone();
            if let Some(s) = data.setups.iter().find(|s| s.id == setup) {
                rec.extend(s.reconstructed.iter().map(|x| format!("set-up {x}")));
            }
            ScenarioInfo {
                id: id.into(),
                name: name.into(),
                description: desc.into(),
                source: source.clone(),
                reconstructed: rec,
                bot_side: bot_side.map(str::to_string),
            }
        };
        let mut options: Vec<OptionInfo> = OPTIONS
            .iter()
            .map(|(id, d)| OptionInfo {
                id: id.to_string(),
                description: d.to_string(),
                values: vec!["off".into(), "on".into()],
                default: "off".into(),
                scenarios: Vec::new(),
            })
            .collect();
        options.push(OptionInfo {
            id: "hidden-arms".into(),
            description: "14.5: unnumbered unsearched Hidden Arms at the end: 1 VP each (standard), none, one card each (any marks: 1 VP), or one card each (1 VP a mark); the cards are dealt from all 22 shuffled together, none twice.".into(),
            values: vec!["standard".into(), "none".into(), "card-any".into(), "card-marks".into()],
            default: "standard".into(),
            scenarios: Vec::new(),
        });
        let info = GameInfo {
            id: "concord".into(),
            name: "Revolution Road: From Boston to Concord".into(),
            sides: SIDE_IDS.iter().map(|s| s.to_string()).collect(),
            scenarios: vec![
                scen(
                    "standard",
                    "From Boston to Concord (15.1)",
                    "Two players, twelve turns: the British march to Concord to search for arms and seize Adams and Hancock; the Patriots raise the country.",
                    "standard",
                    None,
                ),
                scen(
                    "solitaire-british",
                    "Solitaire: the British player (15.2, 15.3)",
                    "Turns 8-12: bring Smith and Pitcairn from Concord to join Percy at Lexington; the Patriot side is played by a bot.",
                    "solitaire",
                    Some("patriot"),
                ),
                scen(
                    "solitaire-patriot",
                    "Solitaire: the Patriot player (15.2, 15.4)",
                    "Turns 8-12: keep Smith and Pitcairn from joining Percy at Lexington; the British side is played by a bot.",
                    "solitaire",
                    Some("british"),
                ),
            ],
            options,
        };
        let find = |id: &str| data.setups.iter().position(|s| s.id == id).unwrap_or(0);
        let setup_index = [find("standard"), find("solitaire")];
        Ok(Concord {
            info,
            data,
            setup_index,
        })
    }

    /// The set-up a state plays.
    #[inline]
    pub fn setup(&self, s: &State) -> &Setup {
        &self.data.setups[self.setup_index[s.mode.solitaire() as usize]]
    }

    fn mode_of(scenario: &str) -> Option<Mode> {
        match scenario {
            "standard" => Some(Mode::Standard),
            "solitaire-british" => Some(Mode::SolitaireBritish),
            "solitaire-patriot" => Some(Mode::SolitairePatriot),
            _ => None,
        }
    }

    fn opts_of(options: &Options) -> Opts {
        let on = |k: &str| options.get(k).is_some_and(|v| v == "on");
        Opts {
            leader_rerolls: on("leader-rerolls"),
            movement_fire: on("movement-fire"),
            hobbled_sons: on("hobbled-sons"),
            militia_six: on("militia-six"),
            percy_turn_8: on("percy-turn-8"),
            arms_balance: match options.get("hidden-arms").map(String::as_str) {
                Some("none") => 1,
                Some("card-any") => 2,
                Some("card-marks") => 3,
                _ => 0,
            },
        }
    }

    /// The cards a scenario plays with (15.3 and 15.4 remove some).
    pub fn deck_ids(&self, mode: Mode) -> Vec<u8> {
        self.data
            .cards
            .cards
            .iter()
            .filter(|c| match mode {
                Mode::Standard => true,
                Mode::SolitaireBritish => c.british < 5 && c.british <= c.patriot,
                Mode::SolitairePatriot => c.patriot < 5 && c.patriot <= c.british,
            })
            .map(|c| c.id)
            .collect()
    }

    /// A new game in the given mode.
    pub fn start(&self, mode: Mode, opts: Opts, seed: u64) -> State {
        let mut dice = Dice::from_seed(seed);
        let deck = Deck::shuffled(self.deck_ids(mode).into_iter(), &mut dice);
        let setup = if mode.solitaire() {
            "solitaire"
        } else {
            "standard"
        };
        let setup = self
            .data
            .setups
            .iter()
            .find(|x| x.id == setup)
            .unwrap_or(&self.data.setups[0]);
        let mut s = State {
            mode,
            options: opts,
            turn: setup.first_turn,
            deck,
            card: 0,
            actions: [0, 0],
            reserves: [0, 0],
            mover: PATRIOT,
            units: Default::default(),
            pool: Default::default(),
            gather: self.data.map.regions.iter().map(|_| NO_MARKER).collect(),
            arms: self.data.map.regions.iter().map(|_| ARMS_NONE).collect(),
            alert: self.data.map.regions.iter().map(|_| false).collect(),
            hinder: [HinderAt::Available; 3],
            ambushed: 0,
            sniped: 0,
            british_in: 0,
            mustering: 0,
            resume: None,
            dropped: 0,
            rallying: 0,
            shot: false,
            concord: false,
            percy_award: false,
            called: false,
            peeked: [false; 2],
            alerted_by: 0,
            prescott_turn: 0,
            battle: Battle {
                from: 255,
                ..Battle::default()
            },
            phase: Phase::Over,
            vp: Ledger::default(),
            ended: None,
            dice,
        };
        for (d, st) in setup.roster.iter().zip(&setup.start) {
            let at = match (st.at, st.pending) {
                (Some(r), _) => Loc::At(r),
                (None, true) => Loc::Pending,
                (None, false) => Loc::Spare,
            };
            let mut u = Unit {
                kind: d.kind,
                at,
                value: 0,
                flipped: st.broken,
                under: st.under,
                moved: false,
                fired: false,
                rallied: false,
                marched: false,
                since: 0,
            };
            if st.drawn {
                u.kind = Kind::Militia;
                u.value = s.pool.draw(&mut s.dice).unwrap_or(0);
            }
            if !s.units.is_full() {
                s.units.push(u);
            }
        }
        if setup.markers {
            for (i, r) in self.data.map.regions.iter().enumerate() {
                s.gather[i] = r.gather;
                s.arms[i] = if r.arms.is_some() {
                    ARMS_HIDDEN
                } else {
                    ARMS_NONE
                };
                s.alert[i] = r.alert_box;
            }
        }
        s.british_in = self.british_regions(&s);
        let mut ev = Vec::new();
        self.refresh(&mut s, &mut ev);
        if setup.opening_call {
            s.phase = Phase::Riders {
                opening: true,
                rider: 255,
                ap: 0,
                done: 0,
            };
        } else {
            self.begin_turn(&mut s, &mut ev);
        }
        s
    }
}

impl Game for Concord {
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = view::View;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_game(&self, scenario: &str, options: &Options, seed: u64) -> Result<State, String> {
        let mode = Self::mode_of(scenario).ok_or_else(|| {
            format!("no scenario {scenario:?}; the scenarios are standard, solitaire-british, solitaire-patriot")
        })?;
        Ok(self.start(mode, Self::opts_of(options), seed))
    }

    fn scenario_of<'a>(&self, s: &'a State) -> &'a str {
        s.mode.id()
    }

    fn options_of(&self, s: &State) -> Options {
        let mut o = Options::new();
        let f = |b: bool| if b { "on" } else { "off" }.to_string();
        o.insert("leader-rerolls".into(), f(s.options.leader_rerolls));
        o.insert("movement-fire".into(), f(s.options.movement_fire));
        o.insert("hobbled-sons".into(), f(s.options.hobbled_sons));
        o.insert("militia-six".into(), f(s.options.militia_six));
        o.insert("percy-turn-8".into(), f(s.options.percy_turn_8));
        o.insert(
            "hidden-arms".into(),
            ["standard", "none", "card-any", "card-marks"][s.options.arms_balance.min(3) as usize]
                .into(),
        );
        o
    }

    fn to_act(&self, s: &State) -> Option<Side> {
        sequence::to_act(s)
    }

    fn prompt(&self, s: &State) -> Prompt {
        Concord::prompt(self, s)
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        let mut buf = sequence::Actions::new();
        self.legal(s, &mut buf);
        out.extend_from_slice(&buf);
    }

    fn apply(&self, s: &mut State, side: Side, a: Action) -> Result<Vec<Event>, IllegalAction> {
        crate::common::check_turn(sequence::to_act(s), side)?;
        let mut ev = Vec::new();
        self.apply_action(s, a, &mut ev)?;
        Ok(ev)
    }

    fn view(&self, s: &State, viewer: Viewer) -> view::View {
        view::View::new(self, s, viewer)
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        let e = s.ended?;
        let vp = |side: u8| (s.vp.halves(side) / 2) as i32;
        let reason = if e.automatic {
            "11.0: no unbroken British Regular reached Concord: automatic Patriot victory"
                .to_string()
        } else {
            format!(
                "13.0: Victory Points {} to {} (halves {} to {}); ties go to the British",
                s.vp.halves(PATRIOT) as f32 / 2.0,
                s.vp.halves(BRITISH) as f32 / 2.0,
                s.vp.halves(PATRIOT),
                s.vp.halves(BRITISH)
            )
        };
        Some(Outcome {
            winner: Some(e.winner),
            vp: vec![vp(PATRIOT), vp(BRITISH)],
            reason,
        })
    }

    fn determinize(&self, s: &mut State, viewer: Side, rng: &mut dyn rand_core::Rng) {
        // Hidden: the order of the cards the viewer has not seen (including any the other side
        // peeked at) and the dice. Hidden militia values are not decided until revealed, so
        // new dice resample them.
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

    fn board(&self, scenario: &str) -> serde_json::Value {
        board::describe(self, scenario)
    }

    fn client_script(&self) -> Option<&'static str> {
        Some(include_str!("../../web/concord.js"))
    }
}

/// What a side sees. Everything on the board is public; the deck shows only its size, the
/// discards and the cards this side has looked at (6.14); the dice are never shown.
pub mod view {
    use super::Concord;
    use super::state::*;
    use muster_core::Viewer;
    use serde::Serialize;

    #[derive(Serialize)]
    pub struct UnitView {
        pub id: String,
        pub side: &'static str,
        #[serde(flatten)]
        pub unit: Unit,
    }

    #[derive(Serialize)]
    pub struct View {
        pub scenario: &'static str,
        pub options: Opts,
        pub turn: u8,
        pub last_turn: u8,
        pub card: u8,
        pub draw_pile: u8,
        pub discards: Vec<u8>,
        /// The top cards this viewer has seen with Gather Intelligence, top first.
        pub seen: Vec<u8>,
        pub actions: [u8; 2],
        pub reserves: [u8; 2],
        pub to_act: Option<&'static str>,
        pub phase: Phase,
        /// The units the current step is about (its group, picked or first-hit set), as a
        /// list: the phase holds them as a 64-bit set, which a browser cannot read exactly
        /// once the roster passes 53 units (Percy's column).
        pub phase_units: Vec<u8>,
        pub units: Vec<UnitView>,
        pub pool: [u8; 3],
        pub gather: Vec<(String, u8)>,
        pub arms: Vec<(String, u8)>,
        pub alerts: Vec<String>,
        pub hinder: [HinderAt; 3],
        pub shot: bool,
        pub concord: bool,
        pub percy_award: bool,
        /// Victory points in half points, by side.
        pub vp_halves: [i16; 2],
        pub ended: Option<Ended>,
    }

    /// The members of the phase's `group`, `picked` and `first` unit sets.
    fn phase_units(phase: &Phase) -> Vec<u8> {
        let Ok(serde_json::Value::Object(outer)) = serde_json::to_value(phase) else {
            return vec![];
        };
        let mut set: u64 = 0;
        for inner in outer.values() {
            for k in ["group", "picked", "first"] {
                set |= inner
                    .get(k)
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(0);
            }
        }
        (0..64u8).filter(|i| set >> i & 1 == 1).collect()
    }

    impl View {
        pub fn new(g: &Concord, s: &State, viewer: Viewer) -> View {
            let map = &g.data.map;
            let seen = match viewer {
                Viewer::Side(side) => s.deck.seen_by(side).to_vec(),
                Viewer::Spectator => vec![],
            };
            View {
                scenario: s.mode.id(),
                options: s.options,
                turn: s.turn,
                last_turn: g.setup(s).last_turn,
                card: s.card,
                draw_pile: s.deck.draw.len() as u8,
                discards: s.deck.discard.to_vec(),
                seen,
                actions: s.actions,
                reserves: s.reserves,
                to_act: super::sequence::to_act(s).map(|x| SIDE_IDS[x as usize & 1]),
                phase: s.phase,
                phase_units: phase_units(&s.phase),
                units: s
                    .units
                    .iter()
                    .enumerate()
                    .map(|(i, u)| UnitView {
                        id: g.unit_id(s, i as u8).to_string(),
                        side: SIDE_IDS[g.side_of(s, i as u8) as usize & 1],
                        unit: *u,
                    })
                    .collect(),
                pool: s.pool.0,
                gather: (0..map.regions.len())
                    .filter(|r| s.gather[*r] != NO_MARKER)
                    .map(|r| (map.regions[r].id.clone(), s.gather[r]))
                    .collect(),
                arms: (0..map.regions.len())
                    .filter(|r| s.arms[*r] != ARMS_NONE)
                    .map(|r| (map.regions[r].id.clone(), s.arms[r]))
                    .collect(),
                alerts: (0..map.regions.len())
                    .filter(|r| s.alert[*r])
                    .map(|r| map.regions[r].id.clone())
                    .collect(),
                hinder: s.hinder,
                shot: s.shot,
                concord: s.concord,
                percy_award: s.percy_award,
                vp_halves: [s.vp.halves(PATRIOT), s.vp.halves(BRITISH)],
                ended: s.ended,
            }
        }
    }
}

/// Checks a state read from a position: the invariants of [`invariants::check`].
mod validate {
    use super::Concord;
    use super::state::*;

    /// A refusal names the member at fault by its path from the position, as the JSON
    /// reader's do (`state.units[14].at: …`): the invariants name it from the state.
    pub fn validate(g: &Concord, s: &mut State) -> Result<(), String> {
        super::invariants::check(g, s).map_err(|m| format!("state.{m}"))
    }
}
