#!/usr/bin/env python3
"""Two versions of an engine against the same opponent, interleaved a few openings at a time, so
that both meet the same drift of the host's speed.

A time ratio against an opponent is only comparable with another measured in the same sitting:
the shipped level 17 took 0.89x NTest's time on one host and 0.93x on a slower one, identical
games (thirty-first session), and a host's speed can drift twofold within a sitting. This runs
`oxello match` for openings 1..K with the candidate as engine A, then the same K with the
baseline, then K+1..2K with the baseline first, and so on (A B B A ...), appending each batch's
games to CANDIDATE.ggf and BASELINE.ggf in OUT. Stopped, it resumes where it was (a batch is
redone whole if it was cut). At the end, and with `--report` at any time, it prints each side's
score, both time ratios (engine A's thinking time over the opponent's) and the paired difference
(`paired_points.py`).

Usage: benches/interleaved.py --oxello BIN --openings FILE --count N [--batch 10] --out DIR
       --candidate "ENGINE A" --baseline "ENGINE A" --opponent "ENGINE B" [--report]
ENGINE strings are `oxello match` engine lines, e.g. "gtp:taskset -c 1 oxello --params P gtp
--threads 1 --no-book --level 17" and "nboard:depth=16:taskset -c 1 ntest-wrapper.sh".
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_points import points, time_bands  # noqa: E402


def ggf_games(path):
    if not os.path.exists(path):
        return []
    return [line for line in open(path) if "GM[Othello]" in line]


def run_batch(args, engine, openings, path, tmp):
    """Plays `openings` (both colours) with `engine` as A and appends the games to `path`."""
    with open(os.path.join(tmp, "openings.txt"), "w") as f:
        f.writelines(openings)
    part = os.path.join(tmp, "part.ggf")
    if os.path.exists(part):
        os.remove(part)
    cmd = [args.oxello, "match", "--engine-a", engine, "--engine-b", args.opponent,
           "--openings", os.path.join(tmp, "openings.txt"), "--count", str(len(openings)), "--ggf", part]
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    games = ggf_games(part)
    if done.returncode != 0 or len(games) != 2 * len(openings):
        sys.exit(f"match failed ({done.returncode}, {len(games)} games): {' '.join(cmd)}")
    with open(path, "a") as f:
        f.writelines(games)


def report(cand, base):
    for name, path in (("candidate", cand), ("baseline", base)):
        p = points(path) if os.path.exists(path) else []
        if not p:
            print(f"{name}: no games")
            continue
        t = time_bands(path, 64)
        a, b = sum(t["A"].values()), sum(t["B"].values())
        ratio = f"{a / b:.3f}x" if b > 0 else "n/a"
        print(f"{name}: {len(p)} games, A {100 * sum(x for x, _ in p) / len(p):.1f} %, "
              f"time A/B {a:.1f} s / {b:.1f} s = {ratio}")
    if os.path.exists(cand) and os.path.exists(base) and min(len(points(cand)), len(points(base))) >= 2:
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "paired_points.py"),
                        base, cand], check=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oxello", default="oxello")
    ap.add_argument("--openings", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--out", required=True)
    ap.add_argument("--candidate", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--opponent", required=True)
    ap.add_argument("--report", action="store_true", help="only print the figures so far")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cand, base = os.path.join(args.out, "CANDIDATE.ggf"), os.path.join(args.out, "BASELINE.ggf")
    if args.report:
        report(cand, base)
        return
    lines = [line for line in open(args.openings) if line.strip() and not line.startswith("#")][: args.count]
    batches = [lines[i : i + args.batch] for i in range(0, len(lines), args.batch)]
    for k, batch in enumerate(batches):
        before = 2 * sum(len(b) for b in batches[:k])
        order = [(args.candidate, cand), (args.baseline, base)]
        if k % 2 == 1:
            order.reverse()
        for engine, path in order:
            games = ggf_games(path)
            if len(games) >= before + 2 * len(batch):
                continue
            # A batch cut short is played again whole: drop its games.
            with open(path, "w") as f:
                f.writelines(games[:before])
            run_batch(args, engine, batch, path, args.out)
        print(f"openings {before // 2 + 1}-{before // 2 + len(batch)} done", flush=True)
    report(cand, base)


if __name__ == "__main__":
    main()
