package words

import "testing"

func TestSeconds(t *testing.T) {
	for s, want := range map[float64]string{0: "0s", 299.6: "5m0s", 3600: "1h0m0s", -1.2: "-1s"} {
		if got := Seconds(s); got != want {
			t.Errorf("Seconds(%v) = %q, want %q", s, got, want)
		}
	}
	if Plural(1, "pod", "pods") != "pod" || Plural(0, "pod", "pods") != "pods" || Plural(2, "pod", "pods") != "pods" {
		t.Error("Plural")
	}
}
