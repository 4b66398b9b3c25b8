#!/usr/bin/env python3
"""Score of engine A in `oxello match` GGF files, with a standard error that counts repeated
games once: games that repeat move for move (two deterministic engines out of a book) are one
cluster, and the error is the cluster-robust one. The naive binomial error assumes independent
games and overstates any difference when a few lines come back many times.

Usage: benches/clustered_score.py GAMES.ggf...
"""
import collections
import math
import re
import sys


def main():
    for path in sys.argv[1:]:
        clusters = collections.defaultdict(list)
        with open(path) as f:
            text = f.read()
        for game in text.split("(;")[1:]:
            black = re.search(r"PB\[([^\]]*)\]", game).group(1)
            result = float(re.search(r"RE\[([^\]]*)\]", game).group(1))
            moves = " ".join(re.findall(r"[BW]\[([A-Ha-h][1-8]|PA|pass)", game)).lower()
            colour = "B" if black == "A" else "W"
            discs = result if colour == "B" else -result
            clusters[(colour, moves)].append(1.0 if discs > 0 else 0.5 if discs == 0 else 0.0)
        scores = [s for c in clusters.values() for s in c]
        n, g = len(scores), len(clusters)
        if n == 0:
            print(f"{path}: no games")
            continue
        mean = sum(scores) / n
        var = sum((sum(c) - len(c) * mean) ** 2 for c in clusters.values()) / n**2
        if g > 1:
            var *= g / (g - 1)
        naive = math.sqrt(mean * (1 - mean) / n)
        print(
            f"{path}: {n} games, {g} distinct, score {100 * mean:.1f} % "
            f"± {100 * math.sqrt(var):.1f} (clustered standard error; binomial {100 * naive:.1f})"
        )


if __name__ == "__main__":
    main()
