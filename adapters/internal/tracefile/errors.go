package tracefile

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrBadRecord is matched (errors.Is) by every error a reader returns for
// input it cannot use.
var ErrBadRecord = errors.New("tracefile: bad record")

// A LineError names the line of a trace that could not be read: the
// format ("swf", "swim", "google"), the 1-based line, the field (empty
// for the line as a whole) and why.
type LineError struct {
	Format string
	Line   int
	Field  string
	Reason string
}

// Error returns the format, line, field and reason on one line.
func (e *LineError) Error() string {
	where := fmt.Sprintf("line %d", e.Line)
	if e.Field != "" {
		where += ": " + e.Field
	}
	return fmt.Sprintf("tracefile: %s %s: %s", e.Format, where, e.Reason)
}

// Is reports whether target is ErrBadRecord.
func (e *LineError) Is(target error) bool { return target == ErrBadRecord }

// maxLine bounds one line of any format.
const maxLine = 1 << 20

// scan calls fn with each line of r that is not blank — its 1-based
// number and its text without a trailing "\r" — until fn returns an
// error, reading through gzip when r starts with gzip's magic number. A
// gzip stream that cannot be opened is a *LineError at line 0, a line over
// 1 MiB one at its line.
func scan(r io.Reader, format string, fn func(line int, text string) error) error {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return &LineError{Format: format, Reason: "gzip: " + err.Error()}
		}
		defer zr.Close()
		src = zr
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if err := fn(line, text); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return &LineError{Format: format, Line: line + 1, Reason: err.Error()}
	}
	return nil
}
