#!/usr/bin/env python3
"""Per-opening comparison of match results (benches/risk.sh's GGF files, issue 22).

For each GGF file: A's W-D-L and mean disc margin (A is black or white as PB/PW say; RE from
black's side). For every pair of files: the games matched by their opening (the first 10 plies),
the mean of the differences of A's margins with a 95 % normal interval, how many came out
identical, and t. The same openings in two runs make these paired differences much tighter than
the difference of two means.

Usage: benches/risk_paired.py A.ggf B.ggf [C.ggf ...]
"""
import itertools
import math
import re
import statistics
import sys


def margins(path):
    out = {}
    for game in open(path).read().split("(;")[1:]:
        black = re.search(r"PB\[([^\]]*)\]", game).group(1)
        result = float(re.search(r"RE\[([^\]]*)\]", game).group(1).split(":")[0])
        moves = re.findall(r"[BW]\[([A-Ha-h][1-8]|PA|pa)", game)
        out["".join(m.lower() for m in moves[:10])] = result if black == "A" else -result
    return out


def main():
    data = {path: margins(path) for path in sys.argv[1:]}
    for path, games in data.items():
        m = list(games.values())
        wins, draws, losses = sum(x > 0 for x in m), sum(x == 0 for x in m), sum(x < 0 for x in m)
        print(f"{path}: {len(m)} games, A {wins}-{draws}-{losses}, {statistics.mean(m):+.2f} discs a game")
    for a, b in itertools.combinations(sys.argv[1:], 2):
        keys = sorted(set(data[a]) & set(data[b]))
        if len(keys) < 2:
            continue
        d = [data[a][k] - data[b][k] for k in keys]
        mean, se = statistics.mean(d), statistics.stdev(d) / math.sqrt(len(d))
        print(
            f"{a} - {b}: {len(keys)} openings, {mean:+.2f} discs (95 %: {mean - 1.96 * se:+.2f} .. "
            f"{mean + 1.96 * se:+.2f}), identical {sum(x == 0 for x in d)}, t = {mean / se:.2f}"
        )


if __name__ == "__main__":
    main()
