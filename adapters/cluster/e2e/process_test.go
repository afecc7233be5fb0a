//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A process is how one of the cluster's components was started: enough
// to start it again, or a replica of it, as a Deployment's pod restart
// would (same binary, arguments and environment).
type process struct {
	name string
	exe  string   // the binary (/proc/PID/exe)
	args []string // without argv[0]
	env  []string
}

// pid is the pid up.sh (or launch) recorded for component name; 0 when
// none is recorded.
func (cl *cluster) pid(name string) int {
	b, err := os.ReadFile(filepath.Join(cl.dir, "pids", name))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// alive reports whether component name's recorded process runs (a zombie
// of this test process counts as exited).
func (cl *cluster) alive(name string) bool {
	pid := cl.pid(name)
	if pid == 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	s := string(st)
	return !strings.HasPrefix(strings.TrimSpace(s[strings.LastIndexByte(s, ')')+1:]), "Z")
}

// processOf reads how component name's running process was started.
func (cl *cluster) processOf(t *testing.T, name string) process {
	t.Helper()
	pid := cl.pid(name)
	if pid == 0 {
		t.Fatalf("no pid recorded for %s", name)
	}
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	envRaw, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	split := func(b []byte) []string { return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00") }
	return process{name: name, exe: exe, args: split(raw)[1:], env: split(envRaw)}
}

// kill9 sends SIGKILL to component name and waits until it has exited.
func (cl *cluster) kill9(t *testing.T, name string) {
	t.Helper()
	pid := cl.pid(name)
	if pid == 0 {
		t.Fatalf("no pid recorded for %s", name)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("kill -9 %s (%d): %v", name, pid, err)
	}
	eventually(t, 10*time.Second, name+" gone after kill -9", func() (bool, string) {
		return !cl.alive(name), "still running"
	})
}

// launch starts p as component p.name: in its own session, its output
// appended to logs/NAME.log, its pid in pids/NAME (which down.sh stops).
// extra arguments go after p's (the last of a repeated flag wins).
func (cl *cluster) launch(t *testing.T, p process, extra ...string) {
	t.Helper()
	log, err := os.OpenFile(filepath.Join(cl.dir, "logs", p.name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(p.exe, append(append([]string{}, p.args...), extra...)...)
	cmd.Env = p.env
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", p.name, err)
	}
	go func() { _ = cmd.Wait() }() // reaps it whenever it exits
	if err := os.WriteFile(filepath.Join(cl.dir, "pids", p.name), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// restart9 kills component name with SIGKILL and starts it again as it
// was started. A start that exits within two seconds (a port the killed
// process held not yet free) is tried again, as a pod's restart would be,
// for up to 30 s.
func (cl *cluster) restart9(t *testing.T, name string) {
	t.Helper()
	p := cl.processOf(t, name)
	cl.kill9(t, name)
	for try := 0; ; try++ {
		cl.launch(t, p)
		time.Sleep(2 * time.Second)
		if cl.alive(name) {
			return
		}
		if try == 15 {
			t.Fatalf("%s exits at start; see logs/%s.log", name, name)
		}
		t.Logf("%s exited at start; starting it again", name)
	}
}

// rss returns the resident memory of component name now and at its peak
// (VmRSS and VmHWM of /proc/PID/status), in MiB.
func (cl *cluster) rss(t *testing.T, name string) (now, peak int) {
	t.Helper()
	now, peak, err := cl.memoryOf(name)
	if err != nil {
		t.Fatal(err)
	}
	return now, peak
}

// memoryOf reads the resident memory of component name now and at its
// peak, in MiB. A pid file outlives its process, so it first checks that
// the recorded pid still runs the component's binary, not a later process
// that got the same pid.
func (cl *cluster) memoryOf(name string) (now, peak int, err error) {
	pid := cl.pid(name)
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err != nil || filepath.Base(exe) != name {
		return 0, 0, fmt.Errorf("%s: pid %d runs %q (%v), not %s", name, pid, exe, err, name)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", name, err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		var kb int
		if _, err := fmt.Sscanf(l, "VmRSS: %d kB", &kb); err == nil {
			now = kb / 1024
		}
		if _, err := fmt.Sscanf(l, "VmHWM: %d kB", &kb); err == nil {
			peak = kb / 1024
		}
	}
	return now, peak, nil
}

// sampleMemory reads component name's resident memory every interval
// until stop is called, which returns the largest reading, the pid it
// was read from and the first error (the process gone or replaced).
func (cl *cluster) sampleMemory(name string, interval time.Duration) (stop func() (maxMiB, pid int, err error)) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var most int
	var first error
	pid := cl.pid(name)
	wg.Go(func() {
		for {
			now, _, err := cl.memoryOf(name)
			if err == nil && cl.pid(name) != pid {
				err = fmt.Errorf("%s restarted: pid %d, then %d", name, pid, cl.pid(name))
			}
			if err != nil && first == nil {
				first = err
			}
			most = max(most, now)
			select {
			case <-done:
				return
			case <-time.After(interval):
			}
		}
	})
	return func() (int, int, error) {
		close(done)
		wg.Wait()
		return most, pid, first
	}
}

// logSince returns the lines of component name's log written after the
// first size bytes (size: the log's length at some earlier moment, from
// logSize).
func (cl *cluster) logSince(t *testing.T, name string, size int64, s string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(cl.dir, "logs", name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(raw[min(size, int64(len(raw))):]), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

// logOutside returns the lines of component name's log that contain s
// and start outside the byte ranges skip.
func (cl *cluster) logOutside(t *testing.T, name string, skip [][2]int64, s string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(cl.dir, "logs", name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	at := int64(0)
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		in := false
		for _, r := range skip {
			in = in || at >= r[0] && at < r[1]
		}
		if !in && strings.Contains(l, s) {
			out = append(out, strings.TrimSuffix(l, "\n"))
		}
		at += int64(len(l))
	}
	return out
}

func (cl *cluster) logSize(name string) int64 {
	st, err := os.Stat(filepath.Join(cl.dir, "logs", name+".log"))
	if err != nil {
		return 0
	}
	return st.Size()
}
