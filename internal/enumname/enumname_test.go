package enumname

import (
	"testing"

	"pgregory.net/rapid"
)

type kind uint8

var kindNames = [...]string{1: "one", 2: "two"}

func TestOf(t *testing.T) {
	for v, want := range map[kind]string{0: "kind(0)", 1: "one", 2: "two", 3: "kind(3)", 255: "kind(255)"} {
		if got := Of(v, "kind", kindNames[:]); got != want {
			t.Errorf("Of(%d) = %q, want %q", v, got, want)
		}
	}
	if got := Of(-5, "Priority", nil); got != "Priority(-5)" {
		t.Errorf("Of(-5) = %q", got)
	}
}

// propOf: a value gets its table name exactly when the table has one for
// it, and otherwise a name that carries the type and the number.
func propOf(t *rapid.T) {
	names := rapid.SliceOfN(rapid.SampledFrom([]string{"", "a", "b-c"}), 0, 6).Draw(t, "names")
	v := rapid.IntRange(-3, 8).Draw(t, "v")
	got := Of(v, "T", names)
	named := v >= 0 && v < len(names) && names[v] != ""
	if named && got != names[v] || !named && got != "T("+itoa(v)+")" {
		t.Fatalf("Of(%d, %q) = %q", v, names, got)
	}
}

func itoa(v int) string {
	if v < 0 {
		return "-" + itoa(-v)
	}
	return string(rune('0' + v))
}

func TestPropOf(t *testing.T) { rapid.Check(t, propOf) }
func FuzzOf(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propOf)) }
