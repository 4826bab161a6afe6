package planner

import (
	"slices"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// claimRule recognises the wording of one recorded claim.
type claimRule struct {
	id string
	// re is the claim's own wording ("25x", "30% less memory").
	re *rx
	// also, when set, must match too (the subject the number is about).
	also *rx
	// engines limits the claim to questions naming none of the engines or
	// at least one of these.
	engines []string
	// cue: the wording counts only next to a claim word ("says", "true").
	cue bool
	// topic is the claim's subject: "throughput", "memory", "latency" or
	// "other"; it picks the metric when the knowledge base is absent.
	topic string
}

// newClaimRules lists the recorded claims (FACTS.md §6) and the engine
// status notes answered the same way, in the order they are tried; the
// first that matches wins.
func newClaimRules() []claimRule {
	re := newRx
	return []claimRule{
		{id: "claim:valkey-9-billion-rps", topic: "throughput",
			re:      re(`\bbillion\b|\b1(?:\.0+)?\s*e\s*9\b|\b1[ ,.]?000[ ,.]?000[ ,.]?000\b|\b1\s*b\s*(?:rps|qps|ops|req\w*)\b|\b2,?000[- ]?nodes?\b`),
			engines: []string{"valkey"}},
		{id: "claim:dragonfly-vs-valkey-gcp", topic: "throughput",
			re:      re(`\b4\.5\s*(?:x|×|times|fold)(?:\s|$|\b)|\bgcp\b|\bgoogle cloud\b|\bgoogle compute\b`),
			engines: []string{"dragonfly", "valkey"}},
		{id: "claim:redis-8-8", topic: "throughput",
			re:      re(`\bredis 8\.8\b|\b(?:68|83|74)\s*%|\bxreadgroup\b`),
			engines: []string{"redis"}},
		{id: "engine-status:keydb", topic: "other",
			re:      re(`\babandon\w*|\bdead\b|\bunmaintained\b|\bmaintained\b|\bdiscontinued\b|\bdeprecated\b|\bend of life\b|\beol\b|\blast release\b|\bstill (?:developed|alive|active|supported|around|a thing)\b|\bdevelopment\b.*\b(?:stopped|halted|ended|dead|status|over)\b|\b(?:project )?status\b|\bgave up on\b|\bno longer (?:developed|maintained|supported)\b|\bstopped (?:developing|development|updating|maintaining)\b`),
			also:    re(`\bkeydb\b|\bsnap(?:chat)?(?:'s| s)? fork\b`),
			engines: []string{"keydb"}},
		{id: "claim:thirdparty-redis9-df120", topic: "throughput",
			re:      re(`\bredis 9\b.*\bdragonfly 1\.20\b|\bdragonfly 1\.20\b.*\bredis 9\b|\b40\s*% (?:faster|higher|more|quicker|better|throughput)\b|\b35\s*% less memory\b|\b72[- ]hour\b|\binfoq\b|\b1 million concurrent\b|\binfra-bench\b`),
			engines: []string{"dragonfly", "redis"}},
		{id: "claim:dragonfly-25x", topic: "throughput",
			re:      re(`\b25\s*x\b|\b25\s*(?:times|fold)\b|\b25-fold\b|\b3\.97\s*m\b|\b3\.8\s*m qps\b`),
			engines: []string{"dragonfly"}},
		{id: "claim:dragonfly-memory", topic: "memory",
			re:      re(`\b30\s*%|\b30\s*(?:-|to)\s*60\s*%|\b275\s*gb\b|\b500\s*gb\b`),
			also:    re(`\bmemory\b|\bram\b|\befficien\w*|\bfootprint\b|\bleaner\b|\bless\b|\bbytes\b|\butili[sz]ation\b`),
			engines: []string{"dragonfly"}},
		{id: "claim:dragonfly-sub-ms-p99", topic: "latency",
			re:      re(`\bsub[- ]?(?:1\s*)?(?:-\s*)?(?:ms|millisecond)\w*|\b(?:under|below|less than|within|<)\s*(?:a|1)?\s*(?:ms|millisecond)\b`),
			engines: []string{"dragonfly"}},
		{id: "claim:dragonfly-millions-qps", topic: "throughput",
			re:      re(`\bmillions? of (?:qps|ops|queries|requests|operations)\b`),
			engines: []string{"dragonfly"}},
		{id: "claim:dragonfly-pipeline30", topic: "throughput",
			re:      re(`\b10\s*m(?:illion)? sets?\b|\b15\s*m(?:illion)? gets?\b`),
			engines: []string{"dragonfly"}},
		{id: "claim:dragonfly-pipeline30", topic: "throughput",
			re:      re(`\bpipelin\w* (?:depth )?(?:of )?30\b|\b30[- ]deep\b|\bdepth 30\b`),
			engines: []string{"dragonfly"}, cue: true},
		{id: "claim:redis-40-shard", topic: "throughput",
			re:      re(`\b40[- ]?shards?\b|\b13 years\b|\bredis(?:'s)? (?:ltd|blog|counter[- ]?benchmark)\b|\b18\s*%?\s*(?:-|to)\s*40\s*%`),
			engines: []string{"redis", "dragonfly"}},
		{id: "claim:keydb-per-node", topic: "throughput",
			re:      re(`\bkeydb\b.*\bmulti[- ]?thread\w*|\bmulti[- ]?thread\w* keydb\b`),
			engines: []string{"keydb"}},
		{id: "claim:redis-docs-placement", topic: "other",
			re: re(`\btaskset\b|\bnumactl\b|\bplacement advice\b|\bsame (?:physical )?(?:cpu|socket)\b|\b(?:client|server|memtier)s? (?:should )?(?:be )?(?:placed|pinned|located)\b|\b(?:client|server) placement\b|\bwhere (?:should|to|do (?:i|you)|does) (?:i |you )?(?:the )?(?:benchmark )?(?:client|memtier|load generator)\b`)},
		{id: "claim:redis-docs-single-threaded", topic: "other",
			re:      re(`\bsingle[- ]?thread(?:ed)?\b|\bmulti[- ]?thread(?:ed)?\b|\bwhy (?:is|was|were|are) (?:redis|valkey)(?: and (?:redis|valkey))? (?:only )?(?:(?:run|tested|benchmarked|measured|used) (?:as )?(?:an? )?clusters?|(?:as )?an? clusters?)\b|\bwhy (?:no|not (?:a )?) ?single[- ]process (?:redis|valkey)\b|\bredis docs?\b`),
			engines: []string{"redis", "valkey"}},
		{id: "claim:garnet-resp-bench", topic: "throughput",
			re: re(`\bresp\.?bench\w*|\bmicrosoft(?:'s)? (?:benchmarks?|claims?|results?|numbers|says)\b|\bgarnet(?:'s)? (?:own )?(?:claims?|says|benchmarks?)\b|\bbetter scalability than\b|\bscales better than (?:redis|keydb)\b`)},
		{id: "claim:keydb-per-node", topic: "throughput",
			re:      re(`\bper[- ]node\b|\boutperforms? redis\b`),
			engines: []string{"keydb"}},
		{id: "claim:valkey-8-0", topic: "throughput",
			re:      re(`\b1\.2\s*m(?:illion)?\b|\b380\s*k\b|\bvalkey 8\.0\b.*\b(?:qps|claims?|faster|throughput|says)\b`),
			engines: []string{"valkey"}},
		{id: "claim:valkey-8-1", topic: "memory",
			re:      re(`\b20 ?(?:b|bytes) (?:per|/|a) key\b|\bnew hash ?table\b|\bsaves? (?:about )?20 bytes\b|\b10\s*% more (?:pipelined )?throughput\b|\bvalkey 8\.1\b.*\b(?:claims?|saves?|hash ?table|says)\b`),
			engines: []string{"valkey"}},
		{id: "claim:momento-valkey", topic: "throughput",
			re: re(`\bmomento\b|\bvalkey turns 1\b|\bc8g\b`)},
		{id: "claim:other-public-benchmarks", topic: "other",
			re: re(`\btidwall\b|\bkoron\b|\bcache-benchmarks\b|\bother (?:public |published |independent )?benchmarks?\b|\bredis-benchmarks-specification\b`)},
		{id: "claim:valkey-site", topic: "other",
			re: re(`\bvalkey\.io\b`)},
	}
}

// matchClaim returns the first claim rule the text matches, given the
// engines the question names.
func (g *grammar) matchClaim(text string, engines []string) (claimRule, bool) {
	cue := g.claimCue.MatchString(text)
	for _, c := range g.claims {
		if c.cue && !cue {
			continue
		}
		if !c.re.MatchString(text) {
			continue
		}
		if c.also != nil && !c.also.MatchString(text) {
			continue
		}
		if len(c.engines) > 0 && len(engines) > 0 && !slices.ContainsFunc(engines, func(e string) bool { return slices.Contains(c.engines, e) }) {
			continue
		}
		return c, true
	}
	return claimRule{}, false
}

// claimConditions returns the run conditions every measured counter-figure
// of a claim shares (its knowledge entry's run measures): a knob the
// measures disagree on, or that no measure sets, is left zero. A claim
// plan uses them where the question set nothing, so its headline speaks of
// the cells the claim is checked against (8 cores for an 8-vCPU claim,
// 1 KB values for a 1 KB claim).
func (p *Planner) claimConditions(id string) analytics.CellKey {
	if p.kb == nil {
		return analytics.CellKey{}
	}
	cl, ok := p.kb.Claim(id)
	if !ok {
		return analytics.CellKey{}
	}
	var keys []analytics.CellKey
	for _, m := range cl.Measures {
		if !m.FromRuns() {
			continue
		}
		if len(m.Series) > 0 {
			for _, c := range m.Series {
				keys = append(keys, c.CellKey)
			}
			continue
		}
		if m.Cell.Engine != "" {
			keys = append(keys, m.Cell.CellKey)
		}
	}
	if len(keys) == 0 {
		return analytics.CellKey{}
	}
	at := keys[0]
	for _, k := range keys[1:] {
		if k.Cores != at.Cores {
			at.Cores = 0
		}
		if k.Ratio != at.Ratio {
			at.Ratio = ""
		}
		if k.ValueBytes != at.ValueBytes {
			at.ValueBytes = 0
		}
		if k.Pipeline != at.Pipeline {
			at.Pipeline = 0
		}
	}
	return analytics.CellKey{Cores: at.Cores, Ratio: at.Ratio, ValueBytes: at.ValueBytes, Pipeline: at.Pipeline}
}
