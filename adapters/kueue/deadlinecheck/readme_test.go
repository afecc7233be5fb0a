package deadlinecheck

import (
	"os"
	"strings"
	"testing"
)

// The README's YAML is config/samples/deadline-check.yaml (without the
// file's header comment), which the real tier applies to a real API server.
func TestREADMEQuotesTheSample(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sample, err := os.ReadFile("../config/samples/deadline-check.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(sample)
	body := s[strings.Index(s, "apiVersion: schedkit.io/v1alpha1"):]
	section := string(readme)
	i := strings.Index(section, "### Kueue AdmissionCheck controller")
	if i < 0 {
		t.Fatal("README has no Kueue AdmissionCheck controller section")
	}
	section = section[i:]
	start := strings.Index(section, "```yaml\n")
	if start < 0 {
		t.Fatal("the README's Kueue section shows no YAML")
	}
	yaml := section[start+len("```yaml\n"):]
	yaml = yaml[:strings.Index(yaml, "```")]
	if yaml != body {
		t.Errorf("the README's YAML differs from config/samples/deadline-check.yaml; copy the file's documents into the README")
	}
}
