package placement

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// taraTinyTopology has len(uplinks) racks of perRack identical servers
// (Speed 1, NIC 1000 B/s, no disk time); server i is in rack i/perRack.
func taraTinyTopology(perRack int, uplinks ...float64) Topology {
	t := Topology{}
	for k, u := range uplinks {
		t.Racks = append(t.Racks, Rack{Uplink: u})
		for range perRack {
			t.Servers = append(t.Servers, Server{Rack: k, FreeSlots: 1, Speed: 1, NIC: 1000, Disk: math.Inf(1)})
		}
	}
	return t
}

// taraTinyApp is worked by hand in TestPredictHandWorked: 4 VMs, 100 bytes of
// input each in one 100-byte split, one slot of each kind.
func taraTinyApp() Application {
	return Application{
		VMs: 4, MapSlots: 1, ReduceSlots: 1,
		InputBytes: 400, SplitBytes: 100,
		MapSelectivity: 1, ReduceSelectivity: 1,
		MapCostPerByte: 0.01, ReduceCostPerByte: 0.02,
		TaskOverhead: 1, Replication: 2,
	}
}

func TestPredictHandWorked(t *testing.T) {
	// Map: one wave, 1 + 100·0.01 = 2 s. Reduce: 1 + (400/4)·0.02 = 3 s.
	// Shuffle: D/r² = 25 bytes per VM pair; NIC (r−1)·25/1000 = 0.075 s.
	// Write: O/r = 100 bytes per VM, e = 1 extra copy; NIC 100/1000 = 0.1 s.
	bg := taraTinyTopology(4, 100, 100)
	bg.Racks[1].BackgroundUplink = 50
	taraCheckPredictions(t, []taraPredictCase{
		// One rack: no uplink traffic, NICs bound both network phases.
		{"one rack", taraTinyTopology(4, 100, 100), []int{0, 1, 2, 3},
			Prediction{Map: 2, Shuffle: 0.075, Reduce: 3, Write: 0.1, Total: 5.175, Uplink: 0}},
		// 2+2: uplinks carry 2·2·25 = 100 bytes of shuffle (1 s); writes send
		// 2·100 out and receive 100·2·(2/2) = 200 (2 s).
		{"two and two", taraTinyTopology(4, 100, 100), []int{0, 1, 4, 5},
			Prediction{Map: 2, Shuffle: 1, Reduce: 3, Write: 2, Total: 8, Uplink: 0.925 + 1.9}},
		// 3+1: shuffle 3·1·25 = 75 bytes (0.75 s); writes: rack 0 sends 300,
		// receives 100·3·(1/3) = 100; rack 1 sends 100, receives
		// 100·1·(3/1) = 300: 3 s.
		{"three and one", taraTinyTopology(4, 100, 100), []int{0, 1, 2, 4},
			Prediction{Map: 2, Shuffle: 0.75, Reduce: 3, Write: 3, Total: 8.75, Uplink: 0.675 + 2.9}},
		// 3+1 with rack 0's uplink doubled: rack 0 sends 300 (1.5 s) and
		// receives 100; rack 1 receives 300 over 100 B/s (3 s, its incoming
		// replicas bound the write). Shuffle: rack 1 carries 75 bytes (0.75 s).
		{"three and one, slow rack receives", taraTinyTopology(4, 200, 100), []int{0, 1, 2, 4},
			Prediction{Map: 2, Shuffle: 0.75, Reduce: 3, Write: 3, Total: 8.75, Uplink: 0.675 + 2.9}},
		// Background traffic of 50 B/s on rack 1's uplink halves what is left.
		{"background uplink", bg, []int{0, 1, 4, 5},
			Prediction{Map: 2, Shuffle: 2, Reduce: 3, Write: 4, Total: 11, Uplink: 1.925 + 3.9}},
	})
}

// A taraPredictCase is a placement of taraTinyApp and its hand-worked
// prediction.
type taraPredictCase struct {
	name    string
	topo    Topology
	servers []int
	want    Prediction
}

func taraCheckPredictions(t *testing.T, cases []taraPredictCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := NewEvaluator(tt.topo, taraTinyApp())
			if err != nil {
				t.Fatal(err)
			}
			got, err := ev.Predict(tt.servers)
			if err != nil {
				t.Fatal(err)
			}
			pairs := [][2]float64{{got.Map, tt.want.Map}, {got.Shuffle, tt.want.Shuffle}, {got.Reduce, tt.want.Reduce},
				{got.Write, tt.want.Write}, {got.Total, tt.want.Total}, {got.Uplink, tt.want.Uplink}}
			for _, p := range pairs {
				if !scalar.EqualWithinAbsOrRel(p[0], p[1], 1e-12, 1e-12) {
					t.Fatalf("got %+v, want %+v", got, tt.want)
				}
			}
		})
	}
}

// TestPredictDiskHandWorked: the tiny job on disks of 100 B/s. Each VM holds
// 100 bytes: map reads them and spills 100 (2 s on the disk, after 2 s of
// CPU: 4 s); reduce reads 100 (1 s, plus 3 s of CPU: 4 s); the shuffle
// reads 100 and writes 100 per disk (2 s, above the NICs' 0.075 s); the
// write puts the VM's block and one replica on disk (2 s, NICs 0.1 s).
func TestPredictDiskHandWorked(t *testing.T) {
	withDisk := func(disk, background float64, uplinks ...float64) Topology {
		top := taraTinyTopology(4, uplinks...)
		for i := range top.Servers {
			top.Servers[i].Disk, top.Servers[i].BackgroundDisk = disk, background
		}
		return top
	}
	slowDisk := withDisk(100, 0, 100, 100)
	slowDisk.Servers[1].Disk = 50 // doubles every disk time of server 1
	defaultDisk := withDisk(0, 0, 100, 100)
	defaultDisk.Servers[0].BackgroundDisk = DefaultDisk - 100 // leaves 100 B/s
	taraCheckPredictions(t, []taraPredictCase{
		{"one rack", withDisk(100, 0, 100, 100), []int{0, 1, 2, 3},
			Prediction{Map: 4, Shuffle: 2, Reduce: 4, Write: 2, Total: 12, Uplink: 0}},
		// 2+2: the uplinks need 1 s of shuffle and 2 s of write, no more
		// than the disks: placement changes nothing.
		{"two and two", withDisk(100, 0, 100, 100), []int{0, 1, 4, 5},
			Prediction{Map: 4, Shuffle: 2, Reduce: 4, Write: 2, Total: 12, Uplink: 0}},
		// 3+1: rack 1 receives 300 bytes of replicas over 100 B/s (3 s), 1 s
		// more than the disks need.
		{"three and one", withDisk(100, 0, 100, 100), []int{0, 1, 2, 4},
			Prediction{Map: 4, Shuffle: 2, Reduce: 4, Write: 3, Total: 13, Uplink: 1}},
		{"background disk traffic", withDisk(200, 100, 100, 100), []int{0, 1, 2, 3},
			Prediction{Map: 4, Shuffle: 2, Reduce: 4, Write: 2, Total: 12, Uplink: 0}},
		{"one slow disk", slowDisk, []int{0, 1, 2, 3},
			Prediction{Map: 6, Shuffle: 4, Reduce: 5, Write: 4, Total: 19, Uplink: 0}},
		{"zero means DefaultDisk", defaultDisk, []int{0, 1, 2, 3},
			Prediction{Map: 4, Shuffle: 2, Reduce: 4, Write: 2, Total: 12, Uplink: 0}},
	})
}

// TestPredictRanking checks placements whose order is known by construction.
func TestPredictRanking(t *testing.T) {
	thesis := ThesisTopology()
	app40 := ThesisSort()
	app40.VMs = 40
	// 40 VMs: the whole of rack 0 (800 Mbit/s) against one server in each
	// rack, two on the slowest (200 Mbit/s) uplinks.
	var spread []int
	for k := range 20 {
		spread = append(spread, 40*k)
		if k == 6 || k == 13 {
			for j := 1; j <= 10; j++ {
				spread = append(spread, 40*k+j)
			}
		}
	}
	spread = spread[:40]

	double := taraTinyTopology(4, 100, 200, 200)
	bgLink := taraTinyTopology(4, 100, 100, 100)
	bgLink.Racks[1].BackgroundUplink = 60
	slowCPU := taraTinyTopology(4, 100, 100)
	slowCPU.Servers[1].BackgroundCPU = 0.5
	busyNIC := taraTinyTopology(4, 100, 100)
	busyNIC.Servers[1].NIC = 10
	busyNIC.Servers[1].BackgroundNIC = 9

	tests := []struct {
		name         string
		topo         Topology
		app          Application
		better, wors []int
	}{
		{"one rack that fits vs spread over slow uplinks", thesis, app40, taraRange(0, 40), spread},
		{"racks with double the uplink", double, taraTinyApp(), []int{4, 5, 8, 9}, []int{0, 1, 8, 9}},
		{"background load on an uplink", bgLink, taraTinyApp(), []int{0, 1, 8, 9}, []int{0, 1, 4, 5}},
		{"background CPU on a server", slowCPU, taraTinyApp(), []int{0, 2, 4, 5}, []int{0, 1, 4, 5}},
		{"background traffic on a NIC", busyNIC, taraTinyApp(), []int{0, 2, 3, 4}, []int{0, 1, 2, 3}},
		{"thesis: 10 per best rack beats 40 per best rack", thesis, ThesisSort(), taraPerRack(10, 0, 7, 14, 1, 8, 15, 2, 9), taraPerRack(40, 0, 7)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := NewEvaluator(tt.topo, tt.app)
			if err != nil {
				t.Fatal(err)
			}
			b, err := ev.CompletionTime(tt.better)
			if err != nil {
				t.Fatal(err)
			}
			w, err := ev.CompletionTime(tt.wors)
			if err != nil {
				t.Fatal(err)
			}
			if !(b < w) {
				t.Fatalf("better placement %v s, worse %v s", b, w)
			}
		})
	}
}

func taraRange(lo, hi int) []int {
	var s []int
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

// taraPerRack takes the first n servers of each listed rack of ThesisTopology.
func taraPerRack(n int, racks ...int) []int {
	var s []int
	for _, k := range racks {
		s = append(s, taraRange(40*k, 40*k+n)...)
	}
	return s
}

func TestPredictSingleVM(t *testing.T) {
	app := taraTinyApp()
	app.VMs = 1
	ev, err := NewEvaluator(taraTinyTopology(2, 100), app)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ev.Predict([]int{1})
	if err != nil {
		t.Fatal(err)
	}
	// 400 bytes in 4 splits, one slot: 4 waves of 1 + 1 s; reduce 1 + 8 s;
	// no network traffic at all.
	if p != (Prediction{Map: 8, Reduce: 9, Total: 17}) {
		t.Fatalf("got %+v", p)
	}
}

func TestEvaluatorAllocs(t *testing.T) {
	top, app := ThesisTopology(), ThesisSort()
	ev, err := NewEvaluator(top, app)
	if err != nil {
		t.Fatal(err)
	}
	s, err := RoundRobinRacks.Place(top, app.VMs)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = ev.CompletionTime(s) }); n != 0 {
		t.Fatalf("CompletionTime allocates %v times per call", n)
	}
}

func TestEvaluatorEpochWrap(t *testing.T) {
	ev, err := NewEvaluator(taraTinyTopology(4, 100, 100), taraTinyApp())
	if err != nil {
		t.Fatal(err)
	}
	ev.epoch = math.MaxUint32 - 1
	for range 4 {
		if _, err := ev.Predict([]int{0, 1, 4, 5}); err != nil {
			t.Fatalf("valid placement rejected after epoch wrap: %v", err)
		}
	}
	if _, err := ev.Predict([]int{0, 1, 4, 4}); !errors.Is(err, ErrBadInput) {
		t.Fatalf("duplicate accepted after wrap: %v", err)
	}
}

func TestNewEvaluatorBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	topo := func(f func(*Topology)) Topology {
		t := taraTinyTopology(4, 100, 100)
		f(&t)
		return t
	}
	app := func(f func(*Application)) Application {
		a := taraTinyApp()
		f(&a)
		return a
	}
	good := taraTinyTopology(4, 100, 100)
	tests := []struct {
		name  string
		topo  Topology
		app   Application
		field string
	}{
		{"no racks", Topology{Servers: good.Servers}, taraTinyApp(), "Topology.Racks"},
		{"no servers", Topology{Racks: good.Racks}, taraTinyApp(), "Topology.Servers"},
		{"NaN uplink", topo(func(t *Topology) { t.Racks[1].Uplink = nan }), taraTinyApp(), "Racks[1].Uplink"},
		{"Inf uplink", topo(func(t *Topology) { t.Racks[0].Uplink = inf }), taraTinyApp(), "Racks[0].Uplink"},
		{"zero uplink", topo(func(t *Topology) { t.Racks[0].Uplink = 0 }), taraTinyApp(), "Racks[0].Uplink"},
		{"saturated uplink", topo(func(t *Topology) { t.Racks[0].BackgroundUplink = 100 }), taraTinyApp(), "Racks[0].BackgroundUplink"},
		{"negative background", topo(func(t *Topology) { t.Racks[0].BackgroundUplink = -1 }), taraTinyApp(), "Racks[0].BackgroundUplink"},
		{"rack index", topo(func(t *Topology) { t.Servers[3].Rack = 2 }), taraTinyApp(), "Servers[3].Rack"},
		{"negative rack", topo(func(t *Topology) { t.Servers[3].Rack = -1 }), taraTinyApp(), "Servers[3].Rack"},
		{"negative slots", topo(func(t *Topology) { t.Servers[2].FreeSlots = -1 }), taraTinyApp(), "Servers[2].FreeSlots"},
		{"zero speed", topo(func(t *Topology) { t.Servers[2].Speed = 0 }), taraTinyApp(), "Servers[2].Speed"},
		{"NaN speed", topo(func(t *Topology) { t.Servers[2].Speed = nan }), taraTinyApp(), "Servers[2].Speed"},
		{"subnormal speed", topo(func(t *Topology) {
			t.Servers[2].Speed = 5e-324
			t.Servers[2].BackgroundCPU = 0.6
		}), taraTinyApp(), "Servers[2].Speed"},
		{"full CPU", topo(func(t *Topology) { t.Servers[2].BackgroundCPU = 1 }), taraTinyApp(), "Servers[2].BackgroundCPU"},
		{"NaN NIC", topo(func(t *Topology) { t.Servers[2].NIC = nan }), taraTinyApp(), "Servers[2].NIC"},
		{"saturated NIC", topo(func(t *Topology) { t.Servers[2].BackgroundNIC = 1000 }), taraTinyApp(), "Servers[2].BackgroundNIC"},
		{"NaN disk", topo(func(t *Topology) { t.Servers[2].Disk = nan }), taraTinyApp(), "Servers[2].Disk"},
		{"negative disk", topo(func(t *Topology) { t.Servers[2].Disk = -1 }), taraTinyApp(), "Servers[2].Disk"},
		{"saturated disk", topo(func(t *Topology) { t.Servers[2].Disk, t.Servers[2].BackgroundDisk = 10, 10 }), taraTinyApp(), "Servers[2].BackgroundDisk"},
		{"saturated default disk", topo(func(t *Topology) { t.Servers[2].Disk, t.Servers[2].BackgroundDisk = 0, DefaultDisk }), taraTinyApp(), "Servers[2].BackgroundDisk"},
		{"infinite disk traffic", topo(func(t *Topology) { t.Servers[2].BackgroundDisk = inf }), taraTinyApp(), "Servers[2].BackgroundDisk"},
		{"NaN disk traffic", topo(func(t *Topology) { t.Servers[2].BackgroundDisk = nan }), taraTinyApp(), "Servers[2].BackgroundDisk"},
		{"negative disk traffic", topo(func(t *Topology) { t.Servers[2].BackgroundDisk = -1 }), taraTinyApp(), "Servers[2].BackgroundDisk"},
		{"too many VMs", topo(func(t *Topology) { t.Servers[0].FreeSlots = 0 }), app(func(a *Application) { a.VMs = 8 }), "Application.VMs"},
		{"zero VMs", good, app(func(a *Application) { a.VMs = 0 }), "Application.VMs"},
		{"zero map slots", good, app(func(a *Application) { a.MapSlots = 0 }), "Application.MapSlots"},
		{"zero reduce slots", good, app(func(a *Application) { a.ReduceSlots = -2 }), "Application.ReduceSlots"},
		{"zero replication", good, app(func(a *Application) { a.Replication = 0 }), "Application.Replication"},
		{"huge replication", good, app(func(a *Application) { a.Replication = 1000 }), "Application.Replication"},
		{"zero split", good, app(func(a *Application) { a.SplitBytes = 0 }), "Application.SplitBytes"},
		{"tiny split", good, app(func(a *Application) { a.SplitBytes = 1e-300 }), "Application.SplitBytes"},
		{"NaN input", good, app(func(a *Application) { a.InputBytes = nan }), "Application.InputBytes"},
		{"huge input", good, app(func(a *Application) { a.InputBytes = 1e307; a.SplitBytes = 1e300; a.MapCostPerByte = 1e10 }), "Application.InputBytes"},
		{"negative selectivity", good, app(func(a *Application) { a.MapSelectivity = -1 }), "Application.MapSelectivity"},
		{"Inf reduce selectivity", good, app(func(a *Application) { a.ReduceSelectivity = inf }), "Application.ReduceSelectivity"},
		{"NaN map cost", good, app(func(a *Application) { a.MapCostPerByte = nan }), "Application.MapCostPerByte"},
		{"negative reduce cost", good, app(func(a *Application) { a.ReduceCostPerByte = -1e-9 }), "Application.ReduceCostPerByte"},
		{"negative overhead", good, app(func(a *Application) { a.TaskOverhead = -1 }), "Application.TaskOverhead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewEvaluator(tt.topo, tt.app)
			wantField(t, err, tt.field)
		})
	}
}

func TestPredictBadPlacement(t *testing.T) {
	top := taraTinyTopology(4, 100, 100)
	top.Servers[7].FreeSlots = 0
	ev, err := NewEvaluator(top, taraTinyApp())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		servers []int
		field   string
	}{
		{"nil", nil, "servers"},
		{"too few", []int{0, 1, 2}, "servers"},
		{"too many", []int{0, 1, 2, 3, 4}, "servers"},
		{"negative index", []int{0, 1, 2, -1}, "servers[3]"},
		{"index past the end", []int{0, 8, 2, 3}, "servers[1]"},
		{"huge index", []int{math.MaxInt, 1, 2, 3}, "servers[0]"},
		{"no free slot", []int{0, 1, 7, 3}, "servers[2]"},
		{"duplicate", []int{0, 1, 2, 1}, "servers[3]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ev.Predict(tt.servers)
			wantField(t, err, tt.field)
		})
	}
	// A rejected placement leaves the evaluator usable.
	if _, err := ev.Predict([]int{0, 1, 2, 3}); err != nil {
		t.Fatal(err)
	}
}
