#!/usr/bin/env python3
"""Where an SPRT stands over the games of one or more `oxello match --ggf` files (engine A
against engine B, the same two engines in every file): A's wins, draws and losses summed, the
score, the log-likelihood ratio and the verdict, with the formulas of
`src/tools/enginematch/sprt.rs`: over each opening's pair of games, colours swapped (the
pentanomial model, the verdict `oxello match --sprt` gives since the fifty-eighth session), and
per game (the trinomial model, printed beside it; the verdict where a file's games are not in
colour-swapped pairs, as with `--a-to-move`). It lets one test run
as several workers, one a core, each on its own part of an openings file (for example the
file from the front on one core and reversed on the other), the stop rule checked on the sum,
as fishtest does. Also A's and B's thinking time, summed.

Usage: benches/sprt_status.py --sprt 0,15 A.ggf [B.ggf ...] [--alpha 0.05 --beta 0.05]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lost_points import games  # noqa: E402
from paired_points import points  # noqa: E402


def expected_score(elo):
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def llr(elo0, elo1, wins, draws, losses):
    n = wins + draws + losses
    if n == 0:
        return 0.0
    mean = (wins + 0.5 * draws) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    mid = (s0 + s1) / 2
    var = max(mid * (1 - mid) - draws / (n + 1) / 4, 1e-6)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


PRIOR_PAIRS = 50.0


def llr_pairs(elo0, elo1, pairs, draws):
    """`pairs[k]`: pairs in which A scored k half-points; `draws`: drawn games among them."""
    n = sum(pairs)
    if n == 0:
        return 0.0
    xs = [k / 4 for k in range(5)]
    mean = sum(c * x for c, x in zip(pairs, xs)) / n
    observed = sum(c * (x - mean) ** 2 for c, x in zip(pairs, xs)) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    mid = (s0 + s1) / 2
    independent = max(mid * (1 - mid) - draws / (2 * n + 1) / 4, 1e-6) / 2
    var = max((n * observed + PRIOR_PAIRS * independent) / (n + PRIOR_PAIRS), 1e-6)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ggf", nargs="+")
    ap.add_argument("--sprt", required=True, help="ELO0,ELO1")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args()
    elo0, elo1 = (float(x) for x in args.sprt.split(","))
    if elo1 <= elo0:
        sys.exit("--sprt: ELO1 must be above ELO0")
    wins = draws = losses = 0
    pairs, pair_draws, paired = [0] * 5, 0, True
    seconds = {"A": 0.0, "B": 0.0}
    for path in args.ggf:
        pc = points(path)
        p = [x for x, _ in pc]
        for k in range(0, len(pc) - 1, 2):
            (x, cx), (y, cy) = pc[k], pc[k + 1]
            if (cx, cy) != ("B", "W"):
                paired = False
                break
            pairs[int(round(2 * (x + y)))] += 1
            pair_draws += (x == 0.5) + (y == 0.5)
        w, d, l_ = p.count(1.0), p.count(0.5), p.count(0.0)
        print(f"{path}: {len(p)} games, A +{w} ={d} -{l_}")
        wins, draws, losses = wins + w, draws + d, losses + l_
        for plies in games(path):
            for _board, _side, _mv, player, sec in plies:
                if sec is not None:
                    seconds[player] += sec
    n = wins + draws + losses
    if n == 0:
        sys.exit("no games")
    score = (wins + 0.5 * draws) / n
    clipped = min(max(score, 1e-3), 1 - 1e-3)
    elo = -400 * math.log10(1 / clipped - 1)
    lo, hi = math.log(args.beta / (1 - args.alpha)), math.log((1 - args.beta) / args.alpha)
    per_game = llr(elo0, elo1, wins, draws, losses)
    value = llr_pairs(elo0, elo1, pairs, pair_draws) if paired else per_game
    verdict = "H1 accepted" if value >= hi else "H0 accepted" if value <= lo else "no decision"
    model = f"{sum(pairs)} pairs {pairs}, per game {per_game:+.2f}" if paired else "per game"
    ratio = seconds["A"] / seconds["B"] if seconds["B"] > 0 else float("nan")
    print(
        f"all: {n} games, A +{wins} ={draws} -{losses}, {100 * score:.1f} %, Elo {elo:+.0f}; "
        f"LLR {value:+.2f} ({lo:+.2f} .. {hi:+.2f}; {model}), {verdict}; "
        f"thinking time A {seconds['A']:.1f} s, B {seconds['B']:.1f} s ({ratio:.2f}x)"
    )


if __name__ == "__main__":
    main()
