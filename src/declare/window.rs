//! Declaring a window for this pass: `bridge.window(id).title(…).declare(|w| …)` (agents alone:
//! `w` is a [`ForAgents`]), or `.ui(ui, |w, ui| …)` (both audiences, `both.rs`).

use std::hash::{Hash as _, Hasher as _};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::ForAgents;
use super::press::{Press, declare_action};
use super::state::DeclareState;
use crate::hub::decl::{ContentHasher, WindowDecl, content_hasher};
use crate::hub::{ActionSpec, AgentAction, UiCore};
use crate::protocol::Block;

/// A window about to be declared for this pass: set its title, summary and modality, then show
/// it to the person and declare it at once with [`ui`](Self::ui), or only declare it with
/// [`declare`](Self::declare) (drawing nothing: for windows the app draws elsewhere). Nothing is
/// declared until one of them runs.
///
#[doc = include_str!("../docs/windows.md")]
#[must_use = "declare the window's contents with .declare(|w| …); without it the window is not declared"]
#[derive(Clone)]
pub struct WindowBuilder {
    pub(super) core: Arc<UiCore>,
    /// The bridge's own state beside its core: window places, what is made once.
    pub(super) state: Arc<DeclareState>,
    pub(super) decl: Box<WindowDecl>,
    /// How [`ui`](Self::ui) shows it to the person.
    pub(super) look: super::places::Look,
}

impl std::fmt::Debug for WindowBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowBuilder").field("app_id", &self.decl.app_id).finish_non_exhaustive()
    }
}

impl WindowBuilder {
    pub(crate) fn new(core: Arc<UiCore>, state: Arc<DeclareState>, app_id: &str) -> Self {
        // In the strings of a declaration a pass replaced: none allocated while ids, titles and
        // summaries stay the length they were.
        let decl = core.frame.lock().window_decl(app_id);
        Self { core, state, decl, look: super::places::Look::default() }
    }

    /// The title a person reads (default: the app id).
    pub fn title(mut self, title: impl AsRef<str>) -> Self {
        self.decl.title.clear();
        self.decl.title.push_str(title.as_ref());
        self
    }

    /// One sentence on what the window shows now.
    pub fn summary(mut self, summary: impl AsRef<str>) -> Self {
        self.decl.summary.clear();
        self.decl.summary.push_str(summary.as_ref());
        self
    }

    /// A window-level modal dialog attached to the window with app id `owner`: it blocks that
    /// window (and is blocked in turn by dialogs attached to it).
    pub fn modal_of(mut self, owner: impl Into<String>) -> Self {
        self.decl.modal = true;
        self.decl.owner = Some(owner.into());
        self
    }

    /// An app-level modal: while it is open, only it (or the dialogs on top of it) can be
    /// operated, and app-level actions are hidden.
    pub fn app_modal(mut self) -> Self {
        self.decl.modal = true;
        self.decl.owner = None;
        self
    }

    /// Declares the window with what `add_contents` adds (blocks and actions, through
    /// [`ForAgents`]), drawing nothing, and returns what the person's view of it needs. For a window the app draws itself (or
    /// none: headless); [`ui`](Self::ui) draws and declares in one description.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Rename {
    ///     name: String,
    /// }
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut name = String::from("Ada");
    /// let shown = bridge.window("profile").title("Profile").summary(format!("Name: {name}")).declare(|w| {
    ///     w.fields("details", |f| f.field("Name", &name));
    ///     if let Some(call) = w.action::<Rename>("rename", ActionSpec::new("Rename")) {
    ///         name.clone_from(&call.args().name);
    ///         call.ok("Renamed");
    ///     }
    /// });
    /// // Disable the person's widgets exactly when agents are told the window is blocked.
    /// assert!(!shown.blocked);
    /// ```
    pub fn declare<R>(self, add_contents: impl FnOnce(&mut ForAgents<'_>) -> R) -> WindowResponse<R> {
        self.declare_window(|w| add_contents(&mut w.agents()))
    }

    /// Declares the window with what `add_contents` adds, given the window's whole side
    /// ([`WindowUi`]): how [`ui`](Self::ui) and [`panel`](Self::panel) declare what they draw.
    pub(super) fn declare_window<R>(self, add_contents: impl FnOnce(&mut WindowUi) -> R) -> WindowResponse<R> {
        let Self { core, state, mut decl, .. } = self;
        let (blocked, looking) = {
            let mut frame = core.frame.lock();
            (frame.window_start(&mut decl), frame.looking())
        };
        let mut summary_hash = content_hasher();
        decl.summary.hash(&mut summary_hash);
        let mut ui = WindowUi {
            core,
            state,
            decl,
            blocks_hasher: content_hasher(),
            blocked,
            hidden: None,
            sections: super::sections::Sections::default(),
            edits: super::edit_action::Edits::default(),
            described: Described { looking, ..Described::default() },
        };
        let inner = add_contents(&mut ui);
        ui.finish_edits();
        ui.finish_sections();
        let WindowUi { core, mut decl, blocks_hasher, described, .. } = ui;
        // Hashes of blocks no longer declared (the window shows fewer than last pass).
        decl.block_hashes.truncate(decl.blocks.len());
        let mut h = content_hasher();
        (summary_hash.finish(), blocks_hasher.finish()).hash(&mut h);
        decl.content_hash = h.finish();
        let mut frame = core.frame.lock();
        if described.looking {
            frame.describe_window(&decl.app_id, described.content_ui, described.window_node, &described.widgets);
        }
        let agent_action = frame.agent_action(&decl.app_id).cloned();
        frame.declare_window(decl);
        WindowResponse { inner, blocked, agent_action, close: None }
    }
}

/// What [`WindowBuilder::declare`] and [`WindowBuilder::ui`] return: the closure's value and what the person's view of the
/// window needs. Like egui's `InnerResponse`, it may be ignored: a window declared without a
/// person's view of its own (headless, or drawn elsewhere) needs none of it.
#[derive(Debug)]
pub struct WindowResponse<R> {
    /// What the closure returned.
    pub inner: R,
    /// Whether a dialog blocked this window in the last published state: disable its contents
    /// for the person too, so both see the same blocking.
    pub blocked: bool,
    /// The agent's latest applied call, if it marks this window: the call was for this window,
    /// or for a dialog of it that the call closed (an Authorize that saved the order marks the
    /// order's editor). One window at a time is marked: the latest call's.
    pub agent_action: Option<AgentAction>,
    /// The window was closed in this pass (shown with [`WindowBuilder::ui`] and
    /// [`closable`](WindowBuilder::closable)): by the person (its close button, or its OS
    /// window's; not while a dialog blocks it) or by an agent's call to its `close` action. Stop
    /// showing it and answer `press.ok("Closed")`, or keep it and ask first and answer what
    /// happened: the bridge does neither by itself, and an agent is never told it closed
    /// unless the app says so.
    pub close: Option<super::Press>,
}

/// The contents of a window shown with [`WindowBuilder::ui`]: its widgets, named and shaped as
/// egui's ([`button`](Self::button), [`label`](Self::label), [`table`](Self::table),
/// [`menu_button`](Self::menu_button), [`collapsing`](Self::collapsing), [`form`](Self::form)…),
/// each drawn for the person and declared for agents in one call, in order. What agents alone
/// read or call, beside what the app draws with egui's own widgets, is declared through
/// [`agents`](Self::agents) ([`ForAgents`]), which draws nothing.
///
#[doc = include_str!("../docs/widgets.md")]
pub struct WindowUi {
    pub(super) core: Arc<UiCore>,
    /// The bridge's own state beside its core (what is made once: the edit action's schema).
    pub(super) state: Arc<DeclareState>,
    /// Its `block_hashes` start as last pass's, each overwritten as its block is declared.
    pub(super) decl: Box<WindowDecl>,
    blocks_hasher: ContentHasher,
    pub(super) blocked: bool,
    /// Inside a closed menu drawn hidden: whether the menu's `ui` allowed use.
    pub(super) hidden: Option<bool>,
    /// The collapsed sections of this pass, and the one whose contents are being declared.
    pub(super) sections: super::sections::Sections,
    /// The editable fields of its forms, and an agent's edit until one takes it.
    pub(super) edits: super::edit_action::Edits,
    /// What of this pass's drawing the bridge described, for the read view.
    pub(super) described: Described,
}

/// What a window's pass described, as egui ids, noted for the read view when it looks in this
/// frame (and only then: noted in every pass, nobody would read it).
#[derive(Debug, Default)]
pub(super) struct Described {
    /// This frame's passes build the tree the read view reads.
    pub(super) looking: bool,
    /// The `Ui` holding the window's contents.
    pub(super) content_ui: Option<u64>,
    /// The egui window's own node.
    pub(super) window_node: Option<u64>,
    /// The widgets the bridge drew (each with all it holds).
    pub(super) widgets: Vec<u64>,
}

impl Described {
    /// A widget the bridge drew, described with all it holds.
    pub(super) fn widget(&mut self, id: u64) {
        if self.looking {
            self.widgets.push(id);
        }
    }
}

impl std::fmt::Debug for WindowUi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowUi").field("app_id", &self.decl.app_id).finish_non_exhaustive()
    }
}

impl WindowUi {
    /// What decides, beyond a widget's `ui`, whether the app lets the person use it.
    pub(super) fn gate(&self) -> super::gate::Gate {
        super::gate::Gate { blocked: self.blocked, hidden: self.hidden, collapsed: self.sections.inside.is_some() }
    }

    /// Hashes a block; builds it only when it differs from last pass's block at this position.
    pub(super) fn block(&mut self, hash_fn: impl FnOnce(&mut ContentHasher), build: impl FnOnce() -> Block) {
        let mut h = content_hasher();
        hash_fn(&mut h);
        self.block_with_hash(h.finish(), build);
    }

    pub(super) fn block_with_hash(&mut self, hash: u64, build: impl FnOnce() -> Block) {
        hash.hash(&mut self.blocks_hasher);
        let k = self.decl.blocks.len();
        // Last pass's hash at this position, replaced by this one.
        let same = if let Some(last) = self.decl.block_hashes.get_mut(k) {
            std::mem::replace(last, hash) == hash
        } else {
            self.decl.block_hashes.push(hash);
            false
        };
        self.decl.blocks.push(if same { None } else { Some(build()) });
    }

    /// Declares an action of this window, whatever the gate says ([`ForAgents::action`] is the
    /// public way, gated for a described widget), and returns an agent's call to it.
    pub(super) fn offer<A>(&mut self, name: &str, spec: ActionSpec) -> Option<Press<A>>
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        let buffer = self.decl.action_name(name);
        let (decl, call) = declare_action::<A>(&self.core, Some(&self.decl.app_id), buffer, spec)?;
        self.decl.actions.push(decl);
        call
    }
}
