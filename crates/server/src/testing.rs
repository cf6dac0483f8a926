//! Test support: a throwaway PostgreSQL server, started from the machine's PostgreSQL
//! binaries in a temporary folder and stopped (and deleted) on drop, or when the process that
//! started it ends. Used by the test suite and the load test, so that both run against SQLite
//! and PostgreSQL on a fresh machine.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// A running PostgreSQL cluster that trusts local connections.
pub struct TempPostgres {
    dir: PathBuf,
    bin: PathBuf,
    pub port: u16,
    as_postgres: bool,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);
static NEXT_DB: AtomicU32 = AtomicU32::new(0);

fn find_bin() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("initdb").exists() && p.join("pg_ctl").exists())
        .collect();
    versions.sort();
    versions.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

impl TempPostgres {
    /// Starts a cluster; a clear error when PostgreSQL is not installed (run `scripts/test`,
    /// which installs it).
    pub fn start() -> Result<TempPostgres, String> {
        let bin = find_bin().ok_or(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): scripts/test installs it with apt-get",
        )?;
        let dir = std::env::temp_dir().join(format!(
            "muster-pg-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // PostgreSQL refuses to run as root: run it as the postgres user then.
        let as_postgres = is_root();
        if as_postgres {
            run(Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir))?;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let pg = TempPostgres {
            dir,
            bin,
            port,
            as_postgres,
        };
        let data = pg.dir.join("data");
        pg.run_pg(
            "initdb",
            &[
                "-D",
                &s(&data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        )?;
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            s(&pg.dir)
        );
        pg.run_pg(
            "pg_ctl",
            &[
                "-D",
                &s(&data),
                "-o",
                &options,
                "-l",
                &s(&pg.dir.join("log")),
                "-w",
                "start",
            ],
        )?;
        pg.watch_owner();
        Ok(pg)
    }

    /// A cluster kept in a `static` is never dropped, so without this every test run would
    /// leave a server behind. A detached shell waits for this process to end, then stops the
    /// cluster and deletes its folder (harmless when `drop` already has).
    fn watch_owner(&self) {
        let quote = |p: &Path| format!("'{}'", s(p).replace('\'', r"'\''"));
        let pg_ctl = quote(&self.bin.join("pg_ctl"));
        let run_as = if self.as_postgres {
            "runuser -u postgres -- "
        } else {
            ""
        };
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
             {run_as}{pg_ctl} -D {data} -m immediate stop; rm -rf {dir}",
            pid = std::process::id(),
            data = quote(&self.dir.join("data")),
            dir = quote(&self.dir),
        );
        // Output goes nowhere: a child holding the test's output open would keep whoever reads
        // it (cargo, a pipe) waiting.
        let _ = Command::new("sh")
            .arg("-c")
            .arg(script)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
    }

    fn run_pg(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            Command::new(exe)
        };
        cmd.args(args).current_dir(&self.dir);
        run(&mut cmd)
    }

    /// A fresh, empty database on this cluster.
    pub async fn database(&self) -> Result<String, String> {
        use sqlx::Connection;
        sqlx::any::install_default_drivers();
        let name = format!("muster_{}", NEXT_DB.fetch_add(1, Ordering::Relaxed));
        let admin = format!("postgres://postgres@127.0.0.1:{}/postgres", self.port);
        let mut conn = sqlx::AnyConnection::connect(&admin)
            .await
            .map_err(|e| e.to_string())?;
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await
            .map_err(|e| e.to_string())?;
        Ok(format!(
            "postgres://postgres@127.0.0.1:{}/{name}",
            self.port
        ))
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let data = s(&self.dir.join("data"));
        let _ = self.run_pg("pg_ctl", &["-D", &data, "-m", "immediate", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
