/* For core2md on other CPUs: a program that copies its own /proc/self files (the ones core2md reads
 * beside a core file) into the directory of its first argument, then writes through a null pointer
 * three frames below main. Run under qemu-user, whose /proc/self/maps and auxv are the emulated
 * process's, and whose core file is the emulated process's. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void copy(const char* dir, const char* name) {
  char src[64], dst[4096];
  snprintf(src, sizeof src, "/proc/self/%s", name);
  snprintf(dst, sizeof dst, "%s/%s", dir, name);
  int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  char buf[4096];
  ssize_t n;
  while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0) {
    if (write(out, buf, n) != n) break;
  }
  if (in >= 0) close(in);
  if (out >= 0) close(out);
}

__attribute__((noinline)) void procfs_crash_write(int* where, int value) {
  *where = value;
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void procfs_crash_middle(int value) {
  int* volatile p = NULL;
  procfs_crash_write(p, value * 3);
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void procfs_crash(void) {
  procfs_crash_middle(7);
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PROCFS-COPY-DIRECTORY\n", argv[0]);
    return 2;
  }
  const char* names[] = {"maps", "auxv", "cmdline", "environ", "status"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) copy(argv[1], names[i]);
  procfs_crash();
  return 1;
}
