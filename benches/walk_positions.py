#!/usr/bin/env python3
"""Positions like a search's leaves: random walks off the played line of corpus games.

    benches/walk_positions.py [--held-out | --training] [--from LO-HI] [--plies LO-HI]
                              [--walks K] [--seed S] SHARD.oxc ...

A search from a position of the game looks at positions several plies away, after poor moves
by both sides, which no played line and no sibling (one move off the line) reaches. For every
position of a game with `from` empties (default 20-24), K walks (default 2) each play a number
of plies drawn from `plies` (default 6-8) of uniformly random legal moves (a pass where the
mover has none; a walk that reaches the end is dropped) and print the position reached as an
eval-mae record `<64 squares> <X|O> 0 game` under a `# game N` line of its own (N = the
game's number × 1000 + 10 × the walk's number + the game's last digit: eval-mae takes one
position per game, so each walk is a game of its own, and N mod 10, the held-out split, is the
game's). `--held-out`: only games numbered 9 mod 10 (the ones no fit trains on); `--training`:
only the others.

Exact values, then (eval-mae solves each position and saves it as an `exact` record):
    benches/walk_positions.py --training corpus/xot-d4-e20-bl5-s9/c00003*.oxc > walks.txt
    oxello eval-mae --data walks.txt --any-game --positions 100000 --min-empties 10 \
        --max-empties 18 --depth 2 --save walks-exact.txt
"""
import random
import sys

from sibling_positions import flips, games, has_move, line_positions, other, play


def parse_range(s):
    lo, _, hi = s.partition("-")
    return int(lo), int(hi or lo)


def main():
    args = sys.argv[1:]
    which, frm, plies, walks, seed, files = None, (20, 24), (6, 8), 2, 1, []
    while args:
        a = args.pop(0)
        if a == "--held-out":
            which = 9
        elif a == "--training":
            which = -1
        elif a == "--from":
            frm = parse_range(args.pop(0))
        elif a == "--plies":
            plies = parse_range(args.pop(0))
        elif a == "--walks":
            walks = int(args.pop(0))
        elif a == "--seed":
            seed = int(args.pop(0))
        else:
            files.append(a)
    rng = random.Random(seed)
    for path in files:
        for index, moves, _deep in games(path):
            if which == 9 and index % 10 != 9 or which == -1 and index % 10 == 9:
                continue
            emitted = 0
            for board, side in line_positions(moves):
                if not frm[0] <= board.count("-") <= frm[1]:
                    continue
                for _ in range(walks):
                    b, s = board, side
                    for _ in range(rng.randint(*plies)):
                        legal = [q for q in range(64) if flips(b, s, q)]
                        if not legal:
                            s = other(s)
                            legal = [q for q in range(64) if flips(b, s, q)]
                            if not legal:
                                break
                        b = play(b, s, rng.choice(legal))
                        s = other(s)
                    if not has_move(b, s):
                        s = other(s)
                        if not has_move(b, s):
                            continue
                    # Walk numbers step by 10 so the game's last digit (its split) stays.
                    print(f"# game {index * 1000 + emitted * 10 + index % 10}")
                    print(f"{''.join(b)} {s} 0 game")
                    emitted += 1


if __name__ == "__main__":
    main()
