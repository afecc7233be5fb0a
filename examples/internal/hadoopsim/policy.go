package hadoopsim

import (
	"fmt"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
)

// Policy is a job scheduler of the case study.
type Policy int

const (
	FIFO       Policy = iota // MIMP §5.2 FIFO
	EDF                      // MIMP §5.2 EDF
	MPPaper                  // MIMP §5.2 Maximum Progress as printed, IO check on
	MP                       // MPPaper protecting deadlines against the models' errors (Scenario.TCTError)
	MPAC                     // MIMP's MP with wave-aware admission (admission.ModeWave) and MP's slack
	MPACPaper                // MP with the paper's admission rule (Eq. 6–7)
	MPACStrict               // MP with strict Eq. 6–7 admission (every queued deadline checked)
	numPolicies
)

// Policies lists every policy in the order of MIMP Table 3 plus admission.
var Policies = []Policy{FIFO, EDF, MPPaper, MP, MPAC, MPACPaper, MPACStrict}

// String returns "FIFO", "EDF", "MP-paper", "MP", "MP+AC", "MP+AC-paper" or
// "MP+AC-strict".
func (p Policy) String() string {
	switch p {
	case FIFO:
		return "FIFO"
	case EDF:
		return "EDF"
	case MPPaper:
		return "MP-paper"
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

// mpOptions are MP's options under policy p in scenario s: MP protects
// deadlines against s.TCTError (edf.MPOptions.TCTError); MP-paper,
// MP+AC, MP+AC-paper and MP+AC-strict run the paper's MP (MP+AC with its
// queue's margin, edfMargin). Every MP checks data-node IO unless
// s.NoIOCheck.
func (p Policy) mpOptions(s *Scenario) edf.MPOptions {
	opt := edf.MPOptions{NoIOCheck: s.NoIOCheck}
	if p == MP {
		opt.TCTError = s.TCTError
	}
	return opt
}

// edfMargin is the margin of policy p's edf queue (edf.Config.Margin) in a
// scenario with margin m: MP+AC plans task ends and keeps MP's deadline
// jobs ahead of the plan admission checked them against with the
// scenario's margin (0 meaning 1); every other policy with 1, MIMP's
// at-risk test.
func (p Policy) edfMargin(m float64) float64 {
	if p == MPAC {
		return m
	}
	return 0
}
