// The lookup oracle for Breakpad .sym files: answers addresses exactly as Breakpad's processor
// does, with its own BasicSourceLineResolver (LoadModule + FillSourceLineInfo, which also returns
// the inlined frames). Built by src-test-data/regenerate-breakpad-oracle.sh from the Breakpad
// sources of the npm package minidump@0.26.0; not part of gsym-java.
//
//   resolve FILE.sym [ADDRESS...]     answers the hex ADDRESSes (module base 0)
//   resolve --addresses FILE.sym      answers every address the file's records make interesting
//
// Output: for each address, one line per frame, innermost inlined frame first, the FUNC or PUBLIC
// frame last; fields separated by tabs:
//   <address> <depth> <function_name> <function_base> <source_file_name> <source_line>
// (addresses and bases as 0x + 16 hex digits; depth 0 is the innermost frame). An address that
// neither a FUNC nor a PUBLIC answers gives one line "<address> -".
// Names and paths are printed as their bytes; none may contain a tab or a newline.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <deque>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "google_breakpad/processor/basic_source_line_resolver.h"
#include "google_breakpad/processor/code_module.h"
#include "google_breakpad/processor/stack_frame.h"

using google_breakpad::BasicSourceLineResolver;
using google_breakpad::CodeModule;
using google_breakpad::StackFrame;
using std::string;

namespace {

// The module the .sym describes, loaded at address 0 (the .sym's own addresses).
class Module : public CodeModule {
 public:
  explicit Module(const string& name) : name_(name) {}
  uint64_t base_address() const override { return 0; }
  uint64_t size() const override { return UINT64_MAX; }
  string code_file() const override { return name_; }
  string code_identifier() const override { return ""; }
  string debug_file() const override { return name_; }
  string debug_identifier() const override { return ""; }
  string version() const override { return ""; }
  CodeModule* Copy() const override { return new Module(name_); }
  uint64_t shrink_down_delta() const override { return 0; }
  void SetShrinkDownDelta(uint64_t) override {}
  bool is_unloaded() const override { return false; }

 private:
  string name_;
};

string Hex(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "0x%016llx", (unsigned long long)v);
  return b;
}

void Frame(const string& addr, int depth, const StackFrame& f) {
  printf("%s\t%d\t%s\t%s\t%s\t%d\n", addr.c_str(), depth, f.function_name.c_str(),
         Hex(f.function_base).c_str(), f.source_file_name.c_str(), f.source_line);
}

void Answer(BasicSourceLineResolver& resolver, const Module& module, uint64_t address) {
  StackFrame frame;
  frame.instruction = address;
  frame.module = &module;
  std::deque<std::unique_ptr<StackFrame>> inlined;
  resolver.FillSourceLineInfo(&frame, &inlined);
  string a = Hex(address);
  if (frame.function_name.empty()) {
    printf("%s\t-\n", a.c_str());
    return;
  }
  int depth = 0;
  for (const auto& in : inlined) Frame(a, depth++, *in);
  Frame(a, depth, frame);
}

bool ParseHex(const string& s, uint64_t* v) {
  if (s.empty() || s.size() > 16) return false;
  char* end;
  *v = strtoull(s.c_str(), &end, 16);
  return *end == '\0';
}

// Every address the records make interesting: each FUNC's, line record's and INLINE range's
// start, last byte and end, each PUBLIC's address and the byte after it, and the byte below the
// lowest of them. Records are split on single spaces as the format writes them.
std::set<uint64_t> Interesting(const string& path) {
  std::ifstream in(path, std::ios::binary);
  std::set<uint64_t> out;
  string line;
  auto range = [&](uint64_t a, uint64_t s) {
    out.insert(a);
    if (s > 0) {
      out.insert(a + s - 1);
      out.insert(a + s);
    }
  };
  while (std::getline(in, line, '\n')) {
    // lines end with LF, CRLF or CR: split a line at CRs too
    std::stringstream parts(line);
    string rec;
    while (std::getline(parts, rec, '\r')) {
      std::vector<string> f;
      std::stringstream ss(rec);
      string t;
      while (std::getline(ss, t, ' ')) f.push_back(t);
      if (f.empty()) continue;
      uint64_t a, s;
      size_t m = f.size() > 1 && f[1] == "m" ? 1 : 0;
      if (f[0] == "FUNC" && f.size() > 3 + m && ParseHex(f[1 + m], &a) && ParseHex(f[2 + m], &s)) {
        range(a, s);
        out.insert(a + s / 2);
      } else if (f[0] == "PUBLIC" && f.size() > 2 + m && ParseHex(f[1 + m], &a)) {
        out.insert(a);
        out.insert(a + 1);
      } else if (f[0] == "INLINE" && f.size() >= 6) {
        // the new form has 4 fields before the ranges, the old one 3: the parity tells
        size_t first = (f.size() - 1) % 2 == 0 ? 5 : 4;
        for (size_t i = first; i + 1 < f.size(); i += 2) {
          if (ParseHex(f[i], &a) && ParseHex(f[i + 1], &s)) range(a, s);
        }
      } else if (f.size() == 4 && ParseHex(f[0], &a) && ParseHex(f[1], &s)) {
        range(a, s);
      }
    }
  }
  if (!out.empty() && *out.begin() > 0) out.insert(*out.begin() - 1);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  bool all = argc > 1 && strcmp(argv[1], "--addresses") == 0;
  int first = all ? 2 : 1;
  if (argc <= first) {
    fprintf(stderr, "usage: resolve [--addresses] FILE.sym [ADDRESS...]\n");
    return 2;
  }
  string path = argv[first];
  Module module("oracle-module");
  BasicSourceLineResolver resolver;
  if (!resolver.LoadModule(&module, path)) {
    fprintf(stderr, "resolve: %s: LoadModule failed\n", path.c_str());
    return 1;
  }
  if (all) {
    for (uint64_t a : Interesting(path)) Answer(resolver, module, a);
  }
  for (int i = first + 1; i < argc; i++) {
    uint64_t a;
    string s = argv[i];
    if (s.rfind("0x", 0) == 0) s = s.substr(2);
    if (!ParseHex(s, &a)) {
      fprintf(stderr, "resolve: bad address '%s'\n", argv[i]);
      return 2;
    }
    Answer(resolver, module, a);
  }
  return 0;
}
