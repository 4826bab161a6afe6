package analytics

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestTheEmbeddedDatasetImportsAsDocumented(t *testing.T) {
	s := openMemory(t)
	reports, err := s.ImportDefault(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 2 {
		t.Fatalf("reports = %d, want 2", len(reports))
	}
	one, two := reports[0], reports[1]
	if one.Session != 1 || one.Rows != 350 || one.Kept != 350 || one.Added != 350 || len(one.Skipped) != 0 {
		t.Errorf("session 1 report = %+v", one)
	}
	wantSkipped := map[string]int{
		"": 2, "diag": 1, "garnet-mac-smoke": 1, "hostnet-check": 3, "keydb-mac-smoke": 1,
		"mac-dress-rehearsal": 120, "mk-smoke": 7, "pin-check": 1, "shard-sweep-redis": 2,
		"smoke": 1, "smoke-restructure": 5,
	}
	if two.Session != 2 || two.Rows != 272 || two.Kept != 128 || two.Added != 128 || two.SkippedRows() != 144 {
		t.Errorf("session 2 report = %+v", two)
	}
	if !maps.Equal(two.Skipped, wantSkipped) {
		t.Errorf("session 2 skipped = %v, want %v", two.Skipped, wantSkipped)
	}
	if got := len(s.Runs()); got != 478 {
		t.Errorf("runs = %d, want 478", got)
	}
	if got := len(s.Cells()); got != 254 {
		t.Errorf("cells = %d, want 254", got)
	}
	again, err := s.ImportDefault(t.Context())
	if err != nil || len(again) != 0 {
		t.Errorf("second ImportDefault = %v, %v; want nothing to do", again, err)
	}
}

func TestRunsCarryTheirSourceAndStableID(t *testing.T) {
	s := openDefault(t)
	r, ok := s.Run("run-s1-20260901-083406-dragonfly-single-4c-p1-1-10-d100-rep1")
	if !ok {
		t.Fatal("first row of runs-aws.csv not found by its ID")
	}
	if r.SourceFile != "runs-aws.csv" || r.SourceLine != 2 || r.Session != 1 || r.Cores != 4 || r.OpsPerSec != 656879.08 {
		t.Errorf("run = %+v", r)
	}
	if r.HitRate == nil || *r.HitRate != 1 {
		t.Errorf("hit rate = %v, want 1", r.HitRate)
	}
	for _, r := range s.Runs() {
		if (r.Ratio == "mset10") != (r.HitRate == nil) {
			t.Errorf("%s: hit rate %v; only mset10 runs have none", r.ID, r.HitRate)
		}
	}
}

func TestReimportingAFileChangesNothing(t *testing.T) {
	s := openDefault(t)
	before := stateOf(t, s)
	for _, f := range DefaultDataset() {
		b, _ := f.Open()
		rep, err := s.Import(t.Context(), "again-"+f.Name(), strings.NewReader(string(b)), f.Session)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Added != 0 || rep.AlreadyPresent != rep.Kept {
			t.Errorf("%s: report = %+v, want everything already present", f.Name(), rep)
		}
	}
	if after := stateOf(t, s); after != before {
		t.Errorf("state after re-import = %+v, want %+v", after, before)
	}
	if before.runs != 478 {
		t.Errorf("runs = %d, want 478", before.runs)
	}
}

func TestBadFilesAreRejectedWithEveryProblemAndWriteNothing(t *testing.T) {
	base := sessionOneRecords(t)
	edit := func(f func(recs [][]string) [][]string) string {
		recs := make([][]string, len(base))
		for i, r := range base {
			recs[i] = slices.Clone(r)
		}
		return encodeCSV(t, f(recs))
	}
	ops := column(t, base, "ops_per_sec")
	engine := column(t, base, "engine")
	hit := column(t, base, "hit_rate")
	cores := column(t, base, "cores_used")
	session3 := func(recs [][]string) [][]string { return recs }

	tests := []struct {
		name string
		csv  string
		want []string
	}{
		{
			name: "an empty file is rejected",
			csv:  "",
			want: []string{"line 1: empty file: no header row"},
		},
		{
			name: "a header without rows is rejected",
			csv:  edit(func(r [][]string) [][]string { return r[:1] }),
			want: []string{"line 2: no data rows after the header"},
		},
		{
			name: "a missing column is named",
			csv: edit(func(recs [][]string) [][]string {
				for i := range recs {
					recs[i] = slices.Delete(recs[i], ops, ops+1)
				}
				return recs
			}),
			want: []string{"line 1, column ops_per_sec: missing column"},
		},
		{
			name: "an unknown column is named",
			csv: edit(func(recs [][]string) [][]string {
				recs[0][ops] = "ops"
				return recs
			}),
			want: []string{"line 1, column ops: unknown column", "line 1, column ops_per_sec: missing column"},
		},
		{
			name: "a non-numeric value is reported with its line and column",
			csv: edit(func(recs [][]string) [][]string {
				recs[3][ops] = "fast"
				return recs
			}),
			want: []string{`line 4, column ops_per_sec: not a number: "fast"`},
		},
		{
			name: "every bad line is reported, not just the first",
			csv: edit(func(recs [][]string) [][]string {
				recs[2][engine] = "Memcached!"
				recs[10][hit] = "1.5"
				recs[20][cores] = "0"
				recs[30][ops] = "NaN"
				recs[40][ops] = "-5"
				return recs
			}),
			want: []string{
				`line 3, column engine: must be an engine name of 1-32 lower-case letters, digits, '-' or '.', starting with a letter, got "Memcached!"`,
				"line 11, column hit_rate: must be between 0 and 1, got 1.5",
				"line 21, column cores_used: must be positive, got 0",
				`line 31, column ops_per_sec: not a finite number: "NaN"`,
				"line 41, column ops_per_sec: must not be negative, got -5",
			},
		},
		{
			name: "implausible values are refused with line, column, value and bound",
			csv: edit(func(recs [][]string) [][]string {
				recs[1][ops] = "1e300"
				recs[2][ops] = "0x1p-2"
				recs[3][ops] = "2000000000"
				recs[4][cores] = "2000000000"
				recs[5][column(t, recs, "pipeline")] = "4096"
				recs[6][column(t, recs, "data_bytes")] = "1073741824"
				recs[7][column(t, recs, "p50_ms")] = "2"
				recs[7][column(t, recs, "p99_ms")] = "1.5"
				recs[8][column(t, recs, "p50_ms")] = "5000000"
				return recs
			}),
			want: []string{
				`line 2, column ops_per_sec: write plain decimal digits such as 1234.5, got "1e300"`,
				`line 3, column ops_per_sec: write plain decimal digits such as 1234.5, got "0x1p-2"`,
				"line 4, column ops_per_sec: 2000000000 is above the plausible maximum 1,000,000,000",
				"line 5, column cores_used: 2000000000 is above the plausible maximum 1,024",
				"line 6, column pipeline: 4096 is above the plausible maximum 1,024",
				"line 7, column data_bytes: 1073741824 is above the plausible maximum 536,870,912",
				"line 8, column p99_ms: 1.5 is below p50_ms 2 (latency percentiles must satisfy p50 <= p99 <= p99.9)",
				"line 9, column p50_ms: 5000000 is above the plausible maximum 3,600,000",
			},
		},
		{
			name: "a duplicate run ID is rejected",
			csv: edit(func(recs [][]string) [][]string {
				return append(recs, slices.Clone(recs[5]))
			}),
			want: []string{"line 352, column run_id: duplicate run ID run-s3-20260901-083406-dragonfly-single-4c-p1-1-10-d100-rep2 (first on line 6)"},
		},
		{
			name: "a row with too few fields is rejected",
			csv:  edit(session3) + "20260901-083406,scale-4c,dragonfly\n",
			want: []string{"line 352: has 3 fields, the header has 29"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openDefault(t)
			before := stateOf(t, s)
			_, err := s.Import(t.Context(), "bad.csv", strings.NewReader(tt.csv), 3)
			var ie *ImportError
			if !errors.As(err, &ie) {
				t.Fatalf("error = %v, want *ImportError", err)
			}
			var got []string
			for _, p := range ie.Problems {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if after := stateOf(t, s); after != before {
				t.Errorf("store changed: %+v, was %+v", after, before)
			}
		})
	}
}

func TestAStoredRunWithDifferentValuesIsAConflict(t *testing.T) {
	s := openDefault(t)
	before := stateOf(t, s)
	recs := sessionOneRecords(t)
	p999 := column(t, recs, "p999_ms")
	recs[7][p999] += "1" // a longer tail: plausible, but not what is stored
	_, err := s.Import(t.Context(), "changed.csv", strings.NewReader(encodeCSV(t, recs)), 1)
	var ie *ImportError
	if !errors.As(err, &ie) || len(ie.Problems) != 1 || ie.Problems[0].Line != 8 ||
		!strings.Contains(ie.Problems[0].Reason, "already stored with different values") {
		t.Fatalf("error = %v, want one conflict on line 8", err)
	}
	if after := stateOf(t, s); after != before {
		t.Errorf("store changed: %+v, was %+v", after, before)
	}
}

func TestAFailureHalfwayThroughTheWriteLeavesTheStoreAsItWas(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	before := stateOf(t, s)
	injected := errors.New("disk full (injected)")
	var calls int
	s.beforeWrite = func(i int) error {
		calls++
		if i == 175 {
			return injected
		}
		return nil
	}
	b, _ := DefaultDataset()[0].Open()
	_, err = s.Import(t.Context(), "runs-aws.csv", strings.NewReader(string(b)), 3) // 350 new runs
	if !errors.Is(err, injected) {
		t.Fatalf("error = %v, want the injected failure", err)
	}
	if calls != 176 {
		t.Errorf("writes attempted = %d, want the failure at the 176th of 350", calls)
	}
	if after := stateOf(t, s); after != before {
		t.Errorf("store changed: %+v, was %+v", after, before)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	reopened, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	if after := stateOf(t, reopened); after != before {
		t.Errorf("reopened store = %+v, was %+v", after, before)
	}
	// Without the failure the same import succeeds.
	rep, err := reopened.Import(t.Context(), "runs-aws.csv", strings.NewReader(string(b)), 3)
	if err != nil || rep.Added != 350 || len(reopened.Runs()) != 828 {
		t.Errorf("clean import = %+v, %v; runs %d", rep, err, len(reopened.Runs()))
	}
}

func TestRunsSurviveReopeningTheDataDirectory(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	fp := s.Fingerprint()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	s, err = Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	reports, err := s.ImportDefault(t.Context())
	if err != nil || len(reports) != 0 {
		t.Errorf("ImportDefault on a filled store = %v, %v", reports, err)
	}
	if len(s.Runs()) != 478 || s.Fingerprint() != fp {
		t.Errorf("reopened: %d runs, fingerprint %s; want 478, %s", len(s.Runs()), s.Fingerprint(), fp)
	}
	efp, err := EmbeddedFingerprint()
	if err != nil || efp != fp {
		t.Errorf("EmbeddedFingerprint = %s, %v; want %s", efp, err, fp)
	}
}

func TestASessionBelowOneIsRefused(t *testing.T) {
	s := openMemory(t)
	_, err := s.Import(t.Context(), "x.csv", strings.NewReader("a"), 0)
	if !errors.Is(err, ErrBadSession) {
		t.Errorf("error = %v, want ErrBadSession", err)
	}
}

func TestTheKeepRuleKeepsOnlyAWSScaleCaptures(t *testing.T) {
	tests := []struct {
		note string
		ops  float64
		keep bool
	}{
		{"scale-48c", 1, true},
		{"sat-scale-4c", 1, true},
		{"scale-48c", 0, false},
		{"scale-c", 1, false},
		{"mac-dress-rehearsal", 1, false},
		{"scale-48c-ref", 1, false},
		{"", 1, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("note %q with %v ops/s is kept: %v", tt.note, tt.ops, tt.keep), func(t *testing.T) {
			if got := Keep(Run{Note: tt.note, OpsPerSec: tt.ops}); got != tt.keep {
				t.Errorf("Keep = %v", got)
			}
		})
	}
}

func TestQueriesDuringAnImportSeeEitherTheOldOrTheNewRuns(t *testing.T) {
	s := openDefault(t)
	b, _ := DefaultDataset()[0].Open()
	done := make(chan error, 1)
	go func() {
		_, err := s.Import(t.Context(), "runs-aws.csv", strings.NewReader(string(b)), 3)
		done <- err
	}()
	for imported := false; !imported; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			imported = true
		default:
		}
		res, err := s.Query(t.Context(), "true")
		if err != nil {
			t.Fatal(err)
		}
		if res.Runs != 478 && res.Runs != 828 {
			t.Fatalf("query saw %d runs, want 478 or 828", res.Runs)
		}
	}
	if got := len(s.Runs()); got != 828 {
		t.Errorf("runs = %d, want 828", got)
	}
}

func TestAFileWithCarriageReturnLineEndsImports(t *testing.T) {
	recs := sessionOneRecords(t)
	text := strings.ReplaceAll(encodeCSV(t, recs), "\n", "\r")
	text = strings.ReplaceAll(text, "\r\r", "\r")
	s := openMemory(t)
	rep, err := s.Import(t.Context(), "mac.csv", strings.NewReader(text), 1)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if rep.Rows != len(recs)-1 || rep.Added != 350 {
		t.Errorf("report = %+v, want %d rows and 350 runs added", rep, len(recs)-1)
	}
}
