#!/usr/bin/env python3
"""Where the games of a match are lost: points each side gives away near the end.

Reads the GGF games written by `oxello match --ggf`, solves the position before every move
with FROM..TO empties (`oxello solve --wld`, or `--exact` for discs too) and charges each
move with the drop of its side's result class (win 1, draw 1/2, loss 0) from the position
before it to the position after it. A perfect player gives nothing away; the sums show, per
side and number of empties, how many points of the match were lost there.

Usage: benches/lost_points.py MATCH.ggf [--from 28] [--to 12] [--selectivity 100] [--exact]
       [--oxello target/release/oxello]
Solves at 26+ empties take seconds each (proven); --selectivity 95 is ~5x faster and wrong now
and then (a probable solve), which shows up as small negative losses.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, sq, me, op):
    """Squares flipped by `me` playing `sq` (0..63, a1 = 0) on a 64-character board."""
    out = []
    r, c = divmod(sq, 8)
    for dr, dc in DIRS:
        rr, cc, line = r + dr, c + dc, []
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == op:
            line.append(rr * 8 + cc)
            rr += dr
            cc += dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == me:
            out += line
    return out


def square(mv):
    """0..63 (a1 = 0) of a move such as `F5` or `f5`."""
    return (int(mv[1]) - 1) * 8 + ord(mv[0].upper()) - ord("A")


def play(board, sq, me, op):
    """Plays `me` at `sq` on a board given as a list of 64 characters, in place."""
    flipped = flips(board, sq, me, op)
    if not flipped:
        raise ValueError(f"illegal move at {sq}")
    board[sq] = me
    for i in flipped:
        board[i] = me


def games(path):
    """Yields, per game, the list of (board, side to move, move, engine name, seconds) before each
    move; seconds is the move's thinking time from the GGF (`F5//0.12`), or None."""
    for line in open(path):
        if "GM[Othello]" not in line:
            continue
        names = {"*": re.search(r"PB\[([^\]]*)\]", line).group(1), "O": re.search(r"PW\[([^\]]*)\]", line).group(1)}
        start = re.search(r"BO\[8 ([^ ]+) ([*O])", line)
        board = list(start.group(1))
        plies = []
        for colour, field in re.findall(r"(?<=\])([BW])\[([^\]]*)\]", line):
            me = "*" if colour == "B" else "O"
            op = "O" if me == "*" else "*"
            parts = field.split("/")
            mv = parts[0].upper()
            seconds = float(parts[2]) if len(parts) > 2 and parts[2] else None
            plies.append(("".join(board), me, mv, names[me], seconds))
            if mv == "PA":
                continue
            try:
                play(board, square(mv), me, op)
            except ValueError:
                sys.exit(f"{path}: illegal move {mv}")
        yield plies


def solve(oxello, positions, options):
    """Scores (side to move's view) of (board, side) positions by `oxello solve --json OPTIONS`."""
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as obf:
        for board, side in positions:
            obf.write(board.replace("*", "X") + (" X" if side == "*" else " O") + ";\n")
    cmd = [oxello, "solve", "--json", "--hash", "256"] + options + [obf.name]
    print(f"solving {len(positions)} positions: {' '.join(cmd)}", file=sys.stderr)
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    finally:
        if os.path.exists(obf.name):
            os.unlink(obf.name)
    scores = [json.loads(line)["score"] for line in out.splitlines() if '"line"' in line]
    if len(scores) != len(positions):
        sys.exit(f"solved {len(scores)} of {len(positions)} positions")
    return scores


def result_class(score):
    return 1.0 if score > 0 else 0.5 if score == 0 else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ggf")
    ap.add_argument("--from", dest="hi", type=int, default=28)
    ap.add_argument("--to", dest="lo", type=int, default=12)
    ap.add_argument("--selectivity", type=int, default=100)
    ap.add_argument("--exact", action="store_true", help="exact scores: also the discs each side gives away")
    ap.add_argument("--oxello", default="target/release/oxello")
    args = ap.parse_args()

    rows, positions = [], []  # (game, empties, side to move, engine name) of each position solved
    for g, plies in enumerate(games(args.ggf)):
        for board, me, mv, name, _ in plies:
            empties = board.count("-")
            if args.lo <= empties <= args.hi and mv != "PA":
                positions.append((board, me))
                rows.append((g, empties, me, name))
    if not rows:
        sys.exit("no positions in that range")
    options = ["--selectivity", str(args.selectivity)] + ([] if args.exact else ["--wld"])
    scores = solve(args.oxello, positions, options)

    points, discs, moves = {}, {}, {}
    for (g, e, me, name), (g2, _, me2, _), v, v2 in zip(rows, rows[1:], scores, scores[1:]):
        if g2 != g:
            continue  # the last move of the range: the position after it was not solved
        after = v2 if me2 == me else -v2  # the same side moves again after a pass
        key = (name, e)
        points[key] = points.get(key, 0.0) + result_class(v) - result_class(after)
        discs[key] = discs.get(key, 0) + v - after
        moves[key] = moves.get(key, 0) + 1
    names = sorted({k[0] for k in moves})
    empties = sorted({k[1] for k in moves}, reverse=True)
    print(f"{len({r[0] for r in rows})} games, positions with {args.lo}-{args.hi} empties")
    print("points lost by the side to move, per empties (a move's loss: result class before it - after it)")
    print("empties " + " ".join(f"{e:>5}" for e in empties) + "  total")
    for n in names:
        row = [points.get((n, e), 0.0) for e in empties]
        print(f"{n:<7} " + " ".join(f"{x:5.1f}" for x in row) + f"  {sum(row):5.1f}")
    if args.exact:
        print("discs lost")
        for n in names:
            row = [discs.get((n, e), 0) for e in empties]
            print(f"{n:<7} " + " ".join(f"{x:5d}" for x in row) + f"  {sum(row):5d}")


if __name__ == "__main__":
    main()
