package release

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// kueueVersion is the Kueue release the Kueue adapter builds against; its
// go.mod's k8s.io/* and controller-runtime versions are the adapter's.
const kueueVersion = "v0.19.2"

// goCommand is the go command of the toolchain running the tests.
func goCommand() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

func parseFile[F any](t *testing.T, path string, parse func(string, []byte, modfile.VersionFixer) (F, error)) F {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parse(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// adapterModules are the directories under adapters/ holding a go.mod,
// nested ones too (adapters/kubesched/perf), relative to root.
func adapterModules(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(filepath.Join(root, "adapters"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			dirs = append(dirs, filepath.ToSlash(rel))
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestAdapterWorkspaces checks what RELEASING.md promises of every adapter
// module: its go.mod replaces no schedkit module and requires each at a
// release version; the module's go.work uses the module and the core, plus
// every schedkit module it requires, and replaces exactly those required
// versions with the tree (so that the workspace builds before they are
// tagged, and a stale replace cannot hide a changed requirement).
func TestAdapterWorkspaces(t *testing.T) {
	root := repoRoot(t)
	dirs := adapterModules(t, root)
	if len(dirs) < 5 {
		t.Fatalf("found only %d adapter modules: %v", len(dirs), dirs)
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			abs := filepath.Join(root, filepath.FromSlash(dir))
			mod := parseFile(t, filepath.Join(abs, "go.mod"), modfile.Parse)
			for _, r := range mod.Replace {
				if r.Old.Path == corePath || strings.HasPrefix(r.Old.Path, corePath+"/") {
					t.Errorf("go.mod replaces %s: the workspace (go.work) brings the tree", r.Old.Path)
				}
			}
			required := map[string]string{} // schedkit module path -> version
			for _, r := range mod.Require {
				if r.Mod.Path != corePath && !strings.HasPrefix(r.Mod.Path, corePath+"/") {
					continue
				}
				v := r.Mod.Version
				if semver.Canonical(v) != v || semver.Prerelease(v) != "" {
					t.Errorf("go.mod requires %s %s, not a release version vX.Y.Z", r.Mod.Path, v)
				}
				required[r.Mod.Path] = v
			}
			if _, ok := required[corePath]; !ok {
				t.Fatalf("go.mod does not require %s", corePath)
			}
			work := parseFile(t, filepath.Join(abs, "go.work"), modfile.ParseWork)
			used := map[string]bool{}
			for _, u := range work.Use {
				used[filepath.Clean(filepath.Join(abs, u.Path))] = true
			}
			if !used[abs] {
				t.Errorf("go.work does not use the module itself (.)")
			}
			replaced := map[string]string{}
			for _, r := range work.Replace {
				replaced[r.Old.Path] = r.Old.Version
				target := filepath.Clean(filepath.Join(abs, r.New.Path))
				if !used[target] {
					t.Errorf("go.work replaces %s %s with %s, which it does not use", r.Old.Path, r.Old.Version, r.New.Path)
				}
				want := strings.TrimPrefix(strings.TrimPrefix(r.Old.Path, corePath), "/")
				if rel, _ := filepath.Rel(root, target); filepath.ToSlash(rel) != want && !(want == "" && rel == ".") {
					t.Errorf("go.work replaces %s with %s, not that module's directory", r.Old.Path, r.New.Path)
				}
			}
			for p, v := range required {
				if replaced[p] != v {
					t.Errorf("go.mod requires %s %s; go.work replaces version %q", p, v, replaced[p])
				}
			}
			for p := range replaced {
				if _, ok := required[p]; !ok {
					t.Errorf("go.work replaces %s, which go.mod does not require", p)
				}
			}
		})
	}
}

// TestKueueAdapterPins checks that the Kueue adapter builds on Kueue's own
// pins: every k8s.io/* module and controller-runtime in its build list at
// the version sigs.k8s.io/kueue's go.mod requires, wherever that go.mod
// names the module.
func TestKueueAdapterPins(t *testing.T) {
	root := repoRoot(t)
	goBin := goCommand()
	dl := exec.Command(goBin, "mod", "download", "-json", "sigs.k8s.io/kueue@"+kueueVersion)
	dl.Env = append(os.Environ(), "GOWORK=off", "GONOSUMDB=sigs.k8s.io/scheduler-library")
	dl.Dir = t.TempDir()
	out, err := dl.Output()
	if err != nil {
		t.Fatalf("go mod download sigs.k8s.io/kueue@%s: %v", kueueVersion, err)
	}
	var info struct{ GoMod string }
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatal(err)
	}
	kueue := parseFile(t, info.GoMod, modfile.ParseLax)
	pins := map[string]string{}
	for _, r := range kueue.Require {
		if strings.HasPrefix(r.Mod.Path, "k8s.io/") || r.Mod.Path == "sigs.k8s.io/controller-runtime" {
			pins[r.Mod.Path] = r.Mod.Version
		}
	}
	list := exec.Command(goBin, "list", "-m", "-f", "{{.Path}} {{.Version}}", "all")
	list.Dir = filepath.Join(root, "adapters", "kueue") // in its workspace
	out, err = list.Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		if want, ok := pins[f[0]]; ok {
			checked++
			if f[1] != want {
				t.Errorf("the Kueue adapter builds %s %s; Kueue %s requires %s", f[0], f[1], kueueVersion, want)
			}
		} else if strings.HasPrefix(f[0], "k8s.io/") {
			t.Errorf("the Kueue adapter builds %s %s, which Kueue %s does not require", f[0], f[1], kueueVersion)
		}
	}
	if checked < 5 {
		t.Errorf("only %d of Kueue's pins are in the adapter's build list", checked)
	}
}
