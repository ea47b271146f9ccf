package dev.gsym.convert.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.convert.internal.CallSiteYaml.CallSite;
import dev.gsym.convert.internal.CallSiteYaml.Function;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.write.FunctionCallSites;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The call-site YAML reader. Expected diagnostics are
 * llvm-gsymutil-22's stderr for the same files (the CLI tests compare whole runs with llvm live).
 */
class CallSiteYamlTest {

  private static List<Function> parse(String text) throws Exception {
    return CallSiteYaml.parse(text, "y.yaml");
  }

  private static String diagnostics(String text) {
    try {
      CallSiteYaml.parse(text, "y.yaml");
    } catch (CallSiteYaml.ParseException e) {
      assertThat(e.getMessage()).isEqualTo("Error parsing YAML file: y.yaml\n");
      return e.diagnostics();
    }
    throw new AssertionError("no error for:\n" + text);
  }

  @Test
  void blockAndFlowStylesReadTheSame() throws Exception {
    List<Function> block = parse("""
        # leading comment
        functions:          # trailing comment
          - name: main
            callsites:
              - return_offset: 0x10
                match_regex:
                  - a
                  - "b\\\\.c"
                  - 'it''s'
                flags:
                  - ExternalCall
          - name: _start
        """);
    List<Function> flow = parse("{functions: [{name: main, callsites: [{return_offset: 16,"
        + " match_regex: [a, \"b\\\\.c\", 'it''s'], flags: [ExternalCall]}]}, {name: _start}]}");
    Function main = new Function("main", List.of(new CallSite(16, List.of("a", "b\\.c", "it's"), List.of("ExternalCall"))));
    assertThat(block).containsExactly(main, new Function("_start", List.of()));
    assertThat(flow).isEqualTo(block);
  }

  @Test
  void nullValuesAreEmptyAndExtraDocumentsIgnored() throws Exception {
    assertThat(parse("functions:\n")).isEmpty();
    assertThat(parse("functions: ~\n")).isEmpty();
    assertThat(parse("functions:\n- name: f\n  callsites:\n  - return_offset: 1\n    match_regex:\n    flags: null\n"))
        .containsExactly(new Function("f", List.of(new CallSite(1, List.of(), List.of()))));
    assertThat(parse("%YAML 1.2\n---\nfunctions: [{name: a}]\n---\nfunctions: [{name: b}]\n"))
        .containsExactly(new Function("a", List.of()));
    assertThat(parse("\uFEFFfunctions:\r\n  - name: !!str crlf\r\n")).containsExactly(new Function("crlf", List.of()));
  }

  @Test
  void explicitKeys() throws Exception {
    assertThat(parse("functions:\n  - ? name\n    : main\n")).containsExactly(new Function("main", List.of()));
    assertThat(parse("? functions\n: - name: main\n")).containsExactly(new Function("main", List.of()));
    assertThat(diagnostics("functions:\n  - ? name\n")).isEqualTo("y.yaml:3:1: error: unexpected scalar\n\n^\n");
    assertThat(diagnostics("functions:\n  - ? [a]\n    : main\n"))
        .isEqualTo("y.yaml:2:8: error: Map key must be a scalar\n  - ? [a]\n       ^\n");
  }

  @Test
  void scalarsFoldAsYaml() throws Exception {
    assertThat(parse("functions:\n  - name: ma\n      in\n").getFirst().name()).isEqualTo("ma in");
    assertThat(parse("functions:\n  - name: _start\n     - x\n").getFirst().name()).isEqualTo("_start - x");
    assertThat(parse("functions:\n  - name: |\n      main\n").getFirst().name()).isEqualTo("main\n");
    assertThat(parse("functions:\n  - name: >-\n      ma\n      in\n").getFirst().name()).isEqualTo("ma in");
    assertThat(parse("functions:\n  - name: \"m\\x61in\\u00e9\"\n").getFirst().name()).isEqualTo("main\u00e9");
    assertThat(parse("functions:\n  - name: 'a\n\n    b'\n").getFirst().name()).isEqualTo("a\nb");
  }

  @Test
  void returnOffsetsUseLlvmsAutoRadix() {
    assertThat(CallSiteYaml.parseUnsigned("0x1F")).isEqualTo(31);
    assertThat(CallSiteYaml.parseUnsigned("0XAB")).isEqualTo(0xab);
    assertThat(CallSiteYaml.parseUnsigned("010")).isEqualTo(8);
    assertThat(CallSiteYaml.parseUnsigned("0o17")).isEqualTo(15);
    assertThat(CallSiteYaml.parseUnsigned("0b101")).isEqualTo(5);
    assertThat(CallSiteYaml.parseUnsigned("0")).isEqualTo(0);
    assertThat(CallSiteYaml.parseUnsigned("42")).isEqualTo(42);
    assertThat(CallSiteYaml.parseUnsigned("0xffffffffffffffff")).isEqualTo(-1L);
    for (String bad : new String[] {"0x10000000000000000", "18446744073709551616", "-1", "+5", "0x", "08", "0O7",
        "abc", "0x 5", ""}) {
      assertThat(CallSiteYaml.parseUnsigned(bad)).as(bad).isNull();
    }
  }

  @Test
  void schemaErrorsAsLlvm() {
    assertThat(diagnostics("functions:\n  - name: main\n    callsites:\n      - return_offset: 1\n        flags: [InternalCall]\n"))
        .isEqualTo("y.yaml:4:9: error: missing required key 'match_regex'\n      - return_offset: 1\n        ^\n");
    assertThat(diagnostics("functions:\n  - name: main\n    extra: 1\n"))
        .isEqualTo("y.yaml:3:5: error: unknown key 'extra'\n    extra: 1\n    ^~~~~\n");
    assertThat(diagnostics("functions:\n  - name: main\n    callsites:\n      - return_offset: -1\n        match_regex: []\n"))
        .isEqualTo("y.yaml:4:24: error: invalid hex64 number\n      - return_offset: -1\n                       ^~\n");
    assertThat(diagnostics("functions:\n  - name: main\n    callsites:\n      - return_offset:\n        match_regex: []\n"))
        .isEqualTo("y.yaml:5:9: error: unexpected scalar\n        match_regex: []\n        ^\n"
            + "y.yaml:5:9: error: invalid hex64 number\n        match_regex: []\n        ^\n");
    assertThat(diagnostics("functions: main\n"))
        .isEqualTo("y.yaml:1:12: error: not a sequence\nfunctions: main\n           ^~~~\n");
    assertThat(diagnostics("functions:\n  - name: main\n    callsites: [{return_offset: 1, match_regex: {a: b}}]\n"))
        .isEqualTo("y.yaml:3:50: error: not a sequence\n    callsites: [{return_offset: 1, match_regex: {a: b}}]\n"
            + "                                                 ^\n");
    assertThat(diagnostics("- a\n")).isEqualTo("y.yaml:1:1: error: not a mapping\n- a\n^\n");
    assertThat(diagnostics("foo: 1\n")).isEqualTo("y.yaml:1:1: error: missing required key 'functions'\nfoo: 1\n^\n");
    assertThat(diagnostics("functions:\n  - name:\n")).isEqualTo("y.yaml:3:1: error: unexpected scalar\n\n^\n");
    assertThat(diagnostics("functions: []\nfunctions: []\n"))
        .isEqualTo("y.yaml:2:1: error: duplicated mapping key 'functions'\nfunctions: []\n^~~~~~~~~\n");
    assertThat(diagnostics("")).isEmpty();
  }

  @Test
  void syntaxErrorsAsLlvm() {
    assertThat(diagnostics("functions: [\n")).isEqualTo("y.yaml:1:13: error: Could not find closing ]!\nfunctions: [\n            ^\n");
    assertThat(diagnostics("functions:\n  - name: \"m\\qain\"\n"))
        .isEqualTo("y.yaml:2:14: error: Unrecognized escape code\n  - name: \"m\\qain\"\n             ^\n");
    assertThat(diagnostics("functions:\n  - name: \"main\n"))
        .isEqualTo("y.yaml:2:16: error: Expected quote at end of scalar\n  - name: \"main\n               ^\n"
            + "y.yaml:2:5: error: Map value must not be empty\n  - name: \"main\n    ^~~~\n");
    assertThat(diagnostics("functions:\n  - name: main\n   callsites: []\n"))
        .isEqualTo("y.yaml:3:13: error: Unexpected token. Expected Block Entry or Block End.\n   callsites: []\n            ^\n");
    assertThat(diagnostics("functions:\n  - name: main\n  name: dup\n"))
        .isEqualTo("y.yaml:3:3: error: Unexpected token. Expected Block Entry or Block End.\n  name: dup\n  ^\n");
    assertThat(diagnostics("functions:\n  - name: a: b\n"))
        .isEqualTo("y.yaml:2:12: error: Unexpected token. Expected Key or Block End\n  - name: a: b\n           ^\n");
    assertThat(diagnostics("functions:\n  - name: main\n      callsites: []\n")).isEqualTo(
        "y.yaml:3:16: error: Unexpected token. Expected Key or Block End\n      callsites: []\n               ^\n");
    assertThat(diagnostics("{functions: []\n")).isEqualTo(
        "y.yaml:1:15: error: Unexpected token. Expected Key, Flow Entry, or Flow Mapping End.\n{functions: []\n              ^\n");
    assertThat(diagnostics("functions:\n  - name: &n main\n  - name: *n\n")).isEqualTo("y.yaml:4:1: error: unknown node kind\n\n^\n");
  }

  @Test
  void diagnosticColumnsCountBytesAndTabsExpand() {
    // non-ASCII: byte column, no caret line (as LLVM's SourceMgr)
    assertThat(diagnostics("functions:\n  - name: \u00e9\u00e9\n    callsites:\n      - {return_offset: \u00e9x, match_regex: []}\n"))
        .isEqualTo("y.yaml:4:25: error: invalid hex64 number\n      - {return_offset: \u00e9x, match_regex: []}\n");
    assertThat(diagnostics("functions:\n  - name: main\n    callsites:\n      - return_offset:\t\tbad\n        match_regex: []\n"))
        .isEqualTo("y.yaml:4:25: error: invalid hex64 number\n      - return_offset:          bad\n"
            + "                                ^~~\n");
  }

  @Test
  void nestingIsBounded() {
    String deep = "functions: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n";
    assertThat(diagnostics(deep)).contains("error: Exceeded maximum nesting depth of 256");
    assertThat(diagnostics("functions:\n" + "- ".repeat(5000) + "a\n")).contains("error: Exceeded maximum nesting depth");
  }

  @Test
  void flagNamesResolveToBitsAndUnknownOnesAreLlvmsError() throws Exception {
    Function f = new Function("f", List.of(new CallSite(1, List.of("r"), List.of("ExternalCall")),
        new CallSite(2, List.of(), List.of("InternalCall", "ExternalCall", "InternalCall")), new CallSite(3, List.of(), List.of())));
    assertThat(f.resolve()).isEqualTo(new FunctionCallSites("f", List.of(
        new FunctionCallSites.CallSite(1, List.of("r"), CallSiteInfo.EXTERNAL_CALL),
        new FunctionCallSites.CallSite(2, List.of(), CallSiteInfo.INTERNAL_CALL | CallSiteInfo.EXTERNAL_CALL),
        new FunctionCallSites.CallSite(3, List.of(), 0))));
    Function bad = new Function("f", List.of(new CallSite(1, List.of(), List.of("InternalCall", "internalcall", "Tail"))));
    assertThatThrownBy(bad::resolve).isInstanceOf(CallSiteYaml.UnknownFlagException.class)
        .hasMessage("Unknown flag in callsite YAML: internalcall");
  }
}
