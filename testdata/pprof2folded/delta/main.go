// Command delta writes two CPU profiles of the same program, a.pb.gz and
// b.pb.gz, whose work is split differently between hot and warm: the
// inputs of the delta profiles of pprof2folded's and pprofmerge's tests
// (see delta.sh). Standard library only.
package main

import (
	"bytes"
	"log"
	"os"
	"runtime/pprof"
	"time"
)

var sink uint64

//go:noinline
func hot(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

//go:noinline
func warm(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = x*31 + uint64(i)
	}
	return x
}

//go:noinline
func cold(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x ^= x<<7 | uint64(i)
	}
	return x
}

//go:noinline
func burn(d time.Duration, f func(int) uint64) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		sink += f(10000)
	}
}

// run profiles one run: hot, warm and cold for the given times.
func run(name string, h, w, c time.Duration) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		log.Fatal(err)
	}
	burn(h, hot)
	burn(w, warm)
	if c > 0 {
		burn(c, cold)
	}
	pprof.StopCPUProfile()
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

func main() {
	// before: mostly hot, some cold; after: mostly warm, no cold at all
	run("a.pb.gz", 600*time.Millisecond, 200*time.Millisecond,
		200*time.Millisecond)
	run("b.pb.gz", 200*time.Millisecond, 700*time.Millisecond, 0)
}
