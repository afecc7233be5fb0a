// Package treap holds what the core packages' treaps (admission's queue
// index, edf's per-type index) share: the priority of the n-th node and
// the shape operations (insert, remove, rotate, re-pull the ancestors)
// over nodes the caller keeps in a slice and augments as it needs.
package treap

// Priority returns the treap priority of the node made n-th (splitmix64 of
// n): deterministic, so equal inputs build equal trees, and independent of
// the keys, so the expected depth is O(log n) whatever the insertion order.
func Priority(n uint64) uint64 {
	z := n + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
