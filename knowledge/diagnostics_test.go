package knowledge

import (
	"os"
	"strings"
	"testing"
)

func TestDiagnosticsParse(t *testing.T) {
	data, err := os.ReadFile("data/runs-aws-diagnostics.csv")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := parseDiagnostics(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 7 {
		t.Fatalf("%d runs, want the file's 7", len(runs))
	}
	tbl := DiagnosticsTable{Runs: runs}
	if got := strings.Join(tbl.Labels(), " "); got != "shardcheck-24 shardcheck-48 check48 sat-test sat-test2" {
		t.Errorf("labels %q", got)
	}
	header, _, _ := strings.Cut(string(data), "\n")
	for _, tc := range []struct{ name, csv, want string }{
		{"bad number", header + "\n" + strings.Replace(strings.Split(string(data), "\n")[1], "2648200.5", "lots", 1), "line 2, field ops_per_sec"},
		{"no column", "note,engine\nx,redis\n", `no "mode" column`},
		{"empty", header + "\n", "no rows"},
	} {
		if _, err := parseDiagnostics([]byte(tc.csv)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
}
