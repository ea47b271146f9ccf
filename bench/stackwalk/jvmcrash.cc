// bench/stackwalk.sh's crash inside a large module: starts a Java VM through libjvm.so's invocation
// API (its usual threads: VM thread, GC, compiler, finalizer, reference handler, signal
// dispatcher, ...), installs Breakpad's Linux ExceptionHandler, then makes a JNI call on a handle
// that points nowhere, so the process crashes inside libjvm.so (jni_GetArrayLength); the handler
// writes the minidump into the directory named by the first argument.
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client/linux/handler/exception_handler.h"

static bool DumpWritten(const google_breakpad::MinidumpDescriptor& descriptor, void*, bool succeeded) {
  const char* p = descriptor.path();
  if (write(2, "minidump: ", 10) < 0 || write(2, p, strlen(p)) < 0 || write(2, "\n", 1) < 0) return succeeded;
  return succeeded;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: jvmcrash DUMP_DIRECTORY\n");
    return 2;
  }
  JavaVMOption options[1];
  options[0].optionString = (char*)"-Xint";  // no JIT: no compiled code whose safepoint polls fault
  JavaVMInitArgs args;
  args.version = JNI_VERSION_1_8;
  args.nOptions = 1;
  args.options = options;
  args.ignoreUnrecognized = JNI_FALSE;
  JavaVM* vm;
  JNIEnv* env;
  if (JNI_CreateJavaVM(&vm, (void**)&env, &args) != JNI_OK) {
    fprintf(stderr, "jvmcrash: cannot create the Java VM\n");
    return 1;
  }
  // installed after the VM's own handlers, so that the crash below reaches Breakpad's
  google_breakpad::MinidumpDescriptor descriptor(argv[1]);
  google_breakpad::ExceptionHandler handler(descriptor, NULL, DumpWritten, NULL, true, -1);
  jsize n = env->GetArrayLength((jarray)(intptr_t)0x10);
  printf("%d\n", (int)n);
  return 0;
}
