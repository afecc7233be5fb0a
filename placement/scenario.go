package placement

// Mbps is one megabit per second in the package's bandwidth unit (bytes per
// second).
const Mbps = 1e6 / 8

// ThesisTopology returns the virtual topology of Lee thesis §3.3.3.1: 20 racks
// of 40 available servers each, rack uplinks "uniformly ranged from 800 Mbit/s
// to 200 Mbit/s with a step of 100 Mbit/s". Seven values cover twenty racks by
// cycling: rack k's uplink is 800 − 100·(k mod 7) Mbit/s, so 800 … 300 Mbit/s
// appear on three racks each and 200 Mbit/s on two (racks 6 and 13). Servers
// are identical (the testbed's quad-core Xeons, Speed 1) with a Gigabit NIC
// and no background load: the uplink limits stand for the background traffic
// (§3.3.3.1). Server i is in rack i/40.
func ThesisTopology() Topology {
	const racks, perRack = 20, 40
	t := Topology{Racks: make([]Rack, racks), Servers: make([]Server, 0, racks*perRack)}
	for k := range t.Racks {
		t.Racks[k].Uplink = float64(800-100*(k%7)) * Mbps
		for range perRack {
			t.Servers = append(t.Servers, Server{Rack: k, FreeSlots: 1, Speed: 1, NIC: 1000 * Mbps})
		}
	}
	return t
}

// ThesisSort returns the Sort benchmark of Lee thesis §3.3.1.1 as an
// Application: 80 VMs, 2 GB (2·10⁹ bytes) of input per VM, map and reduce
// selectivity 1, HDFS replication 3 (§3.3.2), 64 MiB splits (Hadoop 0.18's
// block size), one map and one reduce slot per VCPU (4 each, §3.3.2). The
// thesis does not print the CPU profile; we take 5·10⁻⁸ s/byte for map
// (sorting a 64 MiB split in about 3.4 s) and 4·10⁻⁸ s/byte for reduce
// (merging), and 1 s of overhead per task. These are our assumptions, not
// measured values.
func ThesisSort() Application {
	return Application{
		VMs:               80,
		MapSlots:          4,
		ReduceSlots:       4,
		InputBytes:        80 * 2e9,
		SplitBytes:        64 << 20,
		MapSelectivity:    1,
		ReduceSelectivity: 1,
		MapCostPerByte:    5e-8,
		ReduceCostPerByte: 4e-8,
		TaskOverhead:      1,
		Replication:       3,
	}
}
