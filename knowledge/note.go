package knowledge

// Note is a documentary entry: scope, setup, series, failover-lab and
// conflict-register notes. Kind is the id's prefix.
type Note struct {
	ID       string    `json:"id"` // "scope:absent", "setup:hardware", "series:cluster", "failover:sweep", "conflict:garnet-cpu"
	Kind     string    `json:"kind"`
	Title    string    `json:"title"`
	Summary  string    `json:"summary"` // rendered
	Points   []string  `json:"points"`  // rendered
	Measures []Measure `json:"measures,omitempty"`
	Figures  []Figure  `json:"figures,omitempty"`
	SeeAlso  []string  `json:"see_also,omitempty"`
	Sources  []Source  `json:"sources"`
}
