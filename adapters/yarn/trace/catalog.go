package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/schedkit/schedkit/tct"
	"github.com/schedkit/schedkit/tct/jct"
)

// A Catalog holds the fitted model of each job type: what the import
// subcommand writes (-models FILE) and the controller reads to predict the
// apps that name a type in their schedkit.io/job-type tag.
type Catalog struct {
	// Source describes the input the models were fitted to.
	Source string    `json:"source,omitempty"`
	Types  []JobType `json:"types"`
}

// A JobType is the model of one kind of job, fitted to its jobs' task
// attempts. Durations are seconds.
type JobType struct {
	// Name is the type's key, lower case (YARN lower-cases application
	// tags, so an app's schedkit.io/job-type=<name> tag arrives lower case).
	Name string `json:"name"`
	// Jobs is the number of jobs fitted; Maps and Reduces the median
	// number of successful map and reduce attempts per job.
	Jobs    int `json:"jobs"`
	Maps    int `json:"maps"`
	Reduces int `json:"reduces"`
	// Map is the lognormal of a map attempt's run time (tct; Lee thesis
	// §5.2.1), Reduce that of a reduce attempt (nil for a map-only type),
	// shuffle included.
	Map    LognormalFit  `json:"map"`
	Reduce *LognormalFit `json:"reduce,omitempty"`
	// Arrival is the lognormal of a container's arrival after the job's
	// submission: the start offsets of each job's first wave (as many
	// earliest attempts as the job's peak number of concurrent attempts).
	Arrival LognormalFit `json:"arrival"`
	// Exp2 is the exp2 model of a map attempt's run time against the
	// residual CPU capacity of its slot (MIMP Eq. 1), fitted only when
	// the input gives residual capacities (FitOptions.HostCores); nil
	// otherwise.
	Exp2 *Exp2Fit `json:"exp2,omitempty"`
}

// A LognormalFit is a lognormal fitted by maximum likelihood
// (jct.LognormalFromSamples) and how well it matches its samples.
type LognormalFit struct {
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Samples int     `json:"samples"`
	// MeanS, MedianS and P90S are the fitted distribution's; MinS and MaxS
	// the samples'.
	MeanS   float64 `json:"mean_s"`
	MedianS float64 `json:"median_s"`
	P90S    float64 `json:"p90_s"`
	MinS    float64 `json:"min_s"`
	MaxS    float64 `json:"max_s"`
	// NRMSE is MIMP Eq. 9 between the sorted samples and the fitted
	// quantiles at the plotting positions (i − ½)/n: the RMSE of the Q–Q
	// plot over the samples' range. KS is the Kolmogorov–Smirnov distance
	// between the samples and the fitted CDF.
	NRMSE float64 `json:"nrmse"`
	KS    float64 `json:"ks"`
}

// Lognormal returns the fitted distribution.
func (f LognormalFit) Lognormal() jct.Lognormal { return jct.Lognormal{Mu: f.Mu, Sigma: f.Sigma} }

// An Exp2Fit is the exp2 model in seconds (tct.TrainExp2) and its NRMSE
// (Eq. 9), with the host core count its residual capacities assumed.
type Exp2Fit struct {
	Model     tct.Exp2 `json:"model"`
	NRMSE     float64  `json:"nrmse"`
	Samples   int      `json:"samples"`
	Baseline  float64  `json:"baseline_s"`
	HostCores int      `json:"host_cores"`
}

// TCT returns the task completion time model edf and admission use: the
// exp2 fit when there is one, else the constant model TCT(r) = the map
// lognormal's mean (exp2 with B = C = D = 0). A YARN container is a
// dedicated slot, so the controller evaluates it at r = 1 only.
func (t JobType) TCT() tct.Exp2 {
	if t.Exp2 != nil {
		return t.Exp2.Model
	}
	return tct.Exp2{A: t.Map.MeanS}
}

// shuffleless is the shuffle phase of a model whose reduce lognormal
// already includes the shuffle: e^-30 s, nothing.
var shuffleless = jct.Lognormal{Mu: -30}

// JobModel returns the Monte-Carlo job model (tct; Lee thesis §5.2.2) for
// a job of this type with maps map and reduces reduce tasks left. The
// shuffle phases are zero-length because the reduce fit covers the whole
// reduce attempt. workers is set to 1; jct.WorkersFor ignores it.
func (t JobType) JobModel(maps, reduces int) (jct.JobModel, error) {
	m := jct.JobModel{
		Arrival: t.Arrival.Lognormal(), Map: t.Map.Lognormal(),
		Shuffle1: shuffleless, Shuffle2: shuffleless, Reduce: shuffleless,
		Workers: 1, Maps: maps, Reduces: reduces,
	}
	if reduces > 0 {
		if t.Reduce == nil {
			return jct.JobModel{}, fmt.Errorf("trace: job type %q has no reduce model for %d reduces", t.Name, reduces)
		}
		m.Reduce = t.Reduce.Lognormal()
	}
	return m, m.Validate()
}

// Validate checks a job type read from a file: a name, finite parameters,
// Sigma ≥ 0, a positive map mean, non-negative counts.
func (t JobType) Validate() error {
	bad := func(field string, v any) error {
		return fmt.Errorf("trace: job type %q: %s = %v out of range", t.Name, field, v)
	}
	if t.Name == "" {
		return errors.New("trace: job type without a name")
	}
	if t.Name != strings.ToLower(t.Name) {
		return fmt.Errorf("trace: job type %q: name must be lower case (YARN lower-cases tags)", t.Name)
	}
	if t.Jobs < 0 || t.Maps < 0 || t.Reduces < 0 {
		return bad("jobs/maps/reduces", []int{t.Jobs, t.Maps, t.Reduces})
	}
	fits := map[string]*LognormalFit{"map": &t.Map, "arrival": &t.Arrival, "reduce": t.Reduce}
	for _, k := range []string{"map", "arrival", "reduce"} {
		f := fits[k]
		if f == nil {
			continue
		}
		if err := f.Lognormal().Validate(); err != nil {
			return fmt.Errorf("trace: job type %q: %s: %w", t.Name, k, err)
		}
		if !(f.MeanS > 0) || math.IsInf(f.MeanS, 0) {
			return bad(k+".mean_s", f.MeanS)
		}
	}
	if t.Exp2 != nil {
		if err := t.Exp2.Model.Validate(); err != nil {
			return fmt.Errorf("trace: job type %q: exp2: %w", t.Name, err)
		}
		if v := t.Exp2.Model.TCT(1); !(v > 0) || math.IsInf(v, 0) {
			return bad("exp2 TCT(1)", v)
		}
	}
	return nil
}

// Lookup returns the job type named name (case-insensitive).
func (c Catalog) Lookup(name string) (JobType, bool) {
	name = strings.ToLower(name)
	for _, t := range c.Types {
		if t.Name == name {
			return t, true
		}
	}
	return JobType{}, false
}

// ReadCatalog reads a catalog written by WriteCatalog and validates every
// type; duplicate names are an error.
func ReadCatalog(r io.Reader) (Catalog, error) {
	var c Catalog
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Catalog{}, fmt.Errorf("trace: catalog: %w", err)
	}
	seen := map[string]bool{}
	for _, t := range c.Types {
		if err := t.Validate(); err != nil {
			return Catalog{}, err
		}
		if seen[t.Name] {
			return Catalog{}, fmt.Errorf("trace: catalog: job type %q twice", t.Name)
		}
		seen[t.Name] = true
	}
	return c, nil
}

// WriteCatalog writes c as indented JSON.
func WriteCatalog(w io.Writer, c Catalog) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}
