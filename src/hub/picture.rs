//! A look at a window (`app__view_window`): how a server task asks the UI thread for a picture
//! of one window, one picture at a time and at a bounded rate, and what the UI hands back.
//!
//! The UI thread does the least it can: in a pass of the window's viewport it finds the
//! window's rectangle and what must be blanked (what the app hides from the read view, every
//! password edit), asks egui's integration for a screenshot of that pass, and the integration's
//! callback hands the pixels over as they are ([`Shot`]: the integration's own image behind
//! [`Pixels`], not copied). Cropping, blanking, scaling and PNG encoding happen on the server's
//! side, off the UI thread. Nothing here knows egui: the plugin puts egui's image behind
//! [`Pixels`].
//!
//! Bounds ([`super::limits`]): at most one picture under way per app (the next waits its turn,
//! within its wait bound), at least [`MIN_VIEW_INTERVAL`] between the end of one and the start
//! of the next, and at most [`VIEW_WINDOW_WAIT`] (or the call budget, if shorter) from the
//! call to the picture, past which the call is answered with an error. A UI that drops the
//! request without answering it (an integration that takes no screenshots: a headless run, a
//! test harness without a renderer) is answered at once.

use std::time::Duration;

use tokio::time::Instant;

use super::Hub;
use super::limits::{MIN_VIEW_INTERVAL, VIEW_WINDOW_WAIT};
use crate::protocol::{ErrorCode, ToolError};

/// The pixels of a screenshot, as the integration made them (the plugin wraps egui's image).
pub(crate) trait Pixels: Send {
    /// Width and height, in pixels.
    fn size(&self) -> [usize; 2];
    /// Appends row `y`'s pixels from `x0` to `x1` (exclusive), 3 bytes each (red, green, blue;
    /// the screen is opaque), to `out`. The caller keeps within [`Self::size`].
    fn rgb_row(&self, y: usize, x0: usize, x1: usize, out: &mut Vec<u8>);
}

/// A rectangle of the screenshot, in its pixels: `[x0, y0, x1, y1]`.
pub(crate) type PxRect = [f32; 4];

/// What the UI thread hands back for one picture: the whole viewport's pixels, the window's
/// rectangle in them, the rectangles to blank, and the window's version in the state published
/// with the pass that was pictured.
pub(crate) struct Shot {
    pub pixels: Box<dyn Pixels>,
    pub crop: PxRect,
    pub blanks: Vec<PxRect>,
    pub version: u64,
}

impl std::fmt::Debug for Shot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shot")
            .field("size", &self.pixels.size())
            .field("crop", &self.crop)
            .field("blanks", &self.blanks.len())
            .field("version", &self.version)
            .finish()
    }
}

/// Where the UI's answer to a picture request goes.
pub(crate) type ShotReply = tokio::sync::oneshot::Sender<Result<Shot, ToolError>>;

/// A picture the server asked for and the UI has not taken yet.
#[derive(Debug)]
pub(crate) struct PictureRequest {
    /// The window's external id (its handle), as the agent named it.
    pub window: String,
    pub reply: ShotReply,
}

impl PictureRequest {
    /// The server stopped waiting for it (its wait bound ran out, or its client left).
    pub fn is_abandoned(&self) -> bool {
        self.reply.is_closed()
    }
}

/// The app's picture bookkeeping: whose turn it is, and the request waiting for the UI.
#[derive(Debug, Default)]
pub(crate) struct Pictures {
    /// Held by the picture under way, from its request to its encoded bytes; holds when the
    /// last one ended.
    turn: tokio::sync::Mutex<Option<Instant>>,
    /// The request the UI has not taken yet (at most one: it is asked for under the turn).
    waiting: parking_lot::Mutex<Option<PictureRequest>>,
}

/// The turn of one picture: while it is held no other is asked for. Dropping it notes when the
/// picture ended, for the next one's interval.
#[derive(Debug)]
pub(crate) struct PictureTurn<'a> {
    last_end: tokio::sync::MutexGuard<'a, Option<Instant>>,
    deadline: Instant,
}

impl Drop for PictureTurn<'_> {
    fn drop(&mut self) {
        *self.last_end = Some(Instant::now());
    }
}

/// How long a picture may take, from the call: [`VIEW_WINDOW_WAIT`], or the call budget if
/// that is shorter.
pub(crate) fn view_wait(call_timeout: Duration) -> Duration {
    VIEW_WINDOW_WAIT.min(call_timeout)
}

impl Hub {
    /// Waits for the picture turn (another picture may be under way) and for the interval since
    /// the last picture, within `wait` from now: past it, `action_timeout` and nothing asked.
    pub async fn picture_turn(&self, wait: Duration) -> Result<PictureTurn<'_>, ToolError> {
        let deadline = Instant::now() + wait;
        let busy = || {
            ToolError::new(
                ErrorCode::ActionTimeout,
                format!(
                    "Other pictures were being taken (one at a time, at least {} ms apart) for {} ms; call again",
                    MIN_VIEW_INTERVAL.as_millis(),
                    wait.as_millis()
                ),
            )
        };
        let last_end = tokio::time::timeout_at(deadline, self.pictures.turn.lock()).await.map_err(|_| busy())?;
        if let Some(next) = last_end.map(|end| end + MIN_VIEW_INTERVAL) {
            if next > deadline {
                return Err(busy());
            }
            tokio::time::sleep_until(next).await;
        }
        Ok(PictureTurn { last_end, deadline })
    }

    /// Asks the UI for a picture of the window `window` (an external id) and waits for it, within
    /// the turn's deadline. Past it the request is withdrawn and answered `action_timeout`.
    pub async fn ask_picture(&self, turn: &PictureTurn<'_>, window: &str) -> Result<Shot, ToolError> {
        let (reply, rx) = tokio::sync::oneshot::channel();
        *self.pictures.waiting.lock() = Some(PictureRequest { window: window.to_owned(), reply });
        if self.is_ui_gone() {
            self.reject_picture();
        }
        self.wake();
        match tokio::time::timeout_at(turn.deadline, rx).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_dropped)) => Err(ToolError::no_picture_renderer()),
            Err(_) => {
                self.pictures.waiting.lock().take();
                Err(ToolError::new(
                    ErrorCode::ActionTimeout,
                    "The app drew no picture in time (it may be busy, or its window not painting); call again",
                ))
            }
        }
    }

    /// The request waiting for the UI, to look at and take (the plugin, on the UI thread).
    pub fn waiting_picture(&self) -> parking_lot::MutexGuard<'_, Option<PictureRequest>> {
        self.pictures.waiting.lock()
    }

    /// Answers the waiting request, if any: the app is exiting (the UI is gone).
    pub(super) fn reject_picture(&self) {
        if let Some(request) = self.pictures.waiting.lock().take() {
            let _ = request.reply.send(Err(crate::protocol::ToolError::app_exiting()));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::hub::HubConfig;

    /// One row of one colour.
    struct Flat;

    impl Pixels for Flat {
        fn size(&self) -> [usize; 2] {
            [4, 4]
        }

        fn rgb_row(&self, _y: usize, x0: usize, x1: usize, out: &mut Vec<u8>) {
            out.extend(std::iter::repeat_n(7, (x1 - x0) * 3));
        }
    }

    fn shot() -> Shot {
        Shot { pixels: Box::new(Flat), crop: [0.0, 0.0, 4.0, 4.0], blanks: Vec::new(), version: 1 }
    }

    /// A UI that answers each request after `delay`, and counts them.
    fn ui(hub: &Arc<Hub>, delay: Duration) -> Arc<std::sync::atomic::AtomicUsize> {
        let taken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (hub, count) = (Arc::clone(hub), Arc::clone(&taken));
        tokio::spawn(async move {
            loop {
                let request = hub.waiting_picture().take();
                if let Some(r) = request {
                    count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    tokio::time::sleep(delay).await;
                    let _ = r.reply.send(Ok(shot()));
                }
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        });
        taken
    }

    async fn picture(hub: &Hub, wait: Duration) -> Result<(Instant, Instant), ToolError> {
        let turn = hub.picture_turn(wait).await?;
        let began = Instant::now();
        hub.ask_picture(&turn, "w").await?;
        Ok((began, Instant::now()))
    }

    /// Two pictures asked for at once are taken one after the other, the second at least
    /// [`MIN_VIEW_INTERVAL`] after the first ended.
    #[tokio::test]
    async fn pictures_are_taken_one_at_a_time_and_apart() {
        let hub = Arc::new(Hub::new(HubConfig::default()));
        let taken = ui(&hub, Duration::from_millis(50));
        let (a, b) = tokio::join!(picture(&hub, VIEW_WINDOW_WAIT), picture(&hub, VIEW_WINDOW_WAIT));
        let (mut a, mut b) = (a.expect("first"), b.expect("second"));
        if b.0 < a.0 {
            std::mem::swap(&mut a, &mut b);
        }
        assert!(b.0 >= a.1 + MIN_VIEW_INTERVAL, "the second began {:?} after the first ended", b.0 - a.1);
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 2);
    }

    /// A picture that cannot get its turn within its wait, or whose UI does not answer within
    /// it, is answered `action_timeout`, and a withdrawn request is not left for the UI; one
    /// the UI drops unanswered (no renderer) is answered at once.
    #[tokio::test]
    async fn the_wait_for_a_picture_is_bounded() {
        const SHORT: Duration = Duration::from_millis(300);
        let hub = Arc::new(Hub::new(HubConfig::default()));
        // No UI: the request is never taken.
        let e = picture(&hub, SHORT).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::ActionTimeout, "{e:?}");
        assert!(hub.waiting_picture().is_none(), "withdrawn");
        // A slow UI holds the turn: the next one, with a short wait, is refused in time.
        let _taken = ui(&hub, Duration::from_millis(1_500));
        let slow = tokio::spawn({
            let hub = Arc::clone(&hub);
            async move { picture(&hub, Duration::from_secs(10)).await.map(|_| ()) }
        });
        tokio::time::sleep(Duration::from_millis(400)).await;
        let started = Instant::now();
        let e = picture(&hub, SHORT).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::ActionTimeout, "{e:?}");
        assert!(e.message.contains("one at a time"), "{e:?}");
        // Its own wait, not the slow one's 1.5 s (slack for a loaded machine).
        assert!(started.elapsed() < SHORT + Duration::from_secs(1), "{:?}", started.elapsed());
        assert!(slow.await.expect("joined").is_ok(), "the slow one is answered");
        // A UI that drops the request unanswered (no renderer): a clear error at once.
        let hub = Arc::new(Hub::new(HubConfig::default()));
        let dropper = {
            let hub = Arc::clone(&hub);
            tokio::spawn(async move {
                loop {
                    drop(hub.waiting_picture().take());
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            })
        };
        let started = Instant::now();
        let e = picture(&hub, VIEW_WINDOW_WAIT).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::ActionNotAvailable);
        assert!(e.message.contains("renderer"), "{e:?}");
        assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
        dropper.abort();
    }
}
