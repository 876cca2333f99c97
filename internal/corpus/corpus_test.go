package corpus

import "testing"

func TestConversation(t *testing.T) {
	a, b := Conversation(100_000), Conversation(100_000)
	if len(a.Messages) < 50 || len(a.Messages) != len(b.Messages) || a.Messages[40].Text() != b.Messages[40].Text() {
		t.Fatalf("Conversation is not deterministic or too small: %d messages", len(a.Messages))
	}
	if CountLines([]byte("a\nb\n\nc")) != 4 || CountLines([]byte("a\n")) != 1 || CountLines(nil) != 0 {
		t.Error("CountLines miscounts")
	}
}
