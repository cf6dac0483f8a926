//! Storage. Reads go through sqlx's `Any` pool (SQLite in WAL mode, or PostgreSQL), and only
//! for what is not in memory (a game loaded back, the lobby, a session not yet cached). Every
//! write goes through **one writer** that owns the database connection it writes with: on
//! SQLite a task of the runtime with a rusqlite connection (a thread of its own with
//! `--sync full`, whose commits wait for the disk), on PostgreSQL a task with one sqlx
//! connection. Writes queued while a transaction runs are committed together in
//! the next one (group commit), each inside a savepoint of its own so that one refused write
//! does not undo the others; an answer says "stored" only after its COMMIT succeeded. A
//! transaction that could not commit is rolled back, and a connection left inside a transaction
//! (a COMMIT that failed on a full disk) is closed and opened anew, so that later writes never
//! land inside it. Only portable SQL: TEXT and BIGINT columns, `$n` parameters.

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use tokio::sync::{mpsc, oneshot};

/// The schema, by version. Each step runs once, in order, in a transaction.
const MIGRATIONS: &[&[&str]] = &[
    &[
        "CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        pass_hash TEXT NOT NULL,
        created BIGINT NOT NULL)",
        "CREATE TABLE sessions (
        token TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        created BIGINT NOT NULL,
        expires BIGINT NOT NULL)",
        "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        status TEXT NOT NULL,
        invite TEXT,
        version BIGINT NOT NULL,
        snapshot TEXT NOT NULL,
        to_act TEXT,
        winner TEXT,
        created BIGINT NOT NULL,
        updated BIGINT NOT NULL)",
        "CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,
        user_id TEXT REFERENCES users(id),
        bot TEXT,
        PRIMARY KEY (game_id, side))",
        "CREATE TABLE actions (
        game_id TEXT NOT NULL REFERENCES games(id),
        idx BIGINT NOT NULL,
        side TEXT NOT NULL,
        action TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, idx))",
        "CREATE INDEX seats_user ON seats(user_id)",
        "CREATE INDEX games_status ON games(status)",
    ],
    // Names are unique without regard to case: `name_key` is the lower-cased name. Its unique
    // index is made by `ensure_unique_names`, which first reports names that already clash.
    &[
        "ALTER TABLE users ADD COLUMN name_key TEXT",
        "UPDATE users SET name_key = LOWER(name)",
    ],
    // Batches (issue 17): the index of the first action of the change an action was stored in
    // (its own for an action sent alone; NULL in rows from before); one undo takes a batch
    // back whole, also after a reload.
    &["ALTER TABLE actions ADD COLUMN batch BIGINT"],
    // The snapshot is the position after the first `snapshot_at` actions (NULL: after all of
    // them, as every snapshot was before), rewritten every `SNAPSHOT_EVERY` actions.
    &["ALTER TABLE games ADD COLUMN snapshot_at BIGINT"],
    // Issue 16 §3–4: endings outside the rules, offers, chat, notepads, mutes
    // (docs/server.md, "Ending, offering, withdrawing" and "Talking and noting").
    &[
        "ALTER TABLE games ADD COLUMN ended TEXT",
        "ALTER TABLE games ADD COLUMN rematch TEXT",
        "CREATE TABLE offers (
        game_id TEXT NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL,
        from_side TEXT NOT NULL,
        from_user TEXT NOT NULL REFERENCES users(id),
        swap BIGINT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, kind))",
        "CREATE TABLE chat (
        game_id TEXT NOT NULL REFERENCES games(id),
        idx BIGINT NOT NULL,
        channel TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users(id),
        text TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, idx))",
        "CREATE TABLE chat_seen (
        user_id TEXT NOT NULL REFERENCES users(id),
        game_id TEXT NOT NULL REFERENCES games(id),
        seen BIGINT NOT NULL,
        PRIMARY KEY (user_id, game_id))",
        "CREATE TABLE notes (
        game_id TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,
        text TEXT NOT NULL,
        updated BIGINT NOT NULL,
        PRIMARY KEY (game_id, side))",
        "CREATE TABLE mutes (
        user_id TEXT NOT NULL REFERENCES users(id),
        muted_id TEXT NOT NULL REFERENCES users(id),
        PRIMARY KEY (user_id, muted_id))",
    ],
    // Notifications (issue 16 §1): an account's settings (`off`: the kinds switched off, by
    // comma; `mail`: 0 once unsubscribed), and when the last "your turn" mail of a game went.
    &[
        "CREATE TABLE notify_settings (
        user_id TEXT PRIMARY KEY REFERENCES users(id),
        email TEXT,
        mail BIGINT NOT NULL,
        webhook TEXT,
        off TEXT NOT NULL,
        unsubscribe TEXT UNIQUE,
        updated BIGINT NOT NULL)",
        "CREATE TABLE notify_mailed (
        game_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, user_id))",
    ],
    // Accounts (issue 16 §6, task h16acct): `deleted` (when an account was deleted; its name
    // was replaced), the address an account confirmed (`confirmed`: mail goes out only while it
    // equals `email`), and the single-use links of mails (`purpose` 'confirm' or 'reset'; the
    // token stored hashed; `email`: the address a confirmation link is for).
    &[
        "ALTER TABLE users ADD COLUMN deleted BIGINT",
        "ALTER TABLE notify_settings ADD COLUMN confirmed TEXT",
        "CREATE TABLE account_tokens (
        token TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        purpose TEXT NOT NULL,
        email TEXT,
        created BIGINT NOT NULL,
        expires BIGINT NOT NULL)",
        "CREATE INDEX account_tokens_user ON account_tokens(user_id)",
    ],
    // Task h16hist (issue 16 §5, seeing more): the list of live games and the search of
    // finished games read games by status, newest first, and by game and scenario.
    &[
        "CREATE INDEX games_status_updated ON games(status, updated)",
        "CREATE INDEX games_status_game ON games(status, game, scenario, updated)",
    ],
    // Task h16clock — time controls (issue 16 §2; docs/server.md, "Time controls"): a game's
    // clocks (`clock`: the control, the seconds left per side, who runs since when; NULL
    // without a time control), the next time a reminder or an expiry falls due (`due`), and
    // the accounts' vacations.
    &[
        "ALTER TABLE games ADD COLUMN clock TEXT",
        "ALTER TABLE games ADD COLUMN due BIGINT",
        "CREATE INDEX games_due ON games(due)",
        "CREATE TABLE vacations (
        user_id TEXT NOT NULL REFERENCES users(id),
        starts BIGINT NOT NULL,
        ends BIGINT NOT NULL,
        PRIMARY KEY (user_id, starts))",
    ],
    // Task h16rate — ratings (issue 16 §6; docs/server.md, "Ratings"): whether a game is
    // rated (NULL in games from before: unrated), each account's Glicko-2 rating per game and
    // pool (the figures as exact decimal text; `sort`, the rating in thousandths, orders the
    // leaderboard), and each rated game's change per seat (`before`/`after_figures`: Standing::text), stored
    // in the write that ends the game.
    &[
        "ALTER TABLE games ADD COLUMN rated BIGINT",
        "CREATE TABLE ratings (
        user_id TEXT NOT NULL REFERENCES users(id),
        game TEXT NOT NULL,
        pool TEXT NOT NULL,
        rating TEXT NOT NULL,
        deviation TEXT NOT NULL,
        volatility TEXT NOT NULL,
        games BIGINT NOT NULL,
        sort BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        PRIMARY KEY (user_id, game, pool))",
        "CREATE INDEX ratings_board ON ratings(game, pool, sort)",
        "CREATE TABLE rating_changes (
        game_id TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,
        user_id TEXT REFERENCES users(id),
        bot TEXT,
        pool TEXT NOT NULL,
        before_figures TEXT NOT NULL,
        after_figures TEXT NOT NULL,
        PRIMARY KEY (game_id, side))",
    ],
    // Task h13 (issue 13, the writes of an action): the search of finished games needs its
    // indexes on finished games only. Indexes on every game's `updated` were two more B-tree
    // pages written to the WAL by every action of a live game; partial ones are not touched
    // until a game ends. (The list of live games reads the active ones by `games_status`.)
    &[
        "DROP INDEX games_status_updated",
        "DROP INDEX games_status_game",
        "CREATE INDEX games_finished_updated ON games(updated) WHERE status = 'finished'",
        "CREATE INDEX games_finished_game ON games(game, scenario, updated) WHERE status = 'finished'",
    ],
];

/// How SQLite makes a commit durable (PostgreSQL keeps its own `synchronous_commit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sync {
    /// WAL with `synchronous=NORMAL`: a commit survives the process being killed; the last
    /// commits before a power loss may be lost (never the file's consistency).
    #[default]
    Normal,
    /// `synchronous=FULL`: every commit is fsync'd before it is acknowledged.
    Full,
}

impl Sync {
    pub fn parse(s: &str) -> Result<Sync, String> {
        match s {
            "normal" => Ok(Sync::Normal),
            "full" => Ok(Sync::Full),
            _ => Err(format!("--sync is normal or full, not {s:?}")),
        }
    }
}

/// The database: the read pool and the one writer.
#[derive(Clone)]
pub struct Db {
    /// For reads only; every write goes through [`Db::write`].
    pub pool: AnyPool,
    sqlite: bool,
    writer: mpsc::Sender<Job>,
    /// A cap on the SQLite file's size in pages (`PRAGMA max_page_count`) for the writer's
    /// connection: `u32::MAX` while none was ever set, 0 once lifted. The tests' full disk.
    max_pages: Arc<AtomicU32>,
    /// The SQLite file, for the start-up checks.
    file: Option<PathBuf>,
}

/// A value bound to a statement's parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Text(String),
    Int(i64),
    /// A NULL of a text column.
    Null,
    /// A NULL of a BIGINT column (PostgreSQL types a parameter by its first binding: a
    /// statement binding a number or NULL to the same parameter must bind an integer NULL).
    NullInt,
}

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Text(s.to_string())
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Self {
        Arg::Text(s.clone())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Text(s)
    }
}
impl From<i64> for Arg {
    fn from(n: i64) -> Self {
        Arg::Int(n)
    }
}
impl<T: Into<Arg>> From<Option<T>> for Arg {
    fn from(v: Option<T>) -> Self {
        v.map_or(Arg::Null, Into::into)
    }
}

/// One statement of a write, with `$1`, `$2`... parameters.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub sql: &'static str,
    pub args: Vec<Arg>,
    /// When set, the write fails with [`WriteError::Unmet`] (and changes nothing) unless the
    /// statement changed exactly this many rows: how a write says "only if the game is still
    /// at version V" or "only if the name is free".
    pub expect: Option<(u64, &'static str)>,
}

impl Stmt {
    pub fn new(sql: &'static str, args: Vec<Arg>) -> Stmt {
        Stmt {
            sql,
            args,
            expect: None,
        }
    }

    /// Fails the write with `Unmet(reason)` unless exactly `rows` rows changed.
    pub fn expect_rows(mut self, rows: u64, reason: &'static str) -> Stmt {
        self.expect = Some((rows, reason));
        self
    }
}

/// Why a write was not stored. Nothing of it was.
#[derive(Clone, Debug, PartialEq)]
pub enum WriteError {
    /// A statement's [`Stmt::expect_rows`] condition did not hold.
    Unmet(&'static str),
    /// A unique index refused a row (a name taken meanwhile).
    Unique,
    /// The database could not store it: a full disk, a lock held elsewhere, a lost connection.
    Failed(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Unmet(r) => write!(f, "not stored: {r}"),
            WriteError::Unique => write!(f, "not stored: a unique index refused the row"),
            WriteError::Failed(e) => write!(f, "{e}"),
        }
    }
}

/// A write waiting for the writer: its statements, run in one savepoint, and who waits.
struct Job {
    stmts: Vec<Stmt>,
    reply: oneshot::Sender<Result<(), WriteError>>,
}

/// Writes queued beyond this wait for room (back-pressure instead of unbounded memory).
const QUEUE: usize = 4096;
/// Writes committed in one transaction at most.
const GROUP: usize = 128;

/// Opens (creating if needed) the database, brings its schema up to date and starts its
/// writer.
pub async fn open(url: &str, sync: Sync) -> Result<Db, sqlx::Error> {
    install_default_drivers();
    let sqlite = url.starts_with("sqlite:");
    let file = sqlite_file(url);
    if sqlite && file.is_none() {
        return Err(sqlx::Error::Configuration(
            "SQLite needs a file (sqlite://FILE): a memory database cannot be shared by the writer and the readers".into(),
        ));
    }
    let url = if sqlite && !url.contains("mode=") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}mode=rwc")
    } else {
        url.to_string()
    };
    let pool = AnyPoolOptions::new()
        .max_connections(if sqlite { 4 } else { 16 })
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if sqlite {
                    // WAL: readers do not block the writer.
                    sqlx::query("PRAGMA journal_mode=WAL")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA busy_timeout=5000")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA foreign_keys=ON")
                        .execute(&mut *conn)
                        .await?;
                }
                Ok(())
            })
        })
        .connect(&url)
        .await?;
    migrate(&pool, sqlite).await?;
    let max_pages = Arc::new(AtomicU32::new(u32::MAX));
    let (tx, rx) = mpsc::channel(QUEUE);
    match &file {
        Some(path) => {
            let on_runtime = sync == Sync::Normal;
            let w = SqliteWriter {
                path: path.clone(),
                // A URL that asks for a read-only database gets a writer that cannot write.
                read_only: url.contains("mode=ro"),
                sync,
                on_runtime,
                max_pages: max_pages.clone(),
                conn: None,
                pages_set: u32::MAX,
                sql_cache: Default::default(),
            };
            if on_runtime {
                tokio::spawn(sqlite_writer_task(w, rx));
            } else {
                std::thread::Builder::new()
                    .name("muster-writer".into())
                    .spawn(move || sqlite_writer_thread(w, rx))
                    .map_err(sqlx::Error::Io)?;
            }
        }
        None => {
            let url = url.clone();
            tokio::spawn(async move { pg_writer(&url, rx).await });
        }
    }
    Ok(Db {
        pool,
        sqlite,
        writer: tx,
        max_pages,
        file,
    })
}

/// The file behind a `sqlite://FILE?...` URL (none for memory databases).
fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.trim_start_matches("//");
    let path = rest.split('?').next().unwrap_or_default();
    (!path.is_empty() && !path.contains(":memory:")).then(|| PathBuf::from(path))
}

/// The newest schema this program knows.
pub fn schema_version() -> i64 {
    MIGRATIONS.len() as i64
}

/// Start-up only, before the writer opens: the migrations in one transaction.
async fn migrate(pool: &AnyPool, sqlite: bool) -> Result<(), sqlx::Error> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(pool)
        .await?;
    let mut conn = pool.acquire().await?;
    sqlx::raw_sql(if sqlite { "BEGIN IMMEDIATE" } else { "BEGIN" })
        .execute(&mut *conn)
        .await?;
    let steps = async {
        let current: i64 = match sqlx::query("SELECT version FROM schema_version")
            .fetch_optional(&mut *conn)
            .await?
        {
            Some(row) => row.try_get(0)?,
            None => {
                sqlx::query("INSERT INTO schema_version (version) VALUES (0)")
                    .execute(&mut *conn)
                    .await?;
                0
            }
        };
        if current > schema_version() {
            return Err(sqlx::Error::Protocol(format!(
                "the database's schema is version {current}, newer than this muster knows ({}): run the newer muster, or restore a backup made for this one",
                schema_version()
            )));
        }
        for (i, step) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            for statement in *step {
                sqlx::query(*statement).execute(&mut *conn).await?;
            }
            sqlx::query("UPDATE schema_version SET version = $1")
                .bind(i as i64 + 1)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }
    .await;
    match steps {
        Ok(()) => {
            sqlx::raw_sql("COMMIT").execute(&mut *conn).await?;
            Ok(())
        }
        Err(e) => {
            conn.close_on_drop();
            Err(e)
        }
    }
}

/// Makes names unique without regard to case. Names that already clash (`Alice` beside
/// `alice`, from before the rule) are listed for the operator instead: start-up goes on, the
/// clashing accounts keep working, sign-up refuses every new case variant, and the index is
/// made on the first start after the operator has renamed one of each pair.
pub async fn ensure_unique_names(db: &Db) -> Result<Vec<Vec<String>>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT name_key FROM users GROUP BY name_key HAVING COUNT(*) > 1 ORDER BY name_key",
    )
    .fetch_all(&db.pool)
    .await?;
    let mut clashes = Vec::new();
    for r in &rows {
        let key: String = r.try_get(0)?;
        let names = sqlx::query("SELECT name FROM users WHERE name_key = $1 ORDER BY name")
            .bind(&key)
            .fetch_all(&db.pool)
            .await?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<Vec<String>, _>>()?;
        clashes.push(names);
    }
    if clashes.is_empty() {
        db.write(vec![Stmt::new(
            "CREATE UNIQUE INDEX IF NOT EXISTS users_name_key ON users(name_key)",
            vec![],
        )])
        .await
        .map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
    }
    Ok(clashes)
}

impl Db {
    pub fn is_sqlite(&self) -> bool {
        self.sqlite
    }

    /// Caps the SQLite file at `pages` pages (0: no cap) from the next write on.
    pub fn set_max_pages(&self, pages: u32) {
        self.max_pages
            .store(pages.min(u32::MAX - 1), Ordering::Relaxed);
    }

    /// Stores `stmts` as one all-or-nothing write; `Ok` only once it is committed.
    pub async fn write(&self, stmts: Vec<Stmt>) -> Result<(), WriteError> {
        let (reply, answer) = oneshot::channel();
        self.writer
            .send(Job { stmts, reply })
            .await
            .map_err(|_| WriteError::Failed("the database writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| WriteError::Failed("the database writer has stopped".into()))?
    }

    /// Start-up checks: the database takes a write (a read-only file or folder is found now,
    /// not at the first move), and a warning when its disk is nearly full.
    pub async fn check_writable(&self) -> Result<Option<String>, String> {
        self.write(vec![Stmt::new(
            "UPDATE schema_version SET version = version",
            vec![],
        )])
        .await
        .map_err(|e| format!("the database cannot be written: {e}"))?;
        Ok(self.file.as_deref().and_then(low_disk_warning))
    }
}

/// Below this much free space on the database's disk, `muster serve` warns at start-up.
pub const LOW_DISK_BYTES: u64 = 64 * 1024 * 1024;

fn low_disk_warning(file: &Path) -> Option<String> {
    let dir = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let st = rustix::fs::statvfs(dir).ok()?;
    let free = st.f_bavail.saturating_mul(st.f_frsize);
    (free < LOW_DISK_BYTES).then(|| {
        format!(
            "only {} MiB free on the disk of {}: when it fills, moves are refused (503) until space is freed",
            free / (1024 * 1024),
            file.display()
        )
    })
}

/// Takes the next writes: the first one waited for, then whatever else is queued (up to
/// [`GROUP`]), so that writes arriving together commit together.
fn take_group(first: Job, rx: &mut mpsc::Receiver<Job>) -> Vec<Job> {
    let mut group = vec![first];
    while group.len() < GROUP {
        match rx.try_recv() {
            Ok(job) => group.push(job),
            Err(_) => break,
        }
    }
    group
}

/// `$1` → `?1`: SQLite's numbered parameters (its `$name` parameters are named, not numbered).
fn sqlite_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

/// The SQLite writer's connection and what it remembers between groups: opened on the first
/// write and again after a transaction that could not be ended.
struct SqliteWriter {
    path: PathBuf,
    read_only: bool,
    sync: Sync,
    /// Whether the writer runs on the runtime (see [`sqlite_writer_task`]): then its
    /// connection never waits inside SQLite (busy timeout 0, no automatic checkpoint).
    on_runtime: bool,
    max_pages: Arc<AtomicU32>,
    conn: Option<rusqlite::Connection>,
    pages_set: u32,
    sql_cache: std::collections::HashMap<&'static str, String>,
}

impl SqliteWriter {
    fn open(&self) -> rusqlite::Result<rusqlite::Connection> {
        use rusqlite::{Connection, OpenFlags};
        let conn = if self.read_only {
            Connection::open_with_flags(&self.path, OpenFlags::SQLITE_OPEN_READ_ONLY)?
        } else {
            Connection::open(&self.path)?
        };
        conn.busy_timeout(BUSY_WAIT)?;
        conn.set_prepared_statement_cache_capacity(64);
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(
            None,
            "synchronous",
            match self.sync {
                Sync::Normal => "NORMAL",
                Sync::Full => "FULL",
            },
        )?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        if self.on_runtime {
            // The checkpoint (which fsyncs) runs on the checkpoint thread, not in a commit.
            conn.pragma_update(None, "wal_autocheckpoint", 0)?;
            // A lock held by another process is waited for by the task, asleep.
            conn.busy_timeout(std::time::Duration::ZERO)?;
        }
        Ok(conn)
    }

    /// The connection, opened if needed, with the test cap on the file's size applied when it
    /// changed; the error every job of the group gets when it cannot be opened.
    fn connection(&mut self) -> Result<&mut rusqlite::Connection, WriteError> {
        if self.conn.is_none() {
            let c = self
                .open()
                .map_err(|e| WriteError::Failed(format!("cannot open the database: {e}")))?;
            self.conn = Some(c);
            self.pages_set = u32::MAX;
        }
        let c = self
            .conn
            .as_mut()
            .ok_or_else(|| WriteError::Failed("the database is not open".into()))?;
        let pages = self.max_pages.load(Ordering::Relaxed);
        if pages != self.pages_set && pages != u32::MAX {
            let n = if pages == 0 { 4_294_967_294 } else { pages };
            if c.pragma_update(None, "max_page_count", n).is_ok() {
                self.pages_set = pages;
            }
        }
        Ok(c)
    }

    /// Runs the group in the transaction just begun; a connection left inside a transaction
    /// it could not end is closed, so that later writes never land inside it.
    fn finish(&mut self, group: &[Job]) -> Vec<Result<(), WriteError>> {
        let Some(c) = self.conn.as_mut() else {
            return vec![Err(WriteError::Failed("the database is not open".into())); group.len()];
        };
        let results = sqlite_group(c, group, &mut self.sql_cache);
        if !c.is_autocommit() {
            self.conn = None;
        }
        results
    }
}

/// How long a write waits for SQLite's write lock held by another process before it is
/// refused.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Commits between two checkpoints of the write-ahead log (SQLite's own default is a
/// checkpoint every 1,000 pages, a few hundred of these commits).
const CHECKPOINT_EVERY: u32 = 256;

fn reply_all(group: Vec<Job>, results: Vec<Result<(), WriteError>>) {
    for (job, result) in group.into_iter().zip(results) {
        let _ = job.reply.send(result);
    }
}

/// The SQLite writer as a thread with its own connection, for the life of the process: with
/// `--sync full`, where every commit waits for the disk, which must not hold up the runtime.
fn sqlite_writer_thread(mut w: SqliteWriter, mut rx: mpsc::Receiver<Job>) {
    while let Some(first) = rx.blocking_recv() {
        let group = take_group(first, &mut rx);
        let begun = w.connection().and_then(|c| {
            // IMMEDIATE: take SQLite's write lock now (waiting up to the busy timeout for
            // another process), rather than failing half-way through the transaction.
            run(c, "BEGIN IMMEDIATE").map_err(|e| sqlite_error(&e))
        });
        let results = match begun {
            Ok(()) => w.finish(&group),
            Err(e) => vec![Err(e); group.len()],
        };
        reply_all(group, results);
    }
}

/// The SQLite writer as a task of the runtime (the default, `--sync normal`): a write is a
/// hand-off between tasks, not a wake-up of another thread and back. A commit there does not
/// wait for the disk (the WAL is fsync'd only at checkpoints, which the checkpoint thread
/// runs), and a write lock held by another process is waited for asleep, up to
/// [`BUSY_WAIT`], never inside SQLite.
async fn sqlite_writer_task(mut w: SqliteWriter, mut rx: mpsc::Receiver<Job>) {
    let checkpoint = checkpoint_thread(&w.path);
    let mut commits = 0u32;
    while let Some(first) = rx.recv().await {
        let group = take_group(first, &mut rx);
        let mut waited = std::time::Duration::ZERO;
        let mut pause = std::time::Duration::from_millis(1);
        let begun = loop {
            // IMMEDIATE: take SQLite's write lock now, rather than failing half-way through.
            let attempt = match w.connection() {
                Err(e) => break Err(e),
                Ok(c) => run(c, "BEGIN IMMEDIATE"),
            };
            match attempt {
                Ok(()) => break Ok(()),
                Err(e) if sqlite_busy(&e) && waited < BUSY_WAIT => {
                    tokio::time::sleep(pause).await;
                    waited += pause;
                    pause = (pause * 2).min(std::time::Duration::from_millis(100));
                }
                Err(e) => break Err(sqlite_error(&e)),
            }
        };
        let results = match begun {
            Ok(()) => w.finish(&group),
            Err(e) => vec![Err(e); group.len()],
        };
        let committed = results.iter().any(Result::is_ok);
        reply_all(group, results);
        if committed {
            commits += 1;
            if commits >= CHECKPOINT_EVERY {
                commits = 0;
                match checkpoint.as_ref().map(|t| t.try_send(())) {
                    Some(Ok(())) | Some(Err(std::sync::mpsc::TrySendError::Full(()))) => {}
                    // No checkpoint thread: checkpoint here rather than let the log grow.
                    _ => {
                        if let Some(c) = w.conn.as_ref() {
                            let _ = c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                        }
                    }
                }
            }
        }
    }
}

/// A thread that checkpoints the write-ahead log into the database file when asked (PASSIVE:
/// it never holds up a writer or a reader), on a connection of its own. It ends with the
/// writer.
fn checkpoint_thread(path: &Path) -> Option<std::sync::mpsc::SyncSender<()>> {
    let (tx, rx) = std::sync::mpsc::sync_channel::<()>(1);
    let path = path.to_path_buf();
    std::thread::Builder::new()
        .name("muster-checkpoint".into())
        .spawn(move || {
            let Ok(c) = rusqlite::Connection::open(&path) else {
                return;
            };
            while rx.recv().is_ok() {
                let _ = c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
            }
        })
        .ok()
        .map(|_| tx)
}

/// Whether SQLite refused for a lock held elsewhere (to be waited for).
fn sqlite_busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

fn sqlite_error(e: &rusqlite::Error) -> WriteError {
    if let rusqlite::Error::SqliteFailure(f, _) = e
        && f.code == rusqlite::ErrorCode::ConstraintViolation
        && matches!(f.extended_code, 2067 | 1555)
    {
        return WriteError::Unique;
    }
    WriteError::Failed(e.to_string())
}

/// Runs one statement without parameters through the connection's statement cache.
fn run(c: &rusqlite::Connection, sql: &str) -> rusqlite::Result<()> {
    c.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// Runs a job's statements; the first that fails (or whose row count is not the expected one)
/// ends it.
fn sqlite_job(
    c: &rusqlite::Connection,
    job: &Job,
    cache: &mut std::collections::HashMap<&'static str, String>,
) -> Result<(), WriteError> {
    for stmt in &job.stmts {
        let sql = cache
            .entry(stmt.sql)
            .or_insert_with(|| sqlite_sql(stmt.sql));
        let params = stmt.args.iter().map(|a| match a {
            Arg::Text(s) => rusqlite::types::Value::Text(s.clone()),
            Arg::Int(n) => rusqlite::types::Value::Integer(*n),
            Arg::Null | Arg::NullInt => rusqlite::types::Value::Null,
        });
        let n = c
            .prepare_cached(sql)
            .and_then(|mut st| st.execute(rusqlite::params_from_iter(params)))
            .map_err(|e| sqlite_error(&e))?;
        if let Some((rows, reason)) = stmt.expect
            && n as u64 != rows
        {
            return Err(WriteError::Unmet(reason));
        }
    }
    Ok(())
}

/// One transaction for the group, already begun (`BEGIN IMMEDIATE`); each job in a savepoint
/// when there are several (one job alone needs none: its failure rolls back the transaction).
/// Returns each job's result.
fn sqlite_group(
    c: &mut rusqlite::Connection,
    group: &[Job],
    cache: &mut std::collections::HashMap<&'static str, String>,
) -> Vec<Result<(), WriteError>> {
    let all = |e: WriteError| vec![Err(e); group.len()];
    if let [job] = group {
        if let Err(e) = sqlite_job(c, job, cache) {
            let _ = run(c, "ROLLBACK");
            return vec![Err(e)];
        }
    } else {
        let mut results = Vec::with_capacity(group.len());
        for job in group {
            if let Err(e) = run(c, "SAVEPOINT job") {
                let _ = run(c, "ROLLBACK");
                return all(sqlite_error(&e));
            }
            let outcome = sqlite_job(c, job, cache);
            if c.is_autocommit() {
                // SQLite ended the whole transaction itself (a full disk can): nothing of the
                // group was kept.
                return all(outcome.err().unwrap_or_else(|| {
                    WriteError::Failed("the transaction was rolled back".into())
                }));
            }
            let end = if outcome.is_ok() {
                run(c, "RELEASE job")
            } else {
                run(c, "ROLLBACK TO job").and_then(|()| run(c, "RELEASE job"))
            };
            if let Err(e) = end {
                let _ = run(c, "ROLLBACK");
                return all(sqlite_error(&e));
            }
            results.push(outcome);
        }
        if let Err(e) = run(c, "COMMIT") {
            let _ = run(c, "ROLLBACK");
            return all(sqlite_error(&e));
        }
        return results;
    }
    if let Err(e) = run(c, "COMMIT") {
        let _ = run(c, "ROLLBACK");
        return all(sqlite_error(&e));
    }
    vec![Ok(())]
}

/// The PostgreSQL writer: one connection of its own, reopened after any failure.
async fn pg_writer(url: &str, mut rx: mpsc::Receiver<Job>) {
    use sqlx::Connection;
    let mut conn: Option<sqlx::AnyConnection> = None;
    while let Some(first) = rx.recv().await {
        let group = take_group(first, &mut rx);
        if conn.is_none() {
            match sqlx::AnyConnection::connect(url).await {
                Ok(c) => conn = Some(c),
                Err(e) => {
                    let e = WriteError::Failed(format!("cannot connect to the database: {e}"));
                    for job in group {
                        let _ = job.reply.send(Err(e.clone()));
                    }
                    continue;
                }
            }
        }
        let Some(c) = conn.as_mut() else { continue };
        let (results, clean) = pg_group(c, &group).await;
        if !clean {
            conn = None;
        }
        for (job, result) in group.into_iter().zip(results) {
            let _ = job.reply.send(result);
        }
    }
}

fn sqlx_error(e: &sqlx::Error) -> WriteError {
    if let sqlx::Error::Database(d) = e
        && d.is_unique_violation()
    {
        return WriteError::Unique;
    }
    WriteError::Failed(e.to_string())
}

/// As [`sqlite_group`]; also says whether the connection is known to be outside any
/// transaction afterwards.
async fn pg_group(
    c: &mut sqlx::AnyConnection,
    group: &[Job],
) -> (Vec<Result<(), WriteError>>, bool) {
    let all = |e: WriteError| vec![Err(e); group.len()];
    if let Err(e) = sqlx::raw_sql("BEGIN").execute(&mut *c).await {
        return (all(sqlx_error(&e)), false);
    }
    let mut results = Vec::with_capacity(group.len());
    for job in group {
        if let Err(e) = sqlx::raw_sql("SAVEPOINT job").execute(&mut *c).await {
            let clean = sqlx::raw_sql("ROLLBACK").execute(&mut *c).await.is_ok();
            return (all(sqlx_error(&e)), clean);
        }
        let mut outcome = Ok(());
        for stmt in &job.stmts {
            let mut q = sqlx::query(stmt.sql);
            for a in &stmt.args {
                q = match a {
                    Arg::Text(s) => q.bind(s.clone()),
                    Arg::Int(n) => q.bind(*n),
                    Arg::Null => q.bind(Option::<String>::None),
                    Arg::NullInt => q.bind(Option::<i64>::None),
                };
            }
            match q.execute(&mut *c).await {
                Ok(done) => {
                    if let Some((rows, reason)) = stmt.expect
                        && done.rows_affected() != rows
                    {
                        outcome = Err(WriteError::Unmet(reason));
                        break;
                    }
                }
                Err(e) => {
                    outcome = Err(sqlx_error(&e));
                    break;
                }
            }
        }
        let end = if outcome.is_ok() {
            sqlx::raw_sql("RELEASE SAVEPOINT job")
                .execute(&mut *c)
                .await
        } else {
            sqlx::raw_sql("ROLLBACK TO SAVEPOINT job; RELEASE SAVEPOINT job")
                .execute(&mut *c)
                .await
        };
        if let Err(e) = end {
            let clean = sqlx::raw_sql("ROLLBACK").execute(&mut *c).await.is_ok();
            return (all(sqlx_error(&e)), clean);
        }
        results.push(outcome);
    }
    if let Err(e) = sqlx::raw_sql("COMMIT").execute(&mut *c).await {
        let clean = sqlx::raw_sql("ROLLBACK").execute(&mut *c).await.is_ok();
        return (all(sqlx_error(&e)), clean);
    }
    (results, true)
}

#[cfg(test)]
mod tests {
    use super::sqlite_sql;

    #[test]
    fn numbered_parameters_become_sqlite_numbered_parameters() {
        assert_eq!(
            sqlite_sql("UPDATE g SET a = $2 WHERE id = $1 AND b = $10"),
            "UPDATE g SET a = ?2 WHERE id = ?1 AND b = ?10"
        );
        assert_eq!(sqlite_sql("SELECT '$' || x"), "SELECT '$' || x");
    }
}
