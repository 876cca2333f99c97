package corpus

import (
	"testing"

	"github.com/promptfmt/promptfmt"
)

func TestConversation(t *testing.T) {
	a, b := Conversation(100_000), Conversation(100_000)
	if len(a.Messages) < 50 || len(a.Messages) != len(b.Messages) || a.Messages[40].Text() != b.Messages[40].Text() {
		t.Fatalf("Conversation is not deterministic or too small: %d messages", len(a.Messages))
	}
	if CountLines([]byte("a\nb\n\nc")) != 4 || CountLines([]byte("a\n")) != 1 || CountLines(nil) != 0 {
		t.Error("CountLines miscounts")
	}
}

func TestShortLong(t *testing.T) {
	for name, doc := range map[string]*promptfmt.Document{"short": Short(100_000), "long": Long(100_000)} {
		n, size := len(doc.Messages), 0
		for _, m := range doc.Messages {
			size += len(m.Text())
		}
		if size < 100_000 || n%2 == 0 || doc.Messages[n-1].Role != "user" {
			t.Errorf("%s: %d messages, %d bytes, last %q", name, n, size, doc.Messages[n-1].Role)
		}
		if avg := size / n; name == "short" && (avg < 100 || avg > 140) || name == "long" && (avg < 2000 || avg > 6000) {
			t.Errorf("%s: %d bytes a message", name, avg)
		}
	}
}
