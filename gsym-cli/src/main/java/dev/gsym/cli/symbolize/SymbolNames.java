package dev.gsym.cli.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.cli.Addresses;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.SymbolTable;
import dev.gsym.io.ByteView;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The names llvm-symbolizer gives the outermost frame from an ELF file's symbol table when it reads
 * DWARF (llvm's {@code SymbolizableObjectFile}: {@code addSymbol}, the sorting in {@code create},
 * {@code getNameFromSymbolTable}). The symbols are those of {@code .symtab}, or of {@code .dynsym}
 * when {@code .symtab} has none (a stripped file); those of an allocated section with type
 * {@code NOTYPE}, {@code OBJECT}, {@code FUNC} or {@code GNU_IFUNC}, without the ARM, AArch64 and
 * RISC-V mapping symbols. They are sorted by address, then size, keeping the table's order among
 * equals, and of the symbols at one address the last is kept: the largest, and of equal sizes the
 * one latest in the table, where ELF puts the global symbols after the local ones ({@code abort}
 * over glibc's {@code __GI_abort}). An address is named by the last symbol at or below it, unless
 * that symbol has a size and ends at or before the address. A local symbol also gives the name of
 * the {@code STT_FILE} symbol before it in the table, which llvm prints where DWARF has no file
 * ({@code crtstuff.c}).
 */
final class SymbolNames {
  /** Symbols read at most: a larger table is not used (its arrays would be hundreds of MB). */
  static final int MAX_SYMBOLS = 1 << 24;

  private static final int STT_NOTYPE = 0, STT_OBJECT = 1, STT_FUNC = 2, STT_FILE = 4, STT_GNU_IFUNC = 10;
  private static final int STB_LOCAL = 0;
  private static final long SHF_ALLOC = 0x2;
  private static final int SHN_LORESERVE = 0xff00;
  private static final int EM_PPC64 = 21, EM_ARM = 40, EM_AARCH64 = 183, EM_RISCV = 243;

  static final SymbolNames NONE = new SymbolNames(new long[0], new long[0], new String[0], new String[0]);

  /**
   * One name: the symbol's name and address, and for a local symbol the file its {@code STT_FILE}
   * symbol names (else null).
   */
  record Hit(String name, long address, String file) {}

  /** Addresses ascending (unsigned), one symbol each. */
  private final long[] addresses;
  private final long[] sizes;
  private final String[] names;
  private final String[] files;

  private SymbolNames(long[] addresses, long[] sizes, String[] names, String[] files) {
    this.addresses = addresses;
    this.sizes = sizes;
    this.names = names;
    this.files = files;
  }

  /**
   * The symbol names of the ELF file {@code path}; {@link #NONE} if it has none llvm would use, or
   * cannot be read (the file was checked when the module was opened; a failure here only costs the
   * names).
   */
  static SymbolNames read(Path path) {
    try (ElfFile elf = ElfFile.open(path)) {
      return of(elf);
    } catch (IOException | GsymFormatException | IndexOutOfBoundsException e) {
      return NONE;
    }
  }

  /** The symbol names of {@code elf} (see {@link #read}). */
  static SymbolNames of(ElfFile elf) {
    SymbolTable t = SymbolTable.of(elf);
    if (t == null || t.count() <= 1) t = SymbolTable.dynamic(elf); // llvm: .dynsym when .symtab has no symbol
    if (t == null || !t.readable() || t.count() <= 1 || t.count() > MAX_SYMBOLS) return NONE;
    int n = (int) t.count();
    long[] addr = new long[n];
    long[] size = new long[n];
    int[] index = new int[n];
    int kept = 0;
    // the STT_FILE symbols, by table index (ascending), and their names
    int[] fileIndex = new int[16];
    String[] fileName = new String[16];
    int fileCount = 0;
    ByteView opd = null;
    long opdAddress = 0;
    if (elf.machine() == EM_PPC64 && elf.byteOrder() == ByteOrder.BIG_ENDIAN) {
      // ELFv1: function symbols name descriptors in .opd, whose first word is the code address
      ElfFile.Section s = elf.section(".opd");
      if (s != null) {
        opd = elf.rawData(s);
        opdAddress = s.addr();
      }
    }
    for (int i = 1; i < n; i++) {
      int type = t.type(i);
      int shndx = t.sectionIndex(i);
      if (shndx == 0 || shndx >= SHN_LORESERVE) {
        if (type == STT_FILE && t.nameError(i) == null) {
          if (fileCount == fileIndex.length) {
            fileIndex = Arrays.copyOf(fileIndex, fileCount * 2);
            fileName = Arrays.copyOf(fileName, fileCount * 2);
          }
          fileIndex[fileCount] = i;
          fileName[fileCount++] = t.name(i);
        }
        continue;
      }
      if (type != STT_NOTYPE && type != STT_OBJECT && type != STT_FUNC && type != STT_GNU_IFUNC) continue;
      if (shndx >= elf.sections().size()) continue;
      ElfFile.Section section = elf.sections().get(shndx);
      if ((section.flags() & SHF_ALLOC) == 0) continue;
      if (t.nameError(i) != null || hasMappingSymbols(elf.machine()) && mappingSymbol(elf.machine(), t.name(i))) continue;
      long a = t.value(i);
      if (elf.type() == ElfFile.ET_REL) a += section.addr();
      // llvm-symbolizer untags addresses: bits 56-63 become copies of bit 55
      a = ((a & ((1L << 56) - 1)) << 8) >> 8;
      if (opd != null) {
        long at = a - opdAddress;
        if (Long.compareUnsigned(at, opd.size()) < 0 && opd.size() - at >= 8) a = opd.u64(at);
      }
      addr[kept] = a;
      size[kept] = t.size(i);
      index[kept] = t.binding(i) == STB_LOCAL ? -i : i; // negative: a local symbol
      kept++;
    }
    // llvm sorts by (address, size), stably, and keeps the last symbol of each address: the
    // largest, of equal sizes the one latest in the table. The distinct addresses sorted (unsigned:
    // as signed with the top bit flipped), then per address the symbol that wins.
    long[] distinct = new long[kept];
    for (int k = 0; k < kept; k++) distinct[k] = addr[k] ^ Long.MIN_VALUE;
    Arrays.sort(distinct);
    int m = 0;
    for (int k = 0; k < kept; k++) {
      if (m == 0 || distinct[k] != distinct[m - 1]) distinct[m++] = distinct[k];
    }
    int[] best = new int[m];
    Arrays.fill(best, -1);
    for (int k = 0; k < kept; k++) { // table order: a later symbol of the same size wins
      int at = Arrays.binarySearch(distinct, 0, m, addr[k] ^ Long.MIN_VALUE);
      if (best[at] < 0 || Long.compareUnsigned(size[k], size[best[at]]) >= 0) best[at] = k;
    }
    long[] outAddr = new long[m];
    long[] outSize = new long[m];
    String[] outName = new String[m];
    String[] outFile = new String[m];
    for (int at = 0; at < m; at++) {
      int s = best[at];
      outAddr[at] = addr[s];
      outSize[at] = size[s];
      outName[at] = t.name(Math.abs(index[s]));
      if (index[s] < 0) {
        // the last STT_FILE symbol before this local one in the table (ELF puts a file's locals after it)
        int f = Arrays.binarySearch(fileIndex, 0, fileCount, -index[s]);
        int before = (f >= 0 ? f : -f - 1) - 1;
        if (before >= 0) outFile[at] = fileName[before];
      }
    }
    return new SymbolNames(outAddr, outSize, outName, outFile);
  }

  /** Machines whose symbol tables have mapping symbols ({@link #mappingSymbol}). */
  private static boolean hasMappingSymbols(int machine) {
    return machine == EM_AARCH64 || machine == EM_ARM || machine == EM_RISCV;
  }

  /** llvm's SF_FormatSpecific names: ARM, AArch64 and RISC-V mapping symbols. */
  private static boolean mappingSymbol(int machine, String name) {
    return switch (machine) {
      case EM_AARCH64 -> name.startsWith("$d") || name.startsWith("$x");
      case EM_ARM -> name.isEmpty() || name.startsWith("$d") || name.startsWith("$t") || name.startsWith("$a");
      case EM_RISCV -> name.equals(".L0 ") || name.startsWith("$d") || name.startsWith("$x");
      default -> false;
    };
  }

  /** The symbol that names {@code address}, or null. */
  Hit at(long address) {
    int i = indexAt(address);
    return i < 0 ? null : new Hit(names[i], addresses[i], file(i));
  }

  /**
   * The index of the symbol that names {@code address} ({@link #name}, {@link #address}, {@link
   * #file}), or -1: {@link #at} without an object per call.
   */
  int indexAt(long address) {
    int lo = 0;
    int hi = addresses.length; // first index whose address is above
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(addresses[mid], address) <= 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo == 0) return -1;
    int i = lo - 1;
    if (sizes[i] != 0 && Long.compareUnsigned(addresses[i] + sizes[i], address) <= 0) return -1;
    return i;
  }

  /** The name of symbol {@code i}. */
  String name(int i) {
    return names[i];
  }

  /** The address of symbol {@code i}. */
  long address(int i) {
    return addresses[i];
  }

  /** For a local symbol {@code i}, the file its {@code STT_FILE} symbol names; else null. */
  String file(int i) {
    return files[i] == null || files[i].isEmpty() ? null : files[i];
  }

  /** The number of symbols kept (one per address). */
  int size() {
    return addresses.length;
  }
}
