//! What the declaration layer keeps for one bridge between passes ([`DeclareState`]): where its
//! windows go, and what it made once rather than in every pass. The bridge owns it, so two
//! bridges in one process (or in one egui context) share nothing.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::{Map, Value};

use super::places::Places;
use crate::hub::ActivityRecord;

/// A derived `edit_field` action's schema and description (`edit_action.rs`).
pub(super) type Made = (Arc<Map<String, Value>>, String);

/// One bridge's own state on the UI thread, beside its core.
#[derive(Debug)]
pub(crate) struct DeclareState {
    /// Where the windows shown with `ui` go, and whether each has an OS window of its own.
    pub places: Mutex<Places>,
    /// The derived `edit_field` actions' schemas and descriptions, by the fields they list:
    /// made once per set of fields, not every pass (bounded: cleared when full).
    pub(super) edit_actions: Mutex<HashMap<u64, Made>>,
    /// The fields already warned about as not fitting their input, by window and key (said
    /// once each; at most 1024 are remembered).
    pub(super) misfits: Mutex<HashSet<(String, String)>>,
    /// The activity panel's copy of the log.
    pub(super) activity: Mutex<Copied>,
}

impl DeclareState {
    /// A new bridge's state: every window in an OS window of its own if `native_windows`, each
    /// with the "Own window" button if `own_window_buttons`.
    pub fn new(native_windows: bool, own_window_buttons: bool) -> Self {
        let mut places = Places::new(native_windows);
        places.own_window_buttons = own_window_buttons;
        Self {
            places: Mutex::new(places),
            edit_actions: Mutex::default(),
            misfits: Mutex::default(),
            activity: Mutex::default(),
        }
    }
}

/// The activity log's records as the panel last copied them (only when a call finished, not
/// every frame), with the window each touched as the person reads it then (`activity.rs`).
#[derive(Debug, Default)]
pub(super) struct Copied {
    pub seq: u64,
    pub records: Vec<ActivityRecord>,
    pub places: HashMap<u64, String>,
}
