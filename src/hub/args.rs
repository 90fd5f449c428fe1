//! Turning an agent's JSON arguments into the app's typed arguments.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::protocol::{FieldError, ToolError};

/// Parses arguments; a failure names the parameter (§7.3) and never echoes the value.
pub(crate) fn parse_args<A: DeserializeOwned>(args: &Value) -> Result<A, ToolError> {
    serde_path_to_error::deserialize::<_, A>(args).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let field = if path == "." || path.is_empty() {
            // "missing field `x`" / "unknown field `x`, expected …"
            inner.split('`').nth(1).unwrap_or("arguments").to_owned()
        } else {
            path.split(['.', '[']).next().unwrap_or(&path).to_owned()
        };
        // serde's messages quote the offending value for some errors; keep only the kind.
        let reason = inner.split(" at line").next().unwrap_or(&inner);
        // Kinds that quote the client's own string ("unknown variant `…`", "unknown field `…`",
        // "invalid value: string \"…\"") keep only what is expected.
        let quotes_input = ["invalid value", "invalid type", "unknown variant", "unknown field", "invalid length"];
        let reason = if quotes_input.iter().any(|k| reason.starts_with(k)) {
            let expected = reason.split(", expected").nth(1).map(|exp| format!("expected{exp}"));
            match (reason.starts_with("unknown field"), expected) {
                (true, Some(exp)) => format!("is not a parameter; {exp}"),
                (true, None) => "is not a parameter".to_owned(),
                (false, Some(exp)) => exp,
                (false, None) => "has the wrong type".to_owned(),
            }
        } else if reason.contains('`') || reason.contains('"') {
            "is not valid here".to_owned()
        } else {
            reason.to_owned()
        };
        ToolError::validation(format!("Invalid argument {field}: {reason}"), vec![FieldError::new(field, reason)])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "only parsing is tested")]
    struct Add {
        product: String,
        quantity: u32,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Small,
        Large,
    }

    #[derive(Debug, serde::Deserialize)]
    #[expect(dead_code, reason = "only parsing is tested")]
    struct Pick {
        kind: Kind,
    }

    #[test]
    fn bad_arguments_name_the_parameter() {
        let e = parse_args::<Add>(&json!({"product": "x", "quantity": "secret-ish"})).unwrap_err();
        assert_eq!(e.fields.as_ref().unwrap()[0].field, "quantity");
        assert!(!e.message.contains("secret-ish"), "the value is not echoed: {}", e.message);
        let e = parse_args::<Add>(&json!({"quantity": 1})).unwrap_err();
        assert_eq!(e.fields.unwrap()[0].field, "product");
        let e = parse_args::<Add>(&json!({"product": "x", "quantity": 1, "bogus": 1})).unwrap_err();
        assert_eq!(e.fields.unwrap()[0].field, "bogus");
        let e = parse_args::<Pick>(&json!({"kind": "hunter2-secretish"})).unwrap_err();
        assert_eq!(e.fields.as_ref().unwrap()[0].field, "kind");
        assert!(!format!("{e:?}").contains("hunter2"), "an unknown variant is not echoed: {e:?}");
        assert_eq!(e.fields.unwrap()[0].error, "expected `small` or `large`", "it says what is expected");
        assert!(parse_args::<crate::hub::NoArgs>(&json!({})).is_ok());
    }
}
