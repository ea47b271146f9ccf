/* libstacktramp.so: a trampoline that calls through a function pointer (its call site names no
   function), as a system library's dispatch_client_callout does. */
__attribute__((noinline)) int tramp_call(int (*f)(int), int x) { return f(x) + 1; }
