package rm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The ResourceManager's JSON comes from JAXB beans rendered by Jersey, and
// it is not consistent across endpoints and versions: the reservation list
// quotes every number ("memory": "1024"), the documentation types an
// application's priority as a string while its examples give a number,
// a one-element collection may arrive as a bare object instead of an
// array, and an empty collection as null. The types below accept every
// one of those spellings and reject anything else with an error that
// quotes the value.

// Int64 is an integer that decodes from a JSON number (an integral float
// such as 100.0 included), a quoted number ("1024"), null or "" (both 0).
// A fraction, a value outside the int64 range or any other string is an
// error.
type Int64 int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int64) UnmarshalJSON(b []byte) error {
	return decodeScalar(n, b, "an integer", func(s string) (Int64, bool) {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return Int64(v), true
		}
		f, err := strconv.ParseFloat(s, 64)
		return Int64(f), err == nil && f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64
	})
}

// Float is a number that decodes from a JSON number, a quoted number,
// the quoted IEEE specials "NaN", "Infinity" and "-Infinity" that Java
// writes for a float field (the FIFO scheduler's usedCapacity is "NaN" in
// the documented example), null or "" (both 0). Callers that decide on a
// Float check it is finite.
type Float float64

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	return decodeScalar(f, b, "a number", func(s string) (Float, bool) {
		switch s {
		case "NaN":
			return Float(math.NaN()), true
		case "Infinity":
			return Float(math.Inf(1)), true
		case "-Infinity":
			return Float(math.Inf(-1)), true
		}
		v, err := strconv.ParseFloat(s, 64)
		return Float(v), err == nil
	})
}

// Bool decodes from true/false, the quoted "true"/"false" (any case; the
// documented app object quotes unmanagedApplication), null or "" (false).
type Bool bool

// UnmarshalJSON implements json.Unmarshaler.
func (v *Bool) UnmarshalJSON(b []byte) error {
	return decodeScalar(v, b, "a boolean", func(s string) (Bool, bool) {
		x, err := strconv.ParseBool(s)
		return Bool(x), err == nil
	})
}

// String decodes from a JSON string, a number or boolean (kept as written)
// or null (""). The RM writes enum fields as strings and IDs sometimes as
// numbers (an app attempt's "id": 1).
type String string

// UnmarshalJSON implements json.Unmarshaler.
func (v *String) UnmarshalJSON(b []byte) error {
	return decodeScalar(v, b, "a string", func(s string) (String, bool) { return String(s), true })
}

// decodeScalar sets *dst from the JSON scalar b: the zero value for null
// or "", else what parse makes of its text; parse's false is an error
// quoting b as not what.
func decodeScalar[T any](dst *T, b []byte, what string, parse func(string) (T, bool)) error {
	s, ok, err := scalar(b)
	if err != nil {
		return err
	}
	if !ok {
		var zero T
		*dst = zero
		return nil
	}
	v, ok := parse(s)
	if !ok {
		return fmt.Errorf("rm: %s is not %s", b, what)
	}
	*dst = v
	return nil
}

// scalar returns the text of a JSON scalar: the contents of a string,
// or the literal of a number or boolean. ok is false for null and "".
func scalar(b []byte) (s string, ok bool, err error) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return "", false, fmt.Errorf("rm: empty JSON value")
	case bytes.Equal(b, []byte("null")):
		return "", false, nil
	case b[0] == '"':
		if err := json.Unmarshal(b, &s); err != nil {
			return "", false, err
		}
		if s == "" {
			return "", false, nil
		}
		return s, true, nil
	case b[0] == '{' || b[0] == '[':
		return "", false, fmt.Errorf("rm: expected a scalar, got %.40s", b)
	}
	return string(b), true, nil
}

// List is a collection that decodes from a JSON array, a single element
// written without the array (Jersey's rendering of a one-element list),
// or null (empty).
type List[T any] []T

// UnmarshalJSON implements json.Unmarshaler.
func (l *List[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		*l = nil
		return nil
	case b[0] == '[':
		var xs []T
		if err := json.Unmarshal(b, &xs); err != nil {
			return err
		}
		*l = xs
		return nil
	}
	var x T
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*l = List[T]{x}
	return nil
}
