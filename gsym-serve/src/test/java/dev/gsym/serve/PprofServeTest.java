package dev.gsym.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.elf.ElfFile;
import dev.gsym.profile.PprofProfile;
import dev.gsym.profile.ProfileSymbolizer;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.TestData;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /symbolicate/pprof} on a running server over loopback: the answer is the profile the
 * library symbolizes (byte for byte), gzipped as it came; bad bodies are 400 and 413 answers.
 */
class PprofServeTest {
  @TempDir Path tmp;

  private Path debugDirectory() throws Exception {
    Path dbg = tmp.resolve("dbg");
    for (String m : List.of("profdemo", "libprofdemo.so")) {
      Path bin = TestData.path("profile", "bin", m);
      try (ElfFile f = ElfFile.open(bin)) {
        TestData.addToDebugDirectory(dbg, HexFormat.of().formatHex(f.buildId()), bin);
      }
    }
    return dbg;
  }

  private HttpResponse<byte[]> post(TestServer t, byte[] body) throws Exception {
    return t.client.send(HttpRequest.newBuilder(t.uri("/symbolicate/pprof")).timeout(Duration.ofSeconds(60))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void answersTheSymbolizedProfile() throws Exception {
    Path dbg = debugDirectory();
    byte[] in = Files.readAllBytes(TestData.path("profile", "synthetic.pb.gz"));
    Symbolizer s = Symbolizer.builder().addSource(Source.DebugDirectories.of(dbg)).build();
    try (TestServer t = new TestServer(s, b -> b.profileDebugDirectories(List.of(dbg)))) {
      HttpResponse<byte[]> r = post(t, in);
      assertEquals(200, r.statusCode(), new String(r.body()));
      assertEquals("application/octet-stream", r.headers().firstValue("content-type").orElse(""));
      assertEquals("80", r.headers().firstValue("x-gsym-locations").orElse(""));
      assertEquals("71", r.headers().firstValue("x-gsym-symbolized").orElse(""));
      assertEquals("2", r.headers().firstValue("x-gsym-missing-module").orElse(""));
      byte[] body = r.body();
      assertTrue((body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b, "gzipped as it came");
      // the library's answer, byte for byte (its frames are checked against llvm-symbolizer-22 in gsym-profile)
      try (Symbolizer local = Symbolizer.builder().addSource(Source.DebugDirectories.of(dbg)).build()) {
        PprofProfile expected = ProfileSymbolizer.builder(local).debugDirectories(List.of(dbg)).build()
            .symbolize(PprofProfile.read(in, "in")).profile();
        assertArrayEquals(PprofProfile.read(expected.toByteArray(false), "x").toByteArray(false),
            PprofProfile.read(body, "answer").toByteArray(false));
      }
      // not gzipped in, not gzipped out
      byte[] plain = PprofProfile.read(in, "in").toByteArray(false);
      HttpResponse<byte[]> p = post(t, plain);
      assertEquals(200, p.statusCode());
      assertTrue(p.body()[0] != 0x1f, "plain as it came");
    }
  }

  @Test
  void symbolTableNamesNameTheOutermostFrames() throws Exception {
    Path dbg = debugDirectory();
    byte[] in = Files.readAllBytes(TestData.path("profile", "synthetic.pb.gz"));
    ProfileSymbolizer.SymbolTableNames names = (elf, address) -> "table:" + elf.getFileName() + "+0x" + Long.toHexString(address);
    Symbolizer s = Symbolizer.builder().addSource(Source.DebugDirectories.of(dbg)).build();
    try (TestServer t = new TestServer(s, b -> b.profileDebugDirectories(List.of(dbg)).profileSymbolTableNames(names))) {
      HttpResponse<byte[]> r = post(t, in);
      assertEquals(200, r.statusCode(), new String(r.body()));
      PprofProfile answer = PprofProfile.read(r.body(), "answer");
      try (Symbolizer local = Symbolizer.builder().addSource(Source.DebugDirectories.of(dbg)).build()) {
        PprofProfile expected = ProfileSymbolizer.builder(local).debugDirectories(List.of(dbg)).symbolTableNames(names)
            .build().symbolize(PprofProfile.read(in, "in")).profile();
        assertArrayEquals(PprofProfile.read(expected.toByteArray(false), "x").toByteArray(false),
            answer.toByteArray(false));
      }
      int named = 0;
      for (int i = 0; i < answer.stringCount(); i++) if (answer.string(i).startsWith("table:")) named++;
      assertTrue(named > 50, named + " names from the symbol table");
    }
  }

  @Test
  void badProfilesAreClientErrors() throws Exception {
    byte[] in = Files.readAllBytes(TestData.path("profile", "synthetic.pb.gz"));
    Symbolizer s = Symbolizer.builder().build();
    try (TestServer t = new TestServer(s, b -> b.maxRequestBytes(4096))) {
      HttpResponse<byte[]> truncated = post(t, java.util.Arrays.copyOf(in, in.length / 2));
      assertEquals(400, truncated.statusCode());
      String body = new String(truncated.body());
      assertTrue(body.contains("\"kind\":\"bad_profile\"") && body.contains("gzip stream cut short"), body);
      HttpResponse<byte[]> big = post(t, new byte[5000]);
      assertEquals(413, big.statusCode(), new String(big.body()));
      HttpResponse<String> get = t.get("/symbolicate/pprof");
      assertEquals(405, get.statusCode());
    }
    // small on the wire, large once decompressed
    try (TestServer t = new TestServer(Symbolizer.builder().build(), b -> b.maxProfileBytes(2048))) {
      HttpResponse<byte[]> bomb = post(t, in);
      assertEquals(413, bomb.statusCode(), new String(bomb.body()));
      assertTrue(new String(bomb.body()).contains("profile_too_large"), new String(bomb.body()));
    }
  }
}
