// Package tracedir finds the public cluster traces the examples read by
// default: ../shared/traces beside the repository that holds the working
// directory.
package tracedir

import (
	"os"
	"path/filepath"
)

// Find returns ../shared/traces beside the repository root (found by
// walking up from the working directory to its go.mod), or "" when there is
// no such directory.
func Find() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "..", "shared", "traces")
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return p
			}
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
