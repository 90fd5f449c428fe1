//! Whether an agent is about, and the read view's looks its reads wait for: the read view (what
//! the app draws but has not described) is built only while an agent asked something lately,
//! at a pace, and an agent's first read waits for the first look.

use std::time::Duration;

use super::Hub;

/// How often the read view looks at egui's accessibility tree at most: building the tree costs
/// egui about half a pass, so it is built in one pass a second (and only while an agent is
/// about), not in each; less often where a look pass takes over a tenth of a second (thousands
/// of windows: the plugin's `pace_after`). What the read view saw is declared again in the passes between; a pass
/// between asks egui for the pass of the next look, so what it drew is seen within the pace
/// (the plugin's `ReadPace`).
pub const READ_VIEW_EVERY: Duration = Duration::from_secs(1);

/// How long after an agent's last request the read view keeps being built.
pub const AGENT_AWAY: Duration = Duration::from_secs(60);

/// How long the first read of the state after an agent arrives (`app://windows`,
/// `app__read_windows`, or `tools/list`) waits, at most, for the read view's first look (the
/// arrival woke the app for it, which under a window takes a frame or two): without it, that
/// read would show no window the app has not described, and that list none of their generic
/// tools. A UI that runs no pass (a window hidden where the platform stops painting it) is
/// answered after this with what was published last.
pub const FIRST_LOOK_WAIT: Duration = Duration::from_secs(1);

/// What the bridge does with what the app draws but has not described (the read view):
/// [`BridgeBuilder::read_view`](crate::BridgeBuilder::read_view).
///
#[doc = include_str!("../docs/read_view.md")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadView {
    /// Agents read it and operate it through generic tools (`{id}__edit_field`,
    /// `{id}__press`), under every rule of a described window. The default.
    #[default]
    Operate,
    /// Agents read it; it has no tools (`"readOnly": true`).
    ReadOnly,
    /// Nothing undescribed is published: agents see described windows only.
    Off,
}

impl From<bool> for ReadView {
    /// `true`: [`ReadView::Operate`] (the default); `false`: [`ReadView::Off`].
    fn from(on: bool) -> Self {
        if on { Self::Operate } else { Self::Off }
    }
}

/// The read view's published looks: how many, when the last was (milliseconds since the hub
/// was made), and the pace the read view keeps since it (milliseconds; 0: [`READ_VIEW_EVERY`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Looks {
    count: u64,
    at: u64,
    pace: u64,
}

impl Hub {
    /// An agent asked something (connected, listed, read, called). The first time in a while,
    /// the UI is woken, so that the read view is built for what it reads next.
    pub fn agent_active(&self) {
        // Counted before the agent is about: no look of a pass that began without it counts.
        let looks = self.looks.borrow().count;
        let now = self.millis().max(1);
        let before = self.agent_seen.swap(now, std::sync::atomic::Ordering::AcqRel);
        if self.config.read_view != ReadView::Off
            && (before == 0 || now.saturating_sub(before) > AGENT_AWAY.as_millis() as u64)
        {
            self.looks_at_arrival.store(looks, std::sync::atomic::Ordering::Release);
            self.wake();
        }
    }

    /// The UI thread published a look of the read view (after the pass that took it), and
    /// keeps `pace` between looks from now on.
    pub fn looked(&self, pace: Duration) {
        let at = self.millis();
        let pace = u64::try_from(pace.as_millis()).unwrap_or(u64::MAX);
        self.looks.send_modify(|l| {
            l.count += 1;
            l.at = at;
            l.pace = pace;
        });
    }

    /// Before a read of the state or a tool list is answered (the agent counted as active
    /// already): when no look was published since the agent arrived, waits for the first, at
    /// most [`FIRST_LOOK_WAIT`]; when the last look is older than the read view's pace, wakes
    /// the UI for one, which this read does not wait for (what changed in a pass since was
    /// looked at within the pace already; the wake-up is for a state that changed with no pass
    /// at all, which the next read then shows).
    pub async fn look_for_read(&self) {
        if self.config.read_view == ReadView::Off {
            return;
        }
        let arrival = self.looks_at_arrival.load(std::sync::atomic::Ordering::Acquire);
        let mut rx = self.looks.subscribe();
        let last = *rx.borrow_and_update();
        if last.count <= arrival {
            self.wake();
            if tokio::time::timeout(FIRST_LOOK_WAIT, rx.wait_for(|l| l.count > arrival)).await.is_err() {
                tracing::debug!(
                    waited_ms = FIRST_LOOK_WAIT.as_millis() as u64,
                    "the read view has not looked yet (no pass ran); answering with what was published"
                );
            }
        } else if self.millis().saturating_sub(last.at) >= last.pace.max(READ_VIEW_EVERY.as_millis() as u64) {
            self.wake();
        }
    }

    /// Whether an agent asked something within [`AGENT_AWAY`].
    pub fn agent_about(&self) -> bool {
        let seen = self.agent_seen.load(std::sync::atomic::Ordering::Acquire);
        seen != 0 && self.millis().saturating_sub(seen) <= AGENT_AWAY.as_millis() as u64
    }
}
