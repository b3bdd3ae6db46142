//! [`test_connection`]: Settings' "Test connection". It lists the server's models
//! ([`list_models`]) and sends one small request with one tool definition, asking the model to
//! call that tool, to find out whether the model calls tools natively.
//!
//! The verdict ([`ToolSupport`]), from what the request got back:
//!
//! - **native**: the answer holds a tool call (any call: the model used the API's tool calling);
//! - **refused**: the server refused the request (HTTP 4xx other than a key problem, a 500, or
//!   an error inside the stream) and then answered the same request without the tool: the tool
//!   definition is what it refused, whatever its message says (Ollama names the model, llama.cpp
//!   names `--jinja`, others only say 400);
//! - **ignored**: the model answered in text without calling the tool it was told to call (a
//!   model without tool support in its template sees the instruction but no tool);
//! - **unknown**: anything else (no model chosen, the server unreachable, the answer cut off
//!   before it said anything).
//!
//! Refused and ignored suggest the text protocol when the settings do not use it already. The
//! answer is short: [`TEST_ANSWER_TOKENS`] tokens (more for a reasoning model, which thinks
//! within the limit), beside the thinking budget the settings ask for.

use std::time::{Duration, Instant};

pub use foreman_protocol::{ConnectionTest, ToolSupport};
use serde_json::json;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use super::collect::{Collected, collect};
use super::error::ProviderError;
use super::event::StopReason;
use super::keys::SharedKeySource;
use super::message::Message;
use super::models::{LIST_TIMEOUT, list_models};
use super::preset::{ProviderSettings, build_provider, limits_for};
use super::request::{ProviderRequest, ToolDefinition};

/// The tool the test request asks the model to call.
pub const TEST_TOOL: &str = "report_status";
/// Room for the test answer (a tool call is a few dozen tokens).
pub const TEST_ANSWER_TOKENS: u32 = 256;
/// Room for the test answer of a reasoning model, whose reasoning counts against the limit.
pub const TEST_REASONING_TOKENS: u32 = 4_096;
/// How long the test request may take by default.
pub const TEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The start of an answer shown in the verdict.
const ANSWER_SHOWN: usize = 80;

/// Lists the models of the provider `settings` describe and sends it the test request with the
/// key of `key`, each within its own deadline (`timeout` for the request); never fails: what
/// went wrong is in the result's message.
pub async fn test_connection(
    settings: &ProviderSettings,
    key: SharedKeySource,
    timeout: Duration,
) -> ConnectionTest {
    let label = settings.preset.label();
    let mut result = ConnectionTest {
        connected: false,
        message: String::new(),
        models: Vec::new(),
        models_error: None,
        tool_support: ToolSupport::Unknown,
        suggest_text_protocol: false,
        latency_ms: None,
    };
    if settings.requires_key() && key.api_key().is_none() {
        result.message = format!("No API key for {label}: store one first.");
        return result;
    }
    match list_models(settings, key.as_ref(), LIST_TIMEOUT).await {
        Ok(models) => result.models = models,
        Err(e) => result.models_error = Some(e.to_string()),
    }
    let model = settings.model.trim();
    if model.is_empty() {
        result.connected = result.models_error.is_none();
        result.message = match (&result.models_error, result.models.len()) {
            (Some(error), _) => format!("Cannot list the models: {error}."),
            (None, 0) => format!("{label} answered but lists no models."),
            (None, n) => format!("{label} lists {n} model(s): choose one to test it."),
        };
        return result;
    }
    let mut once = settings.clone();
    once.max_attempts = 1;
    let provider = match build_provider(&once, key, None) {
        Ok(provider) => provider,
        Err(e) => {
            result.message = e.to_string();
            return result;
        }
    };
    let request = test_request(settings);
    let started = Instant::now();
    let first = run(provider.as_ref(), request.clone(), timeout).await;
    let (outcome, refused) = match first {
        Err(error) if refuses_tools(&error) => {
            let retried = ProviderRequest {
                tools: Vec::new(),
                ..request
            };
            let again = Instant::now();
            match run(provider.as_ref(), retried, timeout).await {
                Ok(collected) => {
                    result.latency_ms = Some(millis(again.elapsed()));
                    (Ok(collected), Some(error.to_string()))
                }
                // Not the tool: the request fails either way.
                Err(_) => (Err(error), None),
            }
        }
        other => {
            result.latency_ms = Some(millis(started.elapsed()));
            (other, None)
        }
    };
    let collected = match outcome {
        Ok(collected) => collected,
        Err(error) => {
            result.latency_ms = None;
            result.message = format!("{model} did not answer: {error}.");
            return result;
        }
    };
    result.connected = true;
    result.tool_support = match refused {
        Some(message) => ToolSupport::Refused { message },
        None => verdict(&collected),
    };
    result.suggest_text_protocol = result.tool_support.lacks_tools() && !settings.text_protocol;
    result.message = describe(settings, &result);
    result
}

/// The test request: one tool, and the instruction to call it.
fn test_request(settings: &ProviderSettings) -> ProviderRequest {
    let tool = ToolDefinition {
        name: TEST_TOOL.to_owned(),
        description: "Reports that the connection works.".to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {"status": {"type": "string", "enum": ["ok"]}},
            "required": ["status"],
        }),
    };
    let mut limits = limits_for(settings);
    let room = if limits.reasoning_effort.is_some() {
        TEST_REASONING_TOKENS
    } else {
        TEST_ANSWER_TOKENS
    };
    limits.max_tokens = limits.thinking_budget.unwrap_or(0).saturating_add(room);
    ProviderRequest::new(
        settings.model.trim(),
        format!(
            "This is a connection test. Call the tool `{TEST_TOOL}` with status \"ok\" and \
             write nothing else."
        ),
        vec![Message::user(format!("Call {TEST_TOOL} now."))],
    )
    .with_tools(vec![tool])
    .with_limits(limits)
}

/// Why the test request got no answer.
#[derive(Debug, Error)]
enum TestFailure {
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error("no complete answer within {} seconds", .0.as_secs())]
    Timeout(Duration),
}

/// Sends `request` and collects the answer within `timeout`.
async fn run(
    provider: &dyn super::provider::Provider,
    request: ProviderRequest,
    timeout: Duration,
) -> Result<Collected, TestFailure> {
    let cancel = CancellationToken::new();
    let answer = collect(provider.stream(request, cancel.clone()));
    match tokio::time::timeout(timeout, answer).await {
        Ok((collected, None)) => Ok(collected),
        Ok((_, Some(error))) => Err(error.into()),
        Err(_) => {
            cancel.cancel();
            Err(TestFailure::Timeout(timeout))
        }
    }
}

/// Whether `failure` may be the server refusing the tool definition (then the request is tried
/// without it): a rejected request that is not about the key or the context, a 500, or an
/// error inside the stream.
fn refuses_tools(failure: &TestFailure) -> bool {
    matches!(
        failure,
        TestFailure::Provider(
            ProviderError::InvalidRequest { .. }
                | ProviderError::Api { .. }
                | ProviderError::Unavailable { status: 500, .. }
        )
    )
}

/// The verdict of an answer to the request with the tool.
fn verdict(collected: &Collected) -> ToolSupport {
    if !collected.tool_calls.is_empty() {
        return ToolSupport::Native;
    }
    let answer = collected.text.trim();
    if answer.is_empty() && collected.stop == Some(StopReason::MaxTokens) {
        // Cut off while thinking: nothing to judge by.
        return ToolSupport::Unknown;
    }
    let mut shown: String = answer.chars().take(ANSWER_SHOWN).collect();
    if shown.len() < answer.len() {
        shown.push('…');
    }
    ToolSupport::Ignored { answer: shown }
}

/// The result in one sentence.
fn describe(settings: &ProviderSettings, result: &ConnectionTest) -> String {
    // The latency is a field of its own, shown beside the sentence.
    let model = settings.model.trim();
    let advice = if result.suggest_text_protocol {
        " Use the text protocol for it."
    } else {
        ""
    };
    let verdict = match &result.tool_support {
        ToolSupport::Native => format!("{model} answered and calls tools natively."),
        ToolSupport::Ignored { .. } => format!(
            "{model} answered but did not call the tool it was asked to call: it seems to have \
             no native tool calling.{advice}"
        ),
        ToolSupport::Refused { .. } => format!(
            "The server refused a request with a tool and answered one without: {model} has no \
             native tool calling there.{advice}"
        ),
        ToolSupport::Unknown => format!(
            "{model} answered, but its answer ran out of room before it showed whether it calls \
             tools."
        ),
    };
    format!("Connected to {}. {verdict}", settings.preset.label())
}

fn millis(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::collect::CollectedCall;

    #[test]
    fn a_call_is_native_text_is_ignored_and_a_cut_off_silence_is_unknown() {
        let mut called = Collected::default();
        called.tool_calls.push(CollectedCall {
            id: "c".into(),
            name: TEST_TOOL.into(),
            raw_arguments: "{}".into(),
            arguments: None,
        });
        assert_eq!(verdict(&called), ToolSupport::Native);
        let mut talked = Collected::default();
        talked.text = format!("  {}  ", "word ".repeat(40));
        talked.stop = Some(StopReason::EndTurn);
        let ToolSupport::Ignored { answer } = verdict(&talked) else {
            panic!("{:?}", verdict(&talked));
        };
        assert_eq!(answer.chars().count(), ANSWER_SHOWN + 1);
        assert!(answer.ends_with('…'));
        let mut silent = Collected::default();
        silent.stop = Some(StopReason::MaxTokens);
        assert_eq!(verdict(&silent), ToolSupport::Unknown);
    }

    #[test]
    fn the_test_request_carries_its_tool_and_a_small_limit() {
        use crate::providers::ProviderPreset;
        let settings = ProviderSettings {
            thinking_budget: Some(2_048),
            ..ProviderSettings::for_preset(ProviderPreset::Anthropic)
        };
        let request = test_request(&settings);
        assert_eq!(request.tools.len(), 1);
        assert_eq!(request.tools[0].name, TEST_TOOL);
        assert_eq!(request.limits.max_tokens, 2_048 + TEST_ANSWER_TOKENS);
        assert_eq!(request.limits.problem(), None);
        let reasoning = ProviderSettings {
            reasoning_effort: Some(crate::providers::ReasoningEffort::Low),
            ..ProviderSettings::for_preset(ProviderPreset::OpenAi)
        };
        assert_eq!(
            test_request(&reasoning).limits.max_tokens,
            TEST_REASONING_TOKENS
        );
    }
}
