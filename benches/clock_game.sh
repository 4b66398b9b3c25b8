#!/usr/bin/env bash
# Time management under a game clock: oxello plays itself with SECONDS per side (sudden death)
# over GTP or NBoard, the controller here measuring each move from sending the request to
# reading the move, as a GUI's clock does.
#   gtp:    `time_settings SECONDS 0 0`, then `time_left` before every `genmove`.
#   nboard: `set game` with the clock `TI[SECONDS//0]` (no grace) and the opening, then `go`
#           for every move; each move is sent back with the time measured here (`move F5//1.2`).
# Prints one line per move (colour, empties before the move, time left, time used, move) and,
# per side, the total used against the clock and the longest move.
# Usage: benches/clock_game.sh [SECONDS] [LEVEL] [OPENING] [PROTOCOL]
#   e.g. benches/clock_game.sh 300 30 f5d6c3d3c4 nboard   (defaults: 300 24 f5d6c3d3c4 gtp)
# LEVEL `clock` gives no level: the clock decides the depth (the default under a clock). A level
# given caps the search; it should be deep enough that the clock, not the depth, limits it.
set -euo pipefail
secs=${1:-300}
level=${2:-24}
opening=${3:-f5d6c3d3c4}
protocol=${4:-gtp}
bin=${OXELLO:-target/release/oxello}
# Further engine options, e.g. OXELLO_ARGS="--hash 16 --threads 2".
read -r -a extra <<<"${OXELLO_ARGS:-}"
case "$protocol" in
    gtp | nboard) ;;
    *) echo "protocol must be gtp or nboard, not '$protocol'" >&2; exit 2 ;;
esac

level_args=(--level "$level")
[ "$level" = clock ] && level_args=()
coproc ENG { "$bin" "$protocol" "${level_args[@]}" "${extra[@]}" 2>/dev/null; }

# GTP: sends one command and prints the reply's first line (GTP replies end with a blank line).
ask() {
    echo "$1" >&"${ENG[1]}"
    local line first=""
    while IFS= read -r line <&"${ENG[0]}"; do
        [ -z "$line" ] && break
        [ -z "$first" ] && first=$line
    done
    echo "$first"
}

# NBoard: sends `go` and prints the move of the `=== move/eval/time` reply, or `over` when the
# engine says the game is over.
nboard_go() {
    echo go >&"${ENG[1]}"
    local line
    while IFS= read -r line <&"${ENG[0]}"; do
        line=${line%$'\r'}
        case "$line" in
            "=== "*) line=${line#=== }; echo "${line%%/*}"; return ;;
            *"game over"*) echo over; return ;;
        esac
    done
    echo "engine output ended"
}

now_ms() { date +%s%3N; }

if [ "$protocol" = gtp ]; then
    ask "time_settings $secs 0 0" >/dev/null
    for ((i = 0; i < ${#opening}; i += 2)); do
        colour=$([ $((i / 2 % 2)) -eq 0 ] && echo b || echo w)
        ask "play $colour ${opening:i:2}" >/dev/null
    done
else
    ggf="(;GM[Othello]PC[clock_game]TI[$secs//0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]"
    for ((i = 0; i < ${#opening}; i += 2)); do
        colour=$([ $((i / 2 % 2)) -eq 0 ] && echo B || echo W)
        ggf+="$colour[${opening:i:2}]"
    done
    printf 'nboard 2\nset game %s;)\n' "$ggf" >&"${ENG[1]}"
fi
declare -A left=([b]=$((secs * 1000)) [w]=$((secs * 1000)))
declare -A used=([b]=0 [w]=0)
declare -A longest=([b]=0 [w]=0)
colour=$([ $((${#opening} / 2 % 2)) -eq 0 ] && echo b || echo w)
empties=$((60 - ${#opening} / 2))
passes=0
printf '%-6s %7s %10s %9s %s\n' colour empties left_ms used_ms move
while [ "$passes" -lt 2 ]; do
    if [ "$protocol" = gtp ]; then
        ask "time_left $colour $((left[$colour] / 1000)) 0" >/dev/null
        t0=$(now_ms)
        reply=$(ask "genmove $colour")
        mv=${reply#= }
    else
        t0=$(now_ms)
        mv=$(nboard_go)
    fi
    dt=$(($(now_ms) - t0))
    [ "$mv" = over ] && break
    printf '%-6s %7d %10d %9d %s\n' "$colour" "$empties" "${left[$colour]}" "$dt" "$mv"
    left[$colour]=$((left[$colour] - dt))
    used[$colour]=$((used[$colour] + dt))
    [ "$dt" -gt "${longest[$colour]}" ] && longest[$colour]=$dt
    if [ "${left[$colour]}" -lt 0 ]; then
        echo "$colour lost on time"
        break
    fi
    case "$mv" in
        pass | PASS | PA) passes=$((passes + 1)) ;;
        resign | '?'* | "engine output ended") echo "unexpected reply: $mv"; break ;;
        *) passes=0; empties=$((empties - 1)) ;;
    esac
    if [ "$protocol" = nboard ]; then
        printf 'move %s//%d.%03d\n' "$mv" $((dt / 1000)) $((dt % 1000)) >&"${ENG[1]}"
    fi
    colour=$([ "$colour" = b ] && echo w || echo b)
done
if [ "$protocol" = gtp ]; then
    echo "final: $(ask final_score)"
else
    echo "final: $empties empties left"
fi
for c in b w; do
    echo "$c used ${used[$c]} ms of $((secs * 1000)) ms; longest move ${longest[$c]} ms"
done
pid=$ENG_PID
echo quit >&"${ENG[1]}"
# Reaped, so that a caller's GNU time counts the engine's peak memory (benches/memory.sh).
wait "$pid" || true
