//go:build e2e

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/adapters/cluster/replay"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times.
const clockTicks = 100

// usageOf are the components whose CPU time the fault scenarios report:
// the check and the control plane around it.
var usageOf = []string{"schedkit-deadline", "kube-apiserver", "etcd", "kueue", "kube-controller-manager"}

// A usage is the CPU seconds each of usageOf has used, and the machine's
// busy CPU seconds (all cores), at one moment.
type usage struct {
	cpu  map[string]float64
	busy float64
}

// usage reads the CPU time of the components and of the machine.
func (cl *cluster) usage(t *testing.T) usage {
	t.Helper()
	u := usage{cpu: map[string]float64{}}
	procs := replay.Cluster{Dir: cl.dir}
	for _, name := range usageOf {
		u.cpu[name] = procs.CPUSeconds(name) // 0 when not running
	}
	st, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(st), "\n")
	for i, v := range strings.Fields(line)[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		x, _ := strconv.ParseFloat(v, 64)
		u.busy += x / clockTicks
	}
	return u
}

// since gives the CPU seconds used from u0 to u, per component, and the
// control plane's (kube-apiserver, etcd, Kueue, kube-controller-manager)
// and the check's shares of the machine's busy time.
func (u usage) since(u0 usage) string {
	var b strings.Builder
	plane := 0.0
	for _, name := range usageOf {
		d := u.cpu[name] - u0.cpu[name]
		fmt.Fprintf(&b, "%s %.1f, ", name, d)
		if name != "schedkit-deadline" {
			plane += d
		}
	}
	busy := u.busy - u0.busy
	check := u.cpu["schedkit-deadline"] - u0.cpu["schedkit-deadline"]
	fmt.Fprintf(&b, "the machine %.1f busy; control plane %.0f %%, check %.0f %% of it", busy, 100*plane/busy, 100*check/busy)
	return b.String()
}

// loadAverage is the machine's 1, 5 and 15 minute load averages.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// requests counts the requests of a component's API client by method and
// status code ("PATCH 200"), from its rest_client_requests_total.
type requests map[string]float64

// labelOf returns the value of label name in a metric's labels
// (name="value" pairs, comma-separated, with no comma in a value).
func labelOf(labels, name string) string {
	for _, kv := range strings.Split(labels, ",") {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// checkRequests reads schedkit-deadline's request counts from its metrics
// endpoint (up.sh's port base + 9); empty when it cannot be read.
func (cl *cluster) checkRequests(t *testing.T) requests {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(cl.dir, "port-base"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", base+9))
	if err != nil {
		t.Logf("schedkit-deadline's metrics: %v", err)
		return requests{}
	}
	defer resp.Body.Close()
	return parseRequests(resp.Body)
}

func parseRequests(r io.Reader) requests {
	out := requests{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "rest_client_requests_total{")
		if !ok {
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		v, _ := strconv.ParseFloat(value, 64)
		out[labelOf(labels, "method")+" "+labelOf(labels, "code")] += v
	}
	return out
}

// since gives the requests made from r0 to r, by method and code.
func (r requests) since(r0 requests) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r)) {
		if d := r[k] - r0[k]; d > 0 {
			parts = append(parts, fmt.Sprintf("%s: %.0f", k, d))
		}
	}
	if len(parts) == 0 {
		return "none read"
	}
	return strings.Join(parts, ", ")
}

// refused gives the requests from r0 to r the API server refused as
// forbidden (code 403), by method; empty when there were none.
func (r requests) refused(r0 requests) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r)) {
		if d := r[k] - r0[k]; d > 0 && strings.HasSuffix(k, " 403") {
			parts = append(parts, fmt.Sprintf("%s: %.0f", k, d))
		}
	}
	return strings.Join(parts, ", ")
}
