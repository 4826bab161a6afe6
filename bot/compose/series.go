package compose

import (
	"cmp"
	"slices"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// shortSeries is the compact series name tables and headlines use.
func shortSeries(engine, mode string) string {
	name := analytics.EngineName(engine)
	switch mode {
	case "cluster":
		return name + " Cluster (realistic)"
	case "cluster-sat":
		return name + " Cluster (fully driven ceiling)"
	}
	return name + " (single process)"
}

// RowFromCell turns a measured cell into the row answers show: its first
// analytics.ShownRunIDs run IDs, how many there are, and, when some are
// left out, the cell's filter, which lists them all.
func RowFromCell(c analytics.Cell) Row {
	r := rowFromCell(c)
	if r.RunCount > len(r.RunIDs) {
		r.RunsFilter = c.CellKey.Filter()
	}
	return r
}

// rowFromCellOf is RowFromCell for a cell of a query's result: the filter
// listing the row's runs is the query's filter restricted to the cell
// (the query may have kept only some of the cell's runs).
func rowFromCellOf(filter string, c analytics.Cell) Row {
	r := rowFromCell(c)
	if r.RunCount > len(r.RunIDs) {
		r.RunsFilter = "(" + filter + ") && " + c.CellKey.Filter()
	}
	return r
}

func rowFromCell(c analytics.Cell) Row {
	return Row{
		Series: analytics.VersionedSeriesName(c.Engine, c.Version, c.Mode),
		RowCell: RowCell{
			Engine:     c.Engine,
			Mode:       c.Mode,
			Session:    c.Session,
			Cores:      c.Cores,
			Ratio:      c.Ratio,
			ValueBytes: c.ValueBytes,
			Pipeline:   c.Pipeline,
			Reps:       c.Reps,
			OpsPerSec:  c.OpsPerSec,
			P50Ms:      c.P50Ms,
			P99Ms:      c.P99Ms,
			P999Ms:     c.P999Ms,
		},
		OpsPerCore: c.OpsPerCore,
		HitRate:    c.HitRate,
		KBPerSec:   c.KBPerSec,
		Floor:      c.Engine == "garnet",
		RunIDs:     slices.Clone(c.RunIDs[:min(len(c.RunIDs), analytics.ShownRunIDs)]),
		RunCount:   max(c.Reps, len(c.RunIDs)),
	}
}

// Metric returns the row's median of a filter-vocabulary metric and
// whether the row has it.
func (r Row) Metric(name string) (float64, bool) {
	switch name {
	case "ops_per_sec", "":
		return r.OpsPerSec, true
	case "ops_per_core":
		return r.OpsPerCore, true
	case "p50_ms":
		return r.P50Ms, true
	case "p99_ms":
		return r.P99Ms, true
	case "p999_ms":
		return r.P999Ms, true
	case "kb_per_sec":
		return r.KBPerSec, true
	case "hit_rate":
		if r.HitRate == nil {
			return 0, false
		}
		return *r.HitRate, true
	}
	return 0, false
}

func (r Row) key() analytics.CellKey {
	return analytics.CellKey{Session: r.Session, Engine: r.Engine, Mode: r.Mode, Cores: r.Cores,
		Ratio: r.Ratio, ValueBytes: r.ValueBytes, Pipeline: r.Pipeline}
}

// sortRows orders rows the way analytics orders cells: session, engine
// order, mode order, cores, ratio, value size, pipeline.
func sortRows(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(
			cmp.Compare(a.Session, b.Session),
			cmp.Compare(indexOr(analytics.Engines, a.Engine), indexOr(analytics.Engines, b.Engine)),
			cmp.Compare(indexOr(analytics.Modes, a.Mode), indexOr(analytics.Modes, b.Mode)),
			cmp.Compare(a.Cores, b.Cores),
			cmp.Compare(indexOr(ratioOrder, a.Ratio), indexOr(ratioOrder, b.Ratio)),
			cmp.Compare(a.ValueBytes, b.ValueBytes),
			cmp.Compare(a.Pipeline, b.Pipeline),
		)
	})
}

var ratioOrder = []string{"1:10", "1:1", "mget10", "mset10"}

func indexOr(list []string, s string) int {
	if i := slices.Index(list, s); i >= 0 {
		return i
	}
	return len(list)
}

// dedupeRows drops rows of a cell already present, keeping the first.
func dedupeRows(rows []Row) []Row {
	seen := map[analytics.CellKey]bool{}
	out := rows[:0:0]
	for _, r := range rows {
		if seen[r.key()] {
			continue
		}
		seen[r.key()] = true
		out = append(out, r)
	}
	return out
}

// ratioWords names a SET:GET ratio or multi-key workload for prose.
func ratioWords(ratio string) string {
	switch ratio {
	case "1:10":
		return "SET:GET 1:10 (read-heavy)"
	case "1:1":
		return "SET:GET 1:1 (mixed)"
	case "mget10":
		return "MGET of 10 keys per command"
	case "mset10":
		return "MSET of 10 keys per command"
	}
	return ratio
}

// ratioShort names a ratio in a table cell.
func ratioShort(ratio string) string {
	switch ratio {
	case "mget10":
		return "MGET×10"
	case "mset10":
		return "MSET×10"
	}
	return ratio
}

// floorFor reports whether the row's figure of metric is a floor ("at
// least"): Garnet's throughput, per-core throughput and bandwidth were
// limited by its client, not by Garnet.
func (r Row) floorFor(metric string) bool {
	switch metric {
	case "ops_per_sec", "ops_per_core", "kb_per_sec", "":
		return r.Floor
	}
	return false
}

// ShortSeriesLabel is the series as the reply names it: "Dragonfly",
// "Redis Cluster (realistic)", "Redis Cluster (ceiling)", "Garnet
// (floor)". The evidence carries the full names.
func ShortSeriesLabel(engine, mode string) string {
	name := analytics.EngineName(engine)
	switch {
	case mode == "cluster":
		return name + " Cluster (realistic)"
	case mode == "cluster-sat":
		return name + " Cluster (ceiling)"
	case engine == "garnet":
		return name + " (floor)"
	}
	return name
}

// seriesShortening pairs every full series name (and the compact one
// tables use) with its short label, longest first.
func seriesShortening() [][2]string {
	var pairs [][2]string
	for _, e := range analytics.Engines {
		for _, m := range []string{"cluster-sat", "cluster", "single"} {
			short := ShortSeriesLabel(e, m)
			pairs = append(pairs, [2]string{analytics.SeriesName(e, m), short}, [2]string{shortSeries(e, m), short})
		}
	}
	return pairs
}
