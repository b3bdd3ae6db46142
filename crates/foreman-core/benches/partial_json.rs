//! Benchmark of the incremental partial-JSON parser against one `serde_json::from_str` of the
//! whole document, and of the naive approach (re-parse everything after every fragment) against
//! the incremental one.
//!
//! Run with `cargo bench -p foreman-core --bench partial_json`. Prints one markdown table. Each
//! row runs its measurement and its baseline alternately; the times shown are medians and the
//! ratio is the median of the per-repetition ratios, so a burst of other work on a shared
//! machine does not decide the verdict.

use std::error::Error;
use std::hint::black_box;
use std::time::{Duration, Instant};

use foreman_core::partial_json::{
    CompactString, JsonPath, PartialJsonParser, Patch, PathSegment, parse_partial,
};
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

/// Times of a measured run and its baseline, taken in alternation.
struct Paired {
    measured: Duration,
    baseline: Duration,
    /// The median of the per-repetition ratios measured / baseline.
    ratio: f64,
}

fn median_of<T: Copy + PartialOrd>(mut values: Vec<T>) -> T {
    values.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}

fn timed<E>(run: &mut impl FnMut() -> Result<(), E>) -> Result<Duration, E> {
    let start = Instant::now();
    run()?;
    Ok(start.elapsed())
}

/// Runs `baseline` and `measured` alternately `repetitions` times. On a shared machine the load
/// changes from one moment to the next; each ratio compares two runs made back to back, and the
/// median of those ratios ignores the repetitions a burst of other work landed on.
fn paired(
    repetitions: usize,
    mut baseline: impl FnMut() -> Result<(), Box<dyn Error>>,
    mut measured: impl FnMut() -> Result<(), Box<dyn Error>>,
) -> Result<Paired, Box<dyn Error>> {
    let (mut measured_times, mut baseline_times, mut ratios) = (vec![], vec![], vec![]);
    for _ in 0..repetitions {
        let b = timed(&mut baseline)?;
        let m = timed(&mut measured)?;
        ratios.push(m.as_secs_f64() / b.as_secs_f64());
        measured_times.push(m);
        baseline_times.push(b);
    }
    Ok(Paired {
        measured: median_of(measured_times),
        baseline: median_of(baseline_times),
        ratio: median_of(ratios),
    })
}

fn serde_once(doc: &str) -> impl FnMut() -> Result<(), Box<dyn Error>> + '_ {
    move || {
        black_box(serde_json::from_str::<Value>(black_box(doc))?);
        Ok(())
    }
}

fn incremental<'a>(pieces: &'a [&'a str]) -> impl FnMut() -> Result<(), Box<dyn Error>> + 'a {
    move || {
        let mut parser = PartialJsonParser::new();
        let mut patches: Vec<Patch> = Vec::new();
        for piece in pieces {
            patches.extend(parser.push(black_box(piece))?);
        }
        patches.extend(parser.finish()?);
        black_box((&parser, patches));
        Ok(())
    }
}

/// The same, with [`PartialJsonParser::push_into`] collecting into one buffer.
fn incremental_into<'a>(pieces: &'a [&'a str]) -> impl FnMut() -> Result<(), Box<dyn Error>> + 'a {
    move || {
        let mut parser = PartialJsonParser::new();
        let mut patches: Vec<Patch> = Vec::new();
        for piece in pieces {
            parser.push_into(black_box(piece), &mut patches)?;
        }
        patches.extend(parser.finish()?);
        black_box((&parser, patches));
        Ok(())
    }
}

/// The floor under the incremental rows: no parsing at all, only what reporting one `Append`
/// patch per fragment costs (its text copied, its path cloned, the patch collected and dropped),
/// with each fragment's patch in a new `Vec` as `push` returns it (`fresh_vec`) or pushed into
/// one buffer as `push_into` does.
fn patches_only<'a>(
    pieces: &'a [&'a str],
    fresh_vec: bool,
) -> impl FnMut() -> Result<(), Box<dyn Error>> + 'a {
    let path: JsonPath = vec![PathSegment::Key("content".into())].into();
    move || {
        let mut patches: Vec<Patch> = Vec::new();
        for piece in pieces {
            let patch = Patch::Append {
                path: path.clone(),
                text: CompactString::from(*black_box(piece)),
            };
            if fresh_vec {
                patches.extend(black_box(vec![patch]));
            } else {
                patches.push(patch);
            }
        }
        black_box(patches);
        Ok(())
    }
}

fn one_push(doc: &str) -> impl FnMut() -> Result<(), Box<dyn Error>> + '_ {
    move || {
        let mut parser = PartialJsonParser::new();
        let mut patches = parser.push(black_box(doc))?;
        patches.extend(parser.finish()?);
        black_box((&parser, patches));
        Ok(())
    }
}

fn naive<'a>(pieces: &'a [&'a str]) -> impl FnMut() -> Result<(), Box<dyn Error>> + 'a {
    move || {
        let mut buffer = String::new();
        for piece in pieces {
            buffer.push_str(piece);
            black_box(parse_partial(black_box(&buffer))?);
        }
        Ok(())
    }
}

fn ms(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

fn row(bench: &str, times: &Paired, baseline_name: &str, target: &str, pass: impl Fn(f64) -> bool) {
    let result = if pass(times.ratio) { "PASS" } else { "FAIL" };
    print_row(bench, times, baseline_name, target, result);
}

/// A row that measures without a target of its own.
fn info_row(bench: &str, times: &Paired, baseline_name: &str) {
    print_row(bench, times, baseline_name, "—", "—");
}

fn print_row(bench: &str, times: &Paired, baseline_name: &str, target: &str, result: &str) {
    let (measured, baseline, ratio) = (times.measured, times.baseline, times.ratio);
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

    let big_incremental = paired(21, serde_once(&big), incremental(&big_pieces))?;
    let big_into = paired(21, serde_once(&big), incremental_into(&big_pieces))?;
    let big_one_push = paired(21, serde_once(&big), one_push(&big))?;
    let floor_fresh = paired(21, serde_once(&big), patches_only(&big_pieces, true))?;
    let floor_into = paired(21, serde_once(&big), patches_only(&big_pieces, false))?;
    let small_incremental = paired(101, serde_once(&small), incremental(&small_pieces))?;
    let small_into = paired(101, serde_once(&small), incremental_into(&small_pieces))?;
    let small_naive = paired(3, incremental(&small_pieces), naive(&small_pieces))?;

    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    let big_label = format!(
        "incremental, {} KiB doc, {} pushes of {FRAGMENT_BYTES} B, patches collected",
        big.len() >> 10,
        big_pieces.len()
    );
    let serde_name = "serde_json::from_str once:";
    // The target is on `push_into`, which the session uses; `push` (a new `Vec` per call) is a
    // convenience, reported only.
    row(
        &format!("{big_label}, with `push_into` (one buffer)"),
        &big_into,
        serde_name,
        "≤ 4×",
        |r| r <= 4.0,
    );
    info_row(
        &format!("{big_label}, with `push`"),
        &big_incremental,
        serde_name,
    );
    info_row(
        &format!("incremental, {} KiB doc in one push", big.len() >> 10),
        &big_one_push,
        serde_name,
    );
    // Linear: a byte costs about the same in a big document as in a small one.
    let per_byte = |d: Duration, len: usize| d.as_secs_f64() * 1e9 / len as f64;
    let (big_ns, small_ns) = (
        per_byte(big_into.measured, big.len()),
        per_byte(small_into.measured, small.len()),
    );
    let linearity = big_ns / small_ns;
    println!(
        "| linearity: `push_into` per byte at {} KiB | {big_ns:.2} ns/B | at {} KiB: {small_ns:.2} ns/B | {linearity:.2}× | ≤ 1.5× | {} |",
        big.len() >> 10,
        small.len() >> 10,
        if linearity <= 1.5 { "PASS" } else { "FAIL" }
    );
    let floor_label = format!(
        "floor, no parsing: one `Append` per fragment ({} patches) built and collected",
        big_pieces.len()
    );
    info_row(
        &format!("{floor_label}, each in a new `Vec` (as `push` returns it)"),
        &floor_fresh,
        serde_name,
    );
    info_row(
        &format!("{floor_label}, into one buffer (as `push_into` collects)"),
        &floor_into,
        serde_name,
    );
    let small_label = format!(
        "incremental, {} KiB doc, {} pushes of {FRAGMENT_BYTES} B, patches collected",
        small.len() >> 10,
        small_pieces.len()
    );
    info_row(
        &format!("{small_label}, with `push`"),
        &small_incremental,
        serde_name,
    );
    info_row(
        &format!("{small_label}, with `push_into`"),
        &small_into,
        serde_name,
    );
    let naive_label = format!(
        "naive: parse_partial of the whole buffer after each of {} pushes, {} KiB doc",
        small_pieces.len(),
        small.len() >> 10
    );
    // Shown beside it: what re-parsing everything after every fragment would cost.
    info_row(&naive_label, &small_naive, "incremental `push`, same doc:");
    Ok(())
}
