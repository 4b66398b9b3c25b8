#!/usr/bin/env bash
# Protocol soak: seeded random NBoard and GTP command streams (300 commands a session, garbage,
# long lines, invalid UTF-8, out-of-range numbers, pings with gaps), sessions alternating
# between the protocols, until SESSIONS sessions or SECONDS seconds. Prints the pong latencies,
# the GTP responses matched to their ids and the exit times; fails on the first broken session
# and names its seed (rerun one with SOAK_SEED=<seed> SOAK_SESSIONS=1). Then the ping latency
# while the engine is busy with deep work (depth 60 `go`, `hint`, `learn`, `analyze`;
# LATENCY_SAMPLES pings an engine, default 20), and the ping, GTP request and quit latency while
# the engine ponders (`--ponder`; limits 50 ms and 100 ms).
# Usage: benches/soak.sh [SESSIONS] [SECONDS]   (defaults: 10000 sessions, 1800 s)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
SOAK_SESSIONS="${1:-10000}" SOAK_SECONDS="${2:-1800}" \
  cargo test --release --quiet --manifest-path "$root/Cargo.toml" --test soak -- --ignored --nocapture --test-threads=1 \
  soak_long ping_latency_during_deep_work ponder_latency
