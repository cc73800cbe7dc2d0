#!/usr/bin/env bash
# Installs what draws Mermaid pictures for the render test
# (tests/it/mermaid_render.rs) and scripts/docs-pictures.sh: Chromium from
# Debian's packages when /usr/bin/chromium is missing, and mermaid-cli,
# pinned, from npm into DIR (target/mermaid-cli unless given), without the
# browser puppeteer would download (the Debian one is used); then writes
# DIR/puppeteer.json, the settings that point mermaid-cli at it.
#   scripts/mermaid-cli.sh [DIR]
# Afterwards: ROUTERCTL_MMDC=DIR/node_modules/.bin/mmdc and
# ROUTERCTL_MMDC_CONFIG=DIR/puppeteer.json.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/mermaid-cli}

if [ ! -x /usr/bin/chromium ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q chromium
fi

# mermaid-cli 11.17.0 runs on Node 18.19 and later; mermaid and puppeteer
# are pinned with it, so every machine draws with the same Mermaid.
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
  @mermaid-js/mermaid-cli@11.17.0 mermaid@11.17.2 puppeteer@24.43.1

cat >"$dir/puppeteer.json" <<'JSON'
{
  "executablePath": "/usr/bin/chromium",
  "args": [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run"
  ]
}
JSON
"$dir/node_modules/.bin/mmdc" --version >/dev/null
