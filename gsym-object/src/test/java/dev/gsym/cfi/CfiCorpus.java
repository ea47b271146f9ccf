package dev.gsym.cfi;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The inputs with llvm-dwarfdump goldens, as src-test-data/cfi/manifest.tsv lists them
 * (src-test-data/regenerate-cfi.sh): every object file of bin/, macho/bin/, pecoff/bin/ and
 * cfi/bin/ with an FDE.
 */
record CfiCorpus(String set, String name, String arch) {
  static List<CfiCorpus> all() {
    List<CfiCorpus> out = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(TestData.path("cfi", "manifest.tsv"))) {
        if (line.startsWith("#") || line.isBlank()) continue;
        String[] f = line.split("\t");
        out.add(new CfiCorpus(f[0], f[1], f[2]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The input file. */
  Path input() {
    return set.equals("bin") ? TestData.path("bin", name) : TestData.path(set, "bin", name);
  }

  /** A golden beside the others: {@code cfi/expected/SET/NAME.SUFFIX}. */
  Path golden(String suffix) {
    return TestData.path("cfi", "expected", set, name + suffix);
  }

  @Override
  public String toString() {
    return set + "/" + name;
  }
}
