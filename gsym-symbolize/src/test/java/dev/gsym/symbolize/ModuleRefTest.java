package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Parsing and validation of module references, including hostile strings. */
class ModuleRefTest {
  @Test
  void buildIds() {
    assertEquals("abcdef01", ModuleRef.buildId("ABCDEF01").hex());
    assertEquals("0123456789abcdef0123456789abcdef", ModuleRef.buildId("01234567-89AB-CDEF-0123-456789ABCDEF").hex(),
        "a Mach-O UUID in its text form");
    assertEquals("0a0b", ModuleRef.buildId(new byte[] {10, 11}).hex());
    assertNull(ModuleRef.buildId("ab").debugFile());
    assertEquals("libc.so.6", ModuleRef.buildId("ab").withDebugFile("/lib/x86_64-linux-gnu/libc.so.6").debugFile());
    assertEquals(ModuleRef.buildId("AB"), ModuleRef.buildId("ab"));
    for (String bad : new String[] {"", "abc", "xyz0", "0x1234", "ab cd", "a".repeat(130)}) {
      assertThrows(IllegalArgumentException.class, () -> ModuleRef.buildId(bad), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> ModuleRef.buildId(new byte[65]));
    assertThrows(IllegalArgumentException.class, () -> ModuleRef.buildId((String) null));
  }

  @Test
  void breakpadIds() {
    ModuleRef.Breakpad b = ModuleRef.breakpad("xul.pdb", "44e4ec8c2f41492b9369d6b9a059577c2");
    assertEquals("44E4EC8C2F41492B9369D6B9A059577C2", b.debugId());
    assertEquals("xul.pdb", ModuleRef.breakpad("C:\\builds\\obj\\xul.pdb", b.debugId()).debugFile());
    assertEquals("44E4EC8C2F41492B9369D6B9A059577C2",
        ModuleRef.breakpad("xul.pdb", "44e4ec8c-2f41-492b-9369-d6b9a059577c-2").debugId(), "Sentry's debug id form");
    assertEquals("44E4EC8C2F41492B9369D6B9A059577C0",
        ModuleRef.breakpad("x", "44e4ec8c-2f41-492b-9369-d6b9a059577c").debugId());
    for (String bad : new String[] {"", "44E4EC8C2F41492B9369D6B9A059577C", "G4E4EC8C2F41492B9369D6B9A059577C2",
        "44E4EC8C2F41492B9369D6B9A059577C2" + "0".repeat(8)}) {
      assertThrows(IllegalArgumentException.class, () -> ModuleRef.breakpad("x", bad), bad);
    }
    for (String bad : new String[] {"", ".", "..", "dir/", "a\nb", "a\0b", "n".repeat(256)}) {
      assertThrows(IllegalArgumentException.class, () -> ModuleRef.breakpad(bad, b.debugId()), bad);
    }
  }

  @Test
  void parse() {
    assertEquals(ModuleRef.buildId("abcd"), ModuleRef.parse("BUILDID:abcd"));
    assertEquals(ModuleRef.buildId("abcd"), ModuleRef.parse("buildid:ABCD"));
    assertEquals(ModuleRef.breakpad("xul.pdb", "44E4EC8C2F41492B9369D6B9A059577C2"),
        ModuleRef.parse("BREAKPAD:xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2"));
    assertEquals(ModuleRef.file(Path.of("/usr/bin/ls")), ModuleRef.parse("/usr/bin/ls"));
    assertInstanceOf(ModuleRef.FilePath.class, ModuleRef.parse("relative/lib.so"));
    assertThrows(IllegalArgumentException.class, () -> ModuleRef.parse(""));
    assertThrows(IllegalArgumentException.class, () -> ModuleRef.parse("a\0b"));
    assertThrows(IllegalArgumentException.class, () -> ModuleRef.parse("BREAKPAD:noslash"));
    assertThrows(IllegalArgumentException.class, () -> ModuleRef.parse("BUILDID:xyz"));
  }

  @Test
  void hostileStringsGiveOneShortError() {
    String huge = "f".repeat(50_000_000);
    for (Runnable r : new Runnable[] {() -> ModuleRef.buildId(huge), () -> ModuleRef.parse(huge),
        () -> ModuleRef.parse("BUILDID:" + huge), () -> ModuleRef.breakpad(huge, "x"), () -> ModuleRef.breakpad("x", huge)}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
      assertTrue(e.getMessage().length() < 300, e.getMessage().length() + ": " + e.getMessage().substring(0, 100));
      assertTrue(e.getMessage().contains("50000000") || e.getMessage().contains("50000008"), e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModuleRef.buildId("ab\u0001"));
    assertTrue(e.getMessage().contains("\\x01"), e.getMessage());
  }
}
