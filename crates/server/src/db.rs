//! Storage through sqlx's `Any` driver: one code path for SQLite (the default, a file in WAL
//! mode) and PostgreSQL. Only portable SQL: TEXT and BIGINT columns, `$n` parameters.

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};

/// The schema, by version. Each step runs once, in order, in a transaction.
const MIGRATIONS: &[&[&str]] = &[&[
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
]];

/// Opens (creating if needed) the database and brings its schema up to date.
pub async fn open(url: &str) -> Result<AnyPool, sqlx::Error> {
    install_default_drivers();
    let sqlite = url.starts_with("sqlite:");
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
                    // WAL: readers do not block the writer; NORMAL sync is safe with WAL.
                    sqlx::query("PRAGMA journal_mode=WAL")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA synchronous=NORMAL")
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
    migrate(&pool).await?;
    Ok(pool)
}

async fn migrate(pool: &AnyPool) -> Result<(), sqlx::Error> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(pool)
        .await?;
    let mut tx = pool.begin().await?;
    let current: i64 = match sqlx::query("SELECT version FROM schema_version")
        .fetch_optional(&mut *tx)
        .await?
    {
        Some(row) => row.try_get(0)?,
        None => {
            sqlx::query("INSERT INTO schema_version (version) VALUES (0)")
                .execute(&mut *tx)
                .await?;
            0
        }
    };
    for (i, step) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        for statement in *step {
            sqlx::query(*statement).execute(&mut *tx).await?;
        }
        sqlx::query("UPDATE schema_version SET version = $1")
            .bind(i as i64 + 1)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await
}
