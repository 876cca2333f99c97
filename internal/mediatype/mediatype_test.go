package mediatype

import "testing"

func TestOfURL(t *testing.T) {
	for u, want := range map[string]string{
		"https://x/cat.JPG":                "image/jpeg",
		"https://x/a.mp3?sig=1.png#t=2":    "audio/mpeg",
		"gs://bucket/doc.pdf":              "application/pdf",
		"data:image/webp;base64,AAAA":      "image/webp",
		"data:Audio/WAV,raw":               "audio/wav",
		"https://x/photo":                  "",
		"https://x/archive.tar.zst":        "",
		"https://x/dir.png/file?x=y.gif#z": "",
	} {
		if got := OfURL(u); got != want {
			t.Errorf("%s: %q, want %q", u, got, want)
		}
	}
}
