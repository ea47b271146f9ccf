#ifndef CRASHLIB_H
#define CRASHLIB_H
/* libcrashlib: calls back into the executable, which calls the library again, which crashes. */
typedef void (*crashlib_callback)(long);
void crashlib_run(crashlib_callback cb, long v);
void crashlib_fault(long v);
#endif
