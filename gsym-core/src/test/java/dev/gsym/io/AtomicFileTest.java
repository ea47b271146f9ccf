package dev.gsym.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {

  private static long entries(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.count();
    }
  }

  @Test
  void writesAndReturnsTheResult(@TempDir Path dir) throws Exception {
    Path target = dir.resolve("out.bin");
    int n = AtomicFile.write(target, ch -> ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3})));
    assertThat(n).isEqualTo(3);
    assertThat(Files.readAllBytes(target)).containsExactly(1, 2, 3);
    assertThat(entries(dir)).isEqualTo(1);
  }

  @Test
  void failureKeepsTheOldFileAndLeavesNoTemporary(@TempDir Path dir) throws Exception {
    Path target = Files.write(dir.resolve("out.bin"), new byte[] {9});
    assertThatThrownBy(() -> AtomicFile.write(target, ch -> {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2}));
      throw new IOException("disk full");
    })).hasMessage("disk full");
    assertThat(Files.readAllBytes(target)).containsExactly(9);
    assertThat(entries(dir)).isEqualTo(1);
  }

  @Test
  void permissionsAreThoseOfAnyNewFileNotOwnerOnly(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path plain = Files.createFile(dir.resolve("plain"));
    Path target = dir.resolve("out.bin");
    AtomicFile.write(target, ch -> ch.write(ByteBuffer.wrap(new byte[] {1})));
    assertThat(Files.getPosixFilePermissions(target)).isEqualTo(Files.getPosixFilePermissions(plain));
  }
}
