#!/usr/bin/env bash
# Runs a gsym-spark job without a Spark installation, on this machine: the job's -all jar plus
# Spark's own jars from the build (gsym-spark/target/spark-classpath.txt), with the JVM options
# Spark's launcher would add (gsym-spark/spark-jvm.options). Builds gsym-spark first when its
# sources changed. The master defaults to local[*]; pass --master local[N] to choose.
#   bench/spark-local.sh ConvertJob --master local[2] --input DIR_OR_LISTING --store DIR --manifest OUT
#   bench/spark-local.sh SymbolizeJob --master local[2] --store DIR --input IN --output OUT --format csv
#   bench/spark-local.sh StackwalkJob --master local[2] --input DUMPS --output OUT --breakpad-symbols SYMS
#   bench/spark-local.sh ConvertJob --help
# JVM options: SPARK_LOCAL_JAVA_OPTS (default -Xmx2g: the driver is the executor in local mode).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 1 ] || { [ "$1" != ConvertJob ] && [ "$1" != SymbolizeJob ] && [ "$1" != StackwalkJob ]; }; then
  echo "usage: bench/spark-local.sh ConvertJob|SymbolizeJob|StackwalkJob ARGS... (ARGS: --help for the job's)" >&2
  exit 2
fi
job="$1"; shift

if [ -z "${JAVA_HOME:-}" ] || ! grep -qE '^JAVA_VERSION="(2[5-9]|[3-9][0-9])' "$JAVA_HOME/release" 2>/dev/null; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
target="$here/gsym-spark/target"
stamp="$target/spark-local.stamp"
jar() { ls "$target"/gsym-spark-*-all.jar 2>/dev/null | head -n1; }
if [ -z "$(jar)" ] || [ ! -f "$target/spark-classpath.txt" ] || [ ! -f "$stamp" ] \
    || [ -n "$(find "$here/pom.xml" "$here"/gsym-*/pom.xml "$here"/gsym-*/src/main -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  echo "spark-local: building gsym-spark (log: $target/spark-local-build.log)..." >&2
  mkdir -p "$target"
  touch "$target/spark-local.started"
  if ! (cd "$here" && ./mvnw -B -q package -pl gsym-spark -am -DskipTests -Dgsym.aot.skip=true) > "$target/spark-local-build.log" 2>&1; then
    echo "spark-local: the build failed: see $target/spark-local-build.log" >&2
    exit 1
  fi
  mv -f "$target/spark-local.started" "$stamp"
fi
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" ${SPARK_LOCAL_JAVA_OPTS:--Xmx2g} @"$here/gsym-spark/spark-jvm.options" \
  -Dlog4j2.configurationFile="$here/gsym-spark/src/main/resources/gsym-spark-log4j2.properties" \
  -cp "$(jar):$(cat "$target/spark-classpath.txt")" "dev.gsym.spark.$job" "$@"
