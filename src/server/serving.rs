//! Stopping a transport gracefully: no new call is taken, the calls under way are answered,
//! then the transport closes.
//!
//! Each `serve_*` gets one [`Serving`]. Its handle ([`ServeHandle`], [`crate::serve::HttpHandle`])
//! asks it to stop, on request or when dropped; the transport's task does the stopping, so
//! asking never blocks (the UI thread may ask, and it is the UI thread that answers the calls
//! under way).
//!
//! The handle and the transport's task each hold a [`Lifeline`]: the server's state and its
//! runtime live until both are gone, whatever happens to the `Bridge`. The task's
//! [`TaskGuard`] marks the handle closed however the task ends, and says so in the log when it
//! ends without closing (its runtime shut down, or it panicked): never a silent stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use tokio::sync::{Notify, watch};

use super::Lifeline;

/// The stop state of one transport.
#[derive(Debug)]
pub(crate) struct Serving {
    stop: watch::Sender<bool>,
    /// Set once the calls under way are answered: the transport ends its input then.
    input_end: watch::Sender<bool>,
    closed: watch::Sender<bool>,
    /// `closed` again, for threads that wait without a runtime.
    closed_sync: (Mutex<bool>, Condvar),
    in_flight: AtomicUsize,
    drained: Notify,
}

/// One call (or HTTP request) under way; dropping it marks it answered.
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Serving>);

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.drained.notify_waiters();
        }
    }
}

impl Serving {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            stop: watch::Sender::new(false),
            input_end: watch::Sender::new(false),
            closed: watch::Sender::new(false),
            closed_sync: (Mutex::new(false), Condvar::new()),
            in_flight: AtomicUsize::new(0),
            drained: Notify::new(),
        })
    }

    /// Asks to stop; returns at once.
    pub fn request_stop(&self) {
        self.stop.send_replace(true);
    }

    pub fn is_stopping(&self) -> bool {
        *self.stop.borrow()
    }

    /// Resolves once a stop was asked for.
    pub async fn stopped(&self) {
        let _ = self.stop.subscribe().wait_for(|s| *s).await;
    }

    /// A call (or request) begins; `None` once stopping (refuse it).
    pub fn begin(self: &Arc<Self>) -> Option<InFlight> {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        let guard = InFlight(Arc::clone(self));
        (!self.is_stopping()).then_some(guard)
    }

    /// Waits until nothing is under way, at most `max`. False when time ran out.
    pub async fn drain(&self, max: Duration) -> bool {
        let wait = async {
            loop {
                let drained = self.drained.notified();
                if self.in_flight.load(Ordering::Acquire) == 0 {
                    return;
                }
                drained.await;
            }
        };
        tokio::time::timeout(max, wait).await.is_ok()
    }

    /// Tells the transport to end its input (stdio: as at EOF).
    pub fn end_input(&self) {
        self.input_end.send_replace(true);
    }

    /// Resolves once the input is to end.
    pub async fn input_ended(&self) {
        let _ = self.input_end.subscribe().wait_for(|s| *s).await;
    }

    pub fn mark_closed(&self) {
        self.closed.send_replace(true);
        *self.closed_sync.0.lock() = true;
        self.closed_sync.1.notify_all();
    }

    pub fn is_closed(&self) -> bool {
        *self.closed.borrow()
    }

    /// Resolves once the transport closed.
    pub async fn closed(&self) {
        let _ = self.closed.subscribe().wait_for(|c| *c).await;
    }

    /// Blocks this thread until the transport closed, at most `max`.
    pub fn wait_closed(&self, max: Duration) -> bool {
        let mut closed = self.closed_sync.0.lock();
        if !*closed {
            let _ = self.closed_sync.1.wait_while_for(&mut closed, |c| !*c, max);
        }
        *closed
    }
}

/// Held by a transport's serving task (made before the task is spawned, so that it goes with
/// the task however the task goes): when it is dropped without the transport having closed (the
/// runtime shut down, dropping the task, or the task panicked), it logs the error and marks the
/// handle closed. Dropped last, it lets go of the server's state and runtime.
pub(crate) struct TaskGuard {
    serving: Arc<Serving>,
    transport: &'static str,
    _lifeline: Lifeline,
}

impl TaskGuard {
    pub fn new(serving: Arc<Serving>, transport: &'static str, lifeline: Lifeline) -> Self {
        Self { serving, transport, _lifeline: lifeline }
    }
}

impl Drop for TaskGuard {
    fn drop(&mut self) {
        if !self.serving.is_closed() {
            tracing::error!(
                transport = self.transport,
                "serving MCP ended without closing: the tokio runtime it ran on shut down (one given with BridgeBuilder::runtime?) or its task panicked; the handle reports it closed"
            );
            self.serving.mark_closed();
        }
    }
}

/// A connection (stdio, a byte stream) or an HTTP endpoint being served; an
/// [`HttpHandle`](crate::serve::HttpHandle) dereferences to one. Dropping it stops serving, as
/// [`stop`](Self::stop) does; keep it for as long as the app should be reachable.
///
/// The handle alone keeps serving alive: the server, its state and its runtime live as long as
/// it does (and, once it is stopped or dropped, until the calls under way are answered), whether
/// or not any [`Bridge`](crate::Bridge) clone is left; the UI side lives in the plugin added to
/// the app's egui context. When something serving needs is gone anyway (the app's UI: its egui
/// context and every `Bridge` clone dropped; or a runtime given with
/// [`BridgeBuilder::runtime`](crate::BridgeBuilder::runtime) shut down), serving ends with a
/// line in the log and the handle [reports it closed](Self::is_closed).
#[derive(Debug)]
#[must_use = "dropping the handle stops serving"]
pub struct ServeHandle {
    serving: Arc<Serving>,
    /// The server's state and runtime, for as long as the handle lives.
    _lifeline: Lifeline,
}

impl ServeHandle {
    pub(crate) fn new(serving: Arc<Serving>, lifeline: Lifeline) -> Self {
        Self { serving, _lifeline: lifeline }
    }

    /// True once it ended: the client left, stdin reached EOF, or it was stopped (for HTTP:
    /// every session and connection is closed); or serving could not go on: the app's UI is
    /// gone, or the runtime it ran on shut down (each logged).
    pub fn is_closed(&self) -> bool {
        self.serving.is_closed()
    }

    /// Stops serving, gracefully: a call that arrives from now on is refused (HTTP: the port is
    /// closed at once), the calls under way are answered (within twice the call budget), then
    /// the connection closes (HTTP: every session and connection). Returns at once; see
    /// [`wait_closed`](Self::wait_closed).
    pub fn stop(&self) {
        self.serving.request_stop();
    }

    /// Waits until the connection closed, at most `max`; false if it is still open. Blocks the
    /// calling thread: not the UI thread while calls are under way, since it answers them.
    pub fn wait_closed(&self, max: Duration) -> bool {
        self.serving.wait_closed(max)
    }

    /// Resolves once the connection closed.
    pub async fn closed(&self) {
        self.serving.closed().await;
    }
}

impl Drop for ServeHandle {
    fn drop(&mut self) {
        self.serving.request_stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stop_waits_for_the_calls_under_way_and_refuses_new_ones() {
        let s = Serving::new();
        let call = s.begin().expect("taken before the stop");
        s.request_stop();
        assert!(s.begin().is_none(), "refused once stopping");
        assert!(!s.drain(Duration::from_millis(20)).await, "one call still under way");
        drop(call);
        assert!(s.drain(Duration::from_secs(5)).await, "drained once it is answered");
    }

    #[test]
    fn wait_closed_returns_when_closed_and_times_out_otherwise() {
        let s = Serving::new();
        assert!(!s.wait_closed(Duration::from_millis(10)));
        s.mark_closed();
        assert!(s.wait_closed(Duration::from_millis(10)));
    }
}
