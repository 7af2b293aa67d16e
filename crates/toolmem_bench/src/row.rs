//! One result line of the benchmark, and how the lines are printed: as a table for people, or
//! as JSON lines (the contract: the same fields, in the same order, on every row).

use std::time::Duration;

use serde::Serialize;

/// One result line. Every row has the same fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// What was measured: `toolmem`, or `sqlite_kv` for the baseline rows; results from other
    /// implementations can share a file.
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// The operation.
    pub op: String,
    /// How many operations were timed.
    pub n: usize,
    /// Rules in the store when it ran.
    pub rules: usize,
    /// Median microseconds per operation over the runs (`null` for the memory row).
    pub us_per_op: Option<f64>,
    /// Peak resident memory of the server process, KiB (only on the memory row).
    pub peak_rss_kib: Option<u64>,
}

/// A row of toolmem's: `n` operations that took `elapsed` together.
pub(crate) fn row(op: &str, n: usize, rules: usize, elapsed: Duration) -> Row {
    Row {
        implementation: "toolmem",
        op: op.to_owned(),
        n,
        rules,
        us_per_op: Some(elapsed.as_secs_f64() * 1e6 / n.max(1) as f64),
        peak_rss_kib: None,
    }
}

/// Prints rows as a table, or as JSON lines with `json`.
pub fn print(rows: &[Row], json: bool) {
    if json {
        for row in rows {
            println!("{}", serde_json::to_string(row).expect("rows serialise"));
        }
        return;
    }
    println!(
        "{:<20} {:>8} {:>8} {:>12} {:>12}",
        "op", "n", "rules", "us/op", "ops/s"
    );
    for row in rows {
        let op = if row.implementation == "toolmem" {
            row.op.clone()
        } else {
            format!("{} ({})", row.op, row.implementation)
        };
        match (row.us_per_op, row.peak_rss_kib) {
            (Some(us), _) => println!(
                "{:<20} {:>8} {:>8} {:>12.2} {:>12.0}",
                op,
                row.n,
                row.rules,
                us,
                1e6 / us
            ),
            (None, Some(kib)) => {
                println!(
                    "{:<20} {:>8} {:>8} {:>12} {:>9} KiB",
                    op, row.n, row.rules, "-", kib
                );
            }
            (None, None) => println!("{:<20} {:>8} {:>8} {:>12}", op, row.n, row.rules, "n/a"),
        }
    }
}
