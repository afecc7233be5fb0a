package replay

// groupByLoadConfig splits xs into groups of equal load and configuration
// (as key reads them), the groups in the order of their first element and
// each group's elements in their order in xs.
func groupByLoadConfig[T any](xs []T, key func(T) (string, Config)) [][]T {
	type k struct {
		load string
		c    Config
	}
	var out [][]T
	at := map[k]int{}
	for _, x := range xs {
		l, c := key(x)
		i, ok := at[k{l, c}]
		if !ok {
			i = len(out)
			at[k{l, c}] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], x)
	}
	return out
}
