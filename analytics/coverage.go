package analytics

// SeriesCoverage lists, for one (session, engine, mode), the values each knob
// was measured at, sorted ascending (ratios in the order 1:10, 1:1, mget10, mset10).
type SeriesCoverage struct {
	Session    int      `json:"session"`
	Engine     string   `json:"engine"`
	Mode       string   `json:"mode"`
	Cores      []int    `json:"cores"`
	Ratios     []string `json:"ratios"`
	ValueBytes []int    `json:"value_bytes"`
	Pipelines  []int    `json:"pipelines"`
	Runs       int      `json:"runs"`
	Cells      int      `json:"cells"`
}

// Neighbor is a measured cell near a requested combination, with the knobs
// (session, engine, mode, cores, ratio, value_bytes, pipeline) in which it
// differs from the request.
type Neighbor struct {
	Cell
	Differs []string `json:"differs"`
}
