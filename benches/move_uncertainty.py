#!/usr/bin/env python3
"""Within-position analysis of the risk style's per-move uncertainty measurement (issue 22).

The style compares the moves of one position, so a per-move source of uncertainty must predict
how far a move's value moves with depth relative to its siblings'. This reads the samples that
`RISK_SAMPLES=FILE RISK_LOW=D cargo run --release --example risk_move_uncertainty`
writes (one root move's child a line: position, error v(D + 6) - v(D), the error
model's σ, the features, the values at depths 1..=D + 6; a header line names the columns) and
prints, per feature, with feature and error both centred on their position's mean: the
correlation of the feature with |error|, with error², and with |move-specific error| (the
error minus its position's mean: the shared part cancels between siblings); and the RMS of the
move-specific error in the lowest and highest tenth of the centred feature (with the feature's
own mean there: for the style's own sd, the ratio the style assumes).

Usage: benches/move_uncertainty.py FILE D
"""
import math
import statistics
import sys
from collections import defaultdict

def correlation(x, y):
    mx, my = statistics.mean(x), statistics.mean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def main():
    path, depth = sys.argv[1], int(sys.argv[2])
    lines = [line.strip() for line in open(path) if line.strip()]
    # The header names the columns: position, error, sigma, the features, v1..v(D + 6).
    names = lines[0].split(",")
    features = names[3 : names.index("v1")]
    rows = [list(map(float, line.split(","))) for line in lines[1:]]
    groups = defaultdict(list)
    for i, r in enumerate(rows):
        groups[int(r[0])].append(i)

    def centred(x):
        out = [0.0] * len(x)
        for g in groups.values():
            m = sum(x[i] for i in g) / len(g)
            for i in g:
                out[i] = x[i] - m
        return out

    error = [r[1] for r in rows]
    own = centred(error)
    rms = lambda xs: math.sqrt(statistics.mean(x * x for x in xs))
    print(
        f"{path}: depth {depth} against {depth + 6}, {len(rows)} children of {len(groups)} positions; "
        f"error RMS {rms(error):.2f}, move-specific {rms(own):.2f}; "
        f"a correlation's standard error about {1 / math.sqrt(len(rows)):.3f}"
    )
    for k, name in enumerate(features):
        raw = [r[3 + k] for r in rows]
        f = centred(raw)
        if not any(f):
            continue
        order = sorted(range(len(rows)), key=lambda i: f[i])
        tenth = len(order) // 10
        low, high = rms([own[i] for i in order[:tenth]]), rms([own[i] for i in order[-tenth:]])
        print(
            f"  {name}: r with |error| {correlation(f, centred([abs(e) for e in error])):+.3f}, "
            f"error² {correlation(f, centred([e * e for e in error])):+.3f}, "
            f"|move-specific| {correlation(f, centred([abs(e) for e in own])):+.3f}; "
            f"move-specific RMS lowest / highest tenth {low:.2f} / {high:.2f} ({high / low:.2f}x; "
            f"the feature there {statistics.mean(raw[i] for i in order[:tenth]):.2f} / "
            f"{statistics.mean(raw[i] for i in order[-tenth:]):.2f})"
        )


if __name__ == "__main__":
    main()
