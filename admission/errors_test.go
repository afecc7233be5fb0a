package admission

import "github.com/schedkit/schedkit/internal/testkit"

// wantField asserts that err is a *ValueError on field.
var wantField = testkit.FieldCheck(ErrBadInput, func(e *ValueError) string { return e.Field })
