package planner

import (
	"strings"
)

// grammar holds the compiled vocabulary: patterns over normalized text and
// the tables typo correction uses. It is built once per process (every
// Planner shares it, see sharedVocabulary) and never changed afterwards.
type grammar struct {
	// otherEngines maps the spellings of engines beyond the five the
	// patterns name (imported runs, knowledge entries) onto their keys
	// (engines_vocab.go); nil on the shared grammar.
	otherEngines map[string]string

	fold      *strings.Replacer
	keywords  []string
	protected map[string]bool

	quotedSingle, quotedDouble *rx

	version *rx

	coresList, coresThreads, coresAt *rx

	pipeNumber, pipeDeep, pipeFlag, pipeP, pipeOff, pipeOn, pipeTopic *rx

	ratioLabelAfter, ratioLabelBefore, ratioBare, ratioPercent, ratioSlash *rx
	ratioWords                                                             []wordRule

	valueSize, valueWords, valueTopic, valueFlag *rx
	valueLarge, valueSmall                       *rx

	session, downAfter, keyCount *rx
	// writeFocus is "write" in front of a metric word ("write
	// performance"): a write-heavy request whose metric word the metric
	// rules read first.
	writeFocus *rx

	metrics []metricRule

	modeCeiling, modeRealistic, modeSingle, modeSingleWord, modeCluster *rx

	engine, allEngines *rx

	defineStrong, defineCapture, defineLead, defineTail *rx

	help, measured, compare, superlative, multiple, scaling, crossover, effect *rx
	why, whyOnly, followMarker, pronoun, also, chitchat                        *rx
	injection, code, otherDB, pricing, programming, general                    *rx
	coresTopic, ratioTopic, sessionTopic, domain                               *rx

	// whichOfThem is "which one" / "which of them" in a follow-up; bothOfThem
	// asks about every engine the thread named ("compare them", "both").
	whichOfThem, bothOfThem *rx
	// useAsk is "does Dragonfly use io_uring?": a yes/no question about a
	// mechanism, answered by the glossary entry it names.
	useAsk *rx
	// doubtAsk is "is that really its max?": doubt about the answer just
	// given, which its reasons (a floor, a bound) answer.
	doubtAsk *rx

	// differenceOf asks how two things differ.
	differenceOf *rx
	// cpuAsk asks for CPU load, which no run records; boundAsk asks who
	// limited a figure (client or server).
	cpuAsk, boundAsk *rx
	// licenceAsk asks about licences.
	licenceAsk *rx
	// setupAsk asks which versions, hardware or setup the benchmark used.
	setupAsk *rx

	// worstWord asks for the worst of a ranking; highWord and lowWord ask
	// for the top or the bottom of the values.
	worstWord, bestWord, highWord, lowWord *rx
	// features are server settings and platforms no run used.
	features []feature

	claims    []claimRule
	claimCue  *rx
	claimVCPU *rx // a claim's own hardware ("on 8 vCPUs")

	// jsonObject finds the first {...} in a model's reply (models like to
	// wrap JSON in prose or code fences); ratioShape is a SET:GET ratio.
	jsonObject, ratioShape *rx
}

// wordRule maps a phrase pattern onto a slot value.
type wordRule struct {
	re    *rx
	value string
}

// metricRule maps phrases onto a metric.
type metricRule struct {
	re     *rx
	metric string
}

func newGrammar() *grammar {
	re := newRx
	g := &grammar{
		fold:      newPunctuationFold(),
		keywords:  typoKeywords(),
		protected: protectedWords(),

		quotedSingle: re(`(?:^|\s)'([^']{2,80})'(?:\s|$)`),
		quotedDouble: re(`" ([^"]{2,80}) "`),

		version: re(`\b(dragonfly\s*db|dragonflydb|dragonfly|redis|valkey|keydb|garnet)\s+(v(?:ersion)?\s*)?(\d+(?:\.\d+){0,2})(\.x)?\b`),

		coresList:    re(`\b((?:from|between)\s+)?(\d+)((?:\s*(?:,|and|or|&|vs\.?|versus|to|-|/)\s*\d+)*)\s*-?\s*(?:physical\s+)?(cores?|cors|c|cpu\s+cores?|cpus?|vcpus?|shards?|(?:server\s+|proactor\s+|worker\s+)?threads?|kernen?|núcleos|nucleos|cœurs|coeurs|rdzeni|ядер|ядра|コア|核)(?:\b|$|\s)`),
		coresThreads: re(`\b(?:server|proactor)[-_ ]?threads?\s*(?:=|:)?\s*(\d+)\b`),
		coresAt:      re(`\bat\s+(\d+)\b`),

		pipeNumber: re(`\bpipelin(?:e|es|ed|ing)\s*(?:depths?|sizes?|length|level)?\s*(?:=|:|of|at|to)?\s*(?:of\s+)?(\d+)((?:\s*(?:,|and|or|vs\.?|versus|/|to)\s*\d+)*)\b`),
		pipeDeep:   re(`\b(\d+)\s*-?\s*(?:deep|depth)\b(?:\s*pipelin\w*)?|\bdepth\s*(?:of\s+|=\s*)?(\d+)\b|\b(\d+)\s*-?\s*pipelin(?:e|es|ed|ing)\b`),
		pipeFlag:   re(`(?:^|\s)(?:-p|--pipeline(?:=|\s))\s*(\d+)\b`),
		pipeP:      re(`\b(?:p|pl|pipe)(\d+)\b|\b(?:pl|pipe)\s+(\d+)\b`), // "p16", "pl1", "pl 8", "pipe 16"
		pipeOff:    re(`\b(?:no|without|w/o|zero|disabled?|non|un|not|turn(?:ed)? off)[- ]?pipelin\w*|\bpipelin\w*\s+(?:off|disabled)\b|\b1 (?:request|command|op) at a time\b|\bsequential(?:ly)?\b|\bunbatched\b`),
		pipeOn:     re(`\b(?:with|using|use|enable|enabled|turn(?:ed)? on)\s+pipelin\w*|\bpipelined\b|\bpipelin\w*\s+(?:on|enabled)\b`),
		pipeTopic:  re(`\bpipelin\w*|\bbatching\b`),

		ratioLabelAfter:  re(`\b(\d+)\s*:\s*(\d+)\s*(?:ratio\s*)?\(?\s*(set\s*:\s*get|get\s*:\s*set|sets?\s*(?:to|/)\s*gets?|gets?\s*(?:to|/)\s*sets?|reads?\s*(?:to|:|/)\s*writes?|writes?\s*(?:to|:|/)\s*reads?|r\s*:\s*w|w\s*:\s*r)\b`),
		ratioLabelBefore: re(`\b(set\s*:\s*get|get\s*:\s*set|reads?\s*:\s*writes?|writes?\s*:\s*reads?|r\s*:\s*w|w\s*:\s*r)\s*(?:ratio\s*)?(?:of\s+|=\s*)?(\d+)\s*:\s*(\d+)\b`),
		ratioBare:        re(`\b(\d+)\s*:\s*(\d+)\b`),
		ratioPercent:     re(`~?\s*\b(\d+(?:\.\d+)?)\s*%\s*(?:of\s+(?:the\s+)?(?:ops|operations|requests|commands)\s+)?(?:are\s+)?(reads?|gets?|writes?|sets?)\b`),
		ratioSlash:       re(`\b(\d+)\s*(?:/|-)\s*(\d+)\s*(?:%\s*)?(?:(reads?\s*/\s*writes?|writes?\s*/\s*reads?|gets?\s*/\s*sets?|sets?\s*/\s*gets?|r\s*/\s*w|w\s*/\s*r|mix|split|workload)\b)?`),
		ratioWords: []wordRule{
			{re(`\bmget\s*-?\s*(?:10|of 10(?: keys)?)?\b|\bmulti[- ]?gets?\b|\bbatch(?:ed)? gets?\b`), "mget10"},
			{re(`\bmset\s*-?\s*(?:10|of 10(?: keys)?)?\b|\bmulti[- ]?sets?\b|\bbatch(?:ed)? sets?\b`), "mset10"},
			{re(`\bmulti[- ]?keys?\b|\bmultikey\b`), "multi"},
			{re(`\bread[- ]?(?:heavy|mostly|intensive|dominated)\b|\bmostly (?:reads|gets)\b|\bget[- ]?heavy\b|\bcache[- ]?like\b`), "1:10"},
			{re(`\bwrite[- ]?(?:heavy|mostly|intensive|dominated)\b|\bmostly (?:writes|sets)\b|\bset[- ]?heavy\b|\b(?:for|of|on|under) (?:heavy |lots of |many )?writes\b|\bwrites? per sec\w*`), "10:1"},
			{re(`\b(?:read|get)[- ]?only\b|\bonly (?:reads|gets)\b|\b(?:all|pure) (?:reads|gets)\b`), "0:1"},
			{re(`\b(?:write|set)[- ]?only\b|\bonly (?:writes|sets)\b|\b(?:all|pure) (?:writes|sets)\b`), "1:0"},
			{re(`\bmixed\b|\bbalanced (?:workload|mix|reads)\b|\bhalf reads\b|\bequal (?:reads|parts)\b|\bread/write mix\b|\bmix of reads and writes\b`), "1:1"},
		},

		valueSize:  re(`\b(\d+(?:\.\d+)?)\s*-?\s*(bytes?|b|kb|kib|kilobytes?|k|mb|mib|megabytes?)\b`),
		valueFlag:  re(`(?:^|\s)(?:-d|--data-size(?:=|\s))\s*(\d+)\b`),
		valueWords: re(`\b(?:values?|payloads?|objects?|items?|data)\b`),
		valueLarge: re(`\b(?:large|big|bigger|larger|1k)\s+(?:values?|payloads?|objects?)\b`),
		valueSmall: re(`\b(?:small|tiny|smaller)\s+(?:values?|payloads?|objects?)\b`),
		valueTopic: re(`\b(?:value|payload|object|item|data)[- ]?(?:sizes?|length)\b|\bsize of (?:the )?(?:values?|payloads?)\b|\bbigger values\b|\blarger values\b`),

		writeFocus: re(`\b(writes?|sets?)[- ](?:performance|throughput|speed|perf|latency|latencies|ops|qps|workloads?|load|traffic)\b`),
		keyCount:   re(`\b(\d+(?:\.\d+)?)\s*(k|m|b|thousand|million|billion|mn|mio)?\s+(?:distinct |unique |different )?keys\b`),
		session:    re(`\bsession\s*(?:#\s*|no\.?\s*)?([12])\b|\bs([12])\b|\b(first|second|1st|2nd)\s+session\b`),
		downAfter:  re(`\bdown[- _]?after(?:[- _]?milliseconds|[- _]?ms)?\s*(?:=|of|at|:|set to|to|down to|from)?\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)?\b|\b(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)\s+(?:of\s+)?down[- _]?after\b`),

		metrics: []metricRule{
			{re(`\bkb\s*/\s*s(?:ec)?\b|\bkb per sec\w*|\bkbps\b|\bbandwidth\b|\bmb\s*/\s*s(?:ec)?\b|\bgbps\b|\bnetwork (?:throughput|traffic|usage)\b|\bbytes per second\b|\bkb_per_sec\b`), "kb_per_sec"},
			{re(`\bbytes?\s*(?:per|/|a)\s*key\b|\bbytes_per_key\b|(?:^|[^-])\bmemory\b|\bram\b|\bmem\b|\bused[_ ]memory(?:_\w+)?\b|\bfootprint\b|\blean(?:er|est)?\b`), "bytes_per_key"},
			{re(`\bfail[- ]?overs?\b|\boutages?\b|\bdown[- ]?time\b|\bsentinels?\b|\bunavailab\w*|\bpromot\w* (?:a )?replica\b|\bpromotion\b`), "outage_s"},
			{re(`\bthroughput per core\b|\bops?\s*(?:/\s*s(?:ec)?\s*)?(?:per|/)\s*core\b|\bper[- ]core\b|\bcore efficiency\b|\befficiency per core\b|\bops_per_core\b`), "ops_per_core"},
			{re(`\bp\s*99\.99+\b|\bp\s*9999+\b|\b99\.99+(?:th)?\s*(?:%|percentile)?|\b[45] nines\b`), "p9999_ms"},
			{re(`\bp\s*95\b|\b95(?:th)?\s*(?:%|percentile)`), "p95_ms"},
			{re(`\bp\s*90\b|\b90(?:th)?\s*percentile`), "p90_ms"},
			{re(`\bmax(?:imum)? latenc\w*|\bworst[- ]case latenc\w*|\bp100\b`), "max_ms"},
			{re(`\bp\s*99\.9\b|\bp\s*999\b|\b99\.9(?:th)?\s*(?:%|percentile)?|\b3 nines\b|\b3 9s\b|\bp99_9\b|\bp999_ms\b`), "p999_ms"},
			{re(`\bp\s*99\b|\b99(?:th)?\s*(?:%|percentile)|\b2 nines\b|\btail(?:[- ]?latenc\w*)?\b|\bp99_ms\b`), "p99_ms"},
			{re(`\bp\s*50\b|\b50(?:th)?\s*percentile\b|\bmedian latency\b|\btypical latency\b|\bp50_ms\b`), "p50_ms"},
			{re(`\bav(?:era)?ge? (?:latenc(?:y|ies)|response times?)\b|\bmean (?:latenc(?:y|ies)|response times?)\b`), metricAverage},
			{re(`\blatenc(?:y|ies)\b|\bresponse times?\b`), metricLatency},
			{re(`\bhits?\s*(?:per|/|a)\s*s(?:ec(?:ond)?)?\b|\bhits_per_sec\b`), "hits_per_sec"},
			{re(`\bmiss(?:es)?\s*(?:per|/|a)\s*s(?:ec(?:ond)?)?\b|\bmisses_per_sec\b`), "misses_per_sec"},
			{re(`\bhit[- ]?(?:rate|ratio)s?\b|\bcache hits?\b|\bmiss(?:es|[- ]rate)?\b|\bhits\b|\bhit_rate\b`), "hit_rate"},
			{re(`\bthroughput\b|\bthru-?put\b|\bops\s*/\s*s(?:ec)?\b|\bops per sec\w*|\boperations per sec\w*|\bqps\b|\brps\b|\btps\b|\breq(?:uest)?s?\s*(?:/|per)\s*s(?:ec\w*)?\b|\bqueries per sec\w*|\bops\b|\bspeed\b|\bfast(?:er|est)?\b|\bslow(?:er|est)?\b|\bperformance\b|\bperf\b|\bquick(?:er|est)?\b|\bpeak\b|\bhow many (?:ops|operations|requests)\b|\bops_per_sec\b`), "ops_per_sec"},
		},

		modeCeiling:    re(`\bcluster[- ]?sat(?:urated)?\b|\bsaturated\b|\bceiling\b|\bfully[- ]?driven\b|\bfully saturat\w*|\b1 (?:load )?(?:client|generator) per shard\b|\bclients? per shard\b|\bper[- ]shard (?:clients?|generators?|load)\b|\bmax(?:imum|ed)?[- ]?(?:out|driven)\b|\bdriven to (?:the )?(?:max|ceiling|limit)\b|\bbest[- ]case cluster\b|\bsat\b`),
		modeRealistic:  re(`\brealistic\b|\bnormal (?:cluster[- ]aware )?(?:cluster )?client\b|\b1 (?:normal |ordinary |regular |single )?(?:cluster[- ]aware )?client\b|\bsingle (?:normal |ordinary )?client\b|\bordinary client\b|\bregular client\b|\breal[- ]world\b`),
		modeSingle:     re(`\bsingle[- ]?(?:process|instance|node|server|mode|binary|box)\b|\b1 (?:process|instance|node|server)\b|\bstandalone\b|\bnon[- ]?cluster(?:ed)?\b|\bnot (?:clustered|in (?:a )?cluster)\b|\bwithout (?:a )?cluster\b|\bunclustered\b`),
		modeSingleWord: re(`\bsingle\b`),
		modeCluster:    re(`\bclusters?\b|\bclustered\b|\bsharded\b|\bcluster mode\b`),

		engine:     re(engineSpellings()),
		allEngines: re(`\b(?:all|every|each|any)\s+(?:of\s+the\s+)?(?:5\s+)?(?:engines?|databases?|dbs|stores?|systems?|products?|of them|contenders)\b|\ball 5\b|\bwhich (?:engine|database|db|store|system|1|product|server)s?\b|\bwhat (?:engine|database|store|system)s?\b|\bthe engines\b|\bevery engine\b|\boverall\b|\bthe 5\b`),

		defineStrong:  re(`\bmean(?:s|ing|t)?\b|\bdefin(?:e|ition)\b|\bstands? for\b|\bwhat (?:does|do) .+ measure\b`),
		defineCapture: re(`^(?:and |so |ok |but )?(?:what (?:does|do|did|is meant by)|what's meant by)\s+(?:the\s+|a\s+|an\s+)?(?:term\s+|word\s+|phrase\s+|acronym\s+)?(.+?)\s+(?:mean|stand for|refer to|measure)\b|\b(?:meaning|definition) of\s+(?:the\s+)?(?:term\s+|word\s+)?(.+)$|^(?:please\s+)?define\s+(.+)$|^how (?:is|are|was|were|do you get|do they get) (?:the\s+)?(.+?)\s+(?:computed|calculated|derived|worked out|defined)\b`),
		defineLead:    re(`^(?:(?:and|so|ok|but|hey|hi|hello|hiya|heya|howdy|yo|sup|please|bot|oracle)\s*[,!]?\s+)*(?:what(?:'s| is| are| was|s)|wat(?:'s| is|s)|wht(?:'s| is)|explain|describe|tell me about|what do you know about|eli5|who is|who makes)\s+(?:an?\s+|the\s+)?(.+)$`),
		defineTail:    re(`\s+(?:in|on|for|of|from|with|at)\s+(?:the\s+)?(?:dragonfly|redis|valkey|keydb|garnet|benchmark|results?|data|context|this|here).*$|\s*\?.*$|\s+(?:and|&) (?:why|how|what).*$|\s+(?:in|for) this benchmark.*$|\s+mean(?:s)?$`),

		help:         re(`^(?:/?help|\?|usage|commands|menu|examples?|start|/start)$|\bwhat can (?:you|i) (?:do|ask|answer)\b|\bhow do (?:i|you) use (?:you|this|the bot)\b|\bwhat (?:questions )?can i ask\b|\bwhat do you (?:know|cover|answer)\b|\bhow does this (?:bot )?work\b|\bwhat are you\b|\bwho are you\b|\bwhat are your (?:capabilities|commands)\b|\bsample questions\b|\bexample questions\b|\bgive me (?:some )?examples\b`),
		measured:     re(`\bhow many (?:runs|measurements|data ?points|cells|combinations|results)\b(?: (?:are|were) (?:there|in|measured|recorded))?(?:\s*\?)?$|\bwhat (?:was|is|got|has been) (?:actually )?(?:measured|tested|benchmarked|covered|run)\b|\bwhat (?:data|runs|combinations) (?:do you have|exist|are there|were measured)\b|\b(?:coverage|grid)\b`),
		compare:      re(`\bvs\.?(?:\s|$)|\bversus\b|\bcompar\w*|\bthan\b|\bbeat(?:s|ing)?\b|\boutperform\w*|\bwinner\b|\brank\w*|\bleaderboard\b|\bdifference between\b|\bagainst\b|\bhead[- ]to[- ]head\b|\bwhich\b|\bbetter\b|\bworse\b|\bor\b`),
		superlative:  re(`\b(?:fastest|slowest|quickest|best|worst|highest|lowest|most|least|top|greatest|lower|higher|winner|wins?)\b`),
		multiple:     re(`\bhow many times\b|\b\d+(?:\.\d+)?\s*x\b|\btimes (?:faster|slower|more|less|higher|lower|better|quicker)\b|\bhow much (?:faster|slower|better|more|higher|lower|quicker)\b|\bby (?:what|which) factor\b|\bmultiple\b|\bratio between\b|\bx faster\b|\b(?:realistic|ceiling|cluster|single)\s*(?:/|to)\s*(?:realistic|ceiling|cluster|single) ratio\b`),
		scaling:      re(`\bscal(?:e|es|ed|ing|ability|able)\b|\bas (?:the )?(?:core count|cores?|number of cores) (?:grows?|increases?|goes up|rises?)\b|\bmore cores\b|\badd(?:ing)? cores\b|\bcore counts?\b|\bnumber of cores\b|\bacross (?:core counts|cores|all cores)\b|\bover cores\b|\bfrom \d+ (?:cores? )?(?:to|until|till|up to|all the way (?:up )?to) \d+\b|\b(?:group(?:ed)? by|by|across|over|vs\.?|versus|against) (?:cores_used|cores|core count|the cores)\b|\bovertak\w*|\bcross(?:es|ing)?[- ]?over\b|\bpass(?:es)?\b|\bcatch(?:es)? up\b|\bat what (?:core|number of cores|point)\b|\bhow many cores\b|\bsweet spot\b|\bdiminishing returns\b|\bflatten\w*|\bplateau\w*|\bwall\b|\bgrow(?:s|th)? with cores\b|\b(?:chang|grow|go|develop|evolv)\w* (?:until|till|up to|all the way (?:up )?to) \d+\b|\bper core count\b|\bsurpass\w*|\bwhen (?:does|do|will) .+ (?:beat|win|lead|overtake|pass|outrun)\b|\b(?:cores|shards|threads|core count) vs\.? (?:throughput|ops|latency|p\d+|performance)\b|\b(?:throughput|ops|latency|p\d+|performance) vs\.? (?:cores|shards|threads|core count)\b`),
		crossover:    re(`\bovertak\w*|\bcross(?:es|ing)?[- ]?over\b|\bpass(?:es)?\b|\bcatch(?:es)? up\b|\bat what (?:core|point|number of cores)\b|\bsurpass\w*|\bwhen does .+ (?:beat|win|lead|overtake|pass)\b`),
		effect:       re(`\beffects?\b|\bimpacts?\b|\baffects?\b|\bwhat (?:does|do|did|would) .+ do\b|\bhow (?:much )?(?:does|do|did) .+ (?:change|matter|help|hurt|affect|improve)\b|\bdoes .+ (?:matter|help|hurt)\b|\b(?:does|do|did|would|will) .+ make .+ (?:faster|slower|quicker|better|worse)\b|\bwhat happens (?:with|when|if|to)\b|\bwith (?:vs\.?|versus|and|or) without\b|\binfluence\b|\bbenefits?\b|\bgain from\b|\bsensitiv\w*\b|\bdepends? on\b|\bchanges? (?:when|with|if)\b|\bmake a difference\b|\bdifference does\b|\bhow much (?:does|do) .+ (?:give|add|cost)\b|\b(?:going to|gonna|will|would) (?:\S+ )?(?:kill|hurt|tank|cripple|wreck|halve|slow down|boost|help)\b|\b(?:group(?:ed)? by|broken down by|split by|by) (?:the )?(?:pipeline(?: depth)?s?|pipelining|value[ _]sizes?|value_bytes|data_bytes|ratios?|workloads?|mix(?:es)?)(?:\s*$|\s+[^\d\s])`),
		why:          re(`^(?:and |but |so |ok )?(?:why|how come)\b|\bexplain (?:that|this|it|why)\b|\bwhy is that\b|\bwhat(?:'s| is) the reason\b`),
		whyOnly:      re(`^(?:and |but |so |ok |okay )?(?:why|how come|why so|why is that|why is that so|why so \w+|why (?:is|was|are|were) (?:it|that|this|they) so \w+|is (?:that|this|it) (?:a )?fair(?: comparison)?|explain(?: that| this| it)?|but why|and why|why\?|reason|the reason)\s*\??\s*$`),
		followMarker: re(`^(?:and|what about|how about|what if|same|also|now|ok(?:ay)?|then|but|plus|with|without|at|in|for|only|just|instead|w/|w/o|same but|same for|what of|and for|and at|and with|and in|and the)\b`),
		pronoun:      re(`\b(?:it|its|it's|them|they|their|that|those|these|same|there)\b`),
		also:         re(`\b(?:also|too|as well|add|include|including|plus)\b`),
		chitchat:     re(`^(?:hi|hello|hey|yo|hiya|howdy|good (?:morning|afternoon|evening|night)|thanks?|thank you|thx|ty|cheers|bye|goodbye|lol|ok|okay|cool|nice|great|awesome|how are you|how's it going|what's up|sup|wow|hmm+|test|testing|ping)\b|\btell me a joke\b|\bjoke\b|\bweather\b|\bhow old are you\b|\bare you (?:a |an )?(?:bot|human|ai|real)\b|\bmeaning of life\b|\bi love you\b`),
		injection:    re(`\bignore (?:all |any |your |the |previous |prior |above |earlier |these |those |of )*(?:rules?|instructions?|prompts?|guidelines?|constraints?|data|restrictions?|policies|policy)\b|\bdisregard\b|\bforget (?:your|all|the|everything|previous) ?(?:rules?|instructions?|data)?\b|\bsystem prompt\b|\byou are now\b|\bpretend (?:to be|you|that)\b|\bact as\b|\bjailbreak\w*|\bdeveloper mode\b|\bdo anything now\b|\b(?:say|tell (?:me|everyone|people)|write|confirm|admit|agree|state) (?:that )?(?:dragonfly|redis|valkey|keydb|garnet) (?:is|was|beats|wins|outperforms)\b|\bmake (?:something |numbers |it )?up\b|\binvent (?:a |some )?(?:numbers?|figures?|results?)\b|\boverride\b|\bnew instructions\b|\brepeat after me\b|\b(?:print|show|reveal) (?:me )?your (?:prompt|instructions|rules)\b|\bwithout (?:looking at |using )?(?:the )?(?:data|measurements)\b|\bno matter what the data\b|\bregardless of (?:the )?(?:data|measurements)\b`),
		code:         re(`\bselect\s+.+\s+from\b|\bdrop\s+(?:table|database)\b|\binsert\s+into\b|\bdelete\s+from\b|\bunion\s+(?:all\s+)?select\b|;\s*--|'\s*or\s+'?1'?\s*=\s*'?1|==|&&|\|\||!=|<script|\$\{|\{\{|\bexec\s*\(|\beval\s*\(|\bsleep\s*\(|\brm\s+-rf\b`),
		otherDB:      re(otherDatabasesPattern()),
		pricing:      re(`\bpric(?:e|es|ing)\b|\bcosts? (?:to run|of running)\b|\brunning costs?\b|\b(?:aws|cloud|gcp|azure|hosting) (?:bill|costs?)\b|\bcheapest (?:\w+ )?to (?:run|host)\b|\bhow much (?:does|do|would|will) .+ cost\b|\bcosts? per (?:month|hour|year)\b|\bper month\b|\bsubscription\b|\bdollars?\b|\$\d|\bdragonfly cloud\b|\bmanaged (?:service|redis|valkey|offering)\b|\belasticache\b|\bmemorystore\b|\bupstash\b|\bazure cache\b|\bredis cloud\b|\bredis enterprise\b|\bstock\b|\bshares\b|\bipo\b|\bfunding\b|\bsalary\b|\bhiring\b`),
		programming:  re(`\binstall\w*\b|\bdocker[- ]compose\b|\bkubernetes\b|\bk8s\b|\bhelm\b|\bterraform\b|\bwrite (?:me )?(?:a |an |some )?(?:code|script|function|program|poem|story|essay|song)\b|\bpython\b|\bjavascript\b|\btypescript\b|\bjava\b|\bgolang\b|\brust\b|\bnode\.?js\b|\bphp\b|\bruby\b|\bc\+\+|\bc#|\bregex\b|\bstack ?overflow\b|\bcompile\b|\bdebug\b|\bbug in my\b|\bconnection string\b|\bhow (?:do|can) i (?:connect|configure|set up|setup|deploy|migrate|upgrade|back ?up|secure)\b|\btutorial\b|\bhow to (?:use|connect|configure|set up|setup|deploy|migrate|upgrade)\b`),
		general:      re(`\bcapital of\b|\bwho (?:won|invented|wrote|is the president)\b|\bpresident\b|\brecipe\b|\bmovie\b|\bfootball\b|\bsoccer\b|\bbitcoin\b|\bcrypto\b|\bhoroscope\b|\btranslate\b|\bwhat time is it\b|\bwhat day is it\b|\bnews\b|\bpoem\b|\bsong\b|\bstory\b|\bhomework\b|\bmath\b|\bsquare root\b|\bcalculate\b`),
		coresTopic:   re(`\bcores?\b|\bcore counts?\b|\bcpus?\b|\bshards?\b|\bthreads?\b`),
		ratioTopic:   re(`\bratios?\b|\b(?:read|write|get|set)[- /]?(?:write|read|set|get)?\s*(?:ratio|mix|split|balance)\b|\bworkloads?\b|\bmix(?:es)?\b|\bwrites?\b|\bset:get\b|\bget:set\b`),
		sessionTopic: re(`\bsessions?\b|\bcross[- ]session\b`),
		domain:       re(`\bbenchmark\w*|\bmeasur\w*|\bruns?\b|\bdataset\b|\bmemtier\b|\bops\b|\bin[- ]memory\b|\bkey[- ]value\b|\bcache\b|\bcaching\b|\bdata ?stores?\b|\bclients?\b|\bnuma\b|\bnodes?\b`),

		claimCue: re(`\bclaims?\b|\bclaimed\b|\bsays?\b|\bsaid\b|\badvertis\w*|\bmarketing\b|\bvendor\b|\baccording to\b|\bis it true\b|\btrue that\b|\breally\b|\bdoes (?:it|that) hold\b|\bpromis\w*|\bbrag\w*|\bofficial(?:ly)?\b|\bwebsite\b|\bhomepage\b|\bblog\b|\bdocs?\b|\bpublished\b|\bsupposedly\b|\bstated?\b|\bquoted?\b`),
	}
	g.whichOfThem = re(`\bwhich (?:1|of (?:them|the 2|these|those|the engines))\b`)
	g.bothOfThem = re(`\b(?:compare (?:them|both|the 2|these|those)|both of them|both engines|the 2 of them|them both|all of them)\b`)
	g.differenceOf = re(`\bdifference (?:between|of)\b|\bhow (?:do|does) .+ differ\b|\bvs\.? what\b`)
	g.cpuAsk = re(`\bcpu\s*(?:usage|utili[sz]ation|utilisation|load|%|percent(?:age)?|busy|time|consumption|use)\b|\bcpu%|\bhow busy (?:is|was|were) the (?:cpu|server|client)s?\b|\bcpu[- ]bound\b|\bcores? (?:usage|utili[sz]ation)\b`)
	g.boundAsk = re(`\bclient[- ]?(?:limited|bound|bottleneck(?:ed)?)\b|\bserver[- ]?(?:bound|saturated|limited)\b|\bbottleneck(?:ed|s)?\b|\bwhat limits\b|\bwho (?:is|was) the bottleneck\b`)
	g.licenceAsk = re(`\blicen[cs](?:e|es|ed|ing)\b|\bopen[- ]?source\b|\bbsl\b|\bagpl\b|\bsspl\b|\brsal(?:v2)?\b|\bproprietary\b|\bfree (?:to use|software|of charge)\b|^(?:is|are) (?:\w+ ){1,4}free\b`)
	g.setupAsk = re(`\bhow (?:was|were|did) (?:the |this |you )?(?:benchmark|test|tests|runs?|measurements?|it)\b.*\b(?:run|done|measured|made|set up|conducted|driven)\b|\bwhat (?:is|was) (?:in )?the dataset\b|\bwhat(?:'s| is) in the (?:data|dataset)\b|\bmethodology\b|` + `\b(?:what|which) (?:dragonfly |redis |valkey |keydb |garnet )?versions?\b|\b(?:what|which)\s+(?:exact\s+)?(?:versions?|releases?|builds?|hardware|machines?|instances?(?:\s+types?)?|boxe?s|cpus?|processors?|setup|kernel|os|client machines?|aws instances?)\b|\bversions?\s+(?:of\s+\w+\s+)?(?:was|were|is|are|did you)\s+(?:tested|used|benchmarked|run|measured|use)\b|\bwhat (?:was|were|is) (?:the )?(?:hardware|setup|test setup|test rig|rig|versions?)\b|\bwhat did (?:you|the benchmark|the author) (?:run|test) on\b`)
	g.useAsk = re(`^(?:and |so |but )?(?:does|did|do|is|was|are|were)\b.*\b(?:use|uses|using|used|run(?:s|ning)? (?:with|on)|support(?:s|ed)?|enabled?)\b`)
	g.doubtAsk = re(`^(?:and |but |so |ok |okay )?(?:is|was|are|were) (?:that|this|it|those|these) really\b|\breally (?:the|its|their|that's|it's) (?:max|maximum|peak|limit|ceiling|best|top|most)\b|\b(?:is|was) (?:that|this) (?:the|its|their) (?:real |true |actual |absolute )?(?:max|maximum|peak|limit|ceiling)\b|\bcan (?:it|they|that) go (?:any )?higher\b|\bcould (?:it|they) (?:go|do) (?:any )?(?:higher|more|better)\b`)
	g.worstWord = re(`\b(?:slowest|worst|poorest|weakest)\b`)
	g.bestWord = re(`\b(?:fastest|best|quickest|top|winner|wins?|better|faster)\b`)
	g.highWord = re(`\b(?:highest|largest|biggest|maximum|max|most)\b`)
	g.lowWord = re(`\b(?:lowest|smallest|minimum|min|least)\b`)
	g.features = newFeatures()
	g.claims = newClaimRules()
	g.claimVCPU = re(`\bvcpus?\b`)
	g.jsonObject = re(`(?s)\{.*\}`)
	g.ratioShape = re(`^\d{1,3}:\d{1,3}$`)
	return g
}
