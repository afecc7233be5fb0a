//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/schedkit/schedkit/adapters/cluster/replay"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// A cluster is one simulated cluster started by up.sh.
type cluster struct {
	dir        string // up.sh's state directory
	kubeconfig string
	cs         kubernetes.Interface
	c          client.Client // Kueue's kinds and the core ones, uncached
	// restarting holds, per component, the byte ranges of its log written
	// while the control plane restarted under it (TestFaults).
	restarting map[string][][2]int64
}

// clusterDir is the directory of up.sh, down.sh and the example files.
func clusterDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// freePortBase returns the first of n consecutive local ports that are
// free now.
func freePortBase(t *testing.T, n int) int {
	t.Helper()
	base, err := replay.FreePortBase(n)
	if err != nil {
		t.Fatal(err)
	}
	return base
}

// startCluster runs up.sh with the flags given (and a state directory and
// ports of its own) and stops the cluster with down.sh when the test ends,
// printing the end of every component's log if the test failed. A
// component that does not start fails the test.
func startCluster(t *testing.T, flags ...string) *cluster {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "cluster")
	args := append([]string{filepath.Join(clusterDir(t), "up.sh"), "-dir", dir,
		"-port-base", fmt.Sprint(freePortBase(t, 12))}, flags...)
	t0 := time.Now()
	out, err := exec.Command("bash", args...).CombinedOutput()
	t.Cleanup(func() { stopCluster(t, dir) })
	if err != nil {
		t.Fatalf("bash %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("up.sh: cluster up in %v", time.Since(t0).Round(100*time.Millisecond))
	return connect(t, dir)
}

func stopCluster(t *testing.T, dir string) {
	if t.Failed() {
		logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*.log"))
		for _, l := range logs {
			out, _ := exec.Command("tail", "-n", "30", l).Output()
			t.Logf("the end of %s:\n%s", filepath.Base(l), out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pids")); err != nil {
		return // stopped already (the playground's own steps)
	}
	if out, err := exec.Command("bash", filepath.Join(clusterDir(t), "down.sh"), "-dir", dir).CombinedOutput(); err != nil {
		t.Errorf("down.sh: %v\n%s", err, out)
	}
}

// connect builds the clients of the cluster whose state is in dir.
func connect(t *testing.T, dir string) *cluster {
	t.Helper()
	kc := filepath.Join(dir, "kubeconfig")
	cfg, err := clientcmd.BuildConfigFromFlags("", kc)
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 100, 200
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), kueue.AddToScheme(scheme)); err != nil {
		t.Fatal(err)
	}
	crlog.SetLogger(logr.Discard()) // the client logs nothing the test reads
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return &cluster{dir: dir, kubeconfig: kc, cs: cs, c: c}
}

// kubectl runs the cluster's kubectl (built by up.sh, v1.37) with stdin and
// returns its output; a failure fails the test.
func (cl *cluster) kubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, err := cl.kubectlErr(stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (cl *cluster) kubectlErr(stdin string, args ...string) (string, error) {
	cmd := exec.Command(filepath.Join(cl.dir, "bin", "kubectl"), args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+cl.kubeconfig)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// apply applies YAML as a user would: kubectl apply -f -.
func (cl *cluster) apply(t *testing.T, yaml string) {
	t.Helper()
	cl.kubectl(t, yaml, "apply", "-f", "-")
}

// eventually polls cond every 200 ms until it is true or limit has passed;
// then it fails the test with what and cond's last report.
func eventually(t *testing.T, limit time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, limit, true, func(context.Context) (bool, error) {
		ok, report := cond()
		last = report
		return ok, nil
	})
	if err != nil {
		t.Fatalf("%s: not within %v; last: %s", what, limit, last)
	}
}

// logLines returns the lines of a component's log that contain s.
func (cl *cluster) logLines(t *testing.T, component, s string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(cl.dir, "logs", component+".log"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

// memory reports the resident memory of each of the cluster's processes
// (Linux's /proc; "" elsewhere) and their sum, in MiB.
func (cl *cluster) memory(t *testing.T) string {
	t.Helper()
	pids, err := filepath.Glob(filepath.Join(cl.dir, "pids", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	total := 0
	for _, f := range pids {
		pid, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		status, err := os.ReadFile(filepath.Join("/proc", strings.TrimSpace(string(pid)), "status"))
		if err != nil {
			return ""
		}
		for _, l := range strings.Split(string(status), "\n") {
			var kb int
			if _, err := fmt.Sscanf(l, "VmRSS: %d kB", &kb); err == nil {
				fmt.Fprintf(&b, "%s %d, ", filepath.Base(f), kb/1024)
				total += kb / 1024
			}
		}
	}
	return fmt.Sprintf("%sin all %d MiB", b.String(), total)
}
