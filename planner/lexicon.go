package planner

import (
	"slices"
	"strings"
	"sync"
)

// meaning is the type of what a tagged token stands for.
type meaning uint8

// The meanings the lexicon knows. Each has one table of synonyms below.
const (
	mEngine     meaning = iota + 1 // value: engine key ("dragonfly")
	mMode                          // value: mode ("single", "cluster", "cluster-sat")
	mSetting                       // value: the setting a word names ("pipeline", "cluster", "value_bytes", "cores", "ratio")
	mWorkload                      // value: a ratio in filter vocabulary ("1:10", "mget10")
	mMetric                        // value: metric ("ops_per_sec", "p99_ms")
	mNegation                      // value: "pre" (negates what follows) or "post" (negates what precedes)
	mRelation                      // value: relation ("crossover", "effect", "gap", "compare")
	mKind                          // value: the kind of answer asked ("define", "method")
	mClaimant                      // value: claim id the words select
	mDomain                        // value: "" — a benchmark word that is neither slot nor relation
	mChatter                       // value: "" — a word that asks nothing ("thanks", "lol")
	mPolite                        // value: "" — a word that changes nothing ("please", "hey bot")
	mUnit                          // value: the quantity a unit measures ("keys_per_sec")
	mFollowUp                      // value: "" — asks to go on with the thread ("tell me more")
	mFailover                      // value: "" — the failover event in other words ("the primary dies")
	mHelp                          // value: "" — asks what the bot can do ("usage?", "halp")
	mClaimTopic                    // value: claim id the content of the words points to ("memory efficiency")
)

// entry is one synonym: a phrase (words separated by spaces, as the
// tokenizer splits them) and the value it stands for.
type entry struct {
	phrase, value string
}

// table is the synonyms of one meaning. Adding a synonym is one line.
type table struct {
	meaning meaning
	entries []entry
	// crossed marks a table built by crossing patterns with words, which
	// help shows by one example per value.
	crossed bool
}

// lexiconTables is the vocabulary of the reader, one table per meaning.
// help lists the engine, metric and workload tables (Vocabulary); the
// glossary terms and claims come from the knowledge base at New.
func lexiconTables() []table {
	return []table{
		{meaning: mEngine, entries: []entry{
			{"dragonfly", "dragonfly"}, {"dragonflydb", "dragonfly"}, {"dragonfly db", "dragonfly"}, {"dfly", "dragonfly"},
			{"df", "dragonfly"}, {"dragon fly", "dragonfly"},
			{"redis", "redis"}, {"valkey", "valkey"}, {"val key", "valkey"},
			{"keydb", "keydb"}, {"key db", "keydb"}, {"key - db", "keydb"}, {"garnet", "garnet"},
		}},
		{meaning: mMode, entries: []entry{
			{"single process", "single"}, {"single - process", "single"}, {"single instance", "single"},
			{"single node", "single"}, {"standalone", "single"}, {"single", "single"},
			{"realistic", "cluster"}, {"real world", "cluster"}, {"real - world", "cluster"},
			{"ceiling", "cluster-sat"}, {"saturated", "cluster-sat"}, {"fully driven", "cluster-sat"},
			{"fully - driven", "cluster-sat"}, {"cluster - sat", "cluster-sat"}, {"cluster sat", "cluster-sat"},
		}},
		{meaning: mSetting, entries: []entry{
			{"pipeline", "pipeline"}, {"pipelines", "pipeline"}, {"pipelined", "pipeline"}, {"pipelining", "pipeline"},
			{"pipe", "pipeline"}, {"batching", "pipeline"}, {"batched", "pipeline"},
			// phrases that mean no pipelining by themselves
			{"1 request at a time", "pipeline_off"}, {"1 requests at a time", "pipeline_off"}, {"1 operations at a time", "pipeline_off"}, {"1 command at a time", "pipeline_off"}, {"1 op at a time", "pipeline_off"},
			{"sequential", "pipeline_off"}, {"sequentially", "pipeline_off"}, {"unbatched", "pipeline_off"},
			{"1 in flight", "pipeline_off"}, {"1 outstanding request", "pipeline_off"}, {"1 at a time", "pipeline_off"},
			{"wait for each reply", "pipeline_off"}, {"waits for each reply", "pipeline_off"}, {"wait for the reply", "pipeline_off"},
			{"waits for the reply", "pipeline_off"}, {"batch", "pipeline"},
			// phrases that mean no cluster by themselves ("shard" alone is
			// a noun as often: "what's a redis shard?")
			{"not shard", "cluster_off"}, {"never shard", "cluster_off"}, {"cannot shard", "cluster_off"}, {"not to shard", "cluster_off"},
			{"unable to shard", "cluster_off"}, {"no way to shard", "cluster_off"}, {"not able to shard", "cluster_off"}, {"no sharding", "cluster_off"}, {"not sharding", "cluster_off"}, {"without sharding", "cluster_off"},
			{"cluster", "cluster"}, {"clustered", "cluster"}, {"clusters", "cluster"}, {"sharded", "cluster"}, {"clustering", "cluster"},
			{"value size", "value_bytes"}, {"value sizes", "value_bytes"}, {"payload", "value_bytes"}, {"payloads", "value_bytes"},
			{"values", "value_bytes"}, {"value", "value_bytes"}, {"blob", "value_bytes"}, {"blobs", "value_bytes"}, {"objects", "value_bytes"}, {"object size", "value_bytes"},
			{"cores", "cores"}, {"core", "cores"}, {"cpus", "cores"}, {"vcpus", "cores"}, {"threads", "cores"}, {"core count", "cores"},
			{"workload", "ratio"}, {"workloads", "ratio"}, {"ratio", "ratio"}, {"mix", "ratio"},
		}},
		{meaning: mWorkload, entries: []entry{
			{"read heavy", "1:10"}, {"read - heavy", "1:10"}, {"readheavy", "1:10"}, {"read mostly", "1:10"},
			{"read - mostly", "1:10"}, {"mostly reads", "1:10"}, {"heavy reads", "1:10"}, {"lots of reads", "1:10"},
			{"get heavy", "1:10"}, {"get - heavy", "1:10"}, {"read intensive", "1:10"}, {"read - intensive", "1:10"},
			{"write heavy", "10:1"}, {"write - heavy", "10:1"}, {"writeheavy", "10:1"}, {"write mostly", "10:1"},
			{"mostly writes", "10:1"}, {"heavy writes", "10:1"}, {"lots of writes", "10:1"}, {"many writes", "10:1"},
			{"set heavy", "10:1"}, {"set - heavy", "10:1"}, {"write intensive", "10:1"}, {"write - intensive", "10:1"},
			{"mixed", "1:1"}, {"balanced", "1:1"}, {"half reads", "1:1"}, {"50 / 50", "1:1"},
			{"read only", "0:1"}, {"read - only", "0:1"}, {"only reads", "0:1"}, {"get only", "0:1"}, {"pure reads", "0:1"},
			{"write only", "1:0"}, {"write - only", "1:0"}, {"only writes", "1:0"}, {"set only", "1:0"}, {"pure writes", "1:0"},
			{"mget10", "mget10"}, {"mset10", "mset10"}, // the workloads as the data spells them
			{"mget", "mget10"}, {"mgets", "mget10"}, {"multi get", "mget10"}, {"multi - get", "mget10"}, {"multi gets", "mget10"},
			{"multi - gets", "mget10"}, {"multiget", "mget10"}, {"multigets", "mget10"}, {"batched reads", "mget10"},
			{"batched gets", "mget10"}, {"batch gets", "mget10"}, {"batch reads", "mget10"},
			{"mset", "mset10"}, {"msets", "mset10"}, {"multi set", "mset10"}, {"multi - set", "mset10"}, {"multi sets", "mset10"},
			{"multi - sets", "mset10"}, {"multiset", "mset10"}, {"multisets", "mset10"}, {"batched writes", "mset10"},
			{"batched sets", "mset10"}, {"batch sets", "mset10"}, {"batch writes", "mset10"},
		}},
		{meaning: mWorkload, entries: mixPhrases(), crossed: true},
		{meaning: mWorkload, entries: multiKeyPhrases(), crossed: true},
		{meaning: mMetric, entries: []entry{
			{"throughput", "ops_per_sec"}, {"ops", "ops_per_sec"}, {"qps", "ops_per_sec"}, {"rps", "ops_per_sec"},
			{"ops / s", "ops_per_sec"}, {"ops / sec", "ops_per_sec"}, {"requests per second", "ops_per_sec"},
			{"operations per second", "ops_per_sec"}, {"speed", "ops_per_sec"}, {"performance", "ops_per_sec"}, {"perf", "ops_per_sec"},
			{"fastest", "ops_per_sec"}, {"faster", "ops_per_sec"}, {"fast", "ops_per_sec"}, {"quick", "ops_per_sec"}, {"quickest", "ops_per_sec"}, {"nimble", "ops_per_sec"}, {"snappy", "ops_per_sec"}, {"slower", "ops_per_sec"}, {"slowest", "ops_per_sec"},
			{"latency", "p50_ms"}, {"mean latency", "p50_ms"}, {"mean response time", "p50_ms"}, {"average latency", "p50_ms"}, {"latencies", "p50_ms"}, {"response time", "p50_ms"}, {"median latency", "p50_ms"}, {"p50", "p50_ms"},
			{"p99", "p99_ms"}, {"tail latency", "p99_ms"}, {"tail", "p99_ms"}, {"99th percentile", "p99_ms"},
			{"p99.9", "p999_ms"}, {"p999", "p999_ms"}, {"99.9th percentile", "p999_ms"},
			{"per core", "ops_per_core"}, {"per - core", "ops_per_core"}, {"core efficiency", "ops_per_core"},
			{"hit rate", "hit_rate"}, {"hit ratio", "hit_rate"}, {"misses", "hit_rate"},
			{"bandwidth", "kb_per_sec"}, {"kb / s", "kb_per_sec"},
			{"memory", "bytes_per_key"}, {"ram", "bytes_per_key"}, {"bytes per key", "bytes_per_key"}, {"footprint", "bytes_per_key"},
			{"failover", "outage_s"}, {"outage", "outage_s"}, {"downtime", "outage_s"}, {"promotion", "outage_s"}, {"unavailable", "outage_s"},
		}},
		{meaning: mNegation, entries: []entry{
			{"no", "pre"}, {"not", "pre"}, {"anything but", "pre"}, {"except", "pre"}, {"other than", "pre"}, {"anything except", "pre"}, {"everything but", "pre"}, {"everything except", "pre"},
			{"all but", "pre"}, {"except for", "pre"}, {"besides", "pre"}, {"excluding", "pre"}, {"apart from", "pre"}, {"aside from", "pre"},
			{"not counting", "pre"}, {"! =", "pre"}, {"≠", "pre"}, {"not equal to", "pre"}, {"skip", "pre"}, {"skipping", "pre"}, {"leave out", "pre"}, {"leaving out", "pre"}, {"minus", "pre"}, {"ignoring", "pre"}, {"engines but", "pre"}, {"engines other than", "pre"}, {"any engine but", "pre"}, {"without", "pre"}, {"non", "pre"}, {"zero", "pre"}, {"never", "pre"},
			{"disable", "pre"}, {"disabling", "pre"}, {"turn off", "pre"}, {"turning off", "pre"}, {"switch off", "pre"},
			{"off", "post"}, {"disabled", "post"}, {"turned off", "post"}, {"switched off", "post"},
			// modal and situational: "we cannot batch", "pipelining isn't
			// an option for us", "cluster mode is not supported"
			{"cannot", "pre"}, {"unable to", "pre"}, {"no way to", "pre"},
			// the same said of the asker before the setting: "it's impossible
			// for us to pipeline", "we're not allowed to shard"
			{"impossible to", "pre"}, {"impossible for us to", "pre"}, {"not possible to", "pre"}, {"not possible for us to", "pre"},
			{"not able to", "pre"}, {"no way for us to", "pre"}, {"not allowed to", "pre"}, {"not permitted to", "pre"},
			{"forbidden to", "pre"}, {"prohibited from", "pre"},
			// a clause denied as a whole: "it's not true that pipelining is
			// off" keeps pipelining (two negations)
			{"not true that", "pre"}, {"not the case that", "pre"}, {"false that", "pre"}, {"untrue that", "pre"},
			{"not an option", "post"}, {"not possible", "post"}, {"impossible", "post"}, {"not supported", "post"},
			{"unsupported", "post"}, {"not allowed", "post"}, {"not available", "post"}, {"out of the question", "post"},
			{"off the table", "post"}, {"no go", "post"}, {"a no go", "post"},
			// a quantified negation: "nothing is pipelined", "no request is batched"
			{"nothing", "pre"}, {"none of", "pre"}, {"no request", "pre"}, {"no requests", "pre"}, {"no command", "pre"}, {"no commands", "pre"},
			// the same words in the languages people ask in: Spanish, Portuguese,
			// German, French, Italian, Dutch, the Nordic languages, Polish and
			// Czech, Hindi and Turkish (romanized)
			{"sin", "pre"}, {"sem", "pre"}, {"ohne", "pre"}, {"sans", "pre"}, {"senza", "pre"}, {"zonder", "pre"},
			{"utan", "pre"}, {"uten", "pre"}, {"uden", "pre"}, {"bez", "pre"}, {"bina", "pre"},
			{"kein", "pre"}, {"keine", "pre"}, {"keinen", "pre"}, {"nicht", "pre"}, {"geen", "pre"}, {"ingen", "pre"},
			{"pas de", "pre"}, {"nao", "pre"}, {"não", "pre"},
			{"nahi", "post"}, {"nahin", "post"}, {"nahi hai", "post"}, {"olmadan", "post"}, {"yok", "post"},
			{"aus", "post"}, {"deaktiviert", "post"}, {"ausgeschaltet", "post"}, {"desactivado", "post"}, {"apagado", "post"},
			{"desligado", "post"}, {"desativado", "post"}, {"désactivé", "post"}, {"desactive", "post"}, {"disattivato", "post"},
		}},
		{meaning: mRelation, entries: []entry{
			// crossover: one series passing another as cores grow
			{"overtake", "crossover"}, {"overtakes", "crossover"}, {"overtaking", "crossover"}, {"pass", "crossover"},
			{"passes", "crossover"}, {"surpass", "crossover"}, {"surpasses", "crossover"}, {"catch up", "crossover"},
			{"catches up", "crossover"}, {"catch up with", "crossover"}, {"fall behind", "crossover"}, {"falls behind", "crossover"},
			{"cross", "crossover"}, {"crosses", "crossover"}, {"crossover", "crossover"}, {"cross over", "crossover"},
			{"get ahead", "crossover"}, {"gets ahead", "crossover"}, {"pull ahead", "crossover"}, {"pulls ahead", "crossover"}, {"take the lead", "crossover"}, {"takes the lead", "crossover"},
			{"pulls away", "crossover"}, {"start winning", "crossover"}, {"starts winning", "crossover"},
			{"tipping point", "crossover"}, {"break even", "crossover"}, {"break - even", "crossover"}, {"breakeven", "crossover"},
			{"stop losing", "crossover"}, {"stops losing", "crossover"}, {"start beating", "crossover"}, {"starts beating", "crossover"},
			{"start outperforming", "crossover"}, {"starts outperforming", "crossover"}, {"start to win", "crossover"},
			{"min cores", "crossover_at"}, {"minimum cores", "crossover_at"}, {"minimum core count", "crossover_at"},
			{"minimum number of cores", "crossover_at"}, {"fewest cores", "crossover_at"}, {"least cores", "crossover_at"},
			{"smallest core count", "crossover_at"}, {"lowest core count", "crossover_at"}, {"how few cores", "crossover_at"},
			{"smallest box", "crossover_at"}, {"smallest machine", "crossover_at"}, {"how small a box", "crossover_at"}, {"how small a machine", "crossover_at"},
			{"which core count", "crossover_at"}, {"at what size", "crossover_at"}, {"what size", "crossover_at"},
			{"which size", "crossover_at"}, {"at what cores", "crossover_at"}, {"at which cores", "crossover_at"},
			{"what cores", "crossover_at"}, {"which cores", "crossover_at"}, {"at what scale", "crossover_at"}, {"what machine size", "crossover_at"},
			{"at which point", "crossover_at"}, {"what number of cores", "crossover_at"}, {"how big a box", "crossover_at"},
			{"how big a machine", "crossover_at"}, {"what core count", "crossover_at"}, {"how many cores", "crossover_at"},
			{"from which", "crossover_at"}, {"at what point", "crossover_at"}, {"from what", "crossover_at"}, {"ahead", "crossover_ahead"},
			// scaling: a result as the core count grows
			{"as cores go up", "scaling"}, {"as cores grow", "scaling"}, {"as cores increase", "scaling"},
			{"as cores rise", "scaling"}, {"as the cores go up", "scaling"}, {"as core count grows", "scaling"},
			{"as the core count grows", "scaling"}, {"as core count goes up", "scaling"}, {"as the core count goes up", "scaling"},
			{"as core count increases", "scaling"}, {"as the core count increases", "scaling"},
			{"as you add cores", "scaling"}, {"as you add more cores", "scaling"}, {"when you add cores", "scaling"},
			{"when you add more cores", "scaling"}, {"if you add cores", "scaling"}, {"if you add more cores", "scaling"},
			{"with more cores", "scaling"}, {"adding cores", "scaling"}, {"adding more cores", "scaling"},
			{"change with cores", "scaling"}, {"changes with cores", "scaling"}, {"change with core count", "scaling"},
			{"change with the core count", "scaling"}, {"vary with cores", "scaling"}, {"varies with cores", "scaling"},
			{"change across cores", "scaling"}, {"vary across", "scaling_cores"}, {"varies across", "scaling_cores"}, {"vary over", "scaling_cores"},
			{"varies over", "scaling_cores"}, {"across core counts", "scaling"}, {"over core counts", "scaling"},
			{"by core count", "scaling"}, {"vs core count", "scaling"}, {"against core count", "scaling"},
			{"by cores", "scaling"}, {"against cores", "scaling"}, {"versus cores", "scaling"}, {"versus core count", "scaling"},
			{"by the core count", "scaling"}, {"against the core count", "scaling"}, {"by number of cores", "scaling"},
			{"as a function of cores", "scaling"}, {"as a function of core count", "scaling"}, {"for each core count", "scaling"},
			{"at each core count", "scaling"}, {"for every core count", "scaling"}, {"core by core", "scaling"},
			{"on bigger boxes", "scaling"}, {"on bigger machines", "scaling"}, {"as the box gets bigger", "scaling"},
			{"as the machine gets bigger", "scaling"}, {"with bigger boxes", "scaling"}, {"with bigger machines", "scaling"},
			{"cores go up", "scaling"}, {"cores increase", "scaling"}, {"more and more cores", "scaling"},
			// effect: what a setting does
			// ("effect_known": phrases the slot grammar reads as an effect already)
			{"worth", "effect"}, {"gain", "effect"}, {"gains", "effect"}, {"help", "effect"}, {"helps", "effect"},
			{"hurt", "effect"}, {"hurts", "effect"}, {"matter", "effect"}, {"matters", "effect"}, {"what changes", "effect"},
			{"buy", "effect"}, {"buys", "effect"}, {"cost of", "effect"}, {"the cost", "effect"}, {"penalty", "effect"},
			{"what do we lose", "effect"}, {"how much do we lose", "effect"}, {"pay off", "effect"}, {"pays off", "effect"}, {"difference does", "effect_known"},
			{"effect", "effect_known"}, {"effects", "effect_known"}, {"impact", "effect_known"},
			{"benefit", "effect_known"}, {"benefits", "effect_known"}, {"influence", "effect_known"}, {"with vs without", "with_without"},
			{"with or without", "with_without"}, {"w / and without", "with_without"}, {"w / or without", "with_without"},
			{"w / vs without", "with_without"}, {"w / without", "with_without"}, {"with and without", "with_without"}, {"with versus without", "with_without"}, {"vs with", "with_without"}, {"versus with", "with_without"},
			// gap: how far apart two results are; "multiple" phrases are the
			// ones the slot grammar already reads as a multiple
			{"difference between", "gap_engines"}, {"the difference", "gap_engines"}, {"ratio of", "gap_engines"},
			{"in percent", "gap"}, {"in %", "gap"}, {"as a percentage", "gap"},
			{"how much of a gap", "gap"}, {"percent faster", "multiple"}, {"percentage faster", "multiple"},
			{"how far apart", "gap"}, {"far apart", "gap"}, {"gap", "gap"}, {"spread between", "gap"},
			{"what factor", "gap"}, {"what percentage", "gap"}, {"what percent", "gap"}, {"margin", "gap"},
			{"how big is the gap", "gap"}, {"how far ahead", "gap"}, {"how far behind", "gap"}, {"how wide is the gap", "gap"}, {"how close", "gap"},
			{"how many times", "multiple"}, {"by what factor", "multiple"}, {"how much faster", "multiple"},
			{"how much slower", "multiple"}, {"how much higher", "multiple"}, {"how much lower", "multiple"},
			{"how much better", "multiple"}, {"ratio between", "multiple"},
			{"how much bigger", "multiple"}, {"how much larger", "multiple"}, {"how much more", "multiple"}, {"how much ahead", "gap"},
			{"lead by", "gap"}, {"leads by", "gap"}, {"win by", "gap"}, {"wins by", "gap"}, {"ahead by", "gap"}, {"behind by", "gap"},
			{"percentage difference", "gap"}, {"percent difference", "gap"}, {"% difference", "gap"}, {"difference in %", "gap"},
			{"difference in percent", "gap"}, {"by how much", "gap"}, {"how much of a lead", "gap"}, {"how big a lead", "gap"},
			{"how big is the lead", "gap"}, {"how large a lead", "gap"}, {"how big of a lead", "gap"}, {"how much of a difference", "gap"}, {"how much difference", "gap"}, {"how wide", "gap"},
			{"how big a difference", "gap"}, {"how big of a difference", "gap"}, {"how big is the difference", "gap"},
			{"how large is the difference", "gap"}, {"how large a difference", "gap"}, {"how big a gap", "gap"},
			{"how many percent", "gap"}, {"what %", "gap"}, {"by what margin", "gap"},
			{"fold", "multiple"}, {"how many x", "multiple"}, {"the multiple", "multiple"}, {"what multiple", "multiple"},
			// compare
			{"vs", "compare"}, {"versus", "compare"}, {"compare", "compare"}, {"compared", "compare"}, {"than", "compare"},
			{"beat", "compare"}, {"beats", "compare"}, {"against", "compare"},
		}},
		{meaning: mKind, entries: []entry{
			{"mean", "define"}, {"means", "define"}, {"meaning", "define"}, {"define", "define"}, {"definition", "define"},
			{"stand for", "define"}, {"stands for", "define"}, {"tell me about", "define"}, {"in the context of", "define_ctx"},
			{"as used in", "define_ctx"}, {"as in", "define_ctx"}, {"in terms of", "define_ctx"},
			{"what is meant by", "define"}, {"refer to", "define"}, {"refers to", "define"},
			{"reason for", "method"}, {"the reason", "method"}, {"how come", "method"}, {"configured", "method"},
			{"set up", "method"}, {"setup", "method"}, {"methodology", "method"}, {"why did they", "method"},
			{"why did you", "method"}, {"how was", "method"}, {"how were", "method"},
			// counts of things in the setup: the glossary entry says how
			// many were used
			{"how many shards", "count:term:shard"}, {"number of shards", "count:term:shard"}, {"how many connections", "count:term:connections"},
			{"how many clients", "count:term:connections"}, {"number of connections", "count:term:connections"},
			{"how many repetitions", "count:term:repetitions"}, {"how many reps", "count:term:repetitions"},
			{"how many slots", "count:term:hash-slot"}, {"how many hash slots", "count:term:hash-slot"},
			{"how many client threads", "count:term:client-threads"}, {"how many memtier threads", "count:term:client-threads"},
		}},
		{meaning: mClaimant, entries: []entry{
			{"redis blog", "claim:redis-40-shard"}, {"redis s own blog", "claim:redis-40-shard"}, {"redis own blog", "claim:redis-40-shard"},
			{"redis ltd", "claim:redis-40-shard"}, {"redis labs", "claim:redis-40-shard"}, {"redis counter benchmark", "claim:redis-40-shard"},
			{"redis s blog", "claim:redis-40-shard"}, {"redis company", "claim:redis-40-shard"},
			{"dragonfly team", "claim:dragonfly-25x"}, {"dragonfly s website", "claim:dragonfly-25x"},
			{"dragonfly website", "claim:dragonfly-25x"}, {"dragonfly homepage", "claim:dragonfly-25x"},
			{"dragonfly marketing", "claim:dragonfly-25x"}, {"dragonfly folks", "claim:dragonfly-25x"},
			{"dragonfly people", "claim:dragonfly-25x"}, {"dragonfly s marketing", "claim:dragonfly-25x"},
			{"third party", "claim:thirdparty-redis9-df120"}, {"third - party", "claim:thirdparty-redis9-df120"},
			{"comparison article", "claim:thirdparty-redis9-df120"}, {"redis 9 vs dragonfly", "claim:thirdparty-redis9-df120"},
			{"microsoft", "claim:garnet-resp-bench"}, {"garnet team", "claim:garnet-resp-bench"},
			{"valkey blog", "claim:valkey-8-0"}, {"valkey release blog", "claim:valkey-8-0"}, {"valkey project", "claim:valkey-site"},
			{"keydb docs", "claim:keydb-per-node"}, {"keydb team", "claim:keydb-per-node"}, {"momento", "claim:momento-valkey"},
			{"redis docs", "claim:redis-docs-single-threaded"}, {"redis documentation", "claim:redis-docs-single-threaded"},
			{"redis 8 . 8 release", "claim:redis-8-8"}, {"redis 8 . 8 announcement", "claim:redis-8-8"},
			{"valkey 9 blog", "claim:valkey-9-billion-rps"}, {"valkey 9 announcement", "claim:valkey-9-billion-rps"},
			{"dragonfly gcp benchmark", "claim:dragonfly-vs-valkey-gcp"}, {"dragonfly google cloud benchmark", "claim:dragonfly-vs-valkey-gcp"},
			{"keydb issue tracker", "engine-status:keydb"}, {"keydb github issues", "engine-status:keydb"},
		}},
		{meaning: mDomain, entries: []entry{
			{"benchmark", ""}, {"benchmarks", ""}, {"cross - session", ""}, {"benchmarked", ""}, {"bench", ""}, {"run", ""}, {"runs", ""},
			{"measured", ""}, {"measurement", ""}, {"measurements", ""}, {"memtier", ""}, {"dataset", ""}, {"data", ""},
			{"engine", ""}, {"engines", ""}, {"database", ""}, {"databases", ""}, {"db", ""}, {"dbs", ""}, {"cache", ""},
			{"key value", ""}, {"in memory", ""}, {"session", ""}, {"sessions", ""}, {"shard", ""}, {"shards", ""},
			{"replica", ""}, {"replicas", ""}, {"sentinel", ""}, {"client", ""}, {"clients", ""}, {"connections", ""},
			{"repetitions", ""}, {"reps", ""}, {"slots", ""}, {"keys", ""}, {"numa", ""}, {"io uring", ""}, {"claim", ""},
			{"claims", ""}, {"vendor", ""}, {"results", ""}, {"result", ""}, {"numbers", ""}, {"winner", ""}, {"scale", ""},
			{"scaling", ""}, {"scales", ""}, {"p90", ""}, {"p95", ""}, {"bytes", ""}, {"kb", ""}, {"gets", ""}, {"sets", ""},
			{"reads", ""}, {"writes", ""}, {"get", ""}, {"set", ""},
		}},
		{meaning: mChatter, entries: []entry{
			{"thanks", ""}, {"thank you", ""}, {"thank", ""}, {"thx", ""}, {"ty", ""}, {"tysm", ""}, {"tnx", ""}, {"cheers", ""},
			{"ok", ""}, {"okay", ""}, {"k", ""}, {"kk", ""}, {"okk", ""}, {"oki", ""}, {"lol", ""}, {"lmao", ""}, {"rofl", ""},
			{"haha", ""}, {"hahaha", ""}, {"hehe", ""}, {"+ 1", ""}, {"nice", ""}, {"cool", ""}, {"great", ""},
			{"awesome", ""}, {"perfect", ""}, {"got it", ""}, {"gotcha", ""}, {"makes sense", ""}, {"np", ""},
			{"no worries", ""}, {"yep", ""}, {"yup", ""}, {"yes", ""}, {"yeah", ""}, {"sure", ""}, {"agreed", ""},
			{"same", ""}, {"wow", ""}, {"neat", ""}, {"sweet", ""}, {"interesting", ""}, {"good to know", ""}, {"noted", ""},
			{"much appreciated", ""}, {"appreciated", ""}, {"brb", ""}, {"ack", ""}, {"lgtm", ""}, {"indeed", ""},
			{"right", ""}, {"true", ""}, {"fair", ""}, {"fair enough", ""}, {"this", ""}, {"so", ""}, {"very", ""},
			{"a lot", ""}, {"much", ""}, {"all", ""}, {"man", ""}, {"dude", ""}, {"mate", ""}, {"guys", ""}, {"folks", ""},
			{"bot", ""}, {"again", ""}, {"that", ""}, {"helps", ""}, {"helped", ""}, {"for", ""}, {"the", ""}, {"info", ""},
			{"answer", ""}, {"s", ""}, {"stuff", ""}, {"appreciate", ""}, {"appreciate it", ""}, {"beans", ""},
			{"just curious", ""}, {"just wondering", ""}, {"curious", ""}, {"wondering", ""}, {"ah", ""}, {"ahh", ""}, {"aha", ""}, {"oh", ""}, {"ohh", ""}, {"ooh", ""},
			{"exactly", ""}, {"what i needed", ""}, {"what i was looking for", ""}, {"helpful", ""}, {"super", ""}, {"brilliant", ""},
			{"excellent", ""}, {"lovely", ""}, {"makes total sense", ""}, {"that makes sense", ""}, {"understood", ""}, {"i see", ""}, {"to", ""}, {"work", ""}, {"job", ""}, {"good", ""}, {"you", ""}, {"it", ""}, {"one", ""}, {"1", ""},
		}},
		{meaning: mPolite, entries: []entry{
			{"please", ""}, {"pls", ""}, {"plz", ""}, {"hey", ""}, {"hi", ""}, {"hello", ""}, {"bot", ""}, {"oracle", ""},
			{"kindly", ""}, {"could you", ""}, {"can you", ""},
			// "drop": asides the slot grammar would misread ("quick" is a speed word)
			{"quick q", "drop"}, {"quick question", "drop"}, {"quick one", "drop"}, {"quick thing", "drop"}, {"quick check", "drop"},
			{"yo", ""}, {"sup", ""}, {"hiya", ""}, {"real talk", "drop"}, {"honestly", "drop"},
		}},
		{meaning: mFollowUp, entries: []entry{
			{"tell me more", ""}, {"more", ""}, {"go on", ""}, {"elaborate", ""}, {"continue", ""}, {"details", ""},
			{"and", ""}, {"what about", ""}, {"how about", ""}, {"why", ""}, {"how come", ""},
		}},
		{meaning: mFailover, entries: failoverPhrases(), crossed: true},
		{meaning: mHelp, entries: []entry{
			{"help", ""}, {"halp", ""}, {"hlp", ""}, {"helpp", ""}, {"hepl", ""}, {"usage", ""}, {"commands", ""},
			{"command list", ""}, {"list of commands", ""}, {"menu", ""}, {"examples", ""}, {"example", ""},
			{"example questions", ""}, {"sample questions", ""}, {"what can you do", ""}, {"what can u do", ""},
			{"what do you do", ""}, {"what can i ask", ""}, {"what can i ask you", ""}, {"what should i ask", ""},
			{"how do i use this", ""}, {"how do i use u", ""}, {"help me out", ""}, {"help me out here", ""}, {"how to use you", ""}, {"how do you work", ""}, {"how do i use you", ""}, {"how does this work", ""}, {"how to use", ""},
			{"how to use this", ""}, {"instructions", ""}, {"manual", ""}, {"options", ""}, {"capabilities", ""},
			{"man", ""}, {"docs", ""}, {"start", ""}, {"/ start", ""}, {"/ help", ""}, {"me", ""}, {"what now", ""},
			{"how does this bot work", ""}, {"what are you for", ""}, {"what is this", ""}, {"what s this", ""},
			{"what are the commands", ""}, {"what commands", ""}, {"list commands", ""}, {"which commands", ""},
			{"features", ""}, {"syntax", ""}, {"cheat sheet", ""}, {"cheatsheet", ""}, {"getting started", ""},
		}},
		{meaning: mClaimTopic, entries: []entry{
			// Content that points at one recorded claim even when nobody
			// is named; several ids for one phrase are told apart by the
			// engines the question names.
			{"memory efficiency", "claim:dragonfly-memory"}, {"memory efficient", "claim:dragonfly-memory"},
			{"more memory efficient", "claim:dragonfly-memory"}, {"better memory", "claim:dragonfly-memory"},
			{"less memory", "claim:dragonfly-memory"}, {"less ram", "claim:dragonfly-memory"},
			{"memory utilization", "claim:dragonfly-memory"}, {"memory utilisation", "claim:dragonfly-memory"},
			{"memory savings", "claim:dragonfly-memory"}, {"saves memory", "claim:dragonfly-memory"}, {"memory saving", "claim:dragonfly-memory"},
			{"memory efficiency", "claim:valkey-8-1"}, {"memory efficient", "claim:valkey-8-1"},
			{"more memory efficient", "claim:valkey-8-1"}, {"better memory", "claim:valkey-8-1"},
			{"less memory", "claim:valkey-8-1"}, {"memory savings", "claim:valkey-8-1"}, {"memory saving", "claim:valkey-8-1"}, {"saves memory", "claim:valkey-8-1"},
			{"25x", "claim:dragonfly-25x"}, {"25 x", "claim:dragonfly-25x"}, {"25 times", "claim:dragonfly-25x"},
			{"25 fold", "claim:dragonfly-25x"}, {"25 - fold", "claim:dragonfly-25x"}, {"25x more qps", "claim:dragonfly-25x"},
			{"sub millisecond", "claim:dragonfly-sub-ms-p99"}, {"sub - millisecond", "claim:dragonfly-sub-ms-p99"},
			{"sub ms", "claim:dragonfly-sub-ms-p99"}, {"sub - ms", "claim:dragonfly-sub-ms-p99"}, {"submillisecond", "claim:dragonfly-sub-ms-p99"},
			{"under a millisecond", "claim:dragonfly-sub-ms-p99"}, {"under 1 ms", "claim:dragonfly-sub-ms-p99"},
			{"millions of qps", "claim:dragonfly-millions-qps"}, {"millions of ops", "claim:dragonfly-millions-qps"},
			{"millions of requests", "claim:dragonfly-millions-qps"},
			{"40 shards", "claim:redis-40-shard"}, {"40 shard", "claim:redis-40-shard"}, {"40 - shard", "claim:redis-40-shard"},
			{"per node basis", "claim:keydb-per-node"}, {"per - node basis", "claim:keydb-per-node"},
			{"better scalability", "claim:garnet-resp-bench"}, {"scales better", "claim:garnet-resp-bench"},
			{"billion requests", "claim:valkey-9-billion-rps"}, {"billion rps", "claim:valkey-9-billion-rps"},
			{"billion qps", "claim:valkey-9-billion-rps"}, {"1b rps", "claim:valkey-9-billion-rps"}, {"2000 nodes", "claim:valkey-9-billion-rps"},
			{"4 . 5x", "claim:dragonfly-vs-valkey-gcp"}, {"4 . 5 times", "claim:dragonfly-vs-valkey-gcp"},
			{"google cloud", "claim:dragonfly-vs-valkey-gcp"}, {"gcp", "claim:dragonfly-vs-valkey-gcp"},
			{"68 % faster", "claim:redis-8-8"}, {"83 % faster", "claim:redis-8-8"}, {"xreadgroup", "claim:redis-8-8"},
			{"abandoned", "engine-status:keydb"}, {"unmaintained", "engine-status:keydb"}, {"still maintained", "engine-status:keydb"},
			{"discontinued", "engine-status:keydb"}, {"project status", "engine-status:keydb"}, {"development stopped", "engine-status:keydb"},
		}},
		{meaning: mUnit, entries: []entry{
			{"keys per second", "keys_per_sec"}, {"keys / s", "keys_per_sec"}, {"keys / sec", "keys_per_sec"},
			{"keys per sec", "keys_per_sec"}, {"keys a second", "keys_per_sec"}, {"keys / second", "keys_per_sec"},
			{"keys per s", "keys_per_sec"}, {"keys/s", "keys_per_sec"}, {"keys read per second", "keys_per_sec"},
			{"keys written per second", "keys_per_sec"}, {"key throughput", "keys_per_sec"}, {"keys throughput", "keys_per_sec"},
			// units the measurements cannot be converted to
			{"per watt", "no_power"}, {"watts", "no_power"}, {"per joule", "no_power"}, {"energy per op", "no_power"},
			{"cpu cycles", "no_cpu"}, {"cycles per op", "no_cpu"}, {"cycles per request", "no_cpu"}, {"cpu time per op", "no_cpu"},
			{"per connection", "no_conn"}, {"per client", "no_conn"}, {"per socket", "no_conn"},
		}},
	}
}

// fillMix spells a mix pattern: each "R" the read word, each "W" the write
// word (a strings.Replacer built per phrase made the lexicon cost
// milliseconds at start).
func fillMix(form, r, w string) string {
	var b strings.Builder
	for i := 0; i < len(form); i++ {
		switch form[i] {
		case 'R':
			b.WriteString(r)
		case 'W':
			b.WriteString(w)
		default:
			b.WriteByte(form[i])
		}
	}
	return b.String()
}

// mixPhrases are the ways of saying a read/write mix in words: every read
// word crossed with every write word in each pattern of a mix ("equal
// sets and gets", "as many writes as reads", "10 gets per set").
func mixPhrases() []entry {
	reads := []string{"reads", "gets", "read", "get", "lookups"}
	writes := []string{"writes", "sets", "write", "set", "updates"}
	patterns := []struct{ form, ratio string }{
		{"equal R and W", "1:1"}, {"equal W and R", "1:1"}, {"equal numbers of R and W", "1:1"}, {"equal numbers of W and R", "1:1"},
		{"equal number of R and W", "1:1"}, {"equal number of W and R", "1:1"}, {"as many R as W", "1:1"}, {"as many W as R", "1:1"},
		{"half R half W", "1:1"}, {"half W half R", "1:1"}, {"half R and half W", "1:1"}, {"half W and half R", "1:1"},
		{"half R , half W", "1:1"}, {"half W , half R", "1:1"}, {"same number of R and W", "1:1"}, {"same number of W and R", "1:1"},
		{"equal amounts of R and W", "1:1"}, {"equal amounts of W and R", "1:1"}, {"equal amount of R and W", "1:1"},
		{"same amounts of R and W", "1:1"}, {"equal R W", "1:1"}, {"equal R / W", "1:1"}, {"equal W R", "1:1"}, {"equal W / R", "1:1"}, {"same amount of R and W", "1:1"}, {"same amount of W and R", "1:1"}, {"R and W equally", "1:1"}, {"W and R equally", "1:1"},
		{"1 R per W", "1:1"}, {"1 W per R", "1:1"}, {"1 R for every W", "1:1"}, {"1 W for every R", "1:1"},
		{"50 % R", "1:1"}, {"50 % W", "1:1"}, {"50 / 50 R and W", "1:1"}, {"50 / 50 W and R", "1:1"},
		{"10 R per W", "1:10"}, {"10 R for every W", "1:10"}, {"10 R for each W", "1:10"}, {"10 R to 1 W", "1:10"},
		{"10 R to every W", "1:10"}, {"1 W per 10 R", "1:10"}, {"1 W for every 10 R", "1:10"}, {"1 W to 10 R", "1:10"},
		{"10 times more R than W", "1:10"}, {"10 x more R than W", "1:10"}, {"10 x as many R as W", "1:10"},
		{"10 times as many R as W", "1:10"}, {"91 % R", "1:10"}, {"mostly R", "1:10"},
		{"10 W per R", "10:1"}, {"10 W for every R", "10:1"}, {"10 W for each R", "10:1"}, {"10 W to 1 R", "10:1"},
		{"1 R per 10 W", "10:1"}, {"1 R for every 10 W", "10:1"}, {"10 times more W than R", "10:1"},
		{"10 x more W than R", "10:1"}, {"10 x as many W as R", "10:1"}, {"mostly W", "10:1"},
		{"only R", "0:1"}, {"100 % R", "0:1"}, {"R only", "0:1"}, {"only W", "1:0"}, {"100 % W", "1:0"}, {"W only", "1:0"},
	}
	out := []entry{
		{"10 reads per write", "1:10"}, {"10 writes per read", "10:1"}, {"reads only", "0:1"}, {"writes only", "1:0"},
		{"even mix", "1:1"}, {"even split", "1:1"}, {"evenly mixed", "1:1"}, {"evenly split", "1:1"}, {"50 - 50", "1:1"},
		{"50 50", "1:1"}, {"1 to 1", "1:1"}, {"half and half", "1:1"}, {"half & half", "1:1"}, {"half / half", "1:1"}, {"equal mix", "1:1"}, {"equal split", "1:1"},
		{"1 - to - 1", "1:1"}, {"balanced mix", "1:1"},
	}
	seen := map[string]bool{}
	for _, pt := range patterns {
		for _, r := range reads {
			for _, w := range writes {
				ph := fillMix(pt.form, r, w)
				if !seen[ph] {
					seen[ph] = true
					out = append(out, entry{ph, pt.ratio})
				}
			}
		}
	}
	return out
}

// multiKeyPhrases are multi-key commands said in words ("getting 10 keys
// at once", "10-key gets", "bulk writes"): the MGET/MSET workloads, never
// a keyspace of ten keys.
func multiKeyPhrases() []entry {
	reads := []string{"get", "gets", "getting", "fetch", "fetching", "fetches", "read", "reads", "reading", "lookup", "lookups"}
	writes := []string{"set", "sets", "setting", "write", "writes", "writing", "store", "storing"}
	var counts []string
	// "ten" stays a word before "keys"; typo correction makes "request"
	// "requests".
	for _, n := range []string{"10", "ten"} {
		for _, c := range []string{" keys at once", " keys per call", " keys per command", " keys per request", " keys per requests", " keys in 1 call",
			" keys in 1 command", " keys at a time", " keys in 1 go"} {
			counts = append(counts, n+c)
		}
	}
	var out []entry
	for _, side := range []struct {
		verbs []string
		cmd   string
	}{{reads, "mget10"}, {writes, "mset10"}} {
		for _, v := range side.verbs {
			for _, c := range counts {
				out = append(out, entry{v + " " + c, side.cmd})
			}
			out = append(out, entry{"10 - key " + v, side.cmd}, entry{"10 key " + v, side.cmd}, entry{"ten - key " + v, side.cmd},
				entry{"ten key " + v, side.cmd}, entry{"bulk " + v, side.cmd}, entry{"multi - key " + v, side.cmd},
				entry{"multi key " + v, side.cmd}, entry{"multikey " + v, side.cmd})
		}
	}
	return out
}

// failoverPhrases are the ways of saying that the primary is lost, which
// is what the failover lab measured ("when the master goes down").
func failoverPhrases() []entry {
	nodes := []string{"primary", "master", "leader", "main node", "primary node", "master node", "leader node", "primary instance", "master instance",
		"primary box", "master box", "node", "a node"}
	events := []string{"dies", "died", "die", "dying", "goes down", "go down", "went down", "going down", "crashes", "crash", "crashed",
		"crashing", "fails", "fail", "failed", "failing", "is killed", "gets killed", "got killed", "is lost", "goes away", "is down",
		"goes offline", "dropped", "drops", "disappears", "is gone", "blows up", "falls over", "fell over", "is unreachable"}
	var out []entry
	for _, n := range nodes {
		for _, e := range events {
			out = append(out, entry{n + " " + e, ""})
		}
		out = append(out, entry{"lose the " + n, ""}, entry{"lost the " + n, ""}, entry{"losing the " + n, ""},
			entry{"kill the " + n, ""}, entry{"killing the " + n, ""}, entry{n + " crash", ""}, entry{n + " failure", ""},
			entry{n + " loss", ""}, entry{n + " outage", ""})
	}
	return append(out, entry{"replica takes over", ""}, entry{"replica take over", ""}, entry{"replica promoted", ""},
		entry{"replica gets promoted", ""}, entry{"promote a replica", ""}, entry{"promoting a replica", ""},
		entry{"new primary", ""}, entry{"new master", ""}, entry{"dead master", ""}, entry{"dead primary", ""}, entry{"dead leader", ""}, entry{"fail over", ""}, entry{"fails over", ""}, entry{"failing over", ""})
}

// phrase is one compiled lexicon entry: its words and meaning.
type phrase struct {
	words   []string
	meaning meaning
	value   string
}

// lexicon indexes every phrase by its first word; phrases of one first
// word are sorted longest first, so the tagger takes the longest match.
type lexicon struct {
	byFirst map[string][]phrase
	// settingWords are the one-word setting and workload phrases a
	// negating prefix may be glued to ("unpipelined", "nonclustered").
	settingWords map[string]phrase
}

func newLexicon(tables []table) *lexicon {
	lx := &lexicon{byFirst: map[string][]phrase{}, settingWords: map[string]phrase{}}
	for _, t := range tables {
		lx.add(t)
	}
	return lx
}

func (lx *lexicon) add(t table) {
	for _, e := range t.entries {
		ws := strings.Fields(e.phrase)
		if len(ws) == 0 {
			continue
		}
		ph := phrase{words: ws, meaning: t.meaning, value: e.value}
		lx.byFirst[ws[0]] = append(lx.byFirst[ws[0]], ph)
		if len(ws) == 1 && (t.meaning == mSetting || t.meaning == mMode) {
			lx.settingWords[ws[0]] = ph
		}
	}
	for k, phs := range lx.byFirst {
		slices.SortStableFunc(phs, func(a, b phrase) int { return len(b.words) - len(a.words) })
		lx.byFirst[k] = phs
	}
}

// VocabularySlot is one slot of the reader's vocabulary, named for
// people, with the words it reads in the order the lexicon lists them.
type VocabularySlot struct {
	Name  string
	Words []string
}

// Vocabulary lists, per slot, the words the reader understands, straight
// from the lexicon tables: help shows it, so the words people see are the
// words read and a synonym added to a table shows up in help. A table
// built by crossing patterns (mixes said in words) contributes its first
// phrase per value, as an example. The list is built once per process;
// each call returns its own copy.
func Vocabulary() []VocabularySlot {
	out := slices.Clone(sharedSlots())
	for i := range out {
		out[i].Words = slices.Clone(out[i].Words)
	}
	return out
}

// sharedSlots is the vocabulary help lists, built on first use (from every
// lexicon table: half a millisecond, once, not per help answer).
var sharedSlots = sync.OnceValue(vocabularySlots)

func vocabularySlots() []VocabularySlot {
	slots := []struct {
		m    meaning
		name string
	}{{mEngine, "engines"}, {mMode, "series"}, {mMetric, "metrics"}, {mWorkload, "workloads"}, {mSetting, "settings"}, {mNegation, "negations"}}
	tables := lexiconTables()
	// A setting phrase that carries its own negation ("cannot shard") is
	// read through the negation words, listed once under negations.
	negFirst := map[string]bool{}
	for _, t := range tables {
		if t.meaning == mNegation {
			for _, e := range t.entries {
				negFirst[strings.Fields(e.phrase)[0]] = true
			}
		}
	}
	out := make([]VocabularySlot, 0, len(slots))
	for _, sl := range slots {
		vs := VocabularySlot{Name: sl.name}
		seen := map[string]bool{}
		for _, t := range tables {
			if t.meaning != sl.m {
				continue
			}
			values := map[string]bool{}
			for _, e := range t.entries {
				if t.crossed && values[e.value] || sl.m == mSetting && negFirst[strings.Fields(e.phrase)[0]] {
					continue
				}
				values[e.value] = true
				w := strings.NewReplacer(" - ", "-", " / ", "/", " s ", "'s ").Replace(e.phrase)
				// "read heavy", "read-heavy" and "readheavy" are one word
				// to a reader of help.
				key := strings.NewReplacer(" ", "", "-", "").Replace(w)
				if !seen[key] {
					seen[key] = true
					vs.Words = append(vs.Words, w)
				}
			}
		}
		out = append(out, vs)
	}
	return out
}
