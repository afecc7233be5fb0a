// Package markdown reads the parts of a Markdown file that the tests
// keeping README.md in step with the code compare: a section between two
// markers and its fenced code blocks. Only tests import it.
package markdown

import (
	"os"
	"strings"
	"testing"
)

// Read returns the file at path as text, failing the test when it cannot
// be read.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Section returns the text of s after the first start and before the next
// end after it (the rest of s when end is "" or does not follow), failing
// the test when start is not in s.
func Section(t testing.TB, s, start, end string) string {
	t.Helper()
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("no section %q", strings.TrimSpace(start))
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); end != "" && j >= 0 {
		s = s[:j]
	}
	return s
}

// A Block is one fenced code block: its info string ("yaml", "go", "" for
// none) and its lines, each ended by a newline.
type Block struct {
	Info, Text string
}

// Blocks returns the fenced code blocks of text in order: a block opens on
// a line starting with three backticks (the info string is the rest of the
// line) and closes on a line of exactly three backticks; an unclosed block
// is dropped.
func Blocks(text string) []Block {
	var out []Block
	var cur *Block
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &Block{Info: strings.TrimPrefix(line, "```")}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.Text += line + "\n"
		}
	}
	return out
}

// First returns the first block of blocks with the given info string, and
// its index (-1 and the zero Block when there is none).
func First(blocks []Block, info string) (int, Block) {
	for i, b := range blocks {
		if b.Info == info {
			return i, b
		}
	}
	return -1, Block{}
}
