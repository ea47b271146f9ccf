package dev.gsym.apitest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The metadata a repository manager (Maven Central's rules) asks of every published POM: name,
 * description, URL, license, developers and SCM, each module with its own name and description
 * and inheriting the rest from the parent; every module of the build is covered.
 */
class PomMetadataTest {
  @Test
  void everyModuleHasWhatARepositoryManagerAsks() throws Exception {
    Path root = TestData.repoRoot();
    Element parent = pom(root.resolve("pom.xml"));
    for (String tag : List.of("name", "description", "url")) assertThat(text(parent, tag)).as(tag).isNotBlank();
    Element license = child(child(parent, "licenses"), "license");
    assertThat(text(license, "name")).isNotBlank();
    assertThat(text(license, "url")).startsWith("https://");
    Element developer = child(child(parent, "developers"), "developer");
    assertThat(text(developer, "name")).isNotBlank();
    Element scm = child(parent, "scm");
    assertThat(text(scm, "connection")).startsWith("scm:git:");
    assertThat(text(scm, "developerConnection")).startsWith("scm:git:");
    assertThat(text(scm, "url")).isEqualTo(text(parent, "url"));

    Matcher modules = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(root.resolve("pom.xml")));
    int n = 0;
    for (; modules.find(); n++) {
      String module = modules.group(1);
      Element pom = pom(root.resolve(module).resolve("pom.xml"));
      assertThat(text(pom, "artifactId")).isEqualTo(module);
      assertThat(text(pom, "name")).as(module).isEqualTo(module);
      assertThat(text(pom, "description")).as(module).isNotBlank();
      assertThat(text(child(pom, "parent"), "artifactId")).as(module).isEqualTo("gsym-parent");
    }
    assertThat(n).isGreaterThanOrEqualTo(10);
  }

  private static Element pom(Path p) throws Exception {
    Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.toFile());
    return d.getDocumentElement();
  }

  /** The direct child {@code tag} of {@code e}. */
  private static Element child(Element e, String tag) {
    for (var n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(tag)) return c;
    }
    throw new AssertionError("no <" + tag + "> in <" + e.getTagName() + ">");
  }

  private static String text(Element e, String tag) {
    return child(e, tag).getTextContent().strip();
  }
}
