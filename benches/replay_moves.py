#!/usr/bin/env python3
"""Would another level setting have played the late midgame better? Move by move, in minutes.

Takes the positions where engine NAME (`A` in `oxello match` GGF files) moved with FROM..TO
empties, asks each variant for its move over NBoard in game order (one process per variant,
`set game` with the position, `set depth LEVEL`, `go`; the table stays warm from the previous
position as in a game), and where a variant's move differs from the first variant's, solves
both resulting positions (proven WLD) and counts the result points the variant gains or loses.
The first variant is the reference (say, the shipped levels); each other one is a `--params`
directory (say, one with another `levels.txt`).

Usage: benches/replay_moves.py MATCH.ggf --level 17 --from 28 --to 23 [--name A]
       [--oxello target/release/oxello] REFERENCE VARIANT_PARAMS_DIR...
       where REFERENCE is `-` for the built-in parameters or a --params directory.
Prints, per variant, its thinking time for the positions, how many moves it changed and the
points gained (+) or lost (-) over the games, per empties.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lost_points import flips, games, play, result_class, solve, square  # noqa: E402


def after(board, side, mv):
    """The position after `side` plays `mv`, and who moves next (the same side after a pass)."""
    b = list(board)
    op = "O" if side == "*" else "*"
    play(b, square(mv), side, op)
    nxt = op if any(b[i] == "-" and flips(b, i, op, side) for i in range(64)) else side
    return "".join(b), nxt


def picks(oxello, params, level, positions):
    """(move, seconds) of the engine for every position, asked in order over NBoard."""
    cmd = [oxello, "nboard", "--threads", "1", "--no-book"] + (["--params", params] if params != "-" else [])
    eng = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    def until(prefix):
        while True:
            line = eng.stdout.readline()
            if not line:
                sys.exit(f"{' '.join(cmd)}: the engine stopped")
            if line.startswith(prefix):
                return line.split()

    send("nboard 2")
    send(f"set depth {level}")
    out = []
    for n, (board, side) in enumerate(positions):
        send(f"set game (;GM[Othello]PC[replay]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 {board} {side}];)")
        send(f"ping {n}")
        until("pong")
        start = time.perf_counter()
        send("go")
        reply = until("===")
        out.append((reply[1].split("/")[0].upper(), time.perf_counter() - start))
    send("quit")
    eng.wait()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ggf")
    ap.add_argument("--level", type=int, required=True)
    ap.add_argument("--from", dest="hi", type=int, default=28)
    ap.add_argument("--to", dest="lo", type=int, default=23)
    ap.add_argument("--name", default="A")
    ap.add_argument("--oxello", default="target/release/oxello")
    ap.add_argument("reference")
    ap.add_argument("variants", nargs="+")
    args = ap.parse_args()

    positions, empties = [], []
    for plies in games(args.ggf):
        for board, side, mv, name, _ in plies:
            e = board.count("-")
            if name == args.name and mv != "PA" and args.lo <= e <= args.hi:
                positions.append((board, side))
                empties.append(e)
    if not positions:
        sys.exit(f"no moves of {args.name} with {args.lo}-{args.hi} empties")
    print(f"{len(positions)} positions", file=sys.stderr)
    ref = picks(args.oxello, args.reference, args.level, positions)
    runs = {v: picks(args.oxello, v, args.level, positions) for v in args.variants}

    # Every resulting position that decides a difference, solved once.
    children = {}
    for moves in runs.values():
        for (board, side), (mv, _), (rmv, _) in zip(positions, moves, ref):
            if mv != rmv:
                for m in (mv, rmv):
                    children.setdefault(after(board, side, m), None)
    keys = list(children)
    if keys:
        children = dict(zip(keys, solve(args.oxello, keys, ["--wld"])))

    def points(board, side, mv):
        child = after(board, side, mv)
        return result_class(children[child] if child[1] == side else -children[child])

    print(f"{'variant':<28} {'seconds':>8} {'changed':>8} {'points':>7}  per empties")
    print(f"{'reference ' + args.reference:<28} {sum(t for _, t in ref):8.2f}")
    for v, moves in runs.items():
        gain, changed = {}, 0
        for (board, side), e, (mv, _), (rmv, _) in zip(positions, empties, moves, ref):
            if mv != rmv:
                changed += 1
                gain[e] = gain.get(e, 0.0) + points(board, side, mv) - points(board, side, rmv)
        per = " ".join(f"{e}:{g:+.1f}" for e, g in sorted(gain.items(), reverse=True))
        print(f"{v:<28} {sum(t for _, t in moves):8.2f} {changed:8d} {sum(gain.values()):+7.1f}  {per}")


if __name__ == "__main__":
    main()
