//! `make bench` row: a 10,000-line file with 100 scattered edits diffs in under 20 ms.

use std::time::{Duration, Instant};

use foreman_core::diff::{DiffLimits, diff_texts};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let old: String = (0..10_000)
        .map(|i| format!("    let value_{i} = compute(input_{i}, {i}) + offset; // line {i}\n"))
        .collect();
    let mut lines: Vec<String> = old.lines().map(str::to_owned).collect();
    for k in 0..100 {
        let at = k * 97 + 13;
        lines[at] =
            format!("    let value_{at} = compute_faster(input_{at}, {at}) - offset; // edited");
    }
    let new: String = lines.iter().map(|l| format!("{l}\n")).collect();

    let samples: Vec<Duration> = (0..15)
        .map(|_| {
            let started = Instant::now();
            let diff = diff_texts("big.rs", Some(&old), Some(&new), DiffLimits::default());
            let took = started.elapsed();
            assert_eq!((diff.added, diff.removed), (100, 100));
            took
        })
        .collect();
    let took = median(samples);
    let target = Duration::from_millis(20);
    println!("| bench | measured | baseline | ratio | target | result |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| diff: 10,000 lines, 100 scattered edits | {:.2} ms | — | — | < 20 ms | {} |",
        took.as_secs_f64() * 1e3,
        if took < target { "PASS" } else { "FAIL" }
    );
}
