package knowledge

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"sort"
	"strconv"
)

// FailoverRep is one kill of the primary in the Sentinel failover lab.
type FailoverRep struct {
	Engine      string  `json:"engine"` // data-node engine: redis, valkey, dragonfly
	DownAfterMs int     `json:"down_after_ms"`
	Rep         int     `json:"rep"`
	OutageS     float64 `json:"outage_s"`     // kill → first successful write on the promoted node
	FirstFailS  float64 `json:"first_fail_s"` // kill → first failed write
	OverheadS   float64 `json:"overhead_s"`   // outage − down-after: the fixed promotion cost
	OldMaster   string  `json:"old_master"`   // lab-only address on a private Docker network
	NewMaster   string  `json:"new_master"`   // lab-only address on a private Docker network
	SourceFile  string  `json:"source_file"`
}

// FailoverGroup is every repetition of one setting, with its statistics.
type FailoverGroup struct {
	Engine        string        `json:"engine"`
	DownAfterMs   int           `json:"down_after_ms"`
	Reps          []FailoverRep `json:"reps"`
	MedianOutageS float64       `json:"median_outage_s"`
	MeanOutageS   float64       `json:"mean_outage_s"`
	MinOverheadS  float64       `json:"min_overhead_s"`
	MaxOverheadS  float64       `json:"max_overhead_s"`
}

// FailoverTable is one of the lab's two measured tables: the down-after
// sweep on Redis 8, or the engine comparison at 5000 ms.
type FailoverTable struct {
	ID      string          `json:"id"` // "failover:sweep", "failover:engines"
	Title   string          `json:"title"`
	Groups  []FailoverGroup `json:"groups"`
	Sources []Source        `json:"sources"`
}

// Group returns the group for an engine and down-after value.
func (t FailoverTable) Group(engine string, downAfterMs int) (FailoverGroup, bool) {
	for _, g := range t.Groups {
		if g.Engine == engine && g.DownAfterMs == downAfterMs {
			return g, true
		}
	}
	return FailoverGroup{}, false
}

// parseFailover reads one failover CSV. Files without an engine column
// (the sweep) are Redis 8 data nodes.
func parseFailover(name string, data []byte) ([]FailoverRep, error) {
	r := csv.NewReader(bytes.NewReader(data))
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no rows", name)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, need := range []string{"down_after_ms", "rep", "outage_s", "first_fail_after_kill_s", "old_master", "new_master"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s: missing column %q", name, need)
		}
	}
	var reps []FailoverRep
	for i, rec := range recs[1:] {
		line := i + 2
		engine := "redis"
		if c, ok := col["engine"]; ok {
			engine = rec[c]
		}
		da, e1 := strconv.Atoi(rec[col["down_after_ms"]])
		rep, e2 := strconv.Atoi(rec[col["rep"]])
		out, e3 := strconv.ParseFloat(rec[col["outage_s"]], 64)
		ff, e4 := strconv.ParseFloat(rec[col["first_fail_after_kill_s"]], 64)
		if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
			return nil, fmt.Errorf("%s line %d: bad number", name, line)
		}
		reps = append(reps, FailoverRep{
			Engine: engine, DownAfterMs: da, Rep: rep, OutageS: out, FirstFailS: ff,
			OverheadS: round2(out - float64(da)/1000),
			OldMaster: rec[col["old_master"]], NewMaster: rec[col["new_master"]], SourceFile: name,
		})
	}
	return reps, nil
}

func round2(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 2, 64), 64)
	return f
}

// groupFailover groups repetitions by engine and down-after, keeping the
// order of first appearance.
func groupFailover(reps []FailoverRep) []FailoverGroup {
	var groups []FailoverGroup
	idx := map[[2]string]int{}
	for _, r := range reps {
		k := [2]string{r.Engine, strconv.Itoa(r.DownAfterMs)}
		i, ok := idx[k]
		if !ok {
			i = len(groups)
			idx[k] = i
			groups = append(groups, FailoverGroup{Engine: r.Engine, DownAfterMs: r.DownAfterMs})
		}
		groups[i].Reps = append(groups[i].Reps, r)
	}
	for i := range groups {
		g := &groups[i]
		outs := make([]float64, len(g.Reps))
		sum := 0.0
		g.MinOverheadS, g.MaxOverheadS = g.Reps[0].OverheadS, g.Reps[0].OverheadS
		for j, r := range g.Reps {
			outs[j] = r.OutageS
			sum += r.OutageS
			g.MinOverheadS = min(g.MinOverheadS, r.OverheadS)
			g.MaxOverheadS = max(g.MaxOverheadS, r.OverheadS)
		}
		g.MedianOutageS = median(outs)
		g.MeanOutageS = sum / float64(len(outs))
	}
	return groups
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
