//go:build duckdb

package analytics

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// withDuckDB: -tags duckdb adds DuckDB to BenchmarkCurves' baselines.
const withDuckDB = true

// buildDuckDBQ builds testdata/duckdbq, the DuckDB baseline (a module of
// its own, with cgo and DuckDB's prebuilt library from the Go module
// proxy), and returns the binary.
func buildDuckDBQ(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "duckdbq")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("testdata", "duckdbq")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the DuckDB baseline (testdata/duckdbq: cgo, and DuckDB's library through the module proxy): %v\n%s", err, out)
	}
	return bin
}
