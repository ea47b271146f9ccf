package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds Mach-O inputs beyond the goldens with the LLVM 22 tools (C and C++, -O0 and -O2, DWARF 4
 * and 5, arm64 and x86_64: objects, executables with their dSYM bundles, dylibs, ICF, universal
 * files) and runs llvm-gsymutil-22 and gsymutil on each with the same arguments (with and without
 * --arch, --merged-functions, --verify): same stdout, stderr, exit status and output files. Every
 * input must build. A reported skip without llvm-gsymutil-22, clang-22, ld64.lld-22, ld.lld-22,
 * dsymutil-22, llvm-lipo-22 or llvm-strip-22, a failure then under -Dgsym.requireTools=true.
 */
@NeedsLlvm
class MachOLlvmDifferentialTest {
  @TempDir Path tmp;

  private static boolean run(Path dir, List<String> cmd, Path stdout, Path stderr) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.redirectOutput(stdout == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stdout.toFile()));
    pb.redirectError(stderr == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stderr.toFile()));
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return false;
    }
    return p.exitValue() == 0;
  }

  /** Runs {@code script} with sh in the temporary directory; it must succeed. */
  private void build(String script) throws IOException, InterruptedException {
    Path log = tmp.resolve("build.log");
    boolean ok = run(tmp, List.of(Tools.require("sh").toString(), "-c", script), log, log);
    assertThat(ok).as("%s%n%s", script, Files.readString(log, StandardCharsets.ISO_8859_1)).isTrue();
  }

  /** llvm-gsymutil-22; the calling test is skipped without {@code tools} (failed under -Dgsym.requireTools=true). */
  private static Path requireTools(String... tools) {
    for (String t : tools) Tools.require(t);
    return Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
  }

  @Test
  void matchesLiveLlvm() throws Exception {
    Path llvm = requireTools("clang-22", "clang++-22", "ld64.lld-22", "dsymutil-22", "llvm-lipo-22", "llvm-strip-22");
    Path src = TestData.path("src");
    String cMain = src.resolve("macho_main.c").toString(), cUtil = src.resolve("macho_util.c").toString();
    String cpp = src.resolve("macho_shapes.cpp").toString();
    String flags = " -fno-omit-frame-pointer -ffreestanding -fno-stack-protector -fno-builtin ";
    String cxxFlags = " -fno-exceptions -fno-rtti -fno-threadsafe-statics ";
    List<List<String>> conversions = new ArrayList<>(); // each: input, then extra flags
    for (String arch : List.of("arm64", "x86_64")) {
      String target = " -target " + arch + "-apple-macos11 ";
      String ld = "ld64.lld-22 -arch " + arch + " -platform_version macos 11.0 11.0 ";
      for (String opt : List.of("-O0", "-O2")) {
        for (String dwarf : List.of("-gdwarf-4", "-gdwarf-5")) {
          String v = arch + opt + dwarf.substring(7);
          build("clang-22" + target + flags + dwarf + " " + opt + " -c " + cMain + " -o m-" + v + ".o && clang-22" + target + flags
              + dwarf + " " + opt + " -c " + cUtil + " -o u-" + v + ".o && " + ld + "-e _main -o c-" + v + " m-" + v + ".o u-" + v
              + ".o && dsymutil-22 c-" + v + " -o c-" + v + ".dSYM");
          conversions.add(List.of("m-" + v + ".o"));
          conversions.add(List.of("c-" + v));
          conversions.add(List.of("c-" + v + ".dSYM"));
          build("clang++-22" + target + flags + cxxFlags + dwarf + " " + opt + " -c " + cpp + " -o s-" + v + ".o && " + ld
              + "-e _main -o cpp-" + v + " s-" + v + ".o && dsymutil-22 cpp-" + v + " -o cpp-" + v + ".dSYM");
          conversions.add(List.of("s-" + v + ".o"));
          conversions.add(List.of("cpp-" + v + ".dSYM"));
        }
      }
      // ICF (--merged-functions), a dylib with its dSYM
      build(ld + "-e _main --icf=all -o icf-" + arch + " m-" + arch + "-O2-5.o u-" + arch + "-O2-5.o && dsymutil-22 icf-" + arch
          + " -o icf-" + arch + ".dSYM");
      conversions.add(List.of("icf-" + arch + ".dSYM", "--merged-functions"));
      conversions.add(List.of("icf-" + arch + ".dSYM", "--merged-functions", "--dwarf-callsites"));
      build(ld + "-dylib -o lib-" + arch + ".dylib u-" + arch + "-O2-4.o && dsymutil-22 lib-" + arch + ".dylib -o lib-" + arch
          + ".dylib.dSYM");
      conversions.add(List.of("lib-" + arch + ".dylib"));
      conversions.add(List.of("lib-" + arch + ".dylib.dSYM"));
    }
    // universal files: executables, their DWARF files and objects, with and without --arch
    build("llvm-lipo-22 -create c-arm64-O2-5 c-x86_64-O2-5 -output fat && llvm-lipo-22 -create"
        + " c-arm64-O0-4.dSYM/Contents/Resources/DWARF/c-arm64-O0-4 c-x86_64-O0-4.dSYM/Contents/Resources/DWARF/c-x86_64-O0-4"
        + " -output fat-dwarf && llvm-lipo-22 -create -fat64 s-arm64-O2-5.o s-x86_64-O2-4.o -output fat64.o");
    for (String f : List.of("fat", "fat-dwarf", "fat64.o")) {
      conversions.add(List.of(f));
      conversions.add(List.of(f, "--arch", "x86_64"));
      conversions.add(List.of(f, "--arch", "arm64", "--arch", "x86_64"));
      conversions.add(List.of(f, "--arch", "armv7"));
    }
    // a stripped executable (no symbols, no DWARF), --dwarf-callsites and --callsites-yaml-file
    build("llvm-strip-22 c-x86_64-O2-5 -o stripped");
    conversions.add(List.of("stripped"));
    conversions.add(List.of("icf-arm64.dSYM", "--dwarf-callsites"));
    Files.writeString(tmp.resolve("calls.yaml"), "functions:\n  - name: main\n    callsites:\n      - return_offset: 0x10\n"
        + "        match_regex: ['^util_']\n        flags: [ExternalCall]\n  - name: nothere\n    callsites: []\n");
    conversions.add(List.of("c-x86_64-O0-4.dSYM", "--callsites-yaml-file", tmp.resolve("calls.yaml").toString()));
    assertThat(conversions).as("conversions").hasSize(63);
    List<String> compared = new ArrayList<>();
    for (List<String> c : conversions) {
      for (boolean verify : new boolean[] {false, true}) {
        compare(llvm, c, verify);
        compared.add(String.join(" ", c) + (verify ? " --verify" : ""));
      }
    }
    System.out.println("MachOLlvmDifferentialTest: identical to llvm-gsymutil-22: " + compared.size() + " " + compared);
  }

  /**
   * dSYMs larger than 4 GB (sparse copies of the golden dSYMs, __DWARF segment moved, offsets
   * stored wrapped): 2^32 inside and at the end of sections, the whole segment past 4 GB (llvm
   * cannot reconstruct: it reads the stored offsets) and sections out of order after the wrap (llvm
   * refuses those after them and reads them empty). Where we convert, the outputs are llvm's; where
   * the layout left the DWARF broken (a string or abbreviation section read as stripped or empty),
   * we stop with one error as for any malformed DWARF: those layouts are named.
   */
  @Test
  void largeDsymsMatchLiveLlvm() throws Exception {
    Path llvm = requireTools();
    List<String> compared = new ArrayList<>();
    List<String> broken = new ArrayList<>();
    for (String dsym : List.of("c-x86_64-O2", "cpp-arm64-O2-d5")) {
      byte[] small = Files.readAllBytes(TestData.path("macho", "bin", dsym + ".dSYM", "Contents", "Resources", "DWARF", dsym));
      dev.gsym.testing.LargeDsym.Segment seg = dev.gsym.testing.LargeDsym.dwarfSegment(small);
      List<String> names = new ArrayList<>();
      // (MachOLargeDsymTest compares every "inside" split with the original; here a few, every
      // "at the end" split and a few swaps, against llvm)
      int count = seg.nsects();
      for (int j = 0; j < count; j++) {
        long rel = seg.sectionOffsets()[j] - seg.fileoff();
        if (j == 0 || j == count / 2 || j == count - 2) {
          dev.gsym.testing.LargeDsym.write(small, (1L << 32) - rel - seg.sectionSizes()[j] / 2, tmp.resolve(dsym + "-in" + j));
          names.add(dsym + "-in" + j);
        }
        dev.gsym.testing.LargeDsym.write(small, (1L << 32) - rel - seg.sectionSizes()[j], tmp.resolve(dsym + "-end" + j));
        names.add(dsym + "-end" + j);
      }
      long inFirst = (1L << 32) - seg.sectionSizes()[0] / 2;
      for (int a : new int[] {1, count / 2, count - 2}) {
        dev.gsym.testing.LargeDsym.write(small, inFirst, tmp.resolve(dsym + "-swap" + a), a, a + 1);
        names.add(dsym + "-swap" + a);
      }
      dev.gsym.testing.LargeDsym.write(small, (1L << 32) + seg.fileoff(), tmp.resolve(dsym + "-past"));
      names.add(dsym + "-past");
      for (String n : names) {
        Path in = tmp.resolve(n);
        // DWARF the 4 GB limit broke (a section at 2^32 exactly reads as stripped, refused ones as
        // empty, the whole segment past 4 GB reads zeros) stops here with one clear error, as any
        // malformed DWARF does, where llvm goes on leniently or crashes (docs/dwarf-differences.md)
        String refused = compare(llvm, List.of(n), false, true);
        if (refused == null) compared.add(n);
        else broken.add(n + " (" + refused + ")");
        Files.delete(in);
      }
    }
    // the layouts that leave the DWARF broken: the rest (26) are compared
    assertThat(broken).isEqualTo(List.of("c-x86_64-O2-end4 (abbreviation offset 0x0 past end of .debug_abbrev)",
        "c-x86_64-O2-end5 (string offset 0x10 past end of section)", "c-x86_64-O2-past (unsupported DWARF version 0)",
        "cpp-arm64-O2-d5-end2 (address index 0 past end of .debug_addr)",
        "cpp-arm64-O2-d5-end5 (abbreviation offset 0x0 past end of .debug_abbrev)",
        "cpp-arm64-O2-d5-end6 (string offset 0x14 past end of section)",
        "cpp-arm64-O2-d5-end7 (string index 3 past end of .debug_str_offsets)",
        "cpp-arm64-O2-d5-end8 (string offset 0x0 past end of section)", "cpp-arm64-O2-d5-swap5 (string offset 0x0 past end of section)",
        "cpp-arm64-O2-d5-past (unsupported DWARF version 0)"));
    assertThat(compared).hasSize(26);
  }

  /**
   * PE/COFF (mingw, clang-22 + ld.lld-22): x86_64, i686 and aarch64 images and objects, C and C++,
   * -O0/-O2, DWARF 4/5, -ffunction-sections objects (every .text at address 0, relocations naming
   * their sections).
   */
  @Test
  void peCoffMatchesLiveLlvm() throws Exception {
    Path llvm = requireTools("clang-22", "clang++-22", "ld.lld-22");
    Path src = TestData.path("src");
    String cMain = src.resolve("macho_main.c").toString(), cUtil = src.resolve("macho_util.c").toString();
    String cpp = src.resolve("macho_shapes.cpp").toString(), stub = src.resolve("pe_stub.c").toString();
    String flags = " -ffreestanding -fno-stack-protector -fno-builtin ";
    List<List<String>> conversions = new ArrayList<>();
    for (String[] t : new String[][] {{"x86_64", "i386pep"}, {"i686", "i386pe"}, {"aarch64", "arm64pe"}}) {
      String target = " -target " + t[0] + "-w64-windows-gnu ";
      String ld = "ld.lld-22 -m " + t[1] + " --entry=main ";
      build("clang-22" + target + "-O2 -c " + stub + " -o stub-" + t[0] + ".o");
      for (String opt : List.of("-O0", "-O2")) {
        for (String dwarf : List.of("-gdwarf-4", "-gdwarf-5")) {
          String v = t[0] + opt + dwarf.substring(7);
          build("clang-22" + target + flags + dwarf + " " + opt + " -c " + cMain + " -o pm-" + v + ".o && clang-22" + target
              + flags + dwarf + " " + opt + " -ffunction-sections -c " + cUtil + " -o pu-" + v + ".o && " + ld + "-o pc-" + v + ".exe pm-"
              + v + ".o pu-" + v + ".o stub-" + t[0] + ".o");
          conversions.add(List.of("pm-" + v + ".o"));
          conversions.add(List.of("pu-" + v + ".o"));
          conversions.add(List.of("pc-" + v + ".exe"));
          build("clang++-22" + target + flags + " -fno-exceptions -fno-rtti " + dwarf + " " + opt + " -c " + cpp + " -o ps-" + v
              + ".o && " + ld + "-o ps-" + v + ".exe ps-" + v + ".o stub-" + t[0] + ".o");
          conversions.add(List.of("ps-" + v + ".o"));
          conversions.add(List.of("ps-" + v + ".exe", "--merged-functions"));
        }
      }
    }
    assertThat(conversions).as("conversions").hasSize(60);
    for (List<String> c : conversions) {
      for (boolean verify : new boolean[] {false, true}) compare(llvm, c, verify);
    }
    System.out.println("MachOLlvmDifferentialTest: PE/COFF identical to llvm-gsymutil-22: " + 2 * conversions.size() + " runs");
  }

  private void compare(Path llvm, List<String> conversion, boolean verify) throws Exception {
    compare(llvm, conversion, verify, false);
  }

  /**
   * Runs gsymutil and llvm-gsymutil-22 on {@code conversion} and compares stdout, stderr, exit
   * status and files. With {@code mayRefuse}, a run of ours that stops with one clear error (no
   * trace, no file) is not compared: its error is returned; else null.
   */
  private String compare(Path llvm, List<String> conversion, boolean verify, boolean mayRefuse) throws Exception {
    String name = String.join("_", conversion).replace("-", "").replace("/", "_") + (verify ? "_v" : "");
    Path llvmDir = Files.createDirectories(tmp.resolve("llvm-" + name));
    Path ourDir = Files.createDirectories(tmp.resolve("ours-" + name));
    Path in = tmp.resolve(conversion.getFirst());
    List<String> tail = new ArrayList<>(conversion.subList(1, conversion.size()));
    tail.add("--num-threads=1");
    if (verify) tail.add("--verify");
    List<String> ours = new ArrayList<>(List.of("--convert", in.toString(), "--out-file", ourDir.resolve("out.gsym").toString()));
    ours.addAll(tail);
    CliRun r = CliRun.run(ours.toArray(String[]::new));
    if (mayRefuse && r.status() != 0) {
      assertThat(r.status()).as(name).isEqualTo(1);
      assertThat(r.err()).as(name).startsWith(in + ": ").hasLineCount(1).doesNotContain("\tat ");
      try (Stream<Path> files = Files.list(ourDir)) {
        assertThat(files).as(name + ": no output").isEmpty();
      }
      return r.err().strip().substring(in.toString().length() + 2);
    }
    List<String> cmd = new ArrayList<>(List.of(llvm.toString(), "--convert", in.toString(), "--out-file", llvmDir.resolve("out.gsym").toString()));
    cmd.addAll(tail);
    Path out = tmp.resolve(name + ".out"), err = tmp.resolve(name + ".err");
    boolean llvmOk = run(tmp, cmd, out, err);
    String what = String.join(" ", conversion) + (verify ? " --verify" : "");
    // llvm exits 0 after --verify mismatches; we exit 1 (docs/dwarf-differences.md)
    boolean mismatches = verify && Files.readString(out, StandardCharsets.ISO_8859_1).contains("\nerror: address ");
    assertThat(r.status()).as(what + ": exit status").isEqualTo(llvmOk && !mismatches ? 0 : 1);
    assertThat(r.out().replace(ourDir.toString(), llvmDir.toString())).as(what + ": stdout").isEqualTo(Files.readString(out, StandardCharsets.ISO_8859_1));
    assertThat(CliRun.llvmStderr(r.err())).as(what + ": stderr").isEqualTo(Files.readString(err, StandardCharsets.ISO_8859_1));
    List<String> llvmFiles, ourFiles;
    try (Stream<Path> a = Files.list(llvmDir); Stream<Path> b = Files.list(ourDir)) {
      llvmFiles = a.map(p -> p.getFileName().toString()).sorted().toList();
      ourFiles = b.map(p -> p.getFileName().toString()).sorted().toList();
    }
    if (!llvmOk) return null; // llvm may leave an empty file behind; we write none
    assertThat(ourFiles).as(what + ": files").isEqualTo(llvmFiles);
    for (String f : llvmFiles) assertThat(ourDir.resolve(f)).as(what + ": " + f).hasSameBinaryContentAs(llvmDir.resolve(f));
    return null;
  }
}
