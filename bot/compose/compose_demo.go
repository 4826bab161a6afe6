package compose

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// errNoDemoTables is a wiring mistake: the knowledge base holds neither the
// cross-slot demo nor the diagnostic runs.
var errNoDemoTables = errors.New("the knowledge base has no cross-slot demo or diagnostic runs")

// demoTables is what a knowledge base offers beside the runs: the
// cross-slot demo and the author's diagnostic runs (*knowledge.Base).
type demoTables interface {
	CrossSlot() knowledge.CrossSlotDemo
	Diagnostics() knowledge.DiagnosticsTable
}

// composeCrossSlot answers from the cross-slot demo: what each system
// answered to each multi-key command, or the hash slot of a demo key.
func (b *Composer) composeCrossSlot(p planner.Plan) (Answer, error) {
	dt, ok := b.cfg.Knowledge.(demoTables)
	if !ok {
		return Answer{}, fmt.Errorf("composing %q: %w", p.Question, errNoDemoTables)
	}
	demo := dt.CrossSlot()
	s := newSourcer(b.cfg.Knowledge)
	s.entry(demo.ID)
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}}
	var systems []knowledge.CrossSlotSystem
	var missing []string
	for _, e := range p.Slots.Engines {
		i := slices.IndexFunc(demo.Systems, func(sys knowledge.CrossSlotSystem) bool {
			return strings.Contains(sys.Name, analytics.EngineName(e))
		})
		if i < 0 {
			missing = append(missing, analytics.EngineName(e))
			continue
		}
		systems = append(systems, demo.Systems[i])
	}
	if len(p.Slots.Engines) == 0 {
		systems = demo.Systems
	}
	var names []string
	for _, sys := range demo.Systems {
		names = append(names, sys.Name)
	}
	if len(missing) > 0 {
		a.Body = append(a.Body, joinAnd(missing)+" took no part in the cross-slot demo: it ran on "+joinAnd(names)+" only.")
	}
	if len(systems) == 0 {
		a.Kind = KindNoData
		a.Headline = joinAnd(missing) + " was never part of the cross-slot demo, which ran on " + joinAnd(names) + "."
		a.Sources = s.sources()
		return a, nil
	}
	tbl := &Table{Columns: []string{"System", "Command", "Result", "Reply"}}
	var parts []string
	for _, sys := range systems {
		var checks []string
		for _, c := range sys.Checks {
			checks = append(checks, c.Command+" "+verdictWord(c.Accepted))
			tbl.Rows = append(tbl.Rows, []string{sys.Name, c.Command, verdictWord(c.Accepted), c.Reply})
		}
		parts = append(parts, sys.Name+": "+strings.Join(checks, ", "))
	}
	a.Headline = "In the cross-slot demo, " + strings.Join(parts, "; ") + "."
	if len(p.Slots.Keys) > 0 {
		var slots []string
		for _, k := range p.Slots.Keys {
			if n, ok := demo.Slot(k); ok {
				slots = append(slots, k+" hashes to slot "+strconv.Itoa(n))
			}
		}
		if len(slots) > 0 {
			a.Headline = "In the cross-slot demo's 3-shard Redis Cluster, " + strings.Join(slots, ", ") + "."
		}
	}
	for _, sys := range systems {
		if len(sys.Slots) == 0 {
			continue
		}
		var ks []string
		for _, k := range sys.Slots {
			ks = append(ks, k.Key+" → slot "+strconv.Itoa(k.Slot))
		}
		a.Body = append(a.Body, sys.Name+" hash slots of the demo keys: "+strings.Join(ks, ", ")+".")
	}
	a.Table = tbl
	a.Body = append(a.Body, demo.Summary...)
	var plain []string
	for _, sys := range systems {
		var rejected []string
		for _, c := range sys.Checks {
			if !c.Accepted {
				rejected = append(rejected, c.Command)
			}
		}
		if len(rejected) == 0 {
			plain = append(plain, sys.Name+" accepted every multi-key command it was given")
		} else {
			plain = append(plain, sys.Name+" refused "+joinAnd(rejected)+" and accepted the rest")
		}
	}
	a.PlainWords = strings.Join(plain, "; ") + "."
	a.Caveats = append(a.Caveats, "The cross-slot demo is a functional check of which commands each system accepts, not a benchmark: it measured no throughput or latency.")
	b.applyCaveatsAndTerms(&a, s, nil, []string{"term:hash-slot", "term:crossslot", "term:hash-tag"}, 3)
	a.Sources = s.sources()
	return a, nil
}

func verdictWord(accepted bool) string {
	if accepted {
		return "accepted"
	}
	return "rejected"
}

// composeDiagnostics answers from the author's one-off diagnostic runs,
// each named as outside the dataset wherever it is shown.
func (b *Composer) composeDiagnostics(p planner.Plan) (Answer, error) {
	dt, ok := b.cfg.Knowledge.(demoTables)
	if !ok {
		return Answer{}, fmt.Errorf("composing %q: %w", p.Question, errNoDemoTables)
	}
	t := dt.Diagnostics()
	s := newSourcer(b.cfg.Knowledge)
	s.entry(t.ID)
	a := Answer{Kind: KindAnswer, Interpretation: p.Interpretation, Rows: []Row{}, Nearest: []Row{}}
	var runs []knowledge.DiagnosticRun
	for _, r := range t.Runs {
		if len(p.Slots.Labels) > 0 && !slices.Contains(p.Slots.Labels, r.Label) {
			continue
		}
		if len(p.Slots.Engines) > 0 && !slices.Contains(p.Slots.Engines, r.Engine) {
			continue
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		a.Kind = KindNoData
		var have []string
		for _, r := range t.Runs {
			have = append(have, r.Label+" ("+analytics.EngineName(r.Engine)+")")
		}
		a.Headline = "No diagnostic run matches that: the diagnostic runs are " + joinAnd(have) + "."
		a.Sources = s.sources()
		return a, nil
	}
	metric := p.Slots.Metric
	if metric == "" {
		metric = "ops_per_sec"
	}
	tbl := &Table{Columns: []string{"Diagnostic run", "Engine", "Mode", "Cores", "Client threads × connections", "Test (s)", "Throughput", "p50 (ms)", "p99 (ms)", "p99.9 (ms)"}}
	var parts []string
	for _, r := range runs {
		parts = append(parts, fmt.Sprintf("%s, %s %s at %d cores: %s", r.Label, analytics.EngineName(r.Engine), r.Mode, r.Cores, diagnosticFigure(r, metric)))
		tbl.Rows = append(tbl.Rows, []string{r.Label, analytics.EngineName(r.Engine), r.Mode, strconv.Itoa(r.Cores),
			fmt.Sprintf("%d × %d", r.ClientThreads, r.ClientConns), strconv.Itoa(r.TestTimeS), formatOpsShort(r.OpsPerSec),
			formatMsShort(r.P50Ms), formatMsShort(r.P99Ms), formatMsShort(r.P999Ms)})
		if broken(r) {
			a.Body = append(a.Body, fmt.Sprintf("%s looks broken: its %s hits per second are far below the GETs its %s imply, so its figures are not a measurement of the engine.", r.Label, formatOpsShort(r.HitsPerSec), FormatOps(r.OpsPerSec)))
		}
	}
	a.Headline = "Diagnostic runs, outside the dataset (one run each, never part of its medians): " + strings.Join(parts, "; ") + "."
	a.Table = tbl
	a.PlainWords = "These were the author's one-off checks, run once each with their own client setup; for how an engine performs, the dataset's medians are the figures to quote."
	a.Caveats = append(a.Caveats, "These are the author's one-off checks, with their own client shapes and test lengths; the dataset's figures for the same engines and cores are separate runs, and the two are not interchangeable.")
	b.applyCaveatsAndTerms(&a, s, nil, nil, 0)
	a.Sources = s.sources()
	return a, nil
}

// diagnosticFigure is a run's figure for the metric asked.
func diagnosticFigure(r knowledge.DiagnosticRun, metric string) string {
	switch metric {
	case "p50_ms":
		return "p50 " + FormatMs(r.P50Ms)
	case "p99_ms":
		return "p99 " + FormatMs(r.P99Ms)
	case "p999_ms":
		return "p99.9 " + FormatMs(r.P999Ms)
	}
	return FormatOps(r.OpsPerSec)
}

// broken reports a run whose hits fall far short of the GETs its workload
// sends (SET:GET a:b sends b GETs in every a+b commands).
func broken(r knowledge.DiagnosticRun) bool {
	sets, gets, ok := strings.Cut(r.Ratio, ":")
	if !ok {
		return false
	}
	a, err1 := strconv.ParseFloat(sets, 64)
	g, err2 := strconv.ParseFloat(gets, 64)
	if err1 != nil || err2 != nil || a+g == 0 {
		return false
	}
	return r.HitsPerSec < 0.5*r.OpsPerSec*g/(a+g)
}
