package planner

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// allPatterns lists every pattern of the grammar.
func allPatterns(g *grammar) map[string]*rx {
	out := map[string]*rx{}
	for _, table := range []any{g, newKindGrammar()} {
		v := reflect.ValueOf(table).Elem()
		prefix := v.Type().Name() + "."
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Type() == reflect.TypeOf((*rx)(nil)) && !f.IsNil() {
				out[prefix+v.Type().Field(i).Name] = (*rx)(f.UnsafePointer())
			}
		}
	}
	out["compareRx"], out["orMoreRx"] = compareRx, orMoreRx
	for _, f := range g.features {
		out["feature "+f.key] = f.re
	}
	for _, m := range g.metrics {
		out["metric "+m.metric] = m.re
	}
	for _, c := range g.claims {
		out[c.id] = c.re
	}
	for _, w := range g.ratioWords {
		out["ratio word "+w.value] = w.re
	}
	return out
}

// The literal gates and the patterns reduced to the alternatives a text
// can match only skip work: over every question in the plan cases, one in
// sixteen of the corpus's (the held-back slice aside) and some odd ones,
// each pattern finds exactly what its plain regexp finds.
func TestLiteralGatesNeverHideAMatch(t *testing.T) {
	g := newGrammar()
	files, _ := filepath.Glob(filepath.Join("testdata", "plans", "*.txt"))
	texts := []string{"", "?", "1:10 10:1 50/50 80-20 4-48 cores p16 -p 1 --pipeline=16 -d 1024", `'quoted term' "double"`}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if q, ok := strings.CutPrefix(line, "question: "); ok {
				texts = append(texts, q)
			}
			if q, ok := strings.CutPrefix(line, "thread: "); ok {
				texts = append(texts, q)
			}
		}
	}
	for i, q := range corpusQuestions(t) {
		if i%16 == 0 {
			texts = append(texts, q)
		}
	}
	pats := allPatterns(g)
	if len(pats) < 60 {
		t.Fatalf("found only %d patterns", len(pats))
	}
	seen := map[string]bool{}
	for _, raw := range append(texts[:4:4], sample(texts[4:])...) { // the odd ones, then the questions
		text := g.correctTypos(g.normalize(raw))
		if seen[text] {
			continue
		}
		seen[text] = true
		for name, p := range pats {
			whole := p.compiled()
			if got, want := p.FindAllStringSubmatchIndex(text, -1), whole.FindAllStringSubmatchIndex(text, -1); !reflect.DeepEqual(got, want) {
				t.Errorf("%s on %q: gated %v, plain %v", name, text, got, want)
			}
			// The other methods that skip to a match's first possible
			// byte (rx_start.go).
			if got, want := p.FindAllStringIndex(text, -1), whole.FindAllStringIndex(text, -1); !reflect.DeepEqual(got, want) {
				t.Errorf("%s on %q: FindAllStringIndex gated %v, plain %v", name, text, got, want)
			}
			if got, want := p.FindStringSubmatchIndex(text), whole.FindStringSubmatchIndex(text); !reflect.DeepEqual(got, want) {
				t.Errorf("%s on %q: FindStringSubmatchIndex gated %v, plain %v", name, text, got, want)
			}
			if got, want := p.FindStringIndex(text), whole.FindStringIndex(text); !reflect.DeepEqual(got, want) {
				t.Errorf("%s on %q: FindStringIndex gated %v, plain %v", name, text, got, want)
			}
			if got, want := p.MatchString(text), whole.MatchString(text); got != want {
				t.Errorf("%s on %q: MatchString gated %v, plain %v", name, text, got, want)
			}
		}
	}
}

// sample is every text, or one in eight under the race detector.
func sample(texts []string) []string {
	if !raceDetector {
		return texts
	}
	var out []string
	for i := 0; i < len(texts); i += 8 {
		out = append(out, texts[i])
	}
	return out
}

// corpusQuestions lists the questions of the labelled corpus (the
// held-back slice, in its own folder, aside).
func corpusQuestions(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.txt"))
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if q, _, ok := strings.Cut(line, " => "); ok {
				out = append(out, q)
			}
		}
	}
	return out
}

// withinOneEdit is osa's verdict at limit 1, over every pair of short
// strings of a small alphabet (where swaps, repeats and shifts abound).
func TestWithinOneEditAgreesWithOSA(t *testing.T) {
	var all []string
	var grow func(s string)
	grow = func(s string) {
		all = append(all, s)
		if len(s) < 4 {
			for _, c := range "abc" {
				grow(s + string(c))
			}
		}
	}
	grow("")
	for _, a := range all {
		for _, b := range all {
			if got, want := withinOneEdit(a, b), osa(a, b, 1) <= 1; got != want {
				t.Errorf("withinOneEdit(%q, %q) = %v, osa says %v", a, b, got, want)
			}
		}
	}
}

func TestOptimalStringAlignmentDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"redis", "redis", 1, 0},
		{"redsi", "redis", 1, 1},
		{"valkye", "valkey", 1, 1},
		{"dragnfly", "dragonfly", 2, 1},
		{"throughtput", "throughput", 2, 1},
		{"garden", "garnet", 1, 2},
		{"abc", "xyz", 1, 2},
	} {
		if got := osa(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("osa(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func TestMisspeltKeywordsAreCorrectedAndRealWordsLeftAlone(t *testing.T) {
	g := newGrammar()
	for in, want := range map[string]string{
		"dragnfly thruput": "dragonfly thruput",
		"valkye pipline":   "valkey pipeline",
		"reddis latancy":   "redis latency",
		"keybd scalling":   "keydb scaling",
		"lowest master":    "lowest master",
		"garner valley":    "garner valley",
		"fastest cluster":  "fastest cluster",
	} {
		if got := g.correctTypos(in); got != want {
			t.Errorf("correctTypos(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeFoldsPunctuationAndSpellsNumbers(t *testing.T) {
	g := newGrammar()
	for in, want := range map[string]string{
		"Dragonfly — 48 cores?":           "dragonfly - 48 cores ?",
		"forty-eight cores, sixteen deep": "48 cores , 16 deep",
		"twenty four cores":               "24 cores",
		"“fully driven”":                  "\" fully driven \"",
		"x\u00a0y\u2009z":                 "x y z",
		"🚀 redis":                         "redis",
		"Redis 8×":                        "redis 8x",
	} {
		if got := g.normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKnobValuesAreReadInEveryUsualSpelling(t *testing.T) {
	g := newGrammar()
	for _, tt := range []struct {
		q         string
		cores     []int
		pipelines []int
		ratios    []string
		values    []int
	}{
		{q: "48 cores", cores: []int{48}},
		{q: "48c", cores: []int{48}},
		{q: "a 16 core box", cores: []int{16}},
		{q: "the 48-core machine", cores: []int{48}},
		{q: "4, 8 and 16 cores", cores: []int{4, 8, 16}},
		{q: "24 shards", cores: []int{24}},
		{q: "48 client threads", cores: nil},
		{q: "pipeline 16", pipelines: []int{16}},
		{q: "-P 16", pipelines: []int{16}},
		{q: "depth 1", pipelines: []int{1}},
		{q: "no pipelining", pipelines: []int{1}},
		{q: "30-deep pipeline", pipelines: []int{30}},
		{q: "p16 and p99", pipelines: []int{16}},
		{q: "pipeline 1 vs 16", pipelines: []int{1, 16}},
		{q: "read-heavy", ratios: []string{"1:10"}},
		{q: "10:1 GET:SET", ratios: []string{"1:10"}},
		{q: "SET:GET 1:10", ratios: []string{"1:10"}},
		{q: "~90% reads", ratios: []string{"1:10"}},
		{q: "50/50", ratios: []string{"1:1"}},
		{q: "mixed workload", ratios: []string{"1:1"}},
		{q: "MGET", ratios: []string{"mget10"}},
		{q: "mset10", ratios: []string{"mset10"}},
		{q: "write-heavy", ratios: []string{"10:1"}},
		{q: "80/20 read/write", ratios: []string{"1:4"}},
		{q: "100 B", values: []int{100}},
		{q: "100-byte values", values: []int{100}},
		{q: "1KB", values: []int{1024}},
		{q: "1 KiB", values: []int{1024}},
		{q: "1024 bytes", values: []int{1024}},
		{q: "10KB values", values: []int{10240}},
		{q: "5000 KB/s", values: nil},
		{q: "146 bytes per key", values: nil},
	} {
		x := g.extract(g.correctTypos(g.normalize(tt.q)))
		if !slices.Equal(x.cores, tt.cores) || !slices.Equal(x.pipelines, tt.pipelines) || !slices.Equal(x.ratios, tt.ratios) || !slices.Equal(x.values, tt.values) {
			t.Errorf("%q: cores %v pipelines %v ratios %v values %v; want %v %v %v %v", tt.q,
				x.cores, x.pipelines, x.ratios, x.values, tt.cores, tt.pipelines, tt.ratios, tt.values)
		}
	}
}

func TestModelRepliesOutsideTheSchemaAreRejected(t *testing.T) {
	g := newGrammar()
	for _, reply := range []string{
		``, `not json`, `{"intent":"hack"}`, `{"intent":"lookup","engines":["mysql"]}`,
		`{"intent":"lookup","modes":["turbo"]}`, `{"intent":"lookup","cores":[0]}`, `{"intent":"lookup","ratio":"lots"}`,
		`{"intent":"lookup","metric":"happiness"}`, `{"intent":"effect","knob":"weather"}`, `{"intent":"lookup","session":3}`,
		`{"intent":"lookup","value_bytes":-1}`, `{"intent":"lookup","answer":"25x"}`, `{"intent":"no_data"}`,
	} {
		if a, err := g.parseLLM(reply, ""); err == nil {
			t.Errorf("parseLLM(%q) accepted %+v", reply, a)
		}
	}
	a, err := g.parseLLM("```json\n{\"intent\":\"compare\",\"engines\":[\"redis\",\"valkey\"],\"ratio\":\"1:1\",\"metric\":\"p99_ms\"}\n```", "")
	if err != nil || a.Intent != "compare" || !slices.Equal(a.Engines, []string{"redis", "valkey"}) {
		t.Errorf("a fenced valid reply: %+v, %v", a, err)
	}
}
