package cli

import (
	"encoding/json"
	"io"
)

// Output is how an example ends: its figures into PlotDir when one is
// given, then its report on stdout, as JSON with -json or as text.
type Output struct {
	PlotDir string                  // -plot DIR; "" draws no figure
	Plot    func(dir string) error  // draws the figures into dir
	JSON    bool                    // -json: write Doc's document instead of Text
	Doc     func() any              // the -json document
	Text    func(w io.Writer) error // the text report
}

// Write draws the figures and writes the report to w, stopping at the
// first error.
func (o Output) Write(w io.Writer) error {
	if o.PlotDir != "" {
		if err := o.Plot(o.PlotDir); err != nil {
			return err
		}
	}
	if o.JSON {
		return WriteJSON(w, o.Doc())
	}
	return o.Text(w)
}

// Emit writes out to stdout and returns ExitOK, or prints the error on
// stderr under the program's name and returns ExitError.
func Emit(stdout, stderr io.Writer, name string, out Output) int {
	if err := out.Write(stdout); err != nil {
		return Fail(stderr, name, err, ExitError)
	}
	return ExitOK
}

// WriteJSON writes v to w as JSON indented by two spaces, the examples'
// -json format.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
