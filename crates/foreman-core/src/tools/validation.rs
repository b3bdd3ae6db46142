//! Checking tool arguments: JSON Schema validation, the repair pass, then the tool's own checks.

use jsonschema::Validator;
use serde_json::Value;

use super::error::ParamProblem;
use super::repair::{Repair, repair};

/// Longest message kept per problem (schema errors quote the offending value).
const MAX_MESSAGE_CHARS: usize = 300;

/// A compiled parameter schema.
pub struct ParamValidator {
    schema: Value,
    validator: Validator,
}

impl std::fmt::Debug for ParamValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParamValidator")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

/// Arguments that passed validation, possibly after repairs.
#[derive(Debug, Clone, PartialEq)]
pub struct Validated {
    pub params: Value,
    pub repairs: Vec<Repair>,
}

impl ParamValidator {
    /// Compiles `schema`; a broken schema is a problem of the tool, reported at the root.
    pub fn new(schema: Value) -> Result<Self, ParamProblem> {
        let validator = jsonschema::validator_for(&schema).map_err(|e| {
            ParamProblem::new("", format!("the tool's parameter schema is invalid: {e}"))
        })?;
        Ok(Self { schema, validator })
    }

    /// The problems of `params`, one per failing location.
    pub fn problems(&self, params: &Value) -> Vec<ParamProblem> {
        self.validator
            .iter_errors(params)
            .map(|error| {
                ParamProblem::new(
                    error.instance_path().to_string(),
                    shorten(&error.to_string()),
                )
            })
            .collect()
    }

    /// Validates `params`; when invalid, repairs them and validates again. Returns the params to
    /// use and the repairs made, or the problems that remain after repair.
    pub fn check(&self, mut params: Value) -> Result<Validated, Vec<ParamProblem>> {
        if self.validator.is_valid(&params) {
            return Ok(Validated {
                params,
                repairs: Vec::new(),
            });
        }
        let repairs = repair(&self.schema, &mut params);
        let problems = self.problems(&params);
        if problems.is_empty() {
            Ok(Validated { params, repairs })
        } else {
            Err(problems)
        }
    }
}

fn shorten(message: &str) -> String {
    if message.chars().count() <= MAX_MESSAGE_CHARS {
        return message.to_owned();
    }
    let cut: String = message.chars().take(MAX_MESSAGE_CHARS).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::repair::RepairKind;
    use serde_json::json;

    fn validator() -> ParamValidator {
        ParamValidator::new(json!({
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "recursive": {"type": "boolean"},
                "limit": {"type": "integer", "minimum": 1}
            },
            "required": ["path"]
        }))
        .unwrap()
    }

    #[test]
    fn valid_params_pass_unchanged() {
        let ok = validator().check(json!({"path": "a", "limit": 2})).unwrap();
        assert!(ok.repairs.is_empty());
        assert_eq!(ok.params, json!({"path": "a", "limit": 2}));
    }

    #[test]
    fn repairable_params_pass_with_the_repairs_recorded() {
        let ok = validator()
            .check(json!({"path": "a", "recursive": "false"}))
            .unwrap();
        assert_eq!(ok.params["recursive"], json!(false));
        assert_eq!(ok.repairs[0].kind, RepairKind::BoolFromString);
        assert_eq!(ok.repairs[0].path, "/recursive");
    }

    #[test]
    fn remaining_problems_name_their_paths() {
        let problems = validator()
            .check(json!({"recursive": "maybe", "limit": 0}))
            .unwrap_err();
        let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
        assert!(
            paths.contains(&""),
            "missing `path` is reported at the root"
        );
        assert!(paths.contains(&"/recursive"));
        assert!(paths.contains(&"/limit"));
        assert!(problems.iter().any(|p| p.message.contains("path")));
    }

    #[test]
    fn long_values_are_not_quoted_in_full() {
        let huge = "x".repeat(10_000);
        let problems = validator()
            .check(json!({"path": 1, "limit": huge}))
            .unwrap_err();
        assert!(
            problems
                .iter()
                .all(|p| p.message.chars().count() <= MAX_MESSAGE_CHARS + 1)
        );
    }

    #[test]
    fn broken_schemas_are_reported() {
        assert!(ParamValidator::new(json!({"type": 12})).is_err());
    }
}
