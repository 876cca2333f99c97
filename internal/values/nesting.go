package values

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"unsafe"
)

// Nesting checks Go data handed to a template (inputs, context) by the
// rule of MaxDepth: maps, slices, arrays and structs held by value nest
// at most MaxDepth levels, and none contains itself, which printing it
// (fmt, a template engine) follows until the Go stack overflows. It
// returns "" or the message. Pointers are not followed: below the top
// they print as addresses. A map or slice held in several places is
// walked once, so the work is linear in the data's size.
func Nesting(v any) string {
	n := nesting{heights: map[node]int{}}
	_, msg := n.height(reflect.ValueOf(v), 0)
	return msg
}

// NestingIn is Nesting for each value of m (a template's inputs, its
// context), in the order of the keys: the first key whose value fails,
// and the message.
func NestingIn(m map[string]any) (key, msg string) {
	n := nesting{heights: map[node]int{}}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if _, msg := n.height(reflect.ValueOf(m[k]), 0); msg != "" {
			return k, msg
		}
	}
	return "", ""
}

type nesting struct {
	heights map[node]int // a map's or slice's height, -1 while it is walked
}

type node struct {
	p unsafe.Pointer
	n int
	t reflect.Type
}

// height returns how many levels v nests (0 for a value that holds
// none); depth is the number of levels around v.
func (n *nesting) height(v reflect.Value, depth int) (int, string) {
	var key node
	walk := false
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return 0, ""
		}
		return n.height(v.Elem(), depth)
	case reflect.Map, reflect.Slice, reflect.Array:
		walk = v.Len() > 0 && mayNest(v.Type().Elem())
		if walk && v.Kind() != reflect.Array {
			key = node{v.UnsafePointer(), v.Len(), v.Type()}
			if v.Kind() == reflect.Map {
				key.n = 0 // its length may change; its identity does not
			}
		}
	case reflect.Struct:
		walk = true
	default:
		return 0, ""
	}
	if depth >= MaxDepth {
		return 0, DepthMessage()
	}
	if !walk {
		return 1, "" // empty, or holding no level of its own
	}
	if key.t != nil {
		switch h, seen := n.heights[key]; {
		case seen && h < 0:
			what := "list"
			if v.Kind() == reflect.Map {
				what = "map"
			}
			return 0, fmt.Sprintf("a %s that contains itself", what)
		case seen && depth+h > MaxDepth:
			return 0, DepthMessage()
		case seen:
			return h, ""
		}
		n.heights[key] = -1
	}
	h, msg := 0, ""
	child := func(c reflect.Value) {
		var ch int
		ch, msg = n.height(c, depth+1)
		h = max(h, ch)
	}
	switch v.Kind() {
	case reflect.Map:
		for it := v.MapRange(); msg == "" && it.Next(); {
			child(it.Value())
		}
	case reflect.Slice, reflect.Array:
		for i := 0; msg == "" && i < v.Len(); i++ {
			child(v.Index(i))
		}
	case reflect.Struct:
		for i := 0; msg == "" && i < v.NumField(); i++ {
			child(v.Field(i))
		}
	}
	if msg != "" {
		return 0, msg
	}
	if key.t != nil {
		n.heights[key] = h + 1
	}
	return h + 1, ""
}

// mayNest reports whether a value of type t may hold a map, slice, array
// or struct: a list of strings is not walked item by item.
func mayNest(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface, reflect.Map, reflect.Slice, reflect.Struct:
		return true
	case reflect.Array:
		return mayNest(t.Elem())
	}
	return false
}
