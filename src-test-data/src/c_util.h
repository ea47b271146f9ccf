#ifndef C_UTIL_H
#define C_UTIL_H
int util_sum(int n, int seed);
#endif
