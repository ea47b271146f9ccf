package dev.gsym.dwarf.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.GsymFormatException;
import dev.gsym.io.Cursor;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import dev.gsym.testing.TestData;
import org.junit.jupiter.api.Test;

/**
 * {@link DwarfUnit#find} reads an attribute at a fixed offset straight from the section when its
 * form is a fixed-size number or implicit, and through a cursor otherwise: for every attribute of
 * every DIE of every golden binary (DWARF 2 to 5, gcc and clang, 32- and 64-bit DWARF), its value is
 * the one a cursor reading the DIE's attributes one after the other gives.
 */
class AttributeReadTest {
  @Test
  void findGivesWhatReadingInOrderGives() throws Exception {
    long attributes = 0;
    int files = 0;
    for (String name : TestData.binaries()) {
      try (ObjectFile file = ObjectFiles.open(TestData.path("bin", name)); DwarfFile dwarf = new DwarfFile(DwarfSections.of(file))) {
        for (DwarfUnit u : dwarf.units()) attributes += check(u);
        files++;
      } catch (GsymFormatException | java.io.IOException e) {
        // not an object file with DWARF this reader takes: other tests' business
      }
    }
    assertThat(files).isGreaterThan(20);
    assertThat(attributes).isGreaterThan(10_000);
  }

  private static long check(DwarfUnit u) {
    long n = 0;
    for (int i = 0; i < u.dieCount(); i++) {
      Abbreviation ab = u.abbreviation(i);
      Cursor c = u.dwarf().sections().info().slice(0, u.endOffset()).cursor(u.dieOffset(i));
      c.uleb(); // the abbreviation code
      java.util.Set<Integer> seen = new java.util.HashSet<>();
      for (int j = 0; j < ab.attributes().length; j++) {
        AttributeValue expected = Form.of(ab.forms()[j]).read(c, u, ab.implicitConsts()[j]);
        if (!seen.add(ab.attributes()[j])) continue; // find gives the first of repeated attributes
        assertThat(comparable(u.find(i, ab.attributes()[j]))).as("DIE 0x%x attribute 0x%x", u.dieOffset(i), ab.attributes()[j])
            .isEqualTo(comparable(expected));
        n++;
      }
    }
    return n;
  }

  /** The value itself; a block (a view, compared by identity) as its form, place and bytes. */
  private static Object comparable(AttributeValue v) {
    if (!(v instanceof AttributeValue.Block b)) return v;
    return java.util.List.of(b.form(), b.bytes().fileOffset(), java.util.Arrays.toString(b.bytes().bytes(0, (int) b.bytes().size())));
  }
}
