#!/usr/bin/env bash
# The demangling corpus: names.txt (one name per line, raw bytes) and names.llvm-cxxfilt.txt
# (llvm-cxxfilt-22's output for each, the names passed as arguments, so no word splitting), read by
# gsym-demangle's CorpusTest. Runs on its own (src-test-data/regenerate.sh calls it last):
#
#   src-test-data/demangle/regenerate.sh
#
# Names, in this order, without duplicates (a deterministic sample: a greedy cover of grammar
# features first, then every k-th name):
#   hard-cases.txt                  hand-written corner cases (\xNN escapes expanded)
#   gsym/*.gsym                     every string of the test binaries' GSYMs (C, C++, Rust, Latin-1)
#   rust_v0                         src/rust_v0.rs built with rustc -C symbol-mangling-version=v0
#   libstdc++.so.6                  dynamic symbols (GCC)
#   libjvm.gsym                     strings of llvm-gsymutil-22's GSYM of OpenJDK 17's libjvm (GCC)
#   libLLVM.so.22.1                 dynamic symbols (clang)
#   librustc_driver                 dynamic symbols of rustc's driver (Rust v0)
#   mutations                       names from the sources above, cut, altered or extended (fixed
#                                   seed): what llvm rejects must be rejected too
# Needs llvm-cxxfilt-22, llvm-nm-22, llvm-gsymutil-22, rustc, python3 and the inputs below
# (overridable); missing inputs are an error, so the corpus never silently shrinks. Deterministic:
# running it twice with the same tools gives no diff. manifest.txt records counts and versions.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$(dirname "$HERE")
CXXFILT=${CXXFILT:-llvm-cxxfilt-22}
NM=${NM:-llvm-nm-22}
GSYM22=${GSYM22:-llvm-gsymutil-22}
RUSTC=${RUSTC:-rustc}
STDCXX=${STDCXX:-/usr/lib/x86_64-linux-gnu/libstdc++.so.6}
JVM_GSYM=${JVM_GSYM:-/tmp/jvmdbg/libjvm.gsym}
LIBLLVM=${LIBLLVM:-/usr/lib/x86_64-linux-gnu/libLLVM.so.22.1}
RUSTC_DRIVER=${RUSTC_DRIVER:-$(ls "$($RUSTC --print sysroot)"/lib/librustc_driver-*.so | head -1)}

for f in "$STDCXX" "$JVM_GSYM" "$LIBLLVM" "$RUSTC_DRIVER"; do
  [ -f "$f" ] || { echo "missing input: $f" >&2; exit 1; }
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Dynamic symbols without their version suffix (name@@VERSION).
dynsyms() { "$NM" -D --defined-only "$1" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' | sort -u; }
# Every string of a GSYM file's string table, as llvm-gsymutil-22 dumps it.
gsymstrings() {
  "$GSYM22" "$1" | awk '/^String table:/ {on = 1; next} on && /^0x[0-9a-f]+: "/ {print} on && !/^0x/ {on = 0}' \
    | sed -E 's/^0x[0-9a-f]+: "(.*)"$/\1/'
}

cp "$HERE/hard-cases.txt" "$TMP/hard.src"
for g in "$DATA"/gsym/*.gsym; do gsymstrings "$g"; done | sort -u > "$TMP/testbins.src"
"$RUSTC" --edition 2021 -C symbol-mangling-version=v0 -C opt-level=0 -C debuginfo=0 \
  --remap-path-prefix="$DATA/src=/gsym-test/src" "$DATA/src/rust_v0.rs" -o "$TMP/rust_v0"
"$NM" --defined-only "$TMP/rust_v0" | awk 'NF >= 3 {print $3}' | sort -u > "$TMP/rust_v0.src"
dynsyms "$STDCXX" > "$TMP/libstdcxx.src"
gsymstrings "$JVM_GSYM" | sort -u > "$TMP/libjvm.src"
dynsyms "$LIBLLVM" > "$TMP/libllvm.src"
dynsyms "$RUSTC_DRIVER" > "$TMP/rustc_driver.src"

python3 - "$TMP" "$HERE/names.txt" "$HERE/manifest.txt" <<'PY'
import random, re, sys
tmp, out_names, out_manifest = sys.argv[1:4]

def read(name):
    with open(f"{tmp}/{name}.src", "rb") as f:
        return [l for l in f.read().split(b"\n") if l]

def expand(line):
    return re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]), line)

# Grammar features (substrings of the mangled name) the sample should cover several times each.
FEATURES = [f.encode() for f in (
    "Dp J I E X L_Z LZ Li Lj Ll Lm Lx Ly Lb Lc La Lh Ls Lt Lw Ld Lf Le Ln Lo LDn LA LU T_ T0_ TL "
    "S_ S0_ S1_ SA_ St Sa Sb Ss Si So Sd B5cxx11 B Ul Ut Ub DC Ua9enable_if N H F Y Do DO Dw Dx "
    "Dv DF Dh Da Dc Dk DK Dn Dt DT M A R O C G K V r P Z s_ Ed _0 __ .cold .part .isra .constprop "
    ".llvm. GV GR GI TV TT TI TS Th Tv Tc TC TW TH TA cv sr srN gs nw na dl da dt pt ds pm ix qu cl "
    "cp sz st az at ti te nx tw tr fp fL fl fr fR il tl so mc sZ sP sp rq rQ Q Tk Ty Tn Tt Tp aa oo "
    "ge gt lt le eq ne ls rs pl mi ml dv rm an or eo aS pL mI mL dV rM aN oR eO lS rS pp mm nt ng "
    "ad de co ps cm ss C1 C2 C3 C4 C5 CI1 CI2 D0 D1 D2 D4 D5 W u "
    "_R _D Nv Nt NC NS Nc Ni Ns M X Y I E B K L A S T R Q P O F D G p u0 KC Kb Kc Kj Ka n "
    "$LT$ $GT$ $u20$ $C$ 17h"
).split()]
COVER = 3

def features(n):
    return [f for f in FEATURES if f in n]

def sample(names, quota, seed):
    """Names covering each feature up to COVER times (shortest first), then every k-th name."""
    if len(names) <= quota:
        return list(names)
    chosen, counts = [], {}
    for n in sorted(names, key=lambda x: (len(x), x)):
        if len(chosen) >= quota // 2:
            break
        if any(counts.get(f, 0) < COVER for f in features(n)):
            chosen.append(n)
            for f in features(n):
                counts[f] = counts.get(f, 0) + 1
    rest = [n for n in names if n not in set(chosen)]
    k = max(1, len(rest) // (quota - len(chosen)))
    chosen += rest[::k][: quota - len(chosen)]
    return chosen

def mutations(pool, count, seed):
    rnd = random.Random(seed)
    alpha = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
    pieces = [b"S_", b"S0_", b"T_", b"I", b"E", b"Dp", b"J", b"X", b"L", b"B", b"N", b"Z", b"sr",
              b"cv", b"Ul", b"Tn", b"fp_", b"Li1E", b".cold", b"K", b"R", b"O", b"P", b"F", b"v"]
    out = []
    pool = sorted(pool)
    while len(out) < count:
        m = bytearray(rnd.choice(pool))
        if len(m) < 4:
            continue
        i = rnd.randrange(2, len(m))
        op = rnd.randrange(6)
        if op == 0:
            m = m[:i]
        elif op == 1:
            del m[i]
        elif op == 2:
            m[i] = rnd.choice(alpha)
        elif op == 3:
            j = rnd.randrange(2, len(m))
            a, b = min(i, j), max(i, j)
            m[a:a] = m[a:b + 1]
        elif op == 4:
            m[i:i] = rnd.choice(pieces)
        else:
            m[i:i] = bytes([rnd.choice(alpha)])
        out.append(bytes(m))
    return out

quotas = [("hard", None), ("testbins", None), ("rust_v0", 400), ("libstdcxx", 600), ("libjvm", 1200),
          ("libllvm", 700), ("rustc_driver", 500)]
seen, names, manifest = set(), [], []
mangled_pool = []
for src, quota in quotas:
    got = read(src)
    if src == "hard":
        got = [expand(l) for l in got if not l.startswith(b"# ")]
    picked = got if quota is None else sample(got, quota, src)
    added = 0
    for n in picked:
        # llvm-cxxfilt takes a leading '-' as an option; such names are not mangled anyway
        if n not in seen and not n.startswith(b"-") and b"\0" not in n:
            seen.add(n)
            names.append(n)
            added += 1
            if re.match(rb"^\.?_{1,4}[ZRD]", n):
                mangled_pool.append(n)
    manifest.append(f"{src}\t{len(got)} names, {added} in the corpus")
added = 0
for n in mutations(mangled_pool, 800, 14):
    if n not in seen and not n.startswith(b"-") and b"\0" not in n:
        seen.add(n)
        names.append(n)
        added += 1
manifest.append(f"mutations\t{added} in the corpus")
with open(out_names, "wb") as f:
    f.write(b"".join(n + b"\n" for n in names))
with open(out_manifest, "w") as f:
    f.write("# src-test-data/demangle/regenerate.sh: sources of names.txt\n")
    f.write("\n".join(manifest) + "\n")
    f.write(f"total\t{len(names)}\n")
PY

# llvm-cxxfilt-22 with the names as arguments: each name is one word, whatever its bytes.
tr '\n' '\0' < "$HERE/names.txt" | xargs -0 "$CXXFILT" > "$HERE/names.llvm-cxxfilt.txt"
[ "$(wc -l < "$HERE/names.txt")" = "$(wc -l < "$HERE/names.llvm-cxxfilt.txt")" ] || { echo "line counts differ" >&2; exit 1; }
{
  echo "# tools"
  "$CXXFILT" --version | sed -n 2p
  "$RUSTC" --version
  echo "$(basename "$STDCXX") $(readlink -f "$STDCXX" | xargs basename)"
  echo "$(basename "$RUSTC_DRIVER")"
} >> "$HERE/manifest.txt"
echo "src-test-data/demangle: $(wc -l < "$HERE/names.txt") names"
