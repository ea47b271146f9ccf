package dev.gsym.symbolize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store entry whose FunctionInfo record is damaged (its first InfoType's length trashed, as a
 * disk or an old writer may leave it; the file's tables and last record intact, so it opens): a
 * lookup in that function answers {@link Symbolized.ModuleUnreadable} naming the store file and
 * the offset, never {@link Symbolized.AddressNotCovered}; the entry is removed from the store and,
 * when a source has the module, converted again, so that the answer and later ones are right.
 */
class CorruptStoreEntryTest {
  static final String NAME = "c-gcc-O2";

  @TempDir Path tmp;
  Path store;
  Path debugDir;
  String buildId;
  ModuleRef ref;
  Path storeFile;
  /** A function's address whose record is damaged, and one of an intact function. */
  long damaged;
  long intact;
  /** The damaged record's offset in the store file. */
  long damagedRecord;

  @BeforeEach
  void corruptAStoreEntry() throws Exception {
    buildId = Fixtures.buildId(Fixtures.bin(NAME));
    ref = ModuleRef.buildId(buildId);
    store = tmp.resolve("store");
    debugDir = tmp.resolve("debug");
    TestData.addToDebugDirectory(debugDir, buildId, Fixtures.bin(NAME));
    try (Symbolizer s = withSource()) {
      assertThat(s.symbolize(ref, Fixtures.functionAddressOf(NAME))).isInstanceOf(Symbolized.Found.class);
    }
    storeFile = store.resolve(buildId.substring(0, 2)).resolve(buildId.substring(2) + ".gsym");
    byte[] bytes = Files.readAllBytes(storeFile);
    try (GsymReader r = GsymReader.of(bytes, "store file")) {
      // the record at the lowest offset: not the last one, which opening the entry checks
      int first = 0;
      for (int i = 1; i < r.numFunctions(); i++) {
        if (r.functionInfoOffset(i) < r.functionInfoOffset(first)) first = i;
      }
      damagedRecord = r.functionInfoOffset(first);
      damaged = r.functionAddress(first);
      intact = r.functionAddress(first == 0 ? 1 : 0);
      assertThat(r.find(damaged)).isPresent();
    }
    // Size, Name, then the first InfoType's u32 length: past the end of the file
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) damagedRecord + 12, 0x7ffffff0);
    Files.write(storeFile, bytes);
  }

  private Symbolizer withSource() {
    return Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debugDir)).build();
  }

  @Test
  void withTheSourceAtHandTheEntryIsConvertedAgain() throws Exception {
    byte[] corrupt = Files.readAllBytes(storeFile);
    try (Symbolizer s = withSource(); GsymReader llvm = GsymReader.open(Fixtures.llvmGsym(NAME))) {
      // an intact function of the damaged entry answers from the store
      Fixtures.assertSameAnswer(llvm, intact, s.symbolize(ref, intact), "intact");
      assertThat(s.stats().storeHits()).isEqualTo(1);
      // the damaged one: the entry is replaced by a new conversion, which answers
      Symbolized r = s.symbolize(ref, damaged);
      Fixtures.assertSameAnswer(llvm, damaged, r, "damaged");
      assertThat(((Symbolized.Found) r).source()).isEqualTo(Origin.DEBUG_DIRECTORIES);
      assertThat(s.stats().conversions()).isEqualTo(1);
      assertThat(Files.readAllBytes(storeFile)).isNotEqualTo(corrupt);
      for (long a : Fixtures.functionAddresses(llvm)) Fixtures.assertSameAnswer(llvm, a, s.symbolize(ref, a), "after " + a);
      assertThat(s.stats().conversions()).isEqualTo(1);
    }
    // the next process finds a sound entry
    try (Symbolizer s = withSource(); GsymReader llvm = GsymReader.open(Fixtures.llvmGsym(NAME))) {
      Fixtures.assertSameAnswer(llvm, damaged, s.symbolize(ref, damaged), "next process");
      assertThat(s.stats().conversions()).isZero();
    }
  }

  @Test
  void withoutASourceTheModuleIsUnreadableNamingFileAndOffset() throws Exception {
    try (Symbolizer s = Symbolizer.builder().store(store).build()) {
      Symbolized r = s.symbolize(ref, damaged);
      assertThat(r).isInstanceOf(Symbolized.ModuleUnreadable.class);
      String message = ((Symbolized.ModuleUnreadable) r).message();
      assertThat(message).startsWith(storeFile + ": offset 0x").contains("FunctionInfo data is truncated")
          .contains("removed from the store").contains("no configured source can look it up");
      long offset = Long.parseLong(message.substring(message.indexOf("offset 0x") + 9, message.indexOf(':',
          message.indexOf("offset 0x"))), 16);
      assertThat(offset).isGreaterThanOrEqualTo(damagedRecord);
      assertThat(storeFile).doesNotExist();
      assertThat(s.stats().moduleFailures()).isEqualTo(1);
    }
  }

  @Test
  void aBatchAnswersEveryPair() throws Exception {
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debugDir)).threads(4).build();
        GsymReader llvm = GsymReader.open(Fixtures.llvmGsym(NAME))) {
      List<Long> addrs = new ArrayList<>();
      for (int k = 0; k < 50; k++) {
        addrs.add(damaged);
        addrs.add(intact);
      }
      Collections.shuffle(addrs, new java.util.Random(7));
      List<Symbolizer.Request> requests = addrs.stream().map(a -> new Symbolizer.Request(ref, a)).toList();
      List<Symbolized> answers = s.symbolize(requests);
      for (int i = 0; i < addrs.size(); i++) Fixtures.assertSameAnswer(llvm, addrs.get(i), answers.get(i), "pair " + i);
      assertThat(s.stats().conversions()).isEqualTo(1);
    }
  }

  @Test
  void aGsymFileGivenByPathIsNotTouched() throws Exception {
    Path given = Files.copy(storeFile, tmp.resolve("given.gsym"));
    try (Symbolizer s = Symbolizer.builder().build()) {
      Symbolized r = s.symbolize(ModuleRef.file(given), damaged);
      assertThat(r).isInstanceOf(Symbolized.ModuleUnreadable.class);
      assertThat(((Symbolized.ModuleUnreadable) r).message()).startsWith(given + ": offset 0x")
          .endsWith("FunctionInfo data is truncated");
      assertThat(s.symbolize(ModuleRef.file(given), intact)).isInstanceOf(Symbolized.Found.class);
    }
    assertThat(given).exists();
  }

  @Test
  void theStoreDirectoryMustBeADirectory() throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    assertThatThrownBy(() -> Symbolizer.builder().store(file).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot create the store directory " + file + ": it exists and is not a directory");
    Path below = file.resolve("store");
    assertThatThrownBy(() -> Symbolizer.builder().store(below).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot create the store directory " + below + ": " + file + " exists and is not a directory");
  }
}
