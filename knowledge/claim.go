package knowledge

// Claim is a vendor or third-party claim with the measured counter-evidence.
type Claim struct {
	ID        string   `json:"id"` // "claim:dragonfly-25x"
	Title     string   `json:"title"`
	Claimant  string   `json:"claimant"` // "Dragonfly (vendor)", "Redis Ltd. (vendor)", "third party"
	Kind      string   `json:"kind"`     // "vendor" or "third-party"
	Engines   []string `json:"engines"`
	Statement string   `json:"statement"` // slogan in quotes where there is one
	Setup     string   `json:"setup"`     // claimant's hardware, versions, date
	Numbers   string   `json:"numbers"`   // claimant's figures
	Topics    []string `json:"topics"`    // "throughput", "memory", "latency", ...
	// Provenance grades how far the claim's source can be trusted; empty
	// for a vendor's own page.
	Provenance string    `json:"provenance,omitempty"`
	Measures   []Measure `json:"measures"` // counter-evidence, computed from runs
	Figures    []Figure  `json:"figures,omitempty"`
	// Measured is the sentence stating what the data gives, with
	// {{name}} / {{ratio:a/b}} placeholders filled from Measures at load time.
	Measured string `json:"measured"`
	// Verdict is the comparability verdict: "not comparable", "comparable
	// in shape only", "consistent", "context only", "not testable here".
	Verdict   string   `json:"verdict"`
	WhyDiffer string   `json:"why_differ"`
	Session   int      `json:"session,omitempty"`
	SeeAlso   []string `json:"see_also,omitempty"`
	Sources   []Source `json:"sources"`
}

// Measure returns the claim's computed measure by name.
func (c Claim) Measure(name string) (Measure, bool) { return findMeasure(c.Measures, name) }

// Figure returns the claim's computed figure by name.
func (c Claim) Figure(name string) (Figure, bool) { return findFigure(c.Figures, name) }

func findMeasure(ms []Measure, name string) (Measure, bool) {
	for _, m := range ms {
		if m.Name == name {
			return m, true
		}
	}
	return Measure{}, false
}

func findFigure(fs []Figure, name string) (Figure, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}
