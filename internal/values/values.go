// Package values holds the one rule for the values the model holds
// (metadata, configuration, arguments, inputs): they are JSON values, so
// every parser that reads a number or a nested value applies the same
// limits, at the place it reads them, and check, parse and messages agree.
//
//   - A number that is not finite (NaN, ±Infinity, or a literal too large
//     for a float64, such as 1e400) is refused with a positioned error:
//     JSON has no way to write it, and turning it into null or a string
//     would change it silently. The hint says how to write it instead.
//   - Arrays and objects nest at most MaxDepth levels, so that reading,
//     printing and converting a value are bounded in stack and in the size
//     of its indented JSON (which grows with the square of the depth).
package values

import (
	"fmt"
	"math"
)

// MaxDepth is how deeply arrays and objects may nest in a value.
const MaxDepth = 1000

// NonFiniteHint is the hint for a number that is not finite.
const NonFiniteHint = `JSON has no NaN or Infinity: write it as a string ("NaN") or as null`

// CheckFloat returns the message for f when it is not a finite number, or
// "" when it is.
func CheckFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN is not a JSON number"
	case math.IsInf(f, 1):
		return "Infinity is not a JSON number (or the number is too large for a 64-bit float)"
	case math.IsInf(f, -1):
		return "-Infinity is not a JSON number (or the number is too large for a 64-bit float)"
	}
	return ""
}

// DepthMessage is the message for a value nested deeper than MaxDepth.
func DepthMessage() string {
	return fmt.Sprintf("nested deeper than %d levels", MaxDepth)
}
