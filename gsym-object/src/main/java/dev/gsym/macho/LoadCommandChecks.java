package dev.gsym.macho;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import java.util.HashSet;
import java.util.Set;

/**
 * llvm's checks (MachOObjectFile's constructor, llvm 22) of the load commands gsym-java does not
 * otherwise read: their sizes, the file ranges they point at (each also an element that must not
 * overlap another, {@link FileElements}), the names inside them, the commands that may appear once,
 * thread states, and the checks after the last command (LC_DYSYMTAB against LC_SYMTAB, a dylib's
 * LC_ID_DYLIB). The messages are llvm's "truncated or malformed object (...)" descriptions; the
 * offset is the command's (or the field's).
 */
final class LoadCommandChecks {
  static final int LC_SYMSEG = 0x3;
  static final int LC_THREAD = 0x4;
  static final int LC_UNIXTHREAD = 0x5;
  static final int LC_LOADFVMLIB = 0x6;
  static final int LC_IDFVMLIB = 0x7;
  static final int LC_IDENT = 0x8;
  static final int LC_FVMFILE = 0x9;
  static final int LC_PREPAGE = 0xa;
  static final int LC_LOAD_DYLIB = 0xc;
  static final int LC_ID_DYLIB = 0xd;
  static final int LC_LOAD_DYLINKER = 0xe;
  static final int LC_ID_DYLINKER = 0xf;
  static final int LC_PREBOUND_DYLIB = 0x10;
  static final int LC_ROUTINES = 0x11;
  static final int LC_SUB_FRAMEWORK = 0x12;
  static final int LC_SUB_UMBRELLA = 0x13;
  static final int LC_SUB_CLIENT = 0x14;
  static final int LC_SUB_LIBRARY = 0x15;
  static final int LC_TWOLEVEL_HINTS = 0x16;
  static final int LC_PREBIND_CKSUM = 0x17;
  static final int LC_LOAD_WEAK_DYLIB = 0x80000018;
  static final int LC_ROUTINES_64 = 0x1a;
  static final int LC_RPATH = 0x8000001c;
  static final int LC_CODE_SIGNATURE = 0x1d;
  static final int LC_SEGMENT_SPLIT_INFO = 0x1e;
  static final int LC_REEXPORT_DYLIB = 0x8000001f;
  static final int LC_LAZY_LOAD_DYLIB = 0x20;
  static final int LC_ENCRYPTION_INFO = 0x21;
  static final int LC_DYLD_INFO = 0x22;
  static final int LC_DYLD_INFO_ONLY = 0x80000022;
  static final int LC_LOAD_UPWARD_DYLIB = 0x80000023;
  static final int LC_VERSION_MIN_MACOSX = 0x24;
  static final int LC_VERSION_MIN_IPHONEOS = 0x25;
  static final int LC_FUNCTION_STARTS = 0x26;
  static final int LC_DYLD_ENVIRONMENT = 0x27;
  static final int LC_MAIN = 0x80000028;
  static final int LC_DATA_IN_CODE = 0x29;
  static final int LC_SOURCE_VERSION = 0x2a;
  static final int LC_DYLIB_CODE_SIGN_DRS = 0x2b;
  static final int LC_ENCRYPTION_INFO_64 = 0x2c;
  static final int LC_LINKER_OPTION = 0x2d;
  static final int LC_LINKER_OPTIMIZATION_HINT = 0x2e;
  static final int LC_VERSION_MIN_TVOS = 0x2f;
  static final int LC_VERSION_MIN_WATCHOS = 0x30;
  static final int LC_NOTE = 0x31;
  static final int LC_BUILD_VERSION = 0x32;
  static final int LC_DYLD_EXPORTS_TRIE = 0x80000033;
  static final int LC_DYLD_CHAINED_FIXUPS = 0x80000034;

  private static final int CPU_TYPE_I386 = 7;
  private static final int CPU_TYPE_X86_64 = 0x01000007;
  private static final int CPU_TYPE_ARM = 12;
  private static final int CPU_TYPE_ARM64 = 0x0100000c;
  private static final int CPU_TYPE_ARM64_32 = 0x0200000c;
  private static final int CPU_TYPE_POWERPC = 18;

  /** A thread state flavor llvm knows for a CPU: its number, name, word count and size in bytes. */
  private record Flavor(int flavor, String name, int count, int size) {}

  private static final Flavor[] I386 = {new Flavor(1, "x86_THREAD_STATE32", 16, 64)};
  private static final Flavor[] X86_64 = {new Flavor(7, "x86_THREAD_STATE", 44, 176), new Flavor(8, "x86_FLOAT_STATE", 133, 532),
      new Flavor(9, "x86_EXCEPTION_STATE", 6, 24), new Flavor(4, "x86_THREAD_STATE64", 42, 168),
      new Flavor(6, "x86_EXCEPTION_STATE64", 4, 16)};
  private static final Flavor[] ARM = {new Flavor(1, "ARM_THREAD_STATE", 17, 68)};
  private static final Flavor[] ARM64 = {new Flavor(6, "ARM_THREAD_STATE64", 68, 272)};
  private static final Flavor[] POWERPC = {new Flavor(1, "PPC_THREAD_STATE", 40, 160)};

  private final ByteView file;
  private final MachHeader header;
  private final FileElements elements;
  /** The commands (or groups of commands, by llvm's message) already seen that may appear once. */
  private final Set<String> once = new HashSet<>();
  private LoadCommand dysymtab;

  LoadCommandChecks(ByteView file, MachHeader header, FileElements elements) {
    this.file = file;
    this.header = header;
    this.elements = elements;
  }

  private GsymFormatException bad(long at, String detail) {
    return MachOFile.malformed(file, at, detail);
  }

  /**
   * Checks load command {@code lc} as llvm does (a no-op for the commands llvm does not check);
   * LC_SEGMENT, LC_SEGMENT_64, LC_SYMTAB, LC_UUID and LC_IDENT are the caller's.
   */
  void check(LoadCommand lc) {
    int i = lc.index();
    long p = lc.offset();
    long size = lc.size();
    switch (lc.cmd()) {
      case LoadCommand.LC_DYSYMTAB -> checkDysymtab(lc);
      case LC_DATA_IN_CODE -> linkeditData(lc, "LC_DATA_IN_CODE", "data in code info");
      case LC_LINKER_OPTIMIZATION_HINT -> linkeditData(lc, "LC_LINKER_OPTIMIZATION_HINT", "linker optimization hints");
      case LC_FUNCTION_STARTS -> linkeditData(lc, "LC_FUNCTION_STARTS", "function starts data");
      case LC_SEGMENT_SPLIT_INFO -> linkeditData(lc, "LC_SEGMENT_SPLIT_INFO", "split info data");
      case LC_DYLIB_CODE_SIGN_DRS -> linkeditData(lc, "LC_DYLIB_CODE_SIGN_DRS", "code signing RDs data");
      case LC_CODE_SIGNATURE -> linkeditData(lc, "LC_CODE_SIGNATURE", "code signature data");
      case LC_DYLD_INFO -> dyldInfo(lc, "LC_DYLD_INFO");
      case LC_DYLD_INFO_ONLY -> dyldInfo(lc, "LC_DYLD_INFO_ONLY");
      case LC_DYLD_CHAINED_FIXUPS -> linkeditData(lc, "LC_DYLD_CHAINED_FIXUPS", "chained fixups");
      case LC_DYLD_EXPORTS_TRIE -> linkeditData(lc, "LC_DYLD_EXPORTS_TRIE", "exports trie");
      case LC_ID_DYLIB -> {
        dylib(lc, "LC_ID_DYLIB");
        once(p, "LC_ID_DYLIB", "more than one LC_ID_DYLIB command");
        if (header.fileType() != MachHeader.MH_DYLIB && header.fileType() != MachHeader.MH_DYLIB_STUB) {
          throw bad(p, "LC_ID_DYLIB load command in non-dynamic library file type");
        }
      }
      case LC_LOAD_DYLIB -> dylib(lc, "LC_LOAD_DYLIB");
      case LC_LOAD_WEAK_DYLIB -> dylib(lc, "LC_LOAD_WEAK_DYLIB");
      case LC_LAZY_LOAD_DYLIB -> dylib(lc, "LC_LAZY_LOAD_DYLIB");
      case LC_REEXPORT_DYLIB -> dylib(lc, "LC_REEXPORT_DYLIB");
      case LC_LOAD_UPWARD_DYLIB -> dylib(lc, "LC_LOAD_UPWARD_DYLIB");
      case LC_ID_DYLINKER -> dylinker(lc, "LC_ID_DYLINKER");
      case LC_LOAD_DYLINKER -> dylinker(lc, "LC_LOAD_DYLINKER");
      case LC_DYLD_ENVIRONMENT -> dylinker(lc, "LC_DYLD_ENVIRONMENT");
      case LC_VERSION_MIN_MACOSX -> versionMin(lc, "LC_VERSION_MIN_MACOSX");
      case LC_VERSION_MIN_IPHONEOS -> versionMin(lc, "LC_VERSION_MIN_IPHONEOS");
      case LC_VERSION_MIN_TVOS -> versionMin(lc, "LC_VERSION_MIN_TVOS");
      case LC_VERSION_MIN_WATCHOS -> versionMin(lc, "LC_VERSION_MIN_WATCHOS");
      case LC_NOTE -> {
        if (size != 40) throw bad(p, "load command " + i + " LC_NOTE has incorrect cmdsize");
        long offset = file.u64(p + 24), length = file.u64(p + 32);
        if (Long.compareUnsigned(offset, file.size()) > 0) {
          throw bad(p + 24, "offset field of LC_NOTE command " + i + " extends past the end of the file");
        }
        if (pastEnd(offset, length)) {
          throw bad(p + 32, "size field plus offset field of LC_NOTE command " + i + " extends past the end of the file");
        }
        elements.add(offset, length, "LC_NOTE data", p + 24);
      }
      case LC_BUILD_VERSION -> {
        if (!file.has(p, 24)) throw bad(p, "Structure read out-of-range");
        long ntools = file.u32(p + 20);
        if (size != 24 + ntools * 8) throw bad(p, "load command " + i + " LC_BUILD_VERSION_COMMAND has incorrect cmdsize");
      }
      case LC_RPATH -> {
        if (size < 12) throw bad(p, "load command " + i + " LC_RPATH cmdsize too small");
        long path = file.u32(p + 8);
        if (path < 12) {
          throw bad(p, "load command " + i + " LC_RPATH path.offset field too small, not past the end of the rpath_command struct");
        }
        if (path >= size) throw bad(p, "load command " + i + " LC_RPATH path.offset field extends past the end of the load command");
        if (!terminated(p, path, size)) {
          throw bad(p, "load command " + i + " LC_RPATH library name extends past the end of the load command");
        }
      }
      case LC_SOURCE_VERSION -> {
        if (size != 16) throw bad(p, "LC_SOURCE_VERSION command " + i + " has incorrect cmdsize");
        once(p, "LC_SOURCE_VERSION", "more than one LC_SOURCE_VERSION command");
      }
      case LC_MAIN -> {
        if (size != 24) throw bad(p, "LC_MAIN command " + i + " has incorrect cmdsize");
        once(p, "LC_MAIN", "more than one LC_MAIN command");
      }
      case LC_ENCRYPTION_INFO -> {
        if (size != 20) throw bad(p, "LC_ENCRYPTION_INFO command " + i + " has incorrect cmdsize");
        encryption(lc, "LC_ENCRYPTION_INFO");
      }
      case LC_ENCRYPTION_INFO_64 -> {
        if (size != 24) throw bad(p, "LC_ENCRYPTION_INFO_64 command " + i + " has incorrect cmdsize");
        encryption(lc, "LC_ENCRYPTION_INFO_64");
      }
      case LC_LINKER_OPTION -> linkerOption(lc);
      case LC_SUB_FRAMEWORK -> sub(lc, "LC_SUB_FRAMEWORK", "sub_framework_command", "umbrella");
      case LC_SUB_UMBRELLA -> sub(lc, "LC_SUB_UMBRELLA", "sub_umbrella_command", "sub_umbrella");
      case LC_SUB_LIBRARY -> sub(lc, "LC_SUB_LIBRARY", "sub_library_command", "sub_library");
      case LC_SUB_CLIENT -> sub(lc, "LC_SUB_CLIENT", "sub_client_command", "client");
      case LC_ROUTINES -> {
        if (size != 40) throw bad(p, "LC_ROUTINES command " + i + " has incorrect cmdsize");
        once(p, "LC_ROUTINES", "more than one LC_ROUTINES and or LC_ROUTINES_64 command");
      }
      case LC_ROUTINES_64 -> {
        if (size != 72) throw bad(p, "LC_ROUTINES_64 command " + i + " has incorrect cmdsize");
        once(p, "LC_ROUTINES", "more than one LC_ROUTINES_64 and or LC_ROUTINES command");
      }
      case LC_UNIXTHREAD -> {
        thread(lc, "LC_UNIXTHREAD");
        once(p, "LC_UNIXTHREAD", "more than one LC_UNIXTHREAD command");
      }
      case LC_THREAD -> thread(lc, "LC_THREAD");
      case LC_TWOLEVEL_HINTS -> {
        if (size != 16) throw bad(p, "load command " + i + " LC_TWOLEVEL_HINTS has incorrect cmdsize");
        once(p, "LC_TWOLEVEL_HINTS", "more than one LC_TWOLEVEL_HINTS command");
        long offset = file.u32(p + 8), nhints = file.u32(p + 12);
        if (offset > file.size()) throw bad(p + 8, "offset field of LC_TWOLEVEL_HINTS command " + i + " extends past the end of the file");
        if (offset + nhints * 4 > file.size()) {
          throw bad(p + 8, "offset field plus nhints times sizeof(struct twolevel_hint) field of LC_TWOLEVEL_HINTS command " + i
              + " extends past the end of the file");
        }
        elements.add(offset, nhints * 4, "two level hints", p + 8);
      }
      case LC_SYMSEG, LC_LOADFVMLIB, LC_IDFVMLIB, LC_FVMFILE, LC_PREPAGE, LC_PREBOUND_DYLIB, LC_PREBIND_CKSUM ->
          throw bad(p, "load command " + i + " for cmd value of: " + Integer.toUnsignedString(lc.cmd()) + " is obsolete and not supported");
      default -> {
        // llvm accepts any other command unchecked
      }
    }
  }

  /** True if {@code length} bytes at {@code offset} do not fit in the file (no 64-bit wrap-around). */
  private boolean pastEnd(long offset, long length) {
    long end = offset + length;
    return Long.compareUnsigned(end, offset) < 0 || Long.compareUnsigned(end, file.size()) > 0;
  }

  private void once(long at, String key, String message) {
    if (!once.add(key)) throw bad(at, message);
  }

  /** A NUL between {@code from} and {@code size} of the command at {@code p}. */
  private boolean terminated(long p, long from, long size) {
    for (long k = from; k < size; k++) {
      if (file.u8(p + k) == 0) return true;
    }
    return false;
  }

  private void checkDysymtab(LoadCommand lc) {
    int i = lc.index();
    long p = lc.offset();
    if (lc.size() < 80) throw bad(p, "load command " + i + " LC_DYSYMTAB cmdsize too small");
    if (dysymtab != null) throw bad(p, "more than one LC_DYSYMTAB command");
    if (lc.size() != 80) throw bad(p + 4, "LC_DYSYMTAB command " + i + " has incorrect cmdsize");
    String of = " of LC_DYSYMTAB command " + i + " extends past the end of the file";
    long modSize = header.is64() ? 56 : 52;
    table(p + 32, 8, "tocoff", "ntoc", "struct dylib_table_of_contents", of, "table of contents");
    table(p + 40, modSize, "modtaboff", "nmodtab", "struct dylib_module" + (header.is64() ? "_64" : ""), of, "module table");
    table(p + 48, 4, "extrefsymoff", "nextrefsyms", "struct dylib_reference", of, "reference table");
    table(p + 56, 4, "indirectsymoff", "nindirectsyms", "uint32_t", of, "indirect table");
    table(p + 64, 8, "extreloff", "nextrel", "struct relocation_info", of, "external relocation table");
    table(p + 72, 8, "locreloff", "nlocrel", "struct relocation_info", of, "local relocation table");
    dysymtab = lc;
  }

  /** An LC_DYSYMTAB (offset, count) pair at {@code at}: in the file, and not overlapping. */
  private void table(long at, long entry, String offName, String countName, String struct, String of, String element) {
    long offset = file.u32(at), count = file.u32(at + 4);
    if (offset > file.size()) throw bad(at, offName + " field" + of);
    if (offset + count * entry > file.size()) {
      throw bad(at, offName + " field plus " + countName + " field times sizeof(" + struct + ")" + of);
    }
    elements.add(offset, count * entry, element, at);
  }

  private void linkeditData(LoadCommand lc, String name, String element) {
    int i = lc.index();
    long p = lc.offset();
    if (lc.size() < 16) throw bad(p, "load command " + i + " " + name + " cmdsize too small");
    once(p, name, "more than one " + name + " command");
    if (lc.size() != 16) throw bad(p + 4, name + " command " + i + " has incorrect cmdsize");
    long off = file.u32(p + 8), size = file.u32(p + 12);
    if (off > file.size()) throw bad(p + 8, "dataoff field of " + name + " command " + i + " extends past the end of the file");
    if (off + size > file.size()) {
      throw bad(p + 8, "dataoff field plus datasize field of " + name + " command " + i + " extends past the end of the file");
    }
    elements.add(off, size, element, p + 8);
  }

  private void dyldInfo(LoadCommand lc, String name) {
    int i = lc.index();
    long p = lc.offset();
    if (lc.size() < 48) throw bad(p, "load command " + i + " " + name + " cmdsize too small");
    once(p, "LC_DYLD_INFO", "more than one LC_DYLD_INFO and or LC_DYLD_INFO_ONLY command");
    if (lc.size() != 48) throw bad(p + 4, name + " command " + i + " has incorrect cmdsize");
    String[] parts = {"rebase", "bind", "weak_bind", "lazy_bind", "export"};
    String[] elementNames = {"dyld rebase info", "dyld bind info", "dyld weak bind info", "dyld lazy bind info", "dyld export info"};
    for (int k = 0; k < parts.length; k++) {
      long at = p + 8 + 8L * k;
      long off = file.u32(at), size = file.u32(at + 4);
      String of = " of " + name + " command " + i + " extends past the end of the file";
      if (off > file.size()) throw bad(at, parts[k] + "_off field" + of);
      if (off + size > file.size()) throw bad(at, parts[k] + "_off field plus " + parts[k] + "_size field" + of);
      elements.add(off, size, elementNames[k], at);
    }
  }

  private void dylib(LoadCommand lc, String name) {
    int i = lc.index();
    long p = lc.offset();
    if (lc.size() < 24) throw bad(p, "load command " + i + " " + name + " cmdsize too small");
    long offset = file.u32(p + 8);
    if (offset < 24) {
      throw bad(p, "load command " + i + " " + name + " name.offset field too small, not past the end of the dylib_command struct");
    }
    if (offset >= lc.size()) throw bad(p, "load command " + i + " " + name + " name.offset field extends past the end of the load command");
    if (!terminated(p, offset, lc.size())) {
      throw bad(p, "load command " + i + " " + name + " library name extends past the end of the load command");
    }
  }

  private void dylinker(LoadCommand lc, String name) {
    int i = lc.index();
    long p = lc.offset();
    if (lc.size() < 12) throw bad(p, "load command " + i + " " + name + " cmdsize too small");
    long offset = file.u32(p + 8);
    if (offset < 12) {
      throw bad(p, "load command " + i + " " + name + " name.offset field too small, not past the end of the dylinker_command struct");
    }
    if (offset >= lc.size()) throw bad(p, "load command " + i + " " + name + " name.offset field extends past the end of the load command");
    if (!terminated(p, offset, lc.size())) {
      throw bad(p, "load command " + i + " " + name + " dyld name extends past the end of the load command");
    }
  }

  private void versionMin(LoadCommand lc, String name) {
    if (lc.size() != 16) throw bad(lc.offset(), "load command " + lc.index() + " " + name + " has incorrect cmdsize");
    once(lc.offset(), "LC_VERSION_MIN", "more than one LC_VERSION_MIN_MACOSX, LC_VERSION_MIN_IPHONEOS, LC_VERSION_MIN_TVOS or"
        + " LC_VERSION_MIN_WATCHOS command");
  }

  private void encryption(LoadCommand lc, String name) {
    int i = lc.index();
    long p = lc.offset();
    once(p, "LC_ENCRYPTION_INFO", "more than one LC_ENCRYPTION_INFO and or LC_ENCRYPTION_INFO_64 command");
    long off = file.u32(p + 8), size = file.u32(p + 12);
    if (off > file.size()) throw bad(p + 8, "cryptoff field of " + name + " command " + i + " extends past the end of the file");
    if (off + size > file.size()) {
      throw bad(p + 8, "cryptoff field plus cryptsize field of " + name + " command " + i + " extends past the end of the file");
    }
  }

  private void linkerOption(LoadCommand lc) {
    int i = lc.index();
    long p = lc.offset();
    if (lc.size() < 12) throw bad(p, "load command " + i + " LC_LINKER_OPTION cmdsize too small");
    long count = file.u32(p + 8);
    long at = p + 12, left = lc.size() - 12;
    long strings = 0;
    while (left > 0) {
      while (left > 0 && file.u8(at) == 0) {
        at++;
        left--;
      }
      if (left > 0) {
        strings++;
        long len = 0;
        while (len < left && file.u8(at + len) != 0) len++;
        if (len == left) throw bad(p, "load command " + i + " LC_LINKER_OPTION string #" + strings + " is not NULL terminated");
        at += len + 1;
        left -= len + 1;
      }
    }
    if (count != strings) {
      throw bad(p, "load command " + i + " LC_LINKER_OPTION string count " + count + " does not match number of strings");
    }
  }

  private void sub(LoadCommand lc, String name, String struct, String field) {
    int i = lc.index();
    long p = lc.offset();
    if (lc.size() < 12) throw bad(p, "load command " + i + " " + name + " cmdsize too small");
    long offset = file.u32(p + 8);
    String what = "load command " + i + " " + name + " " + field;
    if (offset < 12) throw bad(p, what + ".offset field too small, not past the end of the " + struct);
    if (offset >= lc.size()) throw bad(p, what + ".offset field extends past the end of the load command");
    if (!terminated(p, offset, lc.size())) throw bad(p, what + " name extends past the end of the load command");
  }

  private void thread(LoadCommand lc, String name) {
    int i = lc.index();
    long p = lc.offset();
    // (llvm's "cmdsize too small" and "flavor in" messages lack the space after the index)
    if (lc.size() < 8) throw bad(p, "load command " + i + name + " cmdsize too small");
    long state = p + 8, end = p + lc.size();
    int cpu = header.cpuType();
    Flavor[] known = switch (cpu) {
      case CPU_TYPE_I386 -> I386;
      case CPU_TYPE_X86_64 -> X86_64;
      case CPU_TYPE_ARM -> ARM;
      case CPU_TYPE_ARM64, CPU_TYPE_ARM64_32 -> ARM64;
      case CPU_TYPE_POWERPC -> POWERPC;
      default -> null;
    };
    long n = 0;
    while (state < end) {
      if (state + 4 > end) throw bad(p, "load command " + i + "flavor in " + name + " extends past end of command");
      long flavor = file.u32(state);
      state += 4;
      if (state + 4 > end) throw bad(p, "load command " + i + " count in " + name + " extends past end of command");
      long count = file.u32(state);
      state += 4;
      if (known == null) {
        throw bad(p, "unknown cputype (" + Integer.toUnsignedString(cpu) + ") load command " + i + " for " + name
            + " command can't be checked");
      }
      Flavor f = null;
      for (Flavor k : known) if (k.flavor() == flavor) f = k;
      if (f == null) {
        throw bad(p, "load command " + i + " unknown flavor (" + flavor + ") for flavor number " + n + " in " + name + " command");
      }
      if (count != f.count()) {
        throw bad(p, "load command " + i + " count not " + f.name() + "_COUNT for flavor number " + n + " which is a " + f.name()
            + " flavor in " + name + " command");
      }
      if (state + f.size() > end) {
        throw bad(p, "load command " + i + " " + f.name() + " extends past end of command in " + name + " command");
      }
      state += f.size();
      n++;
    }
  }

  /** llvm's checks after the last command: LC_DYSYMTAB's symbol ranges, a dylib's LC_ID_DYLIB. */
  void finish(NlistTable symtab) {
    if (dysymtab != null) {
      long p = dysymtab.offset();
      if (symtab == null) throw bad(p, "contains LC_DYSYMTAB load command without a LC_SYMTAB load command");
      long nsyms = symtab.count();
      String[][] ranges = {{"ilocalsym", "nlocalsym", " load command"}, {"iextdefsym", "nextdefsym", " load command"},
          {"iundefsym", "nundefsym", " load  command"}};
      for (int k = 0; k < 3; k++) {
        long first = file.u32(p + 8 + 8L * k), count = file.u32(p + 12 + 8L * k);
        if (count != 0 && first > nsyms) {
          throw bad(p + 8 + 8L * k, ranges[k][0] + " in LC_DYSYMTAB load command extends past the end of the symbol table");
        }
        if (count != 0 && first + count > nsyms) {
          throw bad(p + 8 + 8L * k, ranges[k][0] + " plus " + ranges[k][1] + " in LC_DYSYMTAB" + ranges[k][2]
              + " extends past the end of the symbol table");
        }
      }
    }
    if ((header.fileType() == MachHeader.MH_DYLIB || header.fileType() == MachHeader.MH_DYLIB_STUB) && !once.contains("LC_ID_DYLIB")) {
      throw bad(12, "no LC_ID_DYLIB load command in dynamic library filetype");
    }
  }
}
