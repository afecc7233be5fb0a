package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/schedkit/schedkit/adapters/yarn/dshell"
)

// A Cluster is a Hadoop MiniYARNCluster started by minirm.sh for one run.
type Cluster struct {
	// URL is the RM's web address; Env what its ApplicationMasters need.
	URL string
	Env dshell.Env

	script string
	env    []string
}

// StartCluster starts a fresh cluster with minirm.sh (script) in its own
// directory dir (state, logs, the NodeManagers' directories) with its REST
// API on port, and returns it once every NodeManager has registered.
// Nodes, node memory and vcores are minirm.sh's defaults (2 × 2048 MB,
// 8 vcores) unless MINIRM_NODES … are set in the environment.
func StartCluster(ctx context.Context, script, dir string, port int) (*Cluster, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	c := &Cluster{script: script, env: append(os.Environ(), "MINIRM_DIR="+dir, fmt.Sprintf("MINIRM_PORT=%d", port))}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", script, "start")
	cmd.Env, cmd.Stdout, cmd.Stderr = c.env, &out, &errb
	if err := cmd.Run(); err != nil {
		c.Stop()
		return nil, fmt.Errorf("replay: %s start: %v\n%s", script, err, errb.String())
	}
	// The export lines are shell-quoted: let bash read them.
	read := exec.CommandContext(ctx, "bash", "-c",
		`eval "$1" && printf '%s\0' "$SCHEDKIT_YARN_RM" "$SCHEDKIT_YARN_CLASSPATH" "$SCHEDKIT_YARN_JAVA_OPTS" "$SCHEDKIT_YARN_JAVA"`, "_", out.String())
	vals, err := read.Output()
	if err != nil {
		c.Stop()
		return nil, fmt.Errorf("replay: reading %s start's environment: %v", script, err)
	}
	v := strings.Split(string(vals), "\x00")
	if len(v) < 4 || v[0] == "" || v[1] == "" {
		c.Stop()
		return nil, fmt.Errorf("replay: %s start printed no RM address or class path:\n%s", script, out.String())
	}
	c.URL = v[0]
	c.Env = dshell.Env{ClassPath: v[1], JavaOpts: v[2], Java: v[3], Dir: filepath.Join(dir, "dshell")}
	return c, nil
}

// Stop stops the cluster and the containers it launched.
func (c *Cluster) Stop() error {
	cmd := exec.Command("bash", c.script, "stop")
	cmd.Env = c.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("replay: %s stop: %v\n%s", c.script, err, out)
	}
	return nil
}
