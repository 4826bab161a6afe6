package http

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// failingImporter fails every import with err.
type failingImporter struct{ err error }

func (f failingImporter) Import(context.Context, string, int, []byte) (ImportResult, error) {
	return ImportResult{}, f.err
}

func TestAnImportOnAFullDiskIs507WithTheSpaceNeededAndAnyOtherFailureA500WithARef(t *testing.T) {
	full := fmt.Errorf("import a.csv: nothing written: %w in /data: 0.0 MiB free, 64.0 MiB needed", analytics.ErrDiskFull)
	for _, tc := range []struct {
		name       string
		err        error
		wantStatus int
		want       []string
		wantNot    string
	}{
		{"a full disk", full, http.StatusInsufficientStorage, []string{"not enough free disk space", "64.0 MiB needed", "send the file again"}, "ref"},
		{"any other failure", errors.New("badger: something internal"), http.StatusInternalServerError, []string{"import failed (ref "}, "badger"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := startServer(t, &fakeBot{}, Options{Importer: failingImporter{tc.err}, AdminToken: "tok"})
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/api/import?name=a.csv", strings.NewReader("x\n"))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer tok")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var p problem
			if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.wantStatus {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.wantStatus, p.Error)
			}
			for _, w := range tc.want {
				if !strings.Contains(p.Error, w) {
					t.Errorf("error %q lacks %q", p.Error, w)
				}
			}
			if strings.Contains(p.Error, tc.wantNot) {
				t.Errorf("error %q says %q", p.Error, tc.wantNot)
			}
		})
	}
}
