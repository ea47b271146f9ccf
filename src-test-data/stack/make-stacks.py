#!/usr/bin/env python3
"""Test stacks for `gsymutil symbolize --stack` and llvm-gsymutil-22's answers for them.

  make-stacks.py stacks   > stacks.txt        # from llvm-gsymutil-22's dumps of gsym/*.gsym
  make-stacks.py llvm     < stacks.txt > expected/stacks.llvm.txt
  make-stacks.py yaml     > gsym/stack-main.tramp.yaml
  make-stacks.py frames   < stacks.txt > expected/stacks.frames.txt   # after `llvm`

Run in src-test-data/stack. Addresses come from the dumps: a callee frame is its function's start
+ 2, a caller frame the return address of its call site that names the next function (ReturnOffset
from the dump of the --dwarf-callsites GSYM), so nothing depends on where the linker put code.

`llvm` does llvm's manual two-pass resolution for every frame with merged functions (see
docs/symbolize.md, "Merged functions"): from the outermost frame inwards, each caller up to 4
frames up is looked up with `llvm-gsymutil-22 --merged-functions --address RET CALLER.gsym`; the
result of the function the caller resolved to gives `CallSites: REGEX...`; then
`--merged-functions --merged-functions-filter=REGEX... --address ADDR CALLEE.gsym` lists the
functions those regexes name. The first caller whose regexes name any candidate decides. Output:
one line per frame with merged functions, `STACK FRAME NAMES`, NAMES the distinct names left (one
when a call site chose), comma-separated.
"""
import os
import re
import subprocess
import sys

GSYM22 = os.environ.get("GSYM22", "llvm-gsymutil-22")
MAX_CALLER_DISTANCE = 4


def dump(path):
    """{name: (start, [(return_offset, [regex...])...])} of every function and merged child."""
    out = subprocess.run([GSYM22, path], check=True, capture_output=True, text=True).stdout
    funcs = {}
    current = None
    for line in out.splitlines():
        m = re.match(r'^\s*(?:FunctionInfo @ 0x[0-9a-f]+: )?\[(0x[0-9a-f]+) - 0x[0-9a-f]+\) "(.*)"$', line)
        if m:
            current = (int(m.group(1), 16), [])
            funcs.setdefault(m.group(2), current)
            continue
        m = re.match(r'^\s*(0x[0-9a-f]+) Flags\[[^]]*\](?: MatchRegex\[(.*)\])?$', line)
        if m and current is not None:
            current[1].append((int(m.group(1), 16), (m.group(2) or "").split(";") if m.group(2) else []))
    return funcs


def ret(funcs, caller, callee):
    start, sites = funcs[caller]
    for off, rx in sites:
        if callee in rx:
            return start + off
    raise SystemExit(f"no call site of {callee} in {caller}")


def stacks():
    main = dump("gsym/stack-main.gsym")
    lib = dump("gsym/libstackcallee.so.gsym")
    tramp = dump("gsym/libstacktramp.so.gsym")
    M, NOCS, TR = "gsym/stack-main.gsym", "gsym/stack-main.nocallsites.gsym", "gsym/stack-main.tramp.gsym"
    L, T = "gsym/libstackcallee.so.gsym", "gsym/libstacktramp.so.gsym"
    tramp_ret = tramp["tramp_call"][0] + tramp["tramp_call"][1][0][0]  # its one (indirect) call site
    out = []

    def s(comment, *frames):
        out.append("# " + comment)
        out.extend(f"{m} 0x{a:x}" for m, a in frames)
        out.append("")

    for v in "ab":
        s(f"(1) caller and folded callee in one executable: local_{v}",
          (M, main[f"local_{v}"][0] + 2), (M, ret(main, f"use_local_{v}", f"local_{v}")),
          (M, ret(main, "main", f"use_local_{v}")))
    for v in "ab":
        s(f"(2) the folded callee in another shared object (PLT call): ext_{v}",
          (L, lib[f"ext_{v}"][0] + 2), (M, ret(main, f"call_ext_{v}", f"ext_{v}")),
          (M, ret(main, "main", f"call_ext_{v}")))
    for v in "ab":
        s(f"(3) through a trampoline in a third module; the caller's call site from YAML: ext_{v}",
          (L, lib[f"ext_{v}"][0] + 2), (T, tramp_ret), (TR, ret(main, f"via_tramp_{v}", "tramp_call")),
          (TR, ret(main, "main", f"via_tramp_{v}")))
    s("(3') the same with DWARF call sites only: via_tramp_a names tramp_call, nothing decides",
      (L, lib["ext_a"][0] + 2), (T, tramp_ret), (M, ret(main, "via_tramp_a", "tramp_call")),
      (M, ret(main, "main", "via_tramp_a")))
    for v in "xy":
        s(f"(4) a merged caller (mid_x, mid_y) whose candidates' call sites differ: mid_{v}, leaf_{v}",
          (M, main[f"leaf_{v}"][0] + 2), (M, ret(main, f"mid_{v}", f"leaf_{v}")),
          (M, ret(main, f"top_{v}", f"mid_{v}")), (M, ret(main, "main", f"top_{v}")))
    s("(5) no call-site information: ambiguous",
      (L, lib["ext_a"][0] + 2), (NOCS, ret(main, "call_ext_a", "ext_a")), (NOCS, ret(main, "main", "call_ext_a")))
    s("(5') no call-site information, merged caller and callee: both ambiguous",
      (NOCS, main["leaf_x"][0] + 2), (NOCS, ret(main, "mid_x", "leaf_x")), (NOCS, ret(main, "top_x", "mid_x")))
    print("\n".join(out), end="")


def yaml():
    main = dump("gsym/stack-main.gsym")
    print("# via_tramp_X calls tramp_call(ext_X): what a compiler could record for calls through a")
    print("# trampoline (llvm's --callsites-yaml-file), at the return offset DWARF gives the call.")
    print("functions:")
    for v in "ab":
        start, sites = main[f"via_tramp_{v}"]
        off = next(o for o, rx in sites if "tramp_call" in rx)
        print(f"  - name: via_tramp_{v}\n    callsites:\n      - return_offset: 0x{off:x}\n"
              f"        match_regex: ['^ext_{v}$']\n        flags: [ExternalCall]")


def lookup(path, addr, filters=()):
    """[(name, [regex...])] of llvm-gsymutil-22 --merged-functions at addr."""
    cmd = [GSYM22, "--merged-functions"] + [f"--merged-functions-filter={f}" for f in filters]
    out = subprocess.run(cmd + ["--address", f"0x{addr:x}", path], check=True, capture_output=True, text=True).stdout
    results = []
    for line in out.splitlines():
        m = re.match(r"^   0x[0-9a-f]+: (\S+)", line)
        if m:
            results.append([m.group(1), []])
        m = re.match(r"^      CallSites: (.*)$", line)
        if m:
            results[-1][1] = m.group(1).split(", ")
    return results


def llvm():
    text = sys.stdin.read()
    out = []
    for k, block in enumerate(b for b in re.split(r"\n\s*\n", text) if b.strip()):
        frames = []
        for line in block.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            m, a = line.split()
            frames.append((m, int(a, 16)))
        resolved = [None] * len(frames)  # the distinct names each frame may be
        lines = []
        for i in range(len(frames) - 1, -1, -1):
            m, a = frames[i]
            results = lookup(m, a)
            names = list(dict.fromkeys(r[0] for r in results))
            resolved[i] = names
            if len(results) < 2:
                continue
            chosen = names
            if len(names) > 1:
                for j in range(i + 1, min(len(frames), i + 1 + MAX_CALLER_DISTANCE)):
                    cm, ca = frames[j]
                    caller = [r for r in lookup(cm, ca) if r[0] in resolved[j]]
                    if not caller:
                        continue  # no function there: no call-site information
                    regexes = {tuple(r[1]) for r in caller}
                    if len(regexes) != 1:
                        break  # an unresolved caller whose candidates' call sites differ
                    rx = list(regexes.pop())
                    if not rx:
                        continue
                    named = list(dict.fromkeys(r[0] for r in lookup(m, a, rx)))
                    if named:
                        chosen = named
                        break
            resolved[i] = chosen
            lines.append(f"{k} {i} {','.join(chosen)}")
        out.extend(reversed(lines))
    print("\n".join(out))


def frames():
    """Every frame's function and file:line as llvm-gsymutil-22 answers it: for a frame with merged
    functions, the candidate llvm's two-pass resolution chose (expected/stacks.llvm.txt), else the
    function a plain lookup answers with. Output: `STACK FRAME NAME FILE:LINE`, inlined frames
    (innermost first) on lines of their own with the same STACK FRAME."""
    chosen = {}
    for line in open("expected/stacks.llvm.txt"):
        if line.strip():
            k, i, names = line.split()
            chosen[(int(k), int(i))] = names.split(",")
    text = sys.stdin.read()
    out = []
    for k, block in enumerate(b for b in re.split(r"\n\s*\n", text) if b.strip()):
        i = 0
        for line in block.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            m, a = line.split()
            names = chosen.get((k, i))
            cmd = [GSYM22] + (["--merged-functions"] if names and len(names) == 1 else []) + ["--address", a, m]
            res = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            candidates = []  # [(name, file:line), inlined...] per result
            for l in res.splitlines()[1:]:
                r = re.match(r"^\s*0x[0-9a-f]+: (\S+) \+ \d+ @ (.*)$", l)
                if r:
                    candidates.append([(r.group(1), r.group(2))])
                    continue
                r = re.match(r"^\s+(\S+) @ (.*)$", l)
                if r and candidates:
                    candidates[-1].append((r.group(1), r.group(2)))
            pick = candidates[0]
            if names and len(names) == 1:
                pick = next(c for c in candidates if c[0][0] == names[0])
            out.extend(f"{k} {i} {n} {loc}" for n, loc in pick)
            i += 1
    print("\n".join(out))


{"stacks": stacks, "llvm": llvm, "yaml": yaml, "frames": frames}[sys.argv[1]]()
