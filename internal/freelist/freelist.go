// Package freelist reuses the slots of a slice whose elements are
// addressed by int32 index (tree nodes, job types): a removed element's
// index goes on a free list, and the next element takes the last index
// freed before the slice grows. The core packages' indexes share it; the
// packages themselves still never import each other.
package freelist

// Take returns the index of a slot for a new element: the last index on
// *free (taken off it), or else a zero element appended to *items. The
// caller overwrites the slot; an index goes back with
// *free = append(*free, i) once its element is removed.
func Take[T any](items *[]T, free *[]int32) int32 {
	if n := len(*free); n > 0 {
		i := (*free)[n-1]
		*free = (*free)[:n-1]
		return i
	}
	var zero T
	*items = append(*items, zero)
	return int32(len(*items) - 1)
}
