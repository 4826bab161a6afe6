package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnEngineTheCodeNeverHeardOfIsAnsweredFromItsImportedRuns: adding an
// engine is importing its runs. The answer names it and comes from those
// runs; an engine that is neither in the runs nor in the knowledge base is
// declined by name.
func TestAnEngineTheCodeNeverHeardOfIsAnsweredFromItsImportedRuns(t *testing.T) {
	dir := t.TempDir()
	header := "run_id,note,engine,mode,shards,server_threads,shard_io_threads,cores_used,server_cpus,client_cpus,client_threads,client_conns,pipeline,ratio,data_bytes,key_max,test_time,populate,rep,ops_per_sec,ops_per_core,p50_ms,p99_ms,p999_ms,hit_rate,hits_per_sec,misses_per_sec,conn_errors,kb_per_sec"
	var b strings.Builder
	b.WriteString(header + "\n")
	for rep, ops := range []float64{812345.5, 798765.25} {
		hits := ops * 10 / 11
		fmt.Fprintf(&b, "20261201-0900%02d,scale-8c,pelikan,single,8,8,1,8,0-7,8-95,48,20,16,1:10,100,1000000,20,1,%d,%.2f,%.2f,0.9,2.1,3.4,1.0,%.2f,0.0,0,%.1f\n",
			rep, rep+1, ops, ops/8, hits, ops*0.15)
	}
	csv := filepath.Join(t.TempDir(), "pelikan.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := runCLI(t, dir, "import", "--session", "3", csv); err != nil {
		t.Fatalf("import: %v\n%s\n%s", err, out, errOut)
	}

	out, errOut, err := runCLI(t, dir, "ask", "pelikan at 8 cores")
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, errOut)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	// The median of the two repetitions: (812,345.5 + 798,765.25) / 2.
	if !strings.Contains(first, "Pelikan") || !strings.Contains(first, "806K ops/s") {
		t.Errorf("first line %q, want Pelikan's median of its two runs (806K ops/s)", first)
	}
	if !strings.Contains(out, "20261201-090000") && !strings.Contains(out, "pelikan") {
		t.Errorf("the answer does not cite the imported runs:\n%s", out)
	}

	// Its runs name no version: a version asked of it cannot be matched.
	out, _, err = runCLI(t, dir, "ask", "pelikan 2 at 8 cores")
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(out, "\n", 2)[0]; !strings.Contains(first, "Pelikan 2") || strings.Contains(first, "ops/s") {
		t.Errorf("a version of an engine whose runs name none: first line %q, want Pelikan 2 named and no figure", first)
	}

	out, _, err = runCLI(t, dir, "ask", "what does the Tarantula fork do at 8 cores")
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(out, "\n", 2)[0]; strings.ContainsAny(first, "0123456789") && !strings.Contains(first, "Tarantula") {
		t.Errorf("an engine nowhere in the data was answered with numbers: %q", first)
	}
	if !strings.Contains(out, "Tarantula") {
		t.Errorf("the unknown engine is not named back:\n%s", out)
	}
}

// TestAVersionIsADimension: a version column makes a version its own
// series. A question naming the imported version is answered from its
// runs; one naming a version nowhere in the data is refused by name with
// the versions measured, never answered with another version's figures.
func TestAVersionIsADimension(t *testing.T) {
	dir := t.TempDir()
	header := "run_id,note,engine,mode,shards,server_threads,shard_io_threads,cores_used,server_cpus,client_cpus,client_threads,client_conns,pipeline,ratio,data_bytes,key_max,test_time,populate,rep,ops_per_sec,ops_per_core,p50_ms,p99_ms,p999_ms,hit_rate,hits_per_sec,misses_per_sec,conn_errors,kb_per_sec,version"
	var b strings.Builder
	b.WriteString(header + "\n")
	for rep, ops := range []float64{7012345.5, 6987654.5} {
		fmt.Fprintf(&b, "20261201-1000%02d,scale-16c,valkey,single,16,16,1,16,0-15,16-95,48,20,16,1:10,100,1000000,20,1,%d,%.2f,%.2f,0.9,2.1,3.4,1.0,%.2f,0.0,0,%.1f,9.0\n",
			rep, rep+1, ops, ops/16, ops*10/11, ops*0.15)
	}
	csv := filepath.Join(t.TempDir(), "valkey9.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := runCLI(t, dir, "import", "--session", "3", csv); err != nil {
		t.Fatalf("import: %v\n%s\n%s", err, out, errOut)
	}
	for _, tc := range []struct {
		question string
		want     []string // in line 1
		never    string   // never in line 1
	}{
		// The median of the two repetitions: 7.0M ops/s.
		{"valkey 9 at 16 cores", []string{"7.0M ops/s"}, "4.9M"},
		{"Valkey 9.0 throughput, 16 cores?", []string{"7.0M ops/s"}, "4.9M"},
		{"valkey 7 at 16 cores", []string{"Valkey 7", "never measured", "8.1.9", "9.0"}, "ops/s"},
		// Two versions of one engine are compared, each its own series.
		{"valkey 9 vs valkey 8 at 16 cores", []string{"highest throughput", "Valkey 9.0", "7.0M ops/s"}, "Redis"},
		{"is redis 6 faster than valkey 9 at 16 cores", []string{"Redis 6", "never measured", "8.2.8"}, "ops/s"},
	} {
		out, errOut, err := runCLI(t, dir, "ask", tc.question)
		if err != nil {
			t.Fatalf("ask %q: %v\n%s", tc.question, err, errOut)
		}
		first := strings.SplitN(out, "\n", 2)[0]
		for _, w := range tc.want {
			if !strings.Contains(first, w) {
				t.Errorf("%q: first line %q, want %q in it", tc.question, first, w)
			}
		}
		if strings.Contains(first, tc.never) {
			t.Errorf("%q: first line %q holds %q", tc.question, first, tc.never)
		}
	}
}
