package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// memoryTables is implemented by knowledge bases that carry the measured
// bytes-per-key table (*knowledge.Base does); the planner then decides
// from it which engines and value sizes have a figure.
type memoryTables interface {
	MemoryTable() knowledge.MemoryTable
}

// failoverTables is implemented by knowledge bases that carry the Sentinel
// failover lab's tables (*knowledge.Base does).
type failoverTables interface {
	FailoverSweep() knowledge.FailoverTable
	FailoverEngines() knowledge.FailoverTable
}

// demoTables is implemented by knowledge bases that carry the cross-slot
// demo and the author's diagnostic runs (*knowledge.Base does).
type demoTables interface {
	CrossSlot() knowledge.CrossSlotDemo
	Diagnostics() knowledge.DiagnosticsTable
}

// demoMentions finds the diagnostic runs' labels ("check48", "sat-test")
// and the cross-slot demo's keys ("bravo") a normalized text names.
func (p *Planner) demoMentions(text string) (labels, keys []string) {
	dt, ok := p.kb.(demoTables)
	if !ok {
		return nil, nil
	}
	for _, l := range dt.Diagnostics().Labels() {
		if containsWords(text, strings.ToLower(l)) {
			labels = append(labels, l)
		}
	}
	for _, s := range dt.CrossSlot().Systems {
		for _, k := range s.Slots {
			if containsWords(text, strings.ToLower(k.Key)) && !slices.Contains(keys, k.Key) {
				keys = append(keys, k.Key)
			}
		}
	}
	return labels, keys
}

// crossSlotPlan plans a question about the cross-slot demo: which
// multi-key commands one Dragonfly process and a 3-shard Redis Cluster
// accepted, and the hash slot of each demo key.
func (p *Planner) crossSlotPlan(question string, engines, keys []string) Plan {
	pl := Plan{Intent: IntentCrossSlot, Question: question, Source: "rules"}
	pl.Slots = Slots{Engines: slices.Clone(engines), Keys: keys}
	pl.Interpretation = "The cross-slot demo: the same multi-key commands (MGET, EVAL, hash-tagged keys) on one Dragonfly process and on a 3-shard Redis Cluster, accepted or rejected"
	if len(keys) > 0 {
		pl.Interpretation = "The cross-slot demo's hash slot of " + strings.Join(keys, ", ") + " in its 3-shard Redis Cluster"
	}
	return pl
}

// diagnosticsPlan plans a question about the author's one-off diagnostic
// runs, which are outside the dataset and never part of its medians.
func (p *Planner) diagnosticsPlan(question string, engines, labels []string, metric string) Plan {
	pl := Plan{Intent: IntentDiagnostic, Question: question, Source: "rules"}
	pl.Slots = Slots{Engines: slices.Clone(engines), Labels: labels, Metric: metric}
	which := "every diagnostic run"
	if len(labels) > 0 {
		which = strings.Join(labels, ", ")
	}
	pl.Interpretation = "The author's diagnostic runs (one-off checks outside the dataset, never part of its medians): " + which
	if len(engines) > 0 {
		pl.Interpretation += ", " + joinMap(engines, engineName)
	}
	return pl
}

// memoryPlan plans a bytes-per-key question. The figures live in the
// knowledge base's measured table, not in runs, so the plan has no filters.
func (p *Planner) memoryPlan(w want) Plan {
	pl := Plan{Intent: IntentMemory, Question: w.question, Source: "rules", Explain: w.explain}
	pl.Slots = Slots{Engines: slices.Clone(w.engines), Metric: "bytes_per_key", ClaimID: w.claimID}
	pl.Inherited = ordered(w.inherited)
	pl.Notes = append(slices.Clone(w.notes), p.versionNotes(w.versions)...)
	names := "every engine with a figure"
	if len(w.engines) > 0 {
		names = joinMap(w.engines, engineName)
	}
	cond := "the measured memory table"
	if mt, ok := p.kb.(memoryTables); ok {
		t := mt.MemoryTable()
		cond = fmt.Sprintf("%s keys of %d-byte values, empty-server baseline subtracted", thousands(t.Keys), t.ValueBytes)
		if w.keys != 0 && w.keys != t.Keys {
			pl.Missing = append(pl.Missing, fmt.Sprintf("memory per key was measured only with %s keys of %d-byte values, never with %s keys", thousands(t.Keys), t.ValueBytes, thousands(w.keys)))
		}
		if len(w.values) == 1 {
			pl.Slots.ValueBytes = w.values[0]
		}
		for _, v := range w.values {
			if v != t.ValueBytes {
				pl.Missing = append(pl.Missing, fmt.Sprintf("memory per key was measured only with %s keys of %d-byte values, never with %s", thousands(t.Keys), t.ValueBytes, valuePhrase(v)))
			}
		}
		var unmeasured []string
		for _, e := range w.engines {
			if _, ok := t.Row(e); ok {
				continue
			}
			reason := ""
			if n, ok := t.Missing(e); ok {
				reason = n.Reason
			}
			msg := engineName(e) + " has no bytes-per-key figure"
			if reason = strings.TrimSuffix(strings.TrimPrefix(reason, "never measured: "), "."); reason != "" {
				msg += " (" + reason + ")"
			}
			unmeasured = append(unmeasured, msg)
		}
		if len(unmeasured) > 0 && len(unmeasured) == len(w.engines) {
			pl.Missing = append(pl.Missing, unmeasured...)
		} else {
			pl.Notes = append(pl.Notes, unmeasured...)
		}
		for _, e := range w.engines {
			for _, q := range t.Quoted {
				if q.Engine == e && q.Label != "" {
					pl.Notes = append(pl.Notes, fmt.Sprintf("%s's %.1f bytes/key is a quoted figure: %s", engineName(e), q.BytesPerKey, q.Label))
				}
			}
		}
	}
	if len(pl.Missing) > 0 {
		pl.Requested, pl.Intent = IntentMemory, IntentNoData
		pl.Interpretation = fmt.Sprintf("Memory per key (bytes) of %s — not measured", names)
		return pl
	}
	pl.Interpretation = fmt.Sprintf("Memory per key (bytes) of %s, from %s", names, cond)
	if mt, ok := p.kb.(memoryTables); ok && len(w.engines) > 0 {
		t := mt.MemoryTable()
		var quoted []string
		measured := 0
		for _, e := range w.engines {
			if slices.ContainsFunc(t.Rows, func(r knowledge.MemoryRow) bool { return r.Engine == e }) {
				measured++
			} else if slices.ContainsFunc(t.Quoted, func(r knowledge.MemoryRow) bool { return r.Engine == e }) {
				quoted = append(quoted, engineName(e))
			}
		}
		switch {
		case measured == 0 && len(quoted) > 0:
			// KeyDB alone: its figure is quoted, not from the measurement file.
			pl.Interpretation = fmt.Sprintf("Memory per key (bytes) of %s: no measured figure, only a quoted one (not in the memory measurement file)", joinAnd(quoted))
		case len(quoted) > 0:
			pl.Interpretation += "; " + joinAnd(quoted) + ": a quoted figure only, not measured"
		}
	}
	if w.explain {
		pl.Interpretation = "Why: " + pl.Interpretation
	}
	return pl
}

// failoverPlan plans a Sentinel failover question from the lab's measured
// tables: the down-after sweep (Redis 8) and the engine comparison.
func (p *Planner) failoverPlan(w want) Plan {
	pl := Plan{Intent: IntentFailover, Question: w.question, Source: "rules", Explain: w.explain}
	pl.Slots = Slots{Engines: slices.Clone(w.engines), Metric: "outage_s", DownAfterMs: w.downAfter}
	pl.Inherited = ordered(w.inherited)
	pl.Notes = append(slices.Clone(w.notes), p.versionNotes(w.versions)...)
	names := "the engines in the failover lab"
	if len(w.engines) > 0 {
		names = joinMap(w.engines, engineName)
	}
	cond := ""
	if w.downAfter != 0 {
		cond = fmt.Sprintf(", down-after-milliseconds %d", w.downAfter)
	}
	if ft, ok := p.kb.(failoverTables); ok {
		sweep, engines := ft.FailoverSweep(), ft.FailoverEngines()
		all := append(slices.Clone(sweep.Groups), engines.Groups...)
		var labEngines []string
		for _, g := range all {
			labEngines = appendUnique(labEngines, g.Engine)
		}
		for _, e := range w.engines {
			if slices.Contains(labEngines, e) {
				continue
			}
			msg := engineName(e) + " was not in the Sentinel failover lab"
			if why := whyMissing(e, "", "failover", nil); why != "" {
				msg += " (" + why + ")"
			}
			pl.Missing = append(pl.Missing, msg)
		}
		if w.downAfter != 0 {
			var settings []int
			for _, g := range all {
				if len(w.engines) == 0 || slices.Contains(w.engines, g.Engine) {
					settings = appendUnique(settings, g.DownAfterMs)
				}
			}
			slices.Sort(settings)
			if !slices.Contains(settings, w.downAfter) && len(settings) > 0 {
				who := "the failover lab"
				if len(w.engines) > 0 {
					who = joinMap(w.engines, engineName)
				}
				pl.Missing = append(pl.Missing, fmt.Sprintf("down-after-milliseconds %d was never measured for %s — only %s ms", w.downAfter, who, joinInts(settings)))
			}
		}
	}
	if len(pl.Missing) > 0 {
		pl.Requested, pl.Intent = IntentFailover, IntentNoData
		pl.Interpretation = fmt.Sprintf("Sentinel failover outage (s) of %s%s — not measured", names, cond)
		return pl
	}
	pl.Interpretation = fmt.Sprintf("Sentinel failover outage (s) of %s%s, from the failover lab's measured tables (Docker on a laptop; not the AWS benchmark)", names, cond)
	if w.explain {
		pl.Interpretation = "Why: " + pl.Interpretation
	}
	return pl
}

// thousands writes an integer with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
