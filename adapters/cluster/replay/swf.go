package replay

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A SWFJob is one record of a Standard Workload Format log (Parallel
// Workloads Archive, SWF v2.2): the fields the replay reads. Times are
// seconds.
type SWFJob struct {
	ID        int64
	Submit    float64 // field 2: from the log's start
	Run       float64 // field 4
	Procs     int     // field 5, allocated processors (else field 8, requested)
	Requested float64 // field 9: the user's wall-clock estimate; 0 when unknown
}

// swfFields is the number of whitespace-separated numbers of an SWF record.
const swfFields = 18

// ReadSWF reads an SWF log, gzip-compressed or plain. Header lines (";")
// and blank lines are skipped; records with an unknown (−1) or zero run
// time or processor count are skipped too (they cannot be replayed), and
// counted in skipped. A record that is not 18 numbers is an error naming
// its line.
func ReadSWF(r io.Reader) (jobs []SWFJob, skipped int, err error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, 0, fmt.Errorf("swf: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, ";") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != swfFields {
			return nil, 0, fmt.Errorf("swf: line %d: %d fields, want %d", line, len(f), swfFields)
		}
		var v [swfFields]float64
		for i, s := range f {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || x != x {
				return nil, 0, fmt.Errorf("swf: line %d: field %d = %q: not a number", line, i+1, s)
			}
			v[i] = x
		}
		j := SWFJob{ID: int64(v[0]), Submit: v[1], Run: v[3], Procs: int(v[4]), Requested: v[8]}
		if j.Procs <= 0 {
			j.Procs = int(v[7])
		}
		if j.Requested < 0 {
			j.Requested = 0
		}
		if j.Run <= 0 || j.Procs <= 0 || j.Submit < 0 {
			skipped++
			continue
		}
		jobs = append(jobs, j)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("swf: %w", err)
	}
	return jobs, skipped, nil
}
