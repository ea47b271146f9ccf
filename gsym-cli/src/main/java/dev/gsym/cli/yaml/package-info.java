/**
 * llvm-gsymutil's call-site YAML ({@code --callsites-yaml-file}): {@link
 * dev.gsym.cli.yaml.YamlTree}, a strict reader of the YAML subset LLVM's YAMLIO accepts there, with
 * LLVM's diagnostics, and {@link dev.gsym.cli.yaml.CallSiteYaml}, the schema on top of it, whose
 * entries become {@link dev.gsym.write.FunctionCallSites} for {@link
 * dev.gsym.write.GsymCreator#loadCallSites}. A command-line input format, so it lives here and not
 * in gsym-core.
 */
package dev.gsym.cli.yaml;
