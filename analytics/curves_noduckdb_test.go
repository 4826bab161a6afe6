//go:build !duckdb

package analytics

import "testing"

// withDuckDB: without -tags duckdb, BenchmarkCurves has no DuckDB
// baseline and the build stays pure Go.
const withDuckDB = false

func buildDuckDBQ(*testing.B) string { return "" }
