package analytics

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/badger/v4/y"
	"github.com/dgraph-io/ristretto/v2/z"
)

// An open never deletes a file of the data directory. What it would drop
// (a kept copy no committed import names, a table Badger's MANIFEST no
// longer names, which Badger deletes as it opens) is first moved or
// hard-linked into dir/damaged-TIME/, where doctor lists it and a person
// decides. Only then may Badger open.

// quarantineDir returns dir/damaged-TIME for files set aside now, creating
// it.
func quarantineDir(dir string) (string, error) {
	q := filepath.Join(dir, damagedPrefix+time.Now().UTC().Format("20060102T150405Z"))
	if err := os.MkdirAll(q, 0o700); err != nil {
		return "", fmt.Errorf("setting files aside: %w", err)
	}
	return q, nil
}

// freeName is path, or path with a counter before its extension when path
// exists: a file set aside never replaces one set aside before.
func freeName(path string) string {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return path
	}
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	for i := 2; ; i++ {
		p := fmt.Sprintf("%s.%d%s", base, i, ext)
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p
		}
	}
}

// unnamedTables returns the table files in dir that Badger's MANIFEST does
// not name: those Badger deletes when it opens the directory. nil when the
// MANIFEST is missing or unreadable (Badger's open then fails on it and
// deletes nothing).
func unnamedTables(dir string) []string {
	files, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil || len(files) == 0 {
		return nil
	}
	f, err := os.Open(filepath.Join(dir, badger.ManifestFilename))
	if err != nil {
		return nil
	}
	defer f.Close()
	m, _, err := badger.ReplayManifestFile(f, 0, badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		return nil
	}
	var out []string
	for _, path := range files {
		if id, ok := table.ParseFileID(filepath.Base(path)); ok {
			if _, named := m.Tables[id]; !named {
				out = append(out, path)
			}
		}
	}
	sort.Strings(out)
	return out
}

// setAsideTables hard-links the tables Badger's MANIFEST does not name
// into dir/damaged-TIME/ before Badger opens and deletes them; it returns
// the links. A read-only open writes nothing, so it leaves them to a
// writing open (ErrNeedsRecovery).
func setAsideTables(dir string, readOnly bool) ([]string, error) {
	unnamed := unnamedTables(dir)
	if len(unnamed) == 0 {
		return nil, nil
	}
	if readOnly {
		return nil, fmt.Errorf("%w: %d table files of %s are not named by Badger's MANIFEST and must be set aside first",
			ErrNeedsRecovery, len(unnamed), dir)
	}
	q, err := quarantineDir(dir)
	if err != nil {
		return nil, err
	}
	links := make([]string, 0, len(unnamed))
	for _, path := range unnamed {
		to := freeName(filepath.Join(q, filepath.Base(path)))
		if err := os.Link(path, to); err != nil {
			if err := copyFile(path, to); err != nil {
				return nil, fmt.Errorf("setting table %s aside: %w", filepath.Base(path), err)
			}
		}
		links = append(links, to)
	}
	if err := syncDir(q); err != nil {
		return nil, err
	}
	return links, nil
}

// copyFile copies a file and syncs the copy (where a hard link is not
// possible).
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// setAsideFile records the tables an open set aside until an open has
// checked them against what Badger holds, and the damage that check
// found: Badger deletes the originals as it opens, so without the record
// a kill, or the next open, would forget that they were ever there.
const setAsideFile = "memdb-oracle-set-aside.json"

// setAsideRecord is setAsideFile's content.
type setAsideRecord struct {
	Tables  []string `json:"tables"`            // set-aside tables, relative to the data directory
	Problem string   `json:"problem,omitempty"` // the damage their check found; "" while unchecked
}

func readSetAside(dir string) (setAsideRecord, bool, error) {
	var rec setAsideRecord
	b, err := os.ReadFile(filepath.Join(dir, setAsideFile))
	if errors.Is(err, os.ErrNotExist) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, fmt.Errorf("reading %s: %w", setAsideFile, err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, true, corrupt(dir, err, "%s, the record of tables set aside, is unreadable", setAsideFile)
	}
	return rec, true, nil
}

func writeSetAside(dir string, rec setAsideRecord) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, setAsideFile), append(b, '\n'))
}

// prepareSetAside runs before Badger opens dir: it sets aside the tables
// Badger would delete and records them (with those an earlier open set
// aside and did not get to check). It returns the record to check once
// Badger is open.
func prepareSetAside(dir string, readOnly bool) (setAsideRecord, error) {
	rec, _, err := readSetAside(dir)
	if err != nil {
		return rec, err
	}
	links, err := setAsideTables(dir, readOnly)
	if err != nil || len(links) == 0 {
		return rec, err
	}
	for _, l := range links {
		rel, err := filepath.Rel(dir, l)
		if err != nil {
			return rec, err
		}
		rec.Tables = append(rec.Tables, rel)
	}
	return rec, writeSetAside(dir, rec)
}

// checkSetAside decides whether the tables set aside before Badger opened
// cost the store anything. A table left by a process killed while Badger
// flushed or compacted holds only what the log or the tables it was made
// from still hold; a table the MANIFEST lost the record of (a truncated or
// older MANIFEST) holds entries the store no longer has, and that is
// damage, named with where the table now is, and recorded so that every
// later open reports it too until doctor --repair.
func (s *Store) checkSetAside(rec setAsideRecord) error {
	if rec.Problem != "" {
		return corrupt(s.dir, nil, "%s", rec.Problem)
	}
	if len(rec.Tables) == 0 {
		return nil
	}
	for _, rel := range rec.Tables {
		path := filepath.Join(s.dir, rel)
		missing, err := s.entriesMissing(path)
		switch {
		case err != nil:
			// Badger syncs a table before its MANIFEST records it, so a
			// table that cannot be read was never recorded: a write a kill
			// cut short, whose entries are still in the log or in the
			// tables it was compacting.
			s.log.Warn("set aside a torn table left by an interrupted flush or compaction", "table", path, "err", err)
		case missing > 0:
			rec.Problem = fmt.Sprintf("table file %s holds %d entries the store lacks: Badger's MANIFEST lost its record of it; it is kept in %s",
				filepath.Base(path), missing, filepath.Dir(path))
		}
		if rec.Problem != "" {
			if !s.readOnly {
				if err := writeSetAside(s.dir, rec); err != nil {
					s.log.Warn("the damage found is not recorded for the next open", "err", err)
				}
			}
			return corrupt(s.dir, nil, "%s", rec.Problem)
		}
	}
	s.log.Warn("set aside tables left by an interrupted flush or compaction; everything in them is still in the store",
		"tables", rec.Tables)
	s.repaired = append(s.repaired, fmt.Sprintf("set aside %d table files Badger's MANIFEST does not name (left by an interrupted flush or compaction; the store holds all they hold): %s",
		len(rec.Tables), strings.Join(rec.Tables, ", ")))
	if s.readOnly {
		return nil // a writing open clears the record
	}
	if err := os.Remove(filepath.Join(s.dir, setAsideFile)); err != nil {
		return fmt.Errorf("clearing %s: %w", setAsideFile, err)
	}
	return syncDir(s.dir)
}

// entriesMissing counts the entries of a table file for which the store
// holds neither that version of the key nor a newer one.
func (s *Store) entriesMissing(path string) (missing int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reading it failed: %s", firstLine(fmt.Sprint(p)))
		}
	}()
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if err != nil && mf == nil {
		return 0, err
	}
	defer func() { _ = mf.Close(-1) }()
	t, err := table.OpenTable(mf, table.Options{ReadOnly: true, ChkMode: options.OnTableRead,
		Compression: options.Snappy, BlockSize: tableBlockSize})
	if err != nil {
		return 0, err
	}
	// Not DecrRef: at zero references the table deletes its file.
	it := t.NewIterator(0)
	defer it.Close()
	txn := s.db.NewTransaction(false)
	defer txn.Discard()
	for it.Rewind(); it.Valid(); it.Next() {
		key, version := y.ParseKey(it.Key()), y.ParseTs(it.Key())
		if bytes.HasPrefix(key, []byte("!badger!")) {
			continue // Badger's own bookkeeping, not readable through transactions
		}
		if !hasVersion(txn, key, version) {
			missing++
		}
	}
	return missing, nil
}

// hasVersion reports whether txn sees key at version or later, deleted or
// not.
func hasVersion(txn *badger.Txn, key []byte, version uint64) bool {
	kit := txn.NewKeyIterator(key, badger.IteratorOptions{AllVersions: true})
	defer kit.Close()
	kit.Rewind()
	return kit.Valid() && kit.Item().Version() >= version
}

// setAsideStrayCopies moves the kept copies that neither the store's
// manifest nor its mirror names (left by an import that failed or was
// rolled back) into dir/damaged-TIME/sources/. It runs only after the
// manifest was checked against its mirror: a store that lost imports
// keeps every copy for doctor --repair.
func (s *Store) setAsideStrayCopies(ctx context.Context) error {
	if s.dir == "" || s.readOnly {
		return nil
	}
	keep := map[string]bool{}
	for _, src := range s.manifest.Sources {
		if src.Copy != "" {
			keep[filepath.Clean(src.Copy)] = true
		}
	}
	if mirror, ok, err := readManifestFile(s.dir); err == nil && ok {
		for _, src := range mirror.Sources {
			if src.Copy != "" {
				keep[filepath.Clean(src.Copy)] = true
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join(s.dir, sourcesDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listing the kept copies: %w", err)
	}
	var stray []string
	for _, e := range entries {
		rel := filepath.Join(sourcesDir, strings.TrimSuffix(e.Name(), sidecarExt))
		if !keep[rel] {
			stray = append(stray, e.Name())
		}
	}
	if len(stray) == 0 {
		return ctx.Err()
	}
	q, err := quarantineDir(s.dir)
	if err != nil {
		return err
	}
	to := filepath.Join(q, sourcesDir)
	if err := os.MkdirAll(to, 0o700); err != nil {
		return fmt.Errorf("setting copies aside: %w", err)
	}
	for _, name := range stray {
		if err := os.Rename(filepath.Join(s.dir, sourcesDir, name), freeName(filepath.Join(to, name))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("setting copy %s aside: %w", name, err)
		}
	}
	if err := syncDir(to); err != nil {
		return err
	}
	s.log.Warn("set aside copies of files no committed import names (an import that failed or was rolled back)",
		"files", len(stray), "moved_to", to)
	s.repaired = append(s.repaired, fmt.Sprintf("set aside %d files of imports that never committed, in %s", len(stray), to))
	return syncDir(filepath.Join(s.dir, sourcesDir))
}
