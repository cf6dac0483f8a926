//! The throwaway PostgreSQL server of the tests goes away with the process that started it,
//! even when that process never drops it (a cluster kept in a `static` is never dropped).

use muster_server::testing::TempPostgres;
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

/// Run by the test below as a child process: starts a cluster, prints its port and folder,
/// and exits without dropping it.
#[test]
fn child_starts_a_cluster_and_forgets_it() {
    if std::env::var_os("MUSTER_PG_CHILD").is_none() {
        return;
    }
    let pg = TempPostgres::start().expect("PostgreSQL starts");
    println!("PORT={}", pg.port);
    std::mem::forget(pg);
}

#[test]
fn a_forgotten_cluster_stops_when_its_process_ends() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_starts_a_cluster_and_forgets_it",
            "--nocapture",
        ])
        .env("MUSTER_PG_CHILD", "1")
        .output()
        .expect("the child runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let port: u16 = text
        .lines()
        .find_map(|l| l.strip_prefix("PORT="))
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no port in {text}"));
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
        assert!(
            Instant::now() < deadline,
            "the cluster on port {port} outlived its process"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
