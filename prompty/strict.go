package prompty

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// NewNonce returns a fresh render nonce: 16 lowercase hex digits from
// crypto/rand.
func NewNonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}

// ThreadPlaceholder returns a fresh placeholder for the thread input name,
// "__PROMPTY_THREAD_<16 hex>_<name>__", to stand in the template's inputs
// where the thread goes; give it to Parse with Threads.
func ThreadPlaceholder(name string) string {
	return "__PROMPTY_THREAD_" + NewNonce() + "_" + name + "__"
}

// PreRender prepares a template for strict parsing: every boundary line
// becomes `role[nonce="<nonce>", <its other attributes>]:` (lower-case role,
// attributes kept as written, so that quotes around a template expression
// stay; an existing nonce attribute is replaced), with its own line break. Other lines are unchanged. Render the result, then Parse it with
// Strict(nonce): a boundary that a template value smuggles in lacks the
// nonce and fails. The nonce must be a single line, such as NewNonce gives.
func PreRender(template, nonce string) string {
	out, _ := preRender(template, nonce)
	return out
}

// preRender is PreRender, also returning the signature of each boundary
// of the template (see signature).
func preRender(template, nonce string) (string, map[string]bool) {
	sigs := map[string]bool{}
	var nb strings.Builder
	writeAttrs(&nb, []attr{{key: "nonce", value: nonce}})
	nonceBlock := nb.String() // [nonce=…]
	var b strings.Builder
	b.Grow(len(template) + 64)
	src := []byte(template)
	sc := lines.NewScanner(src)
	for {
		s, e, next, ok := sc.Next()
		if !ok {
			return b.String(), sigs
		}
		m, isMarker, _ := parseMarker(template[s:e])
		if !isMarker {
			b.WriteString(template[s:next])
			continue
		}
		attrs := make([]attr, 0, len(m.attrs)+1)
		attrs = append(attrs, attr{key: "nonce", value: nonce})
		hadNonce := false
		for _, a := range m.attrs {
			if a.key != "nonce" {
				attrs = append(attrs, a)
			} else {
				hadNonce = true
			}
		}
		sigs[signature(m.role, attrs)] = true
		b.WriteString(m.role)
		switch {
		case len(m.attrs) == 0:
			b.WriteString(nonceBlock)
		case hadNonce: // rewritten, to drop the old nonce
			writeAttrs(&b, attrs)
		default:
			// The author's attribute text as written: its values may be
			// template expressions, whose quotes must stay.
			line := template[s:e]
			b.WriteString(nonceBlock[:len(nonceBlock)-1])
			b.WriteString(", ")
			b.WriteString(line[strings.IndexByte(line, '[')+1 : strings.LastIndexByte(line, ']')])
			b.WriteByte(']')
		}
		b.WriteString(":")
		b.WriteString(template[e:next])
	}
}

// signature is a boundary's role and attribute keys in order, the nonce
// left out. An input value inside a quoted attribute value of a template
// boundary (user[name="{{who}}"]) can close the quote and add attributes;
// it cannot remove one (a quote it leaves open swallows the line and breaks
// the block). So a rendered boundary whose signature no template boundary
// has was changed by an input.
func signature(role string, attrs []attr) string {
	var b strings.Builder
	b.WriteString(role)
	for _, a := range attrs {
		if a.key != "nonce" {
			b.WriteByte(' ')
			b.WriteString(a.key)
		}
	}
	return b.String()
}

// checkNonce fails unless the open message's boundary carries the nonce.
func checkNonce(src []byte, o *open, nonce string, sigs map[string]bool) error {
	why := "has no nonce"
	for _, a := range o.m.attrs {
		if a.key == "nonce" {
			if a.value == nonce && sigs != nil && !sigs[signature(o.m.role, o.m.attrs)] {
				why = "has attributes that no role marker of the template has (an input value added them)"
				break
			}
			if a.value == nonce {
				return nil
			}
			why = "has a different nonce"
		}
	}
	return promptfmt.Errorf(format, src, o.off,
		"Role marker nonce mismatch — possible injection: this %s: boundary %s", o.m.role, why)
}

// checkNonceLines fails when the nonce occurs on a line that is not a
// boundary carrying it. Only the template's own boundaries hold the nonce,
// so such a line is one of them that an input value broke (a quote in an
// attribute value, say, that turned the boundary into content): without
// this check the template would silently lose a message.
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
			return promptfmt.Errorf(format, src, off,
				"Role marker nonce mismatch — possible injection: a role marker line of the template was changed by an input value")
		}
		checked = checked[k:]
		i = off + len(nonce)
	}
}
