package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our output against llvm-gsymutil-22's, as transcribed in the test vectors
 * (/work/shared/docs/gsym-vectors/vec1, vec3, vec4). Where llvm prints its argv[0], we print
 * "gsymutil".
 */
class VectorTranscriptTest {
  private static String v(String name) {
    return TestData.path("vectors", name).toString();
  }

  private static void assertRun(CliRun r, int status, String out, String err) {
    assertThat(r.out()).isEqualTo(out);
    assertThat(r.err()).isEqualTo(err);
    assertThat(r.status()).isEqualTo(status);
  }

  @Test
  void vec1Lookups() {
    String f = v("t1.gsym");
    CliRun r = CliRun.run("--address", "0x1000", "--address", "0x1010", "--address", "0x1140",
        "--address", "0x1141", "--address", "0x114a", "--address", "0x1157", "--address", "0x1158",
        "--address", "0x1184", "--address", "0x11f8", "--address", "0x11f9", "--address", "0xfff", f);
    assertRun(r, 0, "Looking up addresses in \"" + f + "\":\n" + """
        0x0000000000001000: _init
        0x0000000000001010: _init + 16
        0x0000000000001140: add @ /tmp/specwork/v1/t1.c:3
        0x0000000000001141: add + 1 @ /tmp/specwork/v1/t1.c:3
        0x000000000000114a: add + 10 @ /tmp/specwork/v1/t1.c:4
        0x0000000000001157: add + 23 @ /tmp/specwork/v1/t1.c:5
        0x0000000000001158: error: address 0x1158 is not in GSYM
        0x0000000000001184: mul + 36 @ /tmp/specwork/v1/t1.c:11
        0x00000000000011f8: _fini + 8
        0x00000000000011f9: error: address 0x11f9 is not in GSYM
        0x0000000000000fff: error: address 0xfff is not in GSYM
        """, "");
  }

  @Test
  void vec1LookupSpellings() {
    String f = v("t1.gsym");
    String expected = "Looking up addresses in \"" + f + "\":\n"
        + "0x0000000000001000: _init\n".repeat(5);
    assertRun(CliRun.run("--address=4096", "--lookup", "010000", "--lookup=0b1000000000000",
        "--address", "0X1000", f, "--address", "0x1000"), 0, expected, "");
    assertRun(CliRun.run("lookup", "-f", f, "4096", "010000", "0b1000000000000", "0X1000", "0x1000"),
        0, expected, "");
  }

  @Test
  void vec1VerboseLookups() {
    String f = v("t1.gsym");
    CliRun r = CliRun.run("--verbose", "--address", "0x1184", "--address", "0x1158", f);
    assertRun(r, 0, "Looking up addresses in \"" + f + "\":\n" + """
        FunctionInfo for 0x0000000000001184:
        [0x0000000000001160 - 0x00000000000011a6) "mul"
        LineTable:
          0x0000000000001160 /tmp/specwork/v1/t1.c:8
          0x000000000000116e /tmp/specwork/v1/t1.c:9
          0x0000000000001175 /tmp/specwork/v1/t1.c:10
          0x0000000000001184 /tmp/specwork/v1/t1.c:11
          0x0000000000001192 /tmp/specwork/v1/t1.c:10
          0x000000000000119d /tmp/specwork/v1/t1.c:12

        LookupResult for 0x0000000000001184:
        0x0000000000001184: mul + 36 @ /tmp/specwork/v1/t1.c:11


        LookupResult for 0x0000000000001158:
        0x0000000000001158: error: address 0x1158 is not in GSYM

        """, "");
  }

  @Test
  void vec1Stdin() {
    String f = v("t1.gsym");
    CliRun r = CliRun.stdin("0x1184 " + f + "\n0x1158 " + f + "\n4484 " + f + "\n", "--addresses-from-stdin");
    assertRun(r, 0, """
        0x0000000000001184: mul + 36 @ /tmp/specwork/v1/t1.c:11

        0x0000000000001158: error: address 0x1158 is not in GSYM

        0x0000000000001184: mul + 36 @ /tmp/specwork/v1/t1.c:11

        """, "");
  }

  @Test
  void vec1Dump() throws Exception {
    String f = v("t1.gsym");
    CliRun r = CliRun.run(f);
    assertThat(r.status()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).startsWith("Header:\n  Magic        = 0x4753594d\n")
        .contains("====== =============================== \n")
        .endsWith("FunctionInfo @ 0x000001c8: [0x00000000000011f0 - 0x00000000000011f9) \"_fini\"\n");
    assertThat(CliRun.run("--dump", f)).isEqualTo(r);
    assertThat(CliRun.run("dump", f)).isEqualTo(r);
    assertThat(CliRun.run("--verbose", f)).isEqualTo(r);
    CliRun twice = CliRun.run(f, f);
    assertThat(twice.out()).isEqualTo(r.out() + r.out());
  }

  @Test
  void vec3PlainLookupsHideCallSites() {
    String f = v("t3gmc.gsym");
    CliRun r = CliRun.run("--address", "0x6c0", "--address", "0x6c4", "--address", "0x6da",
        "--address", "0x6e5", f);
    assertRun(r, 0, "Looking up addresses in \"" + f + "\":\n" + """
        0x00000000000006c0: twice_a @ /tmp/specwork/v3/t3.c:8
        0x00000000000006c4: twice_a + 4 @ /tmp/specwork/v3/t3.c:8
        0x00000000000006da: call_both + 10 @ /tmp/specwork/v3/t3.c:12
        0x00000000000006e5: call_both + 21 @ /tmp/specwork/v3/t3.c:14
        """, "");
  }

  @Test
  void vec3MergedLookups() {
    String f = v("t3gmc.gsym");
    CliRun r = CliRun.run("--merged-functions", "--address", "0x6c0", "--address", "0x6c4",
        "--address", "0x6c9", "--address", "0x6da", "--address", "0x6e5", "--address", "0x706", f);
    assertRun(r, 0, "Looking up addresses in \"" + f + "\":\n" + """
        Found 2 functions at address 0x00000000000006c0:
           0x00000000000006c0: twice_a @ /tmp/specwork/v3/t3.c:8

           0x00000000000006c0: twice_b @ /tmp/specwork/v3/t3.c:8
        Found 2 functions at address 0x00000000000006c4:
           0x00000000000006c4: twice_a + 4 @ /tmp/specwork/v3/t3.c:8

           0x00000000000006c4: twice_b + 4 @ /tmp/specwork/v3/t3.c:8
        Found 1 function at address 0x00000000000006da:
           0x00000000000006da: call_both + 10 @ /tmp/specwork/v3/t3.c:12
              CallSites: twice_a
        Found 1 function at address 0x00000000000006e5:
           0x00000000000006e5: call_both + 21 @ /tmp/specwork/v3/t3.c:14
              CallSites: twice_b
        Found 1 function at address 0x0000000000000706:
           0x0000000000000706: main + 22 @ /tmp/specwork/v3/t3.c:19
              CallSites: printf
        """, "");
    // --verbose adds nothing in merged mode
    assertThat(CliRun.run("--verbose", "--merged-functions", "--address", "0x6c0", "--address",
        "0x6c4", "--address", "0x6c9", "--address", "0x6da", "--address", "0x6e5", "--address",
        "0x706", f)).isEqualTo(r);
  }

  @Test
  void vec3MergedFilter() {
    String f = v("t3gm.gsym");
    String head = "Looking up addresses in \"" + f + "\":\n";
    assertRun(CliRun.run("--merged-functions", "--merged-functions-filter=_b$", "--address", "0x6c4", f),
        0, head + """
        Found 1 function at address 0x00000000000006c4:
           0x00000000000006c4: twice_b + 4 @ /tmp/specwork/v3/t3.c:8
        """, "");
    assertRun(CliRun.run("--merged-functions", "--merged-functions-filter=zzz", "--address", "0x6c4", f),
        0, head + "Found 0 functions at address 0x00000000000006c4:\n", "");
    // A filtered-out last result still leaves llvm's separator line after the one before it.
    assertRun(CliRun.run("--merged-functions", "--merged-functions-filter", "_a$", "--address", "0x6c4", f),
        0, head + """
        Found 1 function at address 0x00000000000006c4:
           0x00000000000006c4: twice_a + 4 @ /tmp/specwork/v3/t3.c:8

        """, "");
  }

  @Test
  void vec3FilterErrors() {
    String f = v("t3gm.gsym");
    assertRun(CliRun.run("--merged-functions-filter=zzz", "--address", "0x6c4", f), 1, "",
        "gsymutil: --merged-functions-filter requires --merged-functions\n");
    assertRun(CliRun.run("--merged-functions-filter=zzz", f), 1, "",
        "gsymutil: --merged-functions-filter can only be used with --address/--addresses-from-stdin\n");
  }

  @Test
  void vec3MergedStdin() {
    String f = v("t3gmc.gsym");
    CliRun r = CliRun.stdin("0x6da " + f + "\n0x6c0 " + f + "\n0x10 " + f + "\n", "--merged-functions",
        "--addresses-from-stdin");
    assertRun(r, 0, """
        Found 1 function at address 0x00000000000006da:
           0x00000000000006da: call_both + 10 @ /tmp/specwork/v3/t3.c:12
              CallSites: twice_a

        Found 2 functions at address 0x00000000000006c0:
           0x00000000000006c0: twice_a @ /tmp/specwork/v3/t3.c:8

           0x00000000000006c0: twice_b @ /tmp/specwork/v3/t3.c:8


        """, "");
  }

  @Test
  void vec4Lookups() {
    String a = v("A.gsym");
    assertRun(CliRun.run("--address", "0x1000", "--address", "0x1008", "--address", "0x1010",
        "--address", "0x1020", "--address", "0x1025", "--address", "0x1031", "--address", "0x1040",
        "--address", "0x1100", "--address", "0x5000", "--address", "0xfff", a), 0,
        "Looking up addresses in \"" + a + "\":\n" + """
        0x0000000000001000: sym_zero_first
        0x0000000000001008: sym_zero_first + 8
        0x0000000000001010: error: address 0x1010 is not in GSYM
        0x0000000000001020: lt_func @ C:\\win\\b.c:50
        0x0000000000001025: lt_func + 5 @ C:\\win\\b.c:10
        0x0000000000001031: lt_func + 17 @ nodir.c:1000
        0x0000000000001040: error: address 0x1040 is not in GSYM
        0x0000000000001100: last_zero
        0x0000000000005000: last_zero + 16128
        0x0000000000000fff: error: address 0xfff is not in GSYM
        """, "");
    String fFile = v("F.gsym");
    assertRun(CliRun.run("--address", "0x110", "--address", "0x130", "--address", "0x205",
        "--address", "0x215", "--address", "0x315", "--address", "0x409", "--address", "0x412",
        "--address", "0x41a", "--address", "0x424", fFile), 0,
        "Looking up addresses in \"" + fFile + "\":\n" + """
        0x0000000000000110: short_same_start + 16
        0x0000000000000130: long_same_start + 48
        0x0000000000000205: error: address 0x205 is not in the line table
        0x0000000000000215: late_first_row + 21 @ /f/main.c:5
        0x0000000000000315: inl_no_lt + 21
        0x0000000000000409: inl_mid_nofile + 9 @ /f/main.c:1
        0x0000000000000412: deep + 2 @ /f/inc.h:2 [inlined]
                            inl_mid_nofile + 18 @ /f/main.c:3
        0x000000000000041a: inl_mid_nofile + 26 @ /f/inc.h:2
        0x0000000000000424: deep + 20 @ /f/inc.h:2 [inlined]
                            inl_mid_nofile + 36 @ /f/main.c:3
        """, "");
    String g = v("G.gsym");
    assertRun(CliRun.run("--merged-functions", "--address", "0x2005", "--address", "0x2008",
        "--address", "0x2010", g), 0, "Looking up addresses in \"" + g + "\":\n" + """
        Found 2 functions at address 0x0000000000002005:
           0x0000000000002005: top + 5 @ /m/m.c:10

           0x0000000000002005: inl + 1 @ /m/m.c:20 [inlined]
                            merged_child + 5 @ /m/m.c:21
        Found 2 functions at address 0x0000000000002008:
           0x0000000000002008: top + 8 @ /m/m.c:11
              CallSites: ^foo$, bar.*

           0x0000000000002008: inl + 4 @ /m/m.c:20 [inlined]
                            merged_child + 8 @ /m/m.c:21
              CallSites: baz
        Found 2 functions at address 0x0000000000002010:
           0x0000000000002010: top + 16 @ /m/m.c:11

           0x0000000000002010: merged_child + 16 @ /m/m.c:20
        """, "");
    String b = v("B.gsym");
    String c = v("C.gsym");
    assertRun(CliRun.run("--address", "0x401005", "--address", "0x15", b, c), 0,
        "Looking up addresses in \"" + b + "\":\n" + """
        0x0000000000401005: f1 + 5
        0x0000000000000015: error: address 0x15 is not in GSYM
        """ + "Looking up addresses in \"" + c + "\":\n" + """
        0x0000000000401005: error: address 0x401005 is not in GSYM
        0x0000000000000015: lo + 5
        """, "");
  }

  @Test
  void badAddressArguments() {
    String f = v("t1.gsym");
    for (String bad : new String[] {"zz", "0x", "-1", "08", "1k", " 12", "+12", "", "0x10000000000000000"}) {
      assertRun(CliRun.run("--address", bad, f), 1, "",
          "gsymutil: for the --address option: '" + bad + "' value invalid for uint argument!\n");
    }
    assertRun(CliRun.run("--address", "zz", "--address", "yy", f), 1, "",
        "gsymutil: for the --address option: 'zz' value invalid for uint argument!\n");
    assertRun(CliRun.run(f, "--address"), 1, "", "--address: missing argument\n");
    // like llvm, the next argument is the value even if it looks like an option
    assertRun(CliRun.run("--address", "--verbose", f), 1, "",
        "gsymutil: for the --address option: '--verbose' value invalid for uint argument!\n");
    String g = v("t3gm.gsym");
    assertRun(CliRun.run("--merged-functions", "--merged-functions-filter", "--verbose", "--address",
        "0x6c0", g), 0, "Looking up addresses in \"" + g + "\":\n"
        + "Found 0 functions at address 0x00000000000006c0:\n", "");
  }

  @Test
  void unknownArguments() {
    String f = v("t1.gsym");
    // llvm-gsymutil-22's line, then a pointer to the help
    String help = "Try 'gsymutil --help' for more information.\n";
    assertRun(CliRun.run("--bogus", f), 1, "", "unknown argument '--bogus'\n" + help);
    assertRun(CliRun.run("---address", "0x1000", f), 1, "",
        "unknown argument '---address', did you mean '--address'?\n" + help);
    assertRun(CliRun.run("-address", "0x1000", f), 1, "", "unknown argument '-a'\n" + help);
    assertRun(CliRun.run("-hx"), 1, "", "unknown argument '-x'\n" + help);
    assertRun(CliRun.run("lookup", "--bogus", f, "0x1000"), 1, "",
        "unknown argument '--bogus'\nTry 'gsymutil lookup --help' for more information.\n");
  }

  @Test
  void stdinConflicts() {
    String msg = "error: no input files or addresses can be specified when using the"
        + " --addresses-from-stdin option.\n";
    assertRun(CliRun.run("--address", "1", "--addresses-from-stdin"), 1, msg, "");
    assertRun(CliRun.run("--addresses-from-stdin", v("t1.gsym")), 1, msg, "");
  }

  @Test
  void stdinErrors() {
    String f = v("t1.gsym");
    assertRun(CliRun.stdin("zz " + f + "\n0x1000 " + f + "\n", "--addresses-from-stdin"), 1,
        "error: invalid address zz, expected: Address GsymFile.\n", "");
    assertRun(CliRun.stdin("\n", "--addresses-from-stdin"), 1,
        "error: invalid address , expected: Address GsymFile.\n", "");
    assertRun(CliRun.stdin("0x1000 " + f + "\r\n0x1141  " + f + "\n", "--addresses-from-stdin"), 1,
        "0x0000000000001000: _init\n\n", " " + f + ": No such file or directory\n");
    assertRun(CliRun.stdin("zz /nonexistent/x.gsym\n", "--addresses-from-stdin"), 1, "",
        "/nonexistent/x.gsym: No such file or directory\n");
    // llvm-gsymutil crashes on an address without a path before any file was opened
    assertRun(CliRun.stdin("0x1000\n", "--addresses-from-stdin"), 1, "", ": No such file or directory\n");
    // last line without newline, files switching back and forth
    String g = v("G.gsym");
    assertRun(CliRun.stdin("0x1000 " + f + "\n0x2000 " + g + "\n0x1000 " + f, "--addresses-from-stdin"),
        0, "0x0000000000001000: _init\n\n0x0000000000002000: top @ /m/m.c:10\n\n"
            + "0x0000000000001000: _init\n\n", "");
  }

  @Test
  void missingAndNonGsymFiles(@TempDir Path tmp) throws Exception {
    String f = v("t1.gsym");
    assertRun(CliRun.run("/nonexistent/nothing.gsym"), 1, "",
        "/nonexistent/nothing.gsym: No such file or directory\n");
    Path text = Files.writeString(tmp.resolve("notes.txt"),
        "this is not a GSYM file at all, really; it is long enough for a header\n");
    assertRun(CliRun.run(text.toString()), 1, "", text + ": not a GSYM file\n");
    // llvm checks the length before the magic: a short non-GSYM file is "not enough data"
    Path shortText = Files.writeString(tmp.resolve("short.txt"), "this is not a GSYM file\n");
    assertRun(CliRun.run(shortText.toString()), 1, "", shortText + ": not enough data for a GSYM header\n");
    assertRun(CliRun.run("--address", "0x1000", text.toString()), 1, "", text + ": not a GSYM file\n");
    assertRun(CliRun.run(tmp.toString()), 1, "", tmp + ": Is a directory\n");
    Path empty = Files.write(tmp.resolve("empty.gsym"), new byte[0]);
    assertRun(CliRun.run(empty.toString()), 1, "", empty + ": not enough data for a GSYM header\n");
    // the first file is dumped, the missing second one stops the run
    CliRun r = CliRun.run(f, "/nonexistent/nothing.gsym", f);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEqualTo(CliRun.run(f).out());
    assertThat(r.err()).isEqualTo("/nonexistent/nothing.gsym: No such file or directory\n");
  }

  @Test
  void helpAndVersion() {
    CliRun help = CliRun.run("--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("--address", "--addresses-from-stdin", "--merged-functions-filter",
        "gsymutil dump", "gsymutil lookup");
    assertThat(CliRun.run("-h")).isEqualTo(help);
    assertThat(CliRun.run("-hv")).isEqualTo(help);
    assertThat(CliRun.run("--version", "--help")).isEqualTo(help);
    CliRun version = CliRun.run("--version");
    assertThat(version.status()).isZero();
    assertThat(version.out()).startsWith("gsymutil\ngsym-java version ");
    assertThat(CliRun.run("-v")).isEqualTo(version);
    // no arguments: the usage on stderr, exit 1 (llvm-gsymutil-22 prints nothing, exit 0; CliMessagesTest)
    CliRun none = CliRun.run();
    assertThat(none.status()).isEqualTo(1);
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).startsWith("Usage:\n");
  }
}
