/**
 * Bulk conversion to a GSYM store ({@link dev.gsym.spark.ConvertJob}, {@link
 * dev.gsym.spark.GsymSpark#convert}) and bulk symbolication ({@link dev.gsym.spark.SymbolizeJob},
 * {@link dev.gsym.spark.GsymSpark#symbolicate}) and bulk stack walking of minidumps ({@link
 * dev.gsym.spark.StackwalkJob}, {@link dev.gsym.spark.GsymSpark#stackwalk(org.apache.spark.sql.SparkSession, String,
 * StackwalkOptions)}) on Apache Spark, over gsym-symbolize's converters, store layout and
 * Symbolizer and gsym-stackwalk's Stackwalker. Runs on the class path (Spark is not modular), so it has no
 * module-info: it uses only the packages the project's modules export.
 */
package dev.gsym.spark;
