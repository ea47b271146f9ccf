package dev.gsym.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Our zero-copy ElfFile agrees with jelf on sections, program headers and .symtab for every golden binary. */
class ElfAgainstJelfTest {
  static List<String> binaries() throws Exception {
    return TestData.binaries();
  }

  @ParameterizedTest
  @MethodSource("binaries")
  void sameHeadersAndSymbols(String name) throws Exception {
    net.fornwall.jelf.ElfFile j = net.fornwall.jelf.ElfFile.from(TestData.path("bin", name).toFile());
    try (ElfFile ours = ElfFile.open(TestData.path("bin", name))) {
      assertEquals(j.e_shnum, ours.sections().size());
      for (int i = 1; i < j.e_shnum; i++) {
        var h = j.getSection(i).header;
        ElfFile.Section s = ours.sections().get(i);
        assertEquals(h.getName(), s.name());
        assertEquals(h.sh_type, s.type());
        assertEquals(h.sh_flags, s.flags());
        assertEquals(h.sh_addr, s.addr());
        assertEquals(h.sh_size, s.size());
        assertEquals(h.sh_link, s.link());
      }
      assertEquals(j.e_phnum, ours.programHeaders().size());
      for (int i = 0; i < j.e_phnum; i++) {
        assertEquals(j.getProgramHeader(i).p_type, ours.programHeaders().get(i).type());
        assertEquals(j.getProgramHeader(i).p_vaddr, ours.programHeaders().get(i).vaddr());
        assertEquals(j.getProgramHeader(i).p_offset, ours.programHeaders().get(i).offset());
        assertEquals(j.getProgramHeader(i).p_flags, ours.programHeaders().get(i).flags());
      }
      List<String> theirs = new ArrayList<>();
      var symtab = j.getSymbolTableSection();
      for (int i = 1; i < symtab.symbols.length; i++) {
        var sym = symtab.symbols[i];
        theirs.add(sym.getName() + "@" + sym.st_value + "+" + sym.st_size + "/" + sym.getType());
      }
      // jelf decodes names as UTF-8 with U+FFFD for bytes that are not; we keep those bytes
      List<String> mine = ours.symbols().stream().map(s -> (s.name() == null ? "" : asJelfDecodes(s.name())) + "@"
          + s.value() + "+" + s.size() + "/" + s.type()).toList();
      assertEquals(theirs.stream().map(x -> x.startsWith("null@") ? x.substring(4) : x).toList(), mine);
    }
  }

  private static String asJelfDecodes(String name) {
    return new String(dev.gsym.ByteStrings.encode(name), java.nio.charset.StandardCharsets.UTF_8);
  }
}
