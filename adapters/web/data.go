package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// dataPageData is the dataset page.
type dataPageData struct {
	pageBase
	bot.Overview
	Grids []coverageGrid
	Cells int
	Runs  int
}

// coverageGrid is one series' measured cells: a row per workload (ratio,
// value size, pipeline), a column per core count, the repetitions in each.
type coverageGrid struct {
	Session int
	Series  string
	Filter  string
	Cores   []int
	Rows    []coverageRow
}

type coverageRow struct {
	Workload string
	Slots    []coverageSlot // one per core count, in Cores order
}

type coverageSlot struct {
	Reps   int // 0: never measured
	Filter string
}

func (s *Site) dataPage(w http.ResponseWriter, r *http.Request) {
	o := s.data.Overview()
	p := dataPageData{pageBase: s.base("Dataset"), Overview: o, Grids: coverageGrids(o.Coverage)}
	for _, c := range o.Coverage {
		p.Cells++
		p.Runs += c.Reps
	}
	s.render(w, r, http.StatusOK, "data", p)
}

// coverageGrids groups cells (in cell order) by series.
func coverageGrids(cells []bot.MeasuredCell) []coverageGrid {
	var grids []coverageGrid
	type workload struct {
		ratio           string
		value, pipeline int
	}
	for start := 0; start < len(cells); {
		first := cells[start]
		end := start
		for end < len(cells) && cells[end].Session == first.Session && cells[end].Engine == first.Engine && cells[end].Mode == first.Mode {
			end++
		}
		series := cells[start:end]
		g := coverageGrid{Session: first.Session, Series: bot.RowFromCell(first).Series,
			Filter: fmt.Sprintf(`session == %d && engine == %q && mode == %q`, first.Session, first.Engine, first.Mode)}
		var loads []workload
		reps := map[workload]map[int]bot.MeasuredCell{}
		for _, c := range series {
			if !slices.Contains(g.Cores, c.Cores) {
				g.Cores = append(g.Cores, c.Cores)
			}
			k := workload{c.Ratio, c.ValueBytes, c.Pipeline}
			if reps[k] == nil {
				reps[k] = map[int]bot.MeasuredCell{}
				loads = append(loads, k)
			}
			reps[k][c.Cores] = c
		}
		slices.Sort(g.Cores)
		for _, k := range loads {
			row := coverageRow{Workload: ratioText(k.ratio) + ", " + strconv.Itoa(k.value) + " B, pipeline " + strconv.Itoa(k.pipeline)}
			for _, cores := range g.Cores {
				c, ok := reps[k][cores]
				if !ok {
					row.Slots = append(row.Slots, coverageSlot{})
					continue
				}
				row.Slots = append(row.Slots, coverageSlot{Reps: c.Reps, Filter: cellFilter(c)})
			}
			g.Rows = append(g.Rows, row)
		}
		grids = append(grids, g)
		start = end
	}
	return grids
}

// askURL opens the ask page with the box holding a question.
func (l links) AskURL(q string) string { return l.Home() + "?q=" + url.QueryEscape(q) }
