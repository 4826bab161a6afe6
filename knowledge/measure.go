package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Querier runs a filter over the measured runs (analytics.Store satisfies it).
type Querier interface {
	Query(ctx context.Context, filter string) (analytics.Result, error)
}

// Measure is one named number computed when the base is loaded: either the
// median of Metric over the single cell Filter selects, or (with Across
// "cores") one such median per core count, or a value read from a measured
// table (Table and Row set, no Filter).
type Measure struct {
	Name   string `json:"name"`
	Filter string `json:"filter,omitempty"`
	Metric string `json:"metric"`
	// At is a compact way to write Filter in the data files
	// ("s1 dragonfly single 48c 1:10 100B p16"); Load turns it into Filter.
	At string `json:"at,omitempty"`
	// Across, when "cores", makes the measure a series: the filter leaves
	// the core count open and selects one cell per core count.
	Across string `json:"across,omitempty"`
	// Table and Row read the value from a measured table instead of the
	// runs: Table "memory" (Row = engine), "failover-sweep" (Row =
	// down-after ms), "failover-engines" (Row = engine), "crossslot" (Row =
	// key name, Metric "slot").
	Table string `json:"table,omitempty"`
	Row   string `json:"row,omitempty"`

	// Computed at load time:
	Value  float64          `json:"value"`
	Cell   analytics.Cell   `json:"cell"`             // the cell behind Value (runs only)
	Series []analytics.Cell `json:"series,omitempty"` // Across "cores": one cell per core count, ascending
	// Label is set for table values that carry a provenance label (the
	// KeyDB bytes/key figure).
	Label string `json:"label,omitempty"`
}

// FromRuns reports whether the measure is computed from runs (not a table).
func (m Measure) FromRuns() bool { return m.Table == "" }

// Runs counts the runs behind the measure.
func (m Measure) Runs() int {
	if m.Across != "" {
		n := 0
		for _, c := range m.Series {
			n += c.Reps
		}
		return n
	}
	return m.Cell.Reps
}

// RunIDs lists the runs the measure names: at most
// analytics.ShownRunIDs per cell (Runs counts them all; the filter lists
// every one).
func (m Measure) RunIDs() []string {
	if m.Across != "" {
		var ids []string
		for _, c := range m.Series {
			ids = append(ids, c.RunIDs...)
		}
		return ids
	}
	return append([]string(nil), m.Cell.RunIDs...)
}

// metricUnits lists the metrics a run measure may use.
var runMetrics = map[string]bool{
	"ops_per_sec": true, "ops_per_core": true, "p50_ms": true, "p99_ms": true,
	"p999_ms": true, "hit_rate": true, "kb_per_sec": true,
}

// filterFromAt turns "s1 dragonfly single 48c 1:10 100B p16" into filter
// text in the analytics vocabulary.
func filterFromAt(at string) (string, error) {
	var parts []string
	seen := map[string]string{}
	add := func(field, clause, tok string) error {
		if prev, ok := seen[field]; ok {
			return fmt.Errorf("%q and %q both set %s", prev, tok, field)
		}
		seen[field] = tok
		parts = append(parts, clause)
		return nil
	}
	for _, tok := range strings.Fields(at) {
		var err error
		switch {
		case tok == "s1" || tok == "s2":
			err = add("session", "session == "+tok[1:], tok)
		case isEngine(tok):
			err = add("engine", fmt.Sprintf("engine == %q", tok), tok)
		case tok == "single" || tok == "cluster" || tok == "cluster-sat":
			err = add("mode", fmt.Sprintf("mode == %q", tok), tok)
		case tok == "1:10" || tok == "1:1" || tok == "mget10" || tok == "mset10":
			err = add("ratio", fmt.Sprintf("ratio == %q", tok), tok)
		case strings.HasSuffix(tok, "c") && isDigits(tok[:len(tok)-1]):
			err = add("cores", "cores == "+tok[:len(tok)-1], tok)
		case strings.HasSuffix(tok, "B") && isDigits(tok[:len(tok)-1]):
			err = add("value_bytes", "value_bytes == "+tok[:len(tok)-1], tok)
		case strings.HasPrefix(tok, "p") && isDigits(tok[1:]):
			err = add("pipeline", "pipeline == "+tok[1:], tok)
		default:
			return "", fmt.Errorf("unknown token %q (want s1/s2, an engine, a mode, Nc, a ratio, NB or pN)", tok)
		}
		if err != nil {
			return "", err
		}
	}
	if len(parts) == 0 {
		return "", errors.New("empty")
	}
	return strings.Join(parts, " && "), nil
}

func isEngine(s string) bool {
	for _, e := range analytics.Engines {
		if e == s {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// compute fills the measure from the runs. The error says precisely what is
// wrong; the caller adds the entry id.
func (m *Measure) compute(ctx context.Context, q Querier) error {
	if !runMetrics[m.Metric] {
		return fmt.Errorf("unknown metric %q", m.Metric)
	}
	res, err := q.Query(ctx, m.Filter)
	if err != nil {
		var fe *analytics.FilterError
		if errors.As(err, &fe) {
			return fmt.Errorf("counter-query does not compile: %s (filter %s): %w", fe.Msg, m.Filter, ErrInvalid)
		}
		return fmt.Errorf("running filter %s: %w", m.Filter, err)
	}
	if len(res.Cells) == 0 {
		return fmt.Errorf("counter-query matches no run (filter %s): %w", m.Filter, ErrInvalid)
	}
	switch m.Across {
	case "":
		if len(res.Cells) > 1 {
			return fmt.Errorf("filter %s selects %d cells, want exactly one: %w", m.Filter, len(res.Cells), ErrInvalid)
		}
		v, ok := res.Cells[0].Metric(m.Metric)
		if !ok {
			return fmt.Errorf("cell %s has no %s: %w", cellName(res.Cells[0].CellKey), m.Metric, ErrInvalid)
		}
		m.Value, m.Cell = v, res.Cells[0]
	case "cores":
		first := res.Cells[0].CellKey
		seen := map[int]bool{}
		for _, c := range res.Cells {
			k := c.CellKey
			k.Cores = first.Cores
			if k != first {
				return fmt.Errorf("filter %s selects cells that differ in more than cores (%s and %s): %w",
					m.Filter, cellName(first), cellName(c.CellKey), ErrInvalid)
			}
			if _, ok := c.Metric(m.Metric); !ok {
				return fmt.Errorf("cell %s has no %s: %w", cellName(c.CellKey), m.Metric, ErrInvalid)
			}
			seen[c.Cores] = true
		}
		if len(seen) != len(res.Cells) {
			return fmt.Errorf("filter %s selects two cells with the same core count: %w", m.Filter, ErrInvalid)
		}
		m.Series = sortedByCores(res.Cells)
		last := m.Series[len(m.Series)-1]
		m.Value, _ = last.Metric(m.Metric)
		m.Cell = last
	default:
		return fmt.Errorf("unknown across %q (only \"cores\"): %w", m.Across, ErrInvalid)
	}
	return nil
}

func sortedByCores(cells []analytics.Cell) []analytics.Cell {
	out := append([]analytics.Cell(nil), cells...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Cores < out[j-1].Cores; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func cellName(k analytics.CellKey) string {
	return fmt.Sprintf("s%d %s %s %dc %s %dB p%d", k.Session, k.Engine, k.Mode, k.Cores, k.Ratio, k.ValueBytes, k.Pipeline)
}
