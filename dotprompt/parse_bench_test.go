package dotprompt

import "testing"

// BenchmarkShapes: the line-split baseline, Parse and Write on 8 MB of
// one-line messages (Short) and of 4 KB messages (Long).
func BenchmarkShapes(b *testing.B) { thisFormat.BenchShapes(b) }
