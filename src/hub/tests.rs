use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;

use super::*;

/// Polls `f` once.
async fn poll_once<F: Future + Unpin>(f: &mut F) -> Poll<F::Output> {
    std::future::poll_fn(|cx| Poll::Ready(std::pin::Pin::new(&mut *f).poll(cx))).await
}

/// The first read after an agent arrives waits for the read view's first look, and the look
/// (not the bound) ends the wait; later reads do not wait, and wake the UI only once the
/// last look is a pace old.
#[tokio::test]
async fn the_first_read_waits_for_the_first_look_and_later_ones_do_not() {
    let hub = Hub::new(HubConfig::default());
    let wakes = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&wakes);
    hub.set_waker(Some(Arc::new(move || {
        counted.fetch_add(1, Ordering::Relaxed);
    })));
    hub.agent_active();
    assert_eq!(wakes.load(Ordering::Relaxed), 1, "the arrival wakes the UI");
    let mut read = Box::pin(hub.look_for_read());
    assert!(poll_once(&mut read).await.is_pending(), "no look yet: the read waits");
    hub.looked(READ_VIEW_EVERY);
    assert!(poll_once(&mut read).await.is_ready(), "the look ends the wait");

    let before = wakes.load(Ordering::Relaxed);
    hub.agent_active();
    let mut read = Box::pin(hub.look_for_read());
    assert!(poll_once(&mut read).await.is_ready(), "a look since the arrival: no wait");
    assert_eq!(wakes.load(Ordering::Relaxed), before, "the look is fresh: no wake-up");

    let off = Hub::new(HubConfig { read_view: ReadView::Off, ..HubConfig::default() });
    off.agent_active();
    let mut read = Box::pin(off.look_for_read());
    assert!(poll_once(&mut read).await.is_ready(), "without the read view nothing waits");
}
