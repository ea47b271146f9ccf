package dev.gsym.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * gsym-spark runs on the class path (Spark is not modular), where javac does not hold it to the
 * project's module boundaries; this test does: every {@code dev.gsym} package its main sources
 * import is exported, without qualification, by one of the project's modules.
 */
class ExportedApiOnlyTest {
  @Test
  void importsOnlyExportedPackages() throws IOException, URISyntaxException {
    Set<String> exported = new HashSet<>();
    for (Class<?> c : new Class<?>[] {dev.gsym.symbolize.Symbolizer.class, dev.gsym.read.GsymReader.class,
        dev.gsym.stackwalk.Stackwalker.class, dev.gsym.minidump.Minidump.class}) {
      Path where = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
      for (ModuleReference m : ModuleFinder.of(where).findAll()) {
        for (ModuleDescriptor.Exports e : m.descriptor().exports()) if (!e.isQualified()) exported.add(e.source());
      }
    }
    assertThat(exported).contains("dev.gsym.symbolize", "dev.gsym.read", "dev.gsym");
    Pattern imp = Pattern.compile("^import (?:static )?(dev\\.gsym(?:\\.[a-z]\\w*)*)\\.[A-Z]", Pattern.MULTILINE);
    Set<String> used = new TreeSet<>();
    try (Stream<Path> s = Files.walk(TestData.repoRoot().resolve("gsym-spark/src/main/java"))) {
      for (Path p : s.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = imp.matcher(Files.readString(p));
        while (m.find()) if (!m.group(1).equals("dev.gsym.spark")) used.add(m.group(1));
      }
    }
    assertThat(used).isNotEmpty();
    assertThat(used).allSatisfy(pkg -> assertThat(exported).as("exported packages").contains(pkg));
  }
}
