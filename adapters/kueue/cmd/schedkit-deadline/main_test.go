package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
		{"bad rate limits", []string{"-kube-api-qps", "-1", "-kube-api-burst", "-2"}, 2,
			[]string{"kube-api-qps = -1: must be in [0, 100000]", "kube-api-burst = -2: must be in [0, 1000000]"}},
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

// TestRestConfigRateLimit: a kubeconfig given with -kubeconfig and one found
// through $KUBECONFIG give the same client rate limit: none by default
// (controller-runtime's, QPS < 0), or the flags' values.
func TestRestConfigRateLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	const kc = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:6443"}
users:
- name: u
  user: {token: t}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)
	tests := []struct {
		name      string
		qps       float64
		burst     int
		wantQPS   float32
		wantBurst int
	}{
		{"default: no client-side limit", 0, 0, -1, 0},
		{"qps, burst defaulted to twice it", 50, 0, 50, 100},
		{"qps and burst", 20, 30, 20, 30},
		{"fractional qps", 0.2, 0, 0.2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range []string{path, ""} {
				cfg, err := restConfig(p, tt.qps, tt.burst)
				if err != nil {
					t.Fatalf("restConfig(%q): %v", p, err)
				}
				if cfg.QPS != tt.wantQPS || cfg.Burst != tt.wantBurst || cfg.RateLimiter != nil {
					t.Errorf("restConfig(%q): QPS %v, Burst %d, RateLimiter %v; want %v, %d, nil", p, cfg.QPS, cfg.Burst, cfg.RateLimiter, tt.wantQPS, tt.wantBurst)
				}
			}
		})
	}
}
