package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"time"
)

//go:embed static templates
var embedded embed.FS

// staticFile is one embedded asset with its strong ETag.
type staticFile struct {
	body []byte
	etag string // quoted
	kind string // Content-Type
}

// staticFiles are the embedded assets by base name. Pages link them as
// /static/<hash>/<name>, so a changed file gets a new URL and the old one
// may be cached for good; only the URL of a file's own hash is.
type staticFiles struct{ byName map[string]staticFile }

func loadStatic() (*staticFiles, error) {
	entries, err := fs.ReadDir(embedded, "static")
	if err != nil {
		return nil, fmt.Errorf("web: reading embedded assets: %w", err)
	}
	out := &staticFiles{byName: map[string]staticFile{}}
	for _, e := range entries {
		body, err := embedded.ReadFile("static/" + e.Name())
		if err != nil {
			return nil, fmt.Errorf("web: reading embedded asset %s: %w", e.Name(), err)
		}
		out.byName[e.Name()] = staticFile{body: body, etag: `"` + contentHash(body) + `"`,
			kind: mime.TypeByExtension(path.Ext(e.Name())) + "; charset=utf-8"}
	}
	return out, nil
}

// version is the asset's cache-busting hash, or "" when there is none.
func (f *staticFiles) version(name string) string {
	sf, ok := f.byName[name]
	if !ok {
		return ""
	}
	return sf.etag[1:9]
}

func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

func (s *Site) static(w http.ResponseWriter, r *http.Request) {
	f, ok := s.files.byName[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", f.kind)
	w.Header().Set("ETag", f.etag)
	v := r.PathValue("v") // /static/HASH/name, the pages' links
	if v == "" {
		v = r.URL.Query().Get("v") // ?v=HASH, links of pages from earlier versions
	}
	switch {
	case v != "" && v == f.etag[1:9]:
		// The URL names these exact bytes: cache it for good.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	case v != "":
		// An old or made-up version: never pin other bytes under its URL.
		w.Header().Set("Cache-Control", "no-cache")
	default:
		w.Header().Set("Cache-Control", "public, max-age=300")
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}

// writePage sends a rendered page with a strong ETag over its bytes, so a
// browser revisiting an unchanged page gets 304 Not Modified.
func writePage(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	if status != http.StatusOK || r.Method != http.MethodGet {
		w.WriteHeader(status)
		_, _ = w.Write(body) // the client went away; nothing left to tell it
		return
	}
	h.Set("ETag", `"`+contentHash(body)+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}
