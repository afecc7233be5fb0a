package embedding_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEQuotesTheExample keeps README.md's "Embedding schedkit" section
// in step with example_test.go: every line of its Go block appears in
// example_test.go and every line of the log after it in Example's output, in
// the same order (blank lines and elisions, "// ..." and "...", skipped;
// runs of spaces compared as one).
func TestREADMEQuotesTheExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	section := between(string(readme), "\n## Embedding schedkit\n", "\n## ")
	if section == "" {
		t.Fatal(`README.md has no "## Embedding schedkit" section`)
	}
	code := between(section, "```go\n", "```")
	afterCode := section[strings.Index(section, "```go\n")+len("```go\n")+len(code)+len("```"):]
	log := between(afterCode, "```\n", "```") // the first plain block after the code

	var output []string
	inOutput := false
	for _, l := range strings.Split(string(src), "\n") {
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

	if n := inOrder(t, "Go block", "example_test.go", code, strings.Split(string(src), "\n"), "// ..."); n < 40 {
		t.Errorf("README's Go block quotes %d lines of example_test.go, want the handlers (≥ 40)", n)
	}
	if n := inOrder(t, "log", "Example's output", log, output, "..."); n < 10 {
		t.Errorf("README's log quotes %d lines of Example's output, want ≥ 10", n)
	}
}

// between returns the text after the first start and before the next end
// (the rest of s if end does not follow), or "" if start is not in s.
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		s = s[:j]
	}
	return s
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
