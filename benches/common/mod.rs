//! Shared by the benches: a bare HTTP/1.1 MCP client on one TCP connection.
#![allow(dead_code, reason = "each bench uses a part")]

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};

/// `initialize` as a bench client.
pub const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;

/// Posts `body` on `stream` (with the session, if any) and reads the whole answer.
pub fn request(
    stream: &mut TcpStream,
    addr: SocketAddr,
    session: Option<&str>,
    body: &str,
    keep_alive: bool,
) -> String {
    let session = session.map(|s| format!("Mcp-Session-Id: {s}\r\n")).unwrap_or_default();
    let connection = if keep_alive { "keep-alive" } else { "close" };
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: {connection}\r\n{session}\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // The head, then a body of its Content-Length, or chunks until the last one. The head is
    // parsed once, so that reading a large body stays linear in its size.
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let mut framing: Option<(usize, Option<usize>)> = None; // (body start, Content-Length)
    loop {
        if framing.is_none()
            && let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n")
        {
            let head = String::from_utf8_lossy(&raw[..end]);
            let length = head.lines().find_map(|l| {
                l.split_once(':')
                    .filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
                    .and_then(|(_, v)| v.trim().parse::<usize>().ok())
            });
            framing = Some((end + 4, length));
        }
        match framing {
            Some((start, Some(n))) if raw.len() - start >= n => break,
            Some((_, None)) if raw.ends_with(b"0\r\n\r\n") => break,
            _ => {}
        }
        let n = stream.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&raw).into_owned()
}

/// Opens a session on a keep-alive connection: the stream and the session id.
pub fn session(addr: SocketAddr) -> (TcpStream, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let init = request(&mut stream, addr, None, INIT, true);
    let session = init
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap();
    request(&mut stream, addr, Some(&session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, true);
    (stream, session)
}

/// The `Mcp-Session-Id` of a response, if it has one.
pub fn session_of(response: &str) -> Option<String> {
    response.lines().find_map(|l| {
        l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id")).map(|(_, v)| v.trim().to_owned())
    })
}

/// Sends `notifications/initialized` in `session`.
pub fn initialized(stream: &mut TcpStream, addr: SocketAddr, session: &str) {
    request(stream, addr, Some(session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, false);
}

/// Ends `session` with a `DELETE`.
pub fn delete(stream: &mut TcpStream, addr: SocketAddr, session: &str) {
    let head =
        format!("DELETE /mcp HTTP/1.1\r\nHost: {addr}\r\nMcp-Session-Id: {session}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
}
