//! A pretend serial device, so that the monitor example runs anywhere: opening its port takes
//! a moment (as a real one does), and once open it sends a reading five times a second and
//! answers each command. Its clock is egui's (`ui.input(|i| i.time)`): real time in a window,
//! a fixed step per pass in a test, so tests need no sleeps.

use std::collections::VecDeque;

/// How long opening the port takes.
pub const OPEN_SECONDS: f64 = 0.3;
/// Seconds between two readings.
pub const READING_EVERY: f64 = 0.2;
/// The ports the pretend device offers.
pub const PORTS: [&str; 2] = ["/dev/ttyUSB0", "/dev/ttyACM0"];

/// The device's side of the connection.
#[derive(Debug, Default)]
pub struct Device {
    /// When the port being opened is open.
    opening_until: Option<f64>,
    /// Since when it is open, and how many readings it sent.
    open: Option<(f64, u64)>,
    /// Answers waiting for the next line.
    replies: VecDeque<String>,
}

impl Device {
    /// Starts opening the port: [`poll`](Self::poll) says when it is open.
    pub fn start_opening(&mut self, now: f64) {
        self.opening_until = Some(now + OPEN_SECONDS);
    }

    /// Whether the port is being opened.
    pub fn is_opening(&self) -> bool {
        self.opening_until.is_some()
    }

    /// Whether the port is open.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Closes the port.
    pub fn close(&mut self) {
        *self = Self::default();
    }

    /// Sends a command; the device answers on its next line.
    pub fn send(&mut self, command: &str) {
        self.replies.push_back(format!("< OK {command}"));
    }

    /// What happened by `now`: whether the port just opened, and the lines the device sent
    /// since the last poll. Also says when to look again (seconds from now).
    pub fn poll(&mut self, now: f64) -> (bool, Vec<String>, Option<f64>) {
        let mut opened = false;
        if let Some(until) = self.opening_until
            && now >= until
        {
            self.opening_until = None;
            self.open = Some((now, 0));
            opened = true;
        }
        let mut lines: Vec<String> = self.replies.drain(..).collect();
        let mut next = self.opening_until.map(|until| until - now);
        if let Some((since, sent)) = &mut self.open {
            let due = ((now - *since) / READING_EVERY).floor() as u64;
            for k in *sent..due {
                let t = *since + (k + 1) as f64 * READING_EVERY;
                lines.push(format!("t={t:.1}s temperature={:.1}°C", 21.0 + (k % 7) as f64 * 0.1));
            }
            *sent = due.max(*sent);
            next = Some(*since + (*sent + 1) as f64 * READING_EVERY - now);
        }
        (opened, lines, next)
    }
}
