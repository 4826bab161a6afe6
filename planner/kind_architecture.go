package planner

import "strings"

// architectureWords ask how an engine is built rather than what it
// measured: its threading, its design, its internals. Phrases are written
// as the tokenizer splits them ("multi - threaded").
var architectureWords = [][]string{
	{"architecture"}, {"architected"}, {"design"}, {"designed"}, {"internals"}, {"under", "the", "hood"},
	{"multithreaded"}, {"multi", "-", "threaded"}, {"multi", "threaded"}, {"multithreading"},
	{"single", "-", "threaded"}, {"single", "threaded"}, {"singlethreaded"}, {"threading"},
	{"threading", "model"}, {"thread", "model"}, {"multiple", "threads"}, {"multiple", "cores"},
	{"several", "threads"}, {"one", "thread"}, {"single", "thread"}, {"how", "does"}, {"how", "is"},
}

// architectureTails complete a "how does X …" / "how is X …" lead into an
// architecture question ("how does Dragonfly work", "how is KeyDB built").
var architectureTails = map[string]bool{"work": true, "works": true, "built": true, "made": true, "implemented": true, "structured": true}

// recogniseArchitecture answers a question about how one engine is built
// — "is Valkey multithreaded?", "Dragonfly's architecture", "how does
// KeyDB work under the hood" — with the engine's knowledge entry and its
// measured headline, not with a throughput figure that answers nothing
// asked. A question a recorded claim answers stays that claim's. A
// question that also names a metric, a setting or a workload is
// about measurements and is left to the other rules.
func (p *Planner) recogniseArchitecture(question string, r *reading, _ *Plan) (Plan, bool) {
	engines := r.values(mEngine)
	if len(engines) != 1 || r.has(mMetric) || r.has(mWorkload) || r.has(mClaimant) || r.has(mRelation) {
		return Plan{}, false
	}
	for _, t := range r.toks {
		if t.kind == tokNumber || t.kind == tokRatio {
			return Plan{}, false
		}
	}
	if !r.asksArchitecture() {
		return Plan{}, false
	}
	// A recorded claim the engine's own makers made on the same point
	// ("Redis is single-threaded", per the Redis docs) is answered as that
	// claim, checked; another engine's claim does not describe this one.
	if c, ok := p.matchClaim(r.text, engines); ok && strings.HasPrefix(c.id, "claim:"+engines[0]+"-") {
		return Plan{}, false
	}
	x := r.x
	if x == nil {
		x = p.extract(r.text)
	}
	return p.engineEntry(question, r.text, x, engines[0])
}

// asksArchitecture reports whether the tokens hold an architecture word;
// "how does"/"how is" count only with a tail such as "work" or "built".
func (r *reading) asksArchitecture() bool {
	for i := range r.toks {
		for _, w := range architectureWords {
			if !r.matches(i, w) {
				continue
			}
			if w[0] != "how" {
				return true
			}
			for _, t := range r.toks[i+len(w):] {
				if architectureTails[t.text] {
					return true
				}
			}
		}
	}
	return false
}
