package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.FileEntry;
import dev.gsym.testing.TestData;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LookupFrames}' string-table offsets and file indexes ({@link LookupFrames#nameOffset},
 * {@link LookupFrames#fileIndex}, {@link LookupFrames#functionStart}), which batch printers key their
 * encoded names and paths by: resolved through the reader, they give what {@link
 * LookupFrames#toResult()} gives, frame for frame, with one instance reused across functions,
 * inlined frames and files (C++ with inlining, Rust, and non-UTF-8 names and paths).
 */
class LookupFramesOffsetsTest {
  @Test
  void offsetsResolveToTheResultsNamesAndFiles() throws Exception {
    int inlined = 0;
    for (String name : List.of("cpp-clang-O2", "cpp-gcc-O2", "rust-O2", "latin1-gcc-O2", "c-clang-O2")) {
      try (GsymReader r = GsymReader.open(TestData.path("gsym", name + ".gsym"))) {
        LookupFrames frames = new LookupFrames(); // reused for every address
        for (int i = 0; i < r.numFunctions(); i++) {
          long start = r.functionAddress(i);
          long size = r.functionInfoAtIndex(i).range().size();
          for (long addr : new long[] {start, start + size / 2, start + Math.max(0, size - 1)}) {
            if (!r.lookup(addr, frames)) continue;
            LookupResult want = frames.toResult();
            assertThat(frames.functionStart()).as("%s 0x%x", name, addr).isEqualTo(want.functionRange().start());
            assertThat(frames.count()).isEqualTo(want.locations().size());
            if (frames.count() > 1) inlined++;
            for (int k = 0; k < frames.count(); k++) {
              SourceLocation loc = want.locations().get(k);
              String what = name + " 0x" + Long.toHexString(addr) + " frame " + k;
              assertThat(r.string(frames.nameOffset(k))).as(what).isEqualTo(loc.name());
              long file = frames.fileIndex(k);
              if (file < 0) {
                assertThat(loc.hasFile()).as(what).isFalse();
              } else {
                FileEntry e = r.file(file);
                assertThat(r.string(e.dir())).as(what).isEqualTo(loc.dir());
                assertThat(r.string(e.base())).as(what).isEqualTo(loc.base());
              }
            }
          }
        }
      }
    }
    assertThat(inlined).as("lookups with inlined frames").isGreaterThanOrEqualTo(10);
  }

  /** A miss leaves no function behind: a reused instance starts each lookup as a new one. */
  @Test
  void aMissClearsTheFunction() throws Exception {
    try (GsymReader r = GsymReader.open(TestData.path("vectors", "A.gsym"))) {
      LookupFrames frames = new LookupFrames();
      assertThat(r.lookup(0x1025, frames)).isTrue();
      assertThat(frames.functionStart()).isEqualTo(0x1020);
      assertThat(r.lookup(0x1010, frames)).isFalse();
      assertThat(frames.functionStart()).isZero();
    }
  }
}
