package http

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/andybalholm/brotli"
	lru "github.com/hashicorp/golang-lru/v2"
)

// minCompressed is the smallest body worth compressing: below it the
// encoding's framing and headers cost about what they save.
const minCompressed = 1024

// Writers are reused: a gzip.Writer holds about 800 KB of state, a
// brotli.Writer more. Answers and pages change per request, so they are
// compressed fast (gzip level 1, brotli level 4); an asset is compressed
// once per process at the best levels and kept (see assetCache).
var (
	gzipWriters   = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed); return w }}
	brotliWriters = sync.Pool{New: func() any { return brotli.NewWriterLevel(io.Discard, 4) }}
)

// encoder is what gzip.Writer and brotli.Writer have in common.
type encoder interface {
	io.Writer
	Flush() error
	Close() error
	Reset(io.Writer)
}

func getEncoder(name string, w io.Writer) encoder {
	var e encoder
	if name == "br" {
		e = brotliWriters.Get().(*brotli.Writer)
	} else {
		e = gzipWriters.Get().(*gzip.Writer)
	}
	e.Reset(w)
	return e
}

func putEncoder(name string, e encoder) {
	e.Reset(io.Discard)
	if name == "br" {
		brotliWriters.Put(e)
	} else {
		gzipWriters.Put(e)
	}
}

// compressBest compresses body at the encoding's best level (assets,
// once per process).
func compressBest(name string, body []byte) []byte {
	var buf bytes.Buffer
	var e encoder
	if name == "br" {
		e = brotli.NewWriterLevel(&buf, brotli.BestCompression)
	} else {
		e, _ = gzip.NewWriterLevel(&buf, gzip.BestCompression)
	}
	_, _ = e.Write(body) // a bytes.Buffer takes everything
	_ = e.Close()
	return buf.Bytes()
}

// assetCache keeps the compressed forms of public responses with a strong
// ETag (the embedded CSS and JavaScript, named by their content hash): the
// same bytes every time, so each is compressed once per process and
// encoding. Bounded, so pages with ETags of their own cannot grow it.
type assetCache struct {
	forms *lru.Cache[string, []byte]
	made  atomic.Int64 // forms compressed so far
}

func newAssetCache() *assetCache {
	forms, _ := lru.New[string, []byte](128) // a positive constant size never fails
	return &assetCache{forms: forms}
}

// cacheable reports whether a response's compressed form may be kept:
// public, with a strong ETag naming its bytes.
func cacheable(h http.Header) bool {
	etag := h.Get("ETag")
	return etag != "" && !strings.HasPrefix(etag, "W/") && strings.Contains(h.Get("Cache-Control"), "public")
}

// compressed compresses text responses (HTML, JSON, CSS, JavaScript,
// plain text, SVG) with brotli or gzip, whichever the client prefers by
// its Accept-Encoding q-values (brotli on a tie): the /data page goes
// from 167 KB to 27 KB gzipped and 22 KB with brotli. Bodies under
// 1 KB, responses already encoded (Prometheus compresses /metrics
// itself), images, ranges, HEAD and bodiless statuses pass as they are.
// Every text response says Vary: Accept-Encoding.
func compressed(h http.Handler) http.Handler { return compressedWith(newAssetCache(), h) }

func compressedWith(assets *assetCache, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		enc := chooseEncoding(r.Header.Get("Accept-Encoding"))
		if r.Header.Get("Range") != "" || r.Method == http.MethodHead {
			enc = ""
		}
		cw := &compressWriter{ResponseWriter: w, enc: enc, assets: assets}
		defer cw.close()
		h.ServeHTTP(cw, r)
	})
}

// chooseEncoding picks "br", "gzip" or "" (identity) from an
// Accept-Encoding header: the highest q-value wins, q=0 refuses, "*"
// stands for any encoding not named, and brotli wins a tie.
func chooseEncoding(header string) string {
	q := map[string]float64{}
	star, hasStar := 0.0, false
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					weight = f
				} else {
					weight = 0 // a malformed weight is no consent
				}
			}
		}
		if name == "*" {
			star, hasStar = weight, true
			continue
		}
		q[name] = weight
	}
	best, bestQ := "", 0.0
	for _, name := range []string{"br", "gzip"} {
		w, named := q[name]
		if !named && hasStar {
			w = star
		}
		if w > bestQ {
			best, bestQ = name, w
		}
	}
	return best
}

func compressible(contentType string) bool {
	ct, _, _ := strings.Cut(contentType, ";")
	ct = strings.TrimSpace(strings.ToLower(ct))
	return strings.HasPrefix(ct, "text/") || ct == "application/json" || ct == "application/problem+json" ||
		ct == "application/javascript" || ct == "image/svg+xml"
}

// compressWriter decides at the status line whether a response may be
// compressed, and then, once it has seen minCompressed bytes (or the
// whole body), whether it is.
type compressWriter struct {
	http.ResponseWriter
	enc    string // the chosen encoding; "" sends identity
	assets *assetCache

	decided bool // the status line is in (code)
	code    int
	mode    writeMode
	buf     bytes.Buffer // held back until the choice is made
	zw      encoder
	asset   string // the asset cache key, in modeAsset
}

type writeMode int

const (
	modeIdentity writeMode = iota // headers sent, bytes pass
	modePending                   // compressible: holding back the first bytes
	modeStream                    // compressing as the bytes come
	modeAsset                     // holding the whole asset, to compress it once
	modeCached                    // the asset's compressed form is sent; the handler's bytes are dropped
)

func (c *compressWriter) WriteHeader(code int) {
	if c.decided {
		return
	}
	c.decided, c.code = true, code
	h := c.Header()
	text := compressible(h.Get("Content-Type"))
	if text && h.Get("Content-Encoding") == "" {
		h.Add("Vary", "Accept-Encoding")
	}
	if c.enc == "" || !text || code < 200 || code == http.StatusNoContent || code == http.StatusNotModified ||
		h.Get("Content-Encoding") != "" {
		c.ResponseWriter.WriteHeader(code)
		return
	}
	if n, err := strconv.Atoi(h.Get("Content-Length")); err == nil && n < minCompressed {
		c.ResponseWriter.WriteHeader(code)
		return
	}
	c.mode = modePending
	if code == http.StatusOK && cacheable(h) {
		c.asset = c.enc + " " + h.Get("ETag")
		if form, ok := c.assets.forms.Get(c.asset); ok {
			c.mode = modeCached
			c.sendEncodedHeader(len(form))
			_, _ = c.ResponseWriter.Write(form) // the client went away; nothing left to tell it
			return
		}
		c.mode = modeAsset
	}
}

// sendEncodedHeader sends the status line of the compressed form (n its
// length, or -1 when streamed).
func (c *compressWriter) sendEncodedHeader(n int) {
	h := c.Header()
	h.Set("Content-Encoding", c.enc)
	h.Del("Content-Length")
	if n >= 0 {
		h.Set("Content-Length", strconv.Itoa(n))
	}
	if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
		h.Set("ETag", "W/"+etag) // the bytes differ from the identity form's
	}
	c.ResponseWriter.WriteHeader(c.code)
}

func (c *compressWriter) Write(b []byte) (int, error) {
	if !c.decided {
		if c.Header().Get("Content-Type") == "" {
			c.Header().Set("Content-Type", http.DetectContentType(b))
		}
		c.WriteHeader(http.StatusOK)
	}
	switch c.mode {
	case modeCached:
		return len(b), nil
	case modeAsset:
		return c.buf.Write(b)
	case modePending:
		c.buf.Write(b)
		if c.buf.Len() >= minCompressed {
			c.startStream()
		}
		return len(b), nil
	case modeStream:
		return c.zw.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// startStream sends the compressed status line and what was held back.
func (c *compressWriter) startStream() {
	c.mode = modeStream
	c.sendEncodedHeader(-1)
	c.zw = getEncoder(c.enc, c.ResponseWriter)
	_, _ = c.zw.Write(c.buf.Bytes())
	c.buf.Reset()
}

// sendIdentity sends what was held back as it is: too short to compress.
func (c *compressWriter) sendIdentity() {
	c.mode = modeIdentity
	c.Header().Set("Content-Length", strconv.Itoa(c.buf.Len()))
	c.ResponseWriter.WriteHeader(c.code)
	_, _ = c.ResponseWriter.Write(c.buf.Bytes())
	c.buf.Reset()
}

// Flush sends what is compressed so far, for streamed responses: a
// stream flushed early is compressed whatever its length so far.
func (c *compressWriter) Flush() {
	if c.mode == modePending {
		c.startStream()
	}
	if c.zw != nil {
		_ = c.zw.Flush()
	}
	if c.mode != modeAsset {
		_ = http.NewResponseController(c.ResponseWriter).Flush()
	}
}

func (c *compressWriter) close() {
	switch c.mode {
	case modePending:
		c.sendIdentity()
	case modeAsset:
		if c.buf.Len() < minCompressed {
			c.sendIdentity()
			return
		}
		form := compressBest(c.enc, c.buf.Bytes())
		c.assets.made.Add(1)
		c.assets.forms.Add(c.asset, form)
		c.sendEncodedHeader(len(form))
		_, _ = c.ResponseWriter.Write(form)
	case modeStream:
		_ = c.zw.Close()
		putEncoder(c.enc, c.zw)
		c.zw = nil
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
