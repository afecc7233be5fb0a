package replay

import (
	"strings"
	"testing"
)

// Each configuration's queue: stock without a check, check and schedkit
// behind the schedkit.io/deadline check with its parameters, instant
// behind a check of the replay's own controller and no parameters.
func TestQueueYAML(t *testing.T) {
	type yamlCase struct {
		config    Config
		want, not []string
	}
	cases := []yamlCase{
		{Stock, []string{"nominalQuota: 8", "kind: LocalQueue"}, []string{"admissionChecks", "kind: AdmissionCheck", "DeadlineParameters"}},
		{Check, []string{"- name: deadline", "controllerName: schedkit.io/deadline", "kind: DeadlineParameters"}, []string{instantController}},
		{Schedkit, []string{"- name: deadline", "controllerName: schedkit.io/deadline", "kind: DeadlineParameters"}, []string{instantController}},
		{Instant, []string{"- name: deadline", "controllerName: schedkit.io/replay-instant", "kind: LocalQueue"}, []string{"DeadlineParameters", "schedkit.io/deadline\n"}},
	}
	for _, c := range cases {
		y := queueYAML(8, c.config)
		for _, w := range c.want {
			if !strings.Contains(y, w) {
				t.Errorf("%s: queue YAML without %q:\n%s", c.config, w, y)
			}
		}
		for _, n := range c.not {
			if strings.Contains(y, n) {
				t.Errorf("%s: queue YAML with %q:\n%s", c.config, n, y)
			}
		}
	}
}

// ParseConfigs takes the four names and names a wrong one.
func TestParseConfigs(t *testing.T) {
	got, err := ParseConfigs("stock, instant,check,schedkit")
	if err != nil || len(got) != 4 || got[1] != Instant {
		t.Fatalf("ParseConfigs = %v, %v", got, err)
	}
	if _, err := ParseConfigs("stock,fast"); err == nil || !strings.Contains(err.Error(), `"fast"`) {
		t.Errorf("ParseConfigs(fast) error %v, want one naming \"fast\"", err)
	}
}

// Any text gives either configurations that are all known, one per
// comma-separated field, or an error quoting a field.
func FuzzParseConfigs(f *testing.F) {
	for _, s := range []string{"stock,check,schedkit", "instant", "", "stock,,check", " schedkit ", "x,y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseConfigs(s)
		if err != nil {
			if !strings.Contains(err.Error(), "configuration \"") {
				t.Fatalf("ParseConfigs(%q) error %q names no field", s, err)
			}
			return
		}
		if len(cs) != strings.Count(s, ",")+1 {
			t.Fatalf("ParseConfigs(%q) = %v: %d configurations for %d fields", s, cs, len(cs), strings.Count(s, ",")+1)
		}
		for _, c := range cs {
			if c != Stock && c != Check && c != Schedkit && c != Instant {
				t.Fatalf("ParseConfigs(%q) gave unknown %q", s, c)
			}
		}
	})
}
