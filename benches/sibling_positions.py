#!/usr/bin/env python3
"""Positions the games did not choose, as eval-mae records: the deep siblings of corpus shards.

    benches/sibling_positions.py [--held-out] [--min E] [--max E] SHARD.oxc ...

Reads corpus shards (format versions 1-3, corpus/README.md), replays each game and prints every
deep sibling (the child after a move not played) with `min`..`max` empties (default 30-44)
whose mover has a move, as a text record `<64 squares> <X|O> <value> game` under a
`# game N` line (N = the game's number, so `eval-mae` takes at most one per game and empties
count). `--held-out`: only games numbered 9 mod 10. The labels are the generator's shallow
values, marked `game` so that `eval-mae --reference-depth 16` searches a reference for each.

benches/data/mae-sib-30-44.txt was made so (nineteenth session):
    oxello corpus generate --dir T --run xot-sib-test --openings RESERVED --reserve 0 \
        --games 200 --chunk-games 200 --threads 1 --siblings 0-0 --deep-depth 2 \
        --deep-every 1 --deep-empties 30-45 --deep-siblings 1 --deep-sibling-depth 2 --seed 1002
    benches/sibling_positions.py T/xot-sib-test/c000000.oxc > sib.txt
    oxello eval-mae --data sib.txt --any-game --positions 300 --min-empties 30 \
        --max-empties 44 --reference-depth 16 --save benches/data/mae-sib-30-44.txt
where RESERVED is every 10th line of the XOT list (benches/xot_sample.py), lines no corpus run
starts from.

benches/data/mae-sib-20-24.txt (twentieth session): 300 such positions at 20-24 empties from
the held-out games (numbered 9 mod 10, never trained on) of two shards of the run
xot-d4-e20-ds-s7, each with its exact score:
    benches/sibling_positions.py --held-out --min 20 --max 24 \
        corpus/xot-d4-e20-ds-s7/c000000.oxc corpus/xot-d4-e20-ds-s7/c000001.oxc > sib20.txt
    oxello eval-mae --data sib20.txt --any-game --positions 300 --min-empties 20 \
        --max-empties 24 --save benches/data/mae-sib-20-24.txt
"""
import struct
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def other(side):
    return "O" if side == "X" else "X"


def flips(board, side, sq):
    if board[sq] != "-":
        return []
    r, c = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        rr, cc, line = r + dr, c + dc, []
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == other(side):
            line.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == side:
            out += line
    return out


def has_move(board, side):
    return any(flips(board, side, s) for s in range(64))


def play(board, side, sq):
    f = flips(board, side, sq)
    if not f:
        raise ValueError(f"illegal move {sq}")
    board = board[:]
    for s in f + [sq]:
        board[s] = side
    return board


def line_positions(moves):
    """(board, side to move) of each position of a game in which one of `moves` is played."""
    board = ["-"] * 64
    board[27] = board[36] = "O"
    board[28] = board[35] = "X"
    side, line = "X", []
    for m in moves:
        if not has_move(board, side):
            side = other(side)
        line.append((board, side))
        board = play(board, side, m)
        side = other(side)
    return line


def games(path):
    """(index, moves, deep siblings [(position, square, value)]) of each game of a shard."""
    d = open(path, "rb").read()
    if d[:4] != b"OXCS":
        sys.exit(f"{path}: not a corpus shard")
    (version,) = struct.unpack_from("<I", d, 4)
    (hl,) = struct.unpack_from("<I", d, 8)
    at = 12 + hl
    (count,) = struct.unpack_from("<I", d, at)
    at += 4
    for _ in range(count):
        (index,) = struct.unpack_from("<I", d, at)
        at += 4 + 1 + 1 + 4
        n = d[at]
        moves = list(d[at + 1 : at + 1 + n])
        at += 1 + n + 1 + 1
        at += 1 + d[at]  # search labels
        at += 1 + 4 * d[at]  # deep labels
        (b,) = struct.unpack_from("<H", d, at)
        at += 2 + 3 * b  # exact siblings
        deep = []
        if version >= 2:
            (k,) = struct.unpack_from("<H", d, at)
            at += 2
            for j in range(k):
                p, sq, _depth, _sel, v = d[at + 5 * j : at + 5 * j + 5]
                deep.append((p, sq, v - 256 if v > 127 else v))
            at += 5 * k
        if version >= 3:
            (w,) = struct.unpack_from("<H", d, at)
            at += 2
            for _ in range(w):
                at += 3 + d[at + 1]  # position, move count, squares, value
        yield index, moves, deep


def main():
    args = sys.argv[1:]
    held_out, lo, hi, files = False, 30, 44, []
    while args:
        a = args.pop(0)
        if a == "--held-out":
            held_out = True
        elif a == "--min":
            lo = int(args.pop(0))
        elif a == "--max":
            hi = int(args.pop(0))
        else:
            files.append(a)
    for path in files:
        for index, moves, deep in games(path):
            if held_out and index % 10 != 9:
                continue
            line = line_positions(moves)
            for p, sq, v in deep:
                pb, ps = line[p]
                child, mover = play(pb, ps, sq), other(ps)
                if lo <= child.count("-") <= hi and has_move(child, mover):
                    print(f"# game {index}")
                    print("".join(child), mover, v, "game")


if __name__ == "__main__":
    main()
