package main

import (
	"flag"
	"fmt"
	"net/http"
	"time"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
)

// leaderElection is the leader election of replicas (-leader-elect): the
// lease schedkit-deadline.schedkit.io, its timing, and the client that
// renews it.
type leaderElection struct {
	enabled   bool
	namespace string
	// The lease's timing, kube-scheduler's flags and defaults (also
	// Kueue's and controller-runtime's): a standby takes the lease over
	// at most lease + retry after the leader's last renewal; the leader
	// gives it up (and the process exits) when it could not renew it
	// for renew, trying every retry.
	lease, renew, retry time.Duration
}

// Defaults of the lease's timing (kube-scheduler's, Kueue's and
// controller-runtime's).
const (
	defaultLeaseDuration = 15 * time.Second
	defaultRenewDeadline = 10 * time.Second
	defaultRetryPeriod   = 2 * time.Second
	maxLeaseDuration     = time.Hour
	// jitterFactor is client-go's leaderelection.JitterFactor: a renew
	// deadline must exceed it times the retry period.
	jitterFactor = 1.2
)

func (l *leaderElection) register(fs *flag.FlagSet) {
	fs.BoolVar(&l.enabled, "leader-elect", false, "elect a leader, so that replicas can run side by side")
	fs.StringVar(&l.namespace, "leader-election-namespace", "", "namespace of the leader election lease (default: the pod's namespace)")
	fs.DurationVar(&l.lease, "leader-elect-lease-duration", defaultLeaseDuration, "how long a standby waits after the leader's last renewal before it takes the lease, in (renew deadline, 1h]")
	fs.DurationVar(&l.renew, "leader-elect-renew-deadline", defaultRenewDeadline, "how long the leader tries to renew its lease before it gives it up and exits, in (1.2 × retry period, lease duration)")
	fs.DurationVar(&l.retry, "leader-elect-retry-period", defaultRetryPeriod, "how often the leader renews its lease and a standby tries to take it, > 0")
}

// validate names each timing out of its bounds.
func (l *leaderElection) validate() []error {
	var errs []error
	if l.retry <= 0 {
		errs = append(errs, fmt.Errorf("leader-elect-retry-period = %v: must be > 0", l.retry))
	}
	if float64(l.renew) <= jitterFactor*float64(l.retry) {
		errs = append(errs, fmt.Errorf("leader-elect-renew-deadline = %v: must be more than %v × leader-elect-retry-period (%v)", l.renew, jitterFactor, l.retry))
	}
	if l.lease <= l.renew || l.lease > maxLeaseDuration {
		errs = append(errs, fmt.Errorf("leader-elect-lease-duration = %v: must be in (leader-elect-renew-deadline (%v), %v]", l.lease, l.renew, maxLeaseDuration))
	}
	return errs
}

// apply sets the manager's leader election from the flags. The lease is
// renewed through a client of its own, as kube-scheduler and
// kube-controller-manager do: no client-side rate limit whatever
// -kube-api-qps says (it sends one request each retry period), user agent
// ".../leader-election", and its own connection to the API server, so
// that the check's own requests in a burst never queue in front of a
// renewal on the client side.
func (l *leaderElection) apply(o *ctrl.Options, cfg *rest.Config) {
	o.LeaderElection = l.enabled
	o.LeaderElectionID = "schedkit-deadline.schedkit.io"
	o.LeaderElectionNamespace = l.namespace
	o.LeaseDuration, o.RenewDeadline, o.RetryPeriod = &l.lease, &l.renew, &l.retry
	o.LeaderElectionConfig = leaseClientConfig(cfg)
}

// leaseClientConfig is cfg for the client that renews the lease.
func leaseClientConfig(cfg *rest.Config) *rest.Config {
	c := rest.AddUserAgent(rest.CopyConfig(cfg), "leader-election")
	c.RateLimiter = nil
	c.QPS, c.Burst = -1, 0
	// A transport with a proxy function is never shared with another
	// client (client-go's transport cache cannot compare functions): this
	// one is client-go's default.
	c.Proxy = utilnet.NewProxierWithNoProxyCIDR(http.ProxyFromEnvironment)
	return c
}
