package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's size bound: after a conversion makes the store too large, the least recently used
 * modules (by the store file's modification time, which opening a module updates) are removed, but
 * never one this process has open, nor one another process holds locked.
 */
class StoreEvictionTest {
  static final String A = "c-gcc-O2";
  static final String B = "c-clang-O2";
  static final String C = "cpp-gcc-O2";

  @TempDir Path tmp;
  Path storeDir;
  GsymStore view;
  long bound;

  @BeforeEach
  void sizes() throws Exception {
    storeDir = tmp.resolve("store");
    view = new GsymStore(storeDir, Long.MAX_VALUE);
    // store files are byte-identical to llvm-gsymutil-22's: room for two of the three modules
    bound = Files.size(Fixtures.llvmGsym(A)) + Files.size(Fixtures.llvmGsym(B)) + Files.size(Fixtures.llvmGsym(C)) - 1;
  }

  private Path storeFile(String name) throws Exception {
    return view.gsym(ModuleKey.ofBuildId(Fixtures.buildId(Fixtures.bin(name))));
  }

  private Symbolizer symbolizer(int open) {
    return Symbolizer.builder().store(storeDir).maxStoreSize(bound).maxOpenModules(open).build();
  }

  private static void use(Symbolizer s, String name) throws Exception {
    assertInstanceOf(Symbolized.Found.class, s.symbolize(ModuleRef.file(Fixtures.bin(name)), Fixtures.functionAddressOf(name)));
  }

  private void age(String name, int hours) throws Exception {
    Files.setLastModifiedTime(storeFile(name), FileTime.fromMillis(System.currentTimeMillis() - hours * 3600_000L));
  }

  @Test
  void leastRecentlyUsedGoesFirst() throws Exception {
    try (Symbolizer s = symbolizer(1)) {
      use(s, A);
      use(s, B);
    }
    age(A, 3);
    age(B, 2);
    try (Symbolizer s = symbolizer(1)) {
      use(s, A); // opening records the use: A is now the most recent of the two
      use(s, C); // over the bound: B, the least recently used, goes (A is closed again: one open module)
    }
    assertTrue(Files.exists(storeFile(A)));
    assertFalse(Files.exists(storeFile(B)), "least recently used removed");
    assertFalse(Files.exists(Path.of(storeFile(B).toString().replace(".gsym", ".lock"))), "its lock file too");
    assertTrue(Files.exists(storeFile(C)));
  }

  @Test
  void modulesOpenInThisProcessStay() throws Exception {
    try (Symbolizer s = symbolizer(10)) {
      use(s, A);
      use(s, B);
      age(A, 3);
      age(B, 2);
      use(s, C); // A and B are open (mapped): none can go, the store stays over its bound for now
      assertTrue(Files.exists(storeFile(A)));
      assertTrue(Files.exists(storeFile(B)));
      assertTrue(Files.exists(storeFile(C)));
    }
  }

  @Test
  void modulesLockedElsewhereStay() throws Exception {
    try (Symbolizer s = symbolizer(1)) {
      use(s, A);
      use(s, B);
    }
    age(A, 3);
    age(B, 2);
    GsymStore.Lock held = view.tryLock(ModuleKey.ofBuildId(Fixtures.buildId(Fixtures.bin(A))));
    assertNotNull(held);
    try (held; Symbolizer s = symbolizer(1)) {
      use(s, C);
    }
    assertTrue(Files.exists(storeFile(A)), "locked (by another symbolizer; across processes the lock is fcntl's): kept although least recently used");
    assertFalse(Files.exists(storeFile(B)));
  }
}
