#!/usr/bin/env bash
# Coverage-guided fuzzing campaign of one target (Jazzer; docs/reliability.md).
# Usage: bench/fuzz.sh TARGET [SECONDS]      (default 3600: the hour per target of issue 17)
#        bench/fuzz.sh all [SECONDS]          every target in turn, SECONDS each
#        bench/fuzz.sh list
# Targets: gsym dwarf dwp breakpad yaml cli request module-name module-file
#
# Runs the target's @FuzzTest in fuzzing mode (JAZZER_FUZZ=1) under -Xmx256m, with libFuzzer's
# hang timeout (FUZZ_TIMEOUT seconds per input, default 30; the targets themselves fail any input
# slower than their 2 s bound). The corpus grows in MODULE/.cifuzz-corpus/CLASS/METHOD (kept
# between campaigns, not checked in); a finding stops the campaign and is written to
# MODULE/src/test/resources/PACKAGE/CLASSInputs/METHOD/crash-<sha1>: fix it, keep the file (the
# normal test run replays it from then on) and add a unit test. Prints executions, coverage and
# findings at the end; the whole log is in MODULE/target/fuzz-TARGET.log.
# Environment: JAVA_HOME (default Temurin 25), FUZZ_TIMEOUT, FUZZ_KEEP_GOING (findings before
# stopping, default 1), FUZZ_MAX_LEN (largest input, bytes; default: the largest seed, at least 4096).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

target_spec() { # TARGET -> "module class method"
  case "$1" in
    gsym) echo "gsym-core dev.gsym.read.GsymReaderFuzzTest gsymFile" ;;
    dwarf) echo "gsym-dwarf dev.gsym.dwarf.DwarfConverterFuzzTest elfFile" ;;
    dwp) echo "gsym-dwarf dev.gsym.dwarf.DwarfConverterFuzzTest dwpPackage" ;;
    breakpad) echo "gsym-breakpad dev.gsym.breakpad.BreakpadFuzzTest symFile" ;;
    yaml) echo "gsym-cli dev.gsym.cli.yaml.CallSiteYamlFuzzTest yamlFile" ;;
    cli) echo "gsym-cli dev.gsym.cli.ConversionCliFuzzTest convert" ;;
    request) echo "gsym-serve dev.gsym.serve.RequestParserFuzzTest requestBody" ;;
    module-name) echo "gsym-symbolize dev.gsym.symbolize.ModuleResolutionFuzzTest moduleName" ;;
    module-file) echo "gsym-symbolize dev.gsym.symbolize.ModuleResolutionFuzzTest moduleFile" ;;
    *) return 1 ;;
  esac
}
TARGETS="gsym dwarf dwp breakpad yaml cli request module-name module-file"

target="${1:-}"
seconds="${2:-3600}"
if [ -z "$target" ] || [ "$target" = list ]; then
  echo "targets: $TARGETS"
  [ -n "$target" ] && exit 0
  echo "usage: bench/fuzz.sh TARGET [SECONDS]" >&2
  exit 2
fi
if [ "$target" = all ]; then
  passed=0 failed=0
  for t in $TARGETS; do
    if "$0" "$t" "$seconds"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  done
  echo "fuzz: $passed passed, $failed failed"
  [ $failed -eq 0 ]
  exit
fi
spec=$(target_spec "$target") || { echo "unknown target '$target' (targets: $TARGETS)" >&2; exit 2; }
read -r module class method <<< "$spec"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number, got '$seconds'" >&2; exit 2; }

export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
# findings land in the inputs directory (Jazzer writes them to the working directory without it)
inputs="$module/src/test/resources/$(dirname "${class//.//}")/${class##*.}Inputs/$method"
mkdir -p "$inputs" "$module/target"
log="$module/target/fuzz-$target.log"

# libFuzzer flags go through Jazzer's JUnit configuration (jazzer.internal.arg.N; argument 0 is the
# program name, the others are appended to Jazzer's own)
args=(fuzz "-timeout=${FUZZ_TIMEOUT:-30}")
[ -n "${FUZZ_MAX_LEN:-}" ] && args+=("-max_len=$FUZZ_MAX_LEN")
# hooks: the test run's default is false (pom.xml); instrument: every class of the project, also
# those of the other modules, which come from jars (Jazzer's default is only class directories)
jvm="-Xmx256m -Djazzer.hooks=true -Djazzer.instrument=dev.gsym.**"
for i in "${!args[@]}"; do jvm+=" -Djazzer.internal.arg.$i=${args[$i]}"; done

echo "== fuzzing $target ($class#$method) for ${seconds}s under -Xmx256m; log: $log"
started=$(date -u +%FT%TZ)
status=0
JAZZER_FUZZ=1 JAZZER_MAX_DURATION="${seconds}s" JAZZER_KEEP_GOING="${FUZZ_KEEP_GOING:-1}" \
  ./mvnw -B -q verify -pl "$module" -am -Dgsym.aot.skip=true -Dsurefire.failIfNoSpecifiedTests=false \
  "-Dtest=$class#$method" "-Dgsym.test.jvmArgs=$jvm" > "$log" 2>&1 || status=$?

# libFuzzer's last status line: executions, coverage (edges), features, corpus
last=$(grep -E '^#[0-9]+' "$log" | tail -n1 || true)
done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -n1 || true)
echo "started $started, ended $(date -u +%FT%TZ) on $(nproc) cores ($(uname -m))"
echo "last status: ${last:-none}"
echo "${done_line:-no 'Done' line (stopped early?)}"
findings=$(find "$inputs" -type f -newermt "$started" 2>/dev/null || true)
if [ -n "$findings" ]; then
  echo "FINDINGS (new files in $inputs):"
  echo "$findings"
  grep -E '^== Java Exception|^java\.|^Caused by|DEDUP_TOKEN|timeout' "$log" | head -n 20 || true
fi
if [ $status -ne 0 ]; then
  echo "fuzzing $target FAILED (exit $status); see $log" >&2
  grep -E 'Tests run:|ERROR\]' "$log" | head -n 20 >&2 || true
  exit $status
fi
echo "fuzzing $target: no finding"
