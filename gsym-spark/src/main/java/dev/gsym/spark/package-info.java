/**
 * Bulk conversion to a GSYM store ({@link dev.gsym.spark.ConvertJob}, {@link
 * dev.gsym.spark.GsymSpark#convert}) and bulk symbolication ({@link dev.gsym.spark.SymbolizeJob},
 * {@link dev.gsym.spark.GsymSpark#symbolicate}) on Apache Spark, over gsym-symbolize's converters,
 * store layout and Symbolizer. Runs on the class path (Spark is not modular), so it has no
 * module-info: it uses only the packages the project's modules export.
 */
package dev.gsym.spark;
