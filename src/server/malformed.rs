//! Answers to messages that cannot be parsed, for both transports: under the request's own id
//! where it can be read, so that its caller is not left waiting, and without repeating any of
//! the message.

use super::ids::Id;

/// The id, JSON-RPC code and message that answer `raw`, which failed to parse with `error`.
///
/// Valid JSON nested deeper than `serde_json` reads (128 levels) is an invalid request whose id
/// sits at the top level, and so is valid JSON that holds a number or string `serde_json`
/// cannot hold (`1e400`, a lone surrogate escaped); anything else that is not JSON is a parse
/// error, with no id. The id is its JSON text as sent (`ids.rs`).
pub(super) fn answer<'a>(raw: &'a [u8], error: &serde_json::Error) -> (Id<'a>, i64, &'static str) {
    if error.to_string().starts_with("recursion limit exceeded") {
        return (valid(raw), -32600, "Invalid Request: nested more than 128 levels deep");
    }
    if error.is_syntax() || error.is_eof() || error.is_io() {
        // Read as JSON without holding its numbers and strings: valid, it holds one of those.
        if serde_json::from_slice::<serde::de::IgnoredAny>(raw).is_ok() {
            return (valid(raw), -32600, "Invalid Request: a number or string this server cannot hold");
        }
        return (Id::Absent, -32700, "Parse error: the message is not JSON");
    }
    // Valid JSON that is not a message this server reads (a wrong field type, say).
    (valid(raw), -32600, "Invalid Request: not a JSON-RPC message this server reads")
}

/// The top-level id, if it is a string or number.
fn valid(raw: &[u8]) -> Id<'_> {
    match Id::of(raw) {
        Id::Valid(id) => Id::Valid(id),
        Id::Absent | Id::Invalid => Id::Absent,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn each_failure_gets_its_code() {
        let deep = format!(r#"{{"id":5,"params":{}1{}}}"#, "[".repeat(200), "]".repeat(200));
        let e = serde_json::from_str::<Value>(&deep).unwrap_err();
        assert_eq!(
            answer(deep.as_bytes(), &e),
            (Id::Valid(b"5"), -32600, "Invalid Request: nested more than 128 levels deep")
        );
        let e = serde_json::from_str::<Value>("{nope").unwrap_err();
        assert_eq!(answer(b"{nope", &e).1, -32700);
        let typed = br#"{"jsonrpc":"2.0","id":"q","method":7}"#;
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code, reason = "only its parse error is used")]
        struct Request {
            method: String,
        }
        let e = serde_json::from_slice::<Request>(typed).unwrap_err();
        assert_eq!(answer(typed, &e).0, Id::Valid(br#""q""#));
    }

    /// `1e400` and a lone surrogate are JSON (RFC 8259's grammar) that `serde_json` cannot hold:
    /// an invalid request under its id, not a parse error.
    #[test]
    fn json_that_cannot_be_held_is_an_invalid_request() {
        for line in [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"n":1e400}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"s":"\udc00"}}"#,
        ] {
            let e = serde_json::from_str::<Value>(line).unwrap_err();
            assert_eq!(answer(line.as_bytes(), &e).0, Id::Valid(b"3"), "{line}");
            assert_eq!(answer(line.as_bytes(), &e).1, -32600, "{line}");
        }
    }
}
