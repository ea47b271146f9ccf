package dev.gsym.apitest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's module table says what each module exports: per module, the packages of
 * its "exports" column are exactly its module-info's unqualified exports, those of "to the in-repo
 * modules only" its qualified exports, and every other package of its sources is in "not
 * exported". (A row of a module this checkout does not have, such as one written on another
 * branch, is not checked; every module here has a row.)
 */
class ArchitectureTableTest {
  private static final Pattern EXPORTS = Pattern.compile("\\bexports\\s+([\\w.]+)\\s*(to\\b[^;]*)?;");
  private static final Pattern MODULE = Pattern.compile("\\bmodule\\s+([\\w.]+)\\s*\\{");
  private static final Pattern PACKAGE = Pattern.compile("`(dev\\.gsym(?:\\.[a-z]+)*)`");

  record Exports(Set<String> open, Set<String> qualified, Set<String> other) {}

  @Test
  void theModuleTableListsEveryModulesPackages() throws IOException {
    Map<String, Exports> code = new TreeMap<>();
    try (Stream<Path> dirs = Files.list(TestData.repoRoot())) {
      for (Path dir : dirs.filter(d -> Files.isRegularFile(d.resolve("src/main/java/module-info.java"))).sorted().toList()) {
        Path src = dir.resolve("src/main/java");
        String info = Files.readString(src.resolve("module-info.java")).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
        Matcher mm = MODULE.matcher(info);
        assertThat(mm.find()).as(dir.toString()).isTrue();
        Set<String> open = new TreeSet<>();
        Set<String> qualified = new TreeSet<>();
        Matcher e = EXPORTS.matcher(info);
        while (e.find()) (e.group(2) == null ? open : qualified).add(e.group(1));
        Set<String> other = new TreeSet<>();
        try (Stream<Path> files = Files.walk(src)) {
          files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"))
              .map(f -> src.relativize(f.getParent()).toString().replace(java.io.File.separatorChar, '.'))
              .filter(p -> !open.contains(p) && !qualified.contains(p)).forEach(other::add);
        }
        code.put(mm.group(1), new Exports(open, qualified, other));
      }
    }
    assertThat(code).containsKeys("dev.gsym.core", "dev.gsym.object", "dev.gsym.symbolize");

    Map<String, Exports> doc = new TreeMap<>();
    List<String> lines = Files.readAllLines(TestData.repoRoot().resolve("docs/architecture.md"));
    int header = lines.indexOf("| module | exports | to the in-repo modules only | not exported |");
    assertThat(header).as("the module table's header").isNotNegative();
    for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      String[] cells = lines.get(i).split("\\|", -1);
      String module = cells[1].strip().replace("`", "");
      doc.put(module, new Exports(packages(cells[2]), packages(cells[3]), packages(cells[4])));
    }
    List<String> wrong = new ArrayList<>();
    for (var m : code.entrySet()) {
      Exports d = doc.get(m.getKey());
      Exports c = m.getValue();
      if (d == null) wrong.add(m.getKey() + ": no row");
      else if (!d.equals(c)) wrong.add(m.getKey() + ": the table says " + d + ", the module " + c);
    }
    assertThat(wrong).isEmpty();
  }

  /** The dev.gsym packages named in a cell (recipient module names, in parentheses, are not packages). */
  private static Set<String> packages(String cell) {
    Set<String> out = new TreeSet<>();
    Matcher m = PACKAGE.matcher(cell.replaceAll("\\([^)]*\\)", ""));
    while (m.find()) out.add(m.group(1));
    return out;
  }
}
