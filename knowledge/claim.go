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

	// Engine, Version, Date, Metric and Conditions are the claim as the
	// claimant states it: the engine it is about, its version and date as
	// claimed ("not stated" when the claimant gives none) and the metric
	// and conditions its figure was taken under.
	Engine     string          `json:"engine"`
	Version    string          `json:"version"`
	Date       string          `json:"date"`
	Metric     string          `json:"metric"`
	Conditions ClaimConditions `json:"conditions"`
	// Comparability says what would make a run here comparable with the
	// claim, and whether one exists; the verdict is computed from it.
	Comparability Comparability `json:"comparability"`

	// Provenance grades how far the claim's source can be trusted; empty
	// for a vendor's own page.
	Provenance string    `json:"provenance,omitempty"`
	Measures   []Measure `json:"measures"` // counter-evidence, computed from runs
	Figures    []Figure  `json:"figures,omitempty"`
	// Measured is the sentence stating what the data gives, with
	// {{name}} / {{ratio:a/b}} placeholders filled from Measures at load time.
	Measured string `json:"measured"`
	// Verdict is computed at load from Comparability, never typed: "yes",
	// "no", "partly" or "about the same" for a comparable claim, else its
	// status ("not comparable", "never measured", "context only").
	Verdict   string   `json:"-"`
	WhyDiffer string   `json:"why_differ"`
	Session   int      `json:"session,omitempty"`
	SeeAlso   []string `json:"see_also,omitempty"`
	Sources   []Source `json:"sources"`
}

// ClaimConditions are the conditions a claim's figure was taken under, as
// the claimant states them (free text: "64 vCPU, ARM", "GET only").
type ClaimConditions struct {
	Hardware  string `json:"hardware"`
	Ratio     string `json:"ratio"`
	ValueSize string `json:"value_size"`
	Pipeline  string `json:"pipeline"`
	Shape     string `json:"shape"` // processes, shards, nodes
}

// The comparability statuses a claim may have.
const (
	StatusComparable    = "comparable"
	StatusNotComparable = "not comparable"
	StatusNeverMeasured = "never measured"
	StatusContext       = "context only"
)

// The verdicts a comparable claim's check computes.
const (
	VerdictYes    = "yes"
	VerdictNo     = "no"
	VerdictPartly = "partly"
	VerdictAbout  = "about the same"
)

// Comparability is a claim's comparability rule: which measured series
// and conditions here make a comparable measurement (Series, Check), or
// why none does (Reason) with the measures that come nearest.
type Comparability struct {
	Status string `json:"status"`
	// Series names the measured series and conditions a comparable run
	// has ("Dragonfly single vs Valkey cluster, same cores, 1:10, 100 B, p16").
	Series string `json:"series,omitempty"`
	// Reason says what keeps a run here from being comparable, or what
	// limits a comparable one.
	Reason string `json:"reason,omitempty"`
	// Check is the claimed relation the measures are tested against.
	Check *ClaimCheck `json:"check,omitempty"`
	// Nearest names the claim's measures that come nearest when no run is
	// comparable.
	Nearest []string `json:"nearest,omitempty"`

	// Outcomes is computed at load: one per subject/against pair.
	Outcomes []CheckOutcome `json:"-"`
}

// ClaimCheck is the claimed relation, in numbers:
//
//	ratio     each subject is Claimed × each against measure ("4.5x")
//	less      each subject needs Claimed % less than each against measure
//	below     each subject is under Claimed (a latency bound, in its unit)
//	at_least  each subject is at least Claimed (a throughput floor)
type ClaimCheck struct {
	Kind    string   `json:"kind"`
	Subject []string `json:"subject"`
	Against []string `json:"against,omitempty"`
	Claimed float64  `json:"claimed"`
	// PairBy "cores" compares a subject only with against measures at its
	// own core count.
	PairBy string `json:"pair_by,omitempty"`
	// Tolerance is the relative distance from Claimed that still counts
	// as about the same (default 0.1).
	Tolerance float64 `json:"tolerance,omitempty"`
}

// CheckOutcome is one measured comparison of a claim check.
type CheckOutcome struct {
	Subject  string  // measure name
	Against  string  // measure name; empty for a bound
	Measured float64 // the ratio, the percentage less, or the subject's value
	Verdict  string
}

// Measure returns the claim's computed measure by name.
func (c Claim) Measure(name string) (Measure, bool) { return findMeasure(c.Measures, name) }

// Figure returns the claim's computed figure by name.
func (c Claim) Figure(name string) (Figure, bool) { return findFigure(c.Figures, name) }

// Comparable reports whether a run here is comparable with the claim.
func (c Claim) Comparable() bool { return c.Comparability.Status == StatusComparable }

// NearestMeasures are the measures named as nearest, in their order.
func (c Claim) NearestMeasures() []Measure {
	var out []Measure
	for _, n := range c.Comparability.Nearest {
		if m, ok := c.Measure(n); ok {
			out = append(out, m)
		}
	}
	return out
}

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
