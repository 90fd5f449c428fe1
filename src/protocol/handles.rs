//! Name-safe external window ids (§10.4, §12.4).
//!
//! Tool names are `{winId}__{action}` and may hold only `[A-Za-z0-9_-]`. An app's own window
//! ids can be anything ("Order #12", "订单 7"), so the bridge maps each one to an external
//! handle and uses that handle everywhere: in `windows[].id`, `ownerId`, `operableWindowIds`,
//! `openedWindowIds` and tool names. A handle is stable while its window is open and is never
//! handed out again, even when the app later declares the same id once more.

use std::collections::{HashMap, HashSet};

/// The target of app-level actions: tools named `app__{action}`.
pub const APP_TARGET: &str = "app";

/// The action of the bridge's own read-only state tool, `app__read_windows`.
pub const READ_WINDOWS_ACTION: &str = "read_windows";

/// The action of the bridge's own read-only picture tool, `app__view_window`.
pub const VIEW_WINDOW_ACTION: &str = "view_window";

/// The action of the bridge's dispatcher for writes that are not destructive, `app__call`.
pub const CALL_ACTION: &str = "call";

/// The action of the bridge's dispatcher for destructive tools, `app__call_destructive`.
pub const CALL_DESTRUCTIVE_ACTION: &str = "call_destructive";

/// The action of the bridge's dispatcher for read-only tools, `app__call_readonly`.
pub const CALL_READONLY_ACTION: &str = "call_readonly";

/// App-level action names that the bridge's own tools take: an app cannot declare them.
pub fn is_reserved_app_action(action: &str) -> bool {
    [READ_WINDOWS_ACTION, VIEW_WINDOW_ACTION, CALL_ACTION, CALL_DESTRUCTIVE_ACTION, CALL_READONLY_ACTION]
        .contains(&action)
}

/// Whether `s` can stand on either side of the `__` in a tool name: only `[A-Za-z0-9_-]`,
/// no `__`, and no `_` at either end (so the first `__` in a tool name is the separator).
pub fn is_name_safe(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && !s.contains("__")
        && !s.starts_with('_')
        && !s.ends_with('_')
}

/// Makes a name-safe base from any string: other characters become `-`, runs collapse.
fn sanitize(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' };
        let prev = out.chars().last();
        if (c == '-' || c == '_') && matches!(prev, Some('-' | '_')) {
            continue;
        }
        out.push(c);
    }
    let trimmed = out.trim_matches(|c| c == '_' || c == '-');
    if trimmed.is_empty() { "w".to_owned() } else { trimmed.to_owned() }
}

/// `{handle}__{action}`.
pub fn tool_name(handle: &str, action: &str) -> String {
    format!("{handle}__{action}")
}

/// Splits a tool name at its first `__` into (window handle or `app`, action).
pub fn split_tool_name(name: &str) -> Option<(&str, &str)> {
    name.split_once("__").filter(|(w, a)| !w.is_empty() && !a.is_empty())
}

/// Maps the app's window ids to external handles that are name-safe, stable and never reused.
#[derive(Debug)]
pub(crate) struct HandleRegistry {
    /// Open windows: app id → handle.
    live: HashMap<String, String>,
    /// Open windows: handle → app id.
    reverse: HashMap<String, String>,
    /// A fingerprint of every handle ever handed out (and of the reserved `app`): 8 bytes per
    /// window ever opened instead of its name. A collision only makes a fresh name look used, so
    /// another is picked; a handle is never reused.
    used: HashSet<u64>,
    /// Per sanitised base name (fingerprint): the next `-{n}` suffix to try.
    next_suffix: HashMap<u64, u64>,
}

fn fingerprint(handle: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash as _, Hasher as _};
    let mut h = DefaultHasher::new();
    handle.hash(&mut h);
    h.finish()
}

impl Default for HandleRegistry {
    fn default() -> Self {
        Self {
            live: HashMap::new(),
            reverse: HashMap::new(),
            used: HashSet::from([fingerprint(APP_TARGET)]),
            next_suffix: HashMap::new(),
        }
    }
}

impl HandleRegistry {
    /// The handle of an open window, assigning a fresh one if the id is not open now.
    pub fn assign(&mut self, app_id: &str) -> &str {
        if !self.live.contains_key(app_id) {
            let handle = self.fresh_handle(app_id);
            self.used.insert(fingerprint(&handle));
            self.reverse.insert(handle.clone(), app_id.to_owned());
            self.live.insert(app_id.to_owned(), handle);
        }
        &self.live[app_id]
    }

    fn fresh_handle(&mut self, app_id: &str) -> String {
        if is_name_safe(app_id) && !self.used.contains(&fingerprint(app_id)) {
            return app_id.to_owned();
        }
        let base = sanitize(app_id);
        if !self.used.contains(&fingerprint(&base)) {
            return base;
        }
        // Reopening one id many times costs one step each, not a scan of every earlier suffix.
        let next = self.next_suffix.entry(fingerprint(&base)).or_insert(2);
        loop {
            let candidate = format!("{base}-{next}");
            *next += 1;
            if !self.used.contains(&fingerprint(&candidate)) {
                return candidate;
            }
        }
    }

    /// How many handles were ever handed out (what the registry keeps for closed windows).
    pub fn handles_ever(&self) -> usize {
        self.used.len() - 1
    }

    /// How many windows are open.
    pub fn open(&self) -> usize {
        self.live.len()
    }

    /// Forgets the mapping of every open window for which `keep` is false. Their handles stay
    /// used forever.
    pub fn retire_unless(&mut self, mut keep: impl FnMut(&str) -> bool) {
        let reverse = &mut self.reverse;
        self.live.retain(|app_id, handle| {
            let k = keep(app_id);
            if !k {
                reverse.remove(handle);
            }
            k
        });
    }

    /// The handle of an open window.
    pub fn handle_of(&self, app_id: &str) -> Option<&str> {
        self.live.get(app_id).map(String::as_str)
    }

    /// The app id behind a handle of an open window.
    pub fn app_id_of(&self, handle: &str) -> Option<&str> {
        self.reverse.get(handle).map(String::as_str)
    }

    /// Whether this handle was ever handed out.
    #[cfg(test)]
    pub fn was_used(&self, handle: &str) -> bool {
        self.used.contains(&fingerprint(handle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn safe_ids_are_kept_and_unsafe_ones_mapped() {
        let mut r = HandleRegistry::default();
        assert_eq!(r.assign("orders"), "orders");
        assert_eq!(r.assign("Order #12"), "Order-12");
        assert_eq!(r.assign("订单 7"), "7");
        assert_eq!(r.assign("a__b"), "a_b");
        assert_eq!(r.assign("app"), "app-2", "`app` is reserved for app-level tools");
        assert_eq!(r.app_id_of("Order-12"), Some("Order #12"));
    }

    #[test]
    fn handles_are_stable_while_open_and_never_reused() {
        let mut r = HandleRegistry::default();
        let first = r.assign("order-7").to_owned();
        assert_eq!(r.assign("order-7"), first, "stable while open");
        r.retire_unless(|_| false);
        assert_eq!(r.handle_of("order-7"), None);
        let second = r.assign("order-7").to_owned();
        assert_ne!(second, first, "a closed id declared again gets a new handle");
        assert!(r.was_used(&first));
    }

    #[test]
    fn tool_names_split_at_the_separator() {
        assert_eq!(split_tool_name("order-7__edit_field"), Some(("order-7", "edit_field")));
        assert_eq!(split_tool_name("app__lock"), Some(("app", "lock")));
        assert_eq!(split_tool_name("nothing"), None);
        assert_eq!(split_tool_name("__x"), None);
    }

    proptest! {
        #[test]
        fn any_id_gets_a_unique_name_safe_handle(ids in proptest::collection::vec(".{0,12}", 1..20)) {
            let mut r = HandleRegistry::default();
            let mut seen = HashSet::new();
            for id in &ids {
                if r.handle_of(id).is_some() { continue; }
                let h = r.assign(id).to_owned();
                prop_assert!(is_name_safe(&h), "{h:?} from {id:?}");
                prop_assert!(seen.insert(h.clone()), "handle {h} reused");
                let name = tool_name(&h, "do_it");
                prop_assert_eq!(split_tool_name(&name), Some((h.as_str(), "do_it")));
            }
        }
    }
}
