package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want []string // on stderr
	}{
		{"help", []string{"-h"}, 0, []string{"Usage: schedkit-deadline", "-confidence", "-kubeconfig", "-metrics-bind-address"}},
		{"unknown flag", []string{"-bogus"}, 2, []string{"flag provided but not defined: -bogus"}},
		{"stray argument", []string{"run"}, 2, []string{`unexpected argument "run"`}},
		{"bad values", []string{"-confidence", "1.5", "-samples", "0", "-min-retry", "0s", "-eta-refresh", "2h", "-v", "-1"}, 2,
			[]string{"confidence = 1.5: must be in (0, 1]", "samples = 0: must be in [1, 100000]", "min-retry = 0s", "eta-refresh = 2h0m0s: must be in [1s, 1h]", "v = -1"}},
		{"retry order", []string{"-min-retry", "1m", "-max-retry", "30s"}, 2, []string{"max-retry = 30s: must be in [min-retry, 24h]"}},
		{"bad kubeconfig", []string{"-kubeconfig", "/nonexistent/kubeconfig"}, 1, []string{"kubeconfig"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(context.Background(), tt.args, &out, &errb); code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errb.String())
				}
			}
		})
	}
}
