package analytics

import (
	"fmt"
	"strings"
	"testing"
)

// versionedCSV is a capture file with the optional version column: two
// versions of one engine in one cell each, two repetitions apiece.
func versionedCSV(versions ...string) string {
	var b strings.Builder
	b.WriteString(strings.Join(columns, ",") + ",version\n")
	for i, v := range versions {
		for rep := 1; rep <= 2; rep++ {
			ops := 1e6*float64(i+1) + float64(rep)
			fmt.Fprintf(&b, "20261201-09000%d,scale-8c,valkey,single,8,8,1,8,0-7,8-95,48,20,16,1:10,100,1000000,20,1,%d,%.1f,%.1f,0.9,2.1,3.4,1.0,%.1f,0.0,0,%.1f,%s\n",
				i, rep, ops, ops/8, ops*10/11, ops*0.15, v)
		}
	}
	return b.String()
}

func TestAVersionColumnKeepsEachVersionItsOwnSeries(t *testing.T) {
	s := openMemory(t)
	if _, err := s.Import(t.Context(), "valkey-versions.csv", strings.NewReader(versionedCSV("9.0", "8.1.4")), 3); err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, c := range s.Coverage() {
		if c.Session == 3 {
			versions = append(versions, c.Version)
		}
	}
	if strings.Join(versions, ",") != "8.1.4,9.0" {
		t.Errorf("series versions %v, want 8.1.4 and 9.0 apart", versions)
	}
	for _, tc := range []struct {
		filter string
		ops    float64
	}{
		{`engine == "valkey" && version == "9.0" && session == 3`, 1e6 + 1.5},
		{`version == "8.1.4"`, 2e6 + 1.5},
	} {
		res, err := s.Query(t.Context(), tc.filter)
		if err != nil {
			t.Fatalf("%s: %v", tc.filter, err)
		}
		if len(res.Cells) != 1 || res.Cells[0].OpsPerSec != tc.ops || res.Cells[0].Reps != 2 {
			t.Errorf("%s: cells %+v, want one cell of two runs at %.1f ops/s", tc.filter, res.Cells, tc.ops)
		}
	}
	if !s.Exists(CellKey{Session: 3, Engine: "valkey", Version: "9.0", Mode: "single", Cores: 8, Ratio: "1:10", ValueBytes: 100, Pipeline: 16}) {
		t.Error("the 9.0 cell is not found")
	}
	if s.Exists(CellKey{Session: 3, Engine: "valkey", Version: "7.2"}) {
		t.Error("a version never imported exists")
	}
	ids := map[string]bool{}
	for _, r := range s.Runs() {
		ids[r.ID] = true
		if r.Version == "" {
			t.Errorf("run %s lost its version", r.ID)
		}
	}
	if len(ids) != 4 {
		t.Errorf("%d distinct run IDs, want 4 (one per version and repetition)", len(ids))
	}
}

func TestAVersionSurvivesTheEncodings(t *testing.T) {
	for _, v := range []string{"", "9.0", "v1.40.1", "8.2.8-rc1+build.7"} {
		r := Run{ID: "run-x", Engine: "valkey", Version: v, Mode: "single", Ratio: "1:10", Cores: 8, Pipeline: 16, ValueBytes: 100}
		got, err := decodeRun(encodeRun(nil, &r))
		if err != nil || got.Version != v {
			t.Errorf("run version %q decoded as %q (%v)", v, got.Version, err)
		}
		k, rest, err := readCellKey(appendCellKey(nil, r.Key()))
		if err != nil || k != r.Key() || len(rest) != 0 {
			t.Errorf("cell key with version %q decoded as %+v (%v, %d left)", v, k, err, len(rest))
		}
	}
}

func TestABadVersionNamesItsLineAndImportsNothing(t *testing.T) {
	s := openMemory(t)
	_, err := s.Import(t.Context(), "bad.csv", strings.NewReader(versionedCSV("9.0", "nine point oh")), 3)
	if err == nil || !strings.Contains(err.Error(), "version") || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("err %v, want the version column of line 4 named", err)
	}
	if n := len(s.Runs()); n != 0 {
		t.Errorf("%d runs written from a refused file", n)
	}
}
