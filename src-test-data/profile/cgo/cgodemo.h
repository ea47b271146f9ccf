// C half of cgodemo (main.go): the work Go calls, and the traceback function Go's profiler calls
// in its SIGPROF handler to walk the C frames (runtime.SetCgoTraceback).
#include <stdint.h>

uint64_t cgodemo_work(uint64_t seed, int rounds);
void cgodemo_traceback(void *arg);
