/* Shared helpers of the crash corpus (src-test-data/crash/regenerate.sh). Every call that the
 * stack walk must see is kept a real call: functions are noinline and each call is followed by
 * another call (KEEP_CALL), so gcc -O2 neither inlines it nor turns it into a tail jump, and no
 * function that is on a stack when the program crashes is a leaf (gcc 12 gives a leaf that needs
 * no stack no frame pointer, even with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer). The
 * faulting functions call first, then fault: gcc may schedule the store that faults before the
 * prologue's "mov %rsp,%rbp", never across a call.
 * No stdio: the programs stay free of heap pages, so their cores stay small. */
#ifndef CRASH_H
#define CRASH_H

#define NOINLINE __attribute__((noinline))
#define KEEP_CALL() crash_touch()

extern volatile int crash_sink;
void crash_touch(void);

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
