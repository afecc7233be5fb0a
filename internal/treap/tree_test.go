package treap

import (
	"testing"

	"pgregory.net/rapid"
)

// sizeTree is a treap of int keys whose nodes count their subtree.
type sizeTree struct {
	links []Links[int32]
	keys  []int
	size  []int
	root  int32
	seq   uint64
}

func (s *sizeTree) Links(v int32) *Links[int32] { return &s.links[v] }
func (s *sizeTree) Before(a, b int32) bool {
	return s.keys[a] < s.keys[b] || s.keys[a] == s.keys[b] && a < b
}
func (s *sizeTree) Pull(v int32) {
	n := 1
	for _, c := range []int32{s.links[v].Left, s.links[v].Right} {
		if c >= 0 {
			n += s.size[c]
		}
	}
	s.size[v] = n
}

// check walks the subtree at v below parent p and returns its size,
// failing on a broken parent link, search order, heap order or size.
func (s *sizeTree) check(t *rapid.T, v, p int32, lo, hi int32) int {
	if v < 0 {
		return 0
	}
	n := s.links[v]
	if n.Parent != p {
		t.Fatalf("node %d: parent %d, want %d", v, n.Parent, p)
	}
	if lo >= 0 && !s.Before(lo, v) || hi >= 0 && !s.Before(v, hi) {
		t.Fatalf("node %d (key %d) out of search order", v, s.keys[v])
	}
	if p >= 0 && n.Prio > s.links[p].Prio {
		t.Fatalf("node %d above its parent's priority", v)
	}
	size := 1 + s.check(t, n.Left, v, lo, v) + s.check(t, n.Right, v, v, hi)
	if s.size[v] != size {
		t.Fatalf("node %d: size %d, want %d (not pulled)", v, s.size[v], size)
	}
	return size
}

// propTree: any sequence of Insert and Remove keeps the tree a treap (search
// order by Before, heap order by Prio, consistent parent links) with every
// subtree's pulled value up to date, holding exactly the inserted nodes.
func propTree(t *rapid.T) {
	s := &sizeTree{root: -1}
	var in []int32
	for range rapid.IntRange(0, 60).Draw(t, "ops") {
		if len(in) > 0 && rapid.IntRange(0, 2).Draw(t, "remove") == 0 {
			i := rapid.IntRange(0, len(in)-1).Draw(t, "i")
			Remove(s, &s.root, in[i])
			in = append(in[:i], in[i+1:]...)
		} else {
			v := int32(len(s.keys))
			s.seq++
			s.links = append(s.links, Links[int32]{Left: -1, Right: -1, Parent: -1, Prio: Priority(s.seq)})
			s.keys = append(s.keys, rapid.IntRange(0, 20).Draw(t, "key"))
			s.size = append(s.size, 0)
			s.Pull(v)
			Insert(s, &s.root, v)
			in = append(in, v)
		}
		if got := s.check(t, s.root, -1, -1, -1); got != len(in) {
			t.Fatalf("tree holds %d nodes, want %d", got, len(in))
		}
	}
}

func TestPropTree(t *testing.T) { rapid.Check(t, propTree) }
func FuzzTree(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propTree)) }
