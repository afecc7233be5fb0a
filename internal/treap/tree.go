package treap

// Links are a node's place in a treap whose nodes the caller keeps in a
// slice and addresses by index I: its children and parent (-1 for none)
// and its priority (Priority of the node's number).
type Links[I ~int32] struct {
	Left, Right, Parent I
	Prio                uint64
}

// A Tree is what the shape operations need of a caller's treap: each
// node's Links, the strict order of two nodes' keys, and Pull, which
// recomputes node v's subtree values (sums, minima, sizes) from its own
// and its children's. The operations keep the search order by Before and
// the heap order by Prio (the larger above), and call Pull on every node
// whose subtree changed, children before parents.
type Tree[I ~int32] interface {
	Links(v I) *Links[I]
	Before(a, b I) bool
	Pull(v I)
}

// FixAll pulls v and every ancestor of it (none for v < 0).
func FixAll[I ~int32, T Tree[I]](t T, v I) {
	for ; v >= 0; v = t.Links(v).Parent {
		t.Pull(v)
	}
}

// RotateUp rotates v above its parent; root is the tree's root, changed
// when the parent was the root. It pulls the old parent, then v.
func RotateUp[I ~int32, T Tree[I]](t T, root *I, v I) {
	n := t.Links(v)
	p := n.Parent
	pn := t.Links(p)
	g := pn.Parent
	if pn.Left == v {
		pn.Left = n.Right
		if n.Right >= 0 {
			t.Links(n.Right).Parent = p
		}
		n.Right = p
	} else {
		pn.Right = n.Left
		if n.Left >= 0 {
			t.Links(n.Left).Parent = p
		}
		n.Left = p
	}
	pn.Parent, n.Parent = v, g
	replaceChild(t, root, g, p, v)
	t.Pull(p)
	t.Pull(v)
}

// Insert links node v, its Prio set, no children or parent and pulled,
// into the tree at root: down by Before to a leaf, then up by priority.
func Insert[I ~int32, T Tree[I]](t T, root *I, v I) {
	if *root < 0 {
		*root = v
		return
	}
	c := *root
	for {
		cn := t.Links(c)
		next := &cn.Right
		if t.Before(v, c) {
			next = &cn.Left
		}
		if *next < 0 {
			*next = v
			break
		}
		c = *next
	}
	n := t.Links(v)
	n.Parent = c
	for p := c; p >= 0 && n.Prio > t.Links(p).Prio; p = n.Parent {
		RotateUp(t, root, v)
	}
	FixAll(t, n.Parent)
}

// Remove unlinks node v from the tree at root: rotated down below its
// higher-priority child until it has at most one, then replaced by that
// child. Its ancestors are pulled; v's own Links are left as they were.
func Remove[I ~int32, T Tree[I]](t T, root *I, v I) {
	for {
		n := t.Links(v)
		if n.Left < 0 || n.Right < 0 {
			break
		}
		c := n.Left
		if t.Links(n.Right).Prio > t.Links(c).Prio {
			c = n.Right
		}
		RotateUp(t, root, c)
	}
	n := t.Links(v)
	c := n.Left
	if c < 0 {
		c = n.Right
	}
	p := n.Parent
	if c >= 0 {
		t.Links(c).Parent = p
	}
	replaceChild(t, root, p, v, c)
	FixAll(t, p)
}

// replaceChild puts c where v hung below p: p's child, or the root when p
// < 0. It changes no Parent link.
func replaceChild[I ~int32, T Tree[I]](t T, root *I, p, v, c I) {
	switch {
	case p < 0:
		*root = c
	case t.Links(p).Left == v:
		t.Links(p).Left = c
	default:
		t.Links(p).Right = c
	}
}
