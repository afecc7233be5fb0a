package clitest

import (
	"fmt"
	"math"
)

// Seeds returns the cases of the -seed and -seeds flags of an example
// that replays seeds seed, seed+1, …: -seed must be in
// [0, 2⁶⁴−1−maxSeeds] and -seeds in [1, maxSeeds].
func Seeds(maxSeeds int) []Case {
	over := fmt.Sprint(maxSeeds + 1)
	in := fmt.Sprintf("[1, %d]", maxSeeds)
	return []Case{
		Bad("seed negative", []string{"-seed", "-1"}, "-seed"),
		Bad("seed too large", []string{"-seed", "18446744073709551615"}, "-seed = 18446744073709551615", fmt.Sprintf("[0, %d]", uint64(math.MaxUint64)-uint64(maxSeeds))),
		Bad("seeds 0", []string{"-seeds", "0"}, "-seeds = 0", in),
		Bad("seeds "+over, []string{"-seeds", over}, "-seeds = "+over, in),
	}
}
