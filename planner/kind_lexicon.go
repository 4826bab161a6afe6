package planner

// kindGrammar holds the patterns the kind rules match against normalized
// text. It is built once per Planner and never changed afterwards.
type kindGrammar struct {
	greeting, capability *rx

	compoundJoin, compoundStrong, compoundStrongJoin, compoundLead, defineAnd, anotherAsk *rx

	correctionLead, correctionExplicit, notThis *rx

	extrapolate, doubled *rx

	provenance, provClient, provServer, provTool, provDuration, provReps, provDates, provVersions, provSource *rx

	searchScope, searchHigh, searchLow, searchBest, searchWorst, searchRuns, misses, slowestRequest *rx
	connErrors, cellNoun, runNoun                                                                   *rx

	recommend *rx

	// leanerWords and heavierWords say which engine stores a key in less or
	// more memory ("is valkey leaner than redis?").
	leanerWords, heavierWords *rx

	spread *rx

	yesNoLead, yesNoTag, always, never, better, worse, same, everyOther *rx

	unitMicro, unitMilli, unitSeconds, unitK, unitM, unitOps, share, slower *rx
}

func newKindGrammar() *kindGrammar {
	re := newRx
	return &kindGrammar{
		greeting:   re(greetingPattern),
		capability: re(capabilityPattern),

		// A second ask starts after a question mark, a semicolon, or an
		// "and"/"also"/"plus" followed by a question word.
		// A part these open asks again ("how about with 1kb values?"); one
		// they do not may only qualify the ask before it (qualifies).
		anotherAsk:     re(`^(?:and|what about|how about|what if|same|also|plus|now|then|but|instead|versus|vs|compared?)\b`),
		compoundStrong: re(`\?\s+\S|;|\band also\b|\balso,|,\s*also\b|\bseparately\b|[,.]\s+second(?:ly)?,|\b(?:two|2|three|3|couple of|few|several|some) (?:quick |short |small |related |separate )?(?:questions|things|qs)\b|\. (?:then|also|next)\b|(?:^|\s)\(?1 ?[).]\s.*\s\(?2 ?[).]\s`),
		// After a question mark, a semicolon, "also," or "plus" a new ask
		// may start with any word ("…? and valkey at 16 cores?").
		compoundStrongJoin: re(`\?\s+(?:(?:and|also|plus|then|and then|and also|second(?:ly)?|next)\b[,:]?\s*)?|;\s*(?:(?:and|also|then)\b[,:]?\s*)?|\.\s+(?:then|also|and|second(?:ly)?|next)\b[,:]?\s*|,?\s+also\b[,:]?\s*|[,.]\s+second(?:ly)?,\s*|\btwo questions\b[:,]?.*?,\s+and\s+|,?\s+(?:and\s+)?separately\b[,:]?\s*|\s+\(?[2-4][).]\s+`),
		compoundLead:       re(`^(?:(?:hey|hi|hello|ok|okay|so|please|pls|bot|oracle)[,!]?\s+)*(?:(?:a\s+)?(?:quick\s+)?(?:two|2|three|3|a couple of|a few|couple of|couple|some|quick|several) (?:quick |short |small |related |separate )?(?:questions|things|qs)|first(?:ly)?|\(?1[).])(?:\b|\s)[:,]?\s*`),
		defineAnd:          re(`^(?:define|what is|what's|what are|what does)\b.*?\s+and\s+`),
		compoundJoin:       re(`(?:\?|;|,?\s+(?:and also|and then|and|also|plus|then)|\s+-{1,2}|\s+—)\s+(?:what|what's|how|which|is|are|does|do|did|can|could|who|where|when|why|tell me|show me|give me|list|compare)\b`),

		correctionLead:     re(`^(?:(?:oh|oops|sorry|my bad|apologies|correction|wait|hm+|er+m?|ah|ugh|no+|nope|nah|not quite|scratch that|actually|i mean|i meant|meant|rather|instead)\b[\s,.:;!—–-]*)+(?:i (?:meant|mean|wanted|was asking about|was asking for|asked about)\s+|make (?:that|it)\s+|change (?:that|it) to\s+|(?:try|use|do)\s+|what about\s+|for\s+)?|^make (?:that|it)\s+|^change (?:that|it|the \w+) to\s+|^i meant\s+`),
		correctionExplicit: re(`\b(?:meant|mean|make (?:that|it)|change (?:that|it|the \w+) to|instead|rather|correction|not quite|scratch that)\b`),
		notThis:            re(`\b(?:not|instead of|rather than|in place of)\s+`),

		extrapolate: re(`\bestimat\w*|\bextrapolat\w*|\bproject(?:ed|ion|ions)?\b|\bpredict\w*|\bforecast\w*|\bguess\w*|\bexpect(?:ed)?\b|\bwould (?:it|they|that|dragonfly|redis|valkey|keydb|garnet|we) (?:do|get|reach|hit|scale|be|manage|handle|achieve|see|look)\b|\bwhat would\b|\bhow (?:much|fast|far|many) (?:would|will|could)\b|\bif (?:we|i|you|one) (?:doubled?|tripled?|quadrupled?|had|gave it|went to|move[ds]? to|used|use|ran (?:it |them )?on|run (?:it |them )?on|scaled? (?:it |them )?(?:up )?to|added)\b|\b(?:doubl\w+|tripl\w+) the (?:cores|cpus?|threads|pipeline)\b|\btwice (?:the|as many) (?:cores|cpus?|threads)\b|\bwill \w+ (?:scale|reach|do|get|hit|handle|manage)\b|\bscale (?:up )?to \d+`),
		doubled:     re(`\b(?:doubl\w+|twice)\b`),

		provenance:   re(`\b(?:what|which) (?:box|boxes|machine|machines|host|hosts|instance|instances|instance types?|server|servers|hardware|vm|vms|ec2|cpu|cpus|processor|client|tool|load tool|version|versions|date|dates|os|kernel)\b|\bclient (?:machine|box|host|instance|side|hardware)\b|\bran the (?:client|load|server|benchmark|tests?|runs?)\b|\bload (?:tool|generator|client)\b|\bmemtier\b|\bhow long (?:was|were|did|does|do|is|are)\b|\bhow long (?:each|every|the|a|one)? ?(?:run|runs|test|tests|benchmark|measurement)\b|\b(?:duration|test[- ]?time|test_time)\b|\bwhen (?:was|were|did) (?:it|they|the (?:runs?|benchmark|tests?|data|measurements?|sessions?)) ?(?:run|measured|captured|taken|done|happen)?\b|\bwhen (?:was|were|did) (?:\w+ ){1,3}(?:run|measured|captured|taken|tested|benchmarked|happen|recorded)\b|\bwhat dates?\b|\bwhich dates?\b|\bprovenance\b|\bwhere (?:did|does|do) (?:the |these |those |this |that )?(?:\S+ ){0,3}come from\b|\b(?:source|sources|src|origin) (?:of|for) (?:the |these |this )?(?:data|numbers|runs|figures|measurements|csvs?|files?|dataset|\S+\.csv)\b|\b(?:which|what) (?:repo|repository|commit|git commit)\b|\bhow many (?:repetitions|reps|times (?:was|were) (?:each|every))\b|\bwho ran\b|\bclient (?:threads|connections|settings)\b|\bthreads and connections\b|\bconnections per\b|\bversions? (?:tested|used|of)\b|\b(?:tested|used) versions?\b|\bsoftware versions?\b`),
		provClient:   re(`\bclient\b|\bload (?:generator|tool)\b|\bmemtier\b`),
		provServer:   re(`\bserver\b|\bhardware\b|\bmachines?\b|\bbox(?:es)?\b|\bhosts?\b|\binstances?\b|\bec2\b|\bcpus?\b|\bprocessor\b|\bvms?\b`),
		provTool:     re(`\btool\b|\bmemtier\b|\bload (?:generator|client)\b|\bthreads\b|\bconnections\b|\bsettings\b`),
		provDuration: re(`\bhow long\b|\bduration\b|\btest[- _]?time\b|\bseconds\b`),
		provReps:     re(`\brepetitions?\b|\breps?\b|\bhow many times\b`),
		provSource:   re(`\b(?:source|sources|src|origin|repo|repos|repository|commit|github|raw (?:data|csvs?|files?|results))\b|\bc[ao]me from\b|\bcsv files?\b|\bcsvs\b|\.csv\b`),
		provDates:    re(`\bwhen\b|\bdates?\b|\bday\b|\bcaptured\b`),
		provVersions: re(`\bversions?\b|\breleases?\b`),

		searchScope:    re(`\bany (?:\w+ )?(?:run|runs|cell|cells|setup|setups|config|configs|configuration|configurations|test|tests|measurement|measurements|combination|combinations|rep|reps|repetition|repetitions)\b|\bin any\b|\bever\b|\banywhere\b|\boverall\b|\bacross (?:all|every|everything|the (?:whole|entire) \w+)\b|\b(?:whole|entire) (?:dataset|data set|data|benchmark)\b|\bin the (?:dataset|data set|data|runs|measurements)\b|\b(?:of|in|across|over|among) (?:all|every) (?:the )?(?:runs|cells|measurements|tests|setups|configurations|configs|combinations|data|results|rows|reps|repetitions)\b|\bevery (?:run|cell|measurement|setup|configuration|combination)\b|\bseen\b|\brecorded\b|\bwhich (?:cells|setups|configurations|configs|combinations|runs|rows|settings)\b|\bof all time\b|\bin total\b|\bwhat (?:cells|setups|configurations|combinations|runs)\b`),
		searchHigh:     re(`\b(?:highest|max|maximum|peak|top|most|biggest|largest|greatest|record|fastest|quickest|best throughput|highest throughput|worst latency|worst p\w+|worst tail|longest)\b`),
		searchLow:      re(`\b(?:lowest|min|minimum|least|smallest|fewest|slowest|bottom|best latency|best p\w+|shortest)\b`),
		searchBest:     re(`\bbest\b`),
		searchWorst:    re(`\bworst\b`),
		searchRuns:     re(`\bany (?:\w+ )?(?:run|runs|rep|reps|repetition|repetitions|test|tests|measurement|measurements)\b|\bever\b|\bseen\b|\brecorded\b|\bsingle (?:run|rep|repetition|measurement)\b|\bindividual (?:run|runs|reps|repetitions)\b|\bwhich runs\b|\bin any\b`),
		misses:         re(`\bmiss(?:es|ed|ing)?\b|\bcache miss\w*\b|\bhit rate\b.*\b(?:below|under|less than|lower than|not)\b|\bhit rate of less\b`),
		slowestRequest: re(`\bslowest (?:request|response|reply|call|command|op|operation|query)s?\b|\blongest (?:request|response|wait|call|command|op|operation)s?\b|\bworst[- ]case (?:latency|request|response)\b|\bmax(?:imum)? (?:latency|response time|request time)\b|\bhighest (?:latency|response time)\b|\bworst (?:latency|response time)\b`),
		connErrors:     re(`\b(?:connection|conn|connect) (?:errors?|failures?)\b|\bconn_errors\b|\bfailed connections?\b|\berrors\b`),
		// A search names what it is over: cells (medians) or single runs.
		cellNoun: re(`\b(?:cells?|setups?|configurations?|configs?|combinations?|settings)\b`),
		runNoun:  re(`\b(?:runs|run|reps?|repetitions?|tries|trials?|attempts?|iterations?|(?:individual|single|separate|each|every|any|one|a) (?:measurements?|try))\b(?:\s+(\w+))?`),

		recommend: re(`\brecommend\w*|\bshould (?:we|i|one|my team|our team) (?:use|run|pick|choose|go with|deploy|adopt|take|select|prefer|standardi[sz]e on|bet on)\b|\b(?:what|which)(?: one| engine| store| database| db| of them| option)? (?:should|would you|do you|would) (?:we|i|one)? ?(?:use|run|pick|choose|go with|recommend|suggest|deploy|take|select)\b|\bbest (?:choice|option|pick|engine|fit|bet|candidate) for\b|\bwhat (?:to|do you) (?:use|run|pick|suggest)\b|\bsuggest\w*\b|\badvi[cs]e\b|\bgood fit\b|\bwhich (?:is|would be) (?:the )?(?:better|best) (?:choice|option|fit|bet)\b|\bhelp (?:me|us) (?:choose|pick|decide)\b|\bdecid(?:e|ing) between\b|\bchoos(?:e|ing) between\b|\bwhat fits\b|\b(?:your|the|a) (?:pick|call|verdict)\b|\bverdict\b|\bpick (?:one|between)\b|\bshould (?:we|i) (?:migrate|switch|move)\b|\breason to (?:pick|choose|prefer)\b|\bworth (?:migrating|switching|moving)\b|\bwhat (?:do|can|could) (?:we|i) (?:use|run|pick|choose|deploy)\b|\b(?:sane|good|safe|smart|right|wise|reasonable|solid) (?:choice|pick|bet|option)\b|\bshould (?:we|i) (?:just )?(?:\S+ ){0,5}(?:and|n|&) (?:use|switch to|move to|go with)\b|\b(?:which|what) (?:engine|database|db|store|image|one)(?: image)? should (?:go|we|i)\b`),

		spread: re(`\bspread\b|\bvarian(?:ce|ces)\b|\bvariation\b|\bvaried\b|\bvary\b|\bconsisten(?:t|cy)\b|\bstable\b|\bstability\b|\brepeatab\w*|\breproducib\w*|\bnois(?:e|y)\b|\bjitter\w*|\bper[- ]?(?:rep|reps|repetition|repetitions|run)\b|\beach (?:rep|repetition|run)\b|\bevery (?:rep|repetition)\b|\bindividual (?:runs|reps|repetitions|values)\b|\b(?:repetitions|reps)\b|\bhow many runs\b|\bstandard deviation\b|\bstd ?dev\b|\bmin(?:imum)? (?:and|&|/) max(?:imum)?\b|\brange of (?:the )?(?:runs|reps|repetitions|values)\b|\bhow long (?:was |were |did )?(?:each|every|a|one|the) (?:run|rep|test)\b|\bdiffer(?:ence)? between (?:the )?(?:runs|reps|repetitions)\b|\bagree\b|\bclose (?:together|to each other)\b|\bsame (?:each|every) time\b|\bfluke\b|\bone[- ]off\b|\boutlier\w*|\bwobbl\w*|\bbounc\w*(?: around)?\b|\bjump(?:y|iness|ed around|ing around|s around| around)\b|\bfluctuat\w*|\bsw(?:ing|ings|inging|ung)(?: around)?\b|\bscatter\w*|\b(?:un)?stead(?:y|iness|ily)\b|\bdrift\w*|\berratic\w*|\ball over the place\b|\bwander\w*|\boscillat\w*|\bvolatil\w*|\bwiggl\w*|\bflak(?:y|iness)\b`),

		yesNoLead:    re(`^(?:so |but |and |surely |really |honestly |ok |okay |hey |bot |i (?:think|thought|assume|heard|read) )*(?:is|isn't|isnt|is not|are|aren't|arent|does|doesn't|doesnt|do|don't|dont|did|didn't|didnt|can|can't|cant|was|wasn't|wasnt|will|won't|has|hasn't|have|haven't)\b`),
		yesNoTag:     re(`(?:isn't it|is it not|aren't they|doesn't it|don't they|didn't it|right|correct|true|yes|yeah|no|innit|surely|agreed|confirm|isnt it|am i right|am i wrong)\s*[?!.]*\s*$`),
		always:       re(`\balways\b|\bevery(?:where| time| case| setting| condition| core count| config\w*)?\b|\bacross the board\b|\bin all (?:cases|settings|conditions|configurations|tests|runs)\b|\bconsistently\b|\bwithout exception\b|\bno matter\b|\bin any (?:setting|case|condition|configuration)\b|\bat every\b|\ball the time\b`),
		never:        re(`\bnever\b|\bnot once\b|\bno (?:setting|case|condition|configuration) where\b`),
		same:         re(`\b(?:about|roughly|basically|pretty much|more or less|essentially|just|really)? ?the same\b|\bcomparable\b|\bsimilar(?:ly)?\b|\bon par\b|\bneck and neck\b|\bequal(?:ly)?\b|\beven\b|\bsame (?:speed|throughput|latency|performance)\b|\bas (?:fast|quick) as\b|\bno (?:real )?difference\b`),
		leanerWords:  re(`\blean(?:er|est)?\b|\bless (?:memory|ram|bytes|space)\b|\bsmaller (?:footprint|keys?)\b|\bfewer bytes\b|\bmore (?:memory[- ])?efficient\b|\bsaves? (?:memory|ram)\b`),
		heavierWords: re(`\bmore (?:memory|ram|bytes|space)\b|\b(?:bigger|larger|heavier) (?:footprint|keys?)\b|\bheavier\b|\bhungrier\b|\bless (?:memory[- ])?efficient\b`),
		better:       re(`\bfaster\b|\bquicker\b|\bahead\b|\bbeats?\b|\bbeating\b|\bwins?\b|\bwinning\b|\bbetter\b|\boutperform\w*|\bout-?pac\w+|\bout-?(?:runs?|ran|do|does|did|strips?|stripped|class(?:es)?|shines?)\b|\bedges? (?:out|past)\b|\bhigher throughput\b|\bmore throughput\b|\blower (?:latency|p\d+\w*|tail)\b|\b(?:latency|p\d+\w*|tail) (?:is |was )?lower\b|\bleads?\b|\bon top\b|\bsuperior\b|\bdominat\w+|\bcrush\w*|\bsmokes?\b|\bfastest\b|\bthe best\b`),
		worse:        re(`\bslower\b|\bbehind\b|\bloses?\b|\blosing\b|\bworse\b|\bunderperform\w*|\blower throughput\b|\bless throughput\b|\bhigher (?:latency|p\d+\w*|tail)\b|\b(?:latency|p\d+\w*|tail) (?:is |was )?higher\b|\blags?\b|\blagging\b|\btrails?\b|\binferior\b|\bslowest\b|\bthe worst\b`),
		everyOther:   re(`\b(?:every|each|all(?: the)?|any) other (?:engines?|stores?|databases?|dbs?|ones?)\b|\beverything else\b|\bthe (?:rest|others|competition|field)\b|\b(?:every|each|all(?: the)?|any) (?:engines?|others?|competitors?)\b|\beverything\b|\beveryone\b`),

		unitMicro:   re(`µs|μs|\d ?us\b|\bin us\b|\busec\w*|\bmicro ?s(?:ec(?:ond)?s?)?\b|\bmicroseconds?\b`),
		unitMilli:   re(`\bin (?:ms|msec|millis|milliseconds?)\b|\bas milliseconds\b`),
		unitSeconds: re(`\bin (?:s|sec|secs|seconds)\b|\bas seconds\b`),
		unitK:       re(`\bin (?:k|kops|thousands?|k ?ops(?:/s)?)\b|\bthousands of ops\b|\bas thousands\b`),
		unitM:       re(`\bin (?:m|mops|millions?|m ?ops(?:/s)?)\b|\bmillions of ops\b|\bas millions\b`),
		unitOps:     re(`\bin (?:plain |raw |exact |whole )?(?:ops|ops/s|ops per second|operations per second)\b|\bexact (?:ops|number|figure)\b|\bfull number\b`),
		share:       re(`\b(?:what|which|how big a|how large a|how much of a) (?:share|percentage|percent|fraction|proportion|part|portion|%) of\b|\bas a (?:percentage|percent|fraction|share|proportion) of\b|\bwhat (?:%|percent) of\b|\bhow much of\b|\bhow close (?:does|do|did|is|are) \w+ (?:get|come)? ?to\b|\bwhat fraction\b|\bhow many percent of\b|\bpercent(?:age)? of\b`),
		slower:      re(`\bhow (?:much|far) (?:slower|worse|less|lower|behind)\b|\bby how much (?:slower|worse|less|lower)\b|\bhow (?:much|many percent) (?:slower|worse|less)\b`),
	}
}
