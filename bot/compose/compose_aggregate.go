package compose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// countAnswer answers a count ("how many runs of KeyDB") or a list of
// the values a dimension took ("which pipeline depths did session 2
// use"): line 1 is the count or the list, per series where several were
// measured, with the filter that reproduces it.
func countAnswer(a *Answer, p planner.Plan, rows []Row) evidence {
	filter := ""
	for _, q := range p.Queries {
		filter = q.Filter // the last query's filter lists every row counted
	}
	if p.CellReps > 0 {
		rows = slices.DeleteFunc(rows, func(r Row) bool { return r.Reps != p.CellReps })
	}
	a.Rows = rows
	where := ""
	if filter != "true" {
		where = " where `" + filter + "`"
	}
	switch p.Aggregate {
	case "distinct":
		a.Headline = distinctText(rows, p.CountField, where)
	default:
		a.Headline = countText(rows, p, where)
	}
	a.Body = append(a.Body, "Counted from the measured runs the import kept (the diagnostics runs are not among them); `runs '"+filter+"'` lists every one.")
	a.Table = countTable(rows)
	return evidence{rows: rows}
}

// countText says how many runs or cells matched, and how they split by
// series and session.
func countText(rows []Row, p planner.Plan, where string) string {
	runs, cells := 0, len(rows)
	bySeries := map[string][2]int{}
	var order []string
	for _, r := range rows {
		runs += r.Reps
		k := r.Series + " (session " + strconv.Itoa(r.Session) + ")"
		if _, ok := bySeries[k]; !ok {
			order = append(order, k)
		}
		c := bySeries[k]
		c[0] += r.Reps
		c[1]++
		bySeries[k] = c
	}
	once := ""
	if p.CellReps > 0 {
		once = fmt.Sprintf(" measured %s", timesWord(p.CellReps))
	}
	var head string
	if p.Search != nil && p.Search.Over == "runs" {
		head = fmt.Sprintf("%s measured%s (%s)", countWord(runs, "run", "runs"), where, countWord(cells, "cell", "cells"))
	} else {
		head = fmt.Sprintf("%s%s%s (%s)", countWord(cells, "cell", "cells"), once, where, countWord(runs, "run", "runs"))
	}
	if cells == 0 {
		return "None: no measured " + map[bool]string{true: "run", false: "cell"}[p.Search != nil && p.Search.Over == "runs"] + once + where + "."
	}
	if len(order) > 1 && len(order) <= 8 {
		parts := make([]string, len(order))
		for i, k := range order {
			c := bySeries[k]
			parts[i] = fmt.Sprintf("%s %d", k, c[0])
			if p.Search == nil || p.Search.Over != "runs" {
				parts[i] = fmt.Sprintf("%s %d", k, c[1])
			}
		}
		head += " — " + strings.Join(parts, ", ")
	}
	return head + "."
}

// distinctText lists the values a field took in the matching cells.
func distinctText(rows []Row, field, where string) string {
	seen := map[string]bool{}
	var values []string
	for _, r := range rows {
		v := fieldValue(r, field)
		if !seen[v] {
			seen[v] = true
			values = append(values, v)
		}
	}
	slices.SortFunc(values, func(a, b string) int {
		na, ea := strconv.Atoi(a)
		nb, eb := strconv.Atoi(b)
		if ea == nil && eb == nil {
			return na - nb
		}
		return strings.Compare(a, b)
	})
	if len(values) == 0 {
		return "None: no measured cell" + where + "."
	}
	return fmt.Sprintf("%s measured%s: %s (%s).", distinctWords(field, len(values)), where, joinAnd(values), countWord(len(rows), "cell", "cells"))
}

func fieldValue(r Row, field string) string {
	switch field {
	case "mode":
		return r.Mode
	case "engine":
		return r.Engine
	}
	return knobValue(r, field)
}

func distinctWords(field string, n int) string {
	words := map[string]string{"cores": "core counts", "pipeline": "pipeline depths", "value_bytes": "value sizes",
		"ratio": "workloads", "session": "sessions", "mode": "modes", "engine": "engines"}[field]
	return capitalise(strconv.Itoa(n) + " " + words)
}

func timesWord(n int) string {
	switch n {
	case 1:
		return "only once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

// countTable lists the cells counted, with their repetitions.
func countTable(rows []Row) *Table {
	if len(rows) == 0 || len(rows) > 60 {
		return nil
	}
	t := &Table{Columns: []string{"series", "session", "cores", "workload", "value", "pipeline", "runs"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Series, strconv.Itoa(r.Session), strconv.Itoa(r.Cores), r.Ratio,
			strconv.Itoa(r.ValueBytes) + " B", strconv.Itoa(r.Pipeline), strconv.Itoa(r.Reps)})
	}
	return t
}
