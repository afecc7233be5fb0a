package deadlinecheck

import (
	"strings"
	"testing"

	"github.com/schedkit/schedkit/internal/markdown"
)

// The README's YAML is config/samples/deadline-check.yaml (without the
// file's header comment), which the real tier applies to a real API server.
func TestREADMEQuotesTheSample(t *testing.T) {
	readme := markdown.Read(t, "../../../README.md")
	sample := markdown.Read(t, "../config/samples/deadline-check.yaml")
	body := sample[strings.Index(sample, "apiVersion: schedkit.io/v1alpha1"):]
	section := markdown.Section(t, readme, "### Kueue AdmissionCheck controller", "")
	i, yaml := markdown.First(markdown.Blocks(section), "yaml")
	if i < 0 {
		t.Fatal("the README's Kueue section shows no YAML")
	}
	if yaml.Text != body {
		t.Errorf("the README's YAML differs from config/samples/deadline-check.yaml; copy the file's documents into the README")
	}
}
