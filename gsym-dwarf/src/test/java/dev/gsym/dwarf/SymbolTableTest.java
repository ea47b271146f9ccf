package dev.gsym.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.elf.ElfFile;
import dev.gsym.elf.SymbolTable;
import dev.gsym.GsymFormatException;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * llvm's symbol-table rules on damaged tables of a golden binary: a name past the string table, a
 * string-table link to a section of another type or to no section (each function symbol logged as
 * llvm logs it and skipped), an sh_entsize llvm rejects (no symbol functions), an unreadable
 * .dynsym (the conversion fails, as llvm's does). Checked against the messages llvm printed for
 * these files, and ({@link #damagedSymbolTablesAsLlvmLive}) against llvm-gsymutil-22 live: log and bytes.
 */
@NeedsLlvm
class SymbolTableTest {
  @TempDir Path tmp;

  private record Result(String log, byte[] gsym) {}

  private static Result convert(Path bin) throws Exception {
    StringBuilder log = new StringBuilder();
    Diagnostics d = new Diagnostics(log);
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(bin, c, d, DwarfConverter.Options.defaults());
    return new Result(log + d.summary(), c.encode(s.byteOrder()));
  }

  /** Writes c-gcc-O2 with {@code value} (4 or 8 bytes) at {@code at}. */
  private Path damaged(String name, long at, long value, int size) throws Exception {
    byte[] b = Files.readAllBytes(TestData.path("bin", "c-gcc-O2"));
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    if (size == 4) bb.putInt((int) at, (int) value);
    else bb.putLong((int) at, value);
    return Files.write(tmp.resolve(name), b);
  }

  private static void sameAsLlvm(Path gsymutil, Path bin, Result ours) throws Exception {
    Path out = bin.resolveSibling(bin.getFileName() + ".llvm.gsym");
    Path log = bin.resolveSibling(bin.getFileName() + ".llvm.log");
    assertThat(LlvmConvertDifferentialTest.run(bin.getParent(), List.of(gsymutil.toString(), "--convert", bin.toString(),
        "--out-file", out.toString(), "--num-threads=1"), log)).isTrue();
    String l = Files.readString(log);
    assertThat(ours.log()).isEqualTo(l.substring(l.indexOf('\n', l.indexOf('\n') + 1) + 1));
    assertThat(ours.gsym()).isEqualTo(Files.readAllBytes(out));
  }

  /** c-gcc-O2 with one field of its symbol tables damaged: each file, and where the .dynsym header is. */
  private record Damaged(Path name, Path link, Path noSection, Path entsize, Path dynent, int progbits, int dynsym,
      long shdrDynsym) {}

  private Damaged damage() throws Exception {
    ElfFile.Section symtab, dynsym, progbits = null;
    long firstFunction = -1, shdrSymtab, shdrDynsym;
    try (ElfFile elf = ElfFile.open(TestData.path("bin", "c-gcc-O2"))) {
      symtab = elf.section(".symtab");
      dynsym = elf.section(".dynsym");
      for (ElfFile.Section s : elf.sections()) if (progbits == null && s.type() == 1) progbits = s;
      SymbolTable t = SymbolTable.of(elf);
      for (long i = 1; i < t.count() && firstFunction < 0; i++) {
        if (t.type(i) == SymbolTable.STT_FUNC && t.rawValue(i) != 0) firstFunction = i;
      }
      shdrSymtab = elf.sectionHeaderOffset(symtab.index());
      shdrDynsym = elf.sectionHeaderOffset(dynsym.index());
    }
    return new Damaged(damaged("name", symtab.offset() + firstFunction * 24, 0x7fffff00L, 4),
        damaged("link", shdrSymtab + 40, progbits.index(), 4), damaged("link999", shdrSymtab + 40, 999, 4),
        damaged("entsize", shdrSymtab + 56, 0, 8), damaged("dynent", shdrDynsym + 56, 7, 8), progbits.index(),
        dynsym.index(), shdrDynsym);
  }

  @Test
  void damagedSymbolTables() throws Exception {
    Damaged d = damage();
    int strtabSize = 0x253;
    assertThat(convert(d.name()).log()).contains("ObjectFileTransformer: st_name (0x7fffff00) is past the end of the string table of size 0x"
        + Integer.toHexString(strtabSize) + "\nLoaded 14 functions from symbol table.\n");
    assertThat(convert(d.link()).log()).contains("ObjectFileTransformer: invalid sh_type for string table section [index " + d.progbits()
        + "]: expected SHT_STRTAB, but got SHT_PROGBITS\n").contains("Loaded 0 functions from symbol table.\n");
    assertThat(convert(d.noSection()).log()).contains("ObjectFileTransformer: invalid section index: 999\n")
        .contains("Loaded 0 functions from symbol table.\n");
    assertThat(convert(d.entsize()).log()).contains("Loaded 8 functions from DWARF.\nLoaded 0 functions from symbol table.\n");

    // llvm: "DWARF conversion failed: : section [index 6] has invalid sh_entsize: expected 24, but got 7", exit 1
    assertThatThrownBy(() -> convert(d.dynent())).isInstanceOf(GsymFormatException.class)
        .hasMessageContaining("section [index " + d.dynsym() + "] has invalid sh_entsize: expected 24, but got 7")
        .satisfies(e -> assertThat(((GsymFormatException) e).offset()).isEqualTo(d.shdrDynsym()));
  }

  /** The damaged files converted by llvm-gsymutil-22 too: the same log and bytes; the unreadable .dynsym fails it. */
  @Test
  void damagedSymbolTablesAsLlvmLive() throws Exception {
    Path gsymutil = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Damaged d = damage();
    for (Path bin : List.of(d.name(), d.link(), d.noSection(), d.entsize())) sameAsLlvm(gsymutil, bin, convert(bin));
    Path log = tmp.resolve("dynent.llvm.log");
    assertThat(LlvmConvertDifferentialTest.run(tmp, List.of(gsymutil.toString(), "--convert", d.dynent().toString(),
        "--out-file", tmp.resolve("dynent.llvm.gsym").toString(), "--num-threads=1"), log)).isFalse();
    assertThat(Files.readString(log)).contains("has invalid sh_entsize: expected 24, but got 7");
  }
}
