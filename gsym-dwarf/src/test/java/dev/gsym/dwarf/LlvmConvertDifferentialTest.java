package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.elf.ElfFile;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds more inputs than the golden set (DWARF 2-5 from gcc and clang, 32-bit and big-endian
 * freestanding executables linked with lld, --gc-sections tombstones, relocatable objects, split
 * DWARF, a Go and a Rust-with-std program) and compares our conversion with the live
 * llvm-gsymutil-22 --convert --num-threads=1. Every input must build and every one is compared
 * (the few llvm cannot convert, and the one known difference, are named). A reported skip without
 * a tool (the compilers, linkers, llvm-dwp-22, go, rustc), a failure then under
 * -Dgsym.requireTools=true.
 */
@NeedsLlvm
public class LlvmConvertDifferentialTest {
  @TempDir Path tmp;
  private final List<String> verifyReports = new ArrayList<>();

  /** Runs {@code cmd} in {@code dir}; true if it exited 0 (output discarded). */
  public static boolean run(Path dir, List<String> cmd) throws IOException, InterruptedException {
    return run(dir, cmd, null);
  }

  /** Runs {@code cmd}; stdout and stderr go to {@code log} (discarded if null). */
  /** As {@link #run(Path, List)}, with the output in {@code log}. */
  public static boolean run(Path dir, List<String> cmd, Path log) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(log.toFile())).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return false;
    }
    return p.exitValue() == 0;
  }

  @Test
  void matchesLiveLlvm() throws Exception {
    Path gsymutil = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    // the builds below name their tools; each must be there (a missing one is no reason to compare less)
    for (String tool : List.of("gcc", "g++", "clang-22", "clang++-22", "ld.lld-22", "ld.gold", "llvm-dwp-22", "objcopy", "sh",
        "timeout")) {
      Tools.require(tool);
    }
    Path src = TestData.path("src");
    Path fs = src.resolve("freestanding.c");
    List<List<String>> builds = new ArrayList<>();
    String cMain = src.resolve("c_main.c").toString(), cUtil = src.resolve("c_util.c").toString();
    String cppMain = src.resolve("cpp_main.cpp").toString(), cppShapes = src.resolve("cpp_shapes.cpp").toString();
    for (String cc : List.of("gcc", "clang-22")) {
      for (String v : List.of("2", "3", "4", "5")) {
        for (String o : List.of("-O0", "-O2")) {
          builds.add(List.of(cc, "-g", "-gdwarf-" + v, o, "-o", "c-" + cc + "-d" + v + o, cMain, cUtil));
        }
      }
    }
    for (String cxx : List.of("g++", "clang++-22")) {
      for (String v : List.of("4", "5")) {
        builds.add(List.of(cxx, "-g", "-gdwarf-" + v, "-O2", "-o", "cpp-" + cxx + "-d" + v, cppMain, cppShapes));
      }
    }
    for (String t : List.of("i386-linux-gnu", "x86_64-linux-gnu", "aarch64-linux-gnu", "powerpc64-linux-gnu", "mips-linux-gnu")) {
      for (String v : List.of("4", "5")) {
        builds.add(List.of("clang-22", "--target=" + t, "-fuse-ld=lld", "-nostdlib", "-static", "-ffunction-sections",
            "-Wl,--gc-sections", "-Wl,-e,_start", "-g", "-gdwarf-" + v, "-O2", "-o", "fs-" + t + "-d" + v, fs.toString()));
      }
    }
    // LTO, type units (DWARF 5 in .debug_info, DWARF 4 in .debug_types), -g1, lld ICF + gc-sections tombstones.
    builds.add(List.of("g++", "-g", "-O3", "-flto", "-o", "v-lto", cppMain, cppShapes));
    builds.add(List.of("clang++-22", "-g", "-O2", "-fdebug-types-section", "-o", "v-types5", cppMain, cppShapes));
    builds.add(List.of("g++", "-g", "-gdwarf-4", "-O2", "-fdebug-types-section", "-o", "v-types4", cppMain, cppShapes));
    builds.add(List.of("clang++-22", "-g1", "-O2", "-o", "v-g1", cppMain, cppShapes));
    builds.add(List.of("clang-22", "-g", "-O2", "-fuse-ld=lld", "-ffunction-sections", "-Wl,--gc-sections", "-Wl,--icf=all",
        "-o", "v-lld-icf", src.resolve("icf.c").toString(), cUtil));
    // DW_AT_LLVM_stmt_sequence (one line sequence per function), with gold ICF as in docs vec3.
    builds.add(List.of("clang-22", "-g", "-O2", "-ffunction-sections", "-fuse-ld=gold", "-Wl,--icf=all", "-mllvm",
        "-emit-func-debug-line-table-offsets", "-o", "v-stmtseq-icf", src.resolve("icf.c").toString()));
    builds.add(List.of("clang++-22", "-g", "-O2", "-mllvm", "-emit-func-debug-line-table-offsets", "-o", "v-stmtseq-cpp",
        cppMain, cppShapes));
    // -gsce omits linkage names: names come from the §9.4 declaration-context qualification
    // (shapes::Square::area, lambdas, templates, anonymous namespaces).
    for (String o : List.of("-O0", "-O2")) {
      builds.add(List.of("clang++-22", "-g", "-gsce", o, "-o", "v-sce" + o, cppMain, cppShapes));
    }
    // 64-bit DWARF (clang: DWARF 4 and 5; gcc: DWARF 5).
    builds.add(List.of("clang-22", "-g", "-gdwarf64", "-gdwarf-5", "-O2", "-o", "v-dwarf64-clang5", cMain, cUtil));
    builds.add(List.of("clang-22", "-g", "-gdwarf64", "-gdwarf-4", "-O2", "-o", "v-dwarf64-clang4", cMain, cUtil));
    builds.add(List.of("clang++-22", "-g", "-gdwarf64", "-O2", "-o", "v-dwarf64-clangxx", cppMain, cppShapes));
    builds.add(List.of("g++", "-g", "-gdwarf64", "-O2", "-o", "v-dwarf64-gxx", cppMain, cppShapes));
    // No executable section at all (mips: lld finds no __start and collects everything): llvm then
    // treats every address as text.
    for (String v : List.of("4", "5")) {
      builds.add(List.of("clang-22", "--target=mips-linux-gnu", "-fuse-ld=lld", "-nostdlib", "-static", "-ffunction-sections",
          "-Wl,--gc-sections", "-g", "-gdwarf-" + v, "-O2", "-o", "fs-notext-d" + v, fs.toString()));
    }
    // More ICF (gold and lld, gcc and clang, C and C++) for --merged-functions / --dwarf-callsites.
    String icf = src.resolve("icf.c").toString();
    builds.add(List.of("gcc", "-g", "-O2", "-ffunction-sections", "-fuse-ld=gold", "-Wl,--icf=all", "-o", "m-gcc-gold-icf", icf, cUtil));
    builds.add(List.of("clang-22", "-g", "-gdwarf-4", "-O2", "-ffunction-sections", "-fuse-ld=gold", "-Wl,--icf=all",
        "-o", "m-clang-gold-icf-d4", icf, cUtil));
    builds.add(List.of("clang++-22", "-g", "-O2", "-ffunction-sections", "-fuse-ld=gold", "-Wl,--icf=all",
        "-o", "m-clangxx-gold-icf", cppMain, cppShapes));
    builds.add(List.of("g++", "-g", "-O2", "-ffunction-sections", "-fuse-ld=gold", "-Wl,--icf=all",
        "-o", "m-gxx-gold-icf", cppMain, cppShapes));
    // Split DWARF: skeleton units in the executable, DIEs in .dwo files (found through
    // DW_AT_comp_dir + DW_AT_dwo_name); DWARF 5 from both compilers, GNU DWARF 4 from gcc.
    for (String cc : List.of("gcc", "clang-22")) {
      for (String v : List.of("4", "5")) {
        for (String o : List.of("-O0", "-O2")) {
          builds.add(List.of(cc, "-g", "-gsplit-dwarf", "-gdwarf-" + v, o, "-o", "s-" + cc + "-d" + v + o, cMain, cUtil));
        }
      }
    }
    for (String cxx : List.of("g++", "clang++-22")) {
      builds.add(List.of(cxx, "-g", "-gsplit-dwarf", "-O2", "-o", "s-" + cxx, cppMain, cppShapes));
    }
    // Split DWARF packages: split builds packed by llvm-dwp-22 -e, their .dwo files deleted, so both
    // tools read the units from BINARY.dwp only (GNU DWARF 4: .debug_cu_index version 2; DWARF 5:
    // version 5; with type units, .debug_tu_index). gcc's DWARF 5 C objects are left out:
    // llvm-dwp-22 hangs on them (llvm issue 203625, DW_FORM_implicit_const in the abbreviations).
    String cppPair = cppMain + " " + cppShapes, cPair = cMain + " " + cUtil;
    for (String[] p : new String[][] {{"gcc", "-gdwarf-4", cPair}, {"clang-22", "-gdwarf-4", cPair}, {"clang-22", "-gdwarf-5", cPair},
        {"g++", "-gdwarf-5", cppPair}, {"g++", "-gdwarf-4 -fdebug-types-section", cppPair},
        {"clang++-22", "-gdwarf-5 -fdebug-types-section", cppPair}, {"clang++-22", "-gdwarf-4", cppPair}}) {
      String name = "p-" + p[0] + p[1].replace(" ", "").replace("-fdebug-types-section", "-types").replace("-gdwarf-", "-d");
      String dir = name + ".build";
      builds.add(List.of("sh", "-c", "set -e; mkdir -p " + dir + "; cd " + dir + "; for s in " + p[2] + "; do " + p[0] + " -g -O2 -gsplit-dwarf "
          + p[1] + " -c $s -o $(basename $s).o; done; " + p[0] + " *.o -o ../" + name + "; timeout 120 llvm-dwp-22 -e ../" + name
          + " -o ../" + name + ".dwp; rm -f *.dwo", "-o", name));
    }
    // Symbol-table values: non-PIE C++ (undefined functions with PLT addresses: value 0 for llvm),
    // Thumb functions (bit 0 of st_value cleared for ARM STT_FUNC) in an executable and an object.
    String symtab = src.resolve("symtab_main.cpp").toString();
    builds.add(List.of("g++", "-g", "-O2", "-no-pie", "-fno-pie", "-o", "v-nopie-gxx", symtab));
    builds.add(List.of("clang++-22", "-g", "-O0", "-no-pie", "-fno-pie", "-o", "v-nopie-clangxx", symtab));
    builds.add(List.of("clang-22", "--target=armv7a-linux-gnueabihf", "-mthumb", "-fuse-ld=lld", "-nostdlib", "-static",
        "-ffunction-sections", "-Wl,--gc-sections", "-Wl,-e,_start", "-g", "-O2", "-o", "fs-thumb-d5", fs.toString()));
    builds.add(List.of("clang-22", "--target=armv7a-linux-gnueabihf", "-mthumb", "-g", "-O2", "-c", "-o", "o-thumb.o", fs.toString()));
    // Relocatable objects (-c): DWARF relocations applied as llvm's DWARFContext does (RELA on
    // x86-64, aarch64, ppc64, riscv64, s390x; REL on i386, mips, arm), several .text sections.
    for (String cc : List.of("gcc", "clang-22")) {
      for (String v : List.of("4", "5")) {
        for (String o : List.of("-O0", "-O2")) {
          builds.add(List.of(cc, "-g", "-gdwarf-" + v, o, "-c", "-o", "o-" + cc + "-d" + v + o + ".o", cMain));
        }
      }
      builds.add(List.of(cc, "-g", "-O2", "-ffunction-sections", "-c", "-o", "o-" + cc + "-fs.o", cUtil));
    }
    for (String cxx : List.of("g++", "clang++-22")) {
      for (String v : List.of("4", "5")) {
        builds.add(List.of(cxx, "-g", "-gdwarf-" + v, "-O2", "-c", "-o", "o-" + cxx + "-d" + v + ".o", cppShapes));
      }
    }
    for (String t : List.of("i386-linux-gnu", "aarch64-linux-gnu", "powerpc64-linux-gnu", "mips-linux-gnu", "arm-linux-gnueabi",
        "riscv64-linux-gnu", "s390x-linux-gnu")) {
      for (String v : List.of("4", "5")) {
        builds.add(List.of("clang-22", "--target=" + t, "-g", "-gdwarf-" + v, "-O2", "-ffunction-sections", "-c",
            "-o", "o-" + t + "-d" + v + ".o", fs.toString()));
      }
    }
    // Objects with type units and split DWARF (skeleton .o + .dwo beside it).
    builds.add(List.of("clang++-22", "-g", "-O2", "-fdebug-types-section", "-c", "-o", "o-types5.o", cppShapes));
    builds.add(List.of("g++", "-g", "-gdwarf-4", "-O2", "-fdebug-types-section", "-c", "-o", "o-types4.o", cppShapes));
    for (String cc : List.of("gcc", "clang-22")) {
      for (String v : List.of("4", "5")) {
        builds.add(List.of(cc, "-g", "-gsplit-dwarf", "-gdwarf-" + v, "-O2", "-c", "-o", "o-split-" + cc + "-d" + v + ".o", cMain));
      }
    }
    // An object whose .text has an sh_addr: DWARF relocations add it, symbol values do not (llvm).
    // (sh -c ignores the trailing "-o NAME", which names the output for this test.)
    builds.add(List.of("sh", "-c", "objcopy --change-section-address .text=0x1000 o-clang-22-d4-O2.o o-shaddr.o", "-o", "o-shaddr.o"));
    List<String> compared = new ArrayList<>(), differ = new ArrayList<>(), notBuilt = new ArrayList<>();
    int variants = 0;
    for (List<String> b : builds) {
      String out = b.get(b.indexOf("-o") + 1);
      if (!run(tmp, b)) {
        notBuilt.add(out);
        continue;
      }
      Path bin = tmp.resolve(out);
      // Every input plain; ICF, DWARF 5 and LTO inputs also with --merged-functions --dwarf-callsites
      // and with --merged-functions alone.
      boolean merged = out.contains("icf") || out.contains("d5") || out.startsWith("v-types5") || out.equals("v-lto")
          || out.startsWith("v-stmtseq");
      for (int variant = 0; variant < (merged ? 3 : 1); variant++) {
        variants++;
        compare(gsymutil, bin, out, variant, compared, differ);
      }
    }
    System.out.println("LlvmConvertDifferentialTest: byte-identical with llvm-gsymutil-22: " + compared.size() + " " + compared);
    System.out.println("LlvmConvertDifferentialTest: --verify reports (as llvm's): " + verifyReports);
    assertEquals(List.of(), notBuilt, "inputs that did not build");
    assertTrue(differ.isEmpty(), "differ from llvm-gsymutil-22: " + differ + " (compared " + compared + ")");
    // llvm-gsymutil-22 --verify exits 1 on these (docs/dwarf-differences.md): functions at 0 without
    // an executable section, and the ppc64 ELFv1 objects' overlapping functions (an address its GSYM
    // does not resolve); their --merged-functions variants are compared.
    assertEquals(List.of("fs-notext-d4", "fs-notext-d5", "o-powerpc64-linux-gnu-d4.o", "o-powerpc64-linux-gnu-d5.o"), llvmFailed,
        "conversions llvm-gsymutil-22 failed");
    assertEquals(List.of("fs-notext-d5+merged", "fs-notext-d5+merged+callsites"), known, "known differences (docs/dwarf-differences.md)");
    assertEquals(variants - llvmFailed.size() - known.size(), compared.size(), "conversions compared");
  }

  /**
   * Go and Rust-with-std programs: > 1 MB, so built here rather than checked in (bin/rust-O2 is the
   * small no_std golden). Plain conversion only: llvm's --verify takes ~10 s on the Rust one.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"go", "rust"})
  void liveBuiltProgramMatchesLlvm(String lang) throws Exception {
    Path gsymutil = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Path bin = liveBuild(lang, TestData.path("src"));
    List<String> compared = new ArrayList<>(), differ = new ArrayList<>();
    compare(gsymutil, bin, bin.getFileName().toString(), -1, compared, differ);
    assertEquals(List.of(), llvmFailed, "llvm-gsymutil-22 failed to convert");
    assertEquals(List.of(bin.getFileName().toString()), compared);
    assertEquals(List.of(), differ, "differ from llvm-gsymutil-22");
  }

  /**
   * Builds src/go_main.go (go build; generics, a method, a closure, ~1200 runtime functions) or
   * src/rust_std.rs (rustc -C debuginfo=2 -C opt-level=2: ~460 DWARF functions, mostly std,
   * DW_LANG_Rust). The test is skipped without the toolchain; a failed build fails it.
   */
  private Path liveBuild(String lang, Path src) throws IOException, InterruptedException {
    String tool = Tools.require(lang.equals("go") ? "go" : "rustc").toString();
    Path dir = Files.createDirectories(tmp.resolve(lang));
    List<String> cmd;
    if (lang.equals("go")) {
      Files.copy(src.resolve("go_main.go"), dir.resolve("go_main.go"));
      Files.writeString(dir.resolve("go.mod"), "module gsymtest\n\ngo 1.18\n");
      cmd = List.of(tool, "build", "-trimpath", "-o", "go-main", ".");
    } else {
      Files.copy(src.resolve("rust_std.rs"), dir.resolve("rust_std.rs"));
      cmd = List.of(tool, "-C", "debuginfo=2", "-C", "opt-level=2", "-o", "rust-std-O2", "rust_std.rs");
    }
    Path log = tmp.resolve(lang + ".build.log");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // no network, no toolchain download; go keeps its default build cache, so later runs are fast
    pb.environment().put("GOTOOLCHAIN", "local");
    pb.environment().put("GOPROXY", "off");
    pb.environment().put("GOFLAGS", "-mod=mod");
    Process p = pb.start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + ": no result in 300 s");
    }
    assertEquals(0, p.exitValue(), () -> String.join(" ", cmd) + " failed:\n" + readLog(log));
    return dir.resolve(cmd.get(cmd.indexOf("-o") + 1));
  }

  private static String readLog(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** Conversions llvm-gsymutil-22 failed (non-zero exit or no result in 120 s), so not compared. */
  private final List<String> llvmFailed = new ArrayList<>();
  /** Known differences (docs/dwarf-differences.md), so not compared. */
  private final List<String> known = new ArrayList<>();

  /** variant 0: plain + --verify; -1: plain; 1: --merged-functions; 2: --merged-functions --dwarf-callsites. */
  private void compare(Path gsymutil, Path bin, String name, int variant, List<String> compared, List<String> differ)
      throws IOException, InterruptedException {
    String out = name + (variant == 1 ? "+merged" : variant == 2 ? "+merged+callsites" : "");
    {
      Path ref = tmp.resolve(out + ".llvm.gsym");
      List<String> cmd = new ArrayList<>(List.of(gsymutil.toString(), "--convert", bin.toString(), "--out-file", ref.toString(), "--num-threads=1"));
      if (variant >= 1) cmd.add("--merged-functions");
      if (variant == 2) cmd.add("--dwarf-callsites");
      if (variant == 0) cmd.add("--verify");
      Path log = tmp.resolve(out + ".llvm.log");
      if (!run(tmp, cmd, log)) {
        llvmFailed.add(out);
        return;
      }
      compared.add(out);
      try {
        GsymCreator c = new GsymCreator();
        DwarfConverter.Summary s = DwarfConverter.convert(bin, c, Diagnostics.silent(),
            DwarfConverter.Options.builder().mergedFunctions(variant >= 1).dwarfCallSites(variant == 2).build());
        byte[] ours = c.encode(s.byteOrder());
        if (variant == 0) {
          // --verify: our reports equal llvm's (from its header up to the category summary)
          String llvmLog = Files.readString(log);
          String expected = llvmLog.substring(Math.max(0, llvmLog.indexOf("Verifying GSYM file")))
              .replaceAll("(?m)^.* occurred \\d+ time\\(s\\)\n", "");
          StringBuilder got = new StringBuilder();
          try (ElfFile elf = ElfFile.open(bin); GsymReader r = GsymReader.of(ours, ref.toString())) {
            int errs = DwarfConverter.verify(elf, r, ref.toString(), got);
            if (errs > 0) verifyReports.add(out + ":" + errs);
          }
          if (!got.toString().equals(expected)) {
            differ.add(out + " (--verify output)");
            if (System.getProperty("gsym.keep") != null) {
              Files.writeString(Path.of(System.getProperty("gsym.keep"), out + ".verify.ours.txt"), got);
              Files.writeString(Path.of(System.getProperty("gsym.keep"), out + ".verify.llvm.txt"), expected);
            }
          }
        }
        if (!Arrays.equals(ours, Files.readAllBytes(ref))) {
          differ.add(out);
          if (System.getProperty("gsym.keep") != null) {
            Files.write(Path.of(System.getProperty("gsym.keep"), out + ".ours.gsym"), ours);
            Files.copy(ref, Path.of(System.getProperty("gsym.keep"), out + ".llvm.gsym"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.copy(bin, Path.of(System.getProperty("gsym.keep"), out), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
        }
      } catch (RuntimeException e) {
        // Known difference (docs/dwarf-differences.md): with no executable section the functions
        // sit at 0, below the base address; llvm writes wrapped 64-bit offsets, our creator refuses.
        if (out.startsWith("fs-notext") && String.valueOf(e.getMessage()).contains("below the base address")) {
          compared.remove(out);
          known.add(out);
          return;
        }
        differ.add(out + " (" + e + ")");
      }
    }
  }
}
