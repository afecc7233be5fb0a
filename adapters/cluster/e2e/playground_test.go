//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/internal/markdown"
)

// playgroundSection is the README section whose steps TestPlayground runs.
const playgroundSection = "### Try schedkit on a simulated cluster"

// readmeSteps returns the fenced code blocks of the README's playground
// section, in order. Steps are the fenced code blocks without a language;
// output samples (```text) and other commands (```sh) are not.
func readmeSteps(t *testing.T) []string {
	t.Helper()
	readme := markdown.Read(t, filepath.Join(clusterDir(t), "..", "..", "README.md"))
	var steps []string
	for _, b := range markdown.Blocks(markdown.Section(t, readme, "\n"+playgroundSection+"\n", "\n#")) {
		if b.Info == "" {
			steps = append(steps, b.Text)
		}
	}
	return steps
}

// TestPlayground runs the README's playground steps as written (from the
// repository root): start the cluster, submit the example Jobs, watch the
// Workloads, read why one was rejected, see the pods, stop. Only the state
// directory and the ports move (SCHEDKIT_CLUSTER_DIR,
// SCHEDKIT_CLUSTER_PORT_BASE, and the directory in the export line), so
// that a playground a user runs on the same machine is left alone. The watch step is repeated until its table
// shows what the README says it shows.
func TestPlayground(t *testing.T) {
	steps := readmeSteps(t)
	if len(steps) != 6 {
		t.Fatalf("the playground section has %d steps, want 6 (start, submit, watch, why, pods, stop): %q", len(steps), steps)
	}
	dir := filepath.Join(t.TempDir(), "playground")
	root := filepath.Join(clusterDir(t), "..", "..")
	envFile := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(envFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// run runs one step in bash with the exports of the steps before it.
	run := func(step string) (string, error) {
		script := fmt.Sprintf("set -e\n. %q\n%s\nexport -p >%q\n", envFile,
			strings.ReplaceAll(step, "/tmp/schedkit-cluster", dir), envFile)
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "SCHEDKIT_CLUSTER_DIR="+dir,
			fmt.Sprintf("SCHEDKIT_CLUSTER_PORT_BASE=%d", freePortBase(t, 12)))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { stopCluster(t, dir) })

	start, submit, watch, why, pods, stop := steps[0], steps[1], steps[2], steps[3], steps[4], steps[5]
	if out, err := run(start); err != nil {
		t.Fatalf("%s\n%v\n%s", start, err, out)
	}
	if out, err := run(submit); err != nil {
		t.Fatalf("%s\n%v\n%s", submit, err, out)
	}
	var table string
	eventually(t, 90*time.Second, "the watch step to show the README's outcome", func() (bool, string) {
		out, err := run(watch)
		if err != nil {
			return false, fmt.Sprintf("%v\n%s", err, out)
		}
		table = out
		return playgroundOutcome(out) == "", playgroundOutcome(out) + "\n" + out
	})
	t.Logf("%s\n%s", watch, table)
	t.Logf("resident memory (MiB) with the example Jobs running: %s", (&cluster{dir: dir}).memory(t))
	out, err := run(why)
	if err != nil {
		t.Fatalf("%s\n%v\n%s", why, err, out)
	}
	t.Logf("%s\n%s", why, out)
	if want := regexp.MustCompile(`^late: Rejected: even started now with the quota to itself it would finish .*, after its deadline \S+: P\(on time\) = 0\.00 < 0\.90 .*\n$`); !want.MatchString(out) {
		t.Errorf("the why step prints %q, want one line matching %v", out, want)
	}
	out, err = run(pods)
	if err != nil {
		t.Fatalf("%s\n%v\n%s", pods, err, out)
	}
	t.Logf("%s\n%s", pods, out)
	if out, err := run(stop); err != nil {
		t.Fatalf("%s\n%v\n%s", stop, err, out)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after the stop step %s is still there (%v)", dir, err)
	}
}

// playgroundOutcome says what the watch table lacks of what the README
// promises ("" when nothing): report and crypto admitted; one of train and
// nightly admitted, the other pending with its predicted start and finish;
// late deactivated.
func playgroundOutcome(table string) string {
	rows := map[string][]string{}
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if len(lines) == 0 {
		return "no table"
	}
	header := strings.Fields(lines[0])
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, h := range []string{"JOB", "ADMITTED", "ACTIVE", "START", "FINISH"} {
		if _, ok := col[h]; !ok {
			return fmt.Sprintf("no column %s in %v", h, header)
		}
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) > col["FINISH"] {
			rows[f[col["JOB"]]] = f
		}
	}
	get := func(job, c string) string {
		if r, ok := rows[job]; ok {
			return r[col[c]]
		}
		return ""
	}
	for _, job := range []string{"report", "crypto"} {
		if get(job, "ADMITTED") != "True" {
			return job + " not admitted"
		}
	}
	admitted, pending := "", ""
	for _, job := range []string{"train", "nightly"} {
		if get(job, "ADMITTED") == "True" {
			admitted = job
		} else {
			pending = job
		}
	}
	if admitted == "" || pending == "" {
		return "want one of train and nightly admitted and the other pending"
	}
	ts := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	if !ts.MatchString(get(pending, "START")) || !ts.MatchString(get(pending, "FINISH")) {
		return pending + " has no predicted start and finish"
	}
	if get("late", "ACTIVE") != "false" {
		return "late not deactivated"
	}
	return ""
}
