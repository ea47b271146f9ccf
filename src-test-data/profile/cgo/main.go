// cgodemo: a Go program with cgo profiled by Go's own runtime/pprof (src-test-data/profile/
// regenerate-cgo.sh). Most of its time is in C (cgodemo.c), whose frames the profiler records
// through runtime.SetCgoTraceback; Go cannot name them, so the profile holds them unsymbolized
// next to Go frames that the runtime named.
//
// Usage: cgodemo OUT.pb.gz SECONDS
package main

/*
#cgo CFLAGS: -O2 -g -fno-omit-frame-pointer
#include "cgodemo.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"
	"unsafe"
)

func init() {
	runtime.SetCgoTraceback(0, unsafe.Pointer(C.cgodemo_traceback), nil, nil)
}

//go:noinline
func goWork(x uint64) uint64 {
	for i := 0; i < 20000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

//go:noinline
func callC(x uint64) uint64 {
	return uint64(C.cgodemo_work(C.uint64_t(x), 2000))
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	seconds, _ := strconv.Atoi(os.Args[2])
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	x := uint64(1)
	for time.Now().Before(deadline) {
		x = callC(x)
		x = goWork(x)
	}
	pprof.StopCPUProfile()
	f.Close()
	fmt.Println(x)
}
