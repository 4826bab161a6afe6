package http

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Importer adds the runs of one capture CSV, all or nothing; the app's
// importer also publishes them to every replica.
type Importer interface {
	Import(ctx context.Context, name string, session int, csv []byte) (ImportResult, error)
}

// ImportResult is the reply of POST /api/import.
type ImportResult struct {
	analytics.ImportReport
	// Runs and Fingerprint describe the store after the import.
	Runs        int    `json:"runs"`
	Fingerprint string `json:"fingerprint"`
	// Published says the file was handed to the other replicas.
	Published bool `json:"published"`
}

// DefaultMaxImportBytes caps the CSV POST /api/import accepts.
const DefaultMaxImportBytes = 32 << 20

// importRejected is the body of a 400 for a file with bad rows.
type importRejected struct {
	Error    string   `json:"error"`
	Problems []string `json:"problems"`
}

// serveImport is POST /api/import?session=N&name=FILE.csv with the CSV as
// the body and the admin token as the bearer.
func (api *API) serveImport(w http.ResponseWriter, r *http.Request) {
	token, ok := bearer(r.Header.Get("Authorization"))
	want := sha256.Sum256([]byte(api.opts.AdminToken))
	got := sha256.Sum256([]byte(token))
	if !ok || subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="memdb-oracle admin"`)
		writeJSON(w, http.StatusUnauthorized, problem{Error: "the admin token is required: send it as \"Authorization: Bearer TOKEN\""})
		return
	}
	session := 1
	if v := r.URL.Query().Get("session"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeJSON(w, http.StatusBadRequest, problem{Error: fmt.Sprintf("session must be a whole number ≥ 1, got %q", v)})
			return
		}
		session = n
	}
	name := path.Base(strings.ReplaceAll(r.URL.Query().Get("name"), `\`, "/"))
	if name == "." || name == "/" || name == "" {
		name = "import.csv"
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.opts.MaxImportBytes))
	if err != nil {
		status, reason := decodeProblem(err)
		writeJSON(w, status, problem{Error: reason})
		return
	}
	res, err := api.opts.Importer.Import(r.Context(), name, session, body)
	if ie, bad := errors.AsType[*analytics.ImportError](err); bad {
		rej := importRejected{Error: fmt.Sprintf("%s: nothing was written", name)}
		for _, p := range ie.Problems {
			rej.Problems = append(rej.Problems, p.String())
		}
		writeJSON(w, http.StatusBadRequest, rej)
		return
	}
	if errors.Is(err, analytics.ErrDiskFull) {
		// Nothing was committed, and the store goes on answering from what
		// it holds: the admin needs the space free and needed, not a ref.
		api.log.WarnContext(r.Context(), "import refused: the disk is full", "file", name, "err", err)
		writeJSON(w, http.StatusInsufficientStorage, problem{Error: fmt.Sprintf("%v; free space on the server and send the file again", err)})
		return
	}
	if err != nil {
		ref := newRef()
		api.log.ErrorContext(r.Context(), "import failed", "file", name, "ref", ref, "err", err)
		writeJSON(w, http.StatusInternalServerError, problem{Error: "import failed (ref " + ref + ")"})
		return
	}
	api.log.InfoContext(r.Context(), "imported", "file", name, "session", session, "added", res.Added, "published", res.Published)
	writeJSON(w, http.StatusOK, res)
}
