#!/usr/bin/env bash
# Runs the JMH benchmarks of gsym-bench (builds gsym-bench/target/benchmarks.jar first when it is
# missing or older than a source file). Short default settings (-f 1 -wi 3 -i 5 -w 1s -r 1s); an
# option given on the command line replaces its default, and a regex selects benchmarks:
#   bench/jmh.sh                                   # everything, -f 1 -wi 3 -i 5 (1 s iterations)
#   bench/jmh.sh LookupBenchmark                   # lookups in /tmp/jvmdbg/libjvm.gsym (or a synthetic file)
#   bench/jmh.sh LookupBenchmark -p gsym=/path/to/file.gsym -prof gc
#   bench/jmh.sh DwarfConversion -p binary=/tmp/jvmdbg/libjvm.debug -bm ss -wi 1 -i 3
#   bench/jmh.sh -l                                # list the benchmarks
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${JAVA_HOME:-}" ] && [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR=gsym-bench/target/benchmarks.jar
if [ ! -f "$JAR" ] || [ -n "$(find pom.xml gsym-*/pom.xml gsym-core/src gsym-dwarf/src gsym-bench/src -newer "$JAR" -type f -print -quit)" ]; then
  echo "building $JAR ..." >&2
  ./mvnw -B -q ${MVN_OFFLINE--o} package -pl gsym-bench -am -DskipTests >&2
fi
# JMH rejects an option given twice: add each default only if the arguments do not set it
defaults=()
for d in "-f 1" "-wi 3" "-i 5" "-w 1s" "-r 1s"; do
  opt=${d%% *}
  given=no
  for a in "$@"; do [ "$a" = "$opt" ] && given=yes; done
  [ $given = no ] && defaults+=($d)
done
exec "$JAVA" --sun-misc-unsafe-memory-access=allow -jar "$JAR" "${defaults[@]}" "$@"
