package rm

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestTolerantScalars(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{`1024`, 1024, true},
		{`"1024"`, 1024, true}, // reservation list (ResourceManagerRest.md example)
		{`100.0`, 100, true},   // a float-typed field written for an int
		{`-1`, -1, true},       // remainingTimeInSeconds of an unlimited timeout
		{`null`, 0, true},
		{`""`, 0, true},
		{`1.5`, 0, false},
		{`"abc"`, 0, false},
		{`9223372036854775808`, 0, false}, // beyond int64
		{`1e300`, 0, false},
		{`[1]`, 0, false},
		{`{}`, 0, false},
		{`true`, 0, false},
	}
	for _, tt := range ints {
		var n Int64
		err := json.Unmarshal([]byte(tt.in), &n)
		if (err == nil) != tt.ok || (tt.ok && int64(n) != tt.want) {
			t.Errorf("Int64 %s = %d, %v; want %d, ok %v", tt.in, n, err, tt.want, tt.ok)
		}
	}
	floats := []struct {
		in   string
		want float64
		ok   bool
	}{
		{`100`, 100, true},
		{`"30.000002"`, 30.000002, true},
		{`"Infinity"`, math.Inf(1), true},
		{`null`, 0, true},
		{`"x"`, 0, false},
	}
	for _, tt := range floats {
		var f Float
		err := json.Unmarshal([]byte(tt.in), &f)
		if (err == nil) != tt.ok || (tt.ok && float64(f) != tt.want) {
			t.Errorf("Float %s = %v, %v; want %v, ok %v", tt.in, f, err, tt.want, tt.ok)
		}
	}
	var nan Float
	if err := json.Unmarshal([]byte(`"NaN"`), &nan); err != nil || !math.IsNaN(float64(nan)) {
		t.Errorf(`Float "NaN" = %v, %v: the FIFO scheduler's documented usedCapacity`, nan, err)
	}
	for in, want := range map[string]bool{`true`: true, `"false"`: false, `"TRUE"`: true, `null`: false} {
		var b Bool
		if err := json.Unmarshal([]byte(in), &b); err != nil || bool(b) != want {
			t.Errorf("Bool %s = %v, %v", in, b, err)
		}
	}
	var b Bool
	if err := json.Unmarshal([]byte(`"yes"`), &b); err == nil {
		t.Error(`Bool "yes" accepted`)
	}
	var s String
	if err := json.Unmarshal([]byte(`1`), &s); err != nil || s != "1" {
		t.Errorf("String 1 = %q, %v (an app attempt's id is a number)", s, err)
	}
}

func TestListForms(t *testing.T) {
	for in, want := range map[string]int{`[{"id":"a"},{"id":"b"}]`: 2, `{"id":"a"}`: 1, `null`: 0, `[]`: 0} {
		var l List[App]
		if err := json.Unmarshal([]byte(in), &l); err != nil || len(l) != want {
			t.Errorf("List %s: %d elements, %v; want %d", in, len(l), err, want)
		}
	}
	var l List[App]
	if err := json.Unmarshal([]byte(`"x"`), &l); err == nil {
		t.Error(`List "x" accepted`)
	}
}

// TestAppPriorityNames: the documented examples write applicationPriority
// as a number; other versions write "priority", and the documentation's
// table types it as a string.
func TestAppPriorityNames(t *testing.T) {
	for in, want := range map[string]int64{
		`{"id":"a","applicationPriority":3}`: 3,
		`{"id":"a","priority":"5"}`:          5,
		`{"id":"a"}`:                         0,
	} {
		var a App
		if err := json.Unmarshal([]byte(in), &a); err != nil || a.Priority() != want {
			t.Errorf("%s: priority %d, %v; want %d", in, a.Priority(), err, want)
		}
	}
	a := App{ApplicationTags: " Schedkit.Deadline=1, ,tag2 "}
	if got := a.Tags(); len(got) != 2 || got[0] != "Schedkit.Deadline=1" || got[1] != "tag2" {
		t.Errorf("Tags() = %q", got)
	}
}

// TestReservationListExample decodes the JSON response example of
// ResourceManagerRest.md "Cluster Reservation API List": every number
// quoted, the reservations and the reservation-request written as single
// objects.
func TestReservationListExample(t *testing.T) {
	body := `{"reservations": {"acceptance-time": "1455160008442", "user": "submitter",
	  "resource-allocations": [{"resource": {"memory": "0", "vCores": "0"}, "startTime": "1465541532000", "endTime": "1465542250000"},
	    {"resource": {"memory": "1024", "vCores": "1"}, "startTime": "1465542250000", "endTime": "1465542251000"}],
	  "reservation-id": "reservation_1458852875788_0002",
	  "reservation-definition": {"arrival": "1465541532000", "deadline": "1465542252000",
	    "reservation-requests": {"reservation-request-interpreter": "0",
	      "reservation-request": {"capability": {"memory": "1024", "vCores": "1"}, "min-concurrency": "1", "num-containers": "1", "duration": "60"}},
	    "reservation-name": "res_1"}}}`
	var out struct {
		Reservations List[Reservation] `json:"reservations"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Reservations) != 1 {
		t.Fatalf("%d reservations", len(out.Reservations))
	}
	r := out.Reservations[0]
	q := r.Definition.Requests.Request
	if r.ID != "reservation_1458852875788_0002" || r.Definition.Arrival != 1465541532000 || len(q) != 1 ||
		q[0].Capability.Memory != 1024 || q[0].Duration != 60 || len(r.Allocations) != 2 || r.Allocations[1].Resource.VCores != 1 {
		t.Errorf("decoded %+v", r)
	}
}

// propDecodeApps: any bytes decode into an app list or give an error,
// never a panic; a decoded progress is whatever number was written (the
// planner checks its range).
func propDecodeApps(t *rapid.T) {
	b := rapid.OneOf(rapid.SliceOf(rapid.Byte()), rapid.Custom(func(t *rapid.T) []byte {
		parts := rapid.SliceOf(rapid.SampledFrom([]string{`{"apps":`, `{"app":[`, `{"id":"application_1_1"`,
			`,"progress":`, `"NaN"`, `1e999`, `,"applicationPriority":"7"`, `}`, `]`, `null`, `,`, `"`})).Draw(t, "parts")
		return []byte(strings.Join(parts, ""))
	})).Draw(t, "body")
	var out struct {
		Apps *struct {
			App List[App] `json:"app"`
		} `json:"apps"`
	}
	_ = json.Unmarshal(b, &out)
}

func TestDecodeAppsProperties(t *testing.T) { rapid.Check(t, propDecodeApps) }
func FuzzDecodeApps(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(propDecodeApps)) }
