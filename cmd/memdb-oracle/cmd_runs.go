package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// runsCmd prints the runs matching a raw expr filter, as medians per cell.
type runsCmd struct {
	JSON    bool          `name:"json" help:"Print the cells as a JSON array."`
	Timeout time.Duration `name:"timeout" default:"2s" help:"Give up on a filter that takes longer than this (Ctrl-C also stops it)."`
	Filter  string        `arg:"" name:"filter" help:"expr filter over the run fields, e.g. 'engine == \"dragonfly\" && cores == 48'."`
}

// Run queries the store and prints a table (or JSON) of cells.
func (c runsCmd) Run(a *app) error {
	a.collectLittle()
	// The filter is checked before the store opens (a refused filter costs
	// no data-directory work); compiling and running each get the timeout.
	ctx, cancel := context.WithTimeout(a.ctx, c.Timeout)
	f, err := analytics.CompileFilterContext(ctx, c.Filter)
	cancel()
	var res analytics.Result
	if err == nil {
		var st *analytics.Store
		if st, err = a.queryStore(); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(a.ctx, c.Timeout)
		defer cancel()
		res, err = st.QueryFilter(ctx, f)
	}
	var fe *analytics.FilterError
	switch {
	case errors.As(err, &fe):
		return usageError{errors.New(filterProblem(fe))}
	case errors.Is(err, context.DeadlineExceeded) && a.ctx.Err() == nil:
		return usageError{fmt.Errorf("the filter took longer than %s and was stopped; simplify it or give --timeout", c.Timeout)}
	case err != nil:
		return err
	}
	if c.JSON {
		cells := res.Cells
		if cells == nil {
			cells = []analytics.Cell{}
		}
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(cells)
	}
	return writeCells(a.stdout, res)
}

// filterProblem formats a filter error with the filter and a caret under
// the offending position.
func filterProblem(fe *analytics.FilterError) string {
	var b strings.Builder
	b.WriteString("bad filter: " + fe.Msg)
	if col := fe.Column(); col > 0 && !strings.Contains(fe.Filter, "\n") {
		b.WriteString("\n  " + fe.Filter + "\n  " + strings.Repeat(" ", col-1) + "^")
	}
	return b.String()
}

// writeCells prints cells as an aligned table, then says what the numbers
// are. A full scan prints a million run IDs: the output goes through one
// large buffer, flushed once, and the run IDs (the last column, left
// aligned, so never padded) are written straight from the cells.
func writeCells(w io.Writer, res analytics.Result) error {
	if len(res.Cells) == 0 {
		_, err := fmt.Fprintf(w, "No measured runs match the filter: %s\n", res.Filter)
		return err
	}
	rows := make([][]string, 0, len(res.Cells)+1)
	rows = append(rows, []string{"engine", "mode", "session", "cores", "ratio", "value", "pipeline",
		"ops/s (median)", "p50 ms", "p99 ms", "p99.9 ms", "reps"})
	for _, c := range res.Cells {
		rows = append(rows, []string{c.Engine, c.Mode, strconv.Itoa(c.Session), strconv.Itoa(c.Cores),
			c.Ratio, strconv.Itoa(c.ValueBytes) + " B", strconv.Itoa(c.Pipeline),
			exactNumber(c.OpsPerSec), exactNumber(c.P50Ms), exactNumber(c.P99Ms), exactNumber(c.P999Ms),
			strconv.Itoa(c.Reps)})
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	leftAligned := map[int]bool{0: true, 1: true, 4: true}
	writeAligned(bw, rows, leftAligned, func(row int) {
		bw.WriteString("  ")
		if row == 0 {
			bw.WriteString("run IDs")
			return
		}
		for i, id := range res.Cells[row-1].RunIDs {
			if i > 0 {
				bw.WriteString(", ")
			}
			bw.WriteString(id)
		}
	})
	fmt.Fprintf(bw, "\n%s\nFilter: %s\n", repsLine(res), res.Filter)
	return bw.Flush() // the first write error, if any, is kept until here
}

// writeAligned prints rows as columns two spaces apart; numbers are
// right-aligned, the columns in left are left-aligned. tail writes the
// rest of a row: a last column that needs no padding. Errors are the
// buffer's, returned by its Flush.
func writeAligned(w *bufio.Writer, rows [][]string, left map[int]bool, tail func(row int)) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	pad := func(n int) {
		for range n {
			w.WriteByte(' ')
		}
	}
	for row, r := range rows {
		for i, cell := range r {
			n := width[i] - utf8.RuneCountInString(cell)
			if i > 0 {
				w.WriteString("  ")
			}
			switch {
			case left[i]:
				w.WriteString(cell)
				pad(n)
			default:
				pad(n)
				w.WriteString(cell)
			}
		}
		tail(row)
		w.WriteByte('\n')
	}
}

// repsLine says that the figures are medians and across how many repetitions.
func repsLine(res analytics.Result) string {
	lo, hi := res.Cells[0].Reps, res.Cells[0].Reps
	for _, c := range res.Cells {
		lo, hi = min(lo, c.Reps), max(hi, c.Reps)
	}
	reps := fmt.Sprintf("%d repetitions", lo)
	switch {
	case lo != hi:
		reps = fmt.Sprintf("%d to %d repetitions", lo, hi)
	case lo == 1:
		reps = "1 repetition (single run)"
	}
	line := fmt.Sprintf("%s from %d runs; every figure is the median across %s of its cell.",
		plural(len(res.Cells), "cell", "cells"), res.Runs, reps)
	if lo == 1 && hi > 1 {
		line += " Cells with 1 repetition are single runs."
	}
	return line
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// exactNumber prints a measured value exactly (up to 3 decimals, trailing
// zeros dropped) with thousands separators: 15,473,658.395.
func exactNumber(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, d := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}
