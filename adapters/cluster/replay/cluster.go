package replay

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// A Config is one of the three ways the replay runs the trace.
type Config string

// The configurations, in the order the replay runs them.
const (
	// Stock: Kueue without the check, the default kube-scheduler profile.
	Stock Config = "stock"
	// Check: Kueue with the schedkit.io/deadline check, the default
	// kube-scheduler profile.
	Check Config = "check"
	// Schedkit: the check, in earliest-deadline-first order in Kueue's
	// queue (its -edf-priority-boost, with Kueue's PriorityBoost feature
	// gate), and the schedkit-scheduler profile (EDF order, deadline gate,
	// least-work-lost preemption, progress share).
	Schedkit Config = "schedkit"
	// Instant: Kueue with an admission check that the replay answers
	// Ready as soon as it sees quota reserved, the default kube-scheduler
	// profile: what any admission check costs in Kueue, apart from what
	// the schedkit check decides. Not in Configs; asked for by name.
	Instant Config = "instant"
)

// Configs lists every configuration.
var Configs = []Config{Stock, Check, Schedkit}

// ParseConfigs reads a comma-separated list of configurations.
func ParseConfigs(s string) ([]Config, error) {
	var out []Config
	for _, f := range strings.Split(s, ",") {
		c := Config(strings.TrimSpace(f))
		if c != Stock && c != Check && c != Schedkit && c != Instant {
			return nil, fmt.Errorf("configuration %q: want stock, check, schedkit or instant", f)
		}
		out = append(out, c)
	}
	return out, nil
}

// scheduler is the pods' schedulerName.
func (c Config) scheduler() string {
	if c == Schedkit {
		return "schedkit-scheduler"
	}
	return "default-scheduler"
}

// upFlags are adapters/cluster/up.sh's flags for the configuration: only
// the components it uses run; schedkit-deadline gets deadlineFlags, and in
// the schedkit configuration EDFFlag after them, with Kueue's
// PriorityBoost feature gate on.
func (c Config) upFlags(deadlineFlags string) []string {
	switch c {
	case Stock, Instant:
		return []string{"-without", "schedkit-deadline,schedkit-scheduler", "-no-queue"}
	case Check:
		return []string{"-without", "schedkit-scheduler", "-no-queue", "-deadline-flags", deadlineFlags}
	}
	return []string{"-no-queue", "-deadline-flags", strings.TrimSpace(deadlineFlags + " " + EDFFlag), "-kueue-gates", "PriorityBoost=true"}
}

// EDFFlag is schedkit-deadline's flag the schedkit configuration adds to
// the deadline flags: Kueue's queue in earliest-deadline-first order.
const EDFFlag = "-edf-priority-boost"

// A Cluster is one fresh cluster started by adapters/cluster/up.sh.
type Cluster struct {
	Dir     string // up.sh's state directory
	Config  Config
	CS      kubernetes.Interface
	C       client.WithWatch // core kinds and Kueue's, uncached
	scripts string
}

// NodesSpec is the up.sh -nodes value of n nodes of cpus CPUs each.
func NodesSpec(n, cpus int) string {
	return fmt.Sprintf("%dxcpu:cpu=%d,memory=%dGi", n, cpus, 4*cpus)
}

// PortsPerCluster is how many consecutive ports up.sh takes.
const PortsPerCluster = 12

// Up starts a fresh cluster for the configuration with up.sh (scripts is
// adapters/cluster) in dir, on local ports from base (0: the first free
// ones, FreePortBase), with the nodes given as up.sh -nodes specs, and
// schedkit-deadline's extra flags, and up.sh's extra flags after them
// (-audit). The caller stops it with Down.
func Up(scripts, dir string, base int, c Config, nodes []string, deadlineFlags string, log func(string), extra ...string) (*Cluster, error) {
	if base == 0 {
		var err error
		if base, err = FreePortBase(PortsPerCluster); err != nil {
			return nil, err
		}
	}
	args := []string{filepath.Join(scripts, "up.sh"), "-dir", dir, "-port-base", strconv.Itoa(base)}
	for _, n := range nodes {
		args = append(args, "-nodes", n)
	}
	args = append(args, c.upFlags(deadlineFlags)...)
	args = append(args, extra...)
	cmd := exec.Command("bash", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cl := &Cluster{Dir: dir, Config: c, scripts: scripts}
	if err := cmd.Run(); err != nil {
		_ = cl.Down()
		return nil, fmt.Errorf("bash %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	if log != nil {
		log(strings.TrimSpace(lastLine(out.String(), "== up in")))
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", filepath.Join(dir, "kubeconfig"))
	if err != nil {
		_ = cl.Down()
		return nil, err
	}
	cfg.QPS, cfg.Burst = 200, 400
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), kueue.AddToScheme(scheme)); err != nil {
		_ = cl.Down()
		return nil, err
	}
	crlog.SetLogger(logr.Discard())
	if cl.CS, err = kubernetes.NewForConfig(cfg); err == nil {
		cl.C, err = client.NewWithWatch(cfg, client.Options{Scheme: scheme})
	}
	if err != nil {
		_ = cl.Down()
		return nil, err
	}
	return cl, nil
}

// Down stops the cluster with down.sh; its state directory stays.
func (cl *Cluster) Down() error {
	if _, err := os.Stat(filepath.Join(cl.Dir, "pids")); err != nil {
		return nil
	}
	out, err := exec.Command("bash", filepath.Join(cl.scripts, "down.sh"), "-dir", cl.Dir, "-keep").CombinedOutput()
	if err != nil {
		return fmt.Errorf("down.sh: %v\n%s", err, out)
	}
	return nil
}

// Apply applies YAML with the cluster's kubectl.
func (cl *Cluster) Apply(yaml string) error {
	cmd := exec.Command(filepath.Join(cl.Dir, "bin", "kubectl"), "apply", "-f", "-")
	cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(cl.Dir, "kubeconfig"))
	cmd.Stdin = strings.NewReader(yaml)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("kubectl apply: %v\n%s", err, out)
	}
	return nil
}

// CPUSeconds returns the user+system CPU time, in seconds, of the
// cluster's process name (its pid file under pids/), or 0 when it does not
// run.
func (cl *Cluster) CPUSeconds(name string) float64 {
	pid, err := os.ReadFile(filepath.Join(cl.Dir, "pids", name))
	if err != nil {
		return 0
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strings.TrimSpace(string(pid)), "stat"))
	if err != nil {
		return 0
	}
	// Fields after the command (in parentheses, which may hold spaces):
	// state is field 3, utime 14, stime 15 (clock ticks of 1/100 s on
	// Linux).
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	k, _ := strconv.ParseFloat(f[12], 64)
	return (u + k) / 100
}

func lastLine(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// FreePortBase returns the first of n consecutive local ports free now
// (up.sh -port-base).
func FreePortBase(n int) (int, error) {
	bs, err := FreePortBases(n, 1)
	if err != nil {
		return 0, err
	}
	return bs[0], nil
}

// FreePortBases returns k disjoint runs of n consecutive local ports free
// now, by their first port, for clusters started at the same time.
func FreePortBases(n, k int) ([]int, error) {
	var out []int
	step := 20 * ((n + 19) / 20)
	for base := 31100; base < 60000 && len(out) < k; base += step {
		free := true
		for p := base; p < base+n && free; p++ {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
			if err != nil {
				free = false
				continue
			}
			l.Close()
		}
		if free {
			out = append(out, base)
		}
	}
	if len(out) < k {
		return nil, fmt.Errorf("fewer than %d runs of %d consecutive free ports between 31100 and 60000", k, n)
	}
	return out, nil
}
