//! The recorded fixture streams decode to the results their README states, however the bytes
//! are cut: at every single split point, and at random sets of split points (proptest).

use foreman_core::providers::recording::recording_body;
use foreman_core::providers::{
    ProviderEvent, StopReason, ToolArguments, Usage, WireFormat, decode_chunks,
};
use proptest::prelude::*;
use serde_json::json;

use super::common::serve;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    recording_body(&std::fs::read(path).unwrap()).to_vec()
}

fn decode_cut(format: WireFormat, body: &[u8], cuts: &[usize]) -> Vec<ProviderEvent> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (body.len() + 1)).collect();
    cuts.sort_unstable();
    let mut chunks = Vec::new();
    let mut start = 0;
    for cut in cuts.into_iter().chain(std::iter::once(body.len())) {
        chunks.push(&body[start..cut]);
        start = cut;
    }
    let (events, error) = decode_chunks(format, chunks);
    assert_eq!(error, None);
    events
}

fn ends(events: &[ProviderEvent]) -> Vec<(String, ToolArguments)> {
    events
        .iter()
        .filter_map(|e| match e {
            ProviderEvent::ToolCallEnd { id, arguments } => Some((id.clone(), arguments.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn anthropic_fixture_yields_get_weather_paris() {
    let events = decode_cut(
        WireFormat::Anthropic,
        &fixture("anthropic-tool-use.sse"),
        &[],
    );
    assert_eq!(
        events,
        vec![
            ProviderEvent::TextDelta("I".into()),
            ProviderEvent::TextDelta("'ll check the current weather in Paris for you.".into()),
            ProviderEvent::ToolCallStart {
                id: "toolu_01NRLabsLyVHZPKxbKvkfSMn".into(),
                name: "get_weather".into()
            },
            ProviderEvent::ToolCallArgsDelta {
                id: "toolu_01NRLabsLyVHZPKxbKvkfSMn".into(),
                fragment: "{\"locati".into()
            },
            ProviderEvent::ToolCallArgsDelta {
                id: "toolu_01NRLabsLyVHZPKxbKvkfSMn".into(),
                fragment: "on\": \"P".into()
            },
            ProviderEvent::ToolCallArgsDelta {
                id: "toolu_01NRLabsLyVHZPKxbKvkfSMn".into(),
                fragment: "ar".into()
            },
            ProviderEvent::ToolCallArgsDelta {
                id: "toolu_01NRLabsLyVHZPKxbKvkfSMn".into(),
                fragment: "is\"}".into()
            },
            ProviderEvent::ToolCallEnd {
                id: "toolu_01NRLabsLyVHZPKxbKvkfSMn".into(),
                arguments: ToolArguments::Parsed(json!({"location": "Paris"}))
            },
            ProviderEvent::Usage(Usage {
                input: 377,
                output: 65,
                cache_read: 0,
                cache_write: 0
            }),
            ProviderEvent::Stop {
                reason: StopReason::ToolUse
            },
        ]
    );
}

#[test]
fn openai_fixture_yields_two_parallel_calls() {
    let events = decode_cut(
        WireFormat::OpenAi,
        &fixture("openai-parallel-tool-calls.sse"),
        &[],
    );
    let ends = ends(&events);
    assert_eq!(
        ends,
        vec![
            (
                "call_g4Q1vRbE0CaHGOs5if8mHsBq".to_string(),
                ToolArguments::Parsed(json!({"city": "Edinburgh", "country": "UK", "units": "c"}))
            ),
            (
                "call_gWj3HQxZEHnFvyJLEHIiJKBV".to_string(),
                ToolArguments::Parsed(json!({"ticker": "AAPL", "exchange": "NASDAQ"}))
            ),
        ]
    );
    let starts: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            ProviderEvent::ToolCallStart { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(starts, vec!["GetWeatherArgs", "get_stock_price"]);
    assert_eq!(
        &events[events.len() - 2..],
        &[
            ProviderEvent::Usage(Usage {
                input: 149,
                output: 60,
                cache_read: 0,
                cache_write: 0
            }),
            ProviderEvent::Stop {
                reason: StopReason::ToolUse
            },
        ]
    );
}

#[test]
fn every_single_split_point_gives_the_same_events() {
    for (format, name) in [
        (WireFormat::Anthropic, "anthropic-tool-use.sse"),
        (WireFormat::OpenAi, "openai-parallel-tool-calls.sse"),
    ] {
        let body = fixture(name);
        let whole = decode_cut(format, &body, &[]);
        for cut in 0..=body.len() {
            assert_eq!(
                decode_cut(format, &body, &[cut]),
                whole,
                "{name} cut at {cut}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_chunking_of_the_anthropic_stream_gives_the_same_events(
        cuts in proptest::collection::vec(any::<usize>(), 0..40)
    ) {
        let body = fixture("anthropic-tool-use.sse");
        let whole = decode_cut(WireFormat::Anthropic, &body, &[]);
        prop_assert_eq!(decode_cut(WireFormat::Anthropic, &body, &cuts), whole);
    }

    #[test]
    fn any_chunking_of_the_openai_stream_gives_the_same_events(
        cuts in proptest::collection::vec(any::<usize>(), 0..80)
    ) {
        let body = fixture("openai-parallel-tool-calls.sse");
        let whole = decode_cut(WireFormat::OpenAi, &body, &[]);
        prop_assert_eq!(decode_cut(WireFormat::OpenAi, &body, &cuts), whole);
    }
}

/// The same stream, split by the scripted server at random byte offsets, through the real
/// providers over HTTP.
fn over_http(format: WireFormat, body: Vec<u8>, cuts: Vec<usize>) -> Vec<ProviderEvent> {
    use foreman_core::providers::keys::static_key;
    use foreman_core::providers::{
        AnthropicConfig, AnthropicProvider, HttpSettings, Message, OpenAiConfig, OpenAiProvider,
        Provider, ProviderRequest, RetryPolicy,
    };
    use foreman_core::testing::sse_server::{ScriptedResponse, Split};
    use futures_util::StreamExt;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let cuts = cuts.into_iter().map(|c| c % (body.len() + 1)).collect();
        let server = serve(vec![ScriptedResponse::sse(body).split(Split::At(cuts))]).await;
        let http = HttpSettings {
            retry: RetryPolicy::none(),
            ..HttpSettings::default()
        };
        let provider: Box<dyn Provider> = match format {
            WireFormat::Anthropic => Box::new(
                AnthropicProvider::new(
                    AnthropicConfig::new(static_key("k"))
                        .with_base_url(server.url())
                        .with_http(http),
                )
                .unwrap(),
            ),
            WireFormat::OpenAi => Box::new(
                OpenAiProvider::new(
                    OpenAiConfig::new(server.url(), static_key("k")).with_http(http),
                )
                .unwrap(),
            ),
        };
        let request = ProviderRequest::new("m", "", vec![Message::user("hi")]);
        provider
            .stream(request, tokio_util::sync::CancellationToken::new())
            .map(|item| item.unwrap())
            .collect()
            .await
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn any_chunking_over_http_gives_the_same_events(
        cuts in proptest::collection::vec(any::<usize>(), 0..30),
        anthropic in any::<bool>(),
    ) {
        let (format, name) = if anthropic {
            (WireFormat::Anthropic, "anthropic-tool-use.sse")
        } else {
            (WireFormat::OpenAi, "openai-parallel-tool-calls.sse")
        };
        let body = fixture(name);
        let whole = decode_cut(format, &body, &[]);
        prop_assert_eq!(over_http(format, body, cuts), whole);
    }
}
