// In-process GSYM lookups through libLLVM-22's GsymReader, the peer of dev.gsym.bench.InProcessLookups
// (bench/inprocess-vs-llvm.sh builds and runs both on the same address file).
//
//   llvm_gsym_lookup GSYM ADDRESSES PASSES THREADS
//
// ADDRESSES holds one hex address per line. Pass 1 is the cold pass (the file just opened, nothing
// decoded yet); passes 2..PASSES are warm (LLVM keeps no lookup cache: every pass decodes again).
// With THREADS > 1 a last pass runs on THREADS threads over slices of the addresses. Each lookup
// asks for the full inline stack (GsymReader::lookup), and its frames and lines are summed so that
// the two programs can be checked to have found the same answers.
#include "llvm/DebugInfo/GSYM/GsymReader.h"
#include "llvm/DebugInfo/GSYM/LookupResult.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {
struct Sums {
  uint64_t frames = 0, lines = 0, misses = 0;
};

Sums lookupAll(const llvm::gsym::GsymReader &R, const std::vector<uint64_t> &A, size_t From, size_t To) {
  Sums S;
  for (size_t I = From; I < To; ++I) {
    llvm::Expected<llvm::gsym::LookupResult> LR = R.lookup(A[I]);
    if (!LR) {
      llvm::consumeError(LR.takeError());
      ++S.misses;
      continue;
    }
    for (const llvm::gsym::SourceLocation &L : LR->Locations) {
      ++S.frames;
      S.lines += L.Line;
    }
  }
  return S;
}

double seconds(std::chrono::steady_clock::time_point A, std::chrono::steady_clock::time_point B) {
  return std::chrono::duration<double>(B - A).count();
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s GSYM ADDRESSES PASSES THREADS\n", argv[0]);
    return 2;
  }
  int Passes = std::atoi(argv[3]), Threads = std::atoi(argv[4]);
  std::vector<uint64_t> A;
  std::ifstream In(argv[2]);
  for (std::string Line; std::getline(In, Line);)
    if (!Line.empty()) A.push_back(std::strtoull(Line.c_str(), nullptr, 16));
  auto R = llvm::gsym::GsymReader::openFile(argv[1]);
  if (!R) {
    std::fprintf(stderr, "%s: %s\n", argv[1], llvm::toString(R.takeError()).c_str());
    return 1;
  }
  for (int P = 1; P <= Passes; ++P) {
    auto T0 = std::chrono::steady_clock::now();
    Sums S = lookupAll(*R, A, 0, A.size());
    auto T1 = std::chrono::steady_clock::now();
    std::printf("pass %d threads 1 lookups %zu seconds %.4f per_second %.0f frames %" PRIu64 " lines %" PRIu64
                " misses %" PRIu64 "\n",
                P, A.size(), seconds(T0, T1), A.size() / seconds(T0, T1), S.frames, S.lines, S.misses);
  }
  if (Threads > 1) {
    std::vector<Sums> Part(Threads);
    std::vector<std::thread> Workers;
    auto T0 = std::chrono::steady_clock::now();
    for (int T = 0; T < Threads; ++T)
      Workers.emplace_back([&, T] {
        Part[T] = lookupAll(*R, A, A.size() * T / Threads, A.size() * (T + 1) / Threads);
      });
    for (std::thread &W : Workers)
      W.join();
    auto T1 = std::chrono::steady_clock::now();
    Sums S;
    for (const Sums &P : Part) {
      S.frames += P.frames;
      S.lines += P.lines;
      S.misses += P.misses;
    }
    std::printf("pass %d threads %d lookups %zu seconds %.4f per_second %.0f frames %" PRIu64 " lines %" PRIu64
                " misses %" PRIu64 "\n",
                Passes + 1, Threads, A.size(), seconds(T0, T1), A.size() / seconds(T0, T1), S.frames, S.lines,
                S.misses);
  }
  return 0;
}
