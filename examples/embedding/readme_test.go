package embedding_test

import (
	"strings"
	"testing"

	"github.com/schedkit/schedkit/internal/markdown"
)

// TestREADMEQuotesTheExample keeps README.md's "Embedding schedkit" section
// in step with example_test.go: every line of its Go block appears in
// example_test.go and every line of the log after it in Example's output, in
// the same order (blank lines and elisions, "// ..." and "...", skipped;
// runs of spaces compared as one).
func TestREADMEQuotesTheExample(t *testing.T) {
	src := markdown.Read(t, "example_test.go")
	section := markdown.Section(t, markdown.Read(t, "../../README.md"), "\n## Embedding schedkit\n", "\n## ")
	blocks := markdown.Blocks(section)
	gi, code := markdown.First(blocks, "go")
	if gi < 0 {
		t.Fatal(`README.md's "Embedding schedkit" section shows no Go block`)
	}
	_, log := markdown.First(blocks[gi+1:], "") // the first plain block after the code

	var output []string
	inOutput := false
	for _, l := range strings.Split(src, "\n") {
		if strings.TrimSpace(l) == "// Output:" {
			inOutput = true
			continue
		}
		if inOutput {
			if !strings.HasPrefix(strings.TrimSpace(l), "//") {
				break
			}
			output = append(output, strings.TrimPrefix(strings.TrimSpace(l), "//"))
		}
	}

	if n := inOrder(t, "Go block", "example_test.go", code.Text, strings.Split(src, "\n"), "// ..."); n < 40 {
		t.Errorf("README's Go block quotes %d lines of example_test.go, want the handlers (≥ 40)", n)
	}
	if n := inOrder(t, "log", "Example's output", log.Text, output, "..."); n < 10 {
		t.Errorf("README's log quotes %d lines of Example's output, want ≥ 10", n)
	}
}

// inOrder reports each line of quote (but blank lines and those starting
// with elision) that is not found in lines (from where) after the previous
// match, and returns the number of lines matched.
func inOrder(t *testing.T, what, where, quote string, lines []string, elision string) int {
	t.Helper()
	k, n := 0, 0
	for _, q := range strings.Split(quote, "\n") {
		q = strings.Join(strings.Fields(q), " ")
		if q == "" || strings.HasPrefix(q, elision) {
			continue
		}
		found := false
		for ; k < len(lines); k++ {
			if strings.Join(strings.Fields(lines[k]), " ") == q {
				found, k, n = true, k+1, n+1
				break
			}
		}
		if !found {
			t.Errorf("README's %s line %q is not in %s (in this order)", what, q, where)
			return n
		}
	}
	return n
}
