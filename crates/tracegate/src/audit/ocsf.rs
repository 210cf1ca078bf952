//! The OCSF class, activity and severity of each audit event, for
//! `tracegate audit export --format ocsf`. Here, beside the events, so that
//! a new event cannot be added without its mapping (the match is
//! exhaustive only inside this crate).

use super::AuditEvent;

/// The OCSF class, activity and severity of an entry (the table in
/// docs/reference.md).
pub fn ocsf_class(event: &AuditEvent) -> (u32, u32, &'static str, u32, bool) {
    // (class_uid, activity_id, activity_name, severity_id, failure)
    match event {
        AuditEvent::PolicyLoaded { .. } => (6002, 8, "Update", 1, false),
        AuditEvent::PolicyRejected { .. } => (6002, 8, "Update", 3, true),
        AuditEvent::WindowEnabled { .. } => (6002, 6, "Enable", 2, false),
        AuditEvent::WindowClosed { .. } => (6002, 7, "Disable", 1, false),
        AuditEvent::WindowBackdated { .. } => (6002, 99, "Other", 3, false),
        AuditEvent::BudgetLeased { .. } | AuditEvent::WindowReleased { .. } => {
            (6002, 99, "Other", 1, false)
        }
        AuditEvent::KeyRotated { .. } => (6002, 8, "Update", 2, false),
        AuditEvent::FullDenied { .. } => (6002, 6, "Enable", 2, true),
        AuditEvent::CaptureSegmentOpened { .. } => (1001, 1, "Create", 1, false),
        AuditEvent::CaptureSegmentClosed { .. } => (1001, 99, "Other", 1, false),
        AuditEvent::CaptureRead { .. } => (1001, 2, "Read", 3, false),
    }
}
