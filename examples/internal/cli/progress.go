package cli

import (
	"fmt"
	"io"
)

// Progress reports how far a long run has come as a percentage on stderr,
// rewriting one line ("label  42%") and ending it when done. A nil writer
// (or Progress) is silent, so -json runs pass nil. It prints only when the
// whole percentage changes, so its output is the same on every run.
type Progress struct {
	w     io.Writer
	label string
	total int
	done  int
	shown int
}

// NewProgress starts a report of total steps on w (nil: silent).
func NewProgress(w io.Writer, label string, total int) *Progress {
	p := &Progress{w: w, label: label, total: total, shown: -1}
	p.show()
	return p
}

// Add records n more steps done.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	p.done += n
	p.show()
}

// Done completes the line.
func (p *Progress) Done() {
	if p == nil || p.w == nil {
		return
	}
	p.done = p.total
	p.show()
	fmt.Fprintln(p.w)
	p.w = nil
}

func (p *Progress) show() {
	if p.w == nil {
		return
	}
	pct := 100
	if p.total > 0 && p.done < p.total {
		pct = 100 * p.done / p.total
	}
	if pct != p.shown {
		p.shown = pct
		fmt.Fprintf(p.w, "\r%s %3d%%", p.label, pct)
	}
}
