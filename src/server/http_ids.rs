//! Ids answered as sent over HTTP (`ids.rs`): a POST whose id rmcp would rewrite goes on with a
//! placeholder, and its response (a JSON body, or the SSE event that answers it) gets the id's
//! text as sent back. One POST carries one request, so the pair lives with its response alone.

use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::Response;

use super::http_layers::read_body;
use super::ids::{self, Id, Placeholder};

/// The layer: outside `malformed_answered_in_band`, whose answers then carry the id as sent too.
pub(super) async fn ids_as_sent(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(body).await {
        Ok(bytes) => bytes,
        Err(too_large) => return too_large,
    };
    let Some((text, placeholder)) = ids::substitute(&bytes) else {
        return next.run(Request::from_parts(parts, Body::from(bytes))).await;
    };
    let raw: Box<[u8]> = Id::of(&bytes).text().into();
    let mut response = next.run(Request::from_parts(parts, Body::from(text))).await;
    let sse = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    // The id's text may be longer or shorter than the placeholder's.
    response.headers_mut().remove(header::CONTENT_LENGTH);
    response.map(|body| {
        Body::from_stream(Restored {
            inner: body.into_data_stream(),
            pending: Vec::new(),
            id: Some((placeholder, raw)),
            sse,
        })
    })
}

/// A response body with the placeholder's id put back: held whole for JSON, an event at a time
/// for SSE (both our own output); passed through once the answer has gone by.
struct Restored {
    inner: axum::body::BodyDataStream,
    pending: Vec<u8>,
    /// Until the answer has been seen.
    id: Option<(Placeholder, Box<[u8]>)>,
    sse: bool,
}

impl Restored {
    /// The complete SSE events in `pending`, each `data:` line's answer with its id put back.
    fn events(&mut self, all: bool) -> Vec<u8> {
        let end = if all {
            self.pending.len()
        } else {
            match self.pending.windows(2).rposition(|w| w == b"\n\n") {
                Some(i) => i + 2,
                None => return Vec::new(),
            }
        };
        let events: Vec<u8> = self.pending.drain(..end).collect();
        let Some((placeholder, raw)) = &self.id else { return events };
        let mut out = Vec::with_capacity(events.len() + raw.len());
        let mut restored = false;
        for line in events.split_inclusive(|b| *b == b'\n') {
            match line.strip_prefix(b"data:") {
                Some(data) if !restored => {
                    let (data, newline) = data.strip_suffix(b"\n").map_or((data, &b""[..]), |d| (d, b"\n"));
                    let space = data.starts_with(b" ");
                    let json = if space { &data[1..] } else { data };
                    let back = ids::restore(json.to_vec(), placeholder, raw);
                    restored = back != json;
                    out.extend_from_slice(if space { b"data: " } else { b"data:" });
                    out.extend_from_slice(&back);
                    out.extend_from_slice(newline);
                }
                _ => out.extend_from_slice(line),
            }
        }
        if restored {
            self.id = None;
        }
        out
    }
}

impl futures_core::Stream for Restored {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if this.id.is_none() {
                if !this.pending.is_empty() {
                    return Poll::Ready(Some(Ok(std::mem::take(&mut this.pending).into())));
                }
                return Pin::new(&mut this.inner).poll_next(cx);
            }
            match ready!(Pin::new(&mut this.inner).poll_next(cx)) {
                Some(Ok(chunk)) => {
                    this.pending.extend_from_slice(&chunk);
                    if this.sse {
                        let out = this.events(false);
                        if !out.is_empty() {
                            return Poll::Ready(Some(Ok(out.into())));
                        }
                    }
                }
                Some(Err(e)) => return Poll::Ready(Some(Err(e))),
                None => {
                    let out = match (this.sse, this.id.take()) {
                        (false, Some((placeholder, raw))) => {
                            ids::restore(std::mem::take(&mut this.pending), &placeholder, &raw)
                        }
                        (true, id) => {
                            this.id = id;
                            this.events(true)
                        }
                        (false, None) => std::mem::take(&mut this.pending),
                    };
                    this.id = None;
                    return Poll::Ready((!out.is_empty()).then(|| Ok(out.into())));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answering_event_gets_the_id_back_and_others_pass() {
        let placeholder = Placeholder("egui_mcp_bridge.id.5".to_owned());
        let mut r = Restored {
            inner: Body::empty().into_data_stream(),
            pending: b"id: 0\ndata:\n\n: ping\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"egui_mcp_bridge.id.5\",\"result\":{}}\nid: 1\n\ndata: {\"x\"".to_vec(),
            id: Some((placeholder, b"1e400".as_slice().into())),
            sse: true,
        };
        let out = r.events(false);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "id: 0\ndata:\n\n: ping\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1e400,\"result\":{}}\nid: 1\n\n"
        );
        assert!(r.id.is_none(), "restored once");
        assert_eq!(r.pending, b"data: {\"x\"", "an event cut short waits for its end");
    }
}
