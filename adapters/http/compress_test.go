package http

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

func TestTheEncodingFollowsTheClientsQValues(t *testing.T) {
	for _, tc := range []struct {
		header, want string
	}{
		{"", ""},
		{"identity", ""},
		{"gzip", "gzip"},
		{"br", "br"},
		{"gzip, deflate, br", "br"},
		{"gzip;q=1.0, br;q=1.0", "br"},
		{"br;q=0.5, gzip", "gzip"},
		{"BR;Q=0.9, GZIP;q=0.8", "br"},
		{"br;q=0, gzip", "gzip"},
		{"br;q=0, gzip;q=0", ""},
		{"gzip; q=0", ""},
		{"*", "br"},
		{"*;q=0.1, gzip;q=0.5", "gzip"},
		{"*;q=0, gzip", "gzip"},
		{"br;q=abc, gzip", "gzip"},
		{"br;q=2, gzip;q=0.3", "gzip"},
	} {
		if got := chooseEncoding(tc.header); got != tc.want {
			t.Errorf("Accept-Encoding %q: %q, want %q", tc.header, got, tc.want)
		}
	}
}

// decode undoes a Content-Encoding.
func decode(t *testing.T, enc string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch enc {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", enc, err)
	}
	return out
}

// page is a text body well past minCompressed.
var page = []byte("<!doctype html><table>" + strings.Repeat("<tr><td>dragonfly</td><td>48</td><td>15,512,034 ops/s</td></tr>\n", 400) + "</table>")

func TestResponsesAreSentInTheEncodingAskedForAndDecodeToTheSameBytes(t *testing.T) {
	asset := []byte(strings.Repeat("body { color: #222; } .card { margin: 0 auto; }\n", 100))
	mux := http.NewServeMux()
	mux.HandleFunc("/data", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page[:len(page)/2])
		_, _ = w.Write(page[len(page)/2:])
	})
	mux.HandleFunc("/tiny", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`)
	})
	mux.HandleFunc("/chart.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(page)
	})
	mux.HandleFunc("/static/site.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("ETag", `"abc123"`)
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(asset))
	})
	h := compressed(mux)
	for _, tc := range []struct {
		name, path, accept, wantEncoding string
		want                             []byte
	}{
		{"a page to a client preferring brotli", "/data", "gzip, deflate, br", "br", page},
		{"a page to a client preferring gzip", "/data", "br;q=0.5, gzip", "gzip", page},
		{"a page to a client accepting neither", "/data", "identity", "", page},
		{"a page to a client without the header", "/data", "", "", page},
		{"a tiny body", "/tiny", "br", "", []byte(`{"status":"ok"}`)},
		{"an image", "/chart.png", "br", "", page},
		{"an asset, the first time", "/static/site.css", "br", "br", asset},
		{"an asset, again", "/static/site.css", "br", "br", asset},
		{"an asset in gzip", "/static/site.css", "gzip", "gzip", asset},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if got := res.Header.Get("Content-Encoding"); got != tc.wantEncoding {
				t.Fatalf("Content-Encoding %q, want %q", got, tc.wantEncoding)
			}
			if got := decode(t, tc.wantEncoding, rec.Body.Bytes()); !bytes.Equal(got, tc.want) {
				t.Fatalf("decoded %d bytes that differ from the %d identity bytes", len(got), len(tc.want))
			}
			text := tc.path != "/chart.png"
			if vary := res.Header.Get("Vary") == "Accept-Encoding"; vary != text {
				t.Errorf("Vary %q", res.Header.Get("Vary"))
			}
			if cl := res.Header.Get("Content-Length"); cl != "" && cl != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("Content-Length %s for a body of %d", cl, rec.Body.Len())
			}
			if tc.wantEncoding != "" && strings.HasPrefix(tc.path, "/static/") && res.Header.Get("ETag") != `W/"abc123"` {
				t.Errorf("ETag %q: a compressed form's is weak", res.Header.Get("ETag"))
			}
			t.Logf("%s: %d bytes as sent, %d identity", tc.path, rec.Body.Len(), len(tc.want))
		})
	}
}

func TestAnAssetIsCompressedOncePerProcessAndEncoding(t *testing.T) {
	asset := []byte(strings.Repeat("const x = 1;\n", 500))
	assets := newAssetCache()
	h := compressedWith(assets, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		w.Header().Set("ETag", `"js1"`)
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(asset)
	}))
	sent := map[string][]byte{}
	for _, enc := range []string{"br", "br", "gzip", "br", "gzip"} {
		req := httptest.NewRequest(http.MethodGet, "/static/site.js", nil)
		req.Header.Set("Accept-Encoding", enc)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if prev, ok := sent[enc]; ok && !bytes.Equal(prev, rec.Body.Bytes()) {
			t.Fatalf("%s: a later request got other compressed bytes", enc)
		}
		sent[enc] = rec.Body.Bytes()
		if !bytes.Equal(decode(t, enc, rec.Body.Bytes()), asset) {
			t.Fatalf("%s: the asset does not decode to itself", enc)
		}
	}
	if n := assets.made.Load(); n != 2 {
		t.Fatalf("compressed %d times for 5 requests in 2 encodings, want once per encoding", n)
	}
	if !bytes.Equal(sent["br"], compressBest("br", asset)) {
		t.Error("the asset is not sent at brotli's best level")
	}
}

// A stream that flushes is compressed as it goes, whatever its length.
func TestAFlushedStreamIsCompressedAsItGoes(t *testing.T) {
	h := compressed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: one\n\n")
		http.NewResponseController(w).Flush()
		_, _ = io.WriteString(w, "data: two\n\n")
	}))
	req := httptest.NewRequest(http.MethodGet, "/stream", nil)
	req.Header.Set("Accept-Encoding", "br")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "br" || string(decode(t, "br", rec.Body.Bytes())) != "data: one\n\ndata: two\n\n" {
		t.Fatalf("%q %q", rec.Header().Get("Content-Encoding"), rec.Body.Bytes())
	}
}
