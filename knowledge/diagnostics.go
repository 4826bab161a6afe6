package knowledge

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

// DiagnosticsTable holds the author's one-off checks (runs-aws-diagnostics.csv):
// runs outside the dataset, never part of its medians, some of them quoted
// in the blog posts.
type DiagnosticsTable struct {
	ID      string          `json:"id"` // "table:diagnostics"
	Title   string          `json:"title"`
	Runs    []DiagnosticRun `json:"runs"`
	Sources []Source        `json:"sources"`
}

// DiagnosticRun is one row of the diagnostics file.
type DiagnosticRun struct {
	Label         string  `json:"label"` // the run's note: "check48", "shardcheck-24"
	Engine        string  `json:"engine"`
	Mode          string  `json:"mode"`
	Cores         int     `json:"cores"`
	ClientThreads int     `json:"client_threads"`
	ClientConns   int     `json:"client_conns"`
	Pipeline      int     `json:"pipeline"`
	Ratio         string  `json:"ratio"`
	ValueBytes    int     `json:"value_bytes"`
	TestTimeS     int     `json:"test_time_s"`
	OpsPerSec     float64 `json:"ops_per_sec"`
	P50Ms         float64 `json:"p50_ms"`
	P99Ms         float64 `json:"p99_ms"`
	P999Ms        float64 `json:"p999_ms"`
	HitsPerSec    float64 `json:"hits_per_sec"`
}

// Labels lists the diagnostic runs' labels, each once, in file order.
func (t DiagnosticsTable) Labels() []string {
	var out []string
	for _, r := range t.Runs {
		if len(out) == 0 || out[len(out)-1] != r.Label {
			out = append(out, r.Label)
		}
	}
	return out
}

// parseDiagnostics reads runs-aws-diagnostics.csv: the run files' own
// header, one row per diagnostic run. A malformed row names its line and
// field.
func parseDiagnostics(data []byte) ([]DiagnosticRun, error) {
	rd := csv.NewReader(bytes.NewReader(data))
	rows, err := rd.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("no rows")
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"note", "engine", "mode", "cores_used", "client_threads", "client_conns", "pipeline", "ratio", "data_bytes",
		"test_time", "ops_per_sec", "p50_ms", "p99_ms", "p999_ms", "hits_per_sec"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("header has no %q column", need)
		}
	}
	var out []DiagnosticRun
	for n, row := range rows[1:] {
		line := n + 2
		field := func(name string) string { return strings.TrimSpace(row[col[name]]) }
		var bad error
		atoi := func(name string) int {
			v, err := strconv.Atoi(field(name))
			if err != nil && bad == nil {
				bad = fmt.Errorf("line %d, field %s: %q is not a whole number", line, name, field(name))
			}
			return v
		}
		atof := func(name string) float64 {
			v, err := strconv.ParseFloat(field(name), 64)
			if err != nil && bad == nil {
				bad = fmt.Errorf("line %d, field %s: %q is not a number", line, name, field(name))
			}
			return v
		}
		r := DiagnosticRun{Label: field("note"), Engine: field("engine"), Mode: field("mode"), Cores: atoi("cores_used"),
			ClientThreads: atoi("client_threads"), ClientConns: atoi("client_conns"), Pipeline: atoi("pipeline"), Ratio: field("ratio"),
			ValueBytes: atoi("data_bytes"), TestTimeS: atoi("test_time"), OpsPerSec: atof("ops_per_sec"), P50Ms: atof("p50_ms"),
			P99Ms: atof("p99_ms"), P999Ms: atof("p999_ms"), HitsPerSec: atof("hits_per_sec")}
		if bad != nil {
			return nil, bad
		}
		if r.Label == "" {
			return nil, fmt.Errorf("line %d, field note: empty label", line)
		}
		out = append(out, r)
	}
	return out, nil
}
