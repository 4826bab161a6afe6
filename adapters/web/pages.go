package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
)

// pageBase is what every page's layout needs.
type pageBase struct {
	Title string
	Links links
	CSS   string // the stylesheet's URL
	JS    string // the script's URL
	Icon  string // the favicon's URL
}

func (s *Site) links() links { return links{base: s.opts.BasePath} }

func (s *Site) base(title string) pageBase {
	l := s.links()
	return pageBase{Title: title, Links: l,
		CSS:  l.Asset("site.css", s.files.version("site.css")),
		JS:   l.Asset("ask.js", s.files.version("ask.js")),
		Icon: l.Asset("icon.svg", s.files.version("icon.svg"))}
}

// parsePages parses the embedded templates: one layout and a "main" per
// page, each page parsed into its own set.
func parsePages(funcs template.FuncMap) (*template.Template, error) {
	t, err := template.New("pages").Funcs(funcs).ParseFS(embedded, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("web: parsing templates: %w", err)
	}
	return t, nil
}

func (s *Site) funcs() template.FuncMap {
	l := s.links()
	return template.FuncMap{
		"runURL":    l.Run,
		"filterURL": l.Filter,
		"entryURL":  l.Entry,
		"inline":    l.inline,
		"exact":     exactText,
		"hitRate":   hitRateText,
		"plural":    plural,
		"list":      func(v ...any) []any { return v },
	}
}

// render executes the named template into a buffer first, so a template
// failure is a clean 500 rather than half a page.
func (s *Site) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.ErrorContext(r.Context(), "rendering page", "page", name, "err", err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	writePage(w, r, status, buf.Bytes())
}

// plural is "1 run" or "n runs".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
