package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// maxLine bounds one CSV line, in bytes.
const maxLine = 64 << 10

// errNoData reports input with no data rows (empty, or only a header and
// blank lines).
var errNoData = errors.New("no data rows")

// readPoints reads "x,y" rows from r. The first non-blank line may be a
// header (it is skipped when its fields are not both numbers); blank lines
// and lines starting with '#' are skipped; fields may carry surrounding
// spaces. Any other line that is not exactly two finite numbers is an error
// naming its 1-based line number. No data rows at all give errNoData.
func readPoints(r io.Reader) (x, y []float64, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	seenContent := false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		first := !seenContent
		seenContent = true
		xv, yv, perr := parseRow(text)
		if perr != nil {
			if first && looksLikeHeader(text) {
				continue
			}
			return nil, nil, fmt.Errorf("line %d: %w", line, perr)
		}
		x, y = append(x, xv), append(y, yv)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("line %d: longer than %d bytes", line+1, maxLine)
		}
		return nil, nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if len(x) == 0 {
		return nil, nil, errNoData
	}
	return x, y, nil
}

// parseRow parses "x,y" into two finite numbers.
func parseRow(text string) (float64, float64, error) {
	fields := strings.Split(text, ",")
	if len(fields) != 2 {
		return 0, 0, fmt.Errorf("want 2 comma-separated fields x,y, got %d in %q", len(fields), clip(text))
	}
	var v [2]float64
	for i, f := range fields {
		f = strings.TrimSpace(f)
		n, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("field %d %q is not a number", i+1, clip(f))
		}
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return 0, 0, fmt.Errorf("field %d %q is not finite", i+1, clip(f))
		}
		v[i] = n
	}
	return v[0], v[1], nil
}

// looksLikeHeader reports whether a first line is a header: two fields,
// neither of which parses as a number.
func looksLikeHeader(text string) bool {
	fields := strings.Split(text, ",")
	if len(fields) != 2 {
		return false
	}
	for _, f := range fields {
		if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err == nil {
			return false
		}
	}
	return true
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
