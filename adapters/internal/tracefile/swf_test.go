package tracefile

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

const swfSample = `; Version: 2.2
; MaxProcs: 100

    15      0    100    300    8  -1 -1    8    900 -1 1 1 1 -1 1 -1 -1 -1
    16     60      0     -1    4  -1 -1    4    600 -1 5 1 1 -1 1 -1 -1 -1
    17    120      5     50   -1  -1 -1    2     -1 -1 1 1 1 -1 1 -1 -1 -1
`

func TestReadSWF(t *testing.T) {
	want := []SWFJob{{ID: 15, Submit: 0, Run: 300, Procs: 8, Requested: 900}, {ID: 17, Submit: 120, Run: 50, Procs: 2}}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(swfSample))
	zw.Close()
	for name, in := range map[string]string{"plain": swfSample, "gzip": gz.String()} {
		jobs, skipped, err := ReadSWF(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if skipped != 1 || len(jobs) != len(want) {
			t.Fatalf("%s: %d jobs, %d skipped; want %d, 1", name, len(jobs), skipped, len(want))
		}
		for i := range want {
			if jobs[i] != want[i] {
				t.Errorf("%s: job %d = %+v, want %+v", name, i, jobs[i], want[i])
			}
		}
	}
}
