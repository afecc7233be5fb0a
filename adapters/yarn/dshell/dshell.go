// Package dshell submits Hadoop's DistributedShell as real YARN
// applications through the ResourceManager's REST API: an
// ApplicationMaster (DistributedShell's) that runs a number of containers,
// each sleeping for a chosen time — applications whose tasks take known
// times, for the adapter's real tier and the trace replay.
//
// The ApplicationMaster is a Java process the NodeManager starts: its
// class path must hold a yarn-site.xml naming the RM's scheduler address
// and the Hadoop client, DistributedShell and their dependencies, and on
// Java 17 its JVM needs Hadoop's --add-opens list. minirm.sh env prints
// all three (SCHEDKIT_YARN_CLASSPATH, SCHEDKIT_YARN_JAVA_OPTS,
// SCHEDKIT_YARN_JAVA); EnvFromEnviron reads them.
//
// DistributedShell's ApplicationMaster reads the shell command and its
// arguments from the files shellCommands and shellArgs in its working
// directory, written as Java's DataOutput.writeUTF writes (a two-byte
// length, then the bytes); they are local resources of its container,
// file:// URLs the NodeManager copies after checking their size and
// modification time.
package dshell

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// AMClass is DistributedShell's ApplicationMaster.
const AMClass = "org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster"

// amJVMOptions make an ApplicationMaster's JVM cheap to start: only the
// C1 compiler, the serial collector, no performance-data file. An
// ApplicationMaster that only asks for containers and waits for them
// gains nothing from C2, and on a machine of few cores many of them
// starting at once otherwise queue for the CPU.
const amJVMOptions = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData"

// Env is what an ApplicationMaster's container needs from the machine.
type Env struct {
	// Java is the java executable the NodeManager runs.
	Java string
	// ClassPath is the ApplicationMaster's class path.
	ClassPath string
	// JavaOpts are extra JVM options (Hadoop's --add-opens list).
	JavaOpts string
	// Dir holds the shellCommands and shellArgs files; the NodeManagers
	// must be able to read it.
	Dir string
}

// EnvFromEnviron reads SCHEDKIT_YARN_CLASSPATH (required),
// SCHEDKIT_YARN_JAVA_OPTS and SCHEDKIT_YARN_JAVA (default: java on the
// PATH); Dir is a directory under the system's temporary directory.
func EnvFromEnviron() (Env, error) {
	e := Env{ClassPath: os.Getenv("SCHEDKIT_YARN_CLASSPATH"), JavaOpts: os.Getenv("SCHEDKIT_YARN_JAVA_OPTS"),
		Java: os.Getenv("SCHEDKIT_YARN_JAVA"), Dir: filepath.Join(os.TempDir(), "schedkit-dshell")}
	if e.ClassPath == "" {
		return Env{}, errors.New("dshell: SCHEDKIT_YARN_CLASSPATH is not set (eval \"$(bash adapters/yarn/minirm/minirm.sh env)\" prints it with the RM's address)")
	}
	if e.Java == "" {
		p, err := exec.LookPath("java")
		if err != nil {
			return Env{}, fmt.Errorf("dshell: SCHEDKIT_YARN_JAVA is not set and %v", err)
		}
		if e.Java, err = filepath.EvalSymlinks(p); err != nil {
			return Env{}, fmt.Errorf("dshell: java: %w", err)
		}
	}
	return e, nil
}

// App is one DistributedShell application.
type App struct {
	Name  string
	Queue string // "" means default
	// Priority is the application priority at submission.
	Priority int64
	Tags     []string
	// Containers is the number of task containers, ≥ 1; each runs
	// sleep for Sleep (at least 1 ms).
	Containers int
	Sleep      time.Duration
	// ContainerMB is each task container's memory (default 256); the
	// ApplicationMaster's container has AMMB (default 256).
	ContainerMB, AMMB int64
	// ViewACL and ModifyACL are the app's VIEW_APP and MODIFY_APP ACLs
	// (users, comma-separated); "" sets none.
	ViewACL, ModifyACL string
}

// Submission returns the body of POST apps for a under application ID id,
// writing the shellCommands and shellArgs files it names.
func (e Env) Submission(id string, a App) (rm.ApplicationSubmission, error) {
	var errs []error
	if a.Containers < 1 {
		errs = append(errs, fmt.Errorf("dshell: App.Containers = %d: must be ≥ 1", a.Containers))
	}
	if a.Sleep < time.Millisecond {
		errs = append(errs, fmt.Errorf("dshell: App.Sleep = %v: must be ≥ 1ms", a.Sleep))
	}
	if a.ContainerMB < 0 || a.AMMB < 0 {
		errs = append(errs, fmt.Errorf("dshell: App.ContainerMB = %d, AMMB = %d: must be ≥ 0", a.ContainerMB, a.AMMB))
	}
	if len(errs) > 0 {
		return rm.ApplicationSubmission{}, errors.Join(errs...)
	}
	if a.ContainerMB == 0 {
		a.ContainerMB = 256
	}
	if a.AMMB == 0 {
		a.AMMB = 256
	}
	if a.Queue == "" {
		a.Queue = "default"
	}
	secs := strconv.FormatFloat(a.Sleep.Seconds(), 'f', -1, 64)
	cmd, err := e.utfFile("shellCommands-sleep", "sleep")
	if err != nil {
		return rm.ApplicationSubmission{}, err
	}
	args, err := e.utfFile("shellArgs-"+secs, secs)
	if err != nil {
		return rm.ApplicationSubmission{}, err
	}
	s := rm.ApplicationSubmission{ID: id, Name: a.Name, Queue: a.Queue, Priority: a.Priority, MaxAttempts: 1,
		Resource: rm.Resource{Memory: rm.Int64(a.AMMB), VCores: 1}, Type: "DSHELL"}
	s.Tags.Tag = a.Tags
	s.AM.Commands.Command = strings.Join([]string{e.Java, fmt.Sprintf("-Xmx%dm", max(a.AMMB/2, 64)), amJVMOptions, e.JavaOpts, AMClass,
		"--container_memory", strconv.FormatInt(a.ContainerMB, 10), "--container_vcores", "1",
		"--num_containers", strconv.Itoa(a.Containers),
		"1><LOG_DIR>/AppMaster.stdout", "2><LOG_DIR>/AppMaster.stderr"}, " ")
	s.AM.Environment.Entry = []rm.Entry[string]{{Key: "CLASSPATH", Value: e.ClassPath}}
	s.AM.LocalResources.Entry = []rm.Entry[rm.LocalResource]{{Key: "shellCommands", Value: cmd}, {Key: "shellArgs", Value: args}}
	for _, acl := range []rm.Entry[string]{{Key: "VIEW_APP", Value: a.ViewACL}, {Key: "MODIFY_APP", Value: a.ModifyACL}} {
		if acl.Value == "" {
			continue
		}
		if s.AM.ACLs == nil {
			s.AM.ACLs = &rm.Entries[string]{}
		}
		s.AM.ACLs.Entry = append(s.AM.ACLs.Entry, acl)
	}
	return s, nil
}

// utfFile returns the local resource of a file named name under e.Dir
// holding text as writeUTF writes it, writing it when it does not exist.
// A file is never rewritten, so a resource handed out earlier keeps its
// modification time.
func (e Env) utfFile(name, text string) (rm.LocalResource, error) {
	path := filepath.Join(e.Dir, name)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(e.Dir, 0o755); err != nil {
			return rm.LocalResource{}, fmt.Errorf("dshell: %w", err)
		}
		b := binary.BigEndian.AppendUint16(nil, uint16(len(text)))
		tmp, err := os.CreateTemp(e.Dir, name+".*")
		if err != nil {
			return rm.LocalResource{}, fmt.Errorf("dshell: %w", err)
		}
		_, werr := tmp.Write(append(b, text...))
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr); err != nil {
			os.Remove(tmp.Name())
			return rm.LocalResource{}, fmt.Errorf("dshell: %w", err)
		}
		// A link fails if another process wrote the file first: keep theirs.
		if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
			os.Remove(tmp.Name())
			return rm.LocalResource{}, fmt.Errorf("dshell: %w", err)
		}
		os.Remove(tmp.Name())
	}
	st, err := os.Stat(path)
	if err != nil {
		return rm.LocalResource{}, fmt.Errorf("dshell: %w", err)
	}
	return rm.LocalResource{Resource: "file://" + path, Type: "FILE", Visibility: "APPLICATION",
		Size: st.Size(), Timestamp: st.ModTime().UnixMilli()}, nil
}

// Submit obtains an application ID from the RM, submits a under it and
// returns the ID.
func Submit(ctx context.Context, c *rm.Client, e Env, a App) (string, error) {
	na, err := c.NewApplication(ctx)
	if err != nil {
		return "", err
	}
	s, err := e.Submission(string(na.ID), a)
	if err != nil {
		return "", err
	}
	if err := c.SubmitApplication(ctx, s); err != nil {
		return "", err
	}
	return string(na.ID), nil
}
