//! Newline-delimited JSON-RPC over a byte stream (stdio, or any pipe), hardened against the
//! clients that misbehave:
//!
//! - a line longer than [`MAX_LINE`] is discarded without being held whole, and answered (lines
//!   are framed by tokio-util's `AnyDelimiterCodec` with that maximum: bytes, not UTF-8, since
//!   a line that is not UTF-8 is answered as any line that is not JSON);
//! - a line that is not JSON is answered with `-32700 Parse error` (id `null`), and one that is
//!   JSON but no JSON-RPC message with `-32600 Invalid Request` (with its id, if it has one;
//!   with id `null` when its id is no string or number);
//! - every id is answered as the client wrote it (`ids.rs`): one rmcp would rewrite goes to rmcp
//!   as a placeholder, held until its answer (at most [`MAX_REWRITTEN`] at a time);
//! - a request without an id (a notification in form, so it cannot be answered), and a
//!   notification no MCP version defines, are dropped here, before rmcp would log them whole:
//!   at most their method is logged, never their arguments;
//! - nothing a client sent is ever logged, so no password it typed reaches a log line;
//! - a write that fails (the client closed its reading end) ends the connection at once, so no
//!   further request is read, and none is applied whose answer cannot be delivered;
//! - a client that stops reading is not read either once [`MAX_UNWRITTEN`] messages wait to be
//!   written to it (rmcp writes each answer from a task of its own, so without this each
//!   request it sent would be held until it read again: 20,000 unread answers were held).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use futures_core::Stream as _;
use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt as _};
use tokio::sync::Notify;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, FramedRead};

use super::ids::{self, Id, Placeholder};
use super::serving::Serving;

/// The longest line read (the HTTP transport's body limit too).
pub const MAX_LINE: usize = 4 * 1024 * 1024;

/// The most messages (answers, notifications) waiting to be written to one connection: while
/// this many wait, its next line is not read.
pub const MAX_UNWRITTEN: usize = 64;

/// The most requests under way at a time whose ids wait in [`Rewritten`]: beyond, such a request
/// is answered with an error at once.
const MAX_REWRITTEN: usize = 1024;

/// The ids as sent of requests that went to rmcp under a placeholder, until they are answered
/// (dropped with the connection).
type Rewritten = parking_lot::Mutex<HashMap<Placeholder, Box<[u8]>>>;

/// Why the connection ended on our side.
#[derive(Debug)]
pub(crate) struct Closed;

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client's reading end is closed")
    }
}

impl std::error::Error for Closed {}

struct Writer<W> {
    out: tokio::sync::Mutex<W>,
    closed: AtomicBool,
    on_close: Notify,
    /// Messages waiting to be written ([`Unwritten`]), and a wake-up when one is.
    unwritten: AtomicUsize,
    written: Notify,
}

/// One message waiting to be written, counted from `send` until its write ends (or is dropped).
struct Unwritten<W>(Arc<Writer<W>>);

impl<W> Unwritten<W> {
    fn new(writer: &Arc<Writer<W>>) -> Self {
        writer.unwritten.fetch_add(1, Ordering::AcqRel);
        Self(Arc::clone(writer))
    }
}

impl<W> Drop for Unwritten<W> {
    fn drop(&mut self) {
        self.0.unwritten.fetch_sub(1, Ordering::AcqRel);
        self.0.written.notify_waiters();
    }
}

impl<W: AsyncWrite + Unpin + Send> Writer<W> {
    async fn write_line(&self, bytes: &[u8]) -> Result<(), Closed> {
        if self.closed.load(Ordering::Acquire) {
            return Err(Closed);
        }
        let mut line = Vec::with_capacity(bytes.len() + 1);
        line.extend_from_slice(bytes);
        line.push(b'\n');
        let mut out = self.out.lock().await;
        let result = async {
            out.write_all(&line).await?;
            out.flush().await
        }
        .await;
        if result.is_err() {
            tracing::debug!("writing to the client failed; ending the connection");
            self.closed.store(true, Ordering::Release);
            self.on_close.notify_waiters();
            return Err(Closed);
        }
        Ok(())
    }
}

/// The transport: reads lines from `R`, writes lines to `W`.
pub(crate) struct LineTransport<R, W> {
    /// The lines, each at most [`MAX_LINE`] bytes: a longer one is discarded up to its end,
    /// never held whole.
    lines: FramedRead<R, Lines>,
    /// Ends the input (as at EOF) once a stop drained the calls under way.
    serving: Arc<Serving>,
    writer: Arc<Writer<W>>,
    rewritten: Arc<Rewritten>,
}

/// A line over [`MAX_LINE`] (discarded).
struct TooLong;

/// tokio-util's `AnyDelimiterCodec` (bytes up to a newline, at most [`MAX_LINE`] of them),
/// with a line over the limit as an item rather than an error: after a decoder error,
/// `FramedRead` ends its stream once and then decodes what it holds only when more bytes
/// arrive (tokio-rs/tokio#3976), so a request behind a long line would wait for the next.
struct Lines(AnyDelimiterCodec);

impl Lines {
    fn new() -> Self {
        Self(AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), b"\n".to_vec(), MAX_LINE))
    }

    fn item(
        decoded: Result<Option<tokio_util::bytes::Bytes>, AnyDelimiterCodecError>,
    ) -> std::io::Result<Option<Result<tokio_util::bytes::Bytes, TooLong>>> {
        match decoded {
            Ok(line) => Ok(line.map(Ok)),
            Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => Ok(Some(Err(TooLong))),
            Err(AnyDelimiterCodecError::Io(e)) => Err(e),
        }
    }
}

impl Decoder for Lines {
    type Item = Result<tokio_util::bytes::Bytes, TooLong>;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut tokio_util::bytes::BytesMut) -> std::io::Result<Option<Self::Item>> {
        Self::item(self.0.decode(buf))
    }

    fn decode_eof(&mut self, buf: &mut tokio_util::bytes::BytesMut) -> std::io::Result<Option<Self::Item>> {
        Self::item(self.0.decode_eof(buf))
    }
}

impl<R: AsyncRead, W> LineTransport<R, W> {
    pub fn new(reader: R, writer: W, serving: Arc<Serving>) -> Self {
        let writer = Writer {
            out: tokio::sync::Mutex::new(writer),
            closed: AtomicBool::new(false),
            on_close: Notify::new(),
            unwritten: AtomicUsize::new(0),
            written: Notify::new(),
        };
        Self {
            lines: FramedRead::new(reader, Lines::new()),
            serving,
            writer: Arc::new(writer),
            rewritten: Arc::default(),
        }
    }
}

/// What one line is.
enum Line {
    Message(Box<ClientJsonRpcMessage>),
    /// Answer with this (JSON text) and read on.
    Answer(Vec<u8>),
    /// Nothing to do with it.
    Skip,
}

fn error(id: Id<'_>, code: i64, message: &str) -> Line {
    Line::Answer(ids::error_answer(id, code, message))
}

/// Classifies a line without logging any of its content; a request whose id went to rmcp as a
/// placeholder has it in `rewritten`.
fn classify(line: &[u8], rewritten: &Rewritten) -> Line {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Skip;
    }
    let id = Id::of(line);
    let substituted = ids::substitute(line);
    let text = substituted.as_ref().map_or(line, |(text, _)| text.as_slice());
    let value = match serde_json::from_slice::<Value>(text) {
        Ok(value) => value,
        Err(e) => {
            // Answered under the request's own id where it can be read, so its caller is not
            // left waiting; nothing of the line is logged.
            let (id, code, message) = super::malformed::answer(line, &e);
            tracing::debug!(bytes = line.len(), code, "a line that cannot be parsed was answered with an error");
            return error(id, code, message);
        }
    };
    if id == Id::Invalid && value.get("result").is_none() && value.get("error").is_none() {
        // As the HTTP transport answers it (rmcp refuses the request there).
        tracing::debug!("a request whose id is no string or number was answered with an error");
        return error(Id::Absent, -32600, "Invalid Request: an id is a string or a number");
    }
    if let (Id::Absent, Some(method)) = (id, value.get("method").and_then(Value::as_str))
        && !method.starts_with("notifications/")
    {
        tracing::debug!(method = %crate::hub::clipped(method), "a request without an id cannot be answered; dropped");
        return Line::Skip;
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(ClientJsonRpcMessage::Notification(n))
            if matches!(n.notification, rmcp::model::ClientNotification::CustomNotification(_)) =>
        {
            // Nothing here handles them, and rmcp would log their params whole.
            tracing::debug!("an unknown notification was dropped");
            Line::Skip
        }
        Ok(message) => {
            if let (ClientJsonRpcMessage::Request(_), Some((_, placeholder)), Id::Valid(raw)) =
                (&message, substituted, id)
            {
                let mut held = rewritten.lock();
                if held.len() >= MAX_REWRITTEN {
                    tracing::debug!(max = MAX_REWRITTEN, "too many requests with rewritten ids under way; refused");
                    return error(id, -32000, "Too many requests under way with ids this server rewrites");
                }
                held.insert(placeholder, raw.into());
            }
            Line::Message(Box::new(message))
        }
        Err(_) => match id {
            Id::Valid(_) => error(id, -32600, "Invalid Request: not a JSON-RPC message this server knows"),
            Id::Absent | Id::Invalid => {
                tracing::debug!("a JSON line that is no JSON-RPC message was dropped");
                Line::Skip
            }
        },
    }
}

/// The answer's JSON text, with its id as the client sent it if it went to rmcp as a
/// placeholder (its entry then released).
fn answer_text(item: &ServerJsonRpcMessage, rewritten: &Rewritten) -> Result<Vec<u8>, Closed> {
    let bytes = serde_json::to_vec(item).map_err(|_| Closed)?;
    let id = match item {
        ServerJsonRpcMessage::Response(r) => Some(&r.id),
        ServerJsonRpcMessage::Error(e) => e.id.as_ref(),
        ServerJsonRpcMessage::Request(_) | ServerJsonRpcMessage::Notification(_) => None,
    };
    let Some(rmcp::model::NumberOrString::String(id)) = id.filter(|id| ids::is_placeholder(id)) else {
        return Ok(bytes);
    };
    let placeholder = Placeholder(id.to_string());
    let Some(raw) = rewritten.lock().remove(&placeholder) else { return Ok(bytes) };
    Ok(ids::restore(bytes, &placeholder, &raw))
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send,
{
    /// The next line (without its newline); `Err` for one over [`MAX_LINE`], whose bytes are
    /// discarded up to its end; `None` at the end of the input (or a read error).
    ///
    /// Cancel-safe: rmcp drops a pending `receive` whenever another event of its loop wins;
    /// a partly read line stays in `FramedRead`'s buffer for the next call.
    async fn next_line(&mut self) -> Option<Result<tokio_util::bytes::Bytes, TooLong>> {
        let line = std::future::poll_fn(|cx| std::pin::Pin::new(&mut self.lines).poll_next(cx)).await?.ok();
        // A long line grew the buffer: it is given back once the line is out, not kept for the
        // connection's life.
        let buffer = self.lines.read_buffer_mut();
        if buffer.capacity() > KEPT_BUFFER && buffer.len() <= KEPT_BUFFER / 2 {
            let mut smaller = tokio_util::bytes::BytesMut::with_capacity(KEPT_BUFFER / 2);
            smaller.extend_from_slice(buffer);
            *buffer = smaller;
        }
        line
    }
}

/// The most a connection's read buffer keeps between lines (it grows for a longer line, up to
/// [`MAX_LINE`] and a read, while that line is read).
const KEPT_BUFFER: usize = 64 * 1024;

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = Closed;

    fn name() -> Cow<'static, str> {
        "lines".into()
    }

    fn send(&mut self, item: ServerJsonRpcMessage) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let unwritten = Unwritten::new(&self.writer);
        let bytes = answer_text(&item, &self.rewritten);
        async move {
            let written = unwritten.0.write_line(&bytes?).await;
            drop(unwritten);
            written
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            let writer = Arc::clone(&self.writer);
            let closed = writer.on_close.notified();
            if writer.closed.load(Ordering::Acquire) {
                return None;
            }
            let serving = Arc::clone(&self.serving);
            // A client that does not read is not read: what waits for it stays bounded.
            while writer.unwritten.load(Ordering::Acquire) >= MAX_UNWRITTEN {
                let written = writer.written.notified();
                if writer.unwritten.load(Ordering::Acquire) < MAX_UNWRITTEN {
                    break;
                }
                if writer.closed.load(Ordering::Acquire) {
                    return None;
                }
                tokio::select! {
                    () = written => {}
                    () = writer.on_close.notified() => return None,
                    () = serving.input_ended() => return None,
                }
            }
            let read = tokio::select! {
                read = self.next_line() => read,
                () = closed => return None,
                () = serving.input_ended() => return None,
            };
            let line = if let Ok(line) = read? {
                classify(&line, &self.rewritten)
            } else {
                tracing::debug!(max = MAX_LINE, "a line over the length limit was discarded");
                error(Id::Absent, -32600, "Invalid Request: the message is longer than this server reads")
            };
            match line {
                Line::Message(m) => return Some(*m),
                Line::Answer(bytes) => {
                    // Written by a task of its own: rmcp may drop this `receive` at any await,
                    // and a write cut there would leave half a line on the wire.
                    let unwritten = Unwritten::new(&writer);
                    tokio::spawn(async move { unwritten.0.write_line(&bytes).await });
                }
                Line::Skip => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let _ = self.writer.out.lock().await.shutdown().await;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
