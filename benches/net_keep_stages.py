#!/usr/bin/env python3
"""A copy of a `net.bin` (the non-linear layer, `src/eval/net.rs`) that keeps only the stages up
to MAX_STAGE, so that an engine given `--params DIR` with it reads the layer only where few
squares are empty (stage = empties / 6: stage 3 is 18-23 empties). For measurements such as the
forty-fourth session's (docs/training.md): which stages of the layer pay for their time.

The file: magic `OXNT`, four little-endian u32 (version, pattern set, units, stage mask), then
each stage in the mask in order (a bitmap of its non-zero rows over STAGE_WEIGHTS rows, the
kept rows as i16 × units, then c, v as f32 × units and the bias as f32), then an FNV-1a (32-bit)
checksum of everything before it. STAGE_WEIGHTS is read from the matching `eval.bin` header.

Usage: benches/net_keep_stages.py params/net.bin params/eval.bin OUT/net.bin MAX_STAGE
"""
import struct
import sys


def fnv1a(data):
    h = 0x811C9DC5
    for x in data:
        h = ((h ^ x) * 0x01000193) & 0xFFFFFFFF
    return h


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    src, eval_bin, dst, max_stage = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    stage_weights = struct.unpack_from("<4I", open(eval_bin, "rb").read(), 4)[3]
    b = open(src, "rb").read()
    if b[:4] != b"OXNT" or struct.unpack_from("<I", b, len(b) - 4)[0] != fnv1a(b[:-4]):
        sys.exit(f"{src}: not a net.bin, or damaged (magic or checksum)")
    version, pattern_set, units, mask = struct.unpack_from("<4I", b, 4)
    pos, blocks = 20, []
    for stage in (s for s in range(32) if mask >> s & 1):
        start = pos
        bitmap = b[pos : pos + (stage_weights + 7) // 8]
        rows = sum(bin(x).count("1") for x in bitmap)
        pos += len(bitmap) + rows * units * 2 + (2 * units + 1) * 4
        blocks.append((stage, b[start:pos]))
    if pos != len(b) - 4:
        sys.exit(f"{src}: stages end at byte {pos}, the file at {len(b) - 4}: another eval.bin's layout?")
    keep = [(s, blk) for s, blk in blocks if s <= max_stage]
    out = b"OXNT" + struct.pack("<4I", version, pattern_set, units, sum(1 << s for s, _ in keep))
    out += b"".join(blk for _, blk in keep)
    out += struct.pack("<I", fnv1a(out))
    open(dst, "wb").write(out)
    print(f"{dst}: stages {[s for s, _ in keep]} of {[s for s, _ in blocks]}, {len(out)} bytes")


if __name__ == "__main__":
    main()
