package cli_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/cli"
)

func TestEmit(t *testing.T) {
	var plotted string
	out := func(plotDir string, asJSON bool, plotErr error) cli.Output {
		return cli.Output{
			PlotDir: plotDir, Plot: func(dir string) error { plotted = dir; return plotErr },
			JSON: asJSON, Doc: func() any { return map[string]int{"jobs": 2} },
			Text: func(w io.Writer) error { _, err := io.WriteString(w, "2 jobs\n"); return err },
		}
	}
	for _, tt := range []struct {
		name           string
		o              cli.Output
		code           int
		plotted        string
		stdout, stderr string
	}{
		{"text, no figure", out("", false, nil), cli.ExitOK, "", "2 jobs\n", ""},
		{"JSON after the figures", out("figs", true, nil), cli.ExitOK, "figs", "{\n  \"jobs\": 2\n}\n", ""},
		{"a figure that fails stops the report", out("figs", false, errors.New("disk full")), cli.ExitError, "figs", "", "demo: disk full\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plotted = ""
			var stdout, stderr bytes.Buffer
			code := cli.Emit(&stdout, &stderr, "demo", tt.o)
			if code != tt.code || plotted != tt.plotted || stdout.String() != tt.stdout || stderr.String() != tt.stderr {
				t.Fatalf("exit %d, plotted %q, stdout %q, stderr %q; want %d, %q, %q, %q",
					code, plotted, stdout.String(), stderr.String(), tt.code, tt.plotted, tt.stdout, tt.stderr)
			}
		})
	}
}
