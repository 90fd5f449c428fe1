//! [`HarnessBuilder`]: kittest's builder, with the bridge's plugin and the agent's step bound.

use super::{Agent, Harness, MAX_STEPS};
use crate::bridge::Bridge;

/// The caller's setup of the context, run before the plugin is added.
type ContextSetup = Box<dyn FnOnce(&egui::Context)>;

/// Builds a [`Harness`] (see [`Harness::builder`]): kittest's options, passed to its
/// [`egui_kittest::HarnessBuilder`], and the bridge's.
pub struct HarnessBuilder<State = ()> {
    bridge: Bridge,
    kittest: egui_kittest::HarnessBuilder<State>,
    context_setup: Option<ContextSetup>,
    max_call_steps: usize,
}

impl<State> std::fmt::Debug for HarnessBuilder<State> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HarnessBuilder")
            .field("context_setup", &self.context_setup.is_some())
            .field("max_call_steps", &self.max_call_steps)
            .finish_non_exhaustive()
    }
}

impl<State> HarnessBuilder<State> {
    pub(super) fn new(bridge: &Bridge) -> Self {
        Self {
            bridge: bridge.clone(),
            kittest: egui_kittest::HarnessBuilder::default(),
            context_setup: None,
            max_call_steps: MAX_STEPS,
        }
    }

    /// The size of the screen (kittest's default is 800 × 600).
    #[must_use]
    pub fn with_size(mut self, size: impl Into<egui::Vec2>) -> Self {
        self.kittest = self.kittest.with_size(size);
        self
    }

    /// Resizes the screen to the ui's first contents (kittest's
    /// [`with_fit_contents`](egui_kittest::HarnessBuilder::with_fit_contents)).
    #[must_use]
    pub fn with_fit_contents(mut self) -> Self {
        self.kittest = self.kittest.with_fit_contents();
        self
    }

    /// Draws a box for a character no font has instead of panicking (kittest's
    /// [`allow_missing_glyphs`](egui_kittest::HarnessBuilder::allow_missing_glyphs)).
    #[must_use]
    pub fn allow_missing_glyphs(mut self) -> Self {
        self.kittest = self.kittest.allow_missing_glyphs();
        self
    }

    /// The screen's pixels per point (default 1).
    #[must_use]
    pub fn with_pixels_per_point(mut self, pixels_per_point: f32) -> Self {
        self.kittest = self.kittest.with_pixels_per_point(pixels_per_point);
        self
    }

    /// The theme (kittest's default is dark).
    #[must_use]
    pub fn with_theme(mut self, theme: egui::Theme) -> Self {
        self.kittest = self.kittest.with_theme(theme);
        self
    }

    /// The operating system egui is told it runs on (kittest's default is
    /// [`Nix`](egui::os::OperatingSystem::Nix), so shortcuts read the same everywhere).
    #[must_use]
    pub fn with_os(mut self, os: egui::os::OperatingSystem) -> Self {
        self.kittest = self.kittest.with_os(os);
        self
    }

    /// How many steps kittest's [`run`](egui_kittest::Harness::run) takes at most before it
    /// panics (kittest's default is 4). The agent's calls are bounded by
    /// [`with_max_call_steps`](Self::with_max_call_steps) instead.
    #[must_use]
    pub fn with_max_steps(mut self, max_steps: u64) -> Self {
        self.kittest = self.kittest.with_max_steps(max_steps);
        self
    }

    /// How many passes [`Harness::call`], [`Harness::try_call`], [`Harness::finish`] and
    /// [`Harness::wait_for_change`] run at most (default [`MAX_STEPS`]): a call that should be
    /// answered then fails the test instead of hanging it.
    #[must_use]
    pub fn with_max_call_steps(mut self, steps: usize) -> Self {
        self.max_call_steps = steps;
        self
    }

    /// The time one step advances (kittest's default is 1/4 s).
    #[must_use]
    pub fn with_step_dt(mut self, step_dt: f32) -> Self {
        self.kittest = self.kittest.with_step_dt(step_dt);
        self
    }

    /// Whether kittest fails the test when an input has no accessible name (default on; see
    /// [`egui_kittest::Harness::check_accessibility`]). Turn it off to test an app whose inputs
    /// a person knows by the label beside them (a grid's row) but that does not tie them with
    /// [`labelled_by`](egui::Response::labelled_by): agents read those by that label too.
    #[must_use]
    pub fn with_accessibility_check(mut self, on: bool) -> Self {
        self.kittest = self.kittest.with_accessibility_check(on);
        self
    }

    /// Whether kittest's `run` waits for images still loading (default on).
    #[must_use]
    pub fn with_wait_for_pending_images(mut self, wait: bool) -> Self {
        self.kittest = self.kittest.with_wait_for_pending_images(wait);
        self
    }

    /// The renderer, for snapshots (kittest's default renders lazily, when asked).
    #[must_use]
    pub fn renderer(mut self, renderer: impl egui_kittest::TestRenderer + 'static) -> Self {
        self.kittest = self.kittest.renderer(renderer);
        self
    }

    /// Configures the context (fonts, styles, image loaders) before the first pass, as kittest's
    /// [`with_context_setup`](egui_kittest::HarnessBuilder::with_context_setup) does. It runs
    /// before the bridge's plugin is added; a second call replaces the first.
    #[must_use]
    pub fn with_context_setup(mut self, setup: impl FnOnce(&egui::Context) + 'static) -> Self {
        self.context_setup = Some(Box::new(setup));
        self
    }

    /// Sets the options of kittest's builder that its cargo features add (`snapshot`'s
    /// `with_options`, `wgpu`'s `with_render_options`, …): this crate enables none of them, so it
    /// cannot pass them on. A context setup set there is replaced: use
    /// [`with_context_setup`](Self::with_context_setup).
    #[must_use]
    pub fn map_kittest(
        mut self,
        map: impl FnOnce(egui_kittest::HarnessBuilder<State>) -> egui_kittest::HarnessBuilder<State>,
    ) -> Self {
        self.kittest = map(self.kittest);
        self
    }

    /// Runs `app` with `state`, with the plugin, and publishes its first state. The app's
    /// state is [`state`](egui_kittest::Harness::state), typed.
    #[track_caller]
    pub fn build_ui_state<'a>(
        self,
        app: impl FnMut(&mut egui::Ui, &mut State) + 'a,
        state: State,
    ) -> Harness<'a, State> {
        let (kittest, finish) = self.into_kittest();
        finish.start(kittest.build_ui_state(app, state))
    }

    /// kittest's builder, with the caller's context setup and then the plugin, and what
    /// [`Start::start`] needs afterwards.
    fn into_kittest(self) -> (egui_kittest::HarnessBuilder<State>, Start) {
        let Self { bridge, kittest, context_setup, max_call_steps } = self;
        // The in-process agent reads without a server: the read view looks at every pass.
        bridge.core().read_view_every_pass.store(true, std::sync::atomic::Ordering::Release);
        let plugin = bridge.plugin();
        // kittest keeps one context setup: ours runs the caller's first.
        let kittest = kittest.with_context_setup(move |ctx| {
            if let Some(setup) = context_setup {
                setup(ctx);
            }
            ctx.add_plugin(plugin);
        });
        (kittest, Start { agent: Agent::new(&bridge), max_call_steps })
    }
}

impl HarnessBuilder {
    /// Runs `app`, without state of its own, with the plugin, and publishes its first state.
    #[track_caller]
    pub fn build_ui<'a>(self, app: impl FnMut(&mut egui::Ui) + 'a) -> Harness<'a> {
        let (kittest, finish) = self.into_kittest();
        finish.start(kittest.build_ui(app))
    }
}

/// What a harness gets besides kittest's.
struct Start {
    agent: Agent,
    max_call_steps: usize,
}

impl Start {
    fn start<State>(self, kittest: egui_kittest::Harness<'_, State>) -> Harness<'_, State> {
        let mut harness = Harness { kittest, agent: self.agent, max_call_steps: self.max_call_steps };
        harness.kittest.step(); // the first publish
        harness
    }
}
