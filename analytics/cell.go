package analytics

import "slices"

// CellKey identifies one measured combination. Repetitions of the same
// combination share a CellKey.
type CellKey struct {
	Session int    `json:"session"`
	Engine  string `json:"engine"`
	// Version is the engine's version when the import named one (a
	// `version` column); "" for runs imported without.
	Version    string `json:"version,omitempty"`
	Mode       string `json:"mode"`
	Cores      int    `json:"cores"`
	Ratio      string `json:"ratio"`
	ValueBytes int    `json:"value_bytes"`
	Pipeline   int    `json:"pipeline"`
}

// Cell is a CellKey with the median across its repetitions of every metric.
type Cell struct {
	CellKey
	Reps       int      `json:"reps"`
	OpsPerSec  float64  `json:"ops_per_sec"`
	OpsPerCore float64  `json:"ops_per_core"`
	P50Ms      float64  `json:"p50_ms"`
	P99Ms      float64  `json:"p99_ms"`
	P999Ms     float64  `json:"p999_ms"`
	HitRate    *float64 `json:"hit_rate"` // nil when no repetition had reads
	KBPerSec   float64  `json:"kb_per_sec"`
	RunIDs     []string `json:"run_ids"` // sorted by repetition
}

// Metric returns the cell's median of the named metric (filter vocabulary
// names: ops_per_sec, ops_per_core, p50_ms, p99_ms, p999_ms, hit_rate,
// kb_per_sec) and whether the cell has it.
func (c Cell) Metric(name string) (float64, bool) {
	switch name {
	case "ops_per_sec":
		return c.OpsPerSec, true
	case "ops_per_core":
		return c.OpsPerCore, true
	case "p50_ms":
		return c.P50Ms, true
	case "p99_ms":
		return c.P99Ms, true
	case "p999_ms":
		return c.P999Ms, true
	case "kb_per_sec":
		return c.KBPerSec, true
	case "hit_rate":
		if c.HitRate == nil {
			return 0, false
		}
		return *c.HitRate, true
	}
	return 0, false
}

// Result is what a query returns: the filter as run, the matching cells in
// deterministic order (session, engine order, mode order, cores, ratio,
// value size, pipeline), and how many runs matched. A cell's RunIDs and
// HitRate are shared with the store and other results (a query copies no
// run-ID lists): read them, and copy before changing them.
type Result struct {
	Filter string `json:"filter"`
	Cells  []Cell `json:"cells"`
	Runs   int    `json:"runs"`
}

// RunIDs lists every run ID behind the result's cells, in cell order.
func (r Result) RunIDs() []string {
	var ids []string
	for _, c := range r.Cells {
		ids = append(ids, c.RunIDs...)
	}
	return ids
}

// clone returns a copy that shares no memory with c.
func (c Cell) clone() Cell {
	if c.HitRate != nil {
		h := *c.HitRate
		c.HitRate = &h
	}
	c.RunIDs = slices.Clone(c.RunIDs)
	return c
}
