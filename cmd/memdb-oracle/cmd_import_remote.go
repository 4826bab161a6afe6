package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
)

// remote sends the file to a running serve's POST /api/import, which
// validates and imports it there and publishes it to every replica.
func (c importCmd) remote(a *app, name string, csv []byte) error {
	token := a.cfg.HTTP.AdminToken
	if token == "" {
		return usageError{errors.New("--remote needs MEMDB_ORACLE_ADMIN_TOKEN, the token serve was started with")}
	}
	base, err := url.Parse(strings.TrimRight(c.Remote, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return usageError{fmt.Errorf("--remote %q: want http(s)://HOST[:PORT]", c.Remote)}
	}
	u := base.JoinPath("/api/import")
	u.RawQuery = url.Values{"session": {strconv.Itoa(c.Session)}, "name": {name}}.Encode()
	req, err := http.NewRequestWithContext(a.ctx, http.MethodPost, u.String(), bytes.NewReader(csv))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "text/csv")
	resp, err := (&http.Client{Timeout: 5 * time.Minute}).Do(req)
	if err != nil {
		return fmt.Errorf("import through %s: %w", base.Redacted(), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("import through %s: reading the reply: %w", base.Redacted(), err)
	}
	var reply struct {
		httpadapter.ImportResult
		Error    string   `json:"error"`
		Problems []string `json:"problems"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		return fmt.Errorf("import through %s: HTTP %d, not a JSON reply", base.Redacted(), resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		for _, p := range reply.Problems {
			fmt.Fprintln(a.stderr, p)
		}
		return fmt.Errorf("import through %s: HTTP %d: %s", base.Redacted(), resp.StatusCode, reply.Error)
	}
	r := reply.ImportResult
	where := "that replica"
	if r.Published {
		where = "every replica sharing its state"
	}
	_, err = fmt.Fprintf(a.stdout, "Imported %s as session %d through %s: %d rows read, %d kept, %d added, %d already present; it now holds %d runs (fingerprint %s) and reaches %s.\n",
		r.File, r.Session, base.Redacted(), r.Rows, r.Kept, r.Added, r.AlreadyPresent, r.Runs, r.Fingerprint, where)
	return err
}
