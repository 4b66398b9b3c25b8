#!/usr/bin/env bash
# Time management under a game clock: oxello plays itself over GTP with SECONDS per side
# (sudden death), told its remaining time before every move (`time_left`). Prints one line per
# move (colour, empties before the move, time left, time used) and, per side, the total used
# against the clock. Usage: benches/clock_game.sh [SECONDS] [LEVEL] [OPENING]
#   e.g. benches/clock_game.sh 300 24 f5d6c3d3c4
# The level should be deep enough that the clock, not the depth, limits the search.
set -euo pipefail
secs=${1:-300}
level=${2:-24}
opening=${3:-f5d6c3d3c4}
bin=${OXELLO:-target/release/oxello}

coproc ENG { "$bin" gtp --level "$level" 2>/dev/null; }

# Sends one command and prints the reply's first line (GTP replies end with a blank line).
ask() {
    echo "$1" >&"${ENG[1]}"
    local line first=""
    while IFS= read -r line <&"${ENG[0]}"; do
        [ -z "$line" ] && break
        [ -z "$first" ] && first=$line
    done
    echo "$first"
}

now_ms() { date +%s%3N; }

ask "time_settings $secs 0 0" >/dev/null
for ((i = 0; i < ${#opening}; i += 2)); do
    colour=$([ $((i / 2 % 2)) -eq 0 ] && echo b || echo w)
    ask "play $colour ${opening:i:2}" >/dev/null
done
declare -A left=([b]=$((secs * 1000)) [w]=$((secs * 1000)))
declare -A used=([b]=0 [w]=0)
colour=$([ $((${#opening} / 2 % 2)) -eq 0 ] && echo b || echo w)
empties=$((60 - ${#opening} / 2))
passes=0
printf '%-6s %7s %10s %9s %s\n' colour empties left_ms used_ms move
while [ "$passes" -lt 2 ]; do
    ask "time_left $colour $((left[$colour] / 1000)) 0" >/dev/null
    t0=$(now_ms)
    reply=$(ask "genmove $colour")
    dt=$(($(now_ms) - t0))
    mv=${reply#= }
    printf '%-6s %7d %10d %9d %s\n' "$colour" "$empties" "${left[$colour]}" "$dt" "$mv"
    left[$colour]=$((left[$colour] - dt))
    used[$colour]=$((used[$colour] + dt))
    if [ "${left[$colour]}" -lt 0 ]; then
        echo "$colour lost on time"
        break
    fi
    case "$mv" in
        pass | PASS) passes=$((passes + 1)) ;;
        resign | '?'*) echo "unexpected reply: $reply"; break ;;
        *) passes=0; empties=$((empties - 1)) ;;
    esac
    colour=$([ "$colour" = b ] && echo w || echo b)
done
echo "final: $(ask final_score)"
for c in b w; do
    echo "$c used ${used[$c]} ms of $((secs * 1000)) ms"
done
echo quit >&"${ENG[1]}"
