package dev.gsym.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public and protected element of gsym-spark (a class-path library, so not in gsym-api-test's
 * ApiJavadocTest over the named modules) has a javadoc comment: javadoc over its sources, with
 * Spark and the library on the class path, reports no "no comment" warning.
 */
@Slow
class SparkApiJavadocTest {
  private static final Set<String> UNCOMMENTED = Set.of("no comment",
      "use of default constructor, which does not provide a comment", "no main description");

  @TempDir Path out;

  @Test
  void everyPublicElementHasAComment() {
    DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
    Path src = TestData.repoRoot().resolve("gsym-spark/src/main/java");
    List<String> args = List.of("-quiet", "-Xdoclint:missing", "-Xmaxwarns", "100000", "-protected", "-notree",
        "-noindex", "-nohelp", "-nodeprecatedlist", "-d", out.toString(), "--class-path",
        System.getProperty("java.class.path"), "-sourcepath", src.toString(), "-subpackages", "dev.gsym.spark");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StringWriter log = new StringWriter();
    boolean ok = javadoc.getTask(log, null, diagnostics, null, args, null).call();
    List<String> uncommented = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      String where = d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ";
      String message = d.getMessage(Locale.ROOT);
      if (d.getKind() == Diagnostic.Kind.ERROR) errors.add(where + message);
      else if (UNCOMMENTED.contains(message)) uncommented.add(where + message);
    }
    assertThat(errors).as("javadoc errors\n%s", log).isEmpty();
    assertThat(ok).as(log.toString()).isTrue();
    assertThat(uncommented).as("public elements without a comment").isEmpty();
    assertThat(out.resolve("dev/gsym/spark/GsymSpark.html")).exists();
  }
}
