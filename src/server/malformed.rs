//! Answers to messages that cannot be parsed, for both transports: under the request's own id
//! where it can be read, so that its caller is not left waiting, and without repeating any of
//! the message.

use serde_json::Value;

/// The id, JSON-RPC code and message that answer `raw`, which failed to parse with `error`.
///
/// Valid JSON nested deeper than `serde_json` reads (128 levels) is an invalid request whose id
/// sits at the top level; anything else that is not JSON is a parse error, with no id.
pub(super) fn answer(raw: &[u8], error: &serde_json::Error) -> (Value, i64, &'static str) {
    if error.to_string().starts_with("recursion limit exceeded") {
        let id = top_level_id(raw).unwrap_or(Value::Null);
        return (id, -32600, "Invalid Request: nested more than 128 levels deep");
    }
    if error.is_syntax() || error.is_eof() || error.is_io() {
        return (Value::Null, -32700, "Parse error: the message is not JSON");
    }
    // Valid JSON that is not a message this server reads (a wrong field type, say).
    let id = serde_json::from_slice::<Value>(raw)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .filter(|id| id.is_number() || id.is_string())
        .unwrap_or(Value::Null);
    (id, -32600, "Invalid Request: not a JSON-RPC message this server reads")
}

/// The `id` of a JSON object's top level, read without parsing what is nested (a number, or a
/// string of at most 256 bytes): for a line too deep to parse whole.
fn top_level_id(line: &[u8]) -> Option<Value> {
    let (mut depth, mut in_string, mut escaped, mut key_start) = (0usize, false, false, None);
    for (i, &b) in line.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => {
                    in_string = false;
                    if depth == 1 && key_start.is_some_and(|k| &line[k..i] == b"id") {
                        let after = &line[i + 1..];
                        let colon = after.iter().position(|c| !c.is_ascii_whitespace())?;
                        if after[colon] == b':' {
                            let value = &after[colon + 1..];
                            let end = value.iter().position(|c| matches!(c, b',' | b'}')).unwrap_or(value.len());
                            let raw = value.get(..end.min(258))?;
                            return serde_json::from_slice::<Value>(raw)
                                .ok()
                                .filter(|v| v.is_number() || v.is_string());
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                key_start = Some(i + 1);
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_id_is_read_from_the_top_level_only() {
        assert_eq!(top_level_id(br#"{"method":"id","id":12,"x":[{"id":3}]}"#), Some(json!(12)));
        assert_eq!(top_level_id(br#"{"x":{"id":3}}"#), None, "only the top level's");
        assert_eq!(top_level_id(br#"{"id":"a\"b","x":1}"#), Some(json!("a\"b")));
    }

    #[test]
    fn each_failure_gets_its_code() {
        let deep = format!(r#"{{"id":5,"params":{}1{}}}"#, "[".repeat(200), "]".repeat(200));
        let e = serde_json::from_str::<Value>(&deep).unwrap_err();
        assert_eq!(
            answer(deep.as_bytes(), &e),
            (json!(5), -32600, "Invalid Request: nested more than 128 levels deep")
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
        assert_eq!(answer(typed, &e).0, json!("q"));
    }
}
