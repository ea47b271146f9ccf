#!/usr/bin/env python3
"""Derives lookup addresses from llvm-gsymutil-22's OWN dump text (read on stdin).

Prints one hex address per line, sorted and unique:
  * every FunctionInfo (and merged child) start, middle, last byte and one past the end,
  * every line-table row address and every inline range start/end,
  * one address below the first function (if the first start is > 0),
  * one address far above the last function end.
With --verbose-subset, prints a smaller subset: every function start and
middle, plus the below/above addresses.
"""
import re
import sys

MASK = (1 << 64) - 1
RANGE = re.compile(r'\[0x([0-9a-f]{16}) - 0x([0-9a-f]{16})\)')
ROW = re.compile(r'^ +0x([0-9a-f]{16}) ')
FUNC = re.compile(r'^(?:FunctionInfo @ 0x[0-9a-f]{8}: | +)\[0x([0-9a-f]{16}) - 0x([0-9a-f]{16})\) "')


def main():
    subset = '--verbose-subset' in sys.argv[1:]
    addrs = set()
    starts, ends = [], []
    sys.stdin.reconfigure(errors='surrogateescape')  # names and paths need not be UTF-8
    for line in sys.stdin:
        line = line.rstrip('\n')
        m = FUNC.match(line)
        if m:
            s, e = int(m.group(1), 16), int(m.group(2), 16)
            starts.append(s)
            ends.append(e)
            addrs.add(s)
            if e > s:
                addrs.add(s + (e - s) // 2)
                if not subset:
                    addrs.add(e - 1)
            if not subset:
                addrs.add(e)
            continue
        if subset:
            continue
        m = ROW.match(line)
        if m:
            addrs.add(int(m.group(1), 16))
            continue
        if line.lstrip().startswith('[0x'):
            for s, e in RANGE.findall(line):
                addrs.add(int(s, 16))
                addrs.add(int(e, 16))
    if starts:
        lo = min(starts)
        if lo > 0:
            addrs.add(lo - 1)
        hi = max(ends + starts)
        addrs.add(min(hi + 0x100000, MASK))
    for a in sorted(a & MASK for a in addrs):
        print('0x%x' % a)


if __name__ == '__main__':
    main()
