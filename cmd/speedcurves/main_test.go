package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sample is BenchmarkCurves output as go test prints it (shortened), with
// a line repeated as -count=2 repeats it and lines of other benchmarks.
const sample = `goos: linux
BenchmarkCurves/runs=10000/import-2  	       5	 967123181 ns/op	 1.077 cpu-max/min	 201.5 cpu-ms	 61 rss-MiB	 65.8 sqlite3-cpu-ms	 1.06 sqlite3-cpu-max/min	 3.06 x-sqlite3
BenchmarkCurves/runs=10000/scan-1.6pct-2 	 5	 51969391 ns/op	 1.17 cpu-max/min	 19.1 cpu-ms	 4.2 sqlite3-cpu-ms	 4.47 x-sqlite3	 18.6 before-cpu-ms	 1.04 x-before
BenchmarkCurves/runs=1000000/scan-1.6pct-2  	 5	 51969391 ns/op	 1.05 cpu-max/min	 100 cpu-ms	 150 sqlite3-cpu-ms	 0.66 x-sqlite3
BenchmarkCurves/runs=1000000/scan-1.6pct-2  	 5	 51969391 ns/op	 1.07 cpu-max/min	 110 cpu-ms	 152 sqlite3-cpu-ms	 0.70 x-sqlite3
BenchmarkCurves/runs=1000000/scan-1.6pct-2  	 5	 51969391 ns/op	 1.09 cpu-max/min	 90 cpu-ms	 140 sqlite3-cpu-ms	 0.62 x-sqlite3
BenchmarkScale/runs=10000/selective/store-2  100  12345 ns/op
PASS
`

func TestReadingTheBenchmarkOutput(t *testing.T) {
	tests := []struct {
		name, in string
		check    func(t *testing.T, c curves)
		err      string
	}{
		{name: "sizes ascending, operations in their order, repeated lines by their median", in: sample,
			check: func(t *testing.T, c curves) {
				if len(c.sizes) != 2 || c.sizes[0] != 10_000 || c.sizes[1] != 1_000_000 {
					t.Errorf("sizes %v", c.sizes)
				}
				if strings.Join(c.ops, " ") != "scan-1.6pct import" {
					t.Errorf("operations %v", c.ops)
				}
				if got := c.at[point{"scan-1.6pct", 1_000_000}]["cpu-ms"]; got != 100 {
					t.Errorf("1M scan: %v ms, want the median 100", got)
				}
			}},
		{name: "an operation not known is kept under its name", in: "BenchmarkCurves/runs=3000000/doctor-2 1 5 ns/op 7 cpu-ms\n",
			check: func(t *testing.T, c curves) {
				if infoOf(c.ops[0]).label != "doctor" || c.sizes[0] != 3_000_000 {
					t.Errorf("%v at %v", c.ops, c.sizes)
				}
			}},
		{name: "a DuckDB baseline is a column of the table", in: "BenchmarkCurves/runs=1000000/open-2 5 1 ns/op 20 cpu-ms 60 duckdb-cpu-ms 1.1 duckdb-cpu-max/min 0.33 x-duckdb\n",
			check: func(t *testing.T, c curves) {
				var b strings.Builder
				if err := writeTable(&b, c); err != nil {
					t.Fatal(err)
				}
				if want := "| 1M | open, match nothing | 20.0 (–) | – | 60.0 (1.10) | 0.33 |"; !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "× DuckDB") {
					t.Errorf("the table lacks %q or its heading:\n%s", want, b.String())
				}
			}},
		{name: "no curves at all", in: "goos: linux\nPASS\n", err: "no BenchmarkCurves results"},
		{name: "a value that is not a number", in: "BenchmarkCurves/runs=1000000/open-2 5 1 ns/op x cpu-ms\n", err: `line 1: BenchmarkCurves/runs=1000000/open-2: "x" is not a number`},
		{name: "a value without its unit", in: "BenchmarkCurves/runs=1000000/open-2 5 1 ns/op 3\n", err: "not an iteration count and value-unit pairs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := readCurves(strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

// TestTheCommandDrawsThePNGAndPrintsTheTable runs the command on the
// sample: two charts stacked in one PNG, a Markdown row per size and
// operation with the earlier build's column.
func TestTheCommandDrawsThePNGAndPrintsTheTable(t *testing.T) {
	in := filepath.Join(t.TempDir(), "curves.txt")
	if err := os.WriteFile(in, []byte(sample), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "curves.png")
	var stdout bytes.Buffer
	if err := run([]string{"-o", out, in}, nil, &stdout); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if got := img.Bounds().Dy(); got != 2*panelHeight {
		t.Errorf("the PNG is %d pixels high, want two charts of %d", got, panelHeight)
	}
	for _, want := range []string{
		"| 1M | 1.6% of runs (scan) | 100.0 (1.07) | – | 150.0 (–) | 0.66 | – (–) | – |",
		"| 10k | import the CSV | 201.5 (1.08) | 61 | 65.8 (1.06) | 3.06 | – (–) | – |",
		"| 10k | 1.6% of runs (scan) | 19.1 (1.17) | – | 4.2 (–) | 4.47 | 18.6 (–) | 1.04 |",
		"wrote " + out + ": 2 operations at 2 sizes",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, stdout.String())
		}
	}
}
