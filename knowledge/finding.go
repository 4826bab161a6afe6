package knowledge

// Finding is a measured headline; its figures are computed from the runs
// (or from a measured table) when the base is loaded.
type Finding struct {
	ID       string    `json:"id"` // "finding:headline-48c"
	Title    string    `json:"title"`
	Session  int       `json:"session,omitempty"`
	Engines  []string  `json:"engines,omitempty"`
	Topics   []string  `json:"topics,omitempty"`
	Measures []Measure `json:"measures"`
	Figures  []Figure  `json:"figures,omitempty"`
	// Statement is rendered with the computed figures at load time (the
	// data file holds it with {{name}} placeholders).
	Statement string `json:"statement"`
	// Points are further rendered sentences.
	Points []string `json:"points,omitempty"`
	// Provenance is "measured", or "blog" for a figure the author states
	// without a published run behind it.
	Provenance string   `json:"provenance"`
	SeeAlso    []string `json:"see_also,omitempty"`
	Sources    []Source `json:"sources"`
}

// Measure returns the finding's computed measure by name.
func (f Finding) Measure(name string) (Measure, bool) { return findMeasure(f.Measures, name) }

// Figure returns the finding's computed figure by name.
func (f Finding) Figure(name string) (Figure, bool) { return findFigure(f.Figures, name) }
