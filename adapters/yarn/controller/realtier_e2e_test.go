//go:build e2e

package controller

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/yarn/internal/rmbackend"
)

// TestRealTier: in the real tier the scenarios of this package run
// against Hadoop's ResourceManager as well as the double.
func TestRealTier(t *testing.T) {
	if bs := rmbackend.All(t); len(bs) != 2 || bs[1].Name != "hadoop" {
		t.Fatalf("backends %d: the real RM is missing", len(bs))
	}
}
