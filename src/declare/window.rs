//! Declaring a window for this pass: `bridge.window(id).title(…).declare(|w| …)`.

use std::hash::{Hash as _, Hasher as _};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::content::{Fields, Mode, hash_value};
use super::press::{Press, declare_action};
use super::state::DeclareState;
use crate::hub::decl::{ContentHasher, WindowDecl, content_hasher};
use crate::hub::{ActionSpec, AgentAction, NoArgs, UiCore};
use crate::protocol::{Block, Severity};

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

    /// Declares the window with what `add_contents` adds (blocks and actions), drawing nothing,
    /// and returns what the person's view of it needs. For a window the app draws itself (or
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
    pub fn declare<R>(self, add_contents: impl FnOnce(&mut WindowUi) -> R) -> WindowResponse<R> {
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

/// The contents of a window being declared: its blocks, in order, and its actions.
///
/// Block closures ([`fields`](Self::fields), [`table`](Self::table), [`list`](Self::list)) are
/// `Fn`: they run once to hash what the block shows, and a second time only when that changed,
/// to build it. They describe what is shown and change nothing.
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
    fn block(&mut self, hash_fn: impl FnOnce(&mut ContentHasher), build: impl FnOnce() -> Block) {
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

    /// A paragraph.
    pub fn text(&mut self, id: &str, text: &str) {
        self.block(|h| ("text", id, text).hash(h), || Block::Text { id: Some(id.to_owned()), text: text.to_owned() });
    }

    /// A status line.
    pub fn notice(&mut self, id: &str, severity: Severity, text: &str) {
        self.block(
            |h| ("notice", id, severity, text).hash(h),
            || Block::Notice { id: Some(id.to_owned()), severity, text: text.to_owned() },
        );
    }

    /// An image or chart. `alt` should state what it shows.
    pub fn media(&mut self, id: &str, mime_type: &str, url: &str, alt: Option<&str>) {
        self.block(
            |h| ("media", id, mime_type, url, alt).hash(h),
            || Block::Media {
                id: Some(id.to_owned()),
                mime_type: mime_type.to_owned(),
                url: url.to_owned(),
                alt: alt.map(str::to_owned),
            },
        );
    }

    /// A structure that fits no primitive.
    pub fn custom(&mut self, id: &str, payload: &Value) {
        self.block(
            |h| {
                ("custom", id).hash(h);
                hash_value(payload, h);
            },
            || Block::Custom { id: Some(id.to_owned()), payload: payload.clone() },
        );
    }

    /// A group of labelled values.
    pub fn fields(&mut self, id: &str, items: impl Fn(&mut Fields<'_>)) {
        let mut h = content_hasher();
        ("fields", id).hash(&mut h);
        items(&mut Fields { mode: Mode::Hash(&mut h) });
        self.block_with_hash(h.finish(), || {
            let mut out = Vec::new();
            items(&mut Fields { mode: Mode::Build(&mut out) });
            Block::Fields { id: Some(id.to_owned()), items: out }
        });
    }

    /// Declares an action of this window and returns the agent's call to it, if one arrived
    /// for it in this pass, with its arguments already parsed as `A`. Apply it, then answer.
    ///
    /// Ignoring the returned value drops a call the agent waits for: it is then answered with
    /// an error ([`Press`] says which), never with a success the app did not give.
    ///
    /// ```compile_fail
    /// #![deny(unused_must_use)]
    /// # use egui_mcp_bridge::{ActionSpec, Bridge, NoArgs};
    /// # let bridge = Bridge::builder().build();
    /// bridge.window("main").declare(|w| {
    ///     w.action::<NoArgs>("submit", ActionSpec::new("Submit")); // warns: the call is ignored
    /// });
    /// ```
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn action<A>(&mut self, name: &str, spec: ActionSpec) -> Option<Press<A>>
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        let buffer = self.decl.action_name(name);
        let (decl, call) = declare_action::<A>(&self.core, Some(&self.decl.app_id), buffer, spec)?;
        self.decl.actions.push(decl);
        call
    }

    /// An action without arguments (an agent's button): [`action`](Self::action) with
    /// [`NoArgs`].
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn button(&mut self, name: &str, spec: ActionSpec) -> Option<Press<NoArgs>> {
        self.action::<NoArgs>(name, spec)
    }
}
