package tally

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSetTypeLabel: a shared tally takes the node-type label of the one
// plugin that reads types, whichever of the profile's plugins made it; a
// second label, or a label after nodes were counted without one, is an
// error naming the profile and the labels.
func TestSetTypeLabel(t *testing.T) {
	tl := New("p", "", nil)
	for _, l := range []string{"", "type", "", "type"} {
		if err := tl.setTypeLabel(l); err != nil {
			t.Fatalf("setTypeLabel(%q): %v", l, err)
		}
	}
	if err := tl.setTypeLabel("other"); err == nil || !strings.Contains(err.Error(), `"type" and "other"`) {
		t.Fatalf("a second label: %v", err)
	}
	late := New("p", "", nil)
	late.SetNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}})
	if err := late.setTypeLabel("type"); err == nil || !strings.Contains(err.Error(), `profile "p"`) {
		t.Fatalf("a label after nodes: %v", err)
	}
}
