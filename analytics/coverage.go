package analytics

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// existsLazy is Exists through the posting lists of k's non-zero fields.
func (snap *snapshot) existsLazy(k CellKey) (bool, error) {
	var sh filterShape
	for _, p := range pinsOf(k) {
		if p.text != "" || p.num != 0 {
			sh.pins = append(sh.pins, p)
		}
	}
	if len(sh.pins) == 0 {
		return snap.lazy.head.Cells > 0, nil
	}
	lists := make([][]int, len(sh.pins))
	for i, p := range sh.pins {
		l, err := snap.lazy.posting(p)
		if err != nil || len(l) == 0 {
			return false, err
		}
		lists[i] = l
	}
	return len(intersectAll(lists)) > 0, nil
}

// SeriesCoverage lists, for one (session, engine, mode), the values each knob
// was measured at, sorted ascending (ratios in the order 1:10, 1:1, mget10, mset10).
type SeriesCoverage struct {
	Session    int      `json:"session"`
	Engine     string   `json:"engine"`
	Version    string   `json:"version,omitempty"` // "" when the runs name none
	Mode       string   `json:"mode"`
	Cores      []int    `json:"cores"`
	Ratios     []string `json:"ratios"`
	ValueBytes []int    `json:"value_bytes"`
	Pipelines  []int    `json:"pipelines"`
	Runs       int      `json:"runs"`
	Cells      int      `json:"cells"`
}

// Neighbor is a measured cell near a requested combination, with the knobs
// (session, engine, mode, cores, ratio, value_bytes, pipeline) in which it
// differs from the request.
type Neighbor struct {
	Cell
	Differs []string `json:"differs"`
}

// Coverage lists, per (session, engine, mode), the knob values measured, in
// cell order. It is built once per snapshot; each call returns a copy the
// caller may change.
func (s *Store) Coverage() []SeriesCoverage {
	cov := s.current().cov
	// One backing array for each kind of value: the planner asks for the
	// coverage once per question. Each slice is capped at its own length,
	// so a caller appending to one cannot write into the next.
	nInts, nRatios := 0, 0
	for _, c := range cov {
		nInts += len(c.Cores) + len(c.ValueBytes) + len(c.Pipelines)
		nRatios += len(c.Ratios)
	}
	ints, ratios := make([]int, 0, nInts), make([]string, 0, nRatios)
	cloneInts := func(v []int) []int {
		if v == nil {
			return nil
		}
		from := len(ints)
		ints = append(ints, v...)
		return ints[from:len(ints):len(ints)]
	}
	out := make([]SeriesCoverage, len(cov))
	for i, c := range cov {
		c.Cores = cloneInts(c.Cores)
		if c.Ratios != nil {
			from := len(ratios)
			ratios = append(ratios, c.Ratios...)
			c.Ratios = ratios[from:len(ratios):len(ratios)]
		}
		c.ValueBytes = cloneInts(c.ValueBytes)
		c.Pipelines = cloneInts(c.Pipelines)
		out[i] = c
	}
	return out
}

// Exists reports whether the exact combination was measured. A zero field
// in k (Session 0, Engine "", Cores 0 …) matches any value of that knob.
func (s *Store) Exists(k CellKey) bool {
	snap := s.current()
	if !snap.cellsLoaded() && k.Version == "" { // the postings hold no versions
		ok, err := snap.existsLazy(k)
		if err != nil {
			s.fail(snap, err)
		}
		return ok
	}
	if err := snap.ensureCells(); err != nil {
		s.fail(snap, err)
		return false
	}
	if _, ok := snap.keys[k]; ok {
		return true
	}
	if !k.partial() {
		return false
	}
	for _, c := range snap.cells {
		if len(differs(k, c.CellKey)) == 0 {
			return true
		}
	}
	return false
}

// partial reports whether some knob of k is left open (zero).
func (k CellKey) partial() bool {
	return k.Session == 0 || k.Engine == "" || k.Mode == "" || k.Cores == 0 ||
		k.Ratio == "" || k.ValueBytes == 0 || k.Pipeline == 0
}

// Knob names as Neighbor.Differs reports them (filter vocabulary names).
const (
	KnobSession    = "session"
	KnobEngine     = "engine"
	KnobVersion    = "version"
	KnobMode       = "mode"
	KnobCores      = "cores"
	KnobRatio      = "ratio"
	KnobValueBytes = "value_bytes"
	KnobPipeline   = "pipeline"
)

// differs lists the knobs in which the measured cell m differs from the
// request k; zero fields of k match anything.
func differs(k, m CellKey) []string { return differsInto(nil, k, m) }

// differsInto is differs appending to d, so a scan over every cell can
// reuse one buffer.
func differsInto(d []string, k, m CellKey) []string {
	if k.Session != 0 && k.Session != m.Session {
		d = append(d, KnobSession)
	}
	if k.Engine != "" && k.Engine != m.Engine {
		d = append(d, KnobEngine)
	}
	if k.Version != "" && k.Version != m.Version {
		d = append(d, KnobVersion)
	}
	if k.Mode != "" && k.Mode != m.Mode {
		d = append(d, KnobMode)
	}
	if k.Cores != 0 && k.Cores != m.Cores {
		d = append(d, KnobCores)
	}
	if k.Ratio != "" && k.Ratio != m.Ratio {
		d = append(d, KnobRatio)
	}
	if k.ValueBytes != 0 && k.ValueBytes != m.ValueBytes {
		d = append(d, KnobValueBytes)
	}
	if k.Pipeline != 0 && k.Pipeline != m.Pipeline {
		d = append(d, KnobPipeline)
	}
	return d
}

// distance weighs how far a measured cell is from a request, roughly by
// how much the knob moves throughput: an engine change is far (another
// product); a session or mode change counts 1, a ratio change 0.75; cores
// count 1 per doubling, pipeline depth 0.5 per doubling and value size 0.25
// per doubling.
func distance(k, m CellKey, d []string) float64 {
	var logs doublingLogs
	return logs.distance(k, m, d)
}

// doublingLogs is distance for one request, remembering the doublings
// between the asked value of a knob and the measured ones: the cells hold
// few distinct values, and Nearest weighs every cell.
type doublingLogs struct {
	seen [3][16]doubling // cores, pipeline, value size
	n    [3]int
}

type doubling struct {
	a, b int
	v    float64
}

func (l *doublingLogs) distance(k, m CellKey, d []string) float64 {
	dist := 0.0
	for _, knob := range d {
		switch knob {
		case KnobEngine:
			dist += 10
		case KnobSession, KnobMode, KnobVersion:
			dist++
		case KnobRatio:
			dist += 0.75
		case KnobCores:
			dist += l.doublings(0, m.Cores, k.Cores)
		case KnobPipeline:
			dist += 0.5 * l.doublings(1, m.Pipeline, k.Pipeline)
		case KnobValueBytes:
			dist += 0.25 * l.doublings(2, m.ValueBytes, k.ValueBytes)
		}
	}
	return dist
}

func (l *doublingLogs) doublings(knob, a, b int) float64 {
	seen := l.seen[knob][:l.n[knob]]
	for _, d := range seen {
		if d.a == a && d.b == b {
			return d.v
		}
	}
	v := math.Abs(math.Log2(float64(a) / float64(b)))
	if len(seen) < len(l.seen[knob]) {
		l.seen[knob][len(seen)] = doubling{a, b, v}
		l.n[knob]++
	}
	return v
}

// Nearest returns up to n measured cells closest to k, preferring cells
// that differ in one knob, each naming the knobs that differ. Cells that
// differ only in another engine come after every same-engine cell; ties
// keep cell order. Zero fields of k match anything. An exact match, if
// any, comes first with no differing knobs.
func (s *Store) Nearest(k CellKey, n int) []Neighbor {
	if n <= 0 {
		return nil
	}
	type cand struct {
		i, rank, nd int
		dist        float64
	}
	less := func(a, b cand) bool {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.dist, b.dist), cmp.Compare(a.nd, b.nd)) < 0
	}
	snap := s.current()
	if err := snap.ensureCells(); err != nil {
		s.fail(snap, err)
		return nil
	}
	// The n best in the order a stable sort of every cell would give
	// (ties keep cell order), kept by insertion: answers ask for a few
	// neighbours of one cell, and sorting every cell per question was
	// most of a planning's time.
	top := make([]cand, 0, min(n, len(snap.cells)))
	var buf [8]string
	var logs doublingLogs
	for i, c := range snap.cells {
		d := differsInto(buf[:0], k, c.CellKey)
		rank := 1 // several knobs differ
		switch {
		case slices.Contains(d, KnobEngine):
			rank = 2
		case len(d) <= 1:
			rank = 0
		}
		if len(top) == cap(top) && (len(top) == 0 || rank > top[len(top)-1].rank) {
			continue // ranked after every cell kept, whatever its distance
		}
		x := cand{i: i, rank: rank, nd: len(d), dist: logs.distance(k, c.CellKey, d)}
		if len(top) == cap(top) && !less(x, top[len(top)-1]) {
			continue
		}
		j := sort.Search(len(top), func(j int) bool { return less(x, top[j]) })
		if len(top) < cap(top) {
			top = append(top, cand{})
		}
		copy(top[j+1:], top[j:len(top)-1])
		top[j] = x
	}
	out := make([]Neighbor, 0, len(top))
	for _, c := range top {
		cell := snap.fullCell(c.i)
		out = append(out, Neighbor{Cell: cell.clone(), Differs: differs(k, cell.CellKey)})
	}
	return out
}
