#!/usr/bin/env bash
# Draws the pictures of docs/replay.md again (docs/pictures/*.png: the
# reordered router as a flowchart, what the reorder moves as a Sankey),
# with the same Mermaid the render test uses (scripts/mermaid-cli.sh
# installs it under target/). Run it when report::mermaid or those
# examples change, and look at the pictures before committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${CARGO_TARGET_DIR:-target}/mermaid-cli
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
scripts/mermaid-cli.sh "$dir"
ROUTERCTL_REGENERATE=1 \
ROUTERCTL_MMDC="$dir/node_modules/.bin/mmdc" \
ROUTERCTL_MMDC_CONFIG="$dir/puppeteer.json" \
  cargo test --locked --test it -- --ignored mermaid_render::the_docs_pictures_are_drawn
