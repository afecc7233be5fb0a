package cli

import (
	"fmt"
	"io"
)

// Notes prints the report's closing notes: "Terms:" with each term
// indented, then, if there are any, "Differs from the paper because:" with
// each reason as an indented "- " item.
func Notes(w io.Writer, terms, differs []string) {
	fmt.Fprintln(w, "Terms:")
	for _, t := range terms {
		fmt.Fprintf(w, "  %s\n", t)
	}
	if len(differs) > 0 {
		fmt.Fprintln(w, "Differs from the paper because:")
		for _, d := range differs {
			fmt.Fprintf(w, "  - %s\n", d)
		}
	}
}
