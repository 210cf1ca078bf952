//! Waiting on another process or thread: bounded polls on a condition,
//! never a sleep that hopes the other side is done.

use std::time::{Duration, Instant};

/// How long a test waits for a server to answer, a file to appear or a
/// window to open: generous, for a loaded two-core machine.
pub(crate) const DEADLINE: Duration = Duration::from_secs(20);

/// Ask `f` every 20 ms until it answers, for at most `within`; the test
/// fails naming `what` when it never does.
pub(crate) fn poll_within<T>(what: &str, within: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let end = Instant::now() + within;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < end, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// [`poll_within`] the [`DEADLINE`].
pub(crate) fn poll<T>(what: &str, f: impl FnMut() -> Option<T>) -> T {
    poll_within(what, DEADLINE, f)
}

/// The address a starting `serve` writes to its `--ready-file`, once it
/// has.
pub(crate) fn ready_addr(ready: &std::path::Path) -> String {
    poll("the ready file", || {
        std::fs::read_to_string(ready)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    })
}

/// `tracegate serve --policy POLICY` on a free loopback port, its stderr in
/// `dir/serve.log`: the process and its HTTP address, once it is ready.
pub(crate) fn spawn_serve(
    policy: &std::path::Path,
    dir: &std::path::Path,
) -> (std::process::Child, String) {
    spawn_serve_env(policy, dir, &[])
}

/// [`spawn_serve`] with `env` set in the daemon's environment.
pub(crate) fn spawn_serve_env(
    policy: &std::path::Path,
    dir: &std::path::Path,
    env: &[(&str, &std::path::Path)],
) -> (std::process::Child, String) {
    let ready = dir.join("ready");
    let _ = std::fs::remove_file(&ready);
    let log = std::fs::File::create(dir.join("serve.log")).unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .args(["serve", "--policy"])
        .arg(policy)
        .args(["--listen", "127.0.0.1:0", "--ready-file"])
        .arg(&ready)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let addr = ready_addr(&ready);
    (child, addr)
}
