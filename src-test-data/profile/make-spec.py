#!/usr/bin/env python3
"""Writes the description of synthetic.pb.gz (read by gen/main.go) and the module addresses of its
locations (for llvm-symbolizer-22), from the binaries' symbol tables and program headers.

Each module is placed as a process would map it: the executable PT_LOAD segment mapped at
BIAS + (p_vaddr rounded down to a page), from file offset p_offset rounded down, as /proc/PID/maps
and Go's runtime/pprof list it. A location's process address is BIAS + its module address.

Addresses with no function (past the last one in the executable segment) go to OUT_NOFUNCTION:
llvm-symbolizer names them after the nearest size-0 symbol (_fini), so their oracle is
llvm-gsymutil-22's lookup in its own GSYM of the module, which finds no function there.

usage: make-spec.py OUT_SPEC OUT_ADDRESSES OUT_NOFUNCTION  (run in src-test-data/profile)
"""
import re
import subprocess
import sys

MODULES = [  # path in the profile, file here, load bias
    ("/gsym-test/profile/bin/profdemo", "bin/profdemo", 0x555555554000),
    ("/gsym-test/profile/bin/libprofdemo.so", "bin/libprofdemo.so", 0x7f1234500000),
]


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def build_id(f):
    m = re.search(r"Build ID: ([0-9a-f]+)", run("llvm-readelf-22", "-n", f))
    return m.group(1)


def text_segment(f):
    for line in run("llvm-readelf-22", "-lW", f).splitlines():
        p = line.split()
        if p and p[0] == "LOAD" and "E" in p[6:-1]:
            return int(p[1], 16), int(p[2], 16), int(p[5], 16)
    raise SystemExit("no executable segment in " + f)


def functions(f):
    out = []
    for line in run("llvm-nm-22", "-S", "--defined-only", f).splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tT" and int(p[1], 16) > 0:
            out.append((int(p[0], 16), int(p[1], 16), p[3]))
    return sorted(set(out))


spec, addrs, nofunction = [], [], []
loc = 0
stacks = []
for mid, (path, here, bias) in enumerate(MODULES, start=1):
    off, vaddr, memsz = text_segment(here)
    start = bias + (vaddr & ~0xFFF)
    limit = bias + ((vaddr + memsz + 0xFFF) & ~0xFFF)
    spec.append(f"mapping {mid} {start:#x} {limit:#x} {off & ~0xFFF:#x} {path} {build_id(here)}")
    ids = []
    for (a, size, name) in functions(here):
        for x in sorted(set(range(a, a + size, max(1, size // 10))) | {a + size - 1}):
            loc += 1
            spec.append(f"location {loc} {mid} {bias + x:#x}")
            addrs.append(f"{loc} {here} {x:#x}")
            ids.append(loc)
    stacks.append(ids)
    # an address inside the mapping past the last function: no function there
    loc += 1
    x = ((vaddr + memsz + 0xFFF) & ~0xFFF) - 8
    spec.append(f"location {loc} {mid} {bias + x:#x}")
    nofunction.append(f"{loc} {here} {x:#x}")
    stacks[-1].append(loc)

# a module that is nowhere (missing module), a location without mapping, the vDSO, a Go binary's
# mapping whose locations the runtime symbolized, an address outside its mapping
spec.append("mapping 3 0x7f5500001000 0x7f5500003000 0x1000 /usr/lib/libgone.so.1 0123456789abcdef0123456789abcdef01234567")
spec.append("mapping 4 0x7ffd00000000 0x7ffd00002000 0 [vdso] -")
spec.append("mapping 5 0x400000 0x500000 0 /gsym-test/profile/bin/gobinary 9f1c2d3e4f5a6b7c8d9eaf/Go-build-id-xyz has_functions")
extra = []
for a in (0x7f5500001200, 0x7f5500002200):
    loc += 1
    spec.append(f"location {loc} 3 {a:#x}")
    extra.append(loc)
loc += 1
spec.append(f"location {loc} 0 0x12345678")
extra.append(loc)
loc += 1
spec.append(f"location {loc} 4 0x7ffd00000a10")
extra.append(loc)
loc += 1
spec.append(f"symbolized {loc} 5 0x401234 main.compute /gsym-test/profile/go/main.go 42")
extra.append(loc)
loc += 1
spec.append(f"symbolized {loc} 1 {MODULES[0][2] + 0x1000:#x} already.named /somewhere/else.c 7")
extra.append(loc)
loc += 1
spec.append(f"location {loc} 1 0x1000")  # below the mapping's start
extra.append(loc)

# samples: every location at least once, as leaf and as caller, in two-module stacks
exe, lib = stacks
n = 0
for i, leaf in enumerate(lib + exe + extra):
    callers = [exe[(i * 7) % len(exe)], exe[(i * 3 + 1) % len(exe)]]
    if i % 3 == 0:
        callers.insert(0, lib[(i * 5) % len(lib)])
    stack = ",".join(str(x) for x in [leaf] + callers)
    labels = " thread=main" if i % 2 else " thread=worker bytes=4096"
    spec.append(f"sample {stack} {1 + i % 4} {10000000 * (1 + i % 4)}{labels}")
    n += 1
spec.append("comment made by src-test-data/profile/make-spec.py")
spec.append("comment second comment")

open(sys.argv[1], "w").write("\n".join(spec) + "\n")
open(sys.argv[2], "w").write("\n".join(addrs) + "\n")
open(sys.argv[3], "w").write("\n".join(nofunction) + "\n")
