//! What prompt caching saves on a long task: a scripted 40-step task (one file read per step)
//! runs through the engine, and each request it makes is charged twice by a model of
//! Anthropic's billing: once as Foreman sends it (with conversation breakpoints), once with the
//! breakpoints on the system prompt and the tools only (what Foreman sent before). The cost of the
//! whole task is compared.
//!
//! The billing model follows Anthropic's documented rules: the cache key is the prefix in the
//! order tools, system, messages, block by block, without the `cache_control` markers; a
//! breakpoint looks back up to 20 blocks for a prefix cached earlier and reads it; the prefix up
//! to the last breakpoint is written; prefixes under 1,024 tokens are never cached; what follows
//! the last breakpoint is plain input. Tokens are estimated as bytes / 4. Prices are Claude
//! Sonnet 4's per million tokens: $3 input, $3.75 cache write, $0.30 cache read, $15 output.
//!
//! Prints markdown rows `| bench | measured | baseline | ratio | target | result |`.

use std::collections::HashSet;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use foreman_core::agent::{Session, SessionConfig};
use foreman_core::protocol::{ApprovalMode, EventMsg, Op};
use foreman_core::providers::anthropic::request_body;
use foreman_core::providers::{ProviderEvent, StopReason, ToolArguments};
use foreman_core::testing::scripted_provider::ScriptedProvider;
use serde_json::{Value, json};

const STEPS: usize = 40;
const LOOKBACK: usize = 20;
const MIN_CACHEABLE: u64 = 1024;
const PRICE_INPUT: f64 = 3.0;
const PRICE_WRITE: f64 = 3.75;
const PRICE_READ: f64 = 0.30;
const PRICE_OUTPUT: f64 = 15.0;

fn tokens(value: &Value) -> u64 {
    (value.to_string().len() as u64).div_ceil(4)
}

/// The request's blocks in cache order, each with its tokens and whether it is a breakpoint.
fn blocks(body: &Value) -> Vec<(Value, u64, bool)> {
    let mut out = Vec::new();
    let mut take = |block: &Value| {
        let mut plain = block.clone();
        let marked = plain
            .as_object_mut()
            .and_then(|o| o.remove("cache_control"))
            .is_some();
        let n = tokens(&plain);
        out.push((plain, n, marked));
    };
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .for_each(&mut take);
    body["system"]
        .as_array()
        .into_iter()
        .flatten()
        .for_each(&mut take);
    for message in body["messages"].as_array().into_iter().flatten() {
        for block in message["content"].as_array().into_iter().flatten() {
            // The role is part of what is cached.
            let mut block = block.clone();
            block["__role"] = message["role"].clone();
            take(&block);
        }
    }
    out
}

/// The provider's cache: the hashes of the prefixes written so far.
#[derive(Default)]
struct Cache {
    prefixes: HashSet<u64>,
}

#[derive(Default, Debug, Clone, Copy)]
struct Bill {
    input: u64,
    write: u64,
    read: u64,
    output: u64,
}

impl Bill {
    fn usd(&self) -> f64 {
        (self.input as f64 * PRICE_INPUT
            + self.write as f64 * PRICE_WRITE
            + self.read as f64 * PRICE_READ
            + self.output as f64 * PRICE_OUTPUT)
            / 1e6
    }
}

impl Cache {
    /// Charges one request and remembers what it wrote.
    fn charge(&mut self, body: &Value, output: u64) -> Bill {
        let blocks = blocks(body);
        let mut hashes = Vec::with_capacity(blocks.len());
        let mut cumulative = Vec::with_capacity(blocks.len());
        let mut hasher = DefaultHasher::new();
        let mut sum = 0;
        for (block, n, _) in &blocks {
            block.to_string().hash(&mut hasher);
            hashes.push(hasher.finish());
            sum += n;
            cumulative.push(sum);
        }
        let total = sum;
        let breakpoints: Vec<usize> = (0..blocks.len()).filter(|&i| blocks[i].2).collect();
        // The longest cached prefix any breakpoint finds by looking back.
        let mut read_end: Option<usize> = None;
        for &b in &breakpoints {
            let lowest = b.saturating_sub(LOOKBACK);
            if let Some(k) = (lowest..=b)
                .rev()
                .find(|&k| self.prefixes.contains(&hashes[k]))
            {
                read_end = Some(read_end.map_or(k, |r: usize| r.max(k)));
            }
        }
        let read = read_end.map_or(0, |k| cumulative[k]);
        let Some(&last) = breakpoints.last() else {
            return Bill {
                input: total,
                output,
                ..Bill::default()
            };
        };
        let mut write = 0;
        if cumulative[last] >= MIN_CACHEABLE {
            write = cumulative[last].saturating_sub(read);
            for &b in &breakpoints {
                if cumulative[b] >= MIN_CACHEABLE {
                    self.prefixes.insert(hashes[b]);
                }
            }
        }
        Bill {
            input: total - read - write,
            write,
            read,
            output,
        }
    }
}

/// The body with the conversation's breakpoints taken out.
fn without_conversation_breakpoints(mut body: Value) -> Value {
    for message in body["messages"].as_array_mut().into_iter().flatten() {
        for block in message["content"].as_array_mut().into_iter().flatten() {
            if let Some(block) = block.as_object_mut() {
                block.remove("cache_control");
            }
        }
    }
    body
}

fn read_turn(i: usize) -> Vec<ProviderEvent> {
    let id = format!("r{i}");
    let args = json!({"path": format!("src/module_{i}.rs")});
    vec![
        ProviderEvent::TextDelta(format!("Reading module {i}.")),
        ProviderEvent::ToolCallStart {
            id: id.clone(),
            name: "read".into(),
        },
        ProviderEvent::ToolCallArgsDelta {
            id: id.clone(),
            fragment: args.to_string(),
        },
        ProviderEvent::ToolCallEnd {
            id,
            arguments: ToolArguments::Parsed(args),
        },
        ProviderEvent::Stop {
            reason: StopReason::ToolUse,
        },
    ]
}

fn done_turn() -> Vec<ProviderEvent> {
    let args = json!({"result": "Reviewed every module."});
    vec![
        ProviderEvent::ToolCallStart {
            id: "done".into(),
            name: "attempt_completion".into(),
        },
        ProviderEvent::ToolCallEnd {
            id: "done".into(),
            arguments: ToolArguments::Parsed(args),
        },
        ProviderEvent::Stop {
            reason: StopReason::ToolUse,
        },
    ]
}

fn main() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..STEPS {
        // Files of 2 to 12 KiB, like the modules of a middle-sized project.
        let lines = 60 + (i * 37) % 300;
        let text: String = (0..lines)
            .map(|l| format!("    let value_{l} = compute(input_{l}, {i}); // step {l}\n"))
            .collect();
        std::fs::write(src.join(format!("module_{i}.rs")), text).unwrap_or_else(|e| panic!("{e}"));
    }
    let mut turns: Vec<Vec<ProviderEvent>> = (0..STEPS).map(read_turn).collect();
    turns.push(done_turn());
    let provider = Arc::new(ScriptedProvider::new(turns));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async {
        let mut config = SessionConfig::new(
            Arc::clone(&provider) as _,
            "claude-sonnet-4",
            dir.path().to_path_buf(),
        );
        config.approval_mode = ApprovalMode::Yolo;
        config.max_iterations = 1_000;
        config.data_dir = dir.path().join(".data");
        let (ops, mut events) = Session::spawn(config).unwrap_or_else(|e| panic!("{e}"));
        let _ = ops.send(Op::user_message(
            "Review every module under src/ and tell me what each computes.",
        ));
        while let Some(e) = events.recv().await {
            if matches!(e.msg, EventMsg::TaskEnded { .. }) {
                break;
            }
        }
    });
    let requests = provider.requests();
    assert_eq!(requests.len(), STEPS + 1, "every step made one request");
    let output = 60; // each step's short text and call
    let mut cached = Cache::default();
    let mut plain = Cache::default();
    let (mut with, mut without) = (Bill::default(), Bill::default());
    for request in &requests {
        let a = cached.charge(&request_body(request, true), output);
        let b = plain.charge(
            &without_conversation_breakpoints(request_body(request, true)),
            output,
        );
        for (sum, bill) in [(&mut with, a), (&mut without, b)] {
            sum.input += bill.input;
            sum.write += bill.write;
            sum.read += bill.read;
            sum.output += bill.output;
        }
    }
    let ratio = with.usd() / without.usd();
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| cost of a {}-request task, conversation cached (`--bench prompt_cache`) | ${:.3} ({}k read, {}k written, {}k uncached) | system and tools cached only: ${:.3} ({}k read, {}k uncached) | {ratio:.2}× | ≤ 0.35× | {} |",
        requests.len(),
        with.usd(),
        with.read / 1000,
        with.write / 1000,
        with.input / 1000,
        without.usd(),
        without.read / 1000,
        without.input / 1000,
        if ratio <= 0.35 { "pass" } else { "FAIL" }
    );
}
