package dev.gsym.dwarf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split DWARF (-gsplit-dwarf): skeleton units load their .dwo through DW_AT_comp_dir +
 * DW_AT_dwo_name, or beside the binary; a missing .dwo gives llvm's warning and the skeleton is
 * used. A package {@code <binary>.dwp} takes precedence over .dwo files, as in llvm. Byte-identity
 * with llvm-gsymutil-22 for the split builds is in LlvmConvertDifferentialTest and, for packages,
 * in GoldenConvertTest (bin/dwp-*). The .dwo test needs clang-22 and {@link #packagesAsLlvmLive}
 * llvm-gsymutil-22: each is a reported skip without it (a failure under -Dgsym.requireTools=true).
 */
@NeedsLlvm
class SplitDwarfTest {
  @TempDir Path tmp;

  private record Result(DwarfConverter.Summary summary, String log, byte[] gsym) {}

  private static Result convert(Path bin) throws Exception {
    StringBuilder log = new StringBuilder();
    Diagnostics d = new Diagnostics(log);
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(bin, c, d, DwarfConverter.Options.builder().threads(1).build());
    return new Result(s, log + d.summary(), c.encode(s.byteOrder()));
  }

  @Test
  void dwoFilesAreFoundOrWarnedAbout() throws Exception {
    Path build = Files.createDirectories(tmp.resolve("build"));
    for (String f : List.of("c_main.c", "c_util.c", "c_util.h")) Files.copy(TestData.path("src", f), build.resolve(f));
    String clang = Tools.require("clang-22").toString();
    for (String u : List.of("c_main", "c_util")) {
      assertThat(LlvmConvertDifferentialTest.run(build, List.of(clang, "-g", "-gsplit-dwarf", "-O2", "-c", u + ".c"))).as("clang-22 -c " + u + ".c").isTrue();
    }
    assertThat(LlvmConvertDifferentialTest.run(build, List.of(clang, "c_main.o", "c_util.o", "-o", "a.out"))).as("link a.out").isTrue();
    Path bin = build.resolve("a.out");

    Result found = convert(bin);
    assertThat(found.summary().dwarfFunctions()).isGreaterThan(5);
    assertThat(found.log()).doesNotContain("Unable to retrieve DWO");
    try (GsymReader r = GsymReader.of(found.gsym(), "a.gsym")) {
      long outer = -1;
      for (int i = 0; i < r.numFunctions(); i++) {
        if (r.string(r.functionInfoAtIndex(i).name()).equals("outer")) outer = r.functionAddress(i);
      }
      assertThat(outer).isNotEqualTo(-1);
      LookupResult lr = r.lookup(outer);
      assertThat(lr.locations().size()).as("inline frames from the .dwo").isGreaterThan(1);
      assertThat(lr.locations().getLast().base()).isEqualTo("c_main.c");
    }

    // Moved together to a directory the compilation directory does not name: found beside the binary.
    Path moved = Files.createDirectories(tmp.resolve("moved"));
    for (String f : List.of("a.out", "c_main.dwo", "c_util.dwo")) Files.move(build.resolve(f), moved.resolve(f));
    Result beside = convert(moved.resolve("a.out"));
    assertThat(beside.gsym()).isEqualTo(found.gsym());

    // Without the .dwo files: llvm's warning per unit, then only the symbol table.
    Files.delete(moved.resolve("c_main.dwo"));
    Files.move(moved.resolve("c_util.dwo"), moved.resolve("other.dwo"), StandardCopyOption.REPLACE_EXISTING);
    Result missing = convert(moved.resolve("a.out"));
    assertThat(missing.summary().dwarfFunctions()).isZero();
    assertThat(missing.log()).contains("warning: Unable to retrieve DWO .debug_info section for c_main.dwo\n")
        .contains("warning: Unable to retrieve DWO .debug_info section for c_util.dwo\n")
        .contains("warning: Unable to retrieve DWO .debug_info section for some object files. (Remove the --quiet flag for full output) occurred 2 time(s)");
  }

  /** Runs llvm-gsymutil-22 --convert NAME in {@code dir}; its GSYM bytes (the test is skipped without the tool). */
  private static byte[] llvmConvert(Path dir, String name) throws Exception {
    Path gsymutil = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Path out = dir.resolve(name + ".llvm.gsym");
    Files.deleteIfExists(out);
    assertThat(LlvmConvertDifferentialTest.run(dir, List.of(gsymutil.toString(), "--convert", name, "--out-file", out.toString(),
        "--num-threads=1"))).isTrue();
    return Files.readAllBytes(out);
  }

  /**
   * As llvm's DWARFContext: when NAME.dwp opens as an object file it answers for every skeleton,
   * even with the right .dwo files at hand (here: a package of other units, so both skeletons warn
   * and no DWARF function loads); a .dwp that is no object file is ignored and the .dwo files are
   * used. Run from the binary's directory, where llvm finds the .dwo files through comp_dir ".".
   */
  @Test
  void packageTakesPrecedenceOverDwoFiles() throws Exception {
    Path bin = precedenceBuild();
    byte[] golden = Files.readAllBytes(TestData.path("gsym", "split-clang-O2.gsym"));

    Files.copy(TestData.path("bin", "dwp-clang-O2-d5.dwp"), bin.resolveSibling("split-clang-O2.dwp"));
    Result other = convert(bin);
    assertThat(other.summary().dwarfFunctions()).isZero();
    assertThat(other.log()).contains("warning: Unable to retrieve DWO .debug_info section for split-clang-O2-c_main.dwo\n")
        .contains("warning: Unable to retrieve DWO .debug_info section for split-clang-O2-c_util.dwo\n");

    Files.writeString(bin.resolveSibling("split-clang-O2.dwp"), "not an object file\n");
    Result junk = convert(bin);
    assertThat(junk.gsym()).isEqualTo(golden);
  }

  /** split-clang-O2 and its two .dwo files in a directory of their own; the binary. */
  private Path precedenceBuild() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("prec"));
    for (String f : List.of("split-clang-O2", "split-clang-O2-c_main.dwo", "split-clang-O2-c_util.dwo")) {
      Files.copy(TestData.path("bin", f), dir.resolve(f));
    }
    return dir.resolve("split-clang-O2");
  }

  private static final List<String> RENAMED = List.of("dwp-gcc-O2-d4", "dwp-clangxx-O2-d5-types");

  /** {@code name} and its package copied to NAME/prog and NAME/prog.dwp; the binary. */
  private Path renamedBuild(String name) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve(name));
    Files.copy(TestData.path("bin", name), dir.resolve("prog"));
    Files.copy(TestData.path("bin", name + ".dwp"), dir.resolve("prog.dwp"));
    return dir.resolve("prog");
  }

  /** The package is the binary's path + ".dwp": found beside a renamed copy, without any .dwo. */
  @Test
  void packageBesideRenamedBinary() throws Exception {
    for (String name : RENAMED) {
      Path prog = renamedBuild(name);
      Result r = convert(prog);
      assertThat(r.log()).doesNotContain("Unable to retrieve DWO");
      assertThat(r.gsym()).as(name).isEqualTo(Files.readAllBytes(TestData.path("gsym", name + ".gsym")));
      // without it: llvm's warnings, symbol table only
      Files.delete(prog.resolveSibling("prog.dwp"));
      assertThat(convert(prog).summary().dwarfFunctions()).isZero();
    }
  }

  /** The two package tests above, converted by llvm-gsymutil-22 too: the same bytes. */
  @Test
  void packagesAsLlvmLive() throws Exception {
    Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Path bin = precedenceBuild();
    Files.copy(TestData.path("bin", "dwp-clang-O2-d5.dwp"), bin.resolveSibling("split-clang-O2.dwp"));
    assertThat(llvmConvert(bin.getParent(), "split-clang-O2")).as("a package of other units").isEqualTo(convert(bin).gsym());
    Files.writeString(bin.resolveSibling("split-clang-O2.dwp"), "not an object file\n");
    assertThat(llvmConvert(bin.getParent(), "split-clang-O2")).as("a .dwp that is no object file")
        .isEqualTo(Files.readAllBytes(TestData.path("gsym", "split-clang-O2.gsym")));
    for (String name : RENAMED) {
      Path prog = renamedBuild(name);
      assertThat(llvmConvert(prog.getParent(), "prog")).as(name).isEqualTo(convert(prog).gsym());
    }
  }

  /** A package index that llvm would crash on, loop on or misread is one error naming the file, section and offset. */
  @Test
  void hostilePackageIndexes() throws Exception {
    String name = "dwp-clang-O2-d5";
    byte[] dwp = Files.readAllBytes(TestData.path("bin", name + ".dwp"));
    long idx, info;
    try (ElfFile elf = ElfFile.of(dwp, "dwp")) {
      idx = elf.section(".debug_cu_index").offset();
      info = elf.section(".debug_info.dwo").offset();
    }
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(dwp).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    int columns = b.getInt((int) idx + 4), units = b.getInt((int) idx + 8), slots = b.getInt((int) idx + 12);
    long rows = idx + 16 + 12L * slots + 4L * columns; // the offsets table (column 0 is INFO for llvm-dwp)
    int usedSlot = 0;
    while (b.getInt((int) (idx + 16 + 8L * slots + 4L * usedSlot)) == 0) usedSlot++;
    long rowNumber = idx + 16 + 8L * slots + 4L * usedSlot;
    record Damage(long at, int value, long reported, String detail) {}
    List<Damage> damages = List.of(
        new Damage(idx + 8, 0x7fffffff, idx + 4, "do not fit"),
        new Damage(rowNumber, units + 1, rowNumber, "names unit row " + (units + 1)),
        new Damage(rows, 0x10000, info + 0, "is past the end of .debug_info.dwo"),
        new Damage(rows + 4L * columns * units, 0x20, info, "has an inconsistent index (expected: 32"),
        new Damage(idx, 7, idx, "unsupported index version"));
    for (Damage d : damages) {
      byte[] bad = dwp.clone();
      java.nio.ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) d.at(), d.value());
      Path dir = Files.createDirectories(tmp.resolve("hostile-" + Long.toHexString(d.at())));
      Files.copy(TestData.path("bin", name), dir.resolve(name));
      Files.write(dir.resolve(name + ".dwp"), bad);
      GsymFormatException e = org.junit.jupiter.api.Assertions.assertThrows(GsymFormatException.class, () -> convert(dir.resolve(name)));
      assertThat(e.getMessage()).as(d.toString()).contains(name + ".dwp").contains(d.detail());
      if (d.detail().contains("inconsistent") || d.detail().contains("past the end")) {
        assertThat(e.source()).endsWith(name + ".dwp (.debug_info.dwo)");
      } else {
        assertThat(e.source()).endsWith(name + ".dwp");
        assertThat(e.offset()).isEqualTo(d.reported());
        assertThat(e.detail()).contains(".debug_cu_index at 0x" + Long.toHexString(d.reported() - idx));
      }
    }
  }
}
