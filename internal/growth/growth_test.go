package growth

import (
	"strings"
	"testing"
)

// fakeT records a failure instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Logf(string, ...any)   {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }

func TestLinear(t *testing.T) {
	var sink string
	linear := func(n int) float64 { return AllocBytes(func() { sink = strings.Repeat("x", n) }) }
	quadratic := func(n int) float64 {
		return AllocBytes(func() {
			s := ""
			for range n / 64 {
				s += strings.Repeat("x", 64) // each step copies all before it
			}
			sink = s
		})
	}
	ft := &fakeT{TB: t}
	Linear(ft, "linear", 1<<16, linear)
	if ft.failed {
		t.Error("a linear cost was called superlinear")
	}
	ft = &fakeT{TB: t}
	Linear(ft, "quadratic", 1<<16, quadratic)
	if !ft.failed {
		t.Error("a quadratic cost was called linear")
	}
	_ = sink
}
