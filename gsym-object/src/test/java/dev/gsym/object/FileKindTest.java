package dev.gsym.object;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.FunctionInfo;
import dev.gsym.format.AddressRange;
import dev.gsym.testing.TestData;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileKindTest {
  @TempDir
  Path tmp;

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) out[i] = (byte) b[i];
    return out;
  }

  private static FileKind text(String s) {
    return FileKind.sniff(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void theTestDataIsWhatItsDirectorySays() throws IOException {
    assertThat(FileKind.sniff(TestData.path("bin", "c-clang-O2"))).isEqualTo(FileKind.ELF);
    assertThat(FileKind.sniff(TestData.path("gsym", "c-clang-O2.gsym"))).isEqualTo(FileKind.GSYM_V1);
    assertThat(FileKind.sniff(TestData.path("macho", "bin", "c-arm64-O0-d4"))).isEqualTo(FileKind.MACH_O);
    assertThat(FileKind.sniff(TestData.path("macho", "bin", "c-arm64_32-O2"))).isEqualTo(FileKind.MACH_O);
    assertThat(FileKind.sniff(TestData.path("macho", "bin", "fat-c-O2"))).isEqualTo(FileKind.MACH_O_UNIVERSAL);
    assertThat(FileKind.sniff(TestData.path("macho", "bin", "fat64-objects.o"))).isEqualTo(FileKind.MACH_O_UNIVERSAL);
    assertThat(FileKind.sniff(TestData.path("pecoff", "bin", "c-x86_64-O2.exe"))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(TestData.path("pecoff", "bin", "c-aarch64-O2.o"))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(TestData.path("pecoff", "bin", "c-i686-O2.o"))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(TestData.path("minidump", "dumps", "i386-fp-abort.dmp"))).isEqualTo(FileKind.MINIDUMP);
    assertThat(FileKind.sniff(TestData.path("breakpad", "basic.sym"))).isEqualTo(FileKind.BREAKPAD);
  }

  @Test
  void gsymVersionsInEitherByteOrder() throws IOException {
    for (int version : new int[] {1, 2}) {
      for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
        try (GsymCreator c = new GsymCreator()) {
          c.addFunctionInfo(new FunctionInfo(new AddressRange(0x1000, 0x1010), c.insertString("f")));
          c.setOutputVersion(version);
          c.finish(Diagnostics.silent());
          Path f = tmp.resolve("v" + version + order);
          c.save(f, order);
          assertThat(FileKind.sniff(f)).as("%s %s", version, order).isEqualTo(version == 1 ? FileKind.GSYM_V1 : FileKind.GSYM_V2);
        }
      }
    }
    assertThat(FileKind.sniff(bytes('M', 'Y', 'S', 'G', 3, 0))).isEqualTo(FileKind.GSYM_OTHER_VERSION);
    assertThat(FileKind.sniff(bytes('G', 'S', 'Y', 'M', 0, 2))).isEqualTo(FileKind.GSYM_V2);
    assertThat(FileKind.sniff(bytes('G', 'S', 'Y', 'M', 2, 0))).isEqualTo(FileKind.GSYM_OTHER_VERSION);
    assertThat(FileKind.sniff(bytes('M', 'Y', 'S', 'G'))).isEqualTo(FileKind.GSYM_OTHER_VERSION);
    assertThat(FileKind.GSYM_OTHER_VERSION.isGsym()).isTrue();
    assertThat(FileKind.ELF.isGsym()).isFalse();
  }

  @Test
  void objectFileMagicsAsLlvmIdentifiesThem() {
    assertThat(FileKind.sniff(bytes(0x7f, 'E', 'L', 'F'))).isEqualTo(FileKind.ELF);
    for (int[] m : new int[][] {{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe}}) {
      assertThat(FileKind.sniff(bytes(m))).isEqualTo(FileKind.MACH_O);
    }
    assertThat(FileKind.sniff(bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2))).isEqualTo(FileKind.MACH_O_UNIVERSAL);
    assertThat(FileKind.sniff(bytes(0xca, 0xfe, 0xba, 0xbf, 0, 0, 0, 42))).isEqualTo(FileKind.MACH_O_UNIVERSAL);
    // a Java class file shares the fat magic; its major version is in byte 7
    assertThat(FileKind.sniff(bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 43))).isEqualTo(FileKind.OTHER);
    assertThat(FileKind.sniff(bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0))).isEqualTo(FileKind.OTHER);
    assertThat(FileKind.sniff(bytes(0x4c, 0x01))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(bytes(0xc4, 0x01))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(bytes(0x64, 0x86))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(bytes(0x64, 0xaa))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(bytes(0x64, 0x87))).isEqualTo(FileKind.OTHER);
    assertThat(text("!<arch>\nfoo")).isEqualTo(FileKind.ARCHIVE);
    assertThat(text("!<thin>\n")).isEqualTo(FileKind.ARCHIVE);
    assertThat(text("MDMP\u0093\u00a7")).isEqualTo(FileKind.MINIDUMP);
    assertThat(FileKind.ELF.isObjectFile()).isTrue();
    assertThat(FileKind.MACH_O_UNIVERSAL.isObjectFile()).isFalse();
  }

  @Test
  void peImagesNeedTheirSignatureWhereverItIs() throws IOException {
    ByteBuffer pe = ByteBuffer.allocate(0x90).order(ByteOrder.LITTLE_ENDIAN);
    pe.put(0, (byte) 'M').put(1, (byte) 'Z').putInt(0x3c, 0x80).put(0x80, (byte) 'P').put(0x81, (byte) 'E');
    assertThat(FileKind.sniff(pe.array())).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(Files.write(tmp.resolve("a.exe"), pe.array()))).isEqualTo(FileKind.COFF);
    pe.put(0x81, (byte) 'X');
    assertThat(FileKind.sniff(pe.array())).isEqualTo(FileKind.OTHER);
    assertThat(FileKind.sniff(Files.write(tmp.resolve("b.exe"), pe.array()))).isEqualTo(FileKind.OTHER);
    // "MZ" with a DOS header cut short, or its signature offset past the end
    assertThat(FileKind.sniff(bytes('M', 'Z', 0, 0))).isEqualTo(FileKind.OTHER);
    assertThat(FileKind.sniff(ByteBuffer.allocate(0x40).order(ByteOrder.LITTLE_ENDIAN).put(0, (byte) 'M')
        .put(1, (byte) 'Z').putInt(0x3c, 0x7fff_fff0).array())).isEqualTo(FileKind.OTHER);
    // a signature beyond the first HEAD bytes: read from the file
    ByteBuffer far = ByteBuffer.allocate(FileKind.HEAD + 0x100).order(ByteOrder.LITTLE_ENDIAN);
    far.put(0, (byte) 'M').put(1, (byte) 'Z').putInt(0x3c, FileKind.HEAD + 0x10);
    far.put(FileKind.HEAD + 0x10, (byte) 'P').put(FileKind.HEAD + 0x11, (byte) 'E');
    assertThat(FileKind.sniff(Files.write(tmp.resolve("far.exe"), far.array()))).isEqualTo(FileKind.COFF);
    assertThat(FileKind.sniff(java.util.Arrays.copyOf(far.array(), FileKind.HEAD))).isEqualTo(FileKind.OTHER);
  }

  @Test
  void breakpadFilesByTheirFirstRecord() {
    for (String kw : new String[] {"MODULE ", "FILE ", "FUNC ", "PUBLIC ", "INFO ", "STACK ", "INLINE_ORIGIN "}) {
      assertThat(text(kw + "x")).as(kw).isEqualTo(FileKind.BREAKPAD);
      assertThat(text("\r\n \t\n" + kw + "x")).as("blank lines, then " + kw).isEqualTo(FileKind.BREAKPAD);
    }
    assertThat(text("MODULE")).isEqualTo(FileKind.OTHER);
    assertThat(text("INLINE 0 1 2 3 4")).isEqualTo(FileKind.OTHER);
    assertThat(text("1000 10 1 1")).isEqualTo(FileKind.OTHER);
    assertThat(text("x\nMODULE Linux x86_64 0 a")).isEqualTo(FileKind.OTHER);
    assertThat(text("")).isEqualTo(FileKind.OTHER);
  }

  @Test
  void emptyAndUnreadableFiles() throws IOException {
    assertThat(FileKind.sniff(Files.write(tmp.resolve("empty"), new byte[0]))).isEqualTo(FileKind.OTHER);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> FileKind.sniff(tmp.resolve("missing")))
        .isInstanceOf(IOException.class);
  }
}
