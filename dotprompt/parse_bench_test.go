package dotprompt

import "testing"

// BenchmarkShapes: the line-split baseline, Parse and Write on 8 MB of
// one-line messages (Short) and of 4 KB messages (Long).
func BenchmarkShapes(b *testing.B) { thisFormat.BenchShapes(b) }

// TestParseAllocs: parsing short messages allocates per 512 messages, not
// per message.
func TestParseAllocs(t *testing.T) { thisFormat.CheckAllocs(t, 16) }

// TestWriteAllocs: the same of writing them.
func TestWriteAllocs(t *testing.T) { thisFormat.CheckWriteAllocs(t, 16) }
