int util_sum(int n);
int util_twice(int n);
int util_thrice(int n);
