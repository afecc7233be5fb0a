// Package enumname names the values of the core packages' enumerations
// (reasons, modes, statuses) one way: a value with a name in the type's
// table gets that name, any other "Type(n)", so that a value a caller
// converted from an integer prints as what it is.
package enumname

import "strconv"

// Of returns names[v] when v indexes a non-empty entry of names, and
// typ + "(" + v + ")" otherwise.
func Of[T ~int | ~int8 | ~uint8](v T, typ string, names []string) string {
	if i := int(v); i >= 0 && i < len(names) && names[i] != "" {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}
