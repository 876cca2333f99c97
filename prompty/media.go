package prompty

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/confined"
	"github.com/promptfmt/promptfmt/internal/mediatype"
)

// maxMediaSize bounds a local media file that mediaPart reads.
const maxMediaSize = 20 << 20

// mediaPart turns an image, file or audio input's value into a content
// part of that kind. The value is a string or a mapping:
//
//   - "https://..." or "http://...": a URL, kept as the part's value;
//   - "data:<type>;base64,<data>": the data (checked to be base64) with its
//     media type;
//   - any other string: a local file, read from fsys beside dir (confined
//     like ${file:}: no absolute paths, nothing out of fsys; at most
//     maxMediaSize), base64-encoded, its media type from its extension;
//   - a mapping whose url, source, value or data is one of the above
//     (or image_url: {url}), with optional mediaType (media_type,
//     mime_type), detail and filename.
func mediaPart(kind string, v any, fsys fs.FS, dir string) (promptfmt.ContentPart, error) {
	p := promptfmt.ContentPart{Kind: promptfmt.Kind(kind)}
	var src string
	switch v := v.(type) {
	case string:
		src = v
	case promptfmt.ContentPart:
		if v.Kind != p.Kind {
			return p, fmt.Errorf("a %s part given for a %s input", v.Kind, kind)
		}
		return v, nil
	case map[string]any:
		for _, k := range []string{"url", "source", "value", "data"} {
			if s, ok := v[k].(string); ok {
				src = s
				break
			}
		}
		if iu, ok := v["image_url"].(map[string]any); ok && src == "" {
			src, _ = iu["url"].(string)
			p.Detail, _ = iu["detail"].(string)
		}
		for _, k := range []string{"mediaType", "media_type", "mime_type"} {
			if s, ok := v[k].(string); ok {
				p.MediaType = s
			}
		}
		if s, ok := v["detail"].(string); ok {
			p.Detail = s
		}
		p.Filename, _ = v["filename"].(string)
		if src == "" {
			return p, errors.New("want url, source, value or data")
		}
	default:
		return p, fmt.Errorf("want a URL, a data: URI or a path, not %s", describe(v))
	}
	switch {
	case strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://"):
		p.Value = src
		if p.MediaType == "" {
			p.MediaType = mediatype.ByExtension(strings.SplitN(src, "?", 2)[0])
		}
	case strings.HasPrefix(src, "data:"):
		meta, data, ok := strings.Cut(src[len("data:"):], ",")
		mt, isBase64 := strings.CutSuffix(meta, ";base64")
		if !ok || !isBase64 {
			return p, errors.New("a data: URI must be data:<type>;base64,<data>")
		}
		if _, err := base64.StdEncoding.DecodeString(data); err != nil {
			return p, fmt.Errorf("data: URI: %v", err)
		}
		p.Value = data
		if p.MediaType == "" {
			p.MediaType = mt
		}
	default:
		if fsys == nil {
			return p, fmt.Errorf("%s: local files cannot be read here (no file system: load with LoadFile, or give promptfmt.FS)", src)
		}
		b, err := confined.ReadFS(fsys, dir, src, maxMediaSize)
		if err != nil {
			return p, err
		}
		p.Value = base64.StdEncoding.EncodeToString(b)
		if p.MediaType == "" {
			p.MediaType = mediatype.ByExtension(src)
		}
		if p.MediaType == "" {
			return p, fmt.Errorf("%s: unknown media type (give mediaType)", src)
		}
		if kind == KindFile && p.Filename == "" {
			p.Filename = path.Base(src)
		}
	}
	if p.MediaType != "" && !strings.HasPrefix(p.MediaType, expectedPrefix[kind]) {
		return p, fmt.Errorf("media type %s is not an %s type", p.MediaType, kind)
	}
	return p, nil
}

// expectedPrefix is the media type family of each media kind ("" for any).
var expectedPrefix = map[string]string{KindImage: "image/", KindAudio: "audio/", KindFile: ""}
