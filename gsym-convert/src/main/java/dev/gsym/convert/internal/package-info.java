/**
 * The conversion's readers of its side inputs (not exported): {@link
 * dev.gsym.convert.internal.SymtabFile} ({@code --symtab-file}, as llvm main opens it), {@link
 * dev.gsym.convert.internal.YamlTree}, a strict reader of the YAML subset LLVM's YAMLIO accepts for
 * {@code --callsites-yaml-file}, with LLVM's diagnostics, and {@link
 * dev.gsym.convert.internal.CallSiteYaml}, the schema on top of it, whose entries become {@link
 * dev.gsym.write.FunctionCallSites} for {@link dev.gsym.write.GsymCreator#loadCallSites}.
 */
package dev.gsym.convert.internal;
