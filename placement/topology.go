package placement

import (
	"fmt"
	"math"
)

// A Rack is one top-of-rack switch and its uplink to the network core (Lee
// thesis §3.2.1.3, §3.3.3.1). Bandwidths are in bytes per second.
type Rack struct {
	// Uplink is the rack uplink's capacity in each direction, in bytes per
	// second. Valid range (0, +∞).
	Uplink float64
	// BackgroundUplink is the averaged traffic of other workloads on the
	// uplink, in bytes per second in each direction (§3.2.2: "we use an
	// averaged value of resource usage including network traffic"). Valid
	// range [0, Uplink): the job gets Uplink − BackgroundUplink.
	BackgroundUplink float64
}

// A Server is one physical machine that may host a VM of the request.
type Server struct {
	// Rack is the index of the server's rack in Topology.Racks.
	Rack int
	// FreeSlots is the number of free VM slots. A server with at least one
	// is available; TARA places at most one VM of a request on a server
	// (§3.2.3), so a larger count means the same as 1. Valid range [0, +∞).
	FreeSlots int
	// Speed is the speed of one VM core (one map or reduce slot) relative to
	// the reference core that Application's CPU costs are measured on
	// (1 = reference). Valid range (0, +∞).
	Speed float64
	// BackgroundCPU is the averaged fraction of the core used by other
	// workloads; the job's tasks run at Speed·(1 − BackgroundCPU). Valid range
	// [0, 1).
	BackgroundCPU float64
	// NIC is the server's network interface capacity in each direction, in
	// bytes per second. Valid range (0, +∞).
	NIC float64
	// BackgroundNIC is the averaged traffic of other workloads on the NIC in
	// bytes per second in each direction. Valid range [0, NIC).
	BackgroundNIC float64
	// Disk is the bandwidth of the VM's local disk in bytes per second,
	// shared by its reads and writes (the thesis's "simple disk model",
	// §3.2.2). Zero means DefaultDisk; +Inf leaves disk time out of the
	// prediction. Valid range [0, +∞].
	Disk float64
	// BackgroundDisk is the averaged disk traffic of other workloads in bytes
	// per second. Valid range [0, Disk) (with Disk zero, [0, DefaultDisk)).
	BackgroundDisk float64
}

// DefaultDisk is Server.Disk when the field is zero: 100 MB/s (10^8 bytes
// per second), the sequential rate of one 7,200-rpm SATA disk of the class
// in the thesis's testbed (four 750 GB disks per machine, §3.3.2). The
// thesis does not say how its VMs' disks map onto those four; we give each
// VM one disk.
const DefaultDisk = 100e6

// disk returns the server's disk bandwidth with the default applied.
func (s Server) disk() float64 {
	if s.Disk == 0 {
		return DefaultDisk
	}
	return s.Disk
}

// A Topology is the resource snapshot TARA places a request into (§3.2.1.3):
// racks with their uplinks and the servers in them. The network core above
// the rack uplinks is assumed non-blocking, as in the thesis's emulated
// topology where only rack uplinks were rate-limited (§3.3.3.1).
type Topology struct {
	Racks   []Rack   // at least one, at most MaxRacks
	Servers []Server // at least one, at most MaxServers; Server.Rack indexes Racks
}

// MaxRacks and MaxServers bound len(Topology.Racks) and len(Topology.Servers):
// a million servers is beyond any one data centre, and an Evaluator keeps
// about 50 bytes per server and 28 per rack.
const (
	MaxRacks   = 1 << 20
	MaxServers = 1 << 20
)

// Available returns the indices of the servers with a free VM slot, in
// increasing order. It does not validate t.
func (t Topology) Available() []int {
	var out []int
	for i, s := range t.Servers {
		if s.FreeSlots > 0 {
			out = append(out, i)
		}
	}
	return out
}

// Validate reports the first field of t that is out of range as a *ValueError
// (matching ErrBadInput), or nil. Empty Racks or Servers are errors, and so
// are more than MaxRacks racks or MaxServers servers.
func (t Topology) Validate() error {
	if len(t.Racks) == 0 {
		return &ValueError{Field: "Topology.Racks", Value: 0, Reason: "need at least one rack"}
	}
	if len(t.Servers) == 0 {
		return &ValueError{Field: "Topology.Servers", Value: 0, Reason: "need at least one server"}
	}
	if len(t.Racks) > MaxRacks {
		return &ValueError{Field: "Topology.Racks", Value: len(t.Racks), Reason: "more than MaxRacks = 2^20 racks"}
	}
	if len(t.Servers) > MaxServers {
		return &ValueError{Field: "Topology.Servers", Value: len(t.Servers), Reason: "more than MaxServers = 2^20 servers"}
	}
	for k, r := range t.Racks {
		if !(r.Uplink > 0) || math.IsInf(r.Uplink, 1) {
			return &ValueError{Field: fmt.Sprintf("Racks[%d].Uplink", k), Value: r.Uplink, Reason: "must be finite and > 0"}
		}
		if !(r.BackgroundUplink >= 0) || !(r.BackgroundUplink < r.Uplink) {
			return &ValueError{Field: fmt.Sprintf("Racks[%d].BackgroundUplink", k), Value: r.BackgroundUplink, Reason: "must be in [0, Uplink)"}
		}
	}
	for i, s := range t.Servers {
		f := func(name string) string { return fmt.Sprintf("Servers[%d].%s", i, name) }
		switch {
		case s.Rack < 0 || s.Rack >= len(t.Racks):
			return &ValueError{Field: f("Rack"), Value: s.Rack, Reason: "not a rack index"}
		case s.FreeSlots < 0:
			return &ValueError{Field: f("FreeSlots"), Value: s.FreeSlots, Reason: "must be >= 0"}
		case !(s.Speed > 0) || math.IsInf(s.Speed, 1):
			return &ValueError{Field: f("Speed"), Value: s.Speed, Reason: "must be finite and > 0"}
		case !(s.BackgroundCPU >= 0) || !(s.BackgroundCPU < 1):
			return &ValueError{Field: f("BackgroundCPU"), Value: s.BackgroundCPU, Reason: "must be in [0, 1)"}
		case !(s.NIC > 0) || math.IsInf(s.NIC, 1):
			return &ValueError{Field: f("NIC"), Value: s.NIC, Reason: "must be finite and > 0"}
		case !(s.BackgroundNIC >= 0) || !(s.BackgroundNIC < s.NIC):
			return &ValueError{Field: f("BackgroundNIC"), Value: s.BackgroundNIC, Reason: "must be in [0, NIC)"}
		case !(s.Disk >= 0):
			return &ValueError{Field: f("Disk"), Value: s.Disk, Reason: "must be >= 0 (0: DefaultDisk, +Inf: no disk time)"}
		case !(s.BackgroundDisk >= 0) || !(s.BackgroundDisk < s.disk()) || math.IsInf(s.BackgroundDisk, 1):
			return &ValueError{Field: f("BackgroundDisk"), Value: s.BackgroundDisk, Reason: "must be finite and in [0, Disk)"}
		}
	}
	return nil
}
