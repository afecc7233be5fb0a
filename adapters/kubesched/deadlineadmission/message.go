package deadlineadmission

import (
	"fmt"
	"math"
	"time"

	"github.com/schedkit/schedkit/admission"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/words"
)

// Message is the one-line reason a rejected pod gets (it becomes the
// PodScheduled=False condition's message): the predicted finish against the
// deadline, and the job the rejection protects.
func Message(d admission.Decision, in Input) string {
	if d.Admit || d.Blocking < 0 || d.Blocking >= len(d.Checked) {
		return ""
	}
	b := d.Checked[d.Blocking]
	finish := in.Now + b.Prefix
	late := -b.Slack
	switch d.Reason {
	case admission.ReasonQueuedJobHurt:
		return fmt.Sprintf("admitting %s would make running %s finish at %s (in %s), %s after its deadline %s; rejected to protect %s",
			in.Refs[in.New.ID], in.Refs[b.ID], stamp(finish), words.Seconds(b.Prefix), words.Seconds(late), stamp(b.Deadline), in.Refs[b.ID])
	default: // ReasonNewJobLate
		ahead := d.NewIndex
		return fmt.Sprintf("%s would finish at %s (in %s, after %d running deadline %s ahead of it in EDF order), %s after its deadline %s",
			in.Refs[b.ID], stamp(finish), words.Seconds(b.Prefix), ahead, words.Plural(ahead, "job", "jobs"), words.Seconds(late), stamp(b.Deadline))
	}
}

func stamp(sec float64) string {
	s := math.Floor(sec)
	return time.Unix(int64(s), int64((sec-s)*1e9)).UTC().Format(time.RFC3339)
}
