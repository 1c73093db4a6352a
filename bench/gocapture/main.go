// Command gocapture writes a real Go CPU profile of a mixed service-like
// workload (compression, hashing, JSON, sorting, regular expressions,
// formatting and maps, on four goroutines) to the file named by its
// argument: the base of the fleet benchmark's profiles (bench/gen_fleet.py).
// A second argument runs it that many seconds instead of 5; a third, a
// seed other than 0, gives each of two to four goroutines its own one to
// three of the workloads, drawn from the seed: profiles of different
// services, for bench/pprof-small.sh's varied set.
//
//	go run . ../go-cpu.pb.gz
//	go run . ../go-varied/3.pb.gz 4 3
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type order struct {
	ID    int               `json:"id"`
	Items []string          `json:"items"`
	Price float64           `json:"price"`
	Tags  map[string]string `json:"tags"`
}

func compress(r *rand.Rand) int {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(w, "line %d value %d\n", i, r.Intn(100))
	}
	w.Close()
	return b.Len()
}

func hash(r *rand.Rand) byte {
	buf := make([]byte, 64<<10)
	r.Read(buf)
	s := sha256.Sum256(buf)
	return s[0]
}

func encode(r *rand.Rand) int {
	o := order{ID: r.Int(), Price: r.Float64(), Tags: map[string]string{}}
	for i := 0; i < 50; i++ {
		o.Items = append(o.Items, strconv.Itoa(r.Int()))
		o.Tags[strconv.Itoa(i)] = "v"
	}
	b, _ := json.Marshal(o)
	var back order
	json.Unmarshal(b, &back)
	return len(back.Items)
}

func sortInts(r *rand.Rand) int {
	v := make([]int, 20000)
	for i := range v {
		v[i] = r.Int()
	}
	sort.Ints(v)
	return v[0]
}

var re = regexp.MustCompile(`^(GET|POST) /api/v[0-9]+/([a-z]+)/([0-9]+)$`)

func route(r *rand.Rand) int {
	n := 0
	for i := 0; i < 500; i++ {
		p := fmt.Sprintf("GET /api/v%d/users/%d", r.Intn(3), r.Int())
		if m := re.FindStringSubmatch(p); m != nil {
			n += len(m[2])
		}
	}
	return n
}

func cache(r *rand.Rand) int {
	m := map[string]int{}
	for i := 0; i < 20000; i++ {
		m[strings.Repeat("k", 1+r.Intn(8))+strconv.Itoa(r.Intn(5000))]++
	}
	return len(m)
}

func worker(seed int64, until time.Time, work []func(*rand.Rand) int, wg *sync.WaitGroup) {
	defer wg.Done()
	r := rand.New(rand.NewSource(seed))
	sink := 0
	for time.Now().Before(until) {
		sink += work[r.Intn(len(work))](r)
	}
	_ = sink
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pprof.StartCPUProfile(f)
	h := func(r *rand.Rand) int { return int(hash(r)) }
	work := [][]func(*rand.Rand) int{
		{compress, h}, {encode, route}, {sortInts, cache}, {compress, encode, route, cache},
	}
	secs, seed := 5, int64(0)
	if len(os.Args) > 2 {
		secs, _ = strconv.Atoi(os.Args[2])
	}
	if len(os.Args) > 3 {
		seed, _ = strconv.ParseInt(os.Args[3], 10, 64)
	}
	if seed != 0 {
		all := []func(*rand.Rand) int{compress, h, encode, route, sortInts, cache}
		r := rand.New(rand.NewSource(seed))
		work = work[:0]
		for g := 2 + r.Intn(3); g > 0; g-- {
			var w []func(*rand.Rand) int
			for k := 1 + r.Intn(3); k > 0; k-- {
				w = append(w, all[r.Intn(len(all))])
			}
			work = append(work, w)
		}
	}
	until := time.Now().Add(time.Duration(secs) * time.Second)
	var wg sync.WaitGroup
	for i, w := range work {
		wg.Add(1)
		go worker(int64(i), until, w, &wg)
	}
	wg.Wait()
	pprof.StopCPUProfile()
	f.Close()
}
