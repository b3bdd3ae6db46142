//! Benchmark of the incremental partial-JSON parser against one `serde_json::from_str` of the
//! whole document, and of the naive approach (re-parse everything after every fragment) against
//! the incremental one.
//!
//! Run with `cargo bench -p foreman-core --bench partial_json`. Prints one markdown table; each
//! time is the median of several repetitions.

use std::error::Error;
use std::hint::black_box;
use std::time::{Duration, Instant};

use foreman_core::partial_json::{PartialJsonParser, Patch, parse_partial};
use serde_json::{Value, json};

const FRAGMENT_BYTES: usize = 16;
const BIG: usize = 1 << 20;
const SMALL: usize = 64 << 10;

/// A `{"path", "content"}` document whose content is about `size` bytes of source-like text with
/// newlines, tabs, quotes, backslashes, accented letters and emoji (so escapes abound).
fn document(size: usize) -> Result<String, serde_json::Error> {
    let lines = [
        "\tlet greeting = \"héllo wörld 😀\";\n",
        "    // a path: C:\\Users\\dev\\src\\main.rs\n",
        "    println!(\"{greeting} \\t tabbed\");\n",
        "\tlet λ = |x: u32| x * 2; // 🚀 ünïcödé\n",
        "    let json = \"{\\\"key\\\": \\\"value\\\"}\";\n",
    ];
    let mut content = String::with_capacity(size + 64);
    let mut i = 0;
    while content.len() < size {
        content.push_str(lines[i % lines.len()]);
        i += 1;
    }
    serde_json::to_string(&json!({"path": "src/big.rs", "content": content}))
}

/// `text` cut into fragments of about `size` bytes, each ending on a char boundary.
fn fragments(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::with_capacity(text.len() / size + 1);
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}

/// The median time of `repetitions` runs of `run`.
fn median<E>(repetitions: usize, mut run: impl FnMut() -> Result<(), E>) -> Result<Duration, E> {
    let mut times = Vec::with_capacity(repetitions);
    for _ in 0..repetitions {
        let start = Instant::now();
        run()?;
        times.push(start.elapsed());
    }
    times.sort_unstable();
    Ok(times[times.len() / 2])
}

fn serde_once(doc: &str, repetitions: usize) -> Result<Duration, serde_json::Error> {
    median(repetitions, || {
        black_box(serde_json::from_str::<Value>(black_box(doc))?);
        Ok(())
    })
}

fn incremental(pieces: &[&str], repetitions: usize) -> Result<Duration, Box<dyn Error>> {
    median(repetitions, || -> Result<(), Box<dyn Error>> {
        let mut parser = PartialJsonParser::new();
        let mut patches: Vec<Patch> = Vec::new();
        for piece in pieces {
            patches.extend(parser.push(black_box(piece))?);
        }
        patches.extend(parser.finish()?);
        black_box((&parser, patches));
        Ok(())
    })
}

fn one_push(doc: &str, repetitions: usize) -> Result<Duration, Box<dyn Error>> {
    median(repetitions, || -> Result<(), Box<dyn Error>> {
        let mut parser = PartialJsonParser::new();
        let mut patches = parser.push(black_box(doc))?;
        patches.extend(parser.finish()?);
        black_box((&parser, patches));
        Ok(())
    })
}

fn naive(pieces: &[&str], repetitions: usize) -> Result<Duration, Box<dyn Error>> {
    median(repetitions, || -> Result<(), Box<dyn Error>> {
        let mut buffer = String::new();
        for piece in pieces {
            buffer.push_str(piece);
            black_box(parse_partial(black_box(&buffer))?);
        }
        Ok(())
    })
}

fn ms(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

fn row(
    bench: &str,
    measured: Duration,
    baseline_name: &str,
    baseline: Duration,
    target: &str,
    pass: impl Fn(f64) -> bool,
) {
    let ratio = measured.as_secs_f64() / baseline.as_secs_f64();
    let result = if pass(ratio) { "PASS" } else { "FAIL" };
    println!(
        "| {bench} | {} | {baseline_name} {} | {ratio:.2}× | {target} | {result} |",
        ms(measured),
        ms(baseline)
    );
}

fn main() -> Result<(), Box<dyn Error>> {
    let big = document(BIG)?;
    let small = document(SMALL)?;
    let big_pieces = fragments(&big, FRAGMENT_BYTES);
    let small_pieces = fragments(&small, FRAGMENT_BYTES);

    // Check the incremental result before timing it.
    let mut parser = PartialJsonParser::new();
    for piece in &big_pieces {
        parser.push(piece)?;
    }
    parser.finish()?;
    if parser.snapshot() != serde_json::from_str::<Value>(&big)? {
        return Err("the incremental parser disagrees with serde_json".into());
    }

    let big_serde = serde_once(&big, 21)?;
    let big_incremental = incremental(&big_pieces, 11)?;
    let big_one_push = one_push(&big, 11)?;
    let small_serde = serde_once(&small, 101)?;
    let small_incremental = incremental(&small_pieces, 51)?;
    let small_naive = naive(&small_pieces, 3)?;

    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    let big_label = format!(
        "incremental, {} KiB doc, {} pushes of {FRAGMENT_BYTES} B, patches collected",
        big.len() >> 10,
        big_pieces.len()
    );
    row(
        &big_label,
        big_incremental,
        "serde_json::from_str once:",
        big_serde,
        "≤ 3×",
        |ratio| ratio <= 3.0,
    );
    row(
        &format!("incremental, {} KiB doc in one push", big.len() >> 10),
        big_one_push,
        "serde_json::from_str once:",
        big_serde,
        "≤ 3×",
        |ratio| ratio <= 3.0,
    );
    let small_label = format!(
        "incremental, {} KiB doc, {} pushes of {FRAGMENT_BYTES} B, patches collected",
        small.len() >> 10,
        small_pieces.len()
    );
    row(
        &small_label,
        small_incremental,
        "serde_json::from_str once:",
        small_serde,
        "≤ 3×",
        |ratio| ratio <= 3.0,
    );
    let naive_label = format!(
        "naive: parse_partial of the whole buffer after each of {} pushes, {} KiB doc",
        small_pieces.len(),
        small.len() >> 10
    );
    row(
        &naive_label,
        small_naive,
        "incremental, same doc:",
        small_incremental,
        "> 1× (incremental wins)",
        |ratio| ratio > 1.0,
    );
    Ok(())
}
