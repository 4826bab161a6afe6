package knowledge

// Session is one capture campaign.
type Session struct {
	ID       string   `json:"id"` // "session:1"
	Number   int      `json:"number"`
	Title    string   `json:"title"`
	Captured string   `json:"captured"`
	Engines  []string `json:"engines"`
	Client   string   `json:"client"`
	Points   []string `json:"points"` // rendered
	// Runs and Cells are counted from the store at load.
	Runs    int      `json:"runs"`
	Cells   int      `json:"cells"`
	SeeAlso []string `json:"see_also,omitempty"`
	Sources []Source `json:"sources"`
}
