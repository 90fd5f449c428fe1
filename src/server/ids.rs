//! Request ids answered exactly as the client wrote them, on both transports (JSON-RPC 2.0: the
//! response's id is the request's).
//!
//! rmcp holds an id as an `i64` or a string: `1.5`, `18446744073709551617` or `1e400` cannot be
//! held, and `1.0` or `"\u0041"` would come back rewritten (`1`, `"A"`); a lone surrogate
//! (`"\ud800"`) is valid JSON that no Rust string holds. Such an id is replaced at the
//! transport's boundary by a placeholder of ours (a string no client id can equal: client ids
//! in its form get one too), and its text, as sent, is put back in the answer.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::model::NumberOrString;

/// The placeholders' form; unique within the process.
const PREFIX: &str = "egui_mcp_bridge.id.";

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A request's top-level `id`, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Id<'a> {
    /// No `id` member (a notification), or text that is no JSON object.
    Absent,
    /// A string or a number: its JSON text.
    Valid(&'a [u8]),
    /// `true`, `null`, an object, an array: answered `-32600` with id `null`.
    Invalid,
}

impl<'a> Id<'a> {
    /// The top-level `id` of a JSON object's text, read without parsing anything else (a line
    /// may be too deep to parse whole).
    pub fn of(text: &'a [u8]) -> Self {
        match span(text) {
            None => Self::Absent,
            Some(r) => {
                let raw = &text[r];
                // Echoed byte for byte, so it must be a JSON string or number as written: a
                // fuzzed line's bytes never reach our output unless they are.
                if is_json_number(raw) || is_json_string(raw) { Self::Valid(raw) } else { Self::Invalid }
            }
        }
    }

    /// The id's JSON text for an answer: `null` unless it is valid.
    pub fn text(self) -> &'a [u8] {
        match self {
            Self::Valid(raw) => raw,
            Self::Absent | Self::Invalid => b"null",
        }
    }
}

/// A placeholder standing for an id that rmcp would not give back as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Placeholder(pub String);

impl Placeholder {
    /// The placeholder's JSON text (a plain string: no escapes).
    fn json(&self) -> String {
        format!("\"{}\"", self.0)
    }
}

/// `line` with its top-level id replaced by a fresh placeholder, when rmcp would not answer
/// that id as written; `None` when it would (or the line has no valid id).
pub(super) fn substitute(line: &[u8]) -> Option<(Vec<u8>, Placeholder)> {
    let r = span(line)?;
    let raw = &line[r.clone()];
    if !matches!(Id::of(line), Id::Valid(_)) || kept_as_sent(raw) {
        return None;
    }
    let placeholder = Placeholder(format!("{PREFIX}{}", NEXT.fetch_add(1, Ordering::Relaxed)));
    let json = placeholder.json();
    let mut out = Vec::with_capacity(line.len() - raw.len() + json.len());
    out.extend_from_slice(&line[..r.start]);
    out.extend_from_slice(json.as_bytes());
    out.extend_from_slice(&line[r.end..]);
    Some((out, placeholder))
}

/// `message` (an answer's JSON text) with `raw` in place of its top-level id, if that id is
/// `placeholder`; else unchanged.
pub(super) fn restore(message: Vec<u8>, placeholder: &Placeholder, raw: &[u8]) -> Vec<u8> {
    let Some(r) = span(&message) else { return message };
    if message[r.clone()] != *placeholder.json().as_bytes() {
        return message;
    }
    let mut out = Vec::with_capacity(message.len() - r.len() + raw.len());
    out.extend_from_slice(&message[..r.start]);
    out.extend_from_slice(raw);
    out.extend_from_slice(&message[r.end..]);
    out
}

/// Whether `id` is one of our placeholders.
pub(super) fn is_placeholder(id: &NumberOrString) -> bool {
    matches!(id, NumberOrString::String(s) if s.starts_with(PREFIX))
}

/// Whether rmcp gives this id back byte for byte (and it cannot be taken for a placeholder).
fn kept_as_sent(raw: &[u8]) -> bool {
    serde_json::from_slice::<NumberOrString>(raw)
        .ok()
        .filter(|id| !is_placeholder(id))
        .and_then(|id| serde_json::to_vec(&id).ok())
        .is_some_and(|again| again == raw)
}

/// An error answer under the id's JSON text (`null` unless valid), without parsing it.
pub(super) fn error_answer(id: Id<'_>, code: i64, message: &str) -> Vec<u8> {
    answer_error(id, &serde_json::json!({"code": code, "message": message}))
}

/// [`error_answer`] with the error's `data`.
pub(super) fn error_answer_with_data(id: Id<'_>, code: i64, message: &str, data: &serde_json::Value) -> Vec<u8> {
    answer_error(id, &serde_json::json!({"code": code, "message": message, "data": data}))
}

fn answer_error(id: Id<'_>, error: &serde_json::Value) -> Vec<u8> {
    let mut out = br#"{"jsonrpc":"2.0","id":"#.to_vec();
    out.extend_from_slice(id.text());
    out.extend_from_slice(br#","error":"#);
    out.extend_from_slice(error.to_string().as_bytes());
    out.push(b'}');
    out
}

/// The byte range of the top-level member `id`'s value in a JSON object's text (the first, if
/// there are several), read without parsing anything else and without recursion.
fn span(text: &[u8]) -> Option<Range<usize>> {
    let mut i = skip_ws(text, 0);
    if text.get(i) != Some(&b'{') {
        return None;
    }
    loop {
        i = skip_ws(text, i + 1);
        let key_end = string_end(text, i)?;
        let key = &text[i + 1..key_end - 1];
        i = skip_ws(text, key_end);
        if text.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(text, i + 1);
        let end = value_end(text, start)?;
        if key == b"id" {
            return Some(start..end);
        }
        i = skip_ws(text, end);
        if text.get(i) != Some(&b',') {
            return None;
        }
    }
}

/// Whether `raw` is a JSON number as the grammar writes one (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`).
fn is_json_number(raw: &[u8]) -> bool {
    let digits = |i: usize| raw[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = usize::from(raw.first() == Some(&b'-'));
    match (raw.get(i), digits(i)) {
        (Some(b'0'), 1) => i += 1,
        (Some(b'1'..=b'9'), n) => i += n,
        _ => return false,
    }
    if raw.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    if matches!(raw.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(raw.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == raw.len()
}

/// Whether `raw` is a JSON string as written: valid UTF-8, quoted, no raw control character,
/// only JSON's escapes (a `\u` escape of any four hex digits, a lone surrogate included).
fn is_json_string(raw: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(raw) else { return false };
    let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else { return false };
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\u{0}'..='\u{1f}' => return false,
            '\\' => match chars.next() {
                Some('"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') => {}
                Some('u') => {
                    if !(0..4).all(|_| chars.next().is_some_and(|h| h.is_ascii_hexdigit())) {
                        return false;
                    }
                }
                _ => return false,
            },
            _ => {}
        }
    }
    true
}

fn skip_ws(text: &[u8], mut i: usize) -> usize {
    while text.get(i).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Just past the string that starts at `start`.
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    if text.get(start) != Some(&b'"') {
        return None;
    }
    let mut i = start + 1;
    loop {
        match text.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// Just past the value that starts at `start`: a string, an object or array (counted, not
/// recursed into), or a scalar.
fn value_end(text: &[u8], start: usize) -> Option<usize> {
    match text.get(start)? {
        b'"' => string_end(text, start),
        b'{' | b'[' => {
            let (mut depth, mut i) = (0usize, start);
            loop {
                match text.get(i)? {
                    b'"' => {
                        i = string_end(text, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let len = text[start..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(text.len() - start);
            (len > 0).then_some(start + len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fuzzed line's id is echoed only when it is a JSON string or number as written: its
    /// bytes reach stdout otherwise (found by the demo's frame fuzz: invalid UTF-8 on stdout).
    #[test]
    fn only_a_json_string_or_number_is_echoed() {
        let id = |raw: &[u8]| {
            let mut line = br#"{"jsonrpc":"2.0","id":"#.to_vec();
            line.extend_from_slice(raw);
            line.extend_from_slice(br#","method":"ping"}"#);
            Id::of(&line) == Id::Valid(raw)
        };
        for valid in [&b"0"[..], b"-0.5", b"1e400", b"12E-3", br#""\ud800""#, br#""a\"b""#, "\"é\"".as_bytes()] {
            assert!(id(valid), "{:?}", String::from_utf8_lossy(valid));
        }
        for invalid in [&b"01"[..], b"12abc", b"-", b"1.", b"1e", b"\"\xff\"", b"\"a\x01\"", br#""\x""#, br#""\u12""#] {
            assert!(!id(invalid), "{:?}", String::from_utf8_lossy(invalid));
            let mut line = br#"{"jsonrpc":"2.0","id":"#.to_vec();
            line.extend_from_slice(invalid);
            line.push(b'}');
            let answer = error_answer(Id::of(&line), -32600, "x");
            assert!(serde_json::from_slice::<serde_json::Value>(&answer).is_ok(), "{answer:?}");
        }
    }

    #[test]
    fn the_id_is_read_from_the_top_level_only() {
        assert_eq!(Id::of(br#"{"method":"id","id":12,"x":[{"id":3}]}"#), Id::Valid(b"12"));
        assert_eq!(Id::of(br#"{"x":{"id":3},"y":"}"}"#), Id::Absent, "only the top level's");
        assert_eq!(Id::of(br#" { "x" : [1,{"a":"\"]"}] , "id" : "a\"b" } "#), Id::Valid(br#""a\"b""#));
        assert_eq!(Id::of(br#"{"id":-1.5e400}"#), Id::Valid(b"-1.5e400"));
        for invalid in ["true", "null", "{}", "[1]", "false"] {
            assert_eq!(Id::of(format!(r#"{{"id":{invalid},"method":"ping"}}"#).as_bytes()), Id::Invalid, "{invalid}");
        }
        assert_eq!(Id::of(b"[1]"), Id::Absent);
        assert_eq!(Id::of(br#"{"id":"unterminated"#), Id::Absent);
    }

    #[test]
    fn only_ids_rmcp_would_alter_get_a_placeholder() {
        for kept in ["7", "-9223372036854775808", r#""call-3""#, r#""é""#] {
            assert!(substitute(format!(r#"{{"id":{kept}}}"#).as_bytes()).is_none(), "{kept}");
        }
        for altered in ["1.0", "1e400", "18446744073709551617", "-0", r#""\ud800""#, r#""\u0041""#, r#""a\/b""#] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{altered},"method":"ping"}}"#);
            let (text, placeholder) = substitute(line.as_bytes()).unwrap_or_else(|| panic!("{altered}"));
            let parsed: serde_json::Value = serde_json::from_slice(&text).unwrap();
            assert_eq!(parsed["id"], placeholder.0.as_str());
            let answer = format!(r#"{{"jsonrpc":"2.0","id":"{}","result":{{}}}}"#, placeholder.0);
            let back = restore(answer.into_bytes(), &placeholder, altered.as_bytes());
            assert_eq!(back, format!(r#"{{"jsonrpc":"2.0","id":{altered},"result":{{}}}}"#).into_bytes());
        }
        // A client's id in the placeholders' form is replaced too, so none can be confused.
        assert!(substitute(br#"{"id":"egui_mcp_bridge.id.0"}"#).is_some());
    }

    #[test]
    fn an_answer_for_another_id_is_left_alone() {
        let placeholder = Placeholder(format!("{PREFIX}9"));
        let other = format!(r#"{{"jsonrpc":"2.0","id":3,"result":{{"x":"{PREFIX}9"}}}}"#);
        assert_eq!(restore(other.clone().into_bytes(), &placeholder, b"1.5"), other.into_bytes());
    }

    #[test]
    fn an_error_answer_carries_the_id_as_written() {
        let answer = error_answer(Id::Valid(b"1e400"), -32600, "Invalid Request");
        assert_eq!(answer, br#"{"jsonrpc":"2.0","id":1e400,"error":{"code":-32600,"message":"Invalid Request"}}"#);
        assert!(error_answer(Id::Invalid, -32600, "x").starts_with(br#"{"jsonrpc":"2.0","id":null,"#));
    }
}
