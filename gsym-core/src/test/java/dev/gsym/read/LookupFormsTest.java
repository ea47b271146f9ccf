package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.testing.TestData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three lookup forms agree: a miss is an answer (an empty Optional, false with llvm's message,
 * or a LookupException in the throwing form); a malformed record is a GsymFormatException naming
 * the file and the offset in every form, never a miss; a closed reader names its file.
 */
class LookupFormsTest {
  @TempDir Path tmp;

  @Test
  void aMissIsAValue() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "A.gsym"))) {
      assertThat(r.find(0x1010)).isEmpty();
      assertThat(r.find(0x1025)).hasValueSatisfying(res -> assertThat(res.functionName()).isEqualTo("lt_func"));
      assertThatThrownBy(() -> r.lookup(0x1010)).isInstanceOf(LookupException.class)
          .hasMessage("address 0x1010 is not in GSYM");

      LookupFrames frames = new LookupFrames();
      assertThat(r.lookup(0x1025, frames)).isTrue();
      assertThat(frames.found()).isTrue();
      assertThat(frames.missMessage()).isNull();
      // a miss after a hit leaves no frames behind
      assertThat(r.lookup(0x1010, frames)).isFalse();
      assertThat(frames.found()).isFalse();
      assertThat(frames.count()).isZero();
      assertThat(frames.address()).isEqualTo(0x1010);
      assertThat(frames.missMessage()).isEqualTo("address 0x1010 is not in GSYM");
      assertThat(frames.appendTo(new TextBuffer(64), false).toString())
          .isEqualTo("0x0000000000001010: error: address 0x1010 is not in GSYM\n"); // llvm-gsymutil's line
      assertThatThrownBy(frames::toResult).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("address 0x1010 is not in GSYM");
      assertThat(r.lookup(0xfff, frames)).isFalse(); // below the first function
      assertThat(frames.missMessage()).isEqualTo("address 0xfff is not in GSYM");
      assertThat(r.lookup(0x1031, frames)).isTrue();
      assertThat(frames.appendTo(new TextBuffer(64), false).toString())
          .isEqualTo("0x0000000000001031: lt_func + 17 @ nodir.c:1000\n");
    }
  }

  @Test
  void aMalformedRecordIsCorruptionInEveryForm() throws Exception {
    byte[] bytes = Files.readAllBytes(TestData.path("vectors", "t1.gsym"));
    long record;
    long address;
    try (GsymReader r = GsymReader.of(bytes, "t1")) {
      int last = r.numFunctions() - 1;
      record = r.functionInfoOffset(last);
      address = r.functionAddress(last);
      assertThat(r.find(address)).isPresent();
    }
    // the first chunk's length (after Size, Name and the InfoType) runs past the end of the file
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) record + 12, 0x7ffffff0);
    Path file = tmp.resolve("corrupt.gsym");
    Files.write(file, bytes);
    try (GsymReader r = GsymReader.open(file)) {
      LookupFrames frames = new LookupFrames();
      for (org.assertj.core.api.ThrowableAssert.ThrowingCallable c : java.util.List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
          () -> r.find(address), () -> r.lookup(address), () -> r.lookup(address, frames), () -> r.lookupAll(address),
          () -> r.lookupCandidates(address))) {
        assertThatThrownBy(c).isInstanceOfSatisfying(GsymFormatException.class, e -> {
          assertThat(e.source()).isEqualTo(file.toString());
          assertThat(e.offset()).isGreaterThanOrEqualTo(record);
          assertThat(e.detail()).isEqualTo("FunctionInfo data is truncated"); // what llvm-gsymutil prints
        });
      }
    }
  }

  @Test
  void aRecordNamingAMissingFileIsCorruption() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "A.gsym"))) {
      LookupFrames frames = new LookupFrames();
      assertThat(r.lookup(0x1025, frames)).isTrue();
      GsymFormatException e = r.fileTable().noSuchFile(99);
      assertThat(e.detail()).isEqualTo("failed to extract file[99]");
      assertThat(e.source()).isEqualTo(TestData.path("vectors", "A.gsym").toString());
      assertThat(e.offset()).isEqualTo(r.fileTable().offset());
    }
  }

  @Test
  void aClosedReaderNamesItsFile() throws Exception {
    Path file = TestData.path("vectors", "A.gsym");
    GsymReader r = GsymReader.open(file);
    LookupFrames frames = new LookupFrames();
    assertThat(r.lookup(0x1025, frames)).isTrue();
    r.close();
    String closed = file + ": the GSYM reader is closed";
    assertThatThrownBy(() -> r.lookup(0x1025)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> r.lookup(0x1025, frames)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> r.find(0x1025)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> r.lookupCandidates(0x1025)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> r.functionInfoAtIndex(0)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> r.dump(new StringBuilder())).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> r.unwindRow(0x1025)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> r.unwindInfoAtIndex(0)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    // frames filled before the close cannot print names from the unmapped file either
    assertThatThrownBy(() -> frames.appendTo(new TextBuffer(64), false)).isInstanceOf(IllegalStateException.class)
        .hasMessage(closed);
  }
}
