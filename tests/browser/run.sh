#!/usr/bin/env bash
# Browser tests of `oxello serve` (not part of `cargo test`: they need a browser). Installs
# Debian's chromium and this folder's npm packages, builds the release binary, and drives the
# page with playwright-core. Fails loudly when the browser cannot be installed.
# SCREENSHOTS=DIR saves the documentation's screenshots (docs/serve-*.png) there.
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}

# Playwright talks to chromium over its own protocol, so chromium-driver is not needed.
if [ ! -x /usr/bin/chromium ]; then
    (as_root apt-get install -y chromium || (as_root apt-get update && as_root apt-get install -y chromium)) >/dev/null || true
fi
if ! command -v npm >/dev/null; then
    (as_root apt-get install -y nodejs npm || (as_root apt-get update && as_root apt-get install -y nodejs npm)) >/dev/null || true
fi
# The install's own output is hidden; a failure is reported here instead.
if [ ! -x /usr/bin/chromium ] || ! command -v npm >/dev/null; then
    echo "browser tests: FAILED: chromium or npm could not be installed (apt-get install chromium nodejs npm)" >&2
    exit 1
fi

(cd ../.. && cargo build --release --quiet)
npm ci --no-audit --no-fund --loglevel=error
export OXELLO="$PWD/../../target/release/oxello"
timeout 600 node --test --test-concurrency=1 serve.test.js
