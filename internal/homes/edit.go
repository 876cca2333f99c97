package homes

import (
	"maps"
	"strings"
)

// editor changes a Meta without changing the maps it was given: each map
// on a path it changes is copied once, the first time, and changed in
// place after that (a setting after another in model.options copies
// model and options once, not each time).
type editor struct {
	owned map[string]bool // the paths of the maps it made, "" the top
}

// own returns m, or a copy of it that the editor owns from now on.
func (e *editor) own(path []string, m map[string]any) map[string]any {
	key := strings.Join(path, "\x00")
	if e.owned[key] && m != nil {
		return m
	}
	if e.owned == nil {
		e.owned = map[string]bool{}
	}
	e.owned[key] = true
	if m == nil {
		return map[string]any{}
	}
	return maps.Clone(m)
}

// remove returns m without the value at path (which is there), and
// without the maps that this leaves empty.
func (e *editor) remove(m map[string]any, path []string) map[string]any {
	top := e.own(nil, m)
	chain := []map[string]any{top}
	for i, k := range path[:len(path)-1] {
		sub := e.own(path[:i+1], chain[i][k].(map[string]any))
		chain[i][k] = sub
		chain = append(chain, sub)
	}
	delete(chain[len(chain)-1], path[len(path)-1])
	for i := len(chain) - 1; i > 0 && len(chain[i]) == 0; i-- {
		delete(chain[i-1], path[i-1])
	}
	return top
}

// put returns m with v at path, making the maps missing on the way;
// false, and m unchanged, when a value that is not a map is on the way or
// at path already.
func (e *editor) put(m map[string]any, path []string, v any) (map[string]any, bool) {
	at := m
	for i, k := range path {
		x, exists := at[k]
		if i == len(path)-1 {
			if exists {
				return m, false
			}
			break
		}
		sub, isMap := x.(map[string]any)
		if exists && !isMap {
			return m, false
		}
		at = sub
	}
	top := e.own(nil, m)
	at = top
	for i, k := range path[:len(path)-1] {
		sub, _ := at[k].(map[string]any)
		sub = e.own(path[:i+1], sub)
		at[k] = sub
		at = sub
	}
	at[path[len(path)-1]] = v
	return top, true
}
