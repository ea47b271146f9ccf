#!/usr/bin/env python3
"""The description of a benchmark profile for src-test-data/profile/gen (bench/profile-vs-llvm.sh):
modules mapped as a process maps their executable segment (the file, its offset and build-id of
MODULE: the library itself), ADDRS distinct addresses spread over the functions (symbols with a
size, from its DEBUG file) of the modules in proportion to their code, uniform inside each chosen
function, then `random SAMPLES STACKS DEPTH 1`. Also writes the (module, address) pairs of every
location for llvm-symbolizer, in location order.

usage: profile-spec.py SPEC PAIRS ADDRS SAMPLES STACKS MODULE DEBUG BIAS [MODULE DEBUG BIAS...]
"""
import bisect
import random
import re
import subprocess
import sys

spec_path, pairs_path = sys.argv[1], sys.argv[2]
addrs, samples, stacks = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
mods = [(sys.argv[i], sys.argv[i + 1], int(sys.argv[i + 2], 0)) for i in range(6, len(sys.argv), 3)]
rnd = random.Random(1)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


info = []
for path, debug, bias in mods:
    bid = re.search(r"Build ID: ([0-9a-f]+)", run("readelf", "-nW", path)).group(1)
    if re.search(r"Build ID: ([0-9a-f]+)", run("readelf", "-nW", debug)).group(1) != bid:
        sys.exit(f"{debug} is not the debug file of {path}")
    seg = None
    for line in run("readelf", "-lW", path).splitlines():
        p = line.split()
        if p and p[0] == "LOAD" and "E" in p[6:-1]:
            seg = (int(p[1], 16), int(p[2], 16), int(p[5], 16))
    funcs = []
    for line in run("nm", "-S", "--defined-only", debug).splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTW" and int(p[1], 16) > 1:
            funcs.append((int(p[0], 16), int(p[1], 16)))
    funcs = sorted(set(funcs))
    cum, total = [], 0
    for a, s in funcs:
        total += s
        cum.append(total)
    info.append((path, bias, bid, seg, funcs, cum, total))

spec, pairs = [], []
grand = sum(i[6] for i in info)
loc = 0
for mid, (path, bias, bid, (off, vaddr, memsz), funcs, cum, total) in enumerate(info, start=1):
    start = bias + (vaddr & ~0xFFF)
    limit = bias + ((vaddr + memsz + 0xFFF) & ~0xFFF)
    spec.append(f"mapping {mid} {start:#x} {limit:#x} {off & ~0xFFF:#x} {path} {bid}")
    n = addrs * total // grand
    chosen = set()
    while len(chosen) < n:
        k = bisect.bisect_right(cum, rnd.randrange(total))
        a, s = funcs[k]
        chosen.add(a + rnd.randrange(s))
    for x in sorted(chosen):
        loc += 1
        spec.append(f"location {loc} {mid} {bias + x:#x}")
        pairs.append(f"{path} {x:#x}")  # as pprof runs llvm-symbolizer: on the module itself
spec.append(f"random {samples} {stacks} 24 1")
open(spec_path, "w").write("\n".join(spec) + "\n")
open(pairs_path, "w").write("\n".join(pairs) + "\n")
