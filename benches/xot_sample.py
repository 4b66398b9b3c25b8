#!/usr/bin/env python3
"""A fixed sample of XOT openings for matches and held-out test sets.

The XOT list (created by Matthias Berg; Egaroucid ships it as
bin/resources/xot/openingslarge.txt, 10,784 lines) is not in this repository: pass its path.
Lines numbered (from 1) by a multiple of 10 are reserved: the corpus generator never starts a
game from them (`oxello corpus generate --xot FILE --reserve 10`), so the evaluation is judged
on openings it was not trained from. This prints COUNT of the reserved lines, chosen with SEED
(Python's random.Random(SEED).sample, stable across Python versions), in file order.

Usage: benches/xot_sample.py openingslarge.txt [--seed 1] [--count 100] > xot-100.txt
The XOT figures of docs/figures.md (the README's strength table) use --seed 1 --count 100.
"""
import argparse
import hashlib
import random
import sys

p = argparse.ArgumentParser()
p.add_argument("file")
p.add_argument("--seed", type=int, default=1)
p.add_argument("--count", type=int, default=100)
p.add_argument("--reserve", type=int, default=10)
a = p.parse_args()
data = open(a.file, "rb").read()
lines = data.decode().splitlines()
reserved = [l.strip() for i, l in enumerate(lines, 1) if i % a.reserve == 0 and l.strip()]
if a.count > len(reserved):
    sys.exit(f"{a.file}: {len(reserved)} reserved lines, fewer than --count {a.count}")
picked = sorted(random.Random(a.seed).sample(range(len(reserved)), a.count))
print(f"{a.file}: sha256 {hashlib.sha256(data).hexdigest()[:16]}, {len(reserved)} reserved lines, "
      f"seed {a.seed}", file=sys.stderr)
for k in picked:
    print(reserved[k])
