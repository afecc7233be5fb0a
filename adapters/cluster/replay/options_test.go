package replay

import (
	"slices"
	"testing"
)

// The replay's diagnostics reach up.sh as its flags, the Kueue manager's
// flags as one argument.
func TestUpExtra(t *testing.T) {
	tests := []struct {
		o    Options
		want []string
	}{
		{Options{}, nil},
		{Options{Audit: true}, []string{"-audit"}},
		{Options{KueueFlags: "--zap-log-level=5 --x=1"}, []string{"-kueue-flags", "--zap-log-level=5 --x=1"}},
		{Options{Audit: true, KueueFlags: "--zap-log-level=3"}, []string{"-audit", "-kueue-flags", "--zap-log-level=3"}},
	}
	for _, tt := range tests {
		if got := tt.o.upExtra(); !slices.Equal(got, tt.want) {
			t.Errorf("%+v: up.sh flags %q, want %q", tt.o, got, tt.want)
		}
	}
}

// Each configuration starts only its components; the schedkit one adds
// the EDF boost to the check's flags and turns on Kueue's PriorityBoost.
func TestUpFlags(t *testing.T) {
	const f = "-min-retry=1s"
	tests := []struct {
		c    Config
		want []string
	}{
		{Stock, []string{"-without", "schedkit-deadline,schedkit-scheduler", "-no-queue"}},
		{Instant, []string{"-without", "schedkit-deadline,schedkit-scheduler", "-no-queue"}},
		{Check, []string{"-without", "schedkit-scheduler", "-no-queue", "-deadline-flags", "-min-retry=1s"}},
		{Schedkit, []string{"-no-queue", "-deadline-flags", "-min-retry=1s -edf-priority-boost", "-kueue-gates", "PriorityBoost=true"}},
	}
	for _, tt := range tests {
		if got := tt.c.upFlags(f); !slices.Equal(got, tt.want) {
			t.Errorf("%s: up.sh flags %q, want %q", tt.c, got, tt.want)
		}
	}
}
