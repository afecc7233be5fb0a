package v1alpha1

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesUpToDate runs every go:generate line of generate.go
// with its output sent to a temporary directory and compares what
// controller-gen writes with the files on disk: the deepcopy, the CRD and
// the ClusterRole. It fails when one is stale; go generate ./... in
// adapters/kueue writes them.
func TestGeneratedFilesUpToDate(t *testing.T) {
	src, err := os.ReadFile("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(line, "//go:generate go run ")
		if !ok {
			continue
		}
		lines++
		fields := strings.Fields(rest)
		if fields[0] != ControllerGen {
			t.Fatalf("go:generate runs %s, want ControllerGen (%s)", fields[0], ControllerGen)
		}
		args := fields[1:]
		out, dest := t.TempDir(), "."
		redirected := false
		for i, a := range args {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "output:") && strings.HasSuffix(k, ":dir") {
				dest, args[i], redirected = v, k+"="+out, true
			}
		}
		if !redirected {
			gen, _, _ := strings.Cut(args[0], ":")
			args = append(args, "output:"+gen+":dir="+out)
		}
		// Read the inputs here too: go test caches a result on the files
		// the test itself opens, and controller-gen reads them in another
		// process.
		for _, a := range args {
			if dir, ok := strings.CutPrefix(a, "paths="); ok {
				inputs, err := filepath.Glob(filepath.Join(dir, "*.go"))
				if err != nil || len(inputs) == 0 {
					t.Fatalf("paths=%s: no Go files (%v)", dir, err)
				}
				for _, f := range inputs {
					if _, err := os.ReadFile(f); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		cmd := exec.Command("go", append([]string{"run", ControllerGen}, args...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("controller-gen %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		entries, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) == 0 {
			t.Errorf("controller-gen %s wrote nothing", strings.Join(args, " "))
		}
		for _, e := range entries {
			want, err := os.ReadFile(filepath.Join(out, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dest, e.Name())
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is not what controller-gen writes (run go generate ./... in adapters/kueue): %v", path, err)
			}
		}
	}
	if lines != 3 {
		t.Errorf("%d go:generate lines, want 3 (deepcopy, CRD, RBAC)", lines)
	}
}
