package hadoopsim

import (
	"fmt"

	"github.com/schedkit/schedkit/admission"
)

// Policy is a job scheduler of the case study.
type Policy int

const (
	FIFO       Policy = iota // MIMP §5.2 FIFO
	EDF                      // MIMP §5.2 EDF
	MP                       // MIMP §5.2 Maximum Progress, IO check on
	MPAC                     // MP with wave-aware admission (admission.ModeWave) and MP's slack
	MPACPaper                // MP with the paper's admission rule (Eq. 6–7)
	MPACStrict               // MP with strict Eq. 6–7 admission (every queued deadline checked)
	numPolicies
)

// Policies lists every policy in the order of MIMP Table 3 plus admission.
var Policies = []Policy{FIFO, EDF, MP, MPAC, MPACPaper, MPACStrict}

// String returns "FIFO", "EDF", "MP", "MP+AC", "MP+AC-paper" or
// "MP+AC-strict".
func (p Policy) String() string {
	switch p {
	case FIFO:
		return "FIFO"
	case EDF:
		return "EDF"
	case MP:
		return "MP"
	case MPAC:
		return "MP+AC"
	case MPACPaper:
		return "MP+AC-paper"
	case MPACStrict:
		return "MP+AC-strict"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// valid reports whether p is a known policy.
func (p Policy) valid() bool { return p >= FIFO && p < numPolicies }

// picker is the slot picker a policy uses: FIFO, EDF or MP (package edf).
func (p Policy) picker() Policy {
	if p == FIFO || p == EDF {
		return p
	}
	return MP
}

// admission returns the admission options of a policy with admission
// control, and ok = false for a policy that admits every job. margin is
// the scenario's Margin (wave mode only). A new admission variant is a
// Policy constant, its String and a case here.
func (p Policy) admission(margin float64) (opt admission.Options, ok bool) {
	switch p {
	case MPAC:
		return admission.Options{Mode: admission.ModeWave, Margin: margin}, true
	case MPACPaper:
		return admission.Options{Mode: admission.ModePaper}, true
	case MPACStrict:
		return admission.Options{Mode: admission.ModeStrict}, true
	}
	return admission.Options{}, false
}

// slack is MP's at-risk slack under policy p (edf.MPOptions.Slack): Margin
// − 1 for MP+AC, so MP keeps each job ahead of the plan admission checked
// it against; 0 (the paper's MP) for the others.
func (p Policy) slack(margin float64) float64 {
	if p == MPAC {
		return max(0, margin-1)
	}
	return 0
}
