package dev.gsym.symbolize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StoreConversion#publish}: one call fills a store with the file a symbolizer would have
 * converted and published itself, which symbolizers then answer from without a source.
 */
class StorePublishTest {
  static final String NAME = "c-gcc-O2";

  @TempDir Path tmp;

  @Test
  void aPublishedModuleIsWhatASymbolizerPublishesAndAnswersFrom() throws Exception {
    Path bin = Fixtures.bin(NAME);
    String id = Fixtures.buildId(bin);
    Path store = tmp.resolve("store");
    Path expectedPlace = store.resolve(id.substring(0, 2)).resolve(id.substring(2) + ".gsym");
    // a negative marker of an earlier miss goes with the publication
    Files.createDirectories(expectedPlace.getParent());
    Path marker = store.resolve(id.substring(0, 2)).resolve(id.substring(2) + ".missing");
    Files.writeString(marker, "");

    Optional<Path> published = StoreConversion.publish(bin, store, false);
    assertThat(published).contains(expectedPlace);
    assertThat(marker).doesNotExist();
    try (Stream<Path> files = Files.list(expectedPlace.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly(id.substring(2) + ".gsym");
    }

    // the bytes a symbolizer converting the same file publishes
    Path other = tmp.resolve("other");
    Path debug = tmp.resolve("debug");
    TestData.addToDebugDirectory(debug, id, bin);
    long address = Fixtures.functionAddressOf(NAME);
    try (Symbolizer s = Symbolizer.builder().store(other).addSource(Source.DebugDirectories.of(debug)).build()) {
      assertThat(s.symbolize(ModuleRef.buildId(id), address)).isInstanceOf(Symbolized.Found.class);
      assertThat(s.stats().conversions()).isEqualTo(1);
    }
    assertThat(Files.readAllBytes(expectedPlace))
        .isEqualTo(Files.readAllBytes(other.resolve(store.relativize(expectedPlace))));

    // a symbolizer with the store only answers from it, as llvm-gsymutil's GSYM does
    try (Symbolizer s = Symbolizer.builder().store(store).build(); GsymReader llvm = GsymReader.open(Fixtures.llvmGsym(NAME))) {
      Fixtures.assertSameAnswer(llvm, address, s.symbolize(ModuleRef.buildId(id), address), "published");
      assertThat(s.stats().storeHits()).isEqualTo(1);
      assertThat(s.stats().conversions()).isZero();
    }

    // publishing again replaces the file with the same bytes
    byte[] first = Files.readAllBytes(expectedPlace);
    assertThat(StoreConversion.publish(bin, store, false)).contains(expectedPlace);
    assertThat(Files.readAllBytes(expectedPlace)).isEqualTo(first);
  }

  @Test
  void withMergedFunctionsTheModuleGoesToTheMergedSubdirectory() throws Exception {
    Path bin = Fixtures.bin(NAME);
    String id = Fixtures.buildId(bin);
    Path store = tmp.resolve("store");
    assertThat(StoreConversion.publish(bin, store, true))
        .contains(store.resolve(StoreConversion.MERGED_SUBDIRECTORY).resolve(id.substring(0, 2)).resolve(id.substring(2) + ".gsym"));
    try (Symbolizer s = Symbolizer.builder().store(store).mergedFunctions(true).build()) {
      assertThat(s.symbolize(ModuleRef.buildId(id), Fixtures.functionAddressOf(NAME))).isInstanceOf(Symbolized.Found.class);
      assertThat(s.stats().storeHits()).isEqualTo(1);
    }
  }

  @Test
  void aStoreThatIsAFileIsAClearError() throws Exception {
    Path file = Files.writeString(tmp.resolve("file"), "");
    assertThatThrownBy(() -> StoreConversion.publish(Fixtures.bin(NAME), file, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot create the store directory " + file + ": it exists and is not a directory");
  }

  @Test
  void aFileWithoutIdentityIsNotPublished() throws Exception {
    // a Breakpad symbol file without a MODULE record has no store identity
    Path sym = Files.writeString(tmp.resolve("no-module.sym"), "FUNC 1000 10 0 f\n1000 10 1 1\n");
    Path store = tmp.resolve("store");
    assertThat(StoreConversion.identify(sym).storePath()).isNull();
    assertThat(StoreConversion.publish(sym, store, false)).isEmpty();
    assertThat(store).doesNotExist();
  }

  @Test
  void malformedInputLeavesNoFile() throws Exception {
    Path bin = Fixtures.bin(NAME);
    byte[] elf = Files.readAllBytes(bin);
    // the ELF header and build-id note intact, the section header table cut off
    Path cut = Files.write(tmp.resolve("cut"), java.util.Arrays.copyOf(elf, 4096));
    Path store = tmp.resolve("store");
    assertThatThrownBy(() -> StoreConversion.publish(cut, store, false)).isInstanceOf(GsymFormatException.class);
    if (Files.exists(store)) {
      try (Stream<Path> files = Files.walk(store).filter(Files::isRegularFile)) {
        assertThat(files.toList()).as("no temporary file left").isEqualTo(List.of());
      }
    }
  }
}
