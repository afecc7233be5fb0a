package edf

import "github.com/schedkit/schedkit/internal/testkit"

// wantField asserts that err is a *ValueError on field.
var wantField = testkit.FieldCheck(ErrBadInput, func(e *ValueError) string { return e.Field })

// wantAnyField asserts that err is a *ValueError naming some field.
var wantAnyField = testkit.AnyFieldCheck(ErrBadInput, func(e *ValueError) string { return e.Field })
