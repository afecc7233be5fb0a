package markdown

import (
	"slices"
	"testing"
)

func TestBlocks(t *testing.T) {
	text := "intro\n```yaml\na: 1\n\nb: 2\n```\ntext\n```\nstep one\n```\n```go\nx := 1\n```\n```sh\nunclosed\n"
	want := []Block{{"yaml", "a: 1\n\nb: 2\n"}, {"", "step one\n"}, {"go", "x := 1\n"}}
	if got := Blocks(text); !slices.Equal(got, want) {
		t.Fatalf("Blocks = %q, want %q", got, want)
	}
	if i, b := First(want, ""); i != 1 || b != want[1] {
		t.Errorf("First(\"\") = %d, %q", i, b)
	}
	if i, b := First(want, "text"); i != -1 || b != (Block{}) {
		t.Errorf("First(text) = %d, %q", i, b)
	}
}

func TestSection(t *testing.T) {
	s := "# A\none\n## B\ntwo\n### C\nthree\n## D\nfour\n"
	for _, c := range []struct{ start, end, want string }{
		{"\n## B\n", "\n## ", "two\n### C\nthree"},
		{"\n## B\n", "\n#", "two"},
		{"## D", "", "\nfour\n"},
		{"## D", "\n## ", "\nfour\n"},
	} {
		if got := Section(t, s, c.start, c.end); got != c.want {
			t.Errorf("Section(%q, %q) = %q, want %q", c.start, c.end, got, c.want)
		}
	}
}
