package dev.gsym.dwarf.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.elf.ElfFile;
import dev.gsym.io.ByteView;
import dev.gsym.testing.TestData;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link Abbreviation#parseAll} (run in the background while .debug_info inflates) must give, at
 * every offset it returns, exactly the set {@link Abbreviation#parseSet} gives there, cover the
 * whole section of a sound file, and stop quietly at damage (left to parseSet to report).
 */
class AbbreviationTest {
  private static String render(Map<Long, Abbreviation> set) {
    StringBuilder sb = new StringBuilder();
    for (Abbreviation a : new TreeMap<>(set).values()) {
      sb.append(a.code()).append(' ').append(a.tag()).append(' ').append(a.hasChildren()).append(' ')
          .append(Arrays.toString(a.attributes())).append(Arrays.toString(a.forms()))
          .append(Arrays.toString(a.implicitConsts())).append('\n');
    }
    return sb.toString();
  }

  @Test
  void everySetOfTheGoldensAsParsedOneByOne() throws Exception {
    int sets = 0;
    for (String bin : new String[] {"cpp-gcc-O2", "cpp-clang-O2", "rust-O2", "c-gcc-O2-gz-zstd", "fs-i386-O2-d4"}) {
      try (ElfFile elf = ElfFile.open(TestData.path("bin", bin))) {
        ByteView abbrev = elf.data(elf.section(".debug_abbrev"));
        Map<DebugAbbrevOffset, Map<Long, Abbreviation>> all = Abbreviation.parseAll(abbrev);
        assertThat(all).as(bin).isNotEmpty();
        long end = 0;
        for (var e : all.entrySet()) {
          assertThat(render(e.getValue())).as("%s at %s", bin, e.getKey())
              .isEqualTo(render(Abbreviation.parseSet(abbrev, e.getKey())));
        }
        // the sets tile the section: each starts where the previous one ended
        for (long off : new java.util.TreeSet<>(all.keySet().stream().map(DebugAbbrevOffset::value).toList())) {
          assertThat(off).as(bin).isEqualTo(end);
          end = off + setLength(abbrev, off);
        }
        assertThat(end).as(bin + ": whole section").isEqualTo(abbrev.size());
        sets += all.size();
      }
    }
    assertThat(sets).isGreaterThanOrEqualTo(5);
  }

  /** Bytes of the set at {@code off}: up to and including its terminating 0 code. */
  private static long setLength(ByteView abbrev, long off) {
    dev.gsym.io.Cursor c = abbrev.cursor(off);
    while (true) {
      if (c.uleb() == 0) return c.position() - off;
      c.uleb();
      c.u8();
      while (true) {
        long at = c.uleb();
        long form = c.uleb();
        if (at == 0 && form == 0) break;
        if (form == Form.IMPLICIT_CONST.code) c.sleb();
      }
    }
  }

  @Test
  void stopsAtADamagedSet() {
    byte[] b = new Bytes()
        .uleb(1).uleb(0x11).u8(1).uleb(0x03).uleb(0x08).uleb(0).uleb(0).uleb(0) // set at 0
        .uleb(1).uleb(0x2e).u8(0).uleb(0).uleb(0).uleb(0)                      // set at 8
        .uleb(1).uleb(0x2e).u8(0).uleb(0x03)                                  // truncated
        .get();
    ByteView v = ByteView.of(b, ByteOrder.LITTLE_ENDIAN, ".debug_abbrev");
    Map<DebugAbbrevOffset, Map<Long, Abbreviation>> all = Abbreviation.parseAll(v);
    assertThat(all.keySet()).containsExactlyInAnyOrder(new DebugAbbrevOffset(0), new DebugAbbrevOffset(8));
    assertThat(all.get(new DebugAbbrevOffset(8)).get(1L).tag()).isEqualTo(0x2e);
  }
}
