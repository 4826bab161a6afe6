package planner

import (
	"github.com/memdb-oracle/memdb-oracle/analytics"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// parsed is what the grammar found in one question: every knob value,
// engine, mode and metric mentioned, with positions where attribution
// matters. Nothing here is checked against coverage yet.
type parsed struct {
	text string

	engines    []mention // engine keys, first mention order, unique
	allEngines bool
	modes      []modeMention

	cores      []int
	coresRange bool
	pipelines  []int
	ratios     []string
	values     []int
	session    int
	metrics    []string // first mention order, unique
	topics     map[string]bool
	versions   []version
	downAfter  int
	keys       int // a key count the question named ("10 million keys")
	quoted     []string
	notes      []string
	leftover   []int // numbers no rule used
	// pipelinedNote is the index in notes of the "pipelined means 16" note,
	// or -1.
	pipelinedNote int
	wordCount     int

	used []bool
}

// mention is one engine named at a byte span of the text; more holds the
// spans of its later mentions ("Redis realistic vs Redis ceiling").
type mention struct {
	value      string
	start, end int
	more       [][2]int
}

// modeMention is one mode phrase; specific is false for a bare "cluster".
type modeMention struct {
	modes      []string
	start, end int
	specific   bool
}

// version is an engine version the user named ("Redis 9").
type version struct {
	engine, number string
}

func (x *parsed) free(start, end int) bool {
	return !slices.Contains(x.used[start:end], true)
}

func (x *parsed) take(start, end int) {
	for i := start; i < end; i++ {
		x.used[i] = true
	}
}

// each calls fn for every match of re whose span is still free; fn reports
// whether it used the match (the span is then taken). A match that
// overlaps a span already taken can hide a value next to it ("1:1, 16
// cores" matches as the list "1, 16 cores" whose "1" is the ratio's), so
// the pattern then runs again over the text with the taken spans blanked
// out, and only the free matches of that pass are offered.
func (x *parsed) each(re interface {
	FindAllStringSubmatchIndex(string, int) [][]int
}, fn func(m []int) bool) {
	hidden := false
	for _, m := range re.FindAllStringSubmatchIndex(x.text, -1) {
		if !x.free(m[0], m[1]) {
			hidden = true
			continue
		}
		if fn(m) {
			x.take(m[0], m[1])
		}
	}
	if !hidden {
		return
	}
	for _, m := range re.FindAllStringSubmatchIndex(x.blanked(), -1) {
		if x.free(m[0], m[1]) && fn(m) {
			x.take(m[0], m[1])
		}
	}
}

// blanked is the text with every taken byte replaced by a space (same
// length, so spans index both).
func (x *parsed) blanked() string {
	b := []byte(x.text)
	for i, u := range x.used {
		if u {
			b[i] = ' '
		}
	}
	return string(b)
}

func (x *parsed) group(m []int, i int) string {
	if 2*i+1 >= len(m) || m[2*i] < 0 {
		return ""
	}
	return x.text[m[2*i]:m[2*i+1]]
}

func (x *parsed) topic(k string) {
	if x.topics == nil {
		x.topics = map[string]bool{}
	}
	x.topics[k] = true
}

func appendUnique[T comparable](list []T, v T) []T {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// percentileNumbers are pN spellings that mean a latency percentile, not a
// pipeline depth.
func isPercentileNumber(n string) bool {
	switch n {
	case "50", "75", "90", "95", "99", "999", "9999", "100", "0", "25":
		return true
	}
	return false
}

// Metric markers the grammar resolves after reading the whole question.
const (
	metricLatency = "latency"     // a bare latency word
	metricAverage = "avg_latency" // average or mean latency
)

// isLatencyMetric reports a named latency statistic (p50 … maximum).
func isLatencyMetric(m string) bool {
	switch m {
	case "p50_ms", "p99_ms", "p999_ms", "p90_ms", "p95_ms", "p9999_ms", "max_ms":
		return true
	}
	return false
}

// joiners stand between the words of "read/write" or "read-and-write".
var joiners = strings.NewReplacer("/", " ", "-", " ", "&", " ")

// extract runs every rule of the grammar over normalized text.
func (g *grammar) extract(text string) *parsed {
	x := &parsed{text: text, used: make([]bool, len(text)), pipelinedNote: -1}
	x.wordCount = countWords(text)

	for _, re := range []interface {
		FindAllStringSubmatch(string, int) [][]string
	}{g.quotedSingle, g.quotedDouble} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			x.quoted = append(x.quoted, strings.TrimSpace(m[1]))
		}
	}

	// "write performance": the write word is a workload, the rest a metric.
	for _, m := range g.writeFocus.FindAllStringSubmatchIndex(text, -1) {
		if f := strings.Fields(joiners.Replace(text[:m[2]])); len(f) > 0 {
			switch f[len(f)-1] {
			case "read", "reads", "get", "gets", "and", "or", "mixed":
				continue // "read/write workload" is a mix, not writes
			}
		}
		r := "10:1" // write-heavy
		if strings.HasPrefix(text[m[2]:m[3]], "set") {
			r = "1:0" // SET only
		}
		x.ratios = appendUnique(x.ratios, r)
		x.take(m[2], m[3])
	}

	// Metrics first: their phrases hold numbers and units other rules
	// would misread ("p99", "KB/s", "bytes per key").
	type hit struct {
		pos    int
		metric string
		// speedWord: the throughput hit is only a word of speed ("fastest",
		// "slowest", "performance"), which a latency named beside it
		// qualifies: "the slowest p99.9" is p99.9, the highest one.
		speedWord bool
	}
	var hits []hit
	for _, r := range g.metrics {
		x.each(r.re, func(m []int) bool {
			hits = append(hits, hit{m[0], r.metric, r.metric == "ops_per_sec" && speedWords[text[m[0]:m[1]]]})
			return true
		})
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.pos - b.pos })
	if slices.ContainsFunc(hits, func(h hit) bool { return isLatencyMetric(h.metric) }) {
		hits = slices.DeleteFunc(hits, func(h hit) bool { return h.speedWord })
	}
	// A bare "latency" is the median unless a percentile is named too
	// ("the latency p99"); "average latency" is the median, said so.
	percentile := slices.ContainsFunc(hits, func(h hit) bool { return isLatencyMetric(h.metric) })
	for _, h := range hits {
		switch h.metric {
		case metricLatency:
			if percentile {
				continue
			}
			h.metric = "p50_ms"
		case metricAverage:
			if percentile {
				continue
			}
			h.metric = "p50_ms"
			x.notes = appendUnique(x.notes, "the runs record no average latency; the median (p50) is shown instead")
		}
		x.metrics = appendUnique(x.metrics, h.metric)
	}

	x.each(g.downAfter, func(m []int) bool {
		num, unit := x.group(m, 1), x.group(m, 2)
		if num == "" {
			num, unit = x.group(m, 3), x.group(m, 4)
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || f <= 0 || f > 1e7 {
			return false
		}
		switch {
		case strings.HasPrefix(unit, "s"):
			f *= 1000
		case unit == "" && f < 100:
			f *= 1000 // "down-after 5" means seconds
		}
		x.downAfter = int(math.Round(f))
		return true
	})

	x.each(g.keyCount, func(m []int) bool {
		f, err := strconv.ParseFloat(x.group(m, 1), 64)
		if err != nil || f <= 0 {
			return false
		}
		switch x.group(m, 2) {
		case "k", "thousand":
			f *= 1e3
		case "m", "million", "mn", "mio":
			f *= 1e6
		case "b", "billion":
			f *= 1e9
		}
		if f < 1 || f > 1e12 {
			return false
		}
		x.keys = int(math.Round(f))
		return true
	})
	x.each(g.session, func(m []int) bool {
		switch s := x.group(m, 1) + x.group(m, 2) + x.group(m, 3); s {
		case "1", "first", "1st":
			x.session = 1
		case "2", "second", "2nd":
			x.session = 2
		default:
			return false
		}
		return true
	})

	if x.session == 0 {
		// "how many rows does runs-aws.csv have?": the file is its session.
		for _, f := range analytics.DefaultDataset() {
			if strings.Contains(x.text, strings.ToLower(f.Name())) {
				x.session = f.Session
			}
		}
	}

	g.extractVersions(x)
	g.extractRatios(x) // before cores: "SET:GET 1:10, 8 cores" is not "10, 8 cores"
	g.extractCores(x)
	g.extractPipeline(x)
	g.extractValues(x)
	g.extractModes(x)

	x.each(g.engine, func(m []int) bool {
		x.addEngine(g.engineKey(x.group(m, 1)), m[0], m[1])
		return true
	})
	if g.allEngines.MatchString(text) {
		x.allEngines = true
	}

	// "and at 24?": a bare number after "at" is a core count.
	x.each(g.coresAt, func(m []int) bool {
		n, err := strconv.Atoi(x.group(m, 1))
		if err != nil || n <= 0 || n > 100000 || unitWritten(strings.TrimSpace(text[m[1]:])) {
			return false // "at 2 ms p99" is a latency, not 2 cores
		}
		x.cores = appendUnique(x.cores, n)
		return true
	})
	for _, w := range words(text) {
		if x.free(w.start, w.end) {
			if n, err := strconv.Atoi(text[w.start:w.end]); err == nil {
				x.leftover = append(x.leftover, n)
			}
		}
	}

	if g.coresTopic.MatchString(text) {
		x.topic("cores")
	}
	if g.ratioTopic.MatchString(text) {
		x.topic("ratio")
	}
	if g.sessionTopic.MatchString(text) {
		x.topic("session")
	}
	return x
}

func (x *parsed) addEngine(key string, start, end int) {
	if key == "" {
		return
	}
	for i, e := range x.engines {
		if e.value == key {
			x.engines[i].more = append(x.engines[i].more, [2]int{start, end})
			return
		}
	}
	x.engines = append(x.engines, mention{value: key, start: start, end: end})
}

// engineKey maps an engine spelling onto the filter vocabulary, the
// engines beyond the five included.
func (g *grammar) engineKey(s string) string {
	if k := engineKey(s); k != "" {
		return k
	}
	return g.otherEngines[strings.ToLower(strings.TrimSpace(s))]
}

// engineKey maps a spelling of the five engines onto the filter
// vocabulary: the lexicon's engine table, spaces and hyphens aside.
func engineKey(s string) string {
	return lexiconEngines().keys[unspaced(s)]
}

// engineTable is the lexicon's engine table: its spellings, unspaced ("key
// - db" → "keydb"), and its engines in the table's order.
type engineTable struct {
	keys  map[string]string
	order []string
}

var lexiconEngines = sync.OnceValue(func() engineTable {
	out := engineTable{keys: map[string]string{}}
	for _, t := range lexiconTables() {
		for _, e := range t.entries {
			if t.meaning == mEngine {
				out.keys[unspaced(e.phrase)] = e.value
				out.order = appendUnique(out.order, e.value)
			}
		}
	}
	return out
})

// engineSpellings is the alternation of the lexicon's engine spellings,
// longest first, with spaces and hyphens between their words optional
// ("dragonfly db", "key-db"): the grammar's engine pattern.
func engineSpellings() string {
	seen := map[string]bool{}
	var alts []string
	for _, t := range lexiconTables() {
		if t.meaning != mEngine {
			continue
		}
		for _, e := range t.entries {
			var words []string
			for _, w := range strings.Fields(strings.ReplaceAll(e.phrase, "-", " ")) {
				words = append(words, regexp.QuoteMeta(w))
			}
			if alt := strings.Join(words, `[\s-]*`); alt != "" && !seen[alt] {
				seen[alt] = true
				alts = append(alts, alt)
			}
		}
	}
	slices.SortStableFunc(alts, func(a, b string) int { return len(b) - len(a) })
	return `\b(` + strings.Join(alts, "|") + `)\b`
}

// unspaced is s without its spaces and hyphens.
func unspaced(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "-", " ")), "")
}

// listFollows reports text that continues a number into a list or range
// ("4-48 cores", "4 to 48").
func listFollows(rest string) bool {
	r := strings.TrimLeft(rest, " ")
	for _, sep := range []string{"-", "to ", "and ", "or ", ",", "/", "vs "} {
		if t, ok := strings.CutPrefix(r, sep); ok {
			t = strings.TrimLeft(t, " ")
			return t != "" && t[0] >= '0' && t[0] <= '9'
		}
	}
	return false
}

// ratioFollows reports text that continues a number into a ratio
// ("Redis 1:1" is a workload, not Redis version 1).
func ratioFollows(rest string) bool {
	r := strings.TrimLeft(rest, " ")
	if t, ok := strings.CutPrefix(r, ":"); ok {
		t = strings.TrimLeft(t, " ")
		return t != "" && t[0] >= '0' && t[0] <= '9'
	}
	return false
}

// unitFollows reports whether the text right after end starts with a unit
// that makes the number a knob value rather than a version.
func unitFollows(text string, end int) bool {
	rest := strings.TrimLeft(text[end:], " -")
	for _, u := range []string{"c ", "core", "shard", "thread", "cpu", "vcpu", "b ", "byte", "kb", "kib", "x ", "%", "times", "m ", "k ", "ms", "million", "ops", "qps", "gb", "mb", "node", "deep", "depth", "client", "connection", "rep", "key", "second", "s "} {
		if strings.HasPrefix(rest+" ", u) {
			return true
		}
	}
	return rest == "c" || rest == "x" || rest == "b" || rest == "m" || rest == "k"
}

func (g *grammar) extractVersions(x *parsed) {
	x.each(g.version, func(m []int) bool {
		num := x.group(m, 3)
		prefixed := x.group(m, 2) != ""
		if rest := x.text[m[1]:]; unitFollows(x.text, m[1]) || ratioFollows(rest) || len(rest) > 1 && rest[0] == '.' && rest[1] >= '0' && rest[1] <= '9' || strings.HasPrefix(rest, "x") || listFollows(rest) {
			return false
		}
		major, _, _ := strings.Cut(num, ".")
		n, _ := strconv.Atoi(major)
		if !prefixed && !strings.Contains(num, ".") && x.group(m, 4) == "" && (n > 9 || n == 0) {
			return false
		}
		x.versions = append(x.versions, version{engine: g.engineKey(x.group(m, 1)), number: num})
		from := m[6]
		if m[4] >= 0 {
			from = m[4]
		}
		x.take(from, m[1]) // the number only: the engine name is still an engine mention
		return false
	})
}

func (g *grammar) extractCores(x *parsed) {
	x.each(g.coresThreads, func(m []int) bool {
		if n, err := strconv.Atoi(x.group(m, 1)); err == nil && n > 0 && n <= 100000 {
			x.cores = appendUnique(x.cores, n)
			return true
		}
		return false
	})
	x.each(g.coresList, func(m []int) bool {
		unit := x.group(m, 4)
		before := strings.TrimSpace(x.text[:m[0]])
		if strings.Contains(unit, "thread") && (strings.HasSuffix(before, "client") || strings.HasSuffix(before, "memtier")) {
			return false
		}
		var nums []int
		for _, f := range strings.FieldsFunc(x.group(m, 2)+" "+x.group(m, 3), func(r rune) bool { return r < '0' || r > '9' }) {
			n, err := strconv.Atoi(f)
			if err != nil || n <= 0 || n > 100000 {
				return false
			}
			nums = append(nums, n)
		}
		if len(nums) == 0 {
			return false
		}
		sep := x.group(m, 3)
		isRange := len(nums) == 2 && (x.group(m, 1) != "" || strings.Contains(sep, "to") || strings.Contains(sep, "-"))
		if strings.HasPrefix(unit, "vcpu") {
			for i, n := range nums {
				nums[i] = max(1, n/2)
			}
			x.notes = append(x.notes, "vCPUs were read as physical cores at two vCPUs per core (the benchmark counts physical cores; hyperthreads were left unused)")
		}
		if isRange {
			x.coresRange = true
			if nums[0] > nums[1] {
				nums[0], nums[1] = nums[1], nums[0]
			}
		}
		for _, n := range nums {
			x.cores = appendUnique(x.cores, n)
		}
		return true
	})
}

func (g *grammar) extractPipeline(x *parsed) {
	add := func(n int) { x.pipelines = appendUnique(x.pipelines, n) }
	num := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && n > 0 && n <= 100000
	}
	x.each(g.pipeOff, func(m []int) bool { add(1); return true })
	x.each(g.pipeFlag, func(m []int) bool {
		n, ok := num(x.group(m, 1))
		if ok {
			add(n)
		}
		return ok
	})
	x.each(g.pipeNumber, func(m []int) bool {
		var ns []int
		for _, f := range strings.FieldsFunc(x.group(m, 1)+" "+x.group(m, 2), func(r rune) bool { return r < '0' || r > '9' }) {
			n, ok := num(f)
			if !ok {
				return false
			}
			ns = append(ns, n)
		}
		if unitFollows(x.text, m[1]) && !strings.HasPrefix(strings.TrimLeft(x.text[m[1]:], " "), "deep") {
			if len(ns) < 2 {
				return false
			}
			// "pipeline 1 and 1 KB values": the last number is the size's.
			end := strings.LastIndexAny(strings.TrimRight(x.text[m[0]:m[1]], "0123456789"), "0123456789") + 1
			x.take(m[0], m[0]+end)
			for _, n := range ns[:len(ns)-1] {
				add(n)
			}
			return false
		}
		for _, n := range ns {
			add(n)
		}
		return len(ns) > 0
	})
	x.each(g.pipeDeep, func(m []int) bool {
		n, ok := num(x.group(m, 1) + x.group(m, 2) + x.group(m, 3)) // "16 deep", "depth 16", "64 pipeline"
		if ok {
			add(n)
		}
		return ok
	})
	x.each(g.pipeP, func(m []int) bool {
		s := x.group(m, 1) + x.group(m, 2)
		n, ok := num(s)
		if c := x.text[m[0]+1]; !ok || c >= '0' && c <= '9' && isPercentileNumber(s) { // "p99" is a metric, "pl99" a depth
			return false
		}
		add(n)
		return true
	})
	x.each(g.pipeOn, func(m []int) bool {
		if len(x.pipelines) == 0 {
			add(16)
			x.pipelinedNote = len(x.notes)
			x.notes = append(x.notes, "“pipelined” was read as pipeline depth 16, the only depth above 1 that was measured")
		}
		return true
	})
	x.each(g.pipeTopic, func(m []int) bool { x.topic("pipeline"); return true })
}

func (g *grammar) extractValues(x *parsed) {
	add := func(n int) { x.values = appendUnique(x.values, n) }
	x.each(g.valueFlag, func(m []int) bool {
		n, err := strconv.Atoi(x.group(m, 1))
		if err != nil || n <= 0 {
			return false
		}
		add(n)
		return true
	})
	x.each(g.valueSize, func(m []int) bool {
		f, err := strconv.ParseFloat(x.group(m, 1), 64)
		if err != nil || f <= 0 || f > 1e9 {
			return false
		}
		rest := strings.TrimLeft(x.text[m[1]:], " ")
		if strings.HasPrefix(rest, "/s") || strings.HasPrefix(rest, "ps") || strings.HasPrefix(rest, "per s") || strings.HasPrefix(rest, "per key") || strings.HasPrefix(rest, "/key") || strings.HasPrefix(rest, "of memory") || strings.HasPrefix(rest, "of ram") {
			return false
		}
		unit := x.group(m, 2)
		if unit == "k" && !g.valueWords.MatchString(firstWords(rest, 1)) {
			return false
		}
		switch {
		case unit == "b" || strings.HasPrefix(unit, "byte"):
		case unit == "k" || strings.HasPrefix(unit, "k"):
			f *= 1024
		case strings.HasPrefix(unit, "m"):
			f *= 1024 * 1024
		}
		add(int(math.Round(f)))
		return true
	})
	x.each(g.valueLarge, func(m []int) bool {
		add(1024)
		x.notes = append(x.notes, "“large values” was read as 1 KB (1024 B), the larger of the two value sizes measured")
		return true
	})
	x.each(g.valueSmall, func(m []int) bool { add(100); return true })
	x.each(g.valueTopic, func(m []int) bool { x.topic("value_bytes"); return true })
}

// firstWords returns the first n words of s.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// setGet writes a SET:GET ratio in the filter vocabulary, mapping the
// measured mixes onto their names.
func setGet(set, get int) string {
	if set == 0 && get == 0 {
		return ""
	}
	if d := gcd(set, get); d > 1 {
		set, get = set/d, get/d
	}
	return strconv.Itoa(set) + ":" + strconv.Itoa(get)
}

// fromReadShare maps a share of reads (percent) onto a SET:GET ratio: about
// 91% is the measured read-heavy 1:10, 50% the measured 1:1.
func fromReadShare(reads float64) string {
	switch {
	case reads >= 89 && reads <= 92:
		return "1:10"
	case reads == 50:
		return "1:1"
	}
	r := int(math.Round(reads))
	return setGet(100-r, r)
}

func (g *grammar) extractRatios(x *parsed) {
	add := func(r string) {
		if r != "" {
			x.ratios = appendUnique(x.ratios, r)
		}
	}
	ints := func(a, b string) (int, int, bool) {
		i, err1 := strconv.Atoi(a)
		j, err2 := strconv.Atoi(b)
		return i, j, err1 == nil && err2 == nil && i <= 1000 && j <= 1000
	}
	labelled := func(a, b int, label string) string {
		label = strings.ReplaceAll(label, " ", "")
		switch {
		case strings.HasPrefix(label, "get"), strings.HasPrefix(label, "read"), strings.HasPrefix(label, "r:"):
			return setGet(b, a)
		}
		return setGet(a, b)
	}
	x.each(g.ratioLabelAfter, func(m []int) bool {
		a, b, ok := ints(x.group(m, 1), x.group(m, 2))
		if ok {
			add(labelled(a, b, x.group(m, 3)))
		}
		return ok
	})
	x.each(g.ratioLabelBefore, func(m []int) bool {
		a, b, ok := ints(x.group(m, 2), x.group(m, 3))
		if ok {
			add(labelled(a, b, x.group(m, 1)))
		}
		return ok
	})
	x.each(g.ratioPercent, func(m []int) bool {
		f, err := strconv.ParseFloat(x.group(m, 1), 64)
		if err != nil || f < 0 || f > 100 {
			return false
		}
		if w := x.group(m, 2); strings.HasPrefix(w, "write") || strings.HasPrefix(w, "set") {
			f = 100 - f
		}
		add(fromReadShare(f))
		return true
	})
	x.each(g.ratioSlash, func(m []int) bool {
		a, b, ok := ints(x.group(m, 1), x.group(m, 2))
		label := x.group(m, 3)
		if !ok || (a+b != 100 && label == "") {
			return false
		}
		if label != "" && a+b != 100 && !strings.Contains(label, "/") {
			return false
		}
		switch {
		case strings.HasPrefix(label, "write"), strings.HasPrefix(label, "set"), strings.HasPrefix(label, "w"):
			add(fromReadShare(float64(b) * 100 / float64(a+b)))
		default: // reads/writes is how people say it
			add(fromReadShare(float64(a) * 100 / float64(a+b)))
		}
		return true
	})
	for _, w := range g.ratioWords {
		x.each(w.re, func(m []int) bool {
			if w.value == "multi" {
				x.topic("ratio")
				x.topic("multi")
				return true
			}
			add(w.value)
			return true
		})
	}
	x.each(g.ratioBare, func(m []int) bool {
		a, b, ok := ints(x.group(m, 1), x.group(m, 2))
		if !ok || a == 0 && b == 0 {
			return false
		}
		if a == 10 && b == 1 {
			add("1:10")
			x.notes = append(x.notes, "10:1 without SET:GET or GET:SET was read as ten reads per write (SET:GET 1:10)")
			return true
		}
		add(setGet(a, b))
		return true
	})
}

func (g *grammar) extractModes(x *parsed) {
	add := func(m []int, specific bool, modes ...string) {
		x.modes = append(x.modes, modeMention{modes: modes, start: m[0], end: m[1], specific: specific})
	}
	x.each(g.modeCeiling, func(m []int) bool { add(m, true, "cluster-sat"); return true })
	x.each(g.modeRealistic, func(m []int) bool { add(m, true, "cluster"); return true })
	x.each(g.modeSingle, func(m []int) bool { add(m, true, "single"); return true })
	x.each(g.modeSingleWord, func(m []int) bool {
		next := strings.TrimLeft(x.text[m[0]+len("single"):], " -")
		if singleNotMode[firstWords(strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return ' '
		}, next), 1)] {
			return false
		}
		add([]int{m[0], m[0] + len("single")}, true, "single")
		x.take(m[0], m[0]+len("single"))
		return false
	})
	x.each(g.modeCluster, func(m []int) bool { add(m, false, "cluster", "cluster-sat"); return true })
	// "cluster vs single": a bare cluster set against a single process is
	// a mode of its own, not part of an engine's name.
	for i, c := range x.modes {
		if c.specific {
			continue
		}
		for _, o := range x.modes {
			if !o.specific || !slices.Equal(o.modes, []string{"single"}) {
				continue
			}
			lo, hi := min(c.end, o.end), max(c.start, o.start)
			if lo > hi {
				continue
			}
			switch strings.TrimSpace(x.text[lo:hi]) {
			case "vs", "vs.", "versus", "or", "and", "against", "compared to", "compared with":
				x.modes[i].specific = true
			}
		}
	}
}

// singleNotMode are the words after which "single" is not the
// single-process mode ("a single client", "not a single request").
var singleNotMode = map[string]bool{"client": true, "threaded": true, "thread": true, "rep": true, "repetition": true, "run": true,
	"shard": true, "key": true, "keys": true, "core": true, "command": true, "connection": true, "number": true, "figure": true,
	"biggest": true, "most": true, "best": true, "largest": true, "point": true, "value": true, "digit": true, "1": true,
	"request": true, "sentinel": true, "machine": true, "cpu": true, "socket": true, "numa": true, "one": true, "op": true,
	"operation": true, "query": true, "call": true, "time": true, "requests": true, "commands": true, "ops": true, "operations": true,
	"queries": true, "calls": true, "clients": true, "runs": true, "cores": true, "threads": true, "connections": true, "shards": true}

// explicitModes is every mode a mode phrase asked for; bare "cluster" counts
// only when no specific phrase was used.
func (x *parsed) explicitModes() []string {
	specific := slices.ContainsFunc(x.modes, func(m modeMention) bool { return m.specific })
	var out []string
	ms := slices.Clone(x.modes)
	slices.SortStableFunc(ms, func(a, b modeMention) int { return a.start - b.start }) // as the asker named them
	for _, m := range ms {
		if specific && !m.specific {
			continue
		}
		for _, v := range m.modes {
			out = appendUnique(out, v)
		}
	}
	return out
}

// modeOrder is every specific mode phrase in the order written.
func (x *parsed) modeOrder() []string {
	ms := slices.Clone(x.modes)
	slices.SortStableFunc(ms, func(a, b modeMention) int { return a.start - b.start })
	var out []string
	for _, m := range ms {
		for _, v := range m.modes {
			if m.specific {
				out = appendUnique(out, v)
			}
		}
	}
	return out
}

// modesFor returns the mode phrases attached to one engine mention. Each
// phrase belongs to at most one engine: the nearest on either side (by
// words in between, three at most, with no list word such as "vs" or
// "and" in the gap), the following one on a tie ("the realistic Redis
// cluster").
func (x *parsed) modesFor(engine string) []string {
	specific := slices.ContainsFunc(x.modes, func(m modeMention) bool { return m.specific })
	var out []string
	ms := slices.Clone(x.modes)
	slices.SortStableFunc(ms, func(a, b modeMention) int { return a.start - b.start }) // as the asker named them
	for _, m := range ms {
		if specific && !m.specific {
			continue
		}
		if x.modeOwner(m) != engine {
			continue
		}
		for _, v := range m.modes {
			out = appendUnique(out, v)
		}
	}
	return out
}

// modeOwner returns the engine a mode phrase is written next to, or "".
func (x *parsed) modeOwner(m modeMention) string {
	owner, best := "", 4
	var spans []mention
	for _, e := range x.engines {
		spans = append(spans, e)
		for _, sp := range e.more {
			spans = append(spans, mention{value: e.value, start: sp[0], end: sp[1]})
		}
	}
	for _, e := range spans {
		var gap string
		after := false
		switch {
		case m.start >= e.end:
			gap = x.text[e.end:m.start]
		case m.end <= e.start:
			gap, after = x.text[m.end:e.start], true
		default:
			continue
		}
		n := len(strings.Fields(gap))
		if n > 3 || strings.Contains(" "+gap+" ", " vs") || strings.Contains(gap, " and ") || strings.Contains(gap, " or ") ||
			strings.Contains(gap, " than ") || strings.Contains(gap, ",") || strings.Contains(" "+gap+" ", " versus ") {
			continue
		}
		lo, hi := min(e.end, m.end), max(e.start, m.start)
		if slices.ContainsFunc(spans, func(o mention) bool { return o.value != e.value && o.start >= lo && o.end <= hi }) {
			continue
		}
		if n < best || n == best && after {
			owner, best = e.value, n
		}
	}
	return owner
}

// hasKnobValue reports whether the question set any run knob.
func (x *parsed) hasKnobValue() bool {
	return len(x.cores) > 0 || len(x.pipelines) > 0 || len(x.ratios) > 0 || len(x.values) > 0 || x.session != 0 || len(x.modes) > 0
}

// speedWords are the words that name throughput only by speaking of speed;
// next to a latency metric they qualify it instead ("fastest p99").
var speedWords = map[string]bool{
	"fast": true, "faster": true, "fastest": true, "slow": true, "slower": true, "slowest": true,
	"quick": true, "quicker": true, "quickest": true, "speed": true, "performance": true, "perf": true,
}
