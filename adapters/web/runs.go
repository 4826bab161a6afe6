package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// runsPerPage is how many runs one page of a filter's matches lists.
const runsPerPage = 50

// maxCellsShown bounds the per-cell medians one page lists (the lead says
// how many matched).
const maxCellsShown = 500

// filterTimeout is how long a page's filter may run: the runs command's
// default --timeout.
const filterTimeout = 2 * time.Second

// runPageData is one run's page.
type runPageData struct {
	pageBase
	bot.RunDetail
	Series     string
	Floor      bool
	Conditions string
	CellFilter string
	Median     string
	Fields     []field
	UpstreamAt string // the published file, at the line when the copy is exact
}

// field is one measured or recorded field of a run.
type field struct {
	Name, Value, Note string
}

func (s *Site) runPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	det, err := s.data.Run(r.Context(), id)
	if errors.Is(err, bot.ErrUnknownRun) {
		s.render(w, r, http.StatusNotFound, "notfound", notFoundPage{pageBase: s.base("Unknown run"), ID: id})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	row := bot.RowFromCell(det.Cell)
	p := runPageData{pageBase: s.base(det.Run.ID), RunDetail: det, Series: row.Series, Floor: row.Floor,
		Conditions: conditions(det.Run.Session, det.Run.Cores, det.Run.Ratio, det.Run.ValueBytes, det.Run.Pipeline),
		CellFilter: cellFilter(det.Cell), Median: medianText(det.Cell.OpsPerSec, row.Floor, det.Cell.Reps),
		Fields: runFields(det.Run), UpstreamAt: det.Source.Upstream}
	if det.Source.LineExact && det.Source.Line > 0 {
		p.UpstreamAt += "#L" + strconv.Itoa(det.Source.Line)
	}
	s.render(w, r, http.StatusOK, "run", p)
}

type notFoundPage struct {
	pageBase
	ID string
}

// runFields lists every field of a run in the order of the capture files,
// with what the quirky ones mean.
func runFields(r bot.MeasuredRun) []field {
	i := strconv.Itoa
	return []field{
		{"id", r.ID, "stable across re-imports; matches the public dataset"},
		{"session", i(r.Session), ""},
		{"run_id", r.RunID, "the batch"},
		{"note", r.Note, "the batch label"},
		{"engine", r.Engine, ""},
		{"mode", r.Mode, modeNote(r.Mode)},
		{"shards", i(r.Shards), ""},
		{"server_threads", i(r.ServerThreads), ""},
		{"shard_io_threads", i(r.ShardIOThreads), ""},
		{"cores", i(r.Cores), "cores_used in the capture file"},
		{"server_cpus", r.ServerCPUs, "stale in the source; not the cores used"},
		{"client_cpus", r.ClientCPUs, ""},
		{"client_threads", i(r.ClientThreads), ""},
		{"client_conns", i(r.ClientConns), "per client thread"},
		{"pipeline", i(r.Pipeline), ""},
		{"ratio", r.Ratio, ratioNote(r.Ratio)},
		{"value_bytes", i(r.ValueBytes), "data_bytes in the capture file"},
		{"key_max", i(r.KeyMax), keyMaxNote(r.Mode)},
		{"test_time_s", i(r.TestTimeS), ""},
		{"populate", i(r.Populate), ""},
		{"rep", i(r.Rep), "repetition"},
		{"ops_per_sec", exactText(r.OpsPerSec), ""},
		{"ops_per_core", exactText(r.OpsPerCore), ""},
		{"p50_ms", exactText(r.P50Ms), ""},
		{"p99_ms", exactText(r.P99Ms), ""},
		{"p999_ms", exactText(r.P999Ms), ""},
		{"hit_rate", hitRateText(r.HitRate), ""},
		{"hits_per_sec", exactText(r.HitsPerSec), ""},
		{"misses_per_sec", exactText(r.MissesPerSec), ""},
		{"conn_errors", i(r.ConnErrors), ""},
		{"kb_per_sec", exactText(r.KBPerSec), ""},
	}
}

func modeNote(m string) string {
	switch m {
	case "single":
		return "one process"
	case "cluster":
		return "cluster, one normal client (realistic)"
	case "cluster-sat":
		return "cluster, one client per shard (fully driven ceiling)"
	}
	return ""
}

func ratioNote(r string) string {
	switch r {
	case "1:10":
		return "SET:GET, read-heavy"
	case "1:1":
		return "SET:GET, balanced"
	case "mget10", "mset10":
		return "one op is one command of 10 keys"
	}
	return ""
}

func keyMaxNote(mode string) string {
	if mode == "cluster-sat" {
		return "per shard"
	}
	if mode == "cluster" {
		return "whole cluster"
	}
	return ""
}

// cellFilter is the filter that selects exactly one cell's repetitions.
func cellFilter(c bot.MeasuredCell) string {
	return fmt.Sprintf(`session == %d && engine == %q && mode == %q && cores == %d && ratio == %q && value_bytes == %d && pipeline == %d`,
		c.Session, c.Engine, c.Mode, c.Cores, c.Ratio, c.ValueBytes, c.Pipeline)
}

// runsPageData is the filter page.
type runsPageData struct {
	pageBase
	Filter  string
	Problem *bot.FilterProblem
	// Caret points under the offending character of a one-line filter.
	Caret string
	Cells []cellView
	Runs  []bot.MeasuredRun
	Total int
	// TotalCells counts every matching cell; Cells holds the first
	// maxCellsShown.
	TotalCells int
	Page       int
	Pages      int
	Prev       string
	Next       string
}

// cellView is one cell in a list of medians.
type cellView struct {
	Series, Conditions, Median, Filter string
	P50, P99, P999                     string
	Reps                               int
}

func (s *Site) runsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := runsPageData{pageBase: s.base("Runs"), Filter: q.Get("filter"), Page: 1}
	if !q.Has("filter") {
		s.render(w, r, http.StatusOK, "runs", p)
		return
	}
	p.Title = "Runs matching " + p.Filter
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n >= 1 {
		p.Page = n
	}
	// One page of runs is read, under the CLI's timeout for a filter.
	ctx, cancel := context.WithTimeout(r.Context(), filterTimeout)
	defer cancel()
	res, err := s.data.FilterPage(ctx, p.Filter, (p.Page-1)*runsPerPage, runsPerPage, maxCellsShown)
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		err = &bot.FilterProblem{Filter: p.Filter, Msg: fmt.Sprintf("it took longer than %s and was stopped; simplify it", filterTimeout)}
	}
	var fp *bot.FilterProblem
	if errors.As(err, &fp) {
		p.Problem = fp
		if fp.Column > 0 && !strings.Contains(fp.Filter, "\n") {
			p.Caret = strings.Repeat(" ", fp.Column-1) + "^"
		}
		s.render(w, r, http.StatusBadRequest, "runs", p)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for _, c := range res.Cells {
		row := bot.RowFromCell(c)
		p.Cells = append(p.Cells, cellView{Series: row.Series,
			Conditions: conditions(c.Session, c.Cores, c.Ratio, c.ValueBytes, c.Pipeline),
			Median:     opsText(c.OpsPerSec, row.Floor), Filter: cellFilter(c),
			P50: exactText(c.P50Ms), P99: exactText(c.P99Ms), P999: exactText(c.P999Ms), Reps: c.Reps})
	}
	p.Total, p.TotalCells = res.TotalRuns, res.TotalCells
	p.Pages = max(1, (p.Total+runsPerPage-1)/runsPerPage)
	p.Runs = res.Runs
	if p.Page > p.Pages { // past the end: the last page
		p.Page = p.Pages
		if res, err = s.data.FilterPage(ctx, p.Filter, (p.Page-1)*runsPerPage, runsPerPage, 0); err != nil {
			s.fail(w, r, err)
			return
		}
		p.Runs = res.Runs
	}
	pageURL := func(n int) string { return s.links().Filter(p.Filter) + "&page=" + strconv.Itoa(n) + "#runs" }
	if p.Page > 1 {
		p.Prev = pageURL(p.Page - 1)
	}
	if p.Page < p.Pages {
		p.Next = pageURL(p.Page + 1)
	}
	s.render(w, r, http.StatusOK, "runs", p)
}

// fail logs an unexpected error and shows a short page; the details stay
// in the log.
func (s *Site) fail(w http.ResponseWriter, r *http.Request, err error) {
	ref := newConversation()[:8]
	s.log.ErrorContext(r.Context(), "serving page", "path", r.URL.Path, "ref", ref, "err", err)
	s.render(w, r, http.StatusInternalServerError, "failed", failedPage{pageBase: s.base("Error"), Ref: ref})
}

type failedPage struct {
	pageBase
	Ref string
}
