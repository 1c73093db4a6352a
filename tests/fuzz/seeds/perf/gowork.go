rpackage main

import (
	"fmt"
	"os"
)

type conn struct{ n uint64 }

func (c *conn) serve(k int) uint64 {
	for i := 0; i < k; i++ {
		c.n = c.n*6364136223846793005 + 1442695040888963407
	}
	return c.n
}

func main() {
	c := &conn{}
	var s uint64
	for r := 0; r < 300; r++ {
		s += c.serve(200000)
	}
	fmt.Fprintln(os.Stderr, s)
}
