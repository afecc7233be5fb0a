package jct

import "github.com/schedkit/schedkit/internal/valueerr"

// ErrBadInput is matched (with errors.Is) by every error this package returns
// for caller data that is NaN, infinite, out of range or of mismatched length.
var ErrBadInput = valueerr.BadInput("jct")

// A ValueError reports one input value that is out of range: Field names
// the input ("Queue[3].Deadline"), Value is the value as given (an int64 ID
// exactly), Reason says what is wrong, and Err, when not nil, is a cause
// errors.Unwrap reaches. Its message is "jct: Field = Value: Reason"; it
// matches ErrBadInput.
type ValueError = valueerr.Error[pkg]

// pkg gives valueerr this package's ErrBadInput, whose message names the
// package in every ValueError's.
type pkg struct{}

func (pkg) BadInput() error { return ErrBadInput }
