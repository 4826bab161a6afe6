package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	redisadapter "github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// kvImports is the data directory's record of imported files: "record/ID"
// holds each file imported here (so a replica started after an offline
// import publishes it), "applied/ID" each file this store holds.
const kvImports = "imports"

// importSyncEvery is how often serve looks for imports it missed a
// notification of (after an outage, say).
const importSyncEvery = 5 * time.Second

// importID fingerprints one file as imported: the same bytes under the same
// name and session are one import, wherever they were imported.
func importID(name string, session int, csv []byte) string {
	h := sha256.New()
	h.Write([]byte(name + "\n" + strconv.Itoa(session) + "\n"))
	h.Write(csv)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// maxRecordedImport bounds the files kept for other replicas: a capture
// CSV is tens of kilobytes; a file beyond this is imported here only. The
// record holds the file in base64 (4/3 of its size) and must fit one value
// of the store (Badger's limit: its 16 MiB value-log file).
const maxRecordedImport = 8 << 20

// importRuns validates and imports one CSV into the data directory
// (analytics' public Import: all rows or none), records it, and, when
// serve shares state, publishes it so every replica applies it.
func (a *app) importRuns(ctx context.Context, name string, session int, csv []byte) (httpadapter.ImportResult, error) {
	st, err := a.store()
	if err != nil {
		return httpadapter.ImportResult{}, err
	}
	rep, err := st.Import(ctx, name, bytes.NewReader(csv), session)
	if err != nil {
		return httpadapter.ImportResult{ImportReport: rep}, err
	}
	res := httpadapter.ImportResult{ImportReport: rep, Runs: len(st.Runs()), Fingerprint: st.Fingerprint()}
	rec := redisadapter.ImportRecord{ID: importID(name, session, csv), Name: name, Session: session, CSV: csv}
	if err := keepImport(ctx, st, rec); err != nil {
		return res, err
	}
	feed, on, err := a.feed()
	if err != nil || !on {
		return res, err
	}
	if _, err := feed.Publish(ctx, rec); err != nil {
		a.log.Warn("import not yet published to the other replicas; it will be at the next start or sync", "file", name, "err", err)
		return res, nil
	}
	res.Published = true
	return res, nil
}

// recordImport keeps a file imported by the import command, so serve on
// this directory publishes it to the other replicas at start.
func (a *app) recordImport(ctx context.Context, st *analytics.Store, name string, session int, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Size() > maxRecordedImport {
		return fmt.Errorf("%s is larger than %d MiB", name, maxRecordedImport>>20)
	}
	csv, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return keepImport(ctx, st, redisadapter.ImportRecord{ID: importID(name, session, csv), Name: name, Session: session, CSV: csv})
}

// keepImport notes a file this store holds, with its bytes for replicas.
func keepImport(ctx context.Context, st *analytics.Store, rec redisadapter.ImportRecord) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("recording import %s: %w", rec.Name, err)
	}
	kv := st.KV(kvImports)
	if err := kv.Set(ctx, "record/"+rec.ID, raw, 0); err != nil {
		return fmt.Errorf("recording import %s: %w", rec.Name, err)
	}
	if err := kv.Set(ctx, "applied/"+rec.ID, []byte{'1'}, 0); err != nil {
		return fmt.Errorf("recording import %s: %w", rec.Name, err)
	}
	return nil
}

// importer is importRuns as the HTTP API's Importer.
type importer struct{ a *app }

func (i importer) Import(ctx context.Context, name string, session int, csv []byte) (httpadapter.ImportResult, error) {
	return i.a.importRuns(ctx, name, session, csv)
}

// syncImports keeps the data directory in step with the imports published
// by every replica: at start it publishes the files imported here while
// the replica was stopped and applies what it lacks, then again on each
// notification and every importSyncEvery.
func (a *app) syncImports(ctx context.Context, feed redisadapter.Imports) error {
	notes := feed.Notifications(ctx)
	a.publishLocalImports(ctx, feed)
	tick := time.NewTicker(importSyncEvery)
	defer tick.Stop()
	for {
		// While the shared store is not usable its outage is logged once
		// by the store; the sync just waits for it.
		if err := a.applyImports(ctx, feed); err != nil && ctx.Err() == nil && !errors.Is(err, redisadapter.ErrUnavailable) {
			a.log.Warn("applying imports from other replicas", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-notes:
		case <-tick.C:
		}
	}
}

// publishLocalImports offers every file imported into this data directory
// to the feed (a file already there is left as it is).
func (a *app) publishLocalImports(ctx context.Context, feed redisadapter.Imports) {
	st, err := a.store()
	if err != nil {
		return
	}
	kv := st.KV(kvImports)
	keys, err := kv.Keys(ctx, "record/")
	if err != nil {
		a.log.Warn("listing local imports", "err", err)
		return
	}
	for _, k := range keys {
		raw, ok, err := kv.Get(ctx, k)
		if err != nil || !ok {
			continue
		}
		var rec redisadapter.ImportRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			a.log.Warn("local import record unreadable", "key", k, "err", err)
			continue
		}
		if isNew, err := feed.Publish(ctx, rec); err != nil {
			a.log.Warn("publishing a local import", "file", rec.Name, "err", err)
		} else if isNew {
			a.log.Info("published an import made while stopped", "file", rec.Name, "id", rec.ID)
		}
	}
}

// applyImports imports each published file this store lacks.
func (a *app) applyImports(ctx context.Context, feed redisadapter.Imports) error {
	st, err := a.store()
	if err != nil {
		return err
	}
	kv := st.KV(kvImports)
	ids, err := feed.IDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, done, err := kv.Get(ctx, "applied/"+id); err != nil || done {
			continue
		}
		rec, err := feed.Get(ctx, id)
		if errors.Is(err, redisadapter.ErrRefused) {
			continue // logged and counted by the feed, once
		}
		if err != nil {
			return err
		}
		if importID(rec.Name, rec.Session, rec.CSV) != id {
			a.log.Error("refused an import from another replica: its fingerprint does not match its content", "file", rec.Name, "id", id)
			continue
		}
		// Validated exactly as a local import is: all rows or none.
		rep, err := st.Import(ctx, rec.Name, bytes.NewReader(rec.CSV), rec.Session)
		if err != nil {
			a.log.Error("refused an import from another replica: it does not validate here", "file", rec.Name, "id", id, "err", err)
			continue
		}
		// Kept like a local import, so this replica publishes it again at
		// start (re-signing it while the shared key rotates).
		if err := keepImport(ctx, st, rec); err != nil {
			return err
		}
		a.log.Info("applied an import from another replica", "file", rec.Name, "session", rec.Session,
			"added", rep.Added, "already_present", rep.AlreadyPresent, "fingerprint", st.Fingerprint())
	}
	return nil
}
