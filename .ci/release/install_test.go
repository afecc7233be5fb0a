package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

const corePath = "github.com/schedkit/schedkit"

// adapterVersion is the version the test serves each adapter at: its first
// tag, adapters/<name>/v0.1.0 (RELEASING.md). Any version would do; the
// core's is the one the adapter's go.mod requires.
const adapterVersion = "v0.1.0"

// installable are the adapters a user installs by version: their go.mod
// files carry no replace directive, so go install path@version builds them.
var installable = []struct {
	dir  string // adapter directory, from the repository root
	cmd  string // package path of the command, in the adapter's module
	args []string
	want string // in the command's output
}{
	{"adapters/kueue", "cmd/schedkit-deadline", []string{"-h"}, "schedkit.io/deadline Kueue AdmissionCheck controller"},
	{"adapters/yarn", "cmd/schedkit-yarn", []string{"-snapshot", "demo", "-once"}, "dry run: 5 changes planned, none written"},
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root: %v", err)
	}
	return root
}

// coreRequirement parses the adapter's go.mod: it must have no replace
// directive, and require the core at a release version (vX.Y.Z, not a
// pseudo-version), which it returns.
func coreRequirement(t *testing.T, gomod string) string {
	t.Helper()
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Replace {
		t.Errorf("%s: replace %s %s => %s %s: go install path@version refuses a module with replace directives", gomod, r.Old.Path, r.Old.Version, r.New.Path, r.New.Version)
	}
	for _, r := range f.Require {
		if r.Mod.Path != corePath {
			continue
		}
		v := r.Mod.Version
		if !semver.IsValid(v) || semver.Canonical(v) != v || semver.Prerelease(v) != "" || semver.Build(v) != "" {
			t.Fatalf("%s: requires %s %s, not a release version vX.Y.Z", gomod, corePath, v)
		}
		return v
	}
	t.Fatalf("%s: does not require %s", gomod, corePath)
	return ""
}

// TestInstallByVersion installs each command of installable as a user
// would, go install path@version, with the module proxy as its only source:
// a proxy directory serving the core and the adapter from this tree, at the
// version the adapter requires and at adapterVersion, in front of the module
// cache's download directory (the layout of a proxy) and then GOPROXY. It
// runs outside any workspace (GOWORK=off), in module mode (GOFLAGS=-mod=mod)
// with a module cache of its own, so nothing of the tree is seen but what
// the proxy serves. The installed binary must record the core at the
// required version, unreplaced, and run.
func TestInstallByVersion(t *testing.T) {
	root := repoRoot(t)
	goBin := goCommand()
	dl, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	download := filepath.Join(strings.TrimSpace(string(dl)), "cache", "download")
	upstream, err := exec.Command(goBin, "env", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range installable {
		t.Run(filepath.Base(a.cmd), func(t *testing.T) {
			dir := filepath.Join(root, filepath.FromSlash(a.dir))
			coreVersion := coreRequirement(t, filepath.Join(dir, "go.mod"))
			modPath := corePath + "/" + a.dir
			tmp := t.TempDir()
			proxy := filepath.Join(tmp, "proxy")
			err := WriteProxy(proxy, []Module{
				{Path: corePath, Version: coreVersion, Dir: root},
				{Path: modPath, Version: adapterVersion, Dir: dir},
			}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			work := filepath.Join(tmp, "work") // in no module and no workspace
			bin := filepath.Join(tmp, "bin")
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			env := append(os.Environ(),
				"GOWORK=off",
				"GOFLAGS=-mod=mod -modcacherw",
				"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(download)+","+strings.TrimSpace(string(upstream)),
				// The served zips of the tree are not in the checksum
				// database; Kueue v0.19 requires a pseudo-version of
				// scheduler-library that it does not serve either.
				"GONOSUMDB="+corePath+",sigs.k8s.io/scheduler-library",
				"GOMODCACHE="+filepath.Join(tmp, "modcache"),
				"GOBIN="+bin,
			)
			target := modPath + "/" + a.cmd + "@" + adapterVersion
			// -trimpath keeps the build cache's keys free of this test's
			// temporary module cache, so that a second run reuses the first.
			install := exec.Command(goBin, "install", "-trimpath", target)
			install.Dir, install.Env = work, env
			if out, err := install.CombinedOutput(); err != nil {
				t.Fatalf("go install %s: %v\n%s", target, err, out)
			}
			exe := filepath.Join(bin, filepath.Base(a.cmd))

			info, err := exec.Command(goBin, "version", "-m", exe).Output()
			if err != nil {
				t.Fatalf("go version -m %s: %v", exe, err)
			}
			var sawMod, sawCore bool
			for _, line := range strings.Split(string(info), "\n") {
				f := strings.Fields(line)
				switch {
				case len(f) >= 3 && f[0] == "mod" && f[1] == modPath:
					sawMod = f[2] == adapterVersion
				case len(f) >= 3 && f[0] == "dep" && f[1] == corePath:
					sawCore = f[2] == coreVersion
				case len(f) >= 2 && f[0] == "=>":
					t.Errorf("%s was built with a replacement: %s", exe, line)
				}
			}
			if !sawMod || !sawCore {
				t.Errorf("%s does not record mod %s %s and dep %s %s:\n%s", exe, modPath, adapterVersion, corePath, coreVersion, info)
			}

			run := exec.Command(exe, a.args...)
			run.Dir = work
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", exe, strings.Join(a.args, " "), err, out)
			}
			if !strings.Contains(string(out), a.want) {
				t.Errorf("%s %s printed no %q:\n%s", exe, strings.Join(a.args, " "), a.want, out)
			}
		})
	}
}
