//! A fleet of `serve` replicas: which replica this process is (`[fleet]
//! replica_id`). Which budget source its captures lease from is the
//! window's (`window::budget_source`).

use crate::policy::{FleetSettings, is_replica_id};

/// This replica's name in audit entries: `[fleet] replica_id`, else the
/// host name (cut to a valid id), else `unknown-host`.
pub fn replica_id(fleet: &FleetSettings) -> String {
    if let Some(id) = &fleet.replica_id {
        return id.clone();
    }
    host_name()
        .map(|h| sanitize(&h))
        .filter(|h| is_replica_id(h))
        .unwrap_or_else(|| "unknown-host".to_owned())
}

fn host_name() -> Option<String> {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
}

/// Keep the characters a replica id may hold, at most 64 of them.
fn sanitize(h: &str) -> String {
    h.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn host_names_become_valid_replica_ids() {
        assert_eq!(sanitize("gate-7.prod"), "gate-7.prod");
        assert_eq!(sanitize("a b\u{e9}\n"), "a-b--");
        assert!(is_replica_id(&sanitize(&"x".repeat(300))));
        let id = replica_id(&FleetSettings::default());
        assert!(is_replica_id(&id), "{id}");
        let named = FleetSettings {
            replica_id: Some("r1".into()),
            ..FleetSettings::default()
        };
        assert_eq!(replica_id(&named), "r1");
    }
}
