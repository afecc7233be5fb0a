package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// Module is one module version to serve: the module whose go.mod is in Dir,
// served as Version.
type Module struct {
	Path    string
	Version string
	Dir     string
}

// WriteProxy lays out dst as a module proxy (GOPROXY=file://dst, the
// layout of the go command's module cache/download directory, "Module
// proxy protocol" in go help goproxy) serving each module: its go.mod as
// @v/VERSION.mod, its zip made from Dir by golang.org/x/mod/zip (the files
// a tag of the repository would hold: nested modules and VCS directories
// left out) as @v/VERSION.zip, its .info with the time t, and @v/list.
func WriteProxy(dst string, mods []Module, t time.Time) error {
	for _, m := range mods {
		mv := module.Version{Path: m.Path, Version: m.Version}
		if err := module.Check(mv.Path, mv.Version); err != nil {
			return err
		}
		esc, err := module.EscapePath(m.Path)
		if err != nil {
			return err
		}
		escv, err := module.EscapeVersion(m.Version)
		if err != nil {
			return err
		}
		dir := filepath.Join(dst, filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		gomod, err := os.ReadFile(filepath.Join(m.Dir, "go.mod"))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, escv+".mod"), gomod, 0o644); err != nil {
			return err
		}
		zf, err := os.Create(filepath.Join(dir, escv+".zip"))
		if err != nil {
			return err
		}
		err = modzip.CreateFromDir(zf, mv, m.Dir)
		if cerr := zf.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("zip of %s: %w", mv, err)
		}
		info, err := json.Marshal(struct {
			Version string
			Time    time.Time
		}{m.Version, t.UTC()})
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, escv+".info"), info, 0o644); err != nil {
			return err
		}
		list, err := os.OpenFile(filepath.Join(dir, "list"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(list, m.Version)
		if cerr := list.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
