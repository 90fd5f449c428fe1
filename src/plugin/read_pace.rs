//! When and how the read view looks at egui's accessibility tree: building the tree costs egui
//! about half a pass, so it is built at a pace (while an agent is about, at most once a
//! second, and in every pass of a generic call), and what a look saw is declared again in the
//! passes between. Where a look pass takes long (thousands of windows), the pace slows with
//! it ([`pace_after`]), so that looks take about a tenth of the person's time at most.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use super::{BridgePlugin, observe, operate};
use crate::hub::READ_VIEW_EVERY;
use crate::hub::phase::PassKey;

/// A paced look's pass may take this share of the time between looks: a look pass costs about
/// twice a pass, so looks then slow the person's passes by about a tenth at most.
const LOOK_SHARE: u32 = 10;

/// The slowest pace, however long a look takes: what the read view shows is at most this old
/// (plus a pass) while an agent is about.
const SLOWEST_PACE: Duration = Duration::from_secs(30);

/// The time between paced looks after a look pass that took `look`: [`READ_VIEW_EVERY`] while
/// a look is short (any app of a few hundred windows), else [`LOOK_SHARE`] times the look, up to
/// [`SLOWEST_PACE`]. At 10,000 windows, where a pass takes seconds, every pass was a look.
fn pace_after(look: Duration) -> Duration {
    look.saturating_mul(LOOK_SHARE).clamp(READ_VIEW_EVERY, SLOWEST_PACE)
}

/// When the read view last looked, and whether egui's tree is ours to turn on and off.
#[derive(Default)]
pub(super) struct ReadPace {
    /// The last pass that built the tree for the read view.
    last: Option<std::time::Instant>,
    /// When the frame under way began, if it builds the tree: its look's time sets the pace.
    began: Option<std::time::Instant>,
    /// The time between paced looks now ([`pace_after`] of the last look; none yet: the
    /// shortest).
    pace: Option<Duration>,
    /// This frame's passes build the tree for the read view.
    building: bool,
    /// The tree is on because the bridge turned it on (and so may turn it off).
    ours: bool,
    /// Something else turned egui's tree on (a screen reader through eframe, a test harness)
    /// while the bridge had it off: the bridge never turns it off again. (egui says nothing of
    /// who turned it on, so one turned on while the bridge had it on goes unnoticed, and is
    /// turned off with the bridge's.)
    external: bool,
    /// An agent is about but this frame was not looked at: a look follows within the pace
    /// (asked of egui at the pass's end).
    behind: bool,
    /// Per viewport, what the last look found.
    pub(super) seen: HashMap<PassKey, observe::Seen>,
    /// The viewports whose last kept pass was looked at: a state published from it is fresh
    /// enough to check an agent's generic call against.
    pub(super) fresh: HashSet<PassKey>,
}

impl ReadPace {
    /// The time between paced looks now.
    pub(super) fn pace(&self) -> Duration {
        self.pace.unwrap_or(READ_VIEW_EVERY)
    }
}

impl BridgePlugin {
    /// At the start of a frame: whether its passes build egui's accessibility tree for the read
    /// view (an agent is about and the last look is a pace old), and the tree turned on or off
    /// to match, unless something else turned it on.
    pub(super) fn pace_read_view(&mut self, ctx: &egui::Context) {
        let every_pass = self.core.read_view_every_pass.load(std::sync::atomic::Ordering::Acquire);
        let wanted = every_pass || self.core.hub.agent_about();
        // While an agent's generic call is under way, every pass is looked at.
        let pace = self.read.pace();
        let due = every_pass || self.op.is_some() || self.read.last.is_none_or(|t| t.elapsed() >= pace);
        self.read.building = (wanted && due) || self.op.is_some();
        self.read.began = self.read.building.then(std::time::Instant::now);
        self.read.behind = wanted && !self.read.building;
        self.core.frame.lock().set_looking(self.read.building);
        if self.read.building && !self.read.ours && !self.read.external {
            ctx.enable_accesskit();
            self.read.ours = true;
        } else if !self.read.building && self.read.ours && !self.read.external {
            ctx.disable_accesskit();
            self.read.ours = false;
        }
    }

    /// At the end of a kept pass: a look at its tree when this frame builds it, else the last
    /// look's windows declared again; and a look asked for within the pace when one is due.
    /// True when this outermost pass looked (its end publishes the look).
    ///
    /// The look a pass that was not looked at asks for is a repaint egui is asked for
    /// (`request_repaint_after_for`): eframe's integrations ignore the output's
    /// `repaint_delay` (they listen to egui's repaint callback instead), and a pass of the app
    /// without input, a background job's result drawn, would otherwise be seen only at the next
    /// input.
    pub(super) fn read_view(
        &mut self,
        ctx: &egui::Context,
        key: PassKey,
        viewport: egui::ViewportId,
        output: &mut egui::FullOutput,
        modal: Option<u64>,
    ) -> bool {
        let tree = output.platform_output.accesskit_update.as_ref();
        if tree.is_some() && !self.read.ours {
            self.read.external = true;
        }
        let mut looked_outermost = false;
        if let Some(tree) = tree.filter(|_| self.read.building) {
            looked_outermost = self.look(key, tree, modal);
        } else {
            self.read.fresh.remove(&key);
        }
        if let Some(seen) = self.read.seen.get(&key) {
            let mut frame = self.core.frame.lock();
            for window in &seen.windows {
                frame.declare_read_only(window);
            }
            for (app_id, read) in seen.inside.iter().filter(|(_, r)| !r.is_empty()) {
                frame.append_read_blocks(key, app_id, read);
            }
        }
        if self.read.behind
            && self.viewports.is_empty()
            && let Some(vp) = output.viewport_output.get_mut(&viewport)
        {
            let waited = self.read.last.map_or(Duration::ZERO, |t| t.elapsed());
            let due_in = self.read.pace().saturating_sub(waited);
            vp.repaint_delay = vp.repaint_delay.min(due_in);
            ctx.request_repaint_after_for(due_in, viewport);
        }
        looked_outermost
    }

    /// A look at the tree of a pass of viewport `key`: what it shows and the app did not
    /// describe, kept for the passes until the next look; the generic call under way, if any,
    /// shown it (`operate/passes.rs`). True when this is an outermost pass (its end publishes
    /// the look).
    fn look(&mut self, key: PassKey, tree: &egui::accesskit::TreeUpdate, modal: Option<u64>) -> bool {
        let operate = self.core.hub.config().read_view == crate::hub::ReadView::Operate;
        let hub = Arc::clone(&self.core.hub);
        let tools = move |targets: &[observe::Target], clickable: bool| operate::tools(targets, clickable, &hub);
        let last = self.read.seen.remove(&key);
        let options = observe::LookOptions {
            modal,
            tools: operate.then_some(&tools as observe::ToolsOf<'_>),
            panel_titles: last.as_ref().map(|l| &l.panel_titles),
        };
        let mut seen = observe::read_undescribed(&self.core, key, tree, &options);
        if let Some(last) = last {
            seen.keep_unseen(last, self.core.frame.lock().window_uis(key));
        }
        self.op_looked(key, &seen, tree);
        self.read.seen.insert(key, seen);
        self.read.fresh.insert(key);
        if !self.viewports.is_empty() {
            return false;
        }
        let now = std::time::Instant::now();
        self.read.last = Some(now);
        if let Some(began) = self.read.began.take() {
            self.read.pace = Some(pace_after(now.duration_since(began)));
        }
        true
    }

    /// This pass is looked at, whatever the pace (set at its start, before the app draws).
    pub(super) fn look_now(&mut self, ctx: &egui::Context) {
        self.read.building = true;
        self.read.behind = false;
        self.core.frame.lock().set_looking(true);
        if !self.read.ours && !self.read.external {
            ctx.enable_accesskit();
            self.read.ours = true;
        }
    }
}

impl BridgePlugin {
    /// The passes from now on are not looked at for a picture any more (with the read view off,
    /// nothing else looks): egui's tree is turned off again if the bridge turned it on.
    pub(super) fn look_off(&mut self, ctx: &egui::Context) {
        self.read.building = false;
        self.core.frame.lock().set_looking(false);
        if self.read.ours && !self.read.external {
            ctx.disable_accesskit();
            self.read.ours = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pace_is_a_second_until_a_look_takes_over_a_tenth_of_it_then_slows_to_at_most_30_s() {
        assert_eq!(pace_after(Duration::from_millis(3)), READ_VIEW_EVERY, "10 editors");
        assert_eq!(pace_after(Duration::from_millis(100)), READ_VIEW_EVERY);
        assert_eq!(pace_after(Duration::from_millis(360)), Duration::from_millis(3_600), "1,000 editors");
        assert_eq!(pace_after(Duration::from_secs(8)), SLOWEST_PACE, "10,000 editors");
    }
}
