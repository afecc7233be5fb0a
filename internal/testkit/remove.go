package testkit

import "pgregory.net/rapid"

// RemoveDrawn is a state machine's "remove" action on a queue keyed by job
// ID: it draws one of ids (nothing when ids is empty), removes it with
// remove, fails t when remove reports no such job, and returns ids without
// it, the ID and whether one was drawn.
func RemoveDrawn(t *rapid.T, ids []int64, remove func(id int64) bool) ([]int64, int64, bool) {
	if len(ids) == 0 {
		return ids, 0, false
	}
	i := rapid.IntRange(0, len(ids)-1).Draw(t, "i")
	id := ids[i]
	if !remove(id) {
		t.Fatalf("queued job %d not removed", id)
	}
	return append(ids[:i], ids[i+1:]...), id, true
}
