package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.elf.ElfFile;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * DwarfConverter.arch gives llvm-gsymutil-22's "Output file (ARCH)" names (checked with
 * clang-22 --target=… objects): e_machine together with the ELF class and byte order.
 */
@NeedsLlvm
class ArchNameTest {
  /** The golden binary with e_machine replaced. */
  private static String arch(String golden, int machine) throws IOException {
    byte[] b = Files.readAllBytes(TestData.path("bin", golden));
    ByteOrder order = b[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    ByteBuffer.wrap(b).order(order).putShort(18, (short) machine);
    return DwarfConverter.arch(ElfFile.of(b, golden));
  }

  @Test
  void namesFollowClassAndByteOrder() throws IOException {
    String le64 = "fs-aarch64-O2-d5", le32 = "fs-i386-O2-d5", be64 = "fs-ppc64-O2-d5";
    assertEquals("aarch64", arch(le64, 183));
    assertEquals("aarch64_be", arch(be64, 183));
    assertEquals("i386", arch(le32, 3));
    assertEquals("x86_64", arch(le64, 62));
    assertEquals("powerpc64", arch(be64, 21)); // llvm's name, not "ppc64"
    assertEquals("powerpc64le", arch(le64, 21));
    assertEquals("powerpcle", arch(le32, 20));
    assertEquals("mips64", arch(be64, 8));
    assertEquals("mips64el", arch(le64, 8));
    assertEquals("mipsel", arch(le32, 8));
    assertEquals("riscv64", arch(le64, 243));
    assertEquals("riscv32", arch(le32, 243));
    assertEquals("loongarch64", arch(le64, 258));
    assertEquals("s390x", arch(be64, 22));
    assertEquals("sparcv9", arch(be64, 43));
    assertEquals("bpfel", arch(le64, 247));
    assertEquals("bpfeb", arch(be64, 247));
    assertEquals("unknown", arch(le64, 0x7fff));
  }
}
