#!/usr/bin/env bash
# Coverage-guided fuzzing campaigns (Jazzer; docs/reliability.md).
# Usage: bench/fuzz.sh TARGET [SECONDS]      one target (default 3600 s: the hour of issue 17)
#        bench/fuzz.sh all [SECONDS]          every target, SECONDS each, in one Maven run
#        bench/fuzz.sh list
# Targets: gsym dwarf object dwp cfi breakpad minidump stackwalk yaml cli request module-name module-file compact-unwind pe-unwind core pprof
#
# Each target is a Jazzer @FuzzTest class, fuzzed (JAZZER_FUZZ=1) in a JVM of its own under
# -Xmx256m, with Jazzer's hooks and coverage instrumentation of every dev.gsym class, and
# libFuzzer's hang timeout (FUZZ_TIMEOUT seconds per input, default 30; the targets themselves fail
# an input slower than their 2 s bound). The corpus grows in MODULE/.cifuzz-corpus/CLASS/METHOD
# (kept between campaigns, not checked in). A finding stops its campaign and is written to
# MODULE/src/test/resources/PACKAGE/CLASSInputs/METHOD/crash-<sha1>: fix it, keep the file (every
# test run replays it from then on) and add a unit test. Prints executions, coverage and findings
# per target; the whole log is in target/fuzz-TARGET.log (target/fuzz-all.log).
# Environment: JAVA_HOME (default Temurin 25), FUZZ_TIMEOUT, FUZZ_KEEP_GOING (findings before a
# campaign stops, default 1), FUZZ_MAX_LEN (largest input in bytes; default: the largest seed, at
# least 4096).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

TARGETS="gsym dwarf object dwp cfi breakpad minidump stackwalk yaml cli request minidump-upload module-name module-file compact-unwind pe-unwind core pprof"
target_spec() { # TARGET -> "module class method"
  case "$1" in
    gsym) echo "gsym-core dev.gsym.read.GsymReaderFuzzTest gsymFile" ;;
    dwarf) echo "gsym-dwarf dev.gsym.dwarf.DwarfConverterFuzzTest elfFile" ;;
    object) echo "gsym-dwarf dev.gsym.dwarf.ObjectFileFuzzTest objectFile" ;;
    dwp) echo "gsym-dwarf dev.gsym.dwarf.DwpPackageFuzzTest dwpPackage" ;;
    cfi) echo "gsym-object dev.gsym.cfi.CfiFuzzTest cfiSection" ;;
    breakpad) echo "gsym-breakpad dev.gsym.breakpad.BreakpadFuzzTest symFile" ;;
    minidump) echo "gsym-object dev.gsym.minidump.MinidumpFuzzTest minidump" ;;
    stackwalk) echo "gsym-stackwalk dev.gsym.stackwalk.StackwalkFuzzTest stackwalk" ;;
    yaml) echo "gsym-convert dev.gsym.convert.internal.CallSiteYamlFuzzTest yamlFile" ;;
    cli) echo "gsym-cli dev.gsym.cli.ConversionCliFuzzTest convert" ;;
    request) echo "gsym-serve dev.gsym.serve.RequestParserFuzzTest requestBody" ;;
    minidump-upload) echo "gsym-serve dev.gsym.serve.MinidumpUploadFuzzTest upload" ;;
    module-name) echo "gsym-symbolize dev.gsym.symbolize.ModuleResolutionFuzzTest moduleName" ;;
    module-file) echo "gsym-symbolize dev.gsym.symbolize.ModuleFileFuzzTest moduleFile" ;;
    compact-unwind) echo "gsym-object dev.gsym.macho.CompactUnwindFuzzTest unwindInfo" ;;
    pe-unwind) echo "gsym-object dev.gsym.coff.PeUnwindFuzzTest peImage" ;;
    core) echo "gsym-object dev.gsym.elf.ElfCoreFuzzTest coreFile" ;;
    pprof) echo "gsym-profile dev.gsym.profile.PprofFuzzTest pprofProfile" ;;
    *) return 1 ;;
  esac
}

target="${1:-}"
seconds="${2:-3600}"
if [ -z "$target" ] || [ "$target" = list ]; then
  echo "targets: $TARGETS"
  [ -n "$target" ] && exit 0
  echo "usage: bench/fuzz.sh TARGET|all [SECONDS]" >&2
  exit 2
fi
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number, got '$seconds'" >&2; exit 2; }
if [ "$target" = all ]; then
  names=$TARGETS
else
  target_spec "$target" > /dev/null || { echo "unknown target '$target' (targets: $TARGETS)" >&2; exit 2; }
  names=$target
fi

modules="" classes="" specs=()
for t in $names; do
  read -r module class method <<< "$(target_spec "$t")"
  specs+=("$t $module $class $method")
  case ",$modules," in *",$module,"*) ;; *) modules="${modules:+$modules,}$module" ;; esac
  classes="${classes:+$classes,}$class"
  # findings land in the inputs directory (Jazzer writes them to the working directory without it)
  mkdir -p "$module/src/test/resources/$(dirname "${class//.//}")/${class##*.}Inputs/$method"
done

export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
mkdir -p target
log="target/fuzz-$target.log"
# libFuzzer flags go through Jazzer's JUnit configuration (jazzer.internal.arg.N; argument 0 is the
# program name, the others are appended to Jazzer's own)
args=(fuzz "-timeout=${FUZZ_TIMEOUT:-30}")
[ -n "${FUZZ_MAX_LEN:-}" ] && args+=("-max_len=$FUZZ_MAX_LEN")
# hooks: the test run's default is false (pom.xml); instrument: every class of the project, also
# those of the other modules, which come from jars (Jazzer's default is only class directories)
jvm="-Xmx256m -Djazzer.hooks=true -Djazzer.instrument=dev.gsym.**"
for i in "${!args[@]}"; do jvm+=" -Djazzer.internal.arg.$i=${args[$i]}"; done

echo "== fuzzing $names for ${seconds}s each under -Xmx256m; log: $log"
started=$(date -u +%FT%TZ)
status=0
# one JVM per test class (Jazzer fuzzes one target per JVM); the classes' other tests run too
JAZZER_FUZZ=1 JAZZER_MAX_DURATION="${seconds}s" JAZZER_KEEP_GOING="${FUZZ_KEEP_GOING:-1}" \
  ./mvnw -B verify -pl "$modules" -am -Dgsym.aot.skip=true -Dsurefire.failIfNoSpecifiedTests=false \
  -DforkCount=1 -DreuseForks=false "-Dtest=$classes" "-Dgsym.test.jvmArgs=$jvm" > "$log" 2>&1 || status=$?
echo "started $started, ended $(date -u +%FT%TZ) on $(nproc) cores ($(uname -m))"

passed=0 failed=0
for s in "${specs[@]}"; do
  read -r t module class method <<< "$s"
  # libFuzzer's final line for this target: executions, coverage (edges), features, corpus
  done_line=$(awk -v dir=".cifuzz-corpus/$class/$method" '
    index($0, "INFO: using inputs from:") && index($0, dir) { on = 1 }
    on && /^#[0-9]+[ \t]+DONE/ { print; exit }' "$log")
  report="$module/target/surefire-reports/$class.txt"
  inputs="$module/src/test/resources/$(dirname "${class//.//}")/${class##*.}Inputs/$method"
  findings=$(find "$inputs" -type f -newermt "$started" 2>/dev/null || true)
  # a finding fails the target's test class (its input is then in $inputs)
  if [ -f "$report" ] && grep -q "Failures: 0, Errors: 0" "$report" && [ -n "$done_line" ]; then
    echo "$t: ${done_line}"
    passed=$((passed + 1))
  else
    echo "$t: FAILED ${done_line:-(no final status line)}"
    [ -n "$findings" ] && echo "  findings: $findings"
    [ -f "$report" ] && grep -E "<<<|Exception|Error" "$report" | head -n 5 | sed 's/^/  /'
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $status -eq 0 ]
