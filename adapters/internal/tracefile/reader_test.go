package tracefile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// readers runs each reader on b and returns its error.
var readers = map[string]func(b []byte) error{
	"swf": func(b []byte) error {
		jobs, _, err := ReadSWF(bytes.NewReader(b))
		for _, j := range jobs {
			if !(j.Run > 0 && j.Procs > 0 && j.Submit >= 0 && j.Requested >= 0) || math.IsInf(j.Run, 0) {
				return errors.New("kept a job it cannot replay")
			}
		}
		return err
	},
	"swim": func(b []byte) error {
		jobs, err := ReadSWIM(bytes.NewReader(b))
		for _, j := range jobs {
			if j.ID == "" || !(j.Submit >= 0) || math.IsInf(j.Submit, 0) || j.Input < 0 || j.Shuffle < 0 || j.Output < 0 || j.Maps(128<<20, 15) > 15 {
				return errors.New("kept an invalid job")
			}
		}
		return err
	},
	"google": func(b []byte) error {
		jobs, err := ReadGoogle(bytes.NewReader(b))
		for _, j := range jobs {
			if j.Tasks < 1 || j.Finished > j.Tasks || !(j.Submit > 0) || !(j.Run >= 0) {
				return errors.New("kept an invalid job")
			}
		}
		return err
	},
}

// TestBadInput: every malformed line is an error naming its format, line
// and field, matching ErrBadRecord.
func TestBadInput(t *testing.T) {
	var notGzip bytes.Buffer
	notGzip.WriteString("\x1f\x8bnot gzip")
	for _, c := range []struct{ format, in, want string }{
		{"swf", "1 2 3\n", "swf line 1: 3 fields, want 18"},
		{"swf", "; h\n1 0 0 10 1 -1 -1 1 x -1 1 1 1 -1 1 -1 -1 -1\n", `swf line 2: field 9: "x" is not a number`},
		{"swf", "1 0 0 10 1 -1 -1 1 NaN -1 1 1 1 -1 1 -1 -1 -1\n", `field 9: "NaN"`},
		{"swf", "1 0 0 1e300 1 -1 -1 1 1 -1 1 1 1 -1 1 -1 -1 -1\n", `field 4: "1e300"`},
		{"swf", notGzip.String(), "swf line 0: gzip:"},
		{"swim", "job0\t1\t1\t2\t3", "swim line 1: 5 tab-separated fields"},
		{"swim", "\n\t1\t1\t2\t3\t4", "swim line 2: new_unique_job_id: empty"},
		{"swim", "j\tNaN\t1\t2\t3\t4", `submit_time_seconds: "NaN" is not a finite number`},
		{"swim", "j\t1\t1\t2.5\t3\t4", `map_input_bytes: "2.5" is not an integer`},
		{"swim", "j\t1\t1\t2\t3\t99999999999999999999", `reduce_output_bytes: "99999999999999999999"`},
		{"swim", "j\t1\t1\t2\t3\t" + strings.Repeat("4", 2<<20), "swim line 1: bufio.Scanner: token too long"},
		{"google", "1,2,3", "google line 1: 3 comma-separated columns, want 13"},
		{"google", "-5,,1,0,,0,u,0,0,0,0,0,0", `google line 1: time: "-5" is not an integer`},
		{"google", "5,,x,0,,0,u,0,0,0,0,0,0", `job ID: "x"`},
		{"google", "5,,1,1.5,,0,u,0,0,0,0,0,0", `task index: "1.5"`},
		{"google", "5,,1,0,,9,u,0,0,0,0,0,0", "event type: 9 is not in 0–8"},
		{"google", notGzip.String(), "google line 0: gzip:"},
	} {
		err := readers[c.format]([]byte(c.in))
		if err == nil || !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %.40q: error %v, want one containing %q", c.format, c.in, err, c.want)
		}
	}
}

// TestGzip: a gzip-compressed file reads as the plain one.
func TestGzip(t *testing.T) {
	const swim = "job0\t4\t4\t10\t0\t0\njob1\t9\t5\t300000000\t1\t2\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(swim))
	zw.Close()
	plain, err1 := ReadSWIM(strings.NewReader(swim))
	zipped, err2 := ReadSWIM(&gz)
	if err1 != nil || err2 != nil || len(plain) != 2 || len(zipped) != 2 || plain[1] != zipped[1] || plain[1].Maps(128<<20, 0) != 3 {
		t.Errorf("plain %+v (%v), gzip %+v (%v)", plain, err1, zipped, err2)
	}
}

// traceBytes draws raw bytes or lines made of the formats' fragments.
func traceBytes() *rapid.Generator[[]byte] {
	frag := rapid.SampledFrom([]string{"\t", ",", " ", "\n", ";", "0", "1", "4", "8", "9", "-1", "12.5", "NaN", "+Inf",
		"1e300", "7500000000000", "99999999999999999999", "job1", "x", "\x1f\x8b"})
	return rapid.OneOf(rapid.SliceOf(rapid.Byte()), rapid.Custom(func(t *rapid.T) []byte {
		return []byte(strings.Join(rapid.SliceOf(frag).Draw(t, "frags"), ""))
	}))
}

// propReaders: any bytes give each reader an error matching ErrBadRecord,
// or records it can replay.
func propReaders(t *rapid.T) {
	b := traceBytes().Draw(t, "input")
	for name, read := range readers {
		if err := read(b); err != nil && !errors.Is(err, ErrBadRecord) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestPropReaders(t *testing.T) { rapid.Check(t, propReaders) }
func FuzzReaders(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propReaders)) }
