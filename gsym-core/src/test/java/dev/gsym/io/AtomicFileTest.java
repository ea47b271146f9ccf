package dev.gsym.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@StartsProcesses
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

  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFIFO = 0010000;

  private static int fileType(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & S_IFMT;
  }

  private static AtomicFile.Content<Integer> bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < b.length; i++) b[i] = (byte) values[i];
    return ch -> ch.write(ByteBuffer.wrap(b));
  }

  /** Makes a special file with a system tool ({@code mkfifo}, {@code mknod}); false if that failed. */
  private static boolean make(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor() == 0;
  }

  @Test
  void symbolicLinkStaysALinkAndItsTargetIsReplaced(@TempDir Path dir) throws Exception {
    Path real = Files.write(dir.resolve("real.bin"), new byte[] {9, 9, 9, 9});
    Path link = Files.createSymbolicLink(dir.resolve("link.bin"), Path.of("real.bin"));
    AtomicFile.write(link, bytes(1, 2));
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("real.bin"));
    assertThat(Files.readAllBytes(real)).containsExactly(1, 2);
    assertThat(entries(dir)).isEqualTo(2);
  }

  @Test
  void chainsOfLinksAcrossDirectoriesAreFollowedAndTheTemporaryGoesBesideTheTarget(@TempDir Path dir)
      throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    Path real = Files.write(b.resolve("real.bin"), new byte[] {7});
    Path second = Files.createSymbolicLink(a.resolve("second"), Path.of("../b/real.bin"));
    Path first = Files.createSymbolicLink(dir.resolve("first"), second.toAbsolutePath());
    assertThat(Files.isSameFile(AtomicFile.temporaryDirectory(first), b)).isTrue();
    AtomicFile.write(first, ch -> {
      // the temporary file is beside the final target, in b
      try (Stream<Path> s = Files.list(b)) {
        assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith(".real.bin.") && n.endsWith(".tmp"));
      }
      return ch.write(ByteBuffer.wrap(new byte[] {3, 4}));
    });
    assertThat(Files.isSymbolicLink(first)).isTrue();
    assertThat(Files.isSymbolicLink(second)).isTrue();
    assertThat(Files.readAllBytes(real)).containsExactly(3, 4);
    assertThat(entries(a)).isEqualTo(1);
    assertThat(entries(b)).isEqualTo(1);
  }

  @Test
  void danglingLinkCreatesItsTarget(@TempDir Path dir) throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("new.bin"));
    AtomicFile.write(link, bytes(5));
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readAllBytes(dir.resolve("new.bin"))).containsExactly(5);
  }

  @Test
  void linkLoopIsAnError(@TempDir Path dir) throws Exception {
    Path x = Files.createSymbolicLink(dir.resolve("x"), Path.of("y"));
    Files.createSymbolicLink(dir.resolve("y"), Path.of("x"));
    assertThatThrownBy(() -> AtomicFile.write(x, bytes(1))).isInstanceOf(FileSystemException.class)
        .hasMessageContaining("Too many levels of symbolic links");
    assertThat(entries(dir)).isEqualTo(2);
  }

  @Test
  void directoryIsRefusedAndKept(@TempDir Path dir) throws Exception {
    Path d = Files.createDirectory(dir.resolve("d"));
    assertThatThrownBy(() -> AtomicFile.write(d, bytes(1))).isInstanceOf(FileSystemException.class)
        .hasMessageContaining("Is a directory");
    assertThat(Files.isDirectory(d)).isTrue();
    assertThat(entries(dir)).isEqualTo(1);
  }

  /** A FIFO is written in place with a reader on the other end, and stays a FIFO. */
  @Test
  void fifoIsWrittenInPlace(@TempDir Path dir) throws Exception {
    Path fifo = dir.resolve("pipe");
    Tools.check(make("mkfifo", fifo.toString()), "mkfifo");
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
      try (InputStream in = Files.newInputStream(fifo)) {
        return in.readAllBytes();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    // seeking content (as GsymCreator writes: records first, header last) arrives in order
    AtomicFile.write(fifo, ch -> {
      ch.write(ByteBuffer.wrap(new byte[] {3, 4}), 2);
      return ch.write(ByteBuffer.wrap(new byte[] {1, 2}), 0);
    });
    assertThat(read.get(30, TimeUnit.SECONDS)).containsExactly(1, 2, 3, 4);
    assertThat(fileType(fifo)).isEqualTo(S_IFIFO);
    assertThat(entries(dir)).isEqualTo(1);
  }

  /** A character device (a private /dev/null made with mknod, root only) is written, not replaced. */
  @Test
  void characterDeviceIsWrittenInPlace(@TempDir Path dir) throws Exception {
    Path dev = dir.resolve("null");
    Assumptions.assumeTrue(make("mknod", dev.toString(), "c", "1", "3"),
        "mknod c 1 3 failed (needs root): cannot make a character device to write to");
    AtomicFile.write(dev, bytes(1, 2, 3));
    assertThat(fileType(dev)).isEqualTo(S_IFCHR);
    assertThat(entries(dir)).isEqualTo(1);
    // through a link too
    Path link = Files.createSymbolicLink(dir.resolve("link"), dev);
    AtomicFile.write(link, bytes(4));
    assertThat(fileType(dev)).isEqualTo(S_IFCHR);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(AtomicFile.temporaryDirectory(link)).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
  }

  @Test
  void streamGetsTheContentInFileOrder() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int n = AtomicFile.write(out, ch -> {
      ch.write(ByteBuffer.wrap(new byte[] {3}), 2);
      return ch.write(ByteBuffer.wrap(new byte[] {1, 2}), 0);
    });
    assertThat(n).isEqualTo(2);
    assertThat(out.toByteArray()).containsExactly(1, 2, 3);
  }

  @Test
  void failingContentSendsNothingToAStreamOrAFifo(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThatThrownBy(() -> AtomicFile.write(out, ch -> {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2}));
      throw new IOException("disk full");
    })).hasMessage("disk full");
    assertThat(out.size()).isZero();

    Path fifo = dir.resolve("pipe");
    Tools.check(make("mkfifo", fifo.toString()), "mkfifo");
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
      try (InputStream in = Files.newInputStream(fifo)) {
        return in.readAllBytes();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    assertThatThrownBy(() -> AtomicFile.write(fifo, ch -> {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2}));
      throw new IOException("disk full");
    })).hasMessage("disk full");
    assertThat(read.get(30, TimeUnit.SECONDS)).isEmpty();
    assertThat(fileType(fifo)).isEqualTo(S_IFIFO);
  }

  /** A scratch file has no name from the moment it is open (POSIX), so nothing can be left behind. */
  @Test
  void scratchFileIsNamelessWhileOpen(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    try (var ch = AtomicFile.scratch(dir)) {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
      assertThat(entries(dir)).isZero();
      ByteBuffer back = ByteBuffer.allocate(3);
      ch.read(back, 0);
      assertThat(back.array()).containsExactly(1, 2, 3);
    }
    assertThat(entries(dir)).isZero();
  }
}
