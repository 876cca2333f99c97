package values

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestNesting(t *testing.T) {
	self := map[string]any{"a": 1}
	self["self"] = self
	list := []any{1, nil}
	list[1] = list
	a, b := map[string]any{}, map[string]any{}
	a["b"], b["a"] = []any{b}, a
	type box struct{ M map[string]any }
	inStruct := map[string]any{}
	inStruct["s"] = []box{{M: inStruct}}
	for name, v := range map[string]any{"map": self, "list": list, "mutual": a, "through a struct": inStruct} {
		if msg := Nesting(v); !strings.Contains(msg, "contains itself") {
			t.Errorf("%s: %q", name, msg)
		}
	}

	deep := func(n int) any {
		var v any = "leaf"
		for range n {
			v = []any{v}
		}
		return v
	}
	if msg := Nesting(deep(MaxDepth)); msg != "" {
		t.Errorf("%d levels: %q", MaxDepth, msg)
	}
	if msg := Nesting(deep(MaxDepth + 1)); msg != DepthMessage() {
		t.Errorf("%d levels: %q", MaxDepth+1, msg)
	}
	// An empty list and a list of strings are a level each.
	for _, leaf := range []any{[]any{}, []string{"x"}, map[string]int{"x": 1}, [2]int{}} {
		v := deep(MaxDepth - 1)
		w := v
		for range MaxDepth - 2 {
			w = w.([]any)[0]
		}
		w.([]any)[0] = leaf
		if msg := Nesting(v); msg != "" {
			t.Errorf("%T at level %d: %q", leaf, MaxDepth, msg)
		}
		if msg := Nesting([]any{v}); msg != DepthMessage() {
			t.Errorf("%T at level %d: %q", leaf, MaxDepth+1, msg)
		}
	}

	// Shared values are walked once: 2^60 paths, 60 maps.
	var shared any = "x"
	for range 60 {
		shared = map[string]any{"l": shared, "r": shared}
	}
	if msg := Nesting(shared); msg != "" {
		t.Errorf("shared: %q", msg)
	}
	// ... and their height still counts where they are met again, deeper.
	if msg := Nesting(map[string]any{"a": shared, "b": deep(MaxDepth - 60)}); msg != "" {
		t.Errorf("shared, near the limit: %q", msg)
	}
	if msg := Nesting([]any{shared, deep(MaxDepth - 60 + 1)}); msg != "" {
		t.Errorf("shared beside a deep list: %q", msg)
	}
	var nested any = shared
	for range MaxDepth - 60 {
		nested = []any{nested}
	}
	if msg := Nesting([]any{shared, nested}); msg != DepthMessage() {
		t.Errorf("shared, met again past the limit: %q", msg)
	}

	// Pointers are not followed; scalars and nil are no level.
	type ring struct{ Next *ring }
	r := &ring{}
	r.Next = r
	for _, v := range []any{r, *r, nil, 1, "s", map[string]any{"p": r}} {
		if msg := Nesting(v); msg != "" {
			t.Errorf("%#v: %q", v, msg)
		}
	}
}

func TestNestingIn(t *testing.T) {
	self := map[string]any{}
	self["me"] = self
	if k, msg := NestingIn(map[string]any{"a": 1, "z": self, "b": []any{self}}); k != "b" || !strings.Contains(msg, "contains itself") {
		t.Errorf("got %q %q", k, msg)
	}
	if k, msg := NestingIn(map[string]any{"a": 1, "b": []any{"x"}}); k != "" || msg != "" {
		t.Errorf("got %q %q", k, msg)
	}
}

// Property: over random graphs of maps and lists, some sharing values and
// some holding themselves, Nesting finds a cycle exactly when the graph
// has one, and otherwise the graph's height, against a plain walk.
func TestNestingProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for range 1000 {
		n := 1 + r.IntN(8)
		edges := make([][]int, n)
		vals := make([]any, n)
		for i := range n {
			for range r.IntN(3) {
				to := r.IntN(n)
				if r.IntN(3) > 0 {
					to = i + 1 + r.IntN(n) // forward, mostly: fewer cycles
				}
				if to < n {
					edges[i] = append(edges[i], to)
				}
			}
			if r.IntN(2) == 0 {
				vals[i] = make(map[string]any)
			} else {
				vals[i] = make([]any, len(edges[i]))
			}
		}
		for i, es := range edges {
			for k, to := range es {
				switch v := vals[i].(type) {
				case map[string]any:
					v[fmt.Sprint(k)] = vals[to]
				case []any:
					v[k] = vals[to]
				}
			}
		}
		// The plain walk: every path, cut at n+1 levels (a cycle).
		var height func(i, depth int) int
		height = func(i, depth int) int {
			if depth > n {
				return depth
			}
			h := 1
			for _, to := range edges[i] {
				h = max(h, 1+height(to, depth+1))
			}
			return h
		}
		want := height(0, 0)
		msg := Nesting(vals[0])
		switch {
		case want > n && !strings.Contains(msg, "contains itself"):
			t.Fatalf("%v: a cycle, got %q", edges, msg)
		case want <= n && msg != "":
			t.Fatalf("%v: no cycle, height %d, got %q", edges, want, msg)
		}
		if want <= n {
			// At the limit it passes; one level more, it does not.
			v := any(vals[0])
			for range MaxDepth - want {
				v = []any{v}
			}
			if msg := Nesting(v); msg != "" {
				t.Fatalf("%v at height %d: %q", edges, MaxDepth, msg)
			}
			if msg := Nesting([]any{v}); msg != DepthMessage() {
				t.Fatalf("%v at height %d: %q", edges, MaxDepth+1, msg)
			}
		}
	}
}
