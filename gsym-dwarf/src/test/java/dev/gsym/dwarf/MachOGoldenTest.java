package dev.gsym.dwarf;

import dev.gsym.macho.MachHeader;
import dev.gsym.macho.DsymBundle;
import dev.gsym.macho.FatArch;
import dev.gsym.macho.MachOFile;
import dev.gsym.macho.MachOUniversal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.FileKind;
import dev.gsym.object.ObjectFiles;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Mach-O golden of src-test-data/macho (regenerate-macho.sh) and PE/COFF golden of
 * src-test-data/pecoff (regenerate-pecoff.sh) converted by the library, as the CLI dispatches it (a
 * dSYM bundle by its DWARF file, a universal file by its slices), and compared with
 * llvm-gsymutil-22's GSYM files and log.
 */
class MachOGoldenTest {
  /** One conversion of the manifest. */
  record Row(String dir, String name, String input, String flags) {
    @Override
    public String toString() {
      return dir + "/" + name;
    }
  }

  static Stream<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    for (String dir : List.of("macho", "pecoff")) {
      for (String line : Files.readAllLines(TestData.path(dir, "manifest.tsv"))) {
        if (line.startsWith("#")) continue;
        String[] f = line.split("\t", -1);
        rows.add(new Row(dir, f[0], f[1], f[2]));
      }
    }
    return rows.stream();
  }

  /** The objects a row converts with their output names, as llvm-gsymutil names them. */
  private static void convertRow(Row row, List<String> outputs, List<byte[]> bytes, StringBuilder log) throws IOException {
    Path in = TestData.path(row.dir(), "bin", row.input());
    List<Path> objects = DsymBundle.members(in.toString());
    if (objects.isEmpty()) objects = List.of(in);
    List<String> archs = new ArrayList<>();
    String[] words = row.flags().isEmpty() ? new String[0] : row.flags().split(" ");
    for (int i = 0; i < words.length; i++) {
      if (words[i].equals("--arch")) archs.add(words[++i]);
      else if (words[i].startsWith("--arch=")) archs.add(words[i].substring(7));
    }
    boolean merged = row.flags().contains("--merged-functions");
    Diagnostics diag = new Diagnostics(log);
    String out = row.name() + ".gsym";
    for (Path object : objects) {
      if (FileKind.sniff(object) != FileKind.MACH_O_UNIVERSAL) {
        try (ObjectFile f = ObjectFiles.open(object)) {
          outputs.add(out);
          bytes.add(convert(f, diag, merged));
        }
        continue;
      }
      try (MachOUniversal fat = MachOUniversal.open(object)) {
        List<FatArch> chosen = new ArrayList<>();
        for (FatArch a : fat.archs()) {
          boolean match = archs.isEmpty() || archs.contains(a.archName()) || archs.contains(Integer.toString(a.cpuType()));
          if (match) chosen.add(a);
        }
        for (FatArch a : chosen) {
          try (MachOFile slice = fat.slice(a)) {
            outputs.add(chosen.size() > 1 ? out + "." + a.archName() : out);
            bytes.add(convert(slice, diag, merged));
          }
        }
      }
    }
    log.append(diag.summary()); // llvm's "occurred N time(s)" lines, after the last object
  }

  private static byte[] convert(ObjectFile f, Diagnostics diag, boolean merged) {
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(f, c, diag, DwarfConverter.Options.builder().threads(1).mergedFunctions(merged).build());
    return c.encode(s.byteOrder());
  }

  @ParameterizedTest
  @MethodSource("rows")
  void byteIdenticalToLlvm(Row row) throws IOException {
    List<String> outputs = new ArrayList<>();
    List<byte[]> bytes = new ArrayList<>();
    StringBuilder log = new StringBuilder();
    convertRow(row, outputs, bytes, log);
    assertTrue(!outputs.isEmpty(), row.name());
    for (int i = 0; i < outputs.size(); i++) {
      Path golden = TestData.path(row.dir(), "gsym", outputs.get(i));
      assertTrue(Files.exists(golden), "llvm wrote no " + golden);
      assertArrayEquals(Files.readAllBytes(golden), bytes.get(i), row.name() + ": " + outputs.get(i) + " differs\n" + log);
    }
    // llvm's log without its "Input file", "Output file" and --verify lines (the CLI's)
    StringBuilder expected = new StringBuilder();
    for (String line : Files.readAllLines(TestData.path(row.dir(), "expected", row.name() + ".convert.txt"))) {
      if (line.startsWith("Input file: ") || line.startsWith("Output file (") || line.startsWith("Verifying GSYM file")
          || line.startsWith("error: address ")) {
        continue; // the CLI's lines and the --verify report
      }
      expected.append(line).append('\n');
    }
    assertEquals(expected.toString(), log.toString(), row.name());
  }

  /** The goldens cover what the issue lists: every kind of input, both layouts, all the architectures. */
  @Test
  void goldensCoverTheInputKinds() throws IOException {
    List<String> kinds = new ArrayList<>();
    for (Row r : rows().filter(r -> r.dir().equals("macho")).toList()) {
      Path in = TestData.path("macho", "bin", r.input());
      Path file = Files.isDirectory(in) ? DsymBundle.members(in.toString()).getFirst() : in;
      if (FileKind.sniff(file) == FileKind.MACH_O_UNIVERSAL) {
        try (MachOUniversal fat = MachOUniversal.open(file)) {
          kinds.add(fat.header().is64() ? "fat64" : "fat");
          for (FatArch a : fat.archs()) kinds.add(a.archName());
        }
        continue;
      }
      try (MachOFile m = MachOFile.open(file)) {
        kinds.add("type" + m.header().fileType());
        kinds.add(m.universalArchName());
        kinds.add(m.is64() ? "64" : "32");
        if (m.header().fileType() != MachHeader.MH_OBJECT) assertNotNull(m.uuid(), r.name() + " has an LC_UUID");
      }
    }
    for (String k : List.of("fat", "fat64", "arm64", "x86_64", "i386", "armv7", "arm64_32", "32", "64", "type" + MachHeader.MH_OBJECT,
        "type" + MachHeader.MH_EXECUTE, "type" + MachHeader.MH_DYLIB, "type" + MachHeader.MH_BUNDLE, "type" + MachHeader.MH_DSYM)) {
      assertTrue(kinds.contains(k), "no golden for " + k);
    }
  }
}
