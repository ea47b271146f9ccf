/**
 * DWARF reading (internal to gsym-dwarf): {@link dev.gsym.dwarf.read.DwarfFile} (units, split DWARF,
 * caches), {@link dev.gsym.dwarf.read.DwarfUnit} (a unit's DIE tree as flat arrays), {@link
 * dev.gsym.dwarf.read.Die}, {@link dev.gsym.dwarf.read.Form} (the one form table), line tables,
 * range lists and DWARF package indexes. Public types here are public only for the transformer
 * package; the package is not exported.
 */
package dev.gsym.dwarf.read;
