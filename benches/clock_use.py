#!/usr/bin/env python3
"""Clock use of one player in a match's GGF file (`oxello match --ggf`): per game the share of
its clock (TI) the player used, its longest move, and the forfeits it lost.

Usage: benches/clock_use.py GAMES.ggf [PLAYER] [CLOCK_SECONDS]
PLAYER is the PB/PW name (default A). CLOCK_SECONDS stands in for TI when the match gave no
clock (an engine that counts its own, `--game-time`). Games that ended early (a forfeit, e.g.
the opponent's clock) are left out of the mean share, since their clocks stopped early."""
import re
import sys


def seconds(ti):
    # [[d.]h:]m:s, then /increment/grace.
    main = ti.split("/")[0]
    total = 0.0
    for part in main.split(":"):
        total = total * 60 + float(part or 0)
    return total


def main():
    path = sys.argv[1]
    player = sys.argv[2] if len(sys.argv) > 2 else "A"
    fixed = float(sys.argv[3]) if len(sys.argv) > 3 else None
    shares, longest, lost, games, early = [], (0.0, ""), 0, 0, 0
    for n, line in enumerate(open(path), 1):
        if "GM[" not in line:
            continue
        games += 1
        colour = "B" if f"PB[{player}]" in line else "W" if f"PW[{player}]" in line else None
        if colour is None:
            continue
        ti = re.search(r"TI\[([^\]]*)\]", line)
        clock = fixed if fixed else (seconds(ti.group(1)) if ti else None)
        times = [float(t or 0) for t in re.findall(rf"(?<![A-Z]){colour}\[[A-Za-z0-9]+/[^/\]]*/([0-9.eE-]+)\]", line)]
        used = sum(times)
        for t in times:
            if t > longest[0]:
                longest = (t, f"game {n}")
        re_ = re.search(r"RE\[([^\]]*)\]", line).group(1)
        if re_.endswith((":t", ":r")):
            # The match runner writes a forfeit (time, illegal move, crash) as a resignation,
            # its score negative from Black's view when Black lost; its log says which kind.
            score = float(re_.split(":")[0])
            if (score < 0) == (colour == "B"):
                lost += 1
            early += 1
            continue
        if clock:
            shares.append(used / clock)
    if shares:
        print(f"{player}: {games} games, {len(shares)} complete: clock used mean {100 * sum(shares) / len(shares):.1f} %, "
              f"min {100 * min(shares):.1f} %, max {100 * max(shares):.1f} %")
    print(f"{player}: longest move {longest[0]:.3f} s ({longest[1]}); forfeits lost: {lost} (the match log names the kind); games ended early: {early}")


if __name__ == "__main__":
    main()
