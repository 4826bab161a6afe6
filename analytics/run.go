package analytics

import "strconv"

// Run is one memtier_benchmark measurement: every column of the capture CSVs,
// typed, plus where it came from and its stable ID.
type Run struct {
	// ID is stable across re-imports and matches the public dataset:
	// run-s{session}-{run_id}-{engine}-{mode}-{cores}c-p{pipeline}-{ratio}-d{value_bytes}-rep{rep}
	// with ":" in the ratio replaced by "-".
	ID      string `json:"id"`
	Session int    `json:"session"`

	RunID          string   `json:"run_id"`
	Note           string   `json:"note"`
	Engine         string   `json:"engine"`
	Version        string   `json:"version,omitempty"` // the optional version column
	Mode           string   `json:"mode"`
	Shards         int      `json:"shards"`
	ServerThreads  int      `json:"server_threads"`
	ShardIOThreads int      `json:"shard_io_threads"`
	Cores          int      `json:"cores"`       // cores_used in the CSV
	ServerCPUs     string   `json:"server_cpus"` // stale in the source: never shown as the cores used
	ClientCPUs     string   `json:"client_cpus"`
	ClientThreads  int      `json:"client_threads"`
	ClientConns    int      `json:"client_conns"` // per client thread
	Pipeline       int      `json:"pipeline"`
	Ratio          string   `json:"ratio"`       // "1:10", "1:1", "mget10", "mset10"
	ValueBytes     int      `json:"value_bytes"` // data_bytes in the CSV
	KeyMax         int      `json:"key_max"`     // whole cluster for cluster, per shard for cluster-sat
	TestTimeS      int      `json:"test_time_s"`
	Populate       int      `json:"populate"`
	Rep            int      `json:"rep"`
	OpsPerSec      float64  `json:"ops_per_sec"`
	OpsPerCore     float64  `json:"ops_per_core"`
	P50Ms          float64  `json:"p50_ms"`
	P99Ms          float64  `json:"p99_ms"`
	P999Ms         float64  `json:"p999_ms"`
	HitRate        *float64 `json:"hit_rate"` // nil when the run had no reads (mset10)
	HitsPerSec     float64  `json:"hits_per_sec"`
	MissesPerSec   float64  `json:"misses_per_sec"`
	ConnErrors     int      `json:"conn_errors"`
	KBPerSec       float64  `json:"kb_per_sec"`

	SourceFile string `json:"source_file"`
	SourceLine int    `json:"source_line"`
}

// Known engines and modes, in the order answers list them.
var (
	Engines = []string{"dragonfly", "redis", "valkey", "keydb", "garnet"}
	Modes   = []string{"single", "cluster", "cluster-sat"}
)

// Number is the run's value of a numeric field a search ranks or keeps
// runs on, by its filter name: a metric (absent: hit_rate of a run with
// no reads) or a count of its own (test_time_s, shards, …).
func (r Run) Number(field string) (float64, bool) {
	one := Cell{OpsPerSec: r.OpsPerSec, OpsPerCore: r.OpsPerCore, P50Ms: r.P50Ms, P99Ms: r.P99Ms, P999Ms: r.P999Ms, HitRate: r.HitRate, KBPerSec: r.KBPerSec}
	if v, ok := one.Metric(field); ok || field == "hit_rate" {
		return v, ok
	}
	var n int
	switch field {
	case "rep":
		n = r.Rep
	case "shards":
		n = r.Shards
	case "server_threads":
		n = r.ServerThreads
	case "client_threads":
		n = r.ClientThreads
	case "client_conns":
		n = r.ClientConns
	case "key_max":
		n = r.KeyMax
	case "test_time_s":
		n = r.TestTimeS
	case "conn_errors":
		n = r.ConnErrors
	default:
		return 0, false
	}
	return float64(n), true
}

// clone returns a copy that shares no memory with r.
func (r Run) clone() Run {
	if r.HitRate != nil {
		h := *r.HitRate
		r.HitRate = &h
	}
	return r
}

// sameMeasurement reports whether two runs hold the same measured values,
// ignoring where each was read from.
func (r Run) sameMeasurement(o Run) bool {
	r.SourceFile, r.SourceLine, o.SourceFile, o.SourceLine = "", 0, "", 0
	rh, oh := r.HitRate, o.HitRate
	r.HitRate, o.HitRate = nil, nil
	if (rh == nil) != (oh == nil) || (rh != nil && *rh != *oh) {
		return false
	}
	return r == o
}

// MakeID builds the stable run ID described on Run.ID. It is called for
// every row of an import, so it builds the ID in one allocation.
func MakeID(session int, runID, engine, mode string, cores, pipeline int, ratio string, valueBytes, rep int) string {
	var buf [160]byte
	b := append(buf[:0], "run-s"...)
	b = strconv.AppendInt(b, int64(session), 10)
	b = append(append(b, '-'), runID...)
	b = append(append(b, '-'), engine...)
	b = append(append(b, '-'), mode...)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(cores), 10)
	b = append(b, "c-p"...)
	b = strconv.AppendInt(b, int64(pipeline), 10)
	b = append(b, '-')
	for i := 0; i < len(ratio); i++ {
		if c := ratio[i]; c == ':' {
			b = append(b, '-')
		} else {
			b = append(b, c)
		}
	}
	b = append(b, "-d"...)
	b = strconv.AppendInt(b, int64(valueBytes), 10)
	b = append(b, "-rep"...)
	b = strconv.AppendInt(b, int64(rep), 10)
	return string(b)
}

// Key returns the cell the run belongs to.
func (r Run) Key() CellKey {
	return CellKey{Session: r.Session, Engine: r.Engine, Version: r.Version, Mode: r.Mode, Cores: r.Cores,
		Ratio: r.Ratio, ValueBytes: r.ValueBytes, Pipeline: r.Pipeline}
}
