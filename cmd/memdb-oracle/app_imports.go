package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// maxRecordedImport bounds the files the import command keeps for other
// replicas (held in memory while it imports): a capture CSV is tens of
// kilobytes; a file beyond this is imported here only.
const maxRecordedImport = 8 << 20

// recordChunk is the most of a recorded file one KV value holds: a file is
// kept as its record plus chunks, every value well under Badger's limit
// (the smallest value-log file it is opened with), whatever its size.
const recordChunk = 512 << 10

// recordedImport is the KV record of one file imported here; its bytes are
// in chunk/ID/N values (CSV holds them in records of earlier releases).
type recordedImport struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Session int    `json:"session"`
	CSV     []byte `json:"csv,omitempty"`
	Size    int    `json:"size"`
	Chunks  int    `json:"chunks"`
}

func chunkKey(id string, i int) string { return fmt.Sprintf("chunk/%s/%06d", id, i) }

// importRuns validates and imports one CSV into the data directory
// (analytics' public Import: all rows or none), records it, and, when
// serve shares state, publishes it so every replica applies it.
func (a *app) importRuns(ctx context.Context, name string, session int, csv []byte) (httpadapter.ImportResult, error) {
	st, err := a.store()
	if err != nil {
		return httpadapter.ImportResult{}, err
	}
	rec := redisadapter.ImportRecord{ID: importID(name, session, csv), Name: name, Session: session, CSV: csv}
	rep, recordErr, err := a.writeImport(ctx, st, rec)
	if err != nil {
		return httpadapter.ImportResult{ImportReport: rep}, err
	}
	res := httpadapter.ImportResult{ImportReport: rep, Runs: len(st.Runs()), Fingerprint: st.Fingerprint()}
	if err := recordErr; err != nil {
		// The runs are committed: the answer says so, whatever the record
		// for replicas met (importing the file again records it).
		a.log.Warn("import committed, but not recorded for the other replicas", "file", name, "err", err)
		return res, nil
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

// recordImport keeps a file imported by the import command (its bytes as
// the import read them, at most maxRecordedImport), so serve on this
// directory publishes it to the other replicas at start.
func (a *app) recordImport(ctx context.Context, st *analytics.Store, name string, session int, csv *boundedBuffer) error {
	if csv.over {
		return fmt.Errorf("%s is larger than %d MiB", name, maxRecordedImport>>20)
	}
	b := csv.Bytes()
	return keepImport(ctx, st, redisadapter.ImportRecord{ID: importID(name, session, b), Name: name, Session: session, CSV: b})
}

// keepImport notes a file this store holds, with its bytes for replicas:
// the chunks first, then the record that makes them count.
func keepImport(ctx context.Context, st *analytics.Store, rec redisadapter.ImportRecord) error {
	kv := st.KV(kvImports)
	meta := recordedImport{ID: rec.ID, Name: rec.Name, Session: rec.Session, Size: len(rec.CSV)}
	for off := 0; off < len(rec.CSV); off += recordChunk {
		chunk := rec.CSV[off:min(off+recordChunk, len(rec.CSV))]
		if err := kv.Set(ctx, chunkKey(rec.ID, meta.Chunks), chunk, 0); err != nil {
			return fmt.Errorf("recording import %s: %w", rec.Name, err)
		}
		meta.Chunks++
	}
	raw, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("recording import %s: %w", rec.Name, err)
	}
	if err := kv.Set(ctx, "record/"+rec.ID, raw, 0); err != nil {
		return fmt.Errorf("recording import %s: %w", rec.Name, err)
	}
	if err := kv.Set(ctx, "applied/"+rec.ID, []byte{'1'}, 0); err != nil {
		return fmt.Errorf("recording import %s: %w", rec.Name, err)
	}
	return nil
}

// localImports reads back every file recorded in the data directory.
func localImports(ctx context.Context, st *analytics.Store) ([]redisadapter.ImportRecord, error) {
	kv := st.KV(kvImports)
	keys, err := kv.Keys(ctx, "record/")
	if err != nil {
		return nil, fmt.Errorf("listing local imports: %w", err)
	}
	slices.Sort(keys)
	var out []redisadapter.ImportRecord
	for _, k := range keys {
		raw, ok, err := kv.Get(ctx, k)
		if err != nil {
			return out, err
		}
		if !ok {
			continue
		}
		var meta recordedImport
		if err := json.Unmarshal(raw, &meta); err != nil {
			return out, fmt.Errorf("local import record %s is unreadable: %w", k, err)
		}
		csv := meta.CSV
		if csv == nil {
			csv = make([]byte, 0, meta.Size)
		}
		for i := range meta.Chunks {
			chunk, ok, err := kv.Get(ctx, chunkKey(meta.ID, i))
			if err != nil {
				return out, err
			}
			if !ok {
				return out, fmt.Errorf("local import record %s lacks chunk %d of %d", k, i+1, meta.Chunks)
			}
			csv = append(csv, chunk...)
		}
		if len(csv) != meta.Size && meta.CSV == nil {
			return out, fmt.Errorf("local import record %s holds %d bytes, it says %d", k, len(csv), meta.Size)
		}
		out = append(out, redisadapter.ImportRecord{ID: meta.ID, Name: meta.Name, Session: meta.Session, CSV: csv})
	}
	return out, nil
}

// boundedBuffer keeps what is written to it up to max bytes; beyond, it
// drops it all and says so (over).
type boundedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if !b.over && b.Len()+len(p) > b.max {
		b.over = true
		b.Reset()
	}
	if b.over {
		return len(p), nil
	}
	return b.Buffer.Write(p)
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
	recs, err := localImports(ctx, st)
	if err != nil {
		a.log.Warn("reading local imports", "err", err)
	}
	for _, rec := range recs {
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
		// Validated exactly as a local import is: all rows or none; kept
		// like a local import, so this replica publishes it again at start
		// (re-signing it while the shared key rotates).
		rep, recordErr, err := a.writeImport(ctx, st, rec)
		if errors.Is(err, analytics.ErrDiskFull) {
			return err // tried again at the next sync
		}
		if err != nil {
			a.log.Error("refused an import from another replica: it does not validate here", "file", rec.Name, "id", id, "err", err)
			continue
		}
		if recordErr != nil {
			return recordErr
		}
		a.log.Info("applied an import from another replica", "file", rec.Name, "session", rec.Session,
			"added", rep.Added, "already_present", rep.AlreadyPresent, "fingerprint", st.Fingerprint())
	}
	return nil
}
