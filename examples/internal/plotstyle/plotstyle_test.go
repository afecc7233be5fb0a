package plotstyle

import (
	"image/color"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestRoundTicks(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 1500, []string{"0", "500", "1000", "1500"}},
		{0, 1000, []string{"0", "200", "400", "600", "800", "1000"}},
		{0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{1190, 1620, []string{"1200", "1300", "1400", "1500", "1600"}},
		{-3, 7, []string{"-2", "0", "2", "4", "6"}},
		{0.1, 0.3, []string{"0.1", "0.15", "0.2", "0.25", "0.3"}},
		{5, 5, []string{"5"}},
	} {
		var got []string
		for _, tk := range (RoundTicks{}).Ticks(tt.lo, tt.hi) {
			got = append(got, tk.Label)
			if tk.Value < tt.lo-1e-9 || tk.Value > tt.hi+1e-9 {
				t.Errorf("[%v, %v]: tick %v outside", tt.lo, tt.hi, tk.Value)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("[%v, %v]: %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
	if got := (RoundTicks{}).Ticks(0, math.Inf(1)); len(got) != 1 {
		t.Errorf("infinite range: %v", got)
	}
}

func TestStyleDistinct(t *testing.T) {
	type style struct {
		c color.Color
		d string
	}
	seen := map[style]int{}
	for i := range len(Palette) * len(Dashes) {
		c, d := Style(i)
		k := style{c, fmtDash(d)}
		if j, dup := seen[k]; dup {
			t.Fatalf("series %d and %d look alike", i, j)
		}
		seen[k] = i
	}
}

func fmtDash(d []vg.Length) string {
	s := ""
	for _, x := range d {
		s += "," + Label(float64(x))
	}
	return s
}

func TestSave(t *testing.T) {
	p := New("t", "x", "y")
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	leg := NewLegend()
	leg.Add("line", l)
	short := leg.Width()
	leg.Add("a much longer legend entry", l)
	if !(leg.Width() > short+leg.TextStyle.Width("a much longer")) {
		t.Errorf("legend width %v after a long entry, %v before", leg.Width(), short)
	}
	path := filepath.Join(t.TempDir(), "p.png")
	if err := Save(path, p, leg, 6*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("%v", err)
	}
	if err := Save(filepath.Join(path, "x.png"), p, leg, 6*vg.Inch, 4*vg.Inch); err == nil {
		t.Error("saving under a file: no error")
	}
}
