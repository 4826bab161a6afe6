package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// maxCharts is how many answers' charts a Site keeps for their image URLs.
const maxCharts = 64

// charts keeps the charts of recent answers by content hash, so an answer
// is sent as soon as it is composed and its image, drawn on request, follows
// on its own URL. The oldest chart goes first; a chart that is gone (another
// replica, a restart) leaves the image's alt text and the answer's table.
type charts struct {
	mu    sync.Mutex
	order []string
	byKey map[string]*chartEntry
}

type chartEntry struct {
	chart bot.Chart
	png   []byte // drawn on the first request
}

func newCharts() *charts { return &charts{byKey: map[string]*chartEntry{}} }

// add remembers c and returns its key.
func (cs *charts) add(c bot.Chart) string {
	raw, err := json.Marshal(c)
	if err != nil {
		return ""
	}
	key := contentHash(raw)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, ok := cs.byKey[key]; ok {
		return key
	}
	if len(cs.order) >= maxCharts {
		delete(cs.byKey, cs.order[0])
		cs.order = cs.order[1:]
	}
	cs.order = append(cs.order, key)
	cs.byKey[key] = &chartEntry{chart: c}
	return key
}

func (cs *charts) get(key string) (*chartEntry, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	e, ok := cs.byKey[key]
	return e, ok
}

// chartImage draws a remembered chart as PNG.
func (s *Site) chartImage(w http.ResponseWriter, r *http.Request) {
	key, ok := strings.CutSuffix(r.PathValue("file"), ".png")
	e, found := s.charts.get(key)
	if !ok || !found || s.opts.RenderChart == nil {
		http.NotFound(w, r)
		return
	}
	s.charts.mu.Lock()
	png := e.png
	s.charts.mu.Unlock()
	if png == nil {
		var err error
		if png, err = s.opts.RenderChart(r.Context(), e.chart); err != nil {
			s.log.WarnContext(r.Context(), "rendering chart", "err", err)
			http.Error(w, "the chart could not be drawn; the answer's table holds its values", http.StatusInternalServerError)
			return
		}
		s.charts.mu.Lock()
		e.png = png
		s.charts.mu.Unlock()
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("ETag", `"`+key+`"`)
	w.Header().Set("Cache-Control", "private, max-age=86400, immutable")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(png))
}
