#!/usr/bin/env bash
# Submits gsym-spark's jobs to a Spark 4.2 cluster (YARN here; for Kubernetes or standalone
# change --master and the resource options). Needs spark-submit on PATH (a Spark 4.2 installation
# on JDK 25.0.3+ on the cluster) and the jar from `./mvnw package`. Edit the URIs and sizes.
#   docs/spark-submit.sh convert     # debug files -> GSYM store + manifest
#   docs/spark-submit.sh symbolize   # a day of (build_id, address) rows -> symbolicated rows
#   docs/spark-submit.sh stackwalk   # a day of minidumps -> one row per dump (crash, frames, modules)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${JAR:-$(ls "$here"/gsym-spark/target/gsym-spark-*-all.jar | head -n1)}"
MASTER="${MASTER:-yarn}"
STORE="${STORE:-hdfs:///gsym/store}"
DAY="${DAY:-$(date -u -d yesterday +%F)}"

case "${1:-}" in
  convert)
    # one task per input file up to --partitions; each DWARF conversion on one core
    exec spark-submit --master "$MASTER" --deploy-mode cluster --name "gsym convert" \
      --class dev.gsym.spark.ConvertJob \
      --num-executors 50 --executor-cores 4 --executor-memory 6g \
      "$JAR" \
      --input "${INPUT:-hdfs:///mirror/debug}" \
      --store "$STORE" \
      --manifest "${MANIFEST:-hdfs:///gsym/manifests/$DAY}" \
      --partitions 400
    ;;
  symbolize)
    # shuffle partitions: about 2-4 million rows each; executor-local GSYM cache under the
    # executor's temporary directory (YARN: the container's)
    exec spark-submit --master "$MASTER" --deploy-mode cluster --name "gsym symbolize $DAY" \
      --class dev.gsym.spark.SymbolizeJob \
      --num-executors 100 --executor-cores 4 --executor-memory 4g \
      --conf spark.sql.shuffle.partitions=400 \
      "$JAR" \
      --store "$STORE" \
      --input "${INPUT:-s3a://profiles/$DAY/}" \
      --output "${OUTPUT:-s3a://profiles-symbolized/$DAY/}"
    ;;
  stackwalk)
    # one task per 4 dumps or so; .sym files converted once per executor host into the cache
    exec spark-submit --master "$MASTER" --deploy-mode cluster --name "gsym stackwalk $DAY" \
      --class dev.gsym.spark.StackwalkJob \
      --num-executors 50 --executor-cores 4 --executor-memory 4g \
      "$JAR" \
      --input "${INPUT:-s3a://crashes/$DAY/}" \
      --store "$STORE" \
      --breakpad-symbols "${SYMBOLS:-s3a://symbols/breakpad/}" \
      --output "${OUTPUT:-s3a://crashes-walked/$DAY/}"
    ;;
  *)
    echo "usage: docs/spark-submit.sh convert|symbolize|stackwalk (environment: JAR MASTER STORE DAY INPUT OUTPUT MANIFEST SYMBOLS)" >&2
    exit 2
    ;;
esac
