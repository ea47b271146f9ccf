#!/usr/bin/env python3
"""Compares the frames of a symbolized profile, as `go tool pprof -raw -symbolize=none` prints its
locations, with llvm-symbolizer-22's JSON answers for the same (module, address) pairs, in location
order (bench/profile-vs-llvm.sh). Prints the counts; exits 1 if fewer than MIN (default 0.999) of
the locations agree.

usage: profile-compare.py RAW.txt LLVM.json [MIN]
"""
import json
import re
import sys

raw_path, llvm_path = sys.argv[1], sys.argv[2]
minimum = float(sys.argv[3]) if len(sys.argv) > 3 else 0.999
LOC = re.compile(r"^\s+(\d+): 0x[0-9a-f]+ M=\d+ ?(.*)$")
FRAME = re.compile(r"^(.*) (\S*):(-?\d+) s=\d+(?:\(.*\))?$")

ours = []
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
            ours.append([])
            rest = m.group(2)
        else:
            rest = line.strip()
        if not rest:
            continue
        fm = FRAME.match(rest)
        if fm:
            ours[-1].append((fm.group(1), fm.group(2), int(fm.group(3))))

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

if len(ours) != len(llvm):
    print(f"locations: ours {len(ours)}, llvm {len(llvm)}")
    sys.exit(1)
same = unknown_both = differ = 0
examples = []
for i, (a, b) in enumerate(zip(ours, llvm)):
    if a == b:
        same += 1
        if not a:
            unknown_both += 1
    else:
        differ += 1
        if len(examples) < 5:
            examples.append((i + 1, a, b))
n = len(ours)
print(f"frames compared: {n} locations, {same} identical ({unknown_both} without a function in both), {differ} differ")
for e in examples:
    print(f"  location {e[0]}: ours {e[1]}\n               llvm {e[2]}")
sys.exit(0 if same >= minimum * n else 1)
