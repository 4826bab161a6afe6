package knowledge

// Engine describes one of the five engines as it was tested.
type Engine struct {
	ID      string   `json:"id"`   // "engine:dragonfly"
	Name    string   `json:"name"` // "Dragonfly"
	Key     string   `json:"key"`  // "dragonfly", as in the runs
	Aliases []string `json:"aliases"`
	// Nicknames are other whole names of the engine ("dfly", "Redis CE",
	// "the Redis 7.2 fork"); a nickname listed under two engines is
	// ambiguous: the planner asks which one was meant. Descriptions made
	// of describing words are read from Descriptors.
	Nicknames []string `json:"nicknames,omitempty"`
	// Descriptors are words that describe the engine without naming it —
	// its vendor, licence, lineage, implementation ("Snap", "BSL",
	// "fork", ".NET"). The planner reads a description such as "the BSD
	// fork" as every engine all its words describe.
	Descriptors []string `json:"descriptors,omitempty"`
	Vendor      string   `json:"vendor"`
	Version     string   `json:"version"`
	Session     int      `json:"session"`
	Threading   string   `json:"threading"`
	// NeedsCluster reports whether the engine must run as a cluster to use
	// many cores.
	NeedsCluster bool     `json:"needs_cluster"`
	Modes        []string `json:"modes"`
	Licence      string   `json:"licence"`
	Config       []string `json:"config"`
	Measured     string   `json:"measured"` // rendered
	Caveats      []string `json:"caveats"`  // rendered
	// BytesPerKey is filled from the memory table at load; nil when the
	// engine has no figure (MemoryNote then says why, or labels a quoted one).
	BytesPerKey *float64 `json:"bytes_per_key"`
	MemoryNote  string   `json:"memory_note,omitempty"`
	// Runs and Cells are counted from the store at load.
	Runs    int      `json:"runs"`
	Cells   int      `json:"cells"`
	SeeAlso []string `json:"see_also,omitempty"`
	Sources []Source `json:"sources"`
}
