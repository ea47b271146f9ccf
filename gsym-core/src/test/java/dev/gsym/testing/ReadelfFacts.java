package dev.gsym.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Facts about an ELF file taken from the text of {@code llvm-readelf-22 --file-header
 * --program-headers --section-headers --notes --dynamic-table -W} (the checked-in
 * {@code src-test-data/breakpad/elf/X.readelf.txt}), so tests can check our ELF reading against a
 * source that does not share its code.
 *
 * @param machine the "Machine:" text, e.g. "Advanced Micro Devices X86-64"
 * @param sectionHeaders the file offset of the section header table
 * @param firstLoad the VirtAddr of the first LOAD program header, or null
 * @param buildId the "Build ID:" hex, or null
 * @param soname the DT_SONAME of the dynamic table, or null
 */
public record ReadelfFacts(String machine, boolean littleEndian, long sectionHeaders, Long firstLoad, String buildId,
    String soname, List<Section> sections) {
  /** One row of "Section Headers:". */
  public record Section(int index, String name, String type, long offset, long size) {}

  private static final Pattern SECTION =
      Pattern.compile("^\\s*\\[\\s*(\\d+)]\\s+(\\S+)\\s+(\\S+)\\s+[0-9a-f]+\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s");
  private static final Pattern SONAME = Pattern.compile("\\(SONAME\\)\\s+Library soname: \\[(.*)]$");

  public static ReadelfFacts parse(String text) {
    String machine = null;
    Boolean little = null;
    long sectionHeaders = -1;
    Long firstLoad = null;
    String buildId = null;
    String soname = null;
    List<Section> sections = new ArrayList<>();
    for (String line : text.split("\n")) {
      String t = line.strip();
      Matcher m;
      if (t.startsWith("Machine:")) {
        machine = t.substring("Machine:".length()).strip();
      } else if (t.startsWith("Data:")) {
        little = t.endsWith("little endian");
      } else if (t.startsWith("Start of section headers:")) {
        sectionHeaders = Long.parseLong(t.split("\\s+")[4]);
      } else if (t.startsWith("LOAD ") && firstLoad == null) {
        firstLoad = Long.decode(t.split("\\s+")[2]);
      } else if (t.startsWith("Build ID:")) {
        buildId = t.substring("Build ID:".length()).strip();
      } else if ((m = SONAME.matcher(t)).find()) {
        soname = m.group(1);
      } else if ((m = SECTION.matcher(line)).find() && !m.group(1).equals("0")) {
        sections.add(new Section(Integer.parseInt(m.group(1)), m.group(2), m.group(3), Long.parseLong(m.group(4), 16), Long.parseLong(m.group(5), 16)));
      }
    }
    if (machine == null || little == null || sections.isEmpty()) {
      throw new IllegalArgumentException("not llvm-readelf --file-header --section-headers output");
    }
    return new ReadelfFacts(machine, little, sectionHeaders, firstLoad, buildId, soname, List.copyOf(sections));
  }

  /** The first section named {@code name}, or null. */
  public Section section(String name) {
    for (Section s : sections) if (s.name().equals(name)) return s;
    return null;
  }
}
