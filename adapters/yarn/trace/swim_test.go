package trace

import (
	"errors"
	"strings"
	"testing"
)

// TestSWIMRecordError: ReadSWIM names a bad line as this package's other
// readers name a bad record (the reading itself is tracefile's, tested
// there).
func TestSWIMRecordError(t *testing.T) {
	_, err := ReadSWIM(strings.NewReader("job0\t1\t1\t2\t3\t4\nj\t1\t1\t2.5\t3\t4\n"))
	var re *RecordError
	if !errors.As(err, &re) || !errors.Is(err, ErrBadRecord) || err.Error() != `trace: swim job 2: map_input_bytes: "2.5" is not an integer ≥ 0` {
		t.Errorf("error %v, want a *RecordError of swim job 2", err)
	}
	jobs, err := ReadSWIM(strings.NewReader("job0\t1\t1\t2\t3\t4\n"))
	if err != nil || len(jobs) != 1 || jobs[0].Maps(1, 0) != 2 {
		t.Errorf("ReadSWIM = %+v, %v", jobs, err)
	}
}
