// Package tct models task completion time (TCT) for MapReduce tasks that share
// CPU with other virtual machines.
//
// The deterministic model is paper 000's exp2 (Eq. 1): the time a task of a
// given job type takes as a function of the residual CPU capacity r ∈ [0, 1]
// left to its slot.
//
// Every function is pure: equal inputs give equal outputs, bit for bit, and
// nothing panics on caller data. NaN, infinite or out-of-range inputs give an
// error matching ErrBadInput that names the field and value.
package tct
