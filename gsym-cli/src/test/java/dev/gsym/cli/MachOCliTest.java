package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * gsymutil --convert on the Mach-O goldens of src-test-data/macho (regenerate-macho.sh), the
 * options goldens of src-test-data/macho-options (regenerate-macho-options.sh: --dwarf-callsites,
 * --callsites-yaml-file, --merged-functions on Mach-O) and the
 * PE/COFF goldens of src-test-data/pecoff (regenerate-pecoff.sh): the same
 * stdout as llvm-gsymutil-22 (log, "Output file (ARCH)" lines, OUT.ARCH names for universal files,
 * --verify reports) and the same GSYM files; dumps and lookups of llvm's files as llvm prints them;
 * llvm's messages for a missing architecture and bad dSYM bundles, and one clear error naming file,
 * offset and problem for damaged Mach-O and universal headers.
 */
class MachOCliTest {
  @TempDir Path tmp;

  record Row(String dir, String name, String input, List<String> flags) {
    @Override
    public String toString() {
      return dir + "/" + name;
    }
  }

  static Stream<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    for (String dir : List.of("macho", "pecoff", "macho-options")) {
      for (String line : Files.readAllLines(TestData.path(dir, "manifest.tsv"))) {
        if (line.startsWith("#")) continue;
        String[] f = line.split("\t", -1);
        rows.add(new Row(dir, f[0], f[1], f[2].isEmpty() ? List.of() : List.of(f[2].split(" "))));
      }
    }
    return rows.stream();
  }

  /**
   * The goldens' conversions: macho/ and pecoff/ convert their own bin/ files; macho-options/
   * (regenerate-macho-options.sh) converts macho/bin's with --dwarf-callsites,
   * --callsites-yaml-file, --merged-functions (run in macho-options/, so its log names
   * ../macho/bin/INPUT).
   */
  @ParameterizedTest
  @MethodSource("rows")
  void convertsAsLlvm(Row row) throws IOException {
    boolean options = row.dir().equals("macho-options");
    Path in = options ? TestData.path("macho", "bin", row.input()) : TestData.path(row.dir(), "bin", row.input());
    Path gsymDir = Files.createDirectories(tmp.resolve("gsym"));
    List<String> args = new ArrayList<>(List.of("--convert", in.toString(), "--out-file", gsymDir.resolve(row.name() + ".gsym").toString(),
        "--num-threads=1", "--verify"));
    for (String f : row.flags()) args.add(f.equals("callsites.yaml") ? TestData.path(row.dir(), f).toString() : f);
    CliRun r = CliRun.run(args.toArray(String[]::new));
    assertThat(r.err()).isEmpty();
    String expected = Files.readString(TestData.path(row.dir(), "expected", row.name() + ".convert.txt"));
    // llvm exits 0 after --verify mismatches (COFF objects' line-0 rows); we exit 1
    assertThat(r.status()).isEqualTo(expected.contains("\nerror: address ") ? 1 : 0);
    assertThat(r.out().replace(in.toString(), (options ? "../macho/bin/" : "bin/") + row.input()).replace(tmp + "/", "")).isEqualTo(expected);
    List<Path> written;
    try (Stream<Path> s = Files.list(gsymDir)) {
      written = s.sorted().toList();
    }
    assertThat(written).isNotEmpty();
    for (Path p : written) {
      assertThat(p).hasSameBinaryContentAs(TestData.path(row.dir(), "gsym", p.getFileName().toString()));
      assertThat(expected).contains("Output file (").contains(": gsym/" + p.getFileName() + "\n");
    }
  }

  static Stream<String> gsymFiles() throws IOException {
    List<String> all = new ArrayList<>();
    for (String dir : List.of("macho", "pecoff", "macho-options")) {
      try (Stream<Path> s = Files.list(TestData.path(dir, "gsym"))) {
        s.map(p -> dir + "/" + p.getFileName()).sorted().forEach(all::add);
      }
    }
    return all.stream();
  }

  @ParameterizedTest
  @MethodSource("gsymFiles")
  void dumpsAndLookupsAsLlvm(String file) throws IOException {
    String dir = file.substring(0, file.indexOf('/'));
    String name = file.substring(dir.length() + 1);
    Path gsym = TestData.path(dir, "gsym", name);
    CliRun dump = CliRun.run(gsym.toString());
    assertThat(dump.out()).isEqualTo(Files.readString(TestData.path(dir, "expected", name + ".dump.txt")));
    List<String> args = new ArrayList<>();
    for (String a : Files.readAllLines(TestData.path(dir, "expected", name + ".addrs"))) {
      args.add("--address");
      args.add(a);
    }
    args.add(gsym.toString());
    CliRun lookup = CliRun.run(args.toArray(String[]::new));
    assertThat(lookup.out().replace(gsym.toString(), name)).isEqualTo(Files.readString(TestData.path(dir, "expected", name + ".lookup.txt")));
    Path merged = TestData.path(dir, "expected", name + ".merged.txt");
    if (Files.exists(merged)) {
      args.addFirst("--merged-functions");
      CliRun m = CliRun.run(args.toArray(String[]::new));
      assertThat(m.out().replace(gsym.toString(), name)).isEqualTo(Files.readString(merged));
    }
  }

  /**
   * A dSYM larger than 4 GB (a sparse copy of a golden's DWARF file with its __DWARF segment moved
   * across 2^32, section offsets stored wrapped): the same log, GSYM file and lookups as the original.
   */
  @Test
  void largeDsymConvertsAsItsOriginal() throws IOException {
    String name = "c-x86_64-O2.dSYM";
    byte[] small = Files.readAllBytes(TestData.path("macho", "bin", name, "Contents", "Resources", "DWARF", "c-x86_64-O2"));
    dev.gsym.testing.LargeDsym.Segment seg = dev.gsym.testing.LargeDsym.dwarfSegment(small);
    long at = (1L << 32) - (seg.sectionOffsets()[3] - seg.fileoff()) - 100; // 2^32 inside the 4th section
    Path big = dev.gsym.testing.LargeDsym.write(small, at, tmp.resolve("big"));
    Path out = tmp.resolve("big.gsym");
    CliRun r = CliRun.run("--convert", big.toString(), "--out-file", out.toString(), "--num-threads=1", "--verify");
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    assertThat(r.out().replace(out.toString(), "gsym/" + name + ".gsym").replace(big.toString(), "bin/" + name))
        .isEqualTo(Files.readString(TestData.path("macho", "expected", name + ".convert.txt")));
    assertThat(out).hasSameBinaryContentAs(TestData.path("macho", "gsym", name + ".gsym"));
    List<String> args = new ArrayList<>();
    for (String a : Files.readAllLines(TestData.path("macho", "expected", name + ".gsym.addrs"))) {
      args.add("--address");
      args.add(a);
    }
    args.add(out.toString());
    assertThat(CliRun.run(args.toArray(String[]::new)).out().replace(out.toString(), name + ".gsym"))
        .isEqualTo(Files.readString(TestData.path("macho", "expected", name + ".gsym.lookup.txt")));
  }

  @Test
  void noMatchingArchitectureAsLlvm() {
    String fat = TestData.path("macho", "bin", "fat-c-O2").toString();
    CliRun r = CliRun.run("--convert", fat, "--arch", "armv7", "--arch", "12", "-o", tmp.resolve("x.gsym").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEqualTo("Input file: " + fat + "\n");
    assertThat(r.err()).isEqualTo(fat + ": no matching architectures found\n");
    assertThat(tmp.resolve("x.gsym")).doesNotExist();
    // --arch is ignored for a thin file, as llvm does
    CliRun thin = CliRun.run("--convert", TestData.path("macho", "bin", "c-arm64-O2.o").toString(), "--arch", "x86_64", "-o",
        tmp.resolve("y.gsym").toString());
    assertThat(thin.status()).isZero();
    assertThat(thin.out()).contains("Output file (aarch64): " + tmp.resolve("y.gsym"));
    // a CPU type number selects too (llvm's filterArch): 0x01000007 is x86_64
    CliRun num = CliRun.run("--convert", fat, "--arch", "0x01000007", "-o", tmp.resolve("z.gsym").toString());
    assertThat(num.status()).isZero();
    assertThat(num.out()).contains("Output file (x86_64): " + tmp.resolve("z.gsym") + "\n");
  }

  /**
   * A thin Mach-O file's "Output file (ARCH)" name: llvm main's getArchitectureName (the slice names
   * arm64, armv7, arm64_32; its test ARM_AArch64/fat-macho-symtab-file.yaml, commit 4192235d67d9,
   * expects "Output file (arm64)" for a thin file) with --llvm-compat=23; LLVM 22's triple names
   * (the goldens' "aarch64", "arm", "aarch64_32") by default and with --llvm-compat=22.
   */
  @Test
  void thinMachONamesAreLlvm22sUnlessAskedFor() throws IOException {
    for (String[] c : List.of(new String[] {"c-arm64-O2.o", "arm64", "aarch64"}, new String[] {"c-armv7-O2.o", "armv7", "arm"},
        new String[] {"c-arm64_32-O2", "arm64_32", "aarch64_32"}, new String[] {"c-x86_64-O2.o", "x86_64", "x86_64"},
        new String[] {"c-i386-O2.o", "i386", "i386"})) {
      String in = TestData.path("macho", "bin", c[0]).toString();
      Path out = tmp.resolve(c[0] + ".gsym");
      CliRun main = CliRun.run("--convert", in, "-o", out.toString(), "--llvm-compat=23");
      assertThat(main.status()).as(main.err()).isZero();
      assertThat(main.out()).startsWith("Input file: " + in + "\nOutput file (" + c[1] + "): " + out + "\n");
      for (String compat : new String[] {null, "--llvm-compat=22"}) {
        CliRun v22 = compat == null ? CliRun.run("--convert", in, "-o", out.toString())
            : CliRun.run("--convert", in, "-o", out.toString(), compat);
        assertThat(v22.out()).startsWith("Input file: " + in + "\nOutput file (" + c[2] + "): " + out + "\n");
      }
      assertThat(Files.readString(TestData.path("macho", "expected", c[0] + ".convert.txt")))
          .contains("Output file (" + c[2] + "): ");
    }
  }

  @Test
  void dsymBundleErrorsAsLlvm() throws IOException {
    Path empty = Files.createDirectories(tmp.resolve("empty.dSYM"));
    CliRun r = CliRun.run("--convert", empty.toString(), "-o", tmp.resolve("x.gsym").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEqualTo("Input file: " + empty + "\n");
    assertThat(r.err()).isEqualTo("error: " + empty + ": expected directory 'Contents/Resources/DWARF' in dSYM bundle\n");
    Path none = Files.createDirectories(tmp.resolve("none.dSYM/Contents/Resources/DWARF")).getParent().getParent().getParent();
    CliRun n = CliRun.run("--convert", none.toString(), "-o", tmp.resolve("x.gsym").toString());
    assertThat(n.status()).isEqualTo(1);
    assertThat(n.err()).isEqualTo("error: " + none + ": no objects found in dSYM bundle\n");
    // a directory that is no .dSYM bundle is no input file
    CliRun dir = CliRun.run("--convert", tmp.toString(), "-o", tmp.resolve("x.gsym").toString());
    assertThat(dir.status()).isEqualTo(1);
    assertThat(dir.err()).isEqualTo(tmp + ": Is a directory\n");
    // a trailing slash names the same bundle (llvm normalizes the path)
    Path bundle = TestData.path("macho", "bin", "c-x86_64-O2.dSYM");
    CliRun slash = CliRun.run("--convert", bundle + "/", "-o", tmp.resolve("s.gsym").toString());
    assertThat(slash.status()).isZero();
    assertThat(tmp.resolve("s.gsym")).hasSameBinaryContentAs(TestData.path("macho", "gsym", "c-x86_64-O2.dSYM.gsym"));
  }

  /** Damaged headers: one line naming the file, llvm's description and the offset; no output, no trace. */
  @Test
  void damagedMachOAndUniversalFiles() throws IOException {
    byte[] thin = Files.readAllBytes(TestData.path("macho", "bin", "c-x86_64-O2"));
    byte[] fat = Files.readAllBytes(TestData.path("macho", "bin", "fat-c-O2"));
    check(java.util.Arrays.copyOf(thin, 20), "truncated or malformed object (the mach header extends past the end of the file) at offset 0x0");
    byte[] ncmds = thin.clone();
    putLe(ncmds, 16, 0x7fffffff); // absurd ncmds: the commands run out of sizeofcmds
    check(ncmds, "extends past the end all load commands in the file) at offset 0x");
    byte[] sizeofcmds = thin.clone();
    putLe(sizeofcmds, 20, 0xfffffff0);
    check(sizeofcmds, "truncated or malformed object (load commands extend past the end of the file) at offset 0x14");
    byte[] cmdsize = thin.clone();
    putLe(cmdsize, 32 + 4, 0x7ffffff8); // first command's cmdsize past the file
    check(cmdsize, "truncated or malformed object (load command 0 extends past end of file) at offset 0x20");
    byte[] object = Files.readAllBytes(TestData.path("macho", "bin", "c-x86_64-O2.o"));
    byte[] overlapping = object.clone();
    // the second section of the first LC_SEGMENT_64 (sections at 32 + 72, 80 bytes each) at the first's contents
    putLe(overlapping, 104 + 80 + 48, (int) readLe(object, 104 + 48));
    check(overlapping, "truncated or malformed object (section contents at offset " + readLe(object, 104 + 48));
    check(overlapping, "overlaps section contents at offset");
    byte[] nfat = fat.clone();
    putBe(nfat, 4, 0x00ffff01); // absurd nfat_arch (byte 7 still < 43: a universal file)
    check(nfat, "truncated or malformed fat file (fat_arch structs would extend past the end of the file) at offset 0x4");
    byte[] overlap = fat.clone();
    putBe(overlap, 8 + 20 + 8, (int) readBe(overlap, 8 + 8)); // second slice at the first's offset,
    putBe(overlap, 8 + 20 + 16, (int) readBe(overlap, 8 + 16)); // with its alignment
    // llvm-readobj-22 on this file: the same description
    check(overlap, "truncated or malformed fat file (cputype (16777223) cpusubtype (3) at offset 4096 with a size of 4928, overlaps"
        + " cputype (16777228) cpusubtype (0) at offset 4096 with a size of 17504) at offset 0x10");
    byte[] past = fat.clone();
    putBe(past, 8 + 12, 0x7fffffff); // first slice's size past the file
    check(past, "truncated or malformed fat file (offset plus size of cputype (16777223) cpusubtype (3) extends past the end of the file)"
        + " at offset 0x10");
  }

  private void check(byte[] bytes, String message) throws IOException {
    Path f = Files.write(tmp.resolve("bad"), bytes);
    Path out = tmp.resolve("bad.gsym");
    CliRun r = CliRun.run("--convert", f.toString(), "-o", out.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).startsWith(f + ": ").contains(message).endsWith("\n").doesNotContain("\tat ").hasLineCount(1);
    assertThat(out).doesNotExist();
  }

  private static void putLe(byte[] b, int at, int v) {
    java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(at, v);
  }

  private static void putBe(byte[] b, int at, int v) {
    java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.BIG_ENDIAN).putInt(at, v);
  }

  private static long readLe(byte[] b, int at) {
    return Integer.toUnsignedLong(java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(at));
  }

  private static long readBe(byte[] b, int at) {
    return Integer.toUnsignedLong(java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.BIG_ENDIAN).getInt(at));
  }
}
