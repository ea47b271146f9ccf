// A shared library for the profile tests: hot loops with inlined helpers, in a namespace and a
// template, so that frames have C++ names to demangle and inline stacks to report.
#include <cstdint>
#include <cstddef>

namespace profdemo {

template <typename T>
struct Mixer {
  T state;
  __attribute__((always_inline)) inline T step(T x) {
    state ^= x * 0x9e3779b97f4a7c15ull;
    state = (state << 13) | (state >> 51);
    return state;
  }
};

static inline __attribute__((always_inline)) uint64_t round_trip(Mixer<uint64_t>& m, uint64_t v) {
  for (int i = 0; i < 8; i++) v = m.step(v + i);
  return v;
}

__attribute__((noinline)) uint64_t hash_block(const uint64_t* data, size_t n) {
  Mixer<uint64_t> m{0x1234};
  uint64_t acc = 0;
  for (size_t i = 0; i < n; i++) acc += round_trip(m, data[i]);
  return acc;
}

__attribute__((noinline)) uint64_t checksum(const unsigned char* p, size_t n) {
  uint64_t a = 1, b = 0;
  for (size_t i = 0; i < n; i++) {
    a = (a + p[i]) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

}  // namespace profdemo

extern "C" uint64_t profdemo_work(uint64_t seed, int rounds) {
  uint64_t block[256];
  unsigned char bytes[4096];
  uint64_t r = seed;
  for (int k = 0; k < rounds; k++) {
    for (int i = 0; i < 256; i++) block[i] = r + i;
    r ^= profdemo::hash_block(block, 256);
    for (int i = 0; i < 4096; i++) bytes[i] = (unsigned char) (r >> (i & 7));
    r += profdemo::checksum(bytes, sizeof bytes);
  }
  return r;
}
