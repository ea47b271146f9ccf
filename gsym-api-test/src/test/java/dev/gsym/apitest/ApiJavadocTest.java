package dev.gsym.apitest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import java.io.File;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every element of the exported API has a javadoc comment: javadoc over the library modules, as a
 * consumer's IDE shows them, reports no "no comment" warning. (The build's javadoc, attached to
 * each module in the verify phase, runs doclint's other checks and fails on any warning; doclint's
 * "missing" group is checked here instead, because it would also ask for an {@code @param} and
 * {@code @return} on every method.)
 */
@Slow
class ApiJavadocTest {
  /** The library modules, by source directory. */
  private static final List<String> MODULES = List.of("core", "object", "dwarf", "breakpad", "convert", "demangle", "symbolize", "stackwalk", "serve");

  /**
   * The third-party modules the library requires, from the test class path, and gsym-profile as
   * built (gsym-serve requires it; its sources need the classes generated from pprof's proto, so its
   * javadoc is the build's, not checked here).
   */
  private static final Pattern REQUIRED_JAR = Pattern.compile(
      ".*/(aircompressor-v3|xz|jetty-(server|http|io|util|http2-server|http2-common|http2-hpack)|jackson-core|slf4j-api"
          + "|prometheus-metrics-[a-z-]+|protobuf-java)-[^/]*\\.jar|.*/gsym-profile(/target/classes|-[^/]*(?<!-tests)\\.jar)");

  /** doclint's messages for an element without a comment. */
  private static final Set<String> UNCOMMENTED = Set.of("no comment",
      "use of default constructor, which does not provide a comment", "no main description");

  @TempDir Path out;

  @Test
  void everyExportedElementHasAComment() throws Exception {
    DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
    List<String> modulePath = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (REQUIRED_JAR.matcher(e.replace('\\', '/')).matches()) modulePath.add(e);
    }
    List<String> args = new ArrayList<>(List.of("-quiet", "-Xdoclint:missing", "-Xmaxwarns", "100000", "-protected",
        "-notree", "-noindex", "-nohelp", "-nodeprecatedlist", "-d", out.toString(),
        "--module-path", String.join(File.pathSeparator, modulePath)));
    List<String> names = new ArrayList<>();
    for (String m : MODULES) {
      Path src = TestData.repoRoot().resolve("gsym-" + m).resolve("src/main/java");
      assertThat(src.resolve("module-info.java")).exists();
      args.add("--module-source-path");
      args.add("dev.gsym." + m + "=" + src);
      names.add("dev.gsym." + m);
    }
    args.add("--module");
    args.add(String.join(",", names));
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StringWriter log = new StringWriter();
    boolean ok = javadoc.getTask(log, null, diagnostics, null, args, null).call();
    List<String> uncommented = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      String where = (d.getSource() == null ? "" : TestData.repoRoot().relativize(Path.of(d.getSource().toUri())) + ":"
          + d.getLineNumber() + ": ");
      String message = d.getMessage(Locale.ROOT);
      if (d.getKind() == Diagnostic.Kind.ERROR) errors.add(where + message);
      else if (UNCOMMENTED.contains(message)) uncommented.add(where + message);
    }
    assertThat(errors).as("javadoc errors\n%s", log).isEmpty();
    assertThat(ok).as(log.toString()).isTrue();
    assertThat(uncommented).as("exported elements without a comment").isEmpty();
    assertThat(Files.exists(out.resolve("dev.gsym.symbolize/dev/gsym/symbolize/Symbolizer.html"))).isTrue();
  }
}
