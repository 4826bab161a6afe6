package knowledge

// Rule is a measurement-playbook rule, a benchmark trap, or a caveat the
// bot must repeat whenever it applies.
type Rule struct {
	ID     string `json:"id"`     // "rule:client-side-latency", "trap:cache-misses", "caveat:garnet-floor"
	Kind   string `json:"kind"`   // "rule", "trap" or "caveat"
	Number int    `json:"number"` // playbook number (rules), trap number (traps), 0 otherwise
	Title  string `json:"title"`
	Text   string `json:"text"` // rendered
	// Triggers say when a caveat applies: "engine:garnet", "mode:cluster",
	// "mode:cluster-sat", "metric:latency", "cross-session", "kind:no_data",
	// "kind:claim", "topic:memory", "numeric".
	Triggers []string `json:"triggers,omitempty"`
	SeeAlso  []string `json:"see_also,omitempty"`
	Sources  []Source `json:"sources"`
}

// Situation is what an answer involves, for choosing caveats.
type Situation struct {
	Engines  []string
	Modes    []string
	Sessions []int
	Metrics  []string // filter vocabulary names, or "bytes_per_key"
	Kind     string   // answer kind: "answer", "claim", "no_data", ...
	Topics   []string
}

// triggered reports whether the rule's triggers match the situation.
func (r Rule) triggered(s Situation) bool {
	has := func(list []string, v string) bool {
		for _, x := range list {
			if x == v {
				return true
			}
		}
		return false
	}
	sessions := map[int]bool{}
	for _, n := range s.Sessions {
		sessions[n] = true
	}
	for _, t := range r.Triggers {
		kind, val, _ := cut(t)
		switch kind {
		case "engine":
			if has(s.Engines, val) {
				return true
			}
		case "mode":
			if has(s.Modes, val) {
				return true
			}
		case "metric":
			for _, m := range s.Metrics {
				if val == "latency" && (m == "p50_ms" || m == "p99_ms" || m == "p999_ms") || m == val {
					return true
				}
			}
		case "topic":
			if has(s.Topics, val) {
				return true
			}
		case "kind":
			if s.Kind == val {
				return true
			}
		case "cross-session":
			if len(sessions) > 1 {
				return true
			}
		case "numeric":
			if len(s.Metrics) > 0 {
				return true
			}
		}
	}
	return false
}

func cut(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
