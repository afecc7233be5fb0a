package tct

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"
)

func TestExploreTail(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	m := mcSort500()
	for rep := 0; rep < 4; rep++ {
		n, g := 4000, 2
		out := make([]float64, n)
		var wg sync.WaitGroup
		start := time.Now()
		fin := make([]time.Duration, g)
		for i := range g {
			lo, hi := i*n/g, (i+1)*n/g
			wg.Add(1)
			go func() {
				defer wg.Done()
				var s Simulator
				for k := lo; k < hi; k++ {
					out[k] = s.run(&m, 1, k)
				}
				fin[i] = time.Since(start)
			}()
		}
		wg.Wait()
		cpu0, _ := mcProcessCPU()
		_ = cpu0
		fmt.Printf("static: finish %v %v (tail %.0f%%)\n", fin[0].Round(time.Millisecond), fin[1].Round(time.Millisecond), 100*float64(max(fin[0], fin[1])-min(fin[0], fin[1]))/float64(max(fin[0], fin[1])))
	}
}
