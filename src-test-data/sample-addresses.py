#!/usr/bin/env python3
"""Prints N random addresses inside the functions of llvm-gsymutil-22's OWN dump text (stdin).

Usage: llvm-gsymutil-22 X.gsym | sample-addresses.py SEED [N]

Each address is a byte chosen uniformly among the bytes of the FunctionInfos with a size (every
byte of every function weighs the same; an address may repeat), in the order drawn, one hex address
per line. SEED (any text, e.g. the binary's name) makes the draw deterministic: Python's
random.Random(SEED) with integer draws only, which gives the same numbers on every platform.
"""
import bisect
import random
import re
import sys

FUNC = re.compile(r'^FunctionInfo @ 0x[0-9a-f]{8}: \[0x([0-9a-f]{16}) - 0x([0-9a-f]{16})\) "')


def main():
    seed = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    sys.stdin.reconfigure(errors='surrogateescape')  # names need not be UTF-8
    ranges = set()
    for line in sys.stdin:
        m = FUNC.match(line)
        if m:
            s, e = int(m.group(1), 16), int(m.group(2), 16)
            if e > s:
                ranges.add((s, e))
    ranges = sorted(ranges)
    if not ranges:
        sys.exit('sample-addresses.py: no function with a size in the dump')
    ends = []  # cumulative sizes
    total = 0
    for s, e in ranges:
        total += e - s
        ends.append(total)
    rnd = random.Random(seed)
    for _ in range(n):
        k = rnd.randrange(total)
        i = bisect.bisect_right(ends, k)
        s, e = ranges[i]
        print('0x%x' % (s + k - (ends[i] - (e - s))))


if __name__ == '__main__':
    main()
