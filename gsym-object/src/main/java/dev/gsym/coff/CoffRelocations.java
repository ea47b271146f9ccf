package dev.gsym.coff;

import dev.gsym.io.ByteView;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Applies a COFF object's relocations to a copy of one of its DWARF sections, as llvm's
 * DWARFContext does with RelocationResolver: {@code SECREL} and the absolute address types
 * ({@code ADDR64} on x86_64 and ARM64, {@code DIR32} on i386, {@code ADDR32} on ARM), the symbol's
 * address (its value plus its section's VirtualAddress) added to the bytes in place; every other
 * type is skipped with llvm's "failed to compute relocation" warning.
 */
final class CoffRelocations {
  private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final int RELOCATION = 10;

  private CoffRelocations() {}

  /**
   * A relocated copy of {@code data} (section {@code s}) in {@code arena}; {@code sections} gets, per
   * relocated offset, the index of the section of the symbol used (llvm's SectionedAddress).
   */
  static ByteView apply(CoffFile coff, CoffSection s, ByteView data, Arena arena, Consumer<String> warn, Map<Long, Integer> sections) {
    ByteView f = coff.bytes();
    long at = s.pointerToRelocations();
    long n = s.numberOfRelocations();
    if (!f.has(at, n * RELOCATION)) {
      throw f.error(s.headerOffset() + 24, "relocations of section " + s.name() + " extend past the end of the file");
    }
    MemorySegment copy = arena.allocate(Math.max(1, data.size()), 16).asSlice(0, data.size());
    MemorySegment.copy(data.segment(), 0, copy, 0, data.size());
    int machine = coff.header().machine();
    CoffSymbolTable symbols = coff.symbols();
    for (long i = 0; i < n; i++) {
      long r = at + i * RELOCATION;
      long offset = f.u32(r);
      long index = f.u32(r + 4);
      int type = f.u16(r + 8);
      int width = width(machine, type);
      if (width < 0) {
        warn.accept("failed to compute relocation: " + typeName(machine, type) + ", Invalid data was encountered while parsing the file");
        continue;
      }
      long address = 0;
      int section = -1;
      if (index < symbols.count()) {
        int number = symbols.sectionNumber(index);
        address = symbolValue(symbols, index);
        if (number > 0 && number <= coff.sections().size()) {
          address += coff.address(coff.sections().get(number - 1));
          section = number - 1;
        }
      }
      if (offset + width > data.size()) continue; // never read by llvm
      if (width == 8) {
        copy.set(U64, offset, address + copy.get(U64, offset));
      } else {
        copy.set(U32, offset, (int) (address + Integer.toUnsignedLong(copy.get(U32, offset))));
      }
      sections.put(offset, section);
    }
    return new ByteView(copy, 0, ByteOrder.LITTLE_ENDIAN, coff.source() + " (" + s.name() + ", relocated)");
  }

  /** llvm's ObjectFile::getSymbolValue for a COFF symbol: 0 if undefined, the common size if common, else its Value. */
  static long symbolValue(CoffSymbolTable symbols, long i) {
    int number = symbols.sectionNumber(i);
    int storage = symbols.storageClass(i);
    long value = symbols.value(i);
    boolean weak = storage == CoffSymbolTable.IMAGE_SYM_CLASS_WEAK_EXTERNAL;
    if (weak && symbols.weakCharacteristics(i) != CoffSymbolTable.IMAGE_WEAK_EXTERN_SEARCH_ALIAS) return 0;
    if (number == CoffSymbolTable.IMAGE_SYM_UNDEFINED) {
      if (value == 0) return 0;
      if (storage == CoffSymbolTable.IMAGE_SYM_CLASS_EXTERNAL) {
        // a common symbol: getCommonSymbolSize, min(32, PowerOf2Ceil(Value))
        long p = Long.highestOneBit(value);
        if (p != value) p <<= 1;
        return Math.min(32, p);
      }
    }
    return value;
  }

  /** Bytes written by a type llvm resolves on this machine, or -1. */
  private static int width(int machine, int type) {
    return switch (machine) {
      case CoffHeader.IMAGE_FILE_MACHINE_AMD64 -> type == 0xb ? 4 : type == 1 ? 8 : -1; // SECREL, ADDR64
      case CoffHeader.IMAGE_FILE_MACHINE_I386 -> type == 0xb || type == 6 ? 4 : -1; // SECREL, DIR32
      case CoffHeader.IMAGE_FILE_MACHINE_ARM64, CoffHeader.IMAGE_FILE_MACHINE_ARM64EC, CoffHeader.IMAGE_FILE_MACHINE_ARM64X ->
          type == 8 ? 4 : type == 0xe ? 8 : -1; // SECREL, ADDR64
      case CoffHeader.IMAGE_FILE_MACHINE_ARMNT -> type == 0xf || type == 1 ? 4 : -1; // SECREL, ADDR32
      default -> -1;
    };
  }

  /** llvm's getRelocationTypeName for the types DWARF may carry, "Unknown" otherwise. */
  static String typeName(int machine, int type) {
    String[] names = switch (machine) {
      case CoffHeader.IMAGE_FILE_MACHINE_AMD64 -> new String[] {"IMAGE_REL_AMD64_ABSOLUTE", "IMAGE_REL_AMD64_ADDR64",
          "IMAGE_REL_AMD64_ADDR32", "IMAGE_REL_AMD64_ADDR32NB", "IMAGE_REL_AMD64_REL32", "IMAGE_REL_AMD64_REL32_1",
          "IMAGE_REL_AMD64_REL32_2", "IMAGE_REL_AMD64_REL32_3", "IMAGE_REL_AMD64_REL32_4", "IMAGE_REL_AMD64_REL32_5",
          "IMAGE_REL_AMD64_SECTION", "IMAGE_REL_AMD64_SECREL", "IMAGE_REL_AMD64_SECREL7", "IMAGE_REL_AMD64_TOKEN",
          "IMAGE_REL_AMD64_SREL32", "IMAGE_REL_AMD64_PAIR", "IMAGE_REL_AMD64_SSPAN32"};
      case CoffHeader.IMAGE_FILE_MACHINE_I386 -> new String[] {"IMAGE_REL_I386_ABSOLUTE", "IMAGE_REL_I386_DIR16",
          "IMAGE_REL_I386_REL16", null, null, null, "IMAGE_REL_I386_DIR32", "IMAGE_REL_I386_DIR32NB", null,
          "IMAGE_REL_I386_SEG12", "IMAGE_REL_I386_SECTION", "IMAGE_REL_I386_SECREL", "IMAGE_REL_I386_TOKEN",
          "IMAGE_REL_I386_SECREL7", null, null, null, null, null, null, "IMAGE_REL_I386_REL32"};
      default -> new String[0];
    };
    return type < names.length && names[type] != null ? names[type] : "Unknown";
  }
}
