#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser that reads outside input (cargo fuzz, libFuzzer,
# nightly): NBoard and GTP lines, whole protocol sessions, GGF, board strings / transcripts /
# OBF, the book file, Edax book files, the parameter files, corpus shards. Each target runs SECONDS seconds from the seeds in
# fuzz/seeds/ plus the corpus it grew before (fuzz/corpus/, not committed); prints executions
# and crashes per target. A crash leaves its input in fuzz/artifacts/<target>/.
# Needs: rustup toolchain nightly, `cargo install cargo-fuzz`.
# Usage: benches/fuzz.sh [SECONDS] [TARGET...]   (default: 300 s, every target)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"
seconds="${1:-300}"
shift $(( $# >= 1 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(nboard gtp session ggf notation book edax_book params corpus_shard)
cargo +nightly fuzz build -O >/dev/null 2>&1 || { echo "cargo +nightly fuzz build failed"; exit 2; }
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $seconds s a target"
printf '%-10s %14s %10s %8s\n' target executions exec/s crashes
status=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  log=$(mktemp)
  # A session returns on `quit` while its reader thread may still be reading: LeakSanitizer
  # would count that thread's buffers (the engine never joins a reader blocked on stdin).
  extra=()
  [ "$t" = session ] && extra=(-detect_leaks=0)
  cargo +nightly fuzz run -O "$t" "corpus/$t" "seeds/$t" -- -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 "${extra[@]}" >"$log" 2>&1
  rc=$?
  execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
  crashes=$(ls "artifacts/$t" 2>/dev/null | wc -l)
  printf '%-10s %14s %10s %8s\n' "$t" "${execs:-?}" "${rate:-?}" "$crashes"
  if [ $rc -ne 0 ]; then
    status=1
    grep -E 'panicked|ERROR|SUMMARY' "$log" | head -5
  fi
  rm -f "$log"
done
exit $status
