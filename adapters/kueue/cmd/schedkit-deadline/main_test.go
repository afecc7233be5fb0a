package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
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
		{"bad values", []string{"-confidence", "1.5", "-samples", "0", "-min-retry", "0s", "-eta-refresh", "2h", "-eta-slice", "-1", "-kueue-requeue-batch", "-1s", "-v", "-1"}, 2,
			[]string{"confidence = 1.5: must be in (0, 1]", "samples = 0: must be in [1, 100000]", "min-retry = 0s", "eta-refresh = 2h0m0s: must be in [1s, 1h]", "eta-slice = -1: must be in [0, 1000000000]", "kueue-requeue-batch = -1s: must be in [0s, 1m]", "v = -1"}},
		{"bad rate limits", []string{"-kube-api-qps", "-1", "-kube-api-burst", "-2"}, 2,
			[]string{"kube-api-qps = -1: must be in [0, 100000]", "kube-api-burst = -2: must be in [0, 1000000]"}},
		{"retry order", []string{"-min-retry", "1m", "-max-retry", "30s"}, 2, []string{"max-retry = 30s: must be in [min-retry, 24h]"}},
		{"lease order", []string{"-leader-elect-lease-duration", "10s", "-leader-elect-renew-deadline", "10s", "-leader-elect-retry-period", "9s"}, 2,
			[]string{"leader-elect-renew-deadline = 10s: must be more than 1.2 × leader-elect-retry-period (9s)", "leader-elect-lease-duration = 10s: must be in (leader-elect-renew-deadline (10s), 1h0m0s]"}},
		{"bad lease timing", []string{"-leader-elect-lease-duration", "2h", "-leader-elect-retry-period", "0s"}, 2,
			[]string{"leader-elect-retry-period = 0s: must be > 0", "leader-elect-lease-duration = 2h0m0s"}},
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

// TestLeaderElection: the flags' lease timing reaches the manager (by
// default kube-scheduler's 15 s, 10 s, 2 s), and the lease is renewed
// through a client of its own: no client-side rate limit whatever
// -kube-api-qps says, its own user agent, and a transport never shared
// with the check's other clients (a proxy function: client-go's transport
// cache does not share it).
func TestLeaderElection(t *testing.T) {
	for _, tt := range []struct {
		args                []string
		lease, renew, retry time.Duration
	}{
		{[]string{"-leader-elect"}, 15 * time.Second, 10 * time.Second, 2 * time.Second},
		{[]string{"-leader-elect", "-kube-api-qps", "5", "-leader-elect-lease-duration", "137s", "-leader-elect-renew-deadline", "107s", "-leader-elect-retry-period", "26s"}, 137 * time.Second, 107 * time.Second, 26 * time.Second},
	} {
		f, code := parse(tt.args, io.Discard)
		if f == nil {
			t.Fatalf("parse(%q): exit %d", tt.args, code)
		}
		cfg := &rest.Config{Host: "https://127.0.0.1:6443", QPS: float32(f.qps), Burst: 10, UserAgent: "schedkit-deadline"}
		var o ctrl.Options
		f.election.apply(&o, cfg)
		if !o.LeaderElection || o.LeaderElectionID != "schedkit-deadline.schedkit.io" {
			t.Errorf("%q: leader election %v, id %q", tt.args, o.LeaderElection, o.LeaderElectionID)
		}
		if *o.LeaseDuration != tt.lease || *o.RenewDeadline != tt.renew || *o.RetryPeriod != tt.retry {
			t.Errorf("%q: lease %v, renew %v, retry %v; want %v, %v, %v", tt.args, *o.LeaseDuration, *o.RenewDeadline, *o.RetryPeriod, tt.lease, tt.renew, tt.retry)
		}
		le := o.LeaderElectionConfig
		if le == nil || le == cfg || le.QPS >= 0 || le.RateLimiter != nil || le.Proxy == nil || !strings.HasSuffix(le.UserAgent, "/leader-election") {
			t.Fatalf("%q: lease client config %+v", tt.args, le)
		}
		if cfg.Proxy != nil || cfg.UserAgent != "schedkit-deadline" {
			t.Errorf("%q: the check's own config changed: %+v", tt.args, cfg)
		}
	}
}
