package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The open-module cache: bounded, least recently used closed first, and a module evicted while a
 * lookup holds it stays mapped until that lookup releases it.
 */
class ReaderCacheTest {
  static GsymCoreAdapter open(String name) throws Exception {
    return GsymCoreAdapter.open(Fixtures.llvmGsym(name));
  }

  static long addr(String name) throws Exception {
    return Fixtures.functionAddressOf(name);
  }

  static boolean isClosed(GsymCoreAdapter m, long a) throws Exception {
    if (!m.closed()) m.candidates(a); // still usable
    return m.closed();
  }

  @Test
  void boundedLeastRecentlyUsed() throws Exception {
    ReaderCache c = new ReaderCache(2);
    Path pa = Fixtures.llvmGsym("c-gcc-O2");
    GsymCoreAdapter a = open("c-gcc-O2");
    GsymCoreAdapter b = open("c-clang-O2");
    GsymCoreAdapter d = open("cpp-gcc-O2");
    c.add("a", a, pa, null, Origin.FILE).close();
    c.add("b", b, Origin.FILE).close();
    c.acquire("a").close(); // a is now more recent than b
    c.add("d", d, Origin.FILE).close();
    assertNull(c.acquire("b"), "least recently used evicted");
    assertTrue(isClosed(b, addr("c-clang-O2")));
    assertFalse(isClosed(a, addr("c-gcc-O2")));
    assertTrue(c.maps(pa));
    assertEquals(2, c.size());
    c.close();
    assertTrue(isClosed(a, addr("c-gcc-O2")));
    assertFalse(c.maps(pa));
    assertThrows(IllegalStateException.class, () -> c.add("e", open("rust-O2"), Origin.FILE));
  }

  @Test
  void evictedWhileInUseClosesOnRelease() throws Exception {
    ReaderCache c = new ReaderCache(1);
    GsymCoreAdapter a = open("c-gcc-O2");
    Path pa = Fixtures.llvmGsym("c-gcc-O2");
    ReaderCache.Handle inFlight = c.add("a", a, pa, null, Origin.FILE);
    ReaderCache.Handle other = c.add("b", open("c-clang-O2"), Origin.FILE); // evicts a, which is in use
    assertNull(c.acquire("a"));
    assertFalse(isClosed(a, addr("c-gcc-O2")), "still mapped for the lookup in flight");
    assertTrue(c.maps(pa), "eviction from the store must still keep its file");
    ReaderCache.Handle again = c.retain(inFlight.entry);
    assertNotNull(again, "a waiter may still join it");
    inFlight.close();
    assertFalse(isClosed(a, addr("c-gcc-O2")));
    again.close();
    again.close(); // releasing twice counts once
    assertTrue(isClosed(a, addr("c-gcc-O2")), "closed with its last use");
    assertFalse(c.maps(pa));
    assertNull(c.retain(inFlight.entry), "closed: cannot be joined");
    other.close();
    c.close();
  }
}
