package pdl

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/confined"
)

// imageTypes are the image types PDL knows, by the name used in
// raw_media and as a file extension, with their media types.
var imageTypes = map[string]string{
	"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
	"gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
}

// imageExt is the name Write uses for a media type (upstream's Display).
var imageExt = map[string]string{
	"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif",
	"image/webp": "webp", "image/svg+xml": "svg",
}

// parts splits a turn's trimmed text (at rendered offset off) into text
// and image parts at its inline tokens. Text parts are unescaped. Without
// tokens (the text holds no "<|"), the text is one part.
func (p *parser) parts(text string, off int, tokens bool) ([]promptfmt.ContentPart, error) {
	if !tokens {
		if text == "" {
			return nil, nil
		}
		return p.texts.Text(unescape(text)), nil
	}
	var parts []promptfmt.ContentPart
	seg := 0 // start of the pending text
	for i := 0; ; {
		j := strings.Index(text[i:], "<|")
		if j < 0 {
			break
		}
		j += i
		k := strings.Index(text[j+2:], "|>")
		if k < 0 {
			break // no token can close: the rest is text
		}
		token := text[j+2 : j+2+k]
		end := j + 2 + k + 2
		img, err := p.image(token)
		if err != nil {
			return nil, p.s.errorf(off+j, text[j:end], "%v", err)
		}
		if seg < j {
			parts = append(parts, promptfmt.Text(unescape(text[seg:j])))
		}
		parts = append(parts, img)
		i, seg = end, end
	}
	if seg < len(text) {
		parts = append(parts, promptfmt.Text(unescape(text[seg:])))
	}
	return parts, nil
}

// image reads the token between "<|" and "|>" as an image.
func (p *parser) image(token string) (promptfmt.ContentPart, error) {
	if inner, ok := strings.CutPrefix(token, "raw_media("); ok && strings.HasSuffix(inner, ")") {
		if typ, data, ok := strings.Cut(inner[:len(inner)-1], ":"); ok && isAlnum(typ) && data != "" && !strings.Contains(data, ":") {
			return rawMedia(typ, data)
		}
	}
	if inner, ok := strings.CutPrefix(token, "media("); ok && len(inner) > 1 && strings.HasSuffix(inner, ")") && !strings.Contains(inner, "\n") {
		return p.media(inner[:len(inner)-1])
	}
	return promptfmt.ContentPart{}, fmt.Errorf("unknown inline token <|%s|> (PDL has <|media(path)|> and <|raw_media(type:base64)|>; write &lt;| for a literal \"<|\")", short(token))
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func isAlnum(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}

func mediaType(typ string) (string, error) {
	mt, ok := imageTypes[strings.ToLower(typ)]
	if !ok {
		return "", fmt.Errorf("image type %q is not png, jpg, jpeg, gif, webp or svg", typ)
	}
	return mt, nil
}

// rawMedia decodes <|raw_media(type:base64)|>: standard alphabet, padded,
// no whitespace (Go's decoder would skip line breaks; upstream's refuses).
func rawMedia(typ, data string) (promptfmt.ContentPart, error) {
	mt, err := mediaType(typ)
	if err != nil {
		return promptfmt.ContentPart{}, err
	}
	if strings.ContainsAny(data, "\r\n") {
		return promptfmt.ContentPart{}, errors.New("raw_media: a line break inside the base64 data")
	}
	if _, err := base64.StdEncoding.Strict().DecodeString(data); err != nil {
		return promptfmt.ContentPart{}, fmt.Errorf("raw_media: invalid base64 data: %v", err)
	}
	return promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: data, MediaType: mt}, nil
}

// media reads <|media(path)|>, the path taken as written.
func (p *parser) media(name string) (promptfmt.ContentPart, error) {
	ext := path.Ext(name)
	mt, err := mediaType(strings.TrimPrefix(ext, "."))
	if err != nil {
		return promptfmt.ContentPart{}, fmt.Errorf("media(%s): %v", name, err)
	}
	if p.c.FS == nil {
		return promptfmt.ContentPart{}, fmt.Errorf("media(%s): images cannot be read here (no file system: use LoadFile or the promptfmt.FS option)", name)
	}
	b, err := confined.ReadFS(p.c.FS, p.c.base, name, p.c.maxMedia)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%s: no such file", path.Join(p.c.base, name))
		}
		return promptfmt.ContentPart{}, fmt.Errorf("media(%s): %v", name, err)
	}
	return promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: base64.StdEncoding.EncodeToString(b), MediaType: mt}, nil
}
