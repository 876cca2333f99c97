// Package mediatype names the media type of a file or URL that does not
// say it, by one fixed table of extensions rather than the system's, so
// that the same file gets the same type everywhere.
package mediatype

import (
	"path"
	"strings"
)

var byExtension = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".svg": "image/svg+xml",
	".wav": "audio/wav", ".mp3": "audio/mpeg", ".ogg": "audio/ogg", ".flac": "audio/flac",
	".m4a": "audio/mp4", ".aac": "audio/aac", ".webm": "audio/webm",
	".pdf": "application/pdf", ".txt": "text/plain", ".md": "text/markdown", ".csv": "text/csv",
	".json": "application/json", ".html": "text/html", ".xml": "application/xml",
}

// ByExtension is the media type of a file name or path by its extension
// (in any case), or "" for one the table has not.
func ByExtension(name string) string {
	return byExtension[strings.ToLower(path.Ext(name))]
}

// OfURL is the media type a URL says without a header: a data: URL's own
// ("data:image/png;base64,..."), else that of its path's extension (the
// query and fragment cut), or "".
func OfURL(u string) string {
	if rest, ok := strings.CutPrefix(u, "data:"); ok {
		meta, _, _ := strings.Cut(rest, ",")
		mt, _, _ := strings.Cut(meta, ";")
		return strings.ToLower(mt)
	}
	u, _, _ = strings.Cut(u, "#")
	u, _, _ = strings.Cut(u, "?")
	return ByExtension(u)
}
