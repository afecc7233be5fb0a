package treap

import "testing"

// TestPriority pins splitmix64's first two outputs from seed 0 (Steele,
// Lea and Flood, "Fast splittable pseudorandom number generators", 2014),
// so the trees, and every bit-for-bit property that depends on them, stay
// put.
func TestPriority(t *testing.T) {
	for n, want := range map[uint64]uint64{
		0:                  0xe220a8397b1dcdaf,
		0x9e3779b97f4a7c15: 0x6e789e6aa1b965f4,
	} {
		if got := Priority(n); got != want {
			t.Errorf("Priority(%#x) = %#x, want %#x", n, got, want)
		}
	}
}
