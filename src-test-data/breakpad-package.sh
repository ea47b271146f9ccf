# Breakpad's peers: the npm package minidump@0.26.0, which ships prebuilt linux-x64 dump_syms,
# minidump_stackwalk and minidump_dump in bin/linux-x64 and Breakpad's sources in deps/breakpad.
# Sourced by .ci/run (which fetches it into a cache) and the regenerate-breakpad-*.sh scripts;
# they find it as the tests do (dev.gsym.testing.Breakpad): $BREAKPAD_PACKAGE (an unpacked
# package), else $BREAKPAD_SRC and the PATH, else /work/peers/package, else (scripts only) the
# package fetched into a temporary directory.

BREAKPAD_NPM=minidump@0.26.0
# sha256 of the registry's minidump-0.26.0.tgz (npm pack writes it unchanged)
BREAKPAD_NPM_SHA256=0b09e132e39a5bf555324078a7f1fa2f3fe5c498f44bd80bf6fdfca92c1e2bbd
BREAKPAD_LOCAL=/work/peers/package

# breakpad_fetch DIR: sets BREAKPAD_PACKAGE to DIR/package, the package fetched with npm pack
# (its sha256 checked) and unpacked there, or the copy already there. The copy is unpacked beside
# and renamed into place, so an interrupted fetch never leaves a partial DIR/package.
breakpad_fetch() {
  local dir=$1 tmp
  if [ ! -f "$dir/package/package.json" ]; then
    mkdir -p "$dir"
    rm -rf "$dir"/fetch.*
    tmp=$(mktemp -d "$dir/fetch.XXXXXX")
    (cd "$tmp" && npm pack --silent "$BREAKPAD_NPM" > /dev/null)
    echo "$BREAKPAD_NPM_SHA256  $tmp/minidump-0.26.0.tgz" | sha256sum --check --quiet -
    tar -xzf "$tmp/minidump-0.26.0.tgz" -C "$tmp"
    mv "$tmp/package" "$dir/package"
    rm -rf "$tmp"
  fi
  BREAKPAD_PACKAGE=$dir/package
}

# breakpad_src TMP: exports BREAKPAD_SRC, the Breakpad source tree: $BREAKPAD_PACKAGE/deps/breakpad,
# else $BREAKPAD_SRC, else /work/peers/package's, else the package fetched into TMP.
breakpad_src() {
  if [ -n "${BREAKPAD_PACKAGE:-}" ]; then
    BREAKPAD_SRC=$BREAKPAD_PACKAGE/deps/breakpad
  elif [ -z "${BREAKPAD_SRC:-}" ]; then
    if [ -f "$BREAKPAD_LOCAL/deps/breakpad/src/processor/basic_source_line_resolver.cc" ]; then
      BREAKPAD_SRC=$BREAKPAD_LOCAL/deps/breakpad
    else
      breakpad_fetch "$1"
      BREAKPAD_SRC=$BREAKPAD_PACKAGE/deps/breakpad
    fi
  fi
  export BREAKPAD_SRC
}

# breakpad_dump_syms TMP: exports DUMP_SYMS, Breakpad's dump_syms: $DUMP_SYMS, else
# $BREAKPAD_PACKAGE's, else dump_syms on the PATH, else /work/peers/package's, else the package
# fetched into TMP.
breakpad_dump_syms() {
  if [ -z "${DUMP_SYMS:-}" ]; then
    if [ -n "${BREAKPAD_PACKAGE:-}" ]; then
      DUMP_SYMS=$BREAKPAD_PACKAGE/bin/linux-x64/dump_syms
    elif command -v dump_syms > /dev/null; then
      DUMP_SYMS=$(command -v dump_syms)
    elif [ -x "$BREAKPAD_LOCAL/bin/linux-x64/dump_syms" ]; then
      DUMP_SYMS=$BREAKPAD_LOCAL/bin/linux-x64/dump_syms
    else
      breakpad_fetch "$1"
      DUMP_SYMS=$BREAKPAD_PACKAGE/bin/linux-x64/dump_syms
    fi
  fi
  export DUMP_SYMS
}

# A second opinion on .sym lookups (function, file and line; gsym-breakpad
# IndutnyBreakpadTest): the npm package @indutny/breakpad (a WebAssembly .sym parser), exact
# version; npm checks the registry's integrity hash.
INDUTNY_NPM=@indutny/breakpad@1.2.3

# indutny_fetch DIR: exports INDUTNY_BREAKPAD, DIR/node_modules/@indutny/breakpad, installed with
# npm into DIR (a temporary directory renamed into place) unless already there.
indutny_fetch() {
  local dir=$1 tmp
  if [ ! -f "$dir/node_modules/@indutny/breakpad/package.json" ]; then
    mkdir -p "$(dirname "$dir")"
    rm -rf "$dir".fetch.*
    tmp=$(mktemp -d "$dir.fetch.XXXXXX")
    (cd "$tmp" && npm install --silent --no-audit --no-fund --no-save "$INDUTNY_NPM" > /dev/null)
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  INDUTNY_BREAKPAD=$dir/node_modules/@indutny/breakpad
  export INDUTNY_BREAKPAD
}
