//! Storage through sqlx's `Any` driver: one code path for SQLite (the default, a file in WAL
//! mode) and PostgreSQL. Only portable SQL: TEXT and BIGINT columns, `$n` parameters.
//!
//! Every write goes through [`WriteTx`]: an explicit transaction on a connection of its own
//! that is thrown away (never returned to the pool) if anything in it fails. A connection
//! whose `COMMIT` failed (a full disk, a lost lock) may still hold an open transaction; handed
//! out again it would answer later writes from inside that transaction, acknowledging changes
//! that never reach the file and keeping the write lock for good. Discarding it is what lets
//! the server recover by itself once writes succeed again.

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, AssertSqlSafe, Row};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use tokio::sync::{Mutex, OwnedMutexGuard};

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

/// The database: its pool, and what every write needs.
#[derive(Clone)]
pub struct Db {
    pub pool: AnyPool,
    sqlite: bool,
    /// SQLite allows one writer at a time; queueing writers here, in order, avoids SQLite's
    /// sleep-and-retry on a busy database (PostgreSQL needs no such queue).
    queue: Option<Arc<Mutex<()>>>,
    /// A cap on the SQLite file's size in pages (`PRAGMA max_page_count`), applied before each
    /// write: `u32::MAX` while none was ever set, 0 once lifted. The tests' full disk.
    max_pages: Arc<AtomicU32>,
    /// The SQLite file, for the start-up checks.
    file: Option<PathBuf>,
}

/// Opens (creating if needed) the database and brings its schema up to date.
pub async fn open(url: &str, sync: Sync) -> Result<Db, sqlx::Error> {
    install_default_drivers();
    let sqlite = url.starts_with("sqlite:");
    let file = sqlite_file(url);
    let url = if sqlite && !url.contains("mode=") && !url.contains(":memory:") {
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
                    // WAL: readers do not block the writer; NORMAL sync is safe with WAL
                    // against a crash of the process (see `Sync`).
                    sqlx::query("PRAGMA journal_mode=WAL")
                        .execute(&mut *conn)
                        .await?;
                    let sync = match sync {
                        Sync::Normal => "PRAGMA synchronous=NORMAL",
                        Sync::Full => "PRAGMA synchronous=FULL",
                    };
                    sqlx::query(sync).execute(&mut *conn).await?;
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
    let db = Db {
        pool,
        sqlite,
        queue: sqlite.then(|| Arc::new(Mutex::new(()))),
        max_pages: Arc::new(AtomicU32::new(u32::MAX)),
        file,
    };
    migrate(&db).await?;
    Ok(db)
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

async fn migrate(db: &Db) -> Result<(), sqlx::Error> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(&db.pool)
        .await?;
    let mut tx = db.begin_write().await?;
    let current: i64 = match sqlx::query("SELECT version FROM schema_version")
        .fetch_optional(tx.conn())
        .await?
    {
        Some(row) => row.try_get(0)?,
        None => {
            sqlx::query("INSERT INTO schema_version (version) VALUES (0)")
                .execute(tx.conn())
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
            sqlx::query(*statement).execute(tx.conn()).await?;
        }
        sqlx::query("UPDATE schema_version SET version = $1")
            .bind(i as i64 + 1)
            .execute(tx.conn())
            .await?;
    }
    tx.commit().await
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
        let mut tx = db.begin_write().await?;
        sqlx::query("CREATE UNIQUE INDEX IF NOT EXISTS users_name_key ON users(name_key)")
            .execute(tx.conn())
            .await?;
        tx.commit().await?;
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

    /// Begins a write transaction, queued behind other writers on SQLite.
    pub async fn begin_write(&self) -> Result<WriteTx, sqlx::Error> {
        let queue = match &self.queue {
            Some(q) => Some(q.clone().lock_owned().await),
            None => None,
        };
        let conn = self.pool.acquire().await?;
        let mut tx = WriteTx {
            conn: Some(conn),
            _queue: queue,
        };
        // The cap is a setting of each connection, kept until changed: once a cap has been
        // set, every write sets it again (SQLite's own largest value when it is lifted).
        let pages = self.max_pages.load(Ordering::Relaxed);
        if self.sqlite && pages != u32::MAX {
            let pages = if pages == 0 { 4_294_967_294 } else { pages };
            let pragma = format!("PRAGMA max_page_count = {pages}");
            sqlx::query(AssertSqlSafe(pragma))
                .execute(tx.conn())
                .await?;
        }
        // IMMEDIATE: take SQLite's write lock now (waiting up to busy_timeout for another
        // process), rather than failing half-way through the transaction.
        let begin = if self.sqlite {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN"
        };
        sqlx::raw_sql(begin).execute(tx.conn()).await?;
        Ok(tx)
    }

    /// Start-up checks: the database takes a write (a read-only file or folder is found now,
    /// not at the first move), and a warning when its disk is nearly full.
    pub async fn check_writable(&self) -> Result<Option<String>, String> {
        let probe = async {
            let mut tx = self.begin_write().await?;
            sqlx::query("UPDATE schema_version SET version = version")
                .execute(tx.conn())
                .await?;
            tx.commit().await
        };
        probe
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

/// A write transaction on a connection of its own. Commit it; anything else (an error, a
/// drop) rolls it back by closing the connection, which never goes back to the pool.
pub struct WriteTx {
    conn: Option<PoolConnection<Any>>,
    _queue: Option<OwnedMutexGuard<()>>,
}

impl WriteTx {
    pub fn conn(&mut self) -> &mut AnyConnection {
        self.conn
            .as_deref_mut()
            .expect("a WriteTx holds its connection until commit or drop")
    }

    /// Commits; on failure the connection is closed, so no half-open transaction survives.
    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        sqlx::raw_sql("COMMIT").execute(self.conn()).await?;
        // Committed: the connection is clean and may serve again.
        drop(self.conn.take());
        Ok(())
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        if let Some(mut conn) = self.conn.take() {
            // Not committed: close it (SQLite and PostgreSQL roll back an open transaction
            // when its connection closes) instead of returning it to the pool.
            conn.close_on_drop();
        }
    }
}
