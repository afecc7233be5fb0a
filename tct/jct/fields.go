package jct

import "strconv"

// mcIndexed returns "name[i]", the Field of a ValueError about one element.
func mcIndexed(name string, i int) string {
	return name + "[" + strconv.Itoa(i) + "]"
}

// mcFormat formats x for a ValueError Field.
func mcFormat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
