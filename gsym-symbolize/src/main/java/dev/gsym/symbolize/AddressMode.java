package dev.gsym.symbolize;

/** How the addresses given to a {@link Symbolizer} are read. */
public enum AddressMode {
  /**
   * Addresses in the module's own address space, as its symbol table and DWARF state them (for a
   * shared library or PIE: the run-time address minus the load bias).
   */
  ABSOLUTE,
  /**
   * Offsets from the module's base: the {@code p_vaddr} of an ELF file's first {@code PT_LOAD}
   * segment (0 for shared libraries and PIEs, 0x400000 for a typical x86-64 executable), a GSYM
   * file's base address, 0 for Breakpad symbols (see docs/symbolize.md, "Relocation").
   */
  RELATIVE
}
