// Writes the legacy text (debug=1) mutex, block, heap and goroutine
// profiles of runtime/pprof after some lock contention, channel waits and
// allocation.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

func init() { runtime.MemProfileRate = 4096 }

var (
	mu   sync.Mutex
	sink [][]byte
)

func work(n int) {
	for i := 0; i < n; i++ {
		mu.Lock()
		sink = append(sink, make([]byte, 4096))
		time.Sleep(50 * time.Microsecond)
		mu.Unlock()
	}
}

func waiter(ch chan int) { <-ch }

func write(name, file string) {
	f, err := os.Create(file)
	if err != nil {
		panic(err)
	}
	if err := pprof.Lookup(name).WriteTo(f, 1); err != nil {
		panic(err)
	}
	if err := f.Close(); err != nil {
		panic(err)
	}
}

func main() {
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() { defer wg.Done(); work(50) }()
	}
	wg.Wait()
	ch := make(chan int)
	for g := 0; g < 3; g++ {
		go waiter(ch)
	}
	time.Sleep(10 * time.Millisecond)
	runtime.GC()
	write("mutex", "mutex.txt")
	write("block", "block.txt")
	write("heap", "heap.txt")
	write("goroutine", "goroutine.txt")
	close(ch)
}
