package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// slsData is Hadoop SLS's sample data beside the repository
// (../shared/traces/hadoop-sls from the repository root). A missing file
// fails the test.
var slsData = filepath.Join("..", "..", "..", "..", "shared", "traces", "hadoop-sls")

func openTrace(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(slsData, name))
	if err != nil {
		t.Fatalf("the shared trace is required: %v", err)
	}
	return b
}

// rawAttempts decodes the Rumen file without the importer: every attempt's
// job, start and finish, as generic JSON.
func rawAttempts(t *testing.T, b []byte) map[string][][2]int64 {
	t.Helper()
	out := map[string][][2]int64{}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		var job map[string]any
		if err := dec.Decode(&job); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		id := job["jobID"].(string)
		for _, list := range []string{"mapTasks", "reduceTasks"} {
			tasks, _ := job[list].([]any)
			for _, task := range tasks {
				for _, a := range task.(map[string]any)["attempts"].([]any) {
					am := a.(map[string]any)
					s, _ := am["startTime"].(json.Number).Int64()
					f, _ := am["finishTime"].(json.Number).Int64()
					out[id] = append(out[id], [2]int64{s, f})
				}
			}
		}
	}
	return out
}

// TestRumenRealTrace reads the real TeraGen trace: 2 jobs, 192 successful
// map attempts, every start and finish equal to the file's to the
// millisecond.
func TestRumenRealTrace(t *testing.T) {
	b := openTrace(t, "2jobs2min-rumen-jh.json")
	jobs, err := ReadRumen(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	raw := rawAttempts(t, b)
	if len(jobs) != 2 || jobs[0].ID != "job_1369942127770_1205" || jobs[1].ID != "job_1369942127770_1206" {
		t.Fatalf("jobs %d: %v %v", len(jobs), jobs[0].ID, jobs[len(jobs)-1].ID)
	}
	total := 0
	for _, j := range jobs {
		if err := j.Validate(); err != nil {
			t.Error(err)
		}
		if j.Name != "TeraGen" || j.Queue == "" || j.Submit <= 0 || j.Finish <= j.Submit {
			t.Errorf("job %s: %+v", j.ID, j)
		}
		if len(j.Tasks) != len(raw[j.ID]) {
			t.Fatalf("job %s: %d tasks, the file has %d attempts", j.ID, len(j.Tasks), len(raw[j.ID]))
		}
		for i, task := range j.Tasks {
			if task.Type != Map || !task.Succeeded || task.Host == "" {
				t.Errorf("job %s task %d: %+v", j.ID, i, task)
			}
			if task.Start != raw[j.ID][i][0] || task.Finish != raw[j.ID][i][1] {
				t.Errorf("job %s task %d: %d–%d, the file says %d–%d", j.ID, i, task.Start, task.Finish, raw[j.ID][i][0], raw[j.ID][i][1])
			}
		}
		total += len(j.Durations(Map))
	}
	if total != 192 {
		t.Errorf("%d successful map attempts, want 192", total)
	}
	// Shared traces README: job 1205's attempts run 11.143 s to 47.021 s.
	d := jobs[0].Durations(Map)
	if slices.Min(d) != 11.143 || slices.Max(d) != 47.021 {
		t.Errorf("job 1205 attempt range %v–%v s", slices.Min(d), slices.Max(d))
	}
}

// TestRumenRealTraceFit checks the fitted lognormal against its definition
// computed here without tct: Mu and Sigma the mean and population
// standard deviation of ln d, NRMSE the RMSE between the sorted durations
// and e^(Mu + Sigma·√2·erfinv(2p−1)) at p = (i−½)/n over their range.
func TestRumenRealTraceFit(t *testing.T) {
	jobs, err := ReadRumen(bytes.NewReader(openTrace(t, "2jobs2min-rumen-jh.json")))
	if err != nil {
		t.Fatal(err)
	}
	cat, perJob, err := Fit(jobs, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Types) != 1 || cat.Types[0].Name != "teragen" || len(perJob) != 2 {
		t.Fatalf("catalog %+v, %d job fits", cat, len(perJob))
	}
	typ := cat.Types[0]
	var d []float64
	for _, j := range jobs {
		d = append(d, j.Durations(Map)...)
	}
	slices.Sort(d)
	var mu, ss float64
	for _, x := range d {
		mu += math.Log(x)
	}
	mu /= float64(len(d))
	for _, x := range d {
		ss += (math.Log(x) - mu) * (math.Log(x) - mu)
	}
	sigma := math.Sqrt(ss / float64(len(d)))
	var se float64
	for i, x := range d {
		p := (float64(i) + 0.5) / float64(len(d))
		q := math.Exp(mu + sigma*math.Sqrt2*math.Erfinv(2*p-1))
		se += (x - q) * (x - q)
	}
	nrmse := math.Sqrt(se/float64(len(d))) / (d[len(d)-1] - d[0])
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
	if !near(typ.Map.Mu, mu, 1e-12) || !near(typ.Map.Sigma, sigma, 1e-12) || !near(typ.Map.NRMSE, nrmse, 1e-9) {
		t.Errorf("fit μ=%v σ=%v NRMSE=%v; by definition μ=%v σ=%v NRMSE=%v", typ.Map.Mu, typ.Map.Sigma, typ.Map.NRMSE, mu, sigma, nrmse)
	}
	// The figures the package doc gives.
	if math.Abs(typ.Map.Mu-3.0015) > 5e-5 || math.Abs(typ.Map.Sigma-0.2388) > 5e-5 || math.Abs(typ.Map.NRMSE-0.0716) > 5e-5 {
		t.Errorf("teragen map fit μ=%.4f σ=%.4f NRMSE=%.4f, the package doc says 3.0015, 0.2388, 0.0716", typ.Map.Mu, typ.Map.Sigma, typ.Map.NRMSE)
	}
	if typ.Maps != 96 || typ.Reduces != 0 || typ.Reduce != nil || typ.Map.Samples != 192 || typ.Arrival.Samples == 0 {
		t.Errorf("counts %+v", typ)
	}
	if got := typ.TCT().TCT(1); !near(got, typ.Map.MeanS, 1e-12) {
		t.Errorf("TCT(1) = %v, want the lognormal mean %v", got, typ.Map.MeanS)
	}
}

// TestSLSFromRealTrace converts the Rumen trace as RumenToSLSConverter
// does and checks it against Hadoop's own SLS fixture inputsls.json, whose
// job times and first containers come from the same trace (shared traces
// README): job_2 starts at 105204 ms and job_1's first two containers run
// 6664–23707 and 6665–21593 ms.
func TestSLSFromRealTrace(t *testing.T) {
	jobs, err := ReadRumen(bytes.NewReader(openTrace(t, "2jobs2min-rumen-jh.json")))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := WriteSLS(&buf, jobs, SLSOptions{DeadlineFactor: 1.5})
	if err != nil || n != 2 {
		t.Fatalf("WriteSLS = %d, %v", n, err)
	}
	back, err := ReadSLS(&buf)
	if err != nil {
		t.Fatal(err)
	}
	fixture, err := ReadSLS(bytes.NewReader(openTrace(t, "inputsls.json")))
	if err != nil {
		t.Fatal(err)
	}
	if len(fixture) != 2 || len(fixture[0].Tasks) != 3 || len(fixture[1].Tasks) != 2 {
		t.Fatalf("inputsls.json read as %d jobs", len(fixture))
	}
	if back[1].Submit != fixture[1].Submit || back[0].Submit != 0 {
		t.Errorf("job starts %d, %d; inputsls.json says 0, %d", back[0].Submit, back[1].Submit, fixture[1].Submit)
	}
	for i := 0; i < 2; i++ {
		if back[0].Tasks[i].Start != fixture[0].Tasks[i].Start || back[0].Tasks[i].Finish != fixture[0].Tasks[i].Finish {
			t.Errorf("container %d: %d–%d, inputsls.json %d–%d", i, back[0].Tasks[i].Start, back[0].Tasks[i].Finish,
				fixture[0].Tasks[i].Start, fixture[0].Tasks[i].Finish)
		}
	}
	for k, j := range back {
		run := jobs[k].Finish - jobs[k].Submit
		if want := j.Submit + int64(math.Ceil(1.5*float64(run))); j.Deadline != want {
			t.Errorf("job %s deadline %d, want %d", j.ID, j.Deadline, want)
		}
		for i, task := range j.Tasks {
			if task.Duration() != jobs[k].Tasks[i].Duration() {
				t.Errorf("job %s container %d lasts %d ms, the trace %d", j.ID, i, task.Duration(), jobs[k].Tasks[i].Duration())
			}
		}
	}
}
