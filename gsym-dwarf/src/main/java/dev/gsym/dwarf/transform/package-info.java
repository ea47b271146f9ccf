/**
 * DWARF and symbol table to FunctionInfos (internal to gsym-dwarf): {@link
 * dev.gsym.dwarf.transform.DwarfTransformer} (llvm's DwarfTransformer, units in order, in parallel
 * through the ordered pipeline), {@link dev.gsym.dwarf.transform.ObjectFileTransformer} and {@link
 * dev.gsym.dwarf.transform.DwarfVerifier} ({@code --verify}). Driven by {@link
 * dev.gsym.dwarf.DwarfConverter}; not exported.
 */
package dev.gsym.dwarf.transform;
