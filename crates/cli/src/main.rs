//! `muster`: the engine protocol, terminal play, benchmarks and data checks.

use clap::{Parser, Subcommand, ValueEnum};
use muster_cli::engine::Engine;
use muster_core::{Dice, Match, Options, Record};
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc gives memory back to the system soon after it is freed (argon2's 19 MiB per
/// password hash would otherwise stay with glibc's per-thread arenas: docs/performance.md,
/// "Server memory"), and is quicker at the server's many small allocations.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (mimalloc v3's `mi_option_e`; the version is pinned in
/// the workspace's Cargo.toml, and `allocator_returns_freed_memory_at_once` checks the setting
/// takes).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory goes back to the system at once rather than after mimalloc's default delay
/// (1 s, times 10 for its arenas): a server that hashed a burst of passwords then goes quiet
/// would otherwise keep their working memory resident.
fn tune_allocator() {
    // SAFETY: `mi_option_set` only stores an integer option; it is called before any other
    // thread exists, with an option index of the pinned mimalloc version.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}

/// Prints a line; a closed pipe ends the program quietly instead of panicking.
macro_rules! say {
    ($($t:tt)*) => {
        if writeln!(std::io::stdout(), $($t)*).is_err() {
            std::process::exit(0)
        }
    };
}

#[derive(Parser)]
#[command(
    name = "muster",
    version,
    about = "Rules engines for American Revolution board wargames"
)]
struct Cli {
    /// Read data files from this folder where present, instead of the files built into the
    /// program: DIR/<game id>/<file> (DIR/battles/, DIR/supply-lines/, DIR/concord/,
    /// DIR/bunker-hill/; e.g. DIR/battles/oriskany.toml). Any other folder or file is an error.
    #[arg(long, global = true, value_name = "DIR")]
    data: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the play server and browser client (docs/server.md).
    Serve {
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// sqlite://FILE or postgres://... (default: the SQLite file muster.db here).
        #[arg(long, default_value = "sqlite://muster.db")]
        database: String,
        /// Do not mark cookies Secure (for plain HTTP on a host other than localhost).
        #[arg(long)]
        insecure_cookies: bool,
        /// How SQLite makes a commit durable: normal (survives the process being killed) or
        /// full (fsync'd before it is acknowledged: survives power loss too).
        #[arg(long, default_value = "normal", value_parser = muster_server::db::Sync::parse)]
        sync: muster_server::db::Sync,
        /// Connections open at once (default: the descriptor limit less 64).
        #[arg(long)]
        max_connections: Option<usize>,
        /// Send notification mails through this SMTP server: smtp://host:port (plain),
        /// smtp://user:pass@host?tls=required (STARTTLS) or smtps://user:pass@host (TLS).
        #[arg(long, requires = "public_url")]
        smtp: Option<String>,
        /// The server's address as players reach it, for the links in mails and webhooks
        /// (default: http:// and --addr).
        #[arg(long)]
        public_url: Option<String>,
        /// The sender of notification mails.
        #[arg(long, default_value = "Muster <muster@localhost>")]
        mail_from: String,
        /// Let webhooks call loopback, private and link-local addresses (only on a network
        /// whose every account you trust).
        #[arg(long)]
        allow_private_webhooks: bool,
        /// Threads running the server's tasks: 1 (the default) runs every socket, request and
        /// the database writer on one thread, with no hand-off between threads for an action;
        /// more spread them over N threads (password hashing and bot moves run on threads of
        /// their own either way).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Threads bot searches may keep busy at once over every game (default: the cores);
        /// decisions beyond them queue in the order asked, a hard one taking two.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        bot_threads: Option<u16>,
    },
    /// Speak the engine protocol: JSON lines on stdin and stdout (docs/protocol.md).
    Engine,
    /// Start `muster serve` as a separate process on loopback (a temporary SQLite file, or a
    /// throwaway PostgreSQL cluster), drive many concurrent games against it as browsers
    /// would, and measure that process: action latency, its CPU time and the bytes it sent per
    /// action (over the measured window: from the moment every game is set up to the
    /// deadline), and its peak memory (docs/performance.md). The server is killed at the end.
    Loadtest {
        /// Concurrent games (1 to 10,000).
        #[arg(long, default_value_t = 500)]
        games: usize,
        /// Accounts playing them, shared across games (a human game seats two distinct ones).
        #[arg(long, default_value_t = 50)]
        players: usize,
        /// The measured window, in seconds (1 to 3,600).
        #[arg(long, default_value_t = 30)]
        seconds: u64,
        /// Each player's mean pause before a decision, in milliseconds (drawn uniformly from
        /// half to one and a half times this; games start at random moments in the first pause).
        #[arg(long, default_value_t = 1000)]
        think_ms: u64,
        /// Who plays each game's other side: a bot of the server (at --level), or a second
        /// account whose seat the load client drives too, as a second player would.
        #[arg(long, value_enum, default_value_t = muster_cli::loadtest::Opponent::Bot)]
        opponent: muster_cli::loadtest::Opponent,
        /// The bot's level with --opponent bot: random, easy, medium or hard (default random).
        #[arg(long)]
        level: Option<String>,
        /// How seats follow and play: socket (the game socket of issue 13: state and update
        /// messages, actions as act messages) or http (a WebSocket notice, then GET the game,
        /// then POST the action: the browser client before the socket protocol).
        #[arg(long, value_enum, default_value_t = muster_cli::loadtest::Protocol::Socket)]
        protocol: muster_cli::loadtest::Protocol,
        /// Accounts to sign up (4 at a time) before the games start, to measure the server's
        /// memory after sign-ups (reported as server_rss_after_signups_mb).
        #[arg(long, default_value_t = 0)]
        signups: usize,
        /// The server program to measure (default: this program), e.g. an older build for
        /// "before" figures; it is run as `PATH serve --addr 127.0.0.1:PORT --database URL
        /// --insecure-cookies`.
        #[arg(long, value_name = "PATH")]
        server_bin: Option<PathBuf>,
        /// sqlite (a temporary file, removed after) or postgres (a throwaway cluster, started
        /// by the load test; its own processes' CPU and memory are not in the figures).
        #[arg(long, default_value = "sqlite")]
        database: String,
        #[arg(long, default_value = "battles")]
        game: String,
        #[arg(long, default_value = "freemans-farm")]
        scenario: String,
        /// SQLite's commit durability in the measured server: normal or full.
        #[arg(long, default_value = "normal", value_parser = ["normal", "full"])]
        sync: String,
        /// Print one JSON line instead of a table: actions, actions_per_second, p50_ms,
        /// p90_ms, p99_ms, max_ms, server_cpu_ms_per_action, bytes_to_clients_per_action,
        /// server_rss_mb (peak), server_hwm_mb, server_rss_after_signups_mb, errors, ...
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal.
    Play(PlayArgs),
    /// List the games, their scenarios, sides and options.
    Games,
    /// Check the scenario data files and report what is reconstructed.
    CheckData,
    /// Play many games between two bots and report win rates with 95% intervals.
    Sim(SimArgs),
    /// The bot ladder (issue 18): in every scenario, each level against the level below with
    /// sides swapped game by game; a rung passes at 65% or more with the 95% interval's lower
    /// end above 55%. Prints the table, seconds a decision per level, the rating gaps the win
    /// rates imply, each rung's side-adjusted score (the score on an even board, fitted with an
    /// advantage for each side) and the ratings chained from random at 1000.
    Ladder(LadderArgs),
    /// Measure random play for every scenario: decisions per second and state size.
    Bench {
        /// Random games per scenario (at least 1).
        #[arg(long, default_value_t = 2000)]
        games: usize,
        /// Only this game (a game id, see `muster games`).
        #[arg(long)]
        game: Option<String>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print JSON lines instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Who plays the other side in the terminal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opponent {
    Human,
    Random,
    Easy,
    Medium,
    Hard,
}

/// The choices of `play --vs`, each bot with its fixed rating from the ladder (issue 18).
impl ValueEnum for Opponent {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            Opponent::Human,
            Opponent::Random,
            Opponent::Easy,
            Opponent::Medium,
            Opponent::Hard,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let (name, what) = match self {
            Opponent::Human => ("human", "Both sides play at this terminal (hot-seat)"),
            Opponent::Random => ("random", "Any legal action at random"),
            Opponent::Easy => ("easy", "One-ply look-ahead bot"),
            Opponent::Medium => (
                "medium",
                "Tree search, 1,000 iterations a decision (the server's medium also stops at 0.2 s)",
            ),
            Opponent::Hard => (
                "hard",
                "Deep tree search on one thread, 30,000 iterations a decision (the server's hard also stops at 1 s)",
            ),
        };
        let help = match self.level() {
            Some(l) => format!("{what}; rated {}", l.rating().round()),
            None => what.to_string(),
        };
        Some(clap::builder::PossibleValue::new(name).help(help))
    }
}

impl Opponent {
    fn level(self) -> Option<muster_ai::Level> {
        use muster_ai::Level;
        match self {
            Opponent::Human => None,
            Opponent::Random => Some(Level::Random),
            Opponent::Easy => Some(Level::Easy),
            Opponent::Medium => Some(Level::Medium),
            Opponent::Hard => Some(Level::Hard),
        }
    }
}

#[derive(clap::Args)]
struct SimArgs {
    /// The game id, e.g. battles.
    game: String,
    #[arg(long)]
    scenario: String,
    /// Bot A's level: random, easy, medium or hard.
    #[arg(long, default_value = "hard")]
    a: String,
    /// Bot B's level.
    #[arg(long, default_value = "random")]
    b: String,
    /// Games to play (at least 1).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Games played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game option, KEY=VALUE (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Bot A always plays this side (default: sides alternate game by game).
    #[arg(long = "a-side")]
    a_side: Option<String>,
    /// Print the report as JSON (not with --csv).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print one CSV row per game instead of the report (not with --json).
    #[arg(long)]
    csv: bool,
    /// Write an SVG chart of the win rates here.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Save every game's record and log in this folder (game-SEED.json, game-SEED.log).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Budget the search levels by the clock, as the play server does (medium at most 0.2 s,
    /// hard at most 1 s a decision, each capped at its iterations), instead of by
    /// iterations alone: closer to what a player meets, but no longer reproducible.
    #[arg(long)]
    time_budget: bool,
    #[command(flatten)]
    tune: TuneArgs,
}

/// `sim`'s and `ladder`'s tuning of the search levels, for a measurement (issue 18).
#[derive(clap::Args)]
struct TuneArgs {
    /// For a measurement only: a search level's iterations a decision, LEVEL=N (repeatable;
    /// e.g. hard=3000). Reported with the results; the levels players meet are unchanged.
    #[arg(long = "iterations", value_name = "LEVEL=N")]
    iterations: Vec<String>,
    /// For a measurement only: a search level's playout depth in decisions, LEVEL=N
    /// (repeatable; e.g. hard=90), in place of the game's.
    #[arg(long = "depth", value_name = "LEVEL=N")]
    depth: Vec<String>,
}

#[derive(clap::Args)]
struct LadderArgs {
    /// The levels, weakest first, comma-separated.
    #[arg(long, default_value = "random,easy,medium,hard", value_delimiter = ',')]
    levels: Vec<String>,
    /// Games per rung and scenario (sides alternate; at least 1).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Only this game (repeatable; default every game).
    #[arg(long = "game", value_name = "ID")]
    game: Vec<String>,
    /// Only this scenario (repeatable; default every scenario of the games chosen).
    #[arg(long = "scenario", value_name = "ID")]
    scenario: Vec<String>,
    /// Games played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Budget searches by the clock, as the server does (not reproducible).
    #[arg(long)]
    time_budget: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tune: TuneArgs,
}

#[derive(clap::Args)]
struct PlayArgs {
    /// The game id (see `muster games`), e.g. battles. With --resume, the record's game.
    game: String,
    /// The scenario id, e.g. freemans-farm or oriskany. With --resume, only the record's.
    #[arg(long)]
    scenario: Option<String>,
    /// Your side, e.g. american or british (default: the first side).
    #[arg(long = "as")]
    side: Option<String>,
    /// Who plays the other side (default: random; in a solitaire scenario, the medium bot).
    #[arg(long, value_enum)]
    vs: Option<Opponent>,
    /// The game's seed (default 1). With --resume, only the record's.
    #[arg(long)]
    seed: Option<u64>,
    /// A game option, KEY=VALUE (repeatable). With --resume, only the record's values.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Continue a saved record instead of starting a new game (--scenario, --seed and
    /// --option, if given, must agree with it).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Write the record here now and after every decision.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

fn main() -> ExitCode {
    tune_allocator();
    let cli = Cli::parse();
    let registry = match muster_cli::registry(cli.data.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("muster: bad data: {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Serve {
            addr,
            database,
            insecure_cookies,
            sync,
            max_connections,
            smtp,
            public_url,
            mail_from,
            allow_private_webhooks,
            threads,
            bot_threads,
        } => {
            let mut limits = muster_server::Limits::default();
            if let Some(n) = max_connections {
                limits.max_connections = n.max(1);
            }
            if let Some(n) = bot_threads {
                limits.bot_threads = n.into();
            }
            let config = muster_server::Config {
                addr,
                database,
                secure_cookies: !insecure_cookies,
                sync,
                limits,
                notify: muster_server::notify::Settings {
                    smtp,
                    public_url: public_url.unwrap_or_else(|| format!("http://{addr}")),
                    mail_from,
                    allow_private_hooks: allow_private_webhooks,
                    ..Default::default()
                },
            };
            let runtime = if threads == 1 {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
            } else {
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(threads.into())
                    .enable_all()
                    .build()
            };
            let runtime = match runtime {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("muster serve: {e}");
                    return ExitCode::FAILURE;
                }
            };
            // Bots in play are budgeted by the clock: what a player waits for (issue 18).
            let mut bots = muster_cli::bots();
            bots.set_pace(muster_ai::Pace::Time);
            match runtime.block_on(muster_server::serve(config, registry, bots)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("muster serve: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Loadtest {
            games,
            players,
            seconds,
            think_ms,
            opponent,
            level,
            protocol,
            signups,
            server_bin,
            database,
            game,
            scenario,
            sync,
            json,
        } => {
            let config = muster_cli::loadtest::LoadConfig {
                games,
                players,
                seconds,
                think_ms,
                database,
                game,
                scenario,
                sync,
                opponent,
                level,
                protocol,
                signups,
                server_bin,
                data: cli.data.clone(),
            };
            match muster_cli::loadtest::run(config) {
                Ok(r) if json => match serde_json::to_string(&r) {
                    Ok(line) => {
                        say!("{line}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("muster loadtest: {e}");
                        ExitCode::FAILURE
                    }
                },
                Ok(r) => {
                    say!("{}", muster_cli::loadtest::table(&r));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("muster loadtest: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Engine => {
            run_engine(Engine::new(registry));
            ExitCode::SUCCESS
        }
        Command::Games => {
            for g in registry.games() {
                println!("{} — {}", g.id, g.name);
                println!("  sides: {}", g.sides.join(", "));
                for s in &g.scenarios {
                    println!("  scenario {}: {}", s.id, s.description);
                }
                for o in &g.options {
                    println!(
                        "  option {}={} (default {}): {}",
                        o.id,
                        o.values.join("|"),
                        o.default,
                        o.description
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Command::CheckData => {
            // Loading the registry has checked every file; report what it holds.
            for g in registry.games() {
                println!(
                    "{}: {} scenarios, all data files valid",
                    g.id,
                    g.scenarios.len()
                );
                for s in &g.scenarios {
                    println!("  {} (from {})", s.id, s.source);
                    if !s.reconstructed.is_empty() {
                        println!("    reconstructed: {}", s.reconstructed.join(", "));
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Command::Bench {
            games,
            game,
            seed,
            json,
        } => {
            if games == 0 {
                eprintln!("muster bench: --games 0: play at least 1 game");
                return ExitCode::FAILURE;
            }
            if let Some(id) = &game
                && let Err(e) = registry.get(id)
            {
                eprintln!("muster bench: --game {id}: {}", e.message);
                return ExitCode::FAILURE;
            }
            if !json {
                println!(
                    "{:<10} {:<15} {:>7} {:>10} {:>14} {:>11} {:>9} {:>7}  random-play wins",
                    "game",
                    "scenario",
                    "games",
                    "decisions",
                    "decisions/s",
                    "ns/decision",
                    "games/s",
                    "state B"
                );
            }
            for g in registry.games() {
                if game.as_ref().is_some_and(|x| x != &g.id) {
                    continue;
                }
                let dyn_game = registry.get(&g.id).expect("listed game");
                for s in &g.scenarios {
                    match dyn_game.bench(&s.id, games, seed) {
                        Ok(r) if json => {
                            println!("{}", serde_json::to_string(&r).unwrap_or_default())
                        }
                        Ok(r) => println!(
                            "{:<10} {:<15} {:>7} {:>10} {:>14.0} {:>11.0} {:>9.0} {:>7}  {}",
                            r.game,
                            r.scenario,
                            r.games,
                            r.decisions,
                            r.decisions_per_second,
                            1e9 / r.decisions_per_second,
                            r.games_per_second,
                            r.state_bytes,
                            g.sides
                                .iter()
                                .zip(&r.wins)
                                .map(|(s, w)| format!(
                                    "{s} {:.1}%",
                                    100.0 * *w as f64 / r.games.max(1) as f64
                                ))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        Err(e) => {
                            eprintln!("muster bench: {} {}: {e}", g.id, s.id);
                            return ExitCode::FAILURE;
                        }
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Command::Sim(args) => match sim(&registry, args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("muster sim: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Ladder(args) => match ladder(&registry, args) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(2),
            Err(e) => {
                eprintln!("muster ladder: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Play(args) => match play(&registry, args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("muster play: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

fn play(registry: &muster_core::Registry, args: PlayArgs) -> Result<(), String> {
    let options = parse_options(&args.options)?;
    let (mut game, seed): (Box<dyn Match>, u64) = match &args.resume {
        Some(file) => {
            let text =
                std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let record: Record = serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a record: {e}", file.display()))?;
            resume_agrees(&args, &options, &record)
                .map_err(|e| format!("--resume {}: {e}", file.display()))?;
            let game = registry.replay(&record).map_err(|e| e.message)?;
            (game, record.seed.unwrap_or(1))
        }
        None => {
            let info = registry.get(&args.game).map_err(|e| e.message)?.info();
            let scenario = args
                .scenario
                .clone()
                .or_else(|| info.scenarios.first().map(|s| s.id.clone()))
                .ok_or("the game has no scenarios")?;
            let seed = args.seed.unwrap_or(1);
            let game = registry
                .new_match(&args.game, &scenario, &options, seed)
                .map_err(|e| e.message)?;
            (game, seed)
        }
    };
    let sides = game.info().sides.clone();
    let scenario_id = game.record().scenario;
    let bot_side = game
        .info()
        .scenarios
        .iter()
        .find(|s| s.id == scenario_id)
        .and_then(|s| s.bot_side.clone());
    // Solitaire (issue 6): the bot side is always a bot, at the level --vs names.
    let vs = match (&bot_side, args.vs) {
        (Some(b), Some(Opponent::Human)) => {
            return Err(format!(
                "{scenario_id} is a solitaire scenario: the {b} side is played by a bot; choose its level with --vs random|easy|medium|hard"
            ));
        }
        (Some(_), None) => Opponent::Medium,
        (_, Some(v)) => v,
        (None, None) => Opponent::Random,
    };
    let me = match (&args.side, &bot_side) {
        (Some(s), Some(b)) if s == b => {
            return Err(format!(
                "--as {s}: in {scenario_id} the {b} side is played by the bot"
            ));
        }
        (Some(s), _) => s.clone(),
        (None, Some(b)) => sides
            .iter()
            .find(|s| *s != b)
            .cloned()
            .unwrap_or_else(|| sides[0].clone()),
        (None, None) => sides[0].clone(),
    };
    if !sides.contains(&me) {
        return Err(format!("--as {me:?}: the sides are {sides:?}"));
    }
    // Write the record once before play, so that a --save path that cannot be written is
    // refused now rather than after the first decision.
    save(&args, game.as_ref())?;
    let mut bot = Dice::from_seed(seed ^ 0xb07);
    let bots = muster_cli::bots();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut shown = 0usize;
    let mut show_board = true;
    // The prompt and the choices are listed again only after a decision (or on request):
    // a refused input gets one line, so the board does not scroll away.
    let mut show_choices = true;
    // The bot's search tree between its decisions (muster_ai::Memory).
    let mut memory = muster_ai::Memory::default();
    loop {
        let log = game.log(Some(&me)).map_err(|e| e.message)?;
        for e in &log[shown.min(log.len())..] {
            say!("  [§{}] {}", e.section, e.text);
        }
        shown = log.len();
        if let Some(outcome) = game.outcome() {
            say!("{}", game.render_text(Some(&me)).map_err(|e| e.message)?);
            say!(
                "{}",
                game_over_line(&outcome, &sides, &me, vs == Opponent::Human)
            );
            return Ok(());
        }
        let Some(to_act) = game.to_act() else {
            return Ok(());
        };
        let human = vs == Opponent::Human || to_act == me;
        if let (false, Some(level)) = (human, vs.level()) {
            let action = bots
                .think_remembering(
                    game.as_ref(),
                    level,
                    bot.next_u64(),
                    bots.pace(),
                    &mut memory,
                )
                .map_err(|e| e.message)?
                .action;
            game.act(Some(&to_act), &action).map_err(|e| e.message)?;
            save(&args, game.as_ref())?;
            show_board = true;
            continue;
        }
        if show_board {
            say!(
                "\n{}",
                game.render_text(Some(&to_act)).map_err(|e| e.message)?
            );
            show_board = false;
        }
        let legal = game.legal();
        if show_choices {
            let prompt = game.prompt();
            say!("{} to act — §{}: {}", to_act, prompt.section, prompt.text);
            for line in muster_cli::choices::list(&legal, None) {
                say!("{line}");
            }
            say!("Enter a number, an action or the start of one to list those choices; ? = help.");
            show_choices = false;
        }
        let mut stdout = std::io::stdout();
        if write!(stdout, "> ").and_then(|_| stdout.flush()).is_err() {
            return Ok(());
        }
        let Some(Ok(input)) = lines.next() else {
            return Ok(());
        };
        let input = input.trim();
        let result = match input {
            "" => continue,
            "q" | "quit" => return Ok(()),
            "?" | "h" | "help" => {
                for line in HELP {
                    say!("{line}");
                }
                continue;
            }
            "l" | "list" => {
                show_choices = true;
                continue;
            }
            "b" | "board" => {
                show_board = true;
                show_choices = true;
                continue;
            }
            "u" | "undo" => game.undo(Some(&to_act)).map(|_| Vec::new()),
            _ if input.starts_with("s ") => {
                let path = input[2..].trim();
                let record =
                    serde_json::to_string_pretty(&game.record()).map_err(|e| e.to_string())?;
                match std::fs::write(path, record) {
                    Ok(()) => say!("Record saved to {path}."),
                    Err(e) => say!("Could not save: {e}"),
                }
                continue;
            }
            _ => match input.parse::<usize>() {
                Ok(n) if (1..=legal.len()).contains(&n) => {
                    game.act(Some(&to_act), &legal[n - 1].action)
                }
                Ok(_) => {
                    say!("Choose 1 to {}.", legal.len());
                    continue;
                }
                Err(_) if legal.iter().any(|l| l.action == input) => game.act(Some(&to_act), input),
                Err(_) => {
                    // The start of an action (or words of its label): the matching choices.
                    let found = muster_cli::choices::list(&legal, Some(input));
                    if found.is_empty() {
                        match game.act(Some(&to_act), input) {
                            Err(e) => {
                                // One line: the refusal, then what this step does accept
                                // (the game's own message may name every verb of the game).
                                say!(
                                    "Refused ({}): {} — this step's choices start with {}; l lists them.",
                                    serde_json::to_value(e.kind).unwrap_or_default(),
                                    e.message,
                                    step_verbs(&legal)
                                );
                                continue;
                            }
                            ok => ok,
                        }
                    } else {
                        for line in found {
                            say!("{line}");
                        }
                        continue;
                    }
                }
            },
        };
        match result {
            Ok(_) => {
                save(&args, game.as_ref())?;
                show_board = true;
                show_choices = true;
            }
            Err(e) => say!(
                "Refused ({}): {}",
                serde_json::to_value(e.kind).unwrap_or_default(),
                e.message
            ),
        }
    }
}

/// The first words of this step's choices, each once, in the order of the list: "move,
/// end-movement". At most eight, then "…".
fn step_verbs(legal: &[muster_core::registry::LegalEntry]) -> String {
    let mut verbs: Vec<&str> = Vec::new();
    for l in legal {
        let verb = l.action.split_whitespace().next().unwrap_or("");
        if !verb.is_empty() && !verbs.contains(&verb) {
            verbs.push(verb);
        }
    }
    let more = verbs.len() > 8;
    verbs.truncate(8);
    let mut text = verbs
        .iter()
        .map(|v| format!("\"{v}\""))
        .collect::<Vec<_>>()
        .join(", ");
    if more {
        text.push_str(", …");
    }
    text
}

/// What `?` prints in `muster play`.
const HELP: [&str; 9] = [
    "Commands:",
    "  NUMBER        take that choice (the numbers of the last list)",
    "  ACTION        take an action by its notation, e.g. \"move D5\"",
    "  WORDS         list the choices whose action starts with, or whose label holds, WORDS",
    "  l, list       list every choice again        b, board   show the board",
    "  u, undo       take back your last decision   s FILE     save the record to FILE",
    "  ?, h, help    this help                      q, quit    stop (use --save to keep the game)",
    "Undo goes back only over your own decisions since the last die roll, reveal or",
    "hand-over to the other side.",
];

/// "Game over: the American side wins (you). <reason>", naming the winner in every game.
fn game_over_line(
    outcome: &muster_core::Outcome,
    sides: &[String],
    me: &str,
    hot_seat: bool,
) -> String {
    let title = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    };
    let who = match outcome.winner.and_then(|w| sides.get(w as usize)) {
        Some(w) if hot_seat => format!("the {} side wins", title(w)),
        Some(w) if w == me => format!("the {} side wins — you win", title(w)),
        Some(w) => format!("the {} side wins — you lose", title(w)),
        None => "nobody wins".to_string(),
    };
    let vp = if outcome.vp.iter().any(|&v| v != 0) {
        format!(
            " (VP {})",
            sides
                .iter()
                .zip(&outcome.vp)
                .map(|(s, v)| format!("{} {v}", title(s)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        String::new()
    };
    format!("Game over: {who}{vp}. {}", outcome.reason)
}

/// With --resume, the game named and any --scenario, --seed or --option given must be the
/// record's: the record decides them, and a flag it would override is refused.
fn resume_agrees(args: &PlayArgs, options: &Options, record: &Record) -> Result<(), String> {
    if args.game != record.game {
        return Err(format!(
            "the record is a game of {:?}, not {:?}",
            record.game, args.game
        ));
    }
    if let Some(s) = &args.scenario
        && *s != record.scenario
    {
        return Err(format!(
            "--scenario {s}: the record plays scenario {:?} (leave out --scenario)",
            record.scenario
        ));
    }
    if let Some(seed) = args.seed
        && record.seed != Some(seed)
    {
        return Err(match record.seed {
            Some(r) => format!("--seed {seed}: the record's seed is {r} (leave out --seed)"),
            None => format!(
                "--seed {seed}: the record starts from a position, not a seed (leave out --seed)"
            ),
        });
    }
    for (k, v) in options {
        match record.options.get(k) {
            Some(r) if r == v => {}
            Some(r) => {
                return Err(format!(
                    "--option {k}={v}: the record plays {k}={r} (leave out --option)"
                ));
            }
            None => {
                return Err(format!(
                    "--option {k}={v}: the record has no option {k:?} (its options: {})",
                    if record.options.is_empty() {
                        "none".to_string()
                    } else {
                        record
                            .options
                            .iter()
                            .map(|(k, v)| format!("{k}={v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                ));
            }
        }
    }
    Ok(())
}

fn parse_options(list: &[String]) -> Result<Options, String> {
    let mut options = Options::new();
    for o in list {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| format!("--option {o:?} must be KEY=VALUE"))?;
        options.insert(k.to_string(), v.to_string());
    }
    Ok(options)
}

fn sim(registry: &muster_core::Registry, args: SimArgs) -> Result<(), String> {
    use muster_ai::sim::{self, Seating, SimConfig};
    if args.games == 0 {
        return Err("--games 0: play at least 1 game".into());
    }
    let info = registry
        .get(&args.game)
        .map_err(|e| e.message)?
        .info()
        .clone();
    let seating = match &args.a_side {
        None => Seating::Alternate,
        Some(name) => Seating::Fixed(
            info.side(name)
                .ok_or_else(|| format!("--a-side {name:?}: the sides are {:?}", info.sides))?,
        ),
    };
    let config = SimConfig {
        game: args.game.clone(),
        scenario: args.scenario.clone(),
        options: parse_options(&args.options)?,
        a: muster_ai::Level::parse(&args.a).map_err(|e| e.message)?,
        b: muster_ai::Level::parse(&args.b).map_err(|e| e.message)?,
        games: args.games,
        seed: args.seed,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seating,
        records: args.records.clone(),
        pace: if args.time_budget {
            muster_ai::Pace::Time
        } else {
            muster_ai::Pace::Iterations
        },
    };
    let bar = indicatif::ProgressBar::new(args.games as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}",
        )
        .map_err(|e| e.to_string())?,
    );
    let bots = tuned_bots(&args.tune)?;
    let report = sim::run(registry, &bots, &config, &|n, _| bar.set_position(n as u64))
        .map_err(|e| e.message)?;
    bar.finish_and_clear();
    if let Some(path) = &args.svg {
        std::fs::write(path, sim::svg(&report)).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    if args.csv {
        let sides = &info.sides;
        say!(
            "seed,a_side,winner,a_won,{},decisions,seconds",
            sides
                .iter()
                .map(|s| format!("vp_{s}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        for r in &report.results {
            say!(
                "{},{},{},{},{},{},{:.4}",
                r.seed,
                r.a_side,
                r.winner.as_deref().unwrap_or("draw"),
                r.a_won,
                r.vp.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                r.decisions,
                r.seconds
            );
        }
        return Ok(());
    }
    let pct = |r: &sim::Rate| {
        format!(
            "{}/{} = {:.1}% [{:.1}%, {:.1}%]",
            r.wins,
            r.games,
            100.0 * r.rate,
            100.0 * r.low,
            100.0 * r.high
        )
    };
    say!(
        "{}/{}: bot a = {}, bot b = {}, {} games, {}",
        config.game,
        config.scenario,
        config.a,
        config.b,
        config.games,
        match config.seating {
            Seating::Alternate => "sides alternating".to_string(),
            Seating::Fixed(s) => format!("bot a plays {}", info.side_name(s)),
        }
    );
    if config.pace == muster_ai::Pace::Time {
        say!("  budgeted by the clock (--time-budget): not reproducible");
    }
    if !report.tuning.is_empty() {
        say!("  {}", tuning_text(&report.tuning));
    }
    for b in &report.bots {
        say!(
            "  bot {} ({:<6}) wins {}; {:.3} s a decision (max {:.3}), {:.0} iterations a decision",
            b.bot,
            b.level.id(),
            pct(&b.wins),
            b.seconds_per_decision,
            b.effort.max_seconds,
            b.iterations_per_decision
        );
    }
    for s in &report.sides {
        say!(
            "  side {:<9} wins {}, mean VP {:.2} (sd {:.2})",
            s.side,
            pct(&s.wins),
            s.mean_vp,
            s.vp_sd
        );
    }
    say!(
        "  draws {}; mean length {:.0} decisions; {:.0} decisions/s; {:.1} s",
        report.draws,
        report.mean_decisions,
        report.decisions_per_second,
        report.seconds
    );
    Ok(())
}

/// The bots, with the search levels tuned as `--iterations LEVEL=N` and `--depth LEVEL=N` ask
/// (issue 18: measuring what a level's budget and playout depth buy).
fn tuned_bots(args: &TuneArgs) -> Result<muster_ai::Bots, String> {
    let mut bots = muster_cli::bots();
    for (flag, values) in [("--iterations", &args.iterations), ("--depth", &args.depth)] {
        for v in values {
            let (level, n) = v
                .split_once('=')
                .ok_or_else(|| format!("{flag} {v:?}: write LEVEL=N, e.g. hard=3000"))?;
            let level = muster_ai::Level::parse(level.trim())
                .map_err(|e| format!("{flag} {v:?}: {}", e.message))?;
            let n: u32 = n
                .trim()
                .parse()
                .map_err(|_| format!("{flag} {v:?}: {n:?} is not a whole number"))?;
            let (i, d) = if flag == "--iterations" {
                (Some(n), None)
            } else {
                (None, Some(n))
            };
            bots.tune(level, i, d)
                .map_err(|e| format!("{flag} {v:?}: {}", e.message))?;
        }
    }
    Ok(bots)
}

/// One line naming the tuned levels, so that no figure is mistaken for a shipped level's.
fn tuning_text(tuning: &[muster_ai::Tuning]) -> String {
    let parts: Vec<String> = tuning
        .iter()
        .map(|t| {
            let mut what = Vec::new();
            if let Some(n) = t.iterations {
                what.push(format!("{n} iterations"));
            }
            if let Some(d) = t.playout_depth {
                what.push(format!("playout depth {d}"));
            }
            format!("{} at {}", t.level, what.join(", "))
        })
        .collect();
    format!(
        "tuned for this measurement, not as the levels ship: {}",
        parts.join("; ")
    )
}

/// Runs the ladder; `Ok(false)` when a rung failed (exit status 2).
fn ladder(registry: &muster_core::Registry, args: LadderArgs) -> Result<bool, String> {
    use muster_ai::ladder::{self, LadderConfig};
    let levels = args
        .levels
        .iter()
        .map(|l| muster_ai::Level::parse(l.trim()).map_err(|e| e.message))
        .collect::<Result<Vec<_>, _>>()?;
    let config = LadderConfig {
        levels,
        games: args.game,
        scenarios: args.scenario,
        games_per_rung: args.games,
        seed: args.seed,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        pace: if args.time_budget {
            muster_ai::Pace::Time
        } else {
            muster_ai::Pace::Iterations
        },
    };
    let bots = tuned_bots(&args.tune)?;
    if !bots.tuning().is_empty() {
        eprintln!("{}", tuning_text(bots.tuning()));
    }
    let rung_done = |r: &muster_ai::ladder::Rung| {
        eprintln!(
            "{} {}: {} vs {}: {}/{} ({}; side-adjusted {}; {:.1} s)",
            r.game,
            r.scenario,
            r.upper,
            r.lower,
            r.wins.wins,
            r.wins.games,
            side_cells(&r.by_side),
            even_cell(r.even.as_ref()),
            r.seconds
        )
    };
    // A line a game, so that a long rung can be followed and its games so far counted.
    let game_done = |g: &muster_ai::ladder::GameDone| {
        let r = g.result;
        let how = match (&r.winner, r.a_won) {
            (None, _) => "drew".to_string(),
            (Some(_), true) => "won".to_string(),
            (Some(w), false) => format!("lost ({w} won)"),
        };
        eprintln!(
            "  {} {}: {} vs {}, game {}/{} (seed {}): {} as {} {how}; {} {}/{} so far, {} drawn ({} decisions, {:.1} s)",
            g.game,
            g.scenario,
            g.upper,
            g.lower,
            g.done,
            g.of,
            r.seed,
            g.upper,
            r.a_side,
            g.upper,
            g.upper_wins,
            g.done,
            g.draws,
            r.decisions,
            r.seconds
        )
    };
    let report =
        ladder::run(registry, &bots, &config, &rung_done, &game_done).map_err(|e| e.message)?;
    let ok = report.rungs.iter().all(|r| r.pass);
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
        return Ok(ok);
    }
    say!(
        "| game | scenario | upper | lower | upper wins | 95% interval | upper wins by side | pass | gap | side-adjusted score (interval), gap | upper s/decision (max) | lower s/decision | upper iterations/decision | mean decisions |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in &report.rungs {
        say!(
            "| {} | {} | {} | {} | {} | {} | {} | {:+.0} | {} | {:.3} ({:.3}) | {:.3} | {:.0} | {:.0} |",
            r.game,
            r.scenario,
            r.upper,
            r.lower,
            wins_cells(&r.wins),
            side_cells(&r.by_side),
            if r.pass { "yes" } else { "no" },
            r.gap,
            even_cell(r.even.as_ref()),
            r.upper_effort.seconds_per_decision(),
            r.upper_effort.max_seconds,
            r.lower_effort.seconds_per_decision(),
            r.upper_effort.iterations_per_decision(),
            r.mean_decisions
        );
    }
    say!();
    say!(
        "| upper | lower | upper wins, every scenario | 95% interval | every rung passes | implied gap | side-adjusted gap |"
    );
    say!("|---|---|---|---|---|---|---|");
    for s in &report.steps {
        say!(
            "| {} | {} | {} | {} | {:+.0} | {} |",
            s.upper,
            s.lower,
            wins_cells(&s.wins),
            if s.all_pass { "yes" } else { "no" },
            s.gap,
            s.even_gap.map_or("–".into(), |g| format!("{g:+.0}"))
        );
    }
    say!();
    say!(
        "ratings implied: {}",
        report
            .ratings
            .iter()
            .map(|(l, r)| format!("{l} {r:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(ok)
}

fn save(args: &PlayArgs, game: &dyn Match) -> Result<(), String> {
    if let Some(path) = &args.save {
        let text = serde_json::to_string_pretty(&game.record()).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("--save {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The engine protocol over stdin and stdout. Lines are read as bytes with a bounded length,
/// so an overlong or non-UTF-8 line gets an error answer and the session goes on.
fn run_engine(mut engine: Engine) {
    use muster_cli::engine::MAX_LINE;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let answer = if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
            // Skip the rest of the overlong line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                match (&mut input).take(1 << 16).read_until(b'\n', &mut rest) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if rest.ends_with(b"\n") => break,
                    Ok(_) => {}
                }
            }
            Engine::error_answer(
                muster_core::ErrorKind::BadRequest,
                &format!("request longer than {MAX_LINE} bytes"),
            )
        } else {
            while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                buf.pop();
            }
            match std::str::from_utf8(&buf) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => engine.handle(line),
                Err(_) => Engine::error_answer(
                    muster_core::ErrorKind::BadRequest,
                    "the line is not UTF-8",
                ),
            }
        };
        if writeln!(out, "{answer}").and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}

/// The upper level's wins side by side: "as british 11/12, as patriot 2/12".
fn side_cells(by_side: &[muster_ai::ladder::SideWins]) -> String {
    by_side
        .iter()
        .map(|s| format!("as {} {}/{}", s.side, s.wins, s.games))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A rung's side-adjusted score as the ladder's table shows it: "68% (52–81%), +131"; a dash
/// when the upper level did not play every side.
fn even_cell(e: Option<&muster_ai::ladder::Even>) -> String {
    e.map_or("–".into(), |e| {
        format!(
            "{:.0}% ({:.0}–{:.0}%), {:+.0}",
            100.0 * e.score,
            100.0 * e.low,
            100.0 * e.high,
            e.gap
        )
    })
}

/// A win count as the ladder's tables show it: "wins/games = rate% | low–high%".
fn wins_cells(w: &muster_ai::sim::Rate) -> String {
    format!(
        "{}/{} = {:.0}% | {:.0}–{:.0}%",
        w.wins,
        w.games,
        100.0 * w.rate,
        100.0 * w.low,
        100.0 * w.high
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocator_returns_freed_memory_at_once() {
        // SAFETY: reads an integer option of the pinned mimalloc.
        let get = || unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        // The index names the purge delay: its default is 1,000 ms.
        assert_eq!(
            get(),
            1000,
            "the option index is not mimalloc's purge delay"
        );
        tune_allocator();
        assert_eq!(get(), 0);
    }
}
