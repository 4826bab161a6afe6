package planner

import (
	"fmt"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// unrecordedMetric names, for a statistic the answers do not give (a
// latency the runs do not carry: p90, p95, p99.99, the maximum; a per-run
// column no answer summarises: hits per second), what was asked in words;
// "" for the metrics answered.
func unrecordedMetric(m string) string {
	return nameOf("metric", m, 2, "")
}

// unrecordedMissing is the sentence a no_data plan carries for a statistic
// the runs do not record.
func unrecordedMissing(m string) string {
	if why := nameOf("metric", m, 3, ""); why != "" {
		return fmt.Sprintf("%s is not answered here — %s", unrecordedMetric(m), why)
	}
	return fmt.Sprintf("%s was not measured — every run records p50, p99 and p99.9 latency only", unrecordedMetric(m))
}

// exactCells returns the measured cells a resolved request selects (one per
// answerable series and core count), to stand as the nearest rows of a
// plan whose only gap is the statistic asked.
func (p *Planner) exactCells(r resolved) []analytics.Neighbor {
	var out []analytics.Neighbor
	for _, s := range r.ok {
		k := analytics.CellKey{Session: s.cov.Session, Engine: s.engine(), Mode: s.mode(), Ratio: r.ratio, ValueBytes: r.value, Pipeline: r.pipeline}
		cores := r.cores
		if len(cores) == 0 || r.w.coresRange {
			cores = s.cov.Cores
		}
		for _, c := range cores {
			k.Cores = c
			if k.Ratio == "" || k.ValueBytes == 0 || k.Pipeline == 0 || !p.cov.Exists(k) {
				continue
			}
			for _, n := range p.cov.Nearest(k, 1) {
				if n.CellKey == k {
					n.Differs = []string{}
					out = append(out, n)
				}
			}
		}
	}
	if len(out) > p.opts.NearestCells {
		out = out[:p.opts.NearestCells]
	}
	return out
}
