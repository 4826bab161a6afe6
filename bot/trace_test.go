package bot_test

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// The tracer checks that every number in an answer's Markdown comes from
// somewhere it may: a median of a cell whose runs the answer cites
// (recomputed here from the raw runs, independently of analytics), a value
// of one of those runs, a measured table (bytes per key, failover), a ratio
// or percentage of two such values, a condition (cores, pipeline, value
// size, ratio, session, repetitions), the question itself, or the text of
// a knowledge entry the answer cites. Anything else is reported.

// tracer holds the raw runs, grouped into cells by their key.
type tracer struct {
	runs  map[string]analytics.Run
	cells map[analytics.CellKey][]analytics.Run
	kb    *knowledge.Base
	// counted keeps count's result per filter: golden answers and their
	// follow-ups repeat the same filters, and each count scans every run.
	// mu guards it: parallel subtests share one tracer.
	mu      sync.Mutex
	counted map[string][]int
}

func newTracer(runs []analytics.Run, kb *knowledge.Base) *tracer {
	t := &tracer{runs: map[string]analytics.Run{}, cells: map[analytics.CellKey][]analytics.Run{}, kb: kb, counted: map[string][]int{}}
	for _, r := range runs {
		t.runs[r.ID] = r
		t.cells[r.Key()] = append(t.cells[r.Key()], r)
	}
	return t
}

// median is computed here, apart from analytics: the middle value, or the
// mean of the two middle values.
func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// cellThreshold is a threshold a search applied to cells' medians, as
// its answer states it ("keeping those whose throughput is above 10M
// ops/s").
type cellThreshold struct {
	metric, op string
	value      float64
}

var (
	keepingRE     = regexp.MustCompile(`keeping those whose (.+?) is (at least|above|at most|below) ([0-9.]+)(M|K)?(%)?`)
	metricByWords = map[string]string{"throughput": "ops_per_sec", "throughput per core": "ops_per_core", "p50 (median) latency": "p50_ms",
		"p99 latency": "p99_ms", "p99.9 latency": "p999_ms", "hit rate": "hit_rate", "bandwidth": "kb_per_sec"}
)

// medianThreshold reads the threshold on medians an answer says it kept.
func medianThreshold(a bot.Answer) (cellThreshold, bool) {
	for _, b := range a.Body {
		m := keepingRE.FindStringSubmatch(b)
		if m == nil || metricByWords[m[1]] == "" {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			continue
		}
		switch {
		case m[4] == "M":
			v *= 1e6
		case m[4] == "K":
			v *= 1e3
		case m[5] == "%":
			v /= 100
		}
		op := map[string]string{"at least": ">=", "above": ">", "at most": "<=", "below": "<"}[m[2]]
		return cellThreshold{metricByWords[m[1]], op, v}, true
	}
	return cellThreshold{}, false
}

// countPassing counts the cells of a filter's runs whose median (of those
// runs) passes a threshold, from the raw runs.
func (t *tracer) countPassing(filter string, th cellThreshold) int {
	f, err := analytics.CompileFilter(filter)
	if err != nil {
		return -1
	}
	by := map[analytics.CellKey][]float64{}
	for _, r := range t.runs {
		if ok, err := f.Match(&r); err == nil && ok {
			if v, ok := runMetrics(r)[th.metric]; ok {
				by[r.Key()] = append(by[r.Key()], v)
			}
		}
	}
	n := 0
	for _, vs := range by {
		m := median(vs)
		if th.op == ">=" && m >= th.value || th.op == ">" && m > th.value || th.op == "<=" && m <= th.value || th.op == "<" && m < th.value {
			n++
		}
	}
	return n
}

// filterSpread is the median, lowest and highest of each metric across
// the runs a filter selects, from the raw runs.
func (t *tracer) filterSpread(filter string) map[string][]float64 {
	f, err := analytics.CompileFilter(filter)
	if err != nil {
		return nil
	}
	by := map[string][]float64{}
	for _, r := range t.runs {
		if ok, err := f.Match(&r); err == nil && ok {
			for k, v := range runMetrics(r) {
				by[k] = append(by[k], v)
			}
		}
	}
	out := map[string][]float64{}
	for k, vs := range by {
		out[k] = []float64{median(vs), slices.Min(vs), slices.Max(vs)}
	}
	return out
}

// count returns how many runs and how many cells a filter selects, from
// the raw runs (the filter compiled by the one gate).
func (t *tracer) count(filter string) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.counted[filter]; ok {
		return c
	}
	f, err := analytics.CompileFilter(filter)
	if err != nil {
		return nil
	}
	runs, cells := 0, map[analytics.CellKey]bool{}
	for _, r := range t.runs {
		if ok, err := f.Match(&r); err == nil && ok {
			runs++
			cells[r.Key()] = true
		}
	}
	t.counted[filter] = []int{runs, len(cells)}
	return t.counted[filter]
}

// pools of values a number of each unit may come from.
type pools struct {
	ops, ms, plain, seconds []float64 // values
	ratios                  []float64 // multiples (×)
	percents                []float64 // percentages (%)
	reps                    []int
	counts                  []int           // how many runs and cells each of the answer's filters selects
	tokens                  map[string]bool // number tokens allowed verbatim (question, knowledge text)
	knowledgeText           string          // the cited entries' text, where code spans may come from
}

// addMetric puts values of one metric in the pool of its unit.
func (p *pools) addMetric(name string, vs []float64) {
	switch {
	case strings.HasSuffix(name, "_ms"):
		p.ms = append(p.ms, vs...)
	case name == "hit_rate":
		for _, v := range vs {
			p.percents = append(p.percents, v*100)
		}
	default:
		p.ops = append(p.ops, vs...)
	}
}

func runMetrics(r analytics.Run) map[string]float64 {
	m := map[string]float64{"ops_per_sec": r.OpsPerSec, "ops_per_core": r.OpsPerCore, "p50_ms": r.P50Ms,
		"p99_ms": r.P99Ms, "p999_ms": r.P999Ms, "kb_per_sec": r.KBPerSec}
	if r.HitRate != nil {
		m["hit_rate"] = *r.HitRate
	}
	return m
}

// checkRow verifies a row against the raw runs: its run IDs are exactly
// the runs of its cell and its medians are theirs.
func (t *tracer) checkRow(r bot.Row) error {
	key := analytics.CellKey{Session: r.Session, Engine: r.Engine, Mode: r.Mode, Cores: r.Cores, Ratio: r.Ratio, ValueBytes: r.ValueBytes, Pipeline: r.Pipeline}
	runs := t.cells[key]
	if len(runs) == 0 {
		return fmt.Errorf("row %+v: no run has this combination", key)
	}
	var ids []string
	for _, x := range runs {
		ids = append(ids, x.ID)
	}
	got := slices.Sorted(slices.Values(r.RunIDs))
	if !slices.Equal(got, slices.Sorted(slices.Values(ids))) {
		return fmt.Errorf("row %+v: run IDs %v, the cell's runs are %v", key, r.RunIDs, ids)
	}
	if r.Reps != len(runs) {
		return fmt.Errorf("row %+v: %d reps, the cell has %d runs", key, r.Reps, len(runs))
	}
	for name, want := range t.cellMedians(key) {
		v, ok := r.Metric(name)
		if !ok && name != "hit_rate" || ok && math.Abs(v-want) > 1e-6 {
			return fmt.Errorf("row %+v: %s = %v, the median of its runs is %v", key, name, v, want)
		}
	}
	return nil
}

func (t *tracer) cellMedians(key analytics.CellKey) map[string]float64 {
	by := map[string][]float64{}
	for _, r := range t.cells[key] {
		for k, v := range runMetrics(r) {
			by[k] = append(by[k], v)
		}
	}
	out := map[string]float64{}
	for k, vs := range by {
		out[k] = median(vs)
	}
	return out
}

// poolsFor gathers the values an answer may show.
func (t *tracer) poolsFor(a bot.Answer, questions []string) *pools {
	p := &pools{tokens: map[string]bool{}}
	byMetric := map[string][]float64{}
	keys := map[analytics.CellKey]bool{}
	ids := slices.Clone(a.Sources.RunIDs)
	for _, r := range append(slices.Clone(a.Rows), a.Nearest...) {
		ids = append(ids, r.RunIDs...)
	}
	for _, id := range ids {
		r, ok := t.runs[id]
		if !ok {
			continue
		}
		keys[r.Key()] = true
		for k, v := range runMetrics(r) {
			byMetric[k] = append(byMetric[k], v)
		}
		// A run's own recorded fields (duration, client shape).
		p.seconds = append(p.seconds, float64(r.TestTimeS))
		p.plain = append(p.plain, float64(r.TestTimeS), float64(r.ClientThreads), float64(r.ClientConns), float64(r.Rep))
	}
	for _, f := range a.Sources.Filters {
		p.counts = append(p.counts, t.count(f)...)
	}
	if th, ok := medianThreshold(a); ok {
		for _, f := range a.Sources.Filters {
			p.counts = append(p.counts, t.countPassing(f, th))
		}
	}
	for k := range keys {
		for name, v := range t.cellMedians(k) {
			byMetric[name] = append(byMetric[name], v)
		}
		p.reps = append(p.reps, len(t.cells[k]))
	}
	for name, vs := range byMetric {
		p.addMetric(name, vs)
		qs := ratiosOf(vs)
		p.ratios = append(p.ratios, qs...)
		p.percents = slices.Grow(p.percents, 2*len(qs))
		for _, q := range qs {
			p.percents = append(p.percents, q*100, math.Abs(q-1)*100)
		}
	}
	// A statistic over the runs a cited filter keeps ("median p50 of the
	// runs with p99 under 1 ms"): the median, lowest and highest of each
	// metric across exactly those runs.
	for _, f := range a.Sources.Filters {
		for name, vs := range t.filterSpread(f) {
			p.addMetric(name, vs)
		}
	}
	// Ratios across metrics of the same unit (ops of different series are
	// all in byMetric["ops_per_sec"] already).
	// Measured tables.
	if t.kb != nil {
		mem := t.kb.MemoryTable()
		var bpk []float64
		for _, r := range append(slices.Clone(mem.Rows), mem.Quoted...) {
			bpk = append(bpk, r.BytesPerKey)
			p.plain = append(p.plain, r.BytesPerKey, float64(r.UsedMemory), float64(r.Keys))
		}
		p.plain = append(p.plain, float64(mem.Keys), float64(mem.ValueBytes))
		for _, q := range ratiosOf(bpk) {
			p.ratios = append(p.ratios, q)
			p.percents = append(p.percents, q*100, math.Abs(q-1)*100)
		}
		var medians []float64 // of every group: a ranking says how far apart they are
		for _, ft := range []knowledge.FailoverTable{t.kb.FailoverSweep(), t.kb.FailoverEngines()} {
			for _, g := range ft.Groups {
				medians = append(medians, g.MedianOutageS)
				var outs []float64
				for _, r := range g.Reps {
					outs = append(outs, r.OutageS)
					over := r.OutageS - float64(r.DownAfterMs)/1000
					p.seconds = append(p.seconds, r.OutageS, r.FirstFailS, over)
				}
				mean := 0.0
				for _, o := range outs {
					mean += o / float64(len(outs))
				}
				p.seconds = append(p.seconds, median(outs), mean)
				p.plain = append(p.plain, float64(g.DownAfterMs))
			}
		}
		for i, a := range medians {
			for _, b := range medians[i+1:] {
				p.seconds = append(p.seconds, math.Abs(a-b))
			}
		}
		// The diagnostic runs and the cross-slot demo are measured
		// tables too: each figure as recorded.
		for _, r := range t.kb.Diagnostics().Runs {
			p.ops = append(p.ops, r.OpsPerSec, r.HitsPerSec)
			p.ms = append(p.ms, r.P50Ms, r.P99Ms, r.P999Ms)
			p.plain = append(p.plain, float64(r.Cores), float64(r.ClientThreads), float64(r.ClientConns), float64(r.TestTimeS))
		}
		for _, sys := range t.kb.CrossSlot().Systems {
			p.plain = append(p.plain, float64(sys.Shards))
			for _, k := range sys.Slots {
				p.plain = append(p.plain, float64(k.Slot))
			}
		}
	}
	for _, e := range a.Sources.Entries {
		if t.kb == nil {
			break
		}
		if ent, ok := t.kb.Entry(e.ID); ok {
			p.knowledgeText += ent.Text + "\n" + ent.Gist + "\n"
			for _, tok := range numberTokens(ent.Text + " " + ent.Title + " " + ent.Gist) {
				p.tokens[tok.key()] = true
			}
		}
		if c, ok := t.kb.Claim(e.ID); ok {
			for _, tok := range numberTokens(strings.Join([]string{c.Statement, c.Setup, c.Numbers, c.Provenance, c.Measured, c.Verdict, c.WhyDiffer}, " ")) {
				p.tokens[tok.key()] = true
			}
		}
	}
	for _, term := range a.Terms {
		if tm, ok := t.kb.Term(term.ID); ok {
			for _, tok := range numberTokens(tm.Definition + " " + tm.Name) {
				p.tokens[tok.key()] = true
			}
		}
	}
	for _, q := range append(slices.Clone(questions), a.Examples...) {
		for _, tok := range numberTokens(q) {
			p.tokens[tok.key()] = true
			p.tokens[tok.num] = true
			// "60 seconds" and "1 minute" in a question may be restated
			// as "60 s".
			switch after := strings.ToLower(strings.TrimSpace(tok.after)); {
			case strings.HasPrefix(after, "sec"):
				p.tokens[tok.num+"s"] = true
			case strings.HasPrefix(after, "min"):
				p.tokens[strconv.FormatFloat(tok.value()*60, 'f', -1, 64)+"s"] = true
			}
			// "10M" in a question may be restated to one decimal ("10.0M").
			if tok.unit != "" && !strings.Contains(tok.num, ".") {
				p.tokens[tok.num+".0"+tok.unit] = true
			}
			// "10KB" in a question may be restated in bytes.
			if strings.HasPrefix(strings.TrimSpace(strings.ToUpper(tok.after)), "KB") || strings.HasPrefix(strings.ToUpper(tok.after), "KIB") {
				p.tokens[strconv.Itoa(int(tok.value())*1024)] = true
			}
		}
	}
	// Help lists the reader's vocabulary ("p99", "50/50"): words it reads,
	// not figures.
	if a.Kind == bot.KindHelp {
		for _, s := range planner.Vocabulary() {
			for _, tok := range numberTokens(strings.Join(s.Words, ", ")) {
				p.tokens[tok.key()] = true
			}
		}
	}
	// Versions of the engines tested (answers name them when a user
	// mentions another version).
	if t.kb != nil {
		for _, e := range t.kb.Engines() {
			for _, tok := range numberTokens(e.Version) {
				p.tokens[tok.key()] = true
			}
		}
	}
	return p
}

// ratiosOf lists every ratio between two of the values. Repeated values
// (an answer citing hundreds of runs repeats its cells' medians) are
// counted once: they add no ratio, only time.
func ratiosOf(vs []float64) []float64 {
	vs = slices.Compact(slices.Sorted(slices.Values(vs)))
	out := make([]float64, 0, len(vs)*len(vs))
	for _, a := range vs {
		for _, b := range vs {
			if a != 0 && b != 0 {
				out = append(out, a/b)
			}
		}
	}
	return out
}

// token is one number found in text, with its unit and surroundings.
type token struct {
	num    string // as written, without separators
	dec    int    // decimals written
	unit   string // "M", "K", "×", "%", "ms", "s", "" …
	before string // up to 24 characters before
	after  string // up to 24 characters after
}

func (t token) key() string { return t.num + t.unit }

func (t token) value() float64 {
	v, _ := strconv.ParseFloat(t.num, 64)
	return v
}

var numRE = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)

// numberTokens finds numbers not glued to identifiers (p99, mget10, c6gn,
// S1 and the like are names, not figures).
func numberTokens(s string) []token {
	var out []token
	for _, loc := range numRE.FindAllStringIndex(s, -1) {
		i, j := loc[0], loc[1]
		if i > 0 {
			c := s[i-1]
			if c == '.' || c == '_' || c == '-' && i > 1 && isAlnum(s[i-2]) || isAlpha(c) {
				continue
			}
		}
		raw := strings.TrimRight(s[i:j], ",.")
		j = i + len(raw)
		rest := s[j:]
		tok := token{num: strings.ReplaceAll(raw, ",", "")}
		if k := strings.IndexByte(tok.num, '.'); k >= 0 {
			tok.dec = len(tok.num) - k - 1
		}
		tok.before = s[max(0, i-24):i]
		tok.after = rest[:min(len(rest), 24)]
		switch {
		case strings.HasPrefix(rest, "M") && !startsWord(rest[1:]):
			tok.unit = "M"
		case strings.HasPrefix(rest, "K") && !startsWord(rest[1:]) && !strings.HasPrefix(rest, "KB"):
			tok.unit = "K"
		case strings.HasPrefix(rest, "×"), strings.HasPrefix(rest, "x") && !startsWord(rest[1:]):
			tok.unit = "×"
		case strings.HasPrefix(rest, "%"):
			tok.unit = "%"
		case strings.HasPrefix(rest, " ms"), strings.HasPrefix(rest, "ms"):
			tok.unit = "ms"
		case strings.HasPrefix(rest, " µs"), strings.HasPrefix(rest, "µs"):
			tok.unit = "µs"
		case strings.HasPrefix(rest, " s") && !startsWord(rest[2:]), strings.HasPrefix(rest, " s)"):
			tok.unit = "s"
		}
		out = append(out, tok)
	}
	return out
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
func startsWord(s string) bool {
	return s != "" && isAlpha(s[0])
}

// near reports whether some v rounds to the token at the decimals written.
func near(vs []float64, want float64, dec int, scale float64) bool {
	tol := 0.5*math.Pow10(-dec) + 1e-9
	for _, v := range vs {
		if math.Abs(v/scale-want) <= tol {
			return true
		}
	}
	return false
}

var ()

var coreCounts = []float64{4, 8, 16, 24, 48}

// condition decides a number whose context names a condition: decided
// reports whether the context did, ok whether the value is a measured one.
func condition(t token, p *pools) (decided, ok bool) {
	v := t.value()
	after, before := t.after, strings.ToLower(t.before)
	switch {
	case strings.HasPrefix(after, " repetitions"):
		return true, slices.Contains(p.reps, int(v))
	case strings.HasPrefix(after, ":1"):
		return true, v == 1
	case strings.HasSuffix(before, "1:"):
		return true, v == 1 || v == 10
	case strings.HasPrefix(after, " cores"), strings.HasPrefix(after, " core "), strings.HasPrefix(after, "-core"),
		strings.HasPrefix(after, "c "), strings.HasPrefix(after, "c,"), strings.HasPrefix(after, "c)"),
		strings.HasPrefix(after, " server threads"), strings.HasPrefix(after, " shards"):
		return true, slices.Contains(coreCounts, v)
	case strings.HasPrefix(after, " B ") || strings.HasPrefix(after, " B,") || strings.HasPrefix(after, " B)") || after == " B" || strings.HasPrefix(after, "-byte"):
		return true, v == 100 || v == 1024
	case strings.HasPrefix(after, " KB"):
		return true, v == 1
	case strings.HasSuffix(before, "pipeline "), strings.HasSuffix(before, "batches of "):
		return true, v == 1 || v == 16
	case strings.HasSuffix(before, "session "):
		return true, v == 1 || v == 2
	case strings.HasPrefix(after, " keys per command"):
		return true, v == 10
	case strings.HasPrefix(after, " runs"), strings.HasPrefix(after, " cells"), strings.HasPrefix(after, " of the "),
		strings.HasPrefix(after, " measured runs"), strings.HasPrefix(after, " measured cells"):
		return true, slices.Contains(p.counts, int(v))
	case strings.HasPrefix(after, " more") && strings.HasSuffix(before, "and "):
		return true, true // checked against the run count in trace
	}
	return false, false
}

// traceNumber reports whether one token is accounted for.
func traceNumber(t token, p *pools) bool {
	if p.tokens[t.key()] {
		return true
	}
	if decided, ok := condition(t, p); decided {
		return ok
	}
	v := t.value()
	switch t.unit {
	case "M":
		return near(p.ops, v, t.dec, 1e6)
	case "K":
		return near(p.ops, v, t.dec, 1e3)
	case "×":
		return near(p.ratios, v, t.dec, 1)
	case "%":
		return near(p.percents, v, t.dec, 1)
	case "ms":
		return near(p.ms, v, t.dec, 1)
	case "µs":
		return near(p.ms, v, t.dec, 1e-3)
	case "s":
		return near(p.seconds, v, t.dec, 1) || near(p.ms, v, t.dec, 1e3)
	}
	for _, pool := range [][]float64{p.ops, p.ms, p.plain, p.seconds} {
		if near(pool, v, t.dec, 1) {
			return true
		}
	}
	return false
}

var (
	codeSpanRE = regexp.MustCompile("`([^`]*)`")
	idRE       = regexp.MustCompile(`\b(term|claim|finding|caveat|rule|trap|table|failover|engine|session|scope|setup|series|conflict|source|data):[a-z0-9-]+`)
	urlRE      = regexp.MustCompile(`https?://[^\s)]+`)
	moreRE     = regexp.MustCompile(`and (\d+) more`)
	// orderedRE is an ordered-list marker (a clarify's numbered choices).
	orderedRE = regexp.MustCompile(`(?m)^\d+\. `)
)

// trace checks the whole Markdown of an answer and returns every problem.
func (t *tracer) trace(a bot.Answer, md string, questions []string) []string {
	var problems []string
	for _, r := range append(slices.Clone(a.Rows), a.Nearest...) {
		if err := t.checkRow(r); err != nil {
			problems = append(problems, err.Error())
		}
	}
	p := t.poolsFor(a, questions)
	// Code spans are run IDs (which must exist and be cited) or filters
	// (which must be the answer's filters, verbatim).
	for _, m := range codeSpanRE.FindAllStringSubmatch(md, -1) {
		span := m[1]
		switch {
		case strings.HasPrefix(span, "run-s"):
			if _, ok := t.runs[span]; !ok {
				problems = append(problems, "unknown run ID "+span)
			} else if !slices.Contains(a.Sources.RunIDs, span) {
				problems = append(problems, "run ID not in the answer's sources: "+span)
			}
		case slices.Contains(a.Sources.Filters, span):
		case p.knowledgeText != "" && strings.Contains(p.knowledgeText, "`"+span+"`"):
		default:
			problems = append(problems, "code span is neither a run ID nor a filter of the answer: "+span)
		}
	}
	if m := moreRE.FindStringSubmatch(md); m != nil {
		n, _ := strconv.Atoi(m[1])
		if n != len(a.Sources.RunIDs)-8 {
			problems = append(problems, fmt.Sprintf("“and %d more” but the answer cites %d run IDs", n, len(a.Sources.RunIDs)))
		}
	}
	md, detailProblems := traceDetails(a, md)
	problems = append(problems, detailProblems...)
	md, tableProblems := traceTables(md, p)
	problems = append(problems, tableProblems...)
	md, listProblems := traceLists(md)
	problems = append(problems, listProblems...)
	text := orderedRE.ReplaceAllString(md, "")
	text = codeSpanRE.ReplaceAllString(text, " ")
	text = urlRE.ReplaceAllString(text, " ")
	text = idRE.ReplaceAllString(text, " ")
	for _, tok := range numberTokens(text) {
		if !traceNumber(tok, p) {
			problems = append(problems, fmt.Sprintf("untraced number %q in “…%s%s%s…”", tok.key(), tok.before, tok.num, tok.after))
		}
	}
	return problems
}

// detailsRE is the reply's details line: "Details, 6 filters and 10 run
// IDs below."
var detailsRE = regexp.MustCompile(`(?m)^_Details(?:, (?:(\d+) filters?)?(?:(?:, | and )?(\d+) run IDs?)?(?: and sources)?(?:sources)?)? [a-z ]+\._$`)

// traceDetails checks the counts the details line gives against the
// answer's filters and run IDs, and takes the line out of the text.
func traceDetails(a bot.Answer, md string) (string, []string) {
	var problems []string
	for _, m := range detailsRE.FindAllStringSubmatch(md, -1) {
		if m[1] != "" && m[1] != strconv.Itoa(len(a.Sources.Filters)) {
			problems = append(problems, fmt.Sprintf("details line says %s filters, the answer has %d", m[1], len(a.Sources.Filters)))
		}
		if m[2] != "" && m[2] != strconv.Itoa(len(a.Sources.RunIDs)) {
			problems = append(problems, fmt.Sprintf("details line says %s run IDs, the answer has %d", m[2], len(a.Sources.RunIDs)))
		}
	}
	return detailsRE.ReplaceAllString(md, ""), problems
}

// conditionColumns are table columns holding conditions, with the values
// each may hold.
var conditionColumns = map[string]func(cell string, p *pools) bool{
	"Cores":    func(c string, _ *pools) bool { return slices.Contains([]string{"4", "8", "16", "24", "48"}, c) },
	"Session":  func(c string, _ *pools) bool { return c == "1" || c == "2" },
	"Pipeline": func(c string, _ *pools) bool { return c == "1" || c == "16" },
	"Value":    func(c string, _ *pools) bool { return c == "100 B" || c == "1 KB" },
	"SET:GET": func(c string, _ *pools) bool {
		return slices.Contains([]string{"1:10", "1:1", "MGET×10", "MSET×10"}, c)
	},
	"Reps": func(c string, p *pools) bool {
		n, err := strconv.Atoi(strings.TrimSuffix(c, " reps"))
		return c == "single run" || err == nil && slices.Contains(p.reps, n)
	},
	"down-after ms": func(c string, p *pools) bool {
		v, err := strconv.ParseFloat(c, 64)
		return err == nil && slices.Contains(p.plain, v)
	},
}

// traceTables checks the condition columns of every Markdown table and
// blanks them, so the remaining cells are traced as figures.
func traceTables(md string, p *pools) (string, []string) {
	var problems []string
	lines := strings.Split(md, "\n")
	var header []string
	for i, l := range lines {
		if !strings.HasPrefix(l, "|") {
			header = nil
			continue
		}
		cells := splitRow(l)
		if header == nil {
			header = cells
			continue
		}
		if strings.HasPrefix(l, "| ---") {
			continue
		}
		for j, c := range cells {
			if j >= len(header) {
				break
			}
			check, ok := conditionColumns[header[j]]
			if !ok {
				continue
			}
			if !check(c, p) {
				problems = append(problems, fmt.Sprintf("table column %q holds %q, not a measured condition", header[j], c))
			}
			cells[j] = ""
		}
		lines[i] = "| " + strings.Join(cells, " | ") + " |"
	}
	return strings.Join(lines, "\n"), problems
}

func splitRow(l string) []string {
	parts := strings.Split(strings.Trim(l, "|"), " | ")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// listRE finds lists of whole numbers ("4, 8, 16, 24 and 48", "1 and 16",
// "from 4 to 48"), which answers use for the values a knob was measured at.
var listRE = regexp.MustCompile(`\b\d+(?:, \d+)*,? (?:and|or|to) \d+\b(?:\.[^\d]|\.$|[^.:\d]|$)`)

// conditionSets are the values each knob was measured at.
var conditionSets = [][]int{{4, 8, 16, 24, 48}, {1, 16}, {100, 1024}}

// traceLists accepts lists whose every number is a value of one knob, and
// blanks them; other lists are left for the number check.
func traceLists(md string) (string, []string) {
	return listRE.ReplaceAllStringFunc(md, func(m string) string {
		nums := regexp.MustCompile(`\d+`).FindAllString(m, -1)
		for _, set := range conditionSets {
			all := true
			for _, n := range nums {
				v, _ := strconv.Atoi(n)
				if !slices.Contains(set, v) {
					all = false
					break
				}
			}
			if all {
				return regexp.MustCompile(`\d+`).ReplaceAllString(m, "")
			}
		}
		return m
	}), nil
}
