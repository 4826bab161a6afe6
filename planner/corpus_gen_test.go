package planner_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var genCorpus = flag.Bool("gencorpus", false, "rewrite testdata/corpus/generated-*.txt from the templates in corpus_gen_test.go")

// engineSpelling is one way of writing an engine, with its key.
type engineSpelling struct{ text, key string }

// The vocabulary the generator crosses. Labels come from these tables,
// never from the planner's output.
var (
	genEngines = []engineSpelling{
		{"dragonfly", "dragonfly"}, {"Dragonfly", "dragonfly"}, {"DragonflyDB", "dragonfly"}, {"dfly", "dragonfly"},
		{"redis", "redis"}, {"Redis", "redis"}, {"valkey", "valkey"}, {"Valkey", "valkey"},
		{"keydb", "keydb"}, {"KeyDB", "keydb"}, {"garnet", "garnet"}, {"Garnet", "garnet"},
	}
	genCores = []struct {
		text string
		n    int
	}{
		{"at 4 cores", 4}, {"on 8 cores", 8}, {"with 16 cores", 16}, {"at 24 cores", 24}, {"on 48 cores", 48},
		{"at eight cores", 8}, {"16c", 16}, {"on a 4-core box", 4}, {"with 8 CPUs", 8}, {"at 16 vcpus", 8},
	}
	// genPipelineOff are the ways of saying "no pipelining" (pipeline 1).
	genPipelineOff = []string{
		"unpipelined %s %s", "non-pipelined %s %s", "%s without pipelining %s", "%s w/o pipelining %s",
		"%s with no pipelining %s", "%s, pipelining off, %s", "%s with pipelining disabled %s", "%s %s, pipelining turned off",
		"%s at pipeline depth 1 %s", "%s -p 1 %s", "%s pipeline=1 %s", "%s not pipelined %s", "%s %s when it doesn't use pipelining",
		"%s %s without any pipelining", "non pipelined %s %s", "%s %s with pipelining switched off", "%s %s, no pipeline",
		"depipelined %s %s", "%s %s, 1 request at a time",
	}
	// genPipelineOn are double negatives and positives (pipeline 16).
	genPipelineOn = []string{
		"%s %s, not without pipelining", "%s %s with pipelining on", "%s %s pipelined", "%s %s with pipelining enabled",
		"%s %s, pipeline 16", "%s %s -p 16", "%s %s not unpipelined",
	}
	genCompare = []string{
		"%s vs %s %s", "%s versus %s %s", "compare %s and %s %s", "is %s faster than %s %s?", "%s or %s, which is faster %s?",
		"which is quicker %[3]s, %[1]s or %[2]s?", "%s against %s %s", "how does %s compare with %s %s",
	}
	genCrossover = []string{
		"at what point does %s overtake %s?", "from which core count is %s ahead of %s?", "when does %s pass %s?",
		"where do %s and %s cross?", "does %s ever catch up with %s as cores grow?", "at what core count does %s fall behind %s?",
		"at how many cores does %s get ahead of %s?", "when does %s surpass %s", "crossover between %s and %s?",
		"does %s start winning against %s at some core count?",
	}
	genEffect = []string{
		"what is pipelining worth for %s?", "does %s gain much from pipelining?", "how much does pipelining help %s?",
		"impact of pipelining on %s", "%s with vs without pipelining", "what changes for %s when pipelining is on?",
		"how much does pipelining hurt %s p99?", "effect of pipelining on %s", "does pipelining matter for %s?",
		"what does pipelining do to %s?", "how much does %s benefit from pipelining?", "what does pipelining buy %s?",
	}
	genGap = []string{
		"how far apart are %s and %s %s?", "what's the gap between %s and %s %s?", "by what factor does %s beat %s %s?",
		"how many times faster is %s than %s %s?", "how far ahead is %s of %s %s?",
		"%s vs %s %s, how big is the gap?", "how much faster is %s than %s %s?",
	}
	genGapFollowUp = []string{"how far apart are they?", "what's the gap?", "by what factor?", "how many times?", "how big is the gap?", "and the margin?"}
	genMultiKey    = []struct{ text, ratio string }{
		{"multi-gets of ten keys", "mget10"}, {"MGETs with 10 keys each", "mget10"}, {"batched reads of ten", "mget10"},
		{"mget of 10 keys", "mget10"}, {"multi-get 10 keys", "mget10"}, {"batched gets of 10 keys", "mget10"},
		{"MSETs with 10 keys each", "mset10"}, {"multi-sets of ten keys", "mset10"}, {"batched writes of ten", "mset10"},
		{"mset of 10 keys", "mset10"}, {"multi-set 10 keys each", "mset10"},
	}
	genWorkload = []struct{ text, ratio string }{
		{"read-heavy", "1:10"}, {"read heavy", "1:10"}, {"mostly reads", "1:10"}, {"with lots of reads", "1:10"},
		{"mixed", "1:1"}, {"50/50 reads and writes", "1:1"}, {"with a 1:1 mix", "1:1"}, {"balanced", "1:1"},
	}
	genMetrics = []struct{ text, metric string }{
		{"throughput", "ops_per_sec"}, {"ops/s", "ops_per_sec"}, {"qps", "ops_per_sec"}, {"p99", "p99_ms"}, {"p99 latency", "p99_ms"},
		{"tail latency", "p99_ms"}, {"99th percentile latency", "p99_ms"}, {"p99.9", "p999_ms"}, {"p999", "p999_ms"},
		{"median latency", "p50_ms"}, {"p50", "p50_ms"}, {"latency", "p50_ms"},
	}
	genValues = []struct {
		text string
		n    int
	}{
		{"with 1KB values", 1024}, {"with 1 kb values", 1024}, {"1024-byte values", 1024}, {"with 100 byte values", 100},
		{"100B values", 100}, {"1kib payloads", 1024},
	}
	genChatter = []string{
		"thanks", "thanks!", "thank you", "thx", "ty", "ok", "okay", "k", "lol", "lmao", "haha", "+1", "nice", "cool", "great, thanks",
		"got it", "gotcha", "makes sense", "perfect, thank you", "cheers", "np", "👍", "🙏", "😂😂", "🚀", "ok cool", "nice work",
		"thanks a lot", "thank you so much", "ty bot", "thx!!", "awesome, thanks", "ok thanks", "cool cool", "yep", "sure",
		"lol nice", "haha ok", "+1 to that", "this 👆", "👍👍", "ok 👍", "thanks 🙏", "good to know", "noted", "fair enough",
		"@sam what do you think?", "@alice can you check the redis numbers?", "@bob thoughts?", "@team fyi", "@dana did you see this?",
		"@carol is dragonfly really faster?", "@ops we should look at valkey",
	}
	genOutOfScope = []string{
		"how do I sort a map in Go", "write me a limerick", "what's the weather", "what's the weather in Paris tomorrow",
		"who won the world cup", "tell me a joke", "what is the capital of France", "recommend a good pizza place",
		"how do I center a div", "translate hello into Spanish", "what's 17 times 23", "write a poem about autumn",
		"what time is it in Tokyo", "how tall is mount everest", "best sci-fi movies of 2020?", "how do I boil an egg",
		"explain quantum entanglement", "what's a good name for a cat", "summarise the french revolution", "how do I fix a flat tire",
		"can you book me a flight", "who is the president of Brazil", "give me a recipe for pancakes", "how many legs does a spider have",
	}
	genDefine = []struct{ text, term string }{
		{"pipelining", "term:pipelining"}, {"client-limited", "term:client-limited"}, {"p99", "term:latency-percentiles"},
		{"NUMA", "term:numa"}, {"memtier", "term:memtier"}, {"shard", "term:shard"},
	}
	genDefineForms = []string{
		"what does %s mean?", "%s, in the context of %s?", "what does %s mean for %s?", "%s as used in %s?", "tell me about %s",
		"define %s", "what is meant by %s?", "meaning of %s", "%s in the context of %s", "what does %s stand for in %s?",
	}
	// genMix are read/write mixes said in words.
	genMix = []struct{ text, ratio string }{
		{"with equal sets and gets", "1:1"}, {"with as many writes as reads", "1:1"}, {"half reads half writes", "1:1"},
		{"with equal numbers of gets and sets", "1:1"}, {"with the same number of reads and writes", "1:1"},
		{"with an even mix", "1:1"}, {"doing 10 reads per write", "1:10"}, {"with 1 write for every 10 reads", "1:10"},
		{"with ten gets for each set", "1:10"},
	}
	// genContrast set pipelining against its negation: its effect.
	genContrast = []string{
		"%s pipelined vs unpipelined", "pipelining on vs off for %s", "%s: pipelining on or off?", "%s with pipelining and without",
		"%s batched vs unbatched", "%s pipelining enabled vs disabled", "does it matter if %s is pipelined", "%s w/ and w/o pipelining",
		"%s pipelined or not?",
	}
	// genCrossCount ask for the core count at which one engine wins.
	genCrossCount = []string{
		"how many cores before %s beats %s?", "from how many cores is %s faster than %s?", "at what size does %s beat %s?",
		"how many cores does %s need to beat %s?", "at which point is %s ahead of %s?", "what number of cores makes %s faster than %s?",
	}
	// genScaling ask how a result changes as cores are added.
	genScaling = []string{
		"%s throughput as cores go up", "how does %s p99 change with cores?", "what happens to %s when you add cores?",
		"%s as you add more cores", "how does %s do with more cores", "%s ops across core counts", "does %s latency vary with cores?",
	}
	// genFailoverWords say that the primary is lost.
	genFailoverWords = []string{
		"what happens to %s when the primary dies?", "%s master goes down, how long is the outage?", "how long is %s down when the leader crashes?",
		"if the %s primary fails how long until writes work", "how fast does a %s replica take over when the master dies",
	}
	// genEngineTerms are glossary terms whose names hold an engine's name,
	// asked about in genEngineTermForms: definitions, kind before topic.
	genEngineTerms = []struct{ text, term string }{
		{"redis cluster", "term:redis-cluster"}, {"Redis Sentinel", "term:sentinel"}, {"keydb server-threads", "term:server-threads"},
		{"dragonfly cache_mode", "term:cache-mode"}, {"Dragonfly snapshot_cron", "term:snapshot-cron"}, {"redis-benchmark", "term:redis-benchmark-tool"},
		{"dragonfly proactor threads", "term:proactor-threads"}, {"garnet tsavorite", "term:tsavorite"}, {"valkey io-threads", "term:io-threads"},
		{"dragonfly shared-nothing", "term:shared-nothing"},
	}
	genEngineTermForms = []string{
		"what is %s?", "what's a %s", "explain %s", "tell me about %s", "what exactly is %s", "can you explain what %s is",
		"%s - what is it?", "what does %s mean", "tell me what %s is", "describe the %s",
	}
	// genNegEngine leave one engine out: the others are meant.
	genNegEngine = []string{
		"anything but %s at 16 cores", "non-%s engines at 16 cores", "every engine except %s at 16 cores",
		"fastest excluding %s at 16 cores", "engines other than %s, 16 cores", "16 cores, everything but %s",
		"besides %s, who's fastest at 16 cores?",
	}
	// genNegValue leave one value size out: the other measured one is meant.
	genNegValue = []struct {
		form string
		n    int
	}{
		{"%s at 16 cores not 1kb values", 100}, {"%s at 16 cores with values other than 100 bytes", 1024},
		{"%s non-1kb values at 16 cores", 100}, {"%s at 16 cores, anything but 1KB values", 100},
		{"%s excluding 100b values at 16 cores", 1024}, {"%s at 16 cores, not 100 byte payloads", 1024},
	}
	genClaimant = []struct{ text, claim string }{
		{"the claim from Redis's own blog", "claim:redis-40-shard"}, {"what does the Redis blog say about Dragonfly?", "claim:redis-40-shard"},
		{"is the Redis Ltd counter-benchmark right?", "claim:redis-40-shard"}, {"that third-party comparison article", "claim:thirdparty-redis9-df120"},
		{"the third party article comparing redis 9 and dragonfly", "claim:thirdparty-redis9-df120"}, {"what the Dragonfly team advertises", "claim:dragonfly-25x"},
		{"is what the dragonfly website says true?", "claim:dragonfly-25x"}, {"does the dragonfly marketing hold up?", "claim:dragonfly-25x"},
		{"the Dragonfly team says sub-millisecond p99, true?", "claim:dragonfly-sub-ms-p99"}, {"what microsoft claims about garnet", "claim:garnet-resp-bench"},
		{"the valkey release blog numbers", "claim:valkey-8-0"}, {"what the keydb docs claim", "claim:keydb-per-node"},
	}
)

// measuredCores reports whether an engine was run at a core count.
func measuredCores(engine string, cores int) bool {
	return engine != "keydb" || cores <= 16
}

// generatedCorpus builds the generated corpus files: file name → lines.
func generatedCorpus() map[string][]string {
	files := map[string][]string{}
	add := func(file, family, q string, fields ...string) {
		files[file] = append(files[file], fmt.Sprintf("%s => %s", strings.TrimSpace(q), strings.Join(fields, " ")))
		_ = family
	}
	// Lookups: every engine spelling at every core spelling.
	for _, e := range genEngines {
		for _, c := range genCores {
			if !measuredCores(e.key, c.n) {
				continue
			}
			add("generated-lookup", "lookup", fmt.Sprintf("%s %s", e.text, c.text), "intent=lookup", "engines="+e.key, fmt.Sprintf("cores=%d", c.n))
		}
	}
	// Negation: every way of turning pipelining off, and double negatives.
	for _, set := range []struct {
		forms    []string
		pipeline int
	}{{genPipelineOff, 1}, {genPipelineOn, 16}} {
		for i, form := range set.forms {
			for j, e := range genEngines {
				c := genCores[(i+j)%5]
				if !measuredCores(e.key, c.n) {
					c = genCores[1+set.pipeline%3]
				}
				add("generated-negation", "negation", fmt.Sprintf(form, e.text, c.text), "engines="+e.key, fmt.Sprintf("cores=%d", c.n), fmt.Sprintf("pipeline=%d", set.pipeline))
			}
		}
	}
	// Comparisons, crossovers and gaps over engine pairs.
	keys := []engineSpelling{{"Dragonfly", "dragonfly"}, {"Redis", "redis"}, {"Valkey", "valkey"}, {"Garnet", "garnet"}, {"KeyDB", "keydb"}}
	pairs := [][2]engineSpelling{}
	for i := range keys {
		for j := range keys {
			if i != j {
				pairs = append(pairs, [2]engineSpelling{keys[i], keys[j]})
			}
		}
	}
	for i, form := range genCompare {
		for j, pr := range pairs {
			if (i+j)%2 == 1 {
				continue
			}
			c := genCores[(i+j)%3]
			add("generated-compare", "compare", fmt.Sprintf(form, pr[0].text, pr[1].text, c.text), "intent=compare", "engines="+pr[0].key+","+pr[1].key, fmt.Sprintf("cores=%d", c.n))
		}
	}
	for _, set := range []struct {
		file  string
		forms []string
	}{{"generated-crossover", genCrossover}, {"generated-crosscount", genCrossCount}} {
		for _, form := range set.forms {
			for j, pr := range pairs {
				if j%2 == 1 || pr[0].key == "keydb" || pr[1].key == "keydb" {
					continue
				}
				add(set.file, "", fmt.Sprintf(form, strings.ToLower(pr[0].text), strings.ToLower(pr[1].text)), "intent=scaling", "crossover=yes", "engines="+pr[0].key+","+pr[1].key)
			}
		}
	}
	for i, form := range genGap {
		for j, pr := range pairs {
			if (i+j)%2 == 1 {
				continue
			}
			c := genCores[(i+j)%3]
			add("generated-gap", "gap", fmt.Sprintf(form, pr[0].text, pr[1].text, c.text), "intent=compare", "multiple=yes", "engines="+pr[0].key+","+pr[1].key, fmt.Sprintf("cores=%d", c.n))
		}
	}
	for i, follow := range genGapFollowUp {
		for j, pr := range pairs {
			if (i+j)%3 != 0 {
				continue
			}
			c := genCores[(i+j)%3]
			first := fmt.Sprintf("%s vs %s %s", pr[0].text, pr[1].text, c.text)
			add("generated-gap", "gap", first+" >> "+follow, "intent=compare", "multiple=yes", "engines="+pr[0].key+","+pr[1].key, fmt.Sprintf("cores=%d", c.n))
		}
	}
	// Effects of pipelining.
	for _, form := range genEffect {
		for _, e := range genEngines {
			add("generated-effect", "effect", fmt.Sprintf(form, e.text), "intent=effect", "knob=pipeline", "engines="+e.key)
		}
	}
	// Multi-key commands are the workload, never a keyspace size.
	for _, mk := range genMultiKey {
		for _, e := range []engineSpelling{{"dragonfly", "dragonfly"}, {"Garnet", "garnet"}, {"KeyDB", "keydb"}} {
			for _, c := range genCores[:3] {
				add("generated-multikey", "multikey", fmt.Sprintf("%s %s %s", e.text, mk.text, c.text), "intent=lookup", "engines="+e.key, "ratio="+mk.ratio, fmt.Sprintf("cores=%d", c.n))
			}
		}
	}
	for i, m := range genMetrics {
		for j, e := range genEngines {
			c := genCores[(i+j)%5]
			if !measuredCores(e.key, c.n) {
				c = genCores[2]
			}
			add("generated-metric", "metric", fmt.Sprintf("%s %s %s", e.text, m.text, c.text), "engines="+e.key, "metric="+m.metric, fmt.Sprintf("cores=%d", c.n))
		}
	}
	for _, v := range genValues {
		for _, e := range genEngines {
			if e.key == "keydb" || e.key == "garnet" {
				continue // only 100 B values were measured for them
			}
			add("generated-value", "value", fmt.Sprintf("%s at 16 cores %s", e.text, v.text), "intent=lookup", "engines="+e.key, fmt.Sprintf("value=%d", v.n), "cores=16")
		}
	}
	for _, w := range genWorkload {
		for _, e := range genEngines {
			add("generated-workload", "workload", fmt.Sprintf("%s %s at 16 cores", e.text, w.text), "engines="+e.key, "ratio="+w.ratio, "cores=16")
		}
	}
	for i, m := range genMix {
		for j, e := range genEngines {
			if (i+j)%2 == 1 {
				continue
			}
			add("generated-mix", "mix", fmt.Sprintf("%s %s at 16 cores", e.text, m.text), "engines="+e.key, "ratio="+m.ratio, "cores=16")
		}
	}
	for _, form := range genContrast {
		for _, e := range genEngines {
			add("generated-contrast", "contrast", fmt.Sprintf(form, e.text), "intent=effect", "knob=pipeline", "engines="+e.key)
		}
	}
	for _, form := range genScaling {
		for _, e := range genEngines {
			add("generated-scaling", "scaling", fmt.Sprintf(form, e.text), "intent=scaling", "engines="+e.key)
		}
	}
	for _, form := range genFailoverWords {
		for _, e := range genEngines {
			if e.key == "keydb" || e.key == "garnet" {
				continue // the failover lab ran Redis, Valkey and Dragonfly
			}
			add("generated-failover", "failover", fmt.Sprintf(form, e.text), "intent=failover", "engines="+e.key)
		}
	}
	for i, form := range genEngineTermForms {
		for j, tm := range genEngineTerms {
			if (i+j)%2 == 1 {
				continue
			}
			add("generated-engineterm", "engineterm", fmt.Sprintf(form, tm.text), "intent=define", "term="+tm.term)
		}
	}
	for i, form := range genNegEngine {
		for j, e := range genEngines {
			if (i+j)%2 == 1 {
				continue
			}
			var others []string
			for _, k := range []string{"dragonfly", "redis", "valkey", "keydb", "garnet"} {
				if k != e.key {
					others = append(others, k)
				}
			}
			add("generated-negengine", "negengine", fmt.Sprintf(form, e.text), "engines="+strings.Join(others, ","), "cores=16")
		}
	}
	for _, v := range genNegValue {
		for _, e := range genEngines {
			if e.key == "keydb" || e.key == "garnet" {
				continue // only 100 B values were measured for them
			}
			add("generated-negvalue", "negvalue", fmt.Sprintf(v.form, e.text), "intent=lookup", "engines="+e.key, fmt.Sprintf("value=%d", v.n), "cores=16")
		}
	}
	// Kinds without domain slots.
	for _, c := range genChatter {
		add("generated-chatter", "chatter", c, "intent=chatter")
	}
	for _, q := range genOutOfScope {
		add("generated-out-of-scope", "out_of_scope", q, "intent=out_of_scope")
	}
	for _, d := range genDefine {
		for i, form := range genDefineForms {
			ctx := []string{"dragonfly", "the realistic series", "redis", "the benchmark", "garnet"}[i%5]
			q := fmt.Sprintf(form, d.text, ctx)
			if strings.Count(form, "%s") == 1 {
				q = fmt.Sprintf(form, d.text)
			}
			add("generated-define", "define", q, "intent=define", "term="+d.term)
		}
	}
	for _, c := range genClaimant {
		add("generated-claimant", "claimant", c.text, "intent=claim", "claim="+c.claim)
	}
	return files
}

// TestGenerateCorpus rewrites the generated corpus files with -gencorpus;
// without it, it checks they are what the templates make.
func TestGenerateCorpus(t *testing.T) {
	for name, lines := range generatedCorpus() {
		family := strings.TrimPrefix(name, "generated-")
		body := "# Generated by TestGenerateCorpus (go test ./planner -run GenerateCorpus -gencorpus): do not edit.\n" +
			"family: " + family + "\n" + strings.Join(lines, "\n") + "\n"
		path := filepath.Join("testdata", "corpus", name+".txt")
		if *genCorpus {
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != body {
			t.Errorf("%s is not what the templates generate; run go test ./planner -run GenerateCorpus -gencorpus", path)
		}
	}
}
