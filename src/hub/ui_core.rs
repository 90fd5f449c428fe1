//! The UI thread's half of the core: the hub, the pass bookkeeping, and whether the passes that
//! agent calls asked for are running.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use super::Hub;
use super::frame::FrameState;

/// Shared by the plugin, the declaration API and the [`crate::Bridge`]. Each lock is held for
/// a short bookkeeping step, never across the app's ui code.
#[derive(Debug)]
pub(crate) struct UiCore {
    pub hub: Arc<Hub>,
    pub frame: Mutex<FrameState>,
    /// Since when a pass of the app's real context has been asked for (for a call) and not run.
    pass_asked: Mutex<Option<Instant>>,
    /// An app context runs the plugin (only one may: its passes are the bookkeeping's).
    context_claimed: AtomicBool,
    /// The app context exited (and none took the bridge since).
    exited: AtomicBool,
    /// The read view is built in every pass, whether an agent is about or not (a test harness,
    /// whose in-process agent reads without a server).
    pub read_view_every_pass: AtomicBool,
}

impl UiCore {
    pub fn new(hub: Arc<Hub>) -> Self {
        Self {
            hub,
            frame: Mutex::new(FrameState::default()),
            pass_asked: Mutex::new(None),
            context_claimed: AtomicBool::new(false),
            exited: AtomicBool::new(false),
            read_view_every_pass: AtomicBool::new(false),
        }
    }

    /// The person's answer to the agent's call waiting on the window `app_id`; wakes the UI so
    /// that an allowed call is admitted. False if none waits (any more).
    pub fn answer_approval(&self, app_id: &str, allow: bool) -> bool {
        let answered = self.frame.lock().answer_approval(app_id, allow);
        if answered {
            self.hub.wake();
        }
        answered
    }

    /// The plugin of an app context takes the bridge; false if another context has it.
    pub fn claim_context(&self) -> bool {
        let claimed = self.context_claimed.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_ok();
        if claimed {
            self.exited.store(false, Ordering::Release);
        }
        claimed
    }

    /// The app context exited: another may take the bridge.
    pub fn release_context(&self) {
        self.exited.store(true, Ordering::Release);
        self.context_claimed.store(false, Ordering::Release);
    }

    /// Notes that a pass is wanted for agent calls (the earliest outstanding ask counts).
    pub fn ask_for_pass(&self) {
        self.pass_asked.lock().get_or_insert_with(Instant::now);
    }

    /// A pass of the app's real context ran.
    pub fn pass_ran(&self) {
        *self.pass_asked.lock() = None;
    }

    /// How long a pass asked for agent calls has not run (`None`: none is outstanding).
    pub fn pass_overdue(&self) -> Option<Duration> {
        self.pass_asked.lock().map(|t| t.elapsed())
    }

    /// Whether a call is queued or under way (applied, not yet answered).
    pub fn has_pending_work(&self) -> bool {
        self.pending_calls() > 0
    }

    /// Calls queued for the UI, plus the one under way, if any.
    pub fn pending_calls(&self) -> usize {
        self.hub.queued_calls() + usize::from(self.frame.lock().has_active_call())
    }
}

/// The UI side is gone for good: every [`crate::Bridge`] clone and the plugin were dropped, so
/// nothing will declare a window or answer a call again. The call under way is answered, the
/// queued ones too ("shutting down"), and the server learns it (its transports then close).
impl Drop for UiCore {
    fn drop(&mut self) {
        self.frame.get_mut().shutdown(&self.hub);
        self.hub.set_ui_gone(*self.exited.get_mut());
    }
}
