/* Shared helpers of the crash corpus (src-test-data/crash/regenerate.sh). Every call that the
 * stack walk must see is kept a real call: functions are noinline and each call is followed by a
 * store to a volatile, so gcc -O2 neither inlines it nor turns it into a tail jump. No stdio: the
 * programs stay free of heap pages, so their cores stay small. */
#ifndef CRASH_H
#define CRASH_H

#define NOINLINE __attribute__((noinline))
#define KEEP_CALL() (crash_sink++)

extern volatile int crash_sink;

/* A node whose field lies 0x10 (LP64) or 0x8 (ILP32) bytes past a null pointer: the fault address
 * tells a null dereference of this field from any other. */
struct node {
  struct node *next;
  long pad;
  long value;
};

/* Always null; volatile, so the compiler cannot see it and must emit a real load. */
extern struct node *volatile crash_null_node;

#endif
