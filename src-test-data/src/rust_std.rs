// Rust program using std (HashMap, formatting): built live by LlvmConvertDifferentialTest (the
// binary is ~4.5 MB); src/rust_main.rs is the small no_std checked-in golden.
use std::collections::HashMap;

#[inline(always)]
fn leaf(x: u64) -> u64 {
    if x > 100 { x / 3 } else { x * 5 + 1 }
}

#[inline(never)]
fn count<T: std::hash::Hash + Eq + Clone>(items: &[T]) -> HashMap<T, usize> {
    let mut m = HashMap::new();
    for i in items {
        *m.entry(i.clone()).or_insert(0) += 1;
    }
    m
}

fn main() {
    let n = std::env::args().count() as u64;
    let m = count(&["a", "b", "a"]);
    let k = count(&[n, 2, n]);
    println!("{} {} {}", leaf(n), m.len(), k.len());
}
