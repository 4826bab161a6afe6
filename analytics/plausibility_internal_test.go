package analytics

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestImplausibleRowsAreRefusedNamingLineColumnValueAndRule(t *testing.T) {
	base := sessionOneRecords(t)
	col := func(name string) int { return column(t, base, name) }
	// edit changes row 2 of the file (line 3: the header is line 1).
	edit := func(set map[string]string) string {
		recs := make([][]string, len(base))
		for i, r := range base {
			recs[i] = slices.Clone(r)
		}
		for k, v := range set {
			recs[2][col(k)] = v
		}
		return encodeCSV(t, recs)
	}
	tests := []struct {
		name string
		set  map[string]string
		want string
	}{
		{"a zero latency with traffic", map[string]string{"p50_ms": "0"}, "line 3, column p50_ms: implausible: 0"},
		{"ops per core far from ops per second over cores", map[string]string{"ops_per_core": "900000000", "ops_per_sec": "1000"},
			"line 3, column ops_per_core: implausible: 900000000"},
		{"more hits than operations", map[string]string{"hits_per_sec": "99999999"}, "line 3, column hits_per_sec: implausible: 99999999"},
		{"no bytes moved with traffic", map[string]string{"kb_per_sec": "0"}, "line 3, column kb_per_sec: implausible: 0"},
		{"more cores than CPUs and shards", map[string]string{"cores_used": "1024", "server_cpus": "0-3", "shards": "4",
			"ops_per_sec": "1024000", "ops_per_core": "1000", "hits_per_sec": "1000"}, "line 3, column cores_used: implausible: 1024"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openMemory(t)
			_, err := s.Import(t.Context(), "odd.csv", strings.NewReader(edit(tt.set)), 3)
			var ie *ImportError
			if !errors.As(err, &ie) || !strings.HasPrefix(ie.Problems[0].String(), tt.want) {
				t.Fatalf("error = %v, want a problem starting %q", err, tt.want)
			}
			if n := s.StoredRuns()[3]; n != 0 {
				t.Errorf("%d runs written", n)
			}
			// Deliberate: imported with the oddity recorded.
			rep, err := s.ImportWith(t.Context(), "odd.csv", strings.NewReader(edit(tt.set)), 3, ImportOptions{AllowImplausible: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Implausible) == 0 || !strings.HasPrefix(rep.Implausible[0].String(), tt.want) {
				t.Errorf("report's implausible rows = %v", rep.Implausible)
			}
			if src := s.committed().Sources; len(src) == 0 || src[len(src)-1].Implausible == 0 {
				t.Errorf("the manifest does not record the allowed oddities: %+v", src)
			}
		})
	}
}

func TestControlBidiAndBOMCharactersInTextFieldsAreRefused(t *testing.T) {
	base := sessionOneRecords(t)
	note := column(t, base, "note")
	for name, bad := range map[string]string{
		"a right-to-left override": "scale-48c\u202e",
		"a byte-order mark":        "\ufeffscale-48c",
		"a C1 control":             "scale-\u009b48c",
		"a zero-width joiner":      "scale-\u200d48c",
	} {
		t.Run(name, func(t *testing.T) {
			recs := make([][]string, len(base))
			for i, r := range base {
				recs[i] = slices.Clone(r)
			}
			recs[1][note] = bad
			s := openMemory(t)
			_, err := s.ImportWith(t.Context(), "odd.csv", strings.NewReader(encodeCSV(t, recs)), 3, ImportOptions{AllowImplausible: true})
			var ie *ImportError
			if !errors.As(err, &ie) || !strings.HasPrefix(ie.Problems[0].String(), "line 2, column note:") || !strings.Contains(ie.Problems[0].Reason, "U+") {
				t.Fatalf("error = %v, want line 2, column note naming the character", err)
			}
		})
	}
}

func TestAHeaderWithoutLineEndsGivesAShortMessage(t *testing.T) {
	s := openMemory(t)
	_, err := s.Import(t.Context(), "one-line.csv", strings.NewReader(strings.Repeat("x", 4<<20)), 3)
	if err == nil || len(err.Error()) > 2000 {
		t.Errorf("error of %d bytes: %.200v", len(errString(err)), err)
	}
}
