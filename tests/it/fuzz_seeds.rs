//! The fuzz target's entry point over the seed corpus (every testdata file,
//! router and live inputs paired, and their truncations), so CI checks that
//! the pipeline never panics on them. `cargo fuzz run pipeline` explores
//! further from the same seeds.

use std::path::{Path, PathBuf};

use routerctl::commands::exercise;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"), &mut paths);
    paths.sort();
    let mut seeds: Vec<Vec<u8>> =
        paths.iter().filter_map(|p| std::fs::read(p).ok()).filter(|b| b.len() < 1 << 20).collect();
    // Routers paired with live objects, as `diff` sees them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (router, live) in [
        ("testdata/diff/router.yaml", "testdata/diff/live-drift.yaml"),
        ("testdata/diff/router.yaml", "testdata/diff/live-unchanged.yaml"),
        ("testdata/render/pooled.yaml", "testdata/diff/live-drift.yaml"),
    ] {
        let mut pair = std::fs::read(root.join(router)).expect("seed");
        pair.push(0);
        pair.extend(std::fs::read(root.join(live)).expect("seed"));
        seeds.push(pair);
    }
    seeds
}

#[test]
fn the_pipeline_never_panics_on_the_seed_corpus() {
    for seed in seeds() {
        exercise(&seed);
    }
}

#[test]
fn the_pipeline_never_panics_on_truncated_seeds() {
    // A truncated file is the commonest broken input in CI.
    // At most 64 cuts per seed, so the corpus's large files stay cheap.
    for seed in seeds() {
        for cut in (0..seed.len()).step_by(seed.len() / 64 + 1) {
            exercise(&seed[..cut]);
        }
    }
}
