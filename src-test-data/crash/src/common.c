#include "crash.h"

volatile int crash_sink;
struct node *volatile crash_null_node;
