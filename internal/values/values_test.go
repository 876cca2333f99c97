package values

import (
	"math"
	"testing"
)

func TestCheckFloat(t *testing.T) {
	for _, f := range []float64{0, 1.5, -2, math.MaxFloat64} {
		if m := CheckFloat(f); m != "" {
			t.Errorf("CheckFloat(%v) = %q, want none", f, m)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if m := CheckFloat(f); m == "" {
			t.Errorf("CheckFloat(%v) accepted it", f)
		}
	}
}
