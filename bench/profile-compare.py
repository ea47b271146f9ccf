#!/usr/bin/env python3
"""Compares the frames of a symbolized profile, as `go tool pprof -raw -symbolize=none` prints its
locations, with llvm-symbolizer-22's JSON answers for the same (module, address) pairs
(bench/profile-vs-llvm.sh). pprof renumbers the locations it prints and leaves out those no sample
names, so they are matched by process address: SPEC's `location ID MAPPING ADDRESS` lines are in the
order of llvm's answers. Prints the counts; exits 1 if fewer than MIN (default 0.999) of the
locations agree.

usage: profile-compare.py RAW.txt LLVM.json SPEC [MIN]
"""
import json
import re
import sys

raw_path, llvm_path, spec_path = sys.argv[1], sys.argv[2], sys.argv[3]
minimum = float(sys.argv[4]) if len(sys.argv) > 4 else 0.999
LOC = re.compile(r"^\s*(\d+): 0x([0-9a-f]+) M=\d+ ?(.*)$")
FRAME = re.compile(r"^(.*) (\S*):(-?\d+) s=\d+(?:\(.*\))?$")

ours = {}
frames_of = None
section = False
with open(raw_path, encoding="utf-8", errors="surrogateescape") as f:
    for line in f:
        line = line.rstrip("\n")
        if line == "Locations":
            section = True
            continue
        if not section:
            continue
        if line.startswith("Mappings"):
            break
        m = LOC.match(line)
        if m:
            frames_of = ours.setdefault(int(m.group(2), 16), [])
            rest = m.group(3)
        else:
            rest = line.strip()
        if not rest:
            continue
        fm = FRAME.match(rest)
        if fm:
            frames_of.append((fm.group(1), fm.group(2), int(fm.group(3))))

llvm = []
with open(llvm_path, encoding="utf-8", errors="surrogateescape") as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        o = json.loads(line)
        frames = []
        for s in o.get("Symbol", []):
            if s.get("FunctionName", "") in ("", "??") and not s.get("FileName"):
                continue
            frames.append((s["FunctionName"], s.get("FileName", ""), s.get("Line", 0)))
        llvm.append(frames)

addresses = []
with open(spec_path) as f:
    for line in f:
        p = line.split()
        if p and p[0] == "location":
            addresses.append(int(p[3], 16))
if len(addresses) != len(llvm):
    print(f"locations: spec {len(addresses)}, llvm {len(llvm)}")
    sys.exit(1)
same = unknown_both = differ = 0
examples = []
for address, b in zip(addresses, llvm):
    if address not in ours:
        continue  # no sample names it: pprof leaves it out
    a = ours[address]
    if a == b:
        same += 1
        if not a:
            unknown_both += 1
    else:
        differ += 1
        if len(examples) < 5:
            examples.append((address, a, b))
n = same + differ
print(f"frames compared: {n} locations (those samples name), {same} identical ({unknown_both} without a function"
      f" in both), {differ} differ")
for e in examples:
    print(f"  {e[0]:#x}: ours {e[1]}\n               llvm {e[2]}")
sys.exit(0 if n == len(ours) and same >= minimum * n else 1)
