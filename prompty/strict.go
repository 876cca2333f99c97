package prompty

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// NewNonce returns a fresh render nonce: 16 lowercase hex digits from
// crypto/rand.
func NewNonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}

// threadPlaceholder returns a fresh placeholder for the rich input name,
// "__PROMPTY_THREAD_<16 hex>_<name>__", to stand in the template's inputs
// where the input goes.
func threadPlaceholder(name string) string {
	return "__PROMPTY_THREAD_" + NewNonce() + "_" + name + "__"
}

// PreRender prepares a template for strict parsing: every boundary line
// becomes `role[nonce=<nonce>, k=<<<nonce>|v|<nonce>>>, ...]:` (lower-case
// role, its other attributes in order, an existing nonce attribute
// dropped), with its own line break; other lines are unchanged. Each
// attribute value stands between two sentinels made from the nonce, keeping
// its quotes; a quoted value is written without its escapes (so that an
// expression in it, "{{ \"x\" }}", reaches the template engine as written).
// Render the result, then Parse it with Strict(nonce): a boundary that a
// template value smuggles in lacks the nonce and fails, and what a value
// renders between the sentinels is read as that attribute's value, however
// many quotes, commas or brackets it holds. The nonce must be a single
// line, such as NewNonce gives.
func PreRender(template, nonce string) string {
	sent := newSentinels(nonce)
	var b strings.Builder
	b.Grow(len(template) + 64)
	sc := lines.NewScanner([]byte(template))
	for {
		s, e, next, ok := sc.Next()
		if !ok {
			return b.String()
		}
		m, isMarker, _ := parseMarker(template[s:e])
		if !isMarker {
			b.WriteString(template[s:next])
			continue
		}
		b.WriteString(m.role)
		b.WriteString("[nonce=")
		writeString(&b, "nonce", nonce)
		for _, a := range m.attrs {
			if a.key == "nonce" {
				continue
			}
			b.WriteString(", ")
			b.WriteString(a.key)
			b.WriteByte('=')
			if a.quoted {
				b.WriteByte('"')
			}
			b.WriteString(sent.open)
			b.WriteString(a.text)
			b.WriteString(sent.close)
			if a.quoted {
				b.WriteByte('"')
			}
		}
		b.WriteString("]:")
		b.WriteString(template[e:next])
	}
}

// sentinels delimit the attribute values of a pre-rendered template. They
// hold the render nonce, which an input value cannot know, so a value can
// neither end its own region early nor start another: in the rendered text
// everything of a boundary line outside the regions is the template's.
type sentinels struct{ open, close string }

func newSentinels(nonce string) *sentinels {
	return &sentinels{open: "<<" + nonce + "|", close: "|" + nonce + ">>"}
}

// value reads a sentinel-delimited attribute value at s[i:] (after the
// '='), optionally in quotes, into a. ok is false when there is none (or
// no sentinels); next is the index after it, or -1 when its closing
// sentinel (or quote) is not on the line.
func (sent *sentinels) value(s string, i int, a *attr) (next int, ok bool) {
	if sent == nil {
		return 0, false
	}
	quoted := i < len(s) && s[i] == '"'
	j := i
	if quoted {
		j++
	}
	if !strings.HasPrefix(s[j:], sent.open) {
		return 0, false
	}
	j += len(sent.open)
	k := strings.Index(s[j:], sent.close)
	if k < 0 {
		return -1, true
	}
	a.text, a.quoted, a.wrapped = s[j:j+k], quoted, true
	a.value = a.text
	if !quoted {
		a.value = unquotedValue(a.key, a.text)
	}
	j += k + len(sent.close)
	if quoted {
		if j == len(s) || s[j] != '"' {
			return -1, true
		}
		j++
	}
	return j, true
}

// checkNonce fails unless the open message's boundary is one PreRender
// wrote: the nonce first, every other value between sentinels.
func checkNonce(src []byte, o *open, nonce string) error {
	why := "has no nonce"
	for i, a := range o.m.attrs {
		if a.key == "nonce" && !a.wrapped {
			why = "has a different nonce"
			if a.value == nonce && i == 0 {
				why = ""
				continue
			}
			break
		}
		if !a.wrapped {
			why = "has an attribute " + a.key + " that the template did not write"
			break
		}
	}
	if why == "" {
		return nil
	}
	return diag.Errorf(format, src, o.off,
		"Role marker nonce mismatch — possible injection: this %s: boundary %s", o.m.role, why)
}

// checkNonceLines fails when the nonce occurs on a line that is not a
// boundary carrying it. Only the template's own boundaries hold the nonce,
// so such a line is one of them that an input value broke (a line break in
// an attribute value, or text joined to the line): without this check the
// template would silently lose a message.
func checkNonceLines(src []byte, cfg *config) error {
	checked := cfg.checked
	nonce := []byte(cfg.nonce)
	for i := 0; ; {
		j := bytes.Index(src[i:], nonce)
		if j < 0 {
			return nil
		}
		off := i + j
		bol := bytes.LastIndexAny(src[:off], "\n\r") + 1
		k, found := slices.BinarySearch(checked, bol)
		if !found {
			why := "a role marker line of the template was changed by an input value"
			sent, line := newSentinels(cfg.nonce), lineOf(src, bol)
			if strings.Count(line, sent.open) != strings.Count(line, sent.close) {
				why = "an input value put a line break into an attribute value of a role marker"
			}
			return diag.Errorf(format, src, off, "Role marker nonce mismatch — possible injection: %s", why)
		}
		checked = checked[k:]
		i = off + len(nonce)
	}
}

// lineOf returns the line of src that starts at bol, without its break.
func lineOf(src []byte, bol int) string {
	end := bytes.IndexAny(src[bol:], "\n\r")
	if end < 0 {
		return string(src[bol:])
	}
	return string(src[bol : bol+end])
}
