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
