//! The UI thread's bookkeeping between passes: window versions and external ids, the call
//! slot, and how a pass's declarations become the next published [`Snapshot`].
//!
//! Declarations are boxed, in every list that holds them: one is handed from the spares to the
//! app's [`crate::WindowBuilder`] and back into a pass's list at each window of each pass, and
//! moved by value it was some 300 bytes copied three or four times a window, and the lists
//! three vectors of 3 MB at 10,000 windows that each pass read or wrote through.
#![allow(clippy::vec_box, reason = "declarations are boxed so that a pass moves pointers, not 300-byte values")]

mod build;
mod calls;
mod mark;
mod memory;
mod picture;
mod read_view;
mod reuse;
mod union;

pub(crate) use read_view::{ReadBlocks, ReadOnlyWindow};

use memory::Memory;

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use std::collections::HashMap;

use super::decl::{ActionDecl, AgentAction, WindowDecl};
use super::phase::{AfterPass, CallSlot, MarkOf, PassKey};
use super::{CallTarget, Hub, PendingCall, Snapshot, UndescribedWidget, clipped};
use crate::protocol::HandleRegistry;

/// What the bridge keeps about windows, for tests and monitoring: memory must stay flat however
/// many windows an app opens and closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// Windows open in the last published frame.
    pub open_windows: usize,
    /// Windows whose version and blocks the bridge remembers (only the open ones).
    pub remembered_windows: usize,
    /// Handles ever handed out: the one thing kept per closed window, 8 bytes each, so that no
    /// id is ever reused.
    pub handles_ever: usize,
}

/// How long a published state waits, after a call was applied, for every viewport to declare
/// its windows again. A viewport that runs no pass by then (hidden, and the platform paints no
/// hidden window) is published as it last declared, with a warning.
pub(crate) const SETTLE_WAIT: Duration = Duration::from_millis(1500);

/// How long a viewport the call just opened may take to run its first pass (an OS window is
/// made first, slowly on a busy machine) before the state is published without its windows.
pub(crate) const NEW_VIEWPORT_WAIT: Duration = Duration::from_secs(5);

/// The declarations of one pass of one viewport.
#[derive(Debug)]
struct PassDecls {
    key: PassKey,
    /// The pass counter when it began (to tell declarations made after a call from before).
    began: u64,
    windows: Vec<Box<WindowDecl>>,
    app_actions: Vec<ActionDecl>,
    /// The egui ids (as `u64`) of what the app described in this pass: its windows' areas and
    /// panels' `Ui`s, the bridge's own widgets. The read view leaves out what holds them.
    described: Vec<u64>,
    /// The egui ids of the widgets the app described in this pass (each with what it holds):
    /// the developer's list of undescribed widgets leaves them out.
    widgets: Vec<u64>,
    /// The egui ids of the `Ui`s that hold the contents of declared windows, with their app
    /// ids: what the app drew there but did not describe is added to the window it is in.
    window_uis: Vec<(u64, String)>,
    /// The egui ids of the `Ui`s the app hid from the read view (`Bridge::hide_from_read_view`):
    /// a picture of a window blanks them.
    hidden: Vec<u64>,
    /// Per declared window drawn in this pass, the egui id whose rectangle is the window's: its
    /// egui window's area, else the `Ui` holding its contents (a panel).
    window_nodes: Vec<(u64, String)>,
    /// Per declared panel drawn in this pass, all of the panel (in egui points, `[x0, y0, x1,
    /// y1]`), where its contents take less.
    window_rects: Vec<(String, [f32; 4])>,
    /// How many of `windows` were made in their window's first pass ([`WindowDecl::first`]),
    /// counted as they are declared, so that recycling the list need not look at each.
    firsts: usize,
}

impl PassDecls {
    /// `windows`: an empty list, with room for as many windows as the viewport declared last.
    fn new(key: PassKey, began: u64, windows: Vec<Box<WindowDecl>>) -> Self {
        Self {
            key,
            began,
            windows,
            app_actions: Vec::new(),
            described: Vec::new(),
            widgets: Vec::new(),
            window_uis: Vec::new(),
            hidden: Vec::new(),
            window_nodes: Vec::new(),
            window_rects: Vec::new(),
            firsts: 0,
        }
    }
}

/// A call applied, waiting for every viewport's declarations from after it.
#[derive(Debug)]
struct Settling {
    /// The pass counter at the end of the pass that applied it.
    after: u64,
    since: Instant,
}

/// The agent's latest applied call and the windows it may mark: its target, then the target's
/// owners, nearest first. One window is marked: the first of them still open, so a call that
/// closed its own dialog (authorize) marks the window it changed.
#[derive(Debug)]
struct Mark {
    windows: Vec<String>,
    action: AgentAction,
    /// To end a deferred call's "waiting" mark when its budget runs out.
    call: Weak<PendingCall>,
}

/// What the end of a pass asks of the egui side.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct PassEnd {
    /// Another pass of this viewport is wanted now.
    pub again: bool,
    /// Passes of these other viewports are wanted now.
    pub repaint: Vec<PassKey>,
    /// A pass is wanted after this long (waiting for a viewport that may not paint).
    pub after: Option<Duration>,
}

/// The UI thread's state. Lives behind a short-held lock shared by the plugin and the app's
/// declaration calls; never held across ui code.
///
/// Each egui viewport (an OS window) runs passes of its own; immediate ones nest in their
/// parent's. Every pass collects its own declarations; when it ends they replace that
/// viewport's previous ones, and the union of all live viewports' declarations is published.
#[derive(Debug)]
pub(crate) struct FrameState {
    registry: HandleRegistry,
    memory: Memory,
    /// Counts publishes (what [`memory::WindowMemory::seen`] refers to).
    publishes: u64,
    /// The passes under way, innermost last (declarations go to the last).
    passes: Vec<PassDecls>,
    /// The last complete declarations of each live viewport, in the order first seen.
    committed: Vec<PassDecls>,
    /// Counts passes begun.
    epoch: u64,
    /// The viewports that existed at the end of the last outermost pass.
    live: Vec<PassKey>,
    /// Where the app's actions were declared last (each window's is in its memory).
    app_pass: Option<PassKey>,
    /// Replaced declarations, emptied, for the next ones ([`Self::recycle`]).
    spare: Vec<Box<WindowDecl>>,
    /// The emptied list of a pass's windows that a later pass replaced, for the next pass.
    spare_list: Vec<Box<WindowDecl>>,
    /// The union being published (moved out of `committed` and back).
    declared: Vec<Box<WindowDecl>>,
    app_actions: Vec<ActionDecl>,
    calls: CallSlot,
    settling: Option<Settling>,
    /// What the app declared for the call claimed in this pass (for [`AgentAction`]).
    claimed: Option<MarkOf>,
    /// The agent's latest applied call, shown on one window.
    mark: Option<Mark>,
    /// A declaration outside any pass was logged (once).
    warned_outside_pass: bool,
    /// The last publish blocked or unblocked a window: its declarations were made as it was
    /// before (widgets the app disables are declared by what the window allowed), so its
    /// viewport is asked for a pass at once rather than at the next unrelated event.
    reblocked: bool,
    /// A pass of this frame carried the person's input. If it changed the state, one more pass
    /// follows: what the app changed after drawing a widget (a click that enables another
    /// button) is drawn and declared then, not at the next unrelated event.
    person_pass: bool,
    last: Arc<Snapshot>,
    /// The JSON of `last.operable`, for the next publish's state while the ids are the same.
    operable_json: Arc<str>,
    /// The hash of `last.operable` (the ids are compared by it, not string by string).
    operable_hash: u64,
    /// The hash of the app's actions as last published ([`crate::hub::decl::hash_actions`]).
    app_actions_hash: u64,
    /// The places of the windows whose content changed since the last publish (this publish's).
    content_changed: Vec<usize>,
    header_hash: u64,
    tools_hash: u64,
    /// Per viewport, the widgets the read view last found drawn but not described.
    undescribed: HashMap<PassKey, Vec<UndescribedWidget>>,
    /// This frame's passes build egui's tree for the read view: what the app described is
    /// noted (else nobody would read it).
    looking: bool,
}

impl Default for FrameState {
    fn default() -> Self {
        Self {
            registry: HandleRegistry::default(),
            memory: Memory::default(),
            publishes: 0,
            passes: Vec::new(),
            committed: Vec::new(),
            epoch: 0,
            live: Vec::new(),
            app_pass: None,
            spare: Vec::new(),
            spare_list: Vec::new(),
            declared: Vec::new(),
            app_actions: Vec::new(),
            calls: CallSlot::default(),
            settling: None,
            claimed: None,
            mark: None,
            warned_outside_pass: false,
            reblocked: false,
            person_pass: false,
            last: Arc::new(Snapshot::empty()),
            operable_json: Arc::from("[]"),
            operable_hash: 0,
            app_actions_hash: 0,
            content_changed: Vec::new(),
            header_hash: 0,
            tools_hash: 0,
            undescribed: HashMap::new(),
            looking: false,
        }
    }
}

impl FrameState {
    /// A window declared in the pass under way. Outside any pass it counts for nothing.
    pub fn declare_window(&mut self, mut decl: Box<WindowDecl>) {
        if let Some(p) = self.passes.last_mut() {
            decl.find_fingerprint();
            p.firsts += usize::from(decl.first);
            p.windows.push(decl);
        } else {
            self.outside_pass(&decl.app_id);
        }
    }

    /// An app-level action declared in the pass under way.
    pub fn declare_app_action(&mut self, decl: ActionDecl) {
        if let Some(p) = self.passes.last_mut() {
            p.app_actions.push(decl);
        } else {
            self.outside_pass("app");
        }
    }

    /// Whether the pass under way declared the app-level action `name` already (a menu that
    /// holds itself declares its items at each level: they are listed once).
    pub fn declared_app_action(&self, name: &str) -> bool {
        self.passes.last().is_some_and(|p| p.app_actions.iter().any(|a| a.name == name))
    }

    /// A declaration outside any egui pass counts for nothing: said once, loudly (is the
    /// plugin added to this context? is the code in `App::logic` instead of `ui`?).
    fn outside_pass(&mut self, what: &str) {
        if !self.warned_outside_pass {
            self.warned_outside_pass = true;
            tracing::warn!(
                window = %clipped(what),
                "declared outside an egui pass of the context whose plugin is this bridge's, so ignored (said once): declare in the ui code of a pass"
            );
        }
    }

    /// Start of a pass of the viewport `key` (nested in the one under way, for an immediate
    /// viewport). Admits and arms at most one call (see [`CallSlot::admit`]); a pass that
    /// carries the person's input arms none (user-first, §7.1). Returns the passes wanted.
    pub fn begin_pass(&mut self, hub: &Hub, key: PassKey, person_input: bool) -> PassEnd {
        self.epoch += 1;
        self.person_pass |= person_input;
        // Room for as many windows as this viewport declared last time.
        let room = self.committed.iter().find(|c| c.key == key).map_or(0, |c| c.windows.len());
        let mut windows = std::mem::take(&mut self.spare_list);
        windows.reserve(room);
        self.passes.push(PassDecls::new(key, self.epoch, windows));
        // Deferred calls past their budget end now; a pass is asked for when the next one is due.
        let budget = hub.config().call_timeout;
        let (due, ended) = self.calls.deferred.prune(budget);
        for call in ended {
            self.unmark_waiting(&call);
        }
        let (registry, memory, app_pass) = (&self.registry, &self.memory, self.app_pass);
        let locate = |t: &CallTarget| match t {
            CallTarget::App => (None, app_pass),
            CallTarget::Window(h) => {
                let app_id = registry.app_id_of(h).map(str::to_owned);
                let pass = app_id.as_ref().and_then(|id| memory.get(id.as_str())).map(|m| m.pass);
                (app_id, pass)
            }
        };
        self.calls.ask_person = hub.approvals();
        // Calls that waited for the person and ended meanwhile go first (so a new one for the
        // same window is not refused); one still waiting is answered when the person's time is up.
        let after = self.calls.approvals.prune(budget, person_input);
        let after = match (after, due) {
            (Some(a), Some(d)) => Some(a.min(d)),
            (a, d) => a.or(d),
        };
        // (Asked for again at the end of the pass: egui forgets a delay asked for before it.)
        let active = self.calls.admit(hub.call_receiver(), &self.last, key, person_input, budget, locate);
        let mut wanted = PassEnd { after, ..PassEnd::default() };
        if let Some(other) = self.calls.waits_for().filter(|p| *p != key) {
            wanted.repaint.push(other);
        } else {
            wanted.again = active || (person_input && !hub.call_receiver().is_empty());
        }
        wanted
    }

    /// A pass egui discards (it runs it again at once): its declarations count for nothing. A
    /// call applied in it settles: the pass that runs again, in the same frame, declares only
    /// what is after the call, so it can be published and the call answered at its end.
    pub fn discard_pass(&mut self, key: PassKey) {
        if self.passes.last().is_some_and(|p| p.key == key) {
            self.passes.pop();
        }
        if self.calls.settle_if_claimed(key) | self.calls.deferred.settle(key) {
            self.settling = Some(Settling { after: self.epoch, since: Instant::now() });
        }
    }

    /// End of a pass of viewport `key` that egui keeps. Its declarations replace the viewport's
    /// last ones; `live` (at the end of an outermost pass) lists the viewports that exist now,
    /// the others' declarations are dropped. Then the union is published, and the call under
    /// way answered, unless a call was applied and some viewport has not declared its windows
    /// since (the state would mix before and after); those viewports are asked for a pass.
    pub fn end_pass(&mut self, hub: &Hub, key: PassKey, live: Option<&[PassKey]>) -> PassEnd {
        let Some(pos) = self.passes.iter().rposition(|p| p.key == key) else { return PassEnd::default() };
        let decls = self.passes.remove(pos);
        match self.committed.iter_mut().find(|c| c.key == key) {
            Some(c) => {
                let old = std::mem::replace(c, decls);
                self.recycle(old);
            }
            None => self.committed.push(decls),
        }
        if let Some(live) = live {
            self.committed.retain(|c| live.contains(&c.key));
            self.live = live.to_vec();
        }
        // A pass when the next deferred call's budget runs out, to end it then.
        let mut wanted = PassEnd { after: self.calls.deferred.due(), ..PassEnd::default() };
        if (self.calls.after_pass(key) == AfterPass::Applied) | self.calls.deferred.settle(key) {
            self.settling = Some(Settling { after: self.epoch, since: Instant::now() });
        }
        if !self.passes.is_empty() {
            // A nested (immediate) viewport's pass: published with the outermost pass.
            return wanted;
        }
        if self.still_settling(key, &mut wanted) {
            return wanted;
        }
        self.publish_and_ask(hub, key, wanted)
    }

    /// Publishes, then asks for the passes that should follow at once: another call waiting, a
    /// window blocked or unblocked (its declarations were made as it was before), or a change
    /// of the person's (what the app changed after drawing a widget is declared in the next).
    fn publish_and_ask(&mut self, hub: &Hub, key: PassKey, mut wanted: PassEnd) -> PassEnd {
        let before = Arc::as_ptr(&self.last);
        self.publish(hub);
        wanted.again = !hub.call_receiver().is_empty();
        let person_changed = std::mem::take(&mut self.person_pass) && !std::ptr::eq(before, Arc::as_ptr(&self.last));
        if std::mem::take(&mut self.reblocked) || person_changed {
            wanted.again = true;
            wanted.repaint.extend(self.live.iter().copied().filter(|k| *k != key));
        }
        if let Some(other) = self.calls.waits_for().filter(|p| *p != key) {
            wanted.repaint.push(other);
        }
        wanted
    }

    /// Whether a pass is under way (of the app's context: its plugin's hooks run around it).
    pub fn in_pass(&self) -> bool {
        !self.passes.is_empty()
    }

    /// What the bridge keeps about windows.
    pub fn footprint(&self) -> Footprint {
        Footprint {
            open_windows: self.registry.open(),
            remembered_windows: self.memory.len(),
            handles_ever: self.registry.handles_ever(),
        }
    }

    /// Whether the window with this app id is blocked by a modal in the last snapshot.
    pub fn is_blocked(&self, app_id: &str) -> bool {
        self.memory.get(app_id).is_some_and(|m| m.blocked)
    }

    /// The external id of an open window.
    pub fn handle_of(&self, app_id: &str) -> Option<&str> {
        self.registry.handle_of(app_id)
    }

    /// The app is exiting: answer everything still waiting.
    pub fn shutdown(&mut self, hub: &Hub) {
        self.calls.shutdown();
        hub.reject_queued();
    }
}
