// Command gen writes the Go runtime profiles that pprof2folded's tests
// read: CPU (with inlined calls), CPU with pprof.Do labels, heap, mutex,
// block and goroutine profiles. Standard library only; see ../gen.sh.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink uint64

// mix and step are small enough to be inlined into hot: their samples
// come as one Location with three Lines.
func mix(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

func step(x uint64) uint64 { return mix(x) ^ (x >> 13) }

//go:noinline
func hot(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = step(x)
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
func burn(d time.Duration, f func(int) uint64) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		sink += f(10000)
	}
}

func cpuProfile(name string, work func()) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		log.Fatal(err)
	}
	work()
	pprof.StopCPUProfile()
	write(name, buf.Bytes())
}

func write(name string, b []byte) {
	if err := os.WriteFile(name, b, 0o644); err != nil {
		log.Fatal(err)
	}
}

func gunzip(b []byte) []byte {
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		log.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	return out
}

func lookup(name, file string) {
	var buf bytes.Buffer
	if err := pprof.Lookup(name).WriteTo(&buf, 0); err != nil {
		log.Fatal(err)
	}
	write(file, buf.Bytes())
}

var keep [][]byte

//go:noinline
func allocSmall() {
	for i := 0; i < 2000; i++ {
		b := make([]byte, 64)
		if i%4 == 0 {
			keep = append(keep, b)
		}
	}
}

//go:noinline
func allocLarge() {
	for i := 0; i < 50; i++ {
		keep = append(keep, make([]byte, 64<<10))
	}
}

//go:noinline
func contend(mu *sync.Mutex, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < 200; i++ {
		mu.Lock()
		sink += warm(2000)
		mu.Unlock()
	}
}

//go:noinline
func waitOn(ch chan int) { <-ch }

//go:noinline
func parked(ch chan int, wg *sync.WaitGroup) {
	wg.Done()
	<-ch
}

func main() {
	runtime.MemProfileRate = 4096
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)

	cpuProfile("cpu.pb.gz", func() {
		burn(700*time.Millisecond, hot)
		burn(300*time.Millisecond, warm)
	})
	b, err := os.ReadFile("cpu.pb.gz")
	if err != nil {
		log.Fatal(err)
	}
	write("cpu.pb", gunzip(b))

	cpuProfile("labels.pb.gz", func() {
		ctx := context.Background()
		pprof.Do(ctx, pprof.Labels("endpoint", "/api/users", "tenant", "acme"),
			func(context.Context) { burn(400*time.Millisecond, hot) })
		pprof.Do(ctx, pprof.Labels("endpoint", "/api/orders", "tenant", "globex"),
			func(context.Context) { burn(300*time.Millisecond, warm) })
		pprof.Do(ctx, pprof.Labels("endpoint", "/health"),
			func(context.Context) { burn(200*time.Millisecond, hot) })
	})

	allocSmall()
	allocLarge()
	runtime.GC()
	lookup("heap", "heap.pb.gz")

	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go contend(&mu, &wg)
	}
	wg.Wait()
	lookup("mutex", "mutex.pb.gz")

	ch := make(chan int)
	go func() {
		time.Sleep(50 * time.Millisecond)
		close(ch)
	}()
	waitOn(ch)
	lookup("block", "block.pb.gz")

	never := make(chan int)
	wg.Add(3)
	for i := 0; i < 3; i++ {
		go parked(never, &wg)
	}
	wg.Wait()
	lookup("goroutine", "goroutine.pb.gz")
	runtime.KeepAlive(keep)
}
