package analytics

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// sourceCopy is the copy of an imported file the first pass writes (as it
// reads) and the second pass reads back. In a data directory it stays
// under sources/ once the import commits, so doctor --repair can restore
// the imported sessions; otherwise it is removed.
type sourceCopy struct {
	path     string // file on disk; "" for the embedded dataset
	rel      string // path relative to the data directory, "" when not kept
	f        *os.File
	h        hash.Hash
	embedded []byte
	kept     bool
}

// Compiled on first use: a process that never needs it does not pay for it at start.
var unsafeNameChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

// newSourceCopy starts the copy of a file being imported.
func (s *Store) newSourceCopy(name string) (*sourceCopy, error) {
	c := &sourceCopy{h: sha256.New()}
	var err error
	if s.dir == "" {
		c.f, err = os.CreateTemp("", "memdb-oracle-import-*.csv")
	} else {
		dir := filepath.Join(s.dir, sourcesDir)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("keeping a copy of the file: %w", err)
		}
		base := unsafeNameChars().ReplaceAllString(filepath.Base(name), "_")
		c.rel = filepath.Join(sourcesDir, fmt.Sprintf("%s-%s", time.Now().UTC().Format("20060102T150405.000000000Z"), base))
		c.f, err = os.OpenFile(filepath.Join(s.dir, c.rel), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("keeping a copy of the file: %w", err)
	}
	c.path = c.f.Name()
	return c, nil
}

// embeddedSource is the "copy" of an embedded file: the bytes themselves.
func embeddedSource(b []byte) *sourceCopy {
	c := &sourceCopy{h: sha256.New(), embedded: b}
	c.h.Write(b)
	return c
}

// Write appends to the copy (the first pass tees the input into it).
func (c *sourceCopy) Write(p []byte) (int, error) {
	c.h.Write(p)
	if c.f == nil {
		return len(p), nil
	}
	return faultyWrite("copy.write", c.f, p)
}

// finish makes the copy durable before anything refers to it.
func (c *sourceCopy) finish() error {
	if c.f == nil {
		return nil
	}
	if err := errors.Join(fault("copy.sync"), c.f.Sync()); err != nil {
		return fmt.Errorf("keeping a copy of the file: %w", err)
	}
	err := c.f.Close()
	c.f = nil
	if err != nil {
		return fmt.Errorf("keeping a copy of the file: %w", err)
	}
	return nil
}

// importSidecar is what the file beside a kept copy records: enough for
// doctor --repair to restore the import when neither the store's manifest
// nor its mirror can be read.
type importSidecar struct {
	Name    string `json:"name"`
	Session int    `json:"session"`
	SHA256  string `json:"sha256"`
}

// writeSidecar records, beside the finished copy, what it is the copy of.
func (c *sourceCopy) writeSidecar(name string, session int) error {
	if c.rel == "" {
		return nil
	}
	b, err := json.Marshal(importSidecar{Name: name, Session: session, SHA256: c.sha256()})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(c.path+sidecarExt, append(b, '\n')); err != nil {
		return fmt.Errorf("keeping a copy of the file: %w", err)
	}
	return nil
}

// readSidecars lists the imports the kept copies in dir record, in the
// order they were made (a copy's name starts with the time it was made).
func readSidecars(dir string) []importSource {
	files, _ := filepath.Glob(filepath.Join(dir, sourcesDir, "*"+sidecarExt))
	sort.Strings(files)
	var out []importSource
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var sc importSidecar
		if json.Unmarshal(b, &sc) != nil || sc.Session < 1 {
			continue
		}
		rel := filepath.Join(sourcesDir, strings.TrimSuffix(filepath.Base(f), sidecarExt))
		out = append(out, importSource{Name: sc.Name, Session: sc.Session, Copy: rel, SHA256: sc.SHA256})
	}
	return out
}

// keep syncs the directory entry of the copy; the pending marker already
// names it, so a crash from here on removes it with the rest.
func (c *sourceCopy) keep() error {
	if c.rel == "" {
		return nil
	}
	return syncDir(filepath.Dir(c.path))
}

// open reads the copy back for the second pass.
func (c *sourceCopy) open() (io.ReadCloser, error) {
	if c.embedded != nil {
		return io.NopCloser(bytes.NewReader(c.embedded)), nil
	}
	return os.Open(c.path)
}

func (c *sourceCopy) sha256() string { return hex.EncodeToString(c.h.Sum(nil)) }

// discard removes the copy unless its import committed.
func (c *sourceCopy) discard() {
	if c.f != nil {
		c.f.Close()
		c.f = nil
	}
	if c.path == "" || (c.kept && c.rel != "") {
		return
	}
	// What cannot be removed, the next open sets aside.
	_ = os.Remove(c.path + sidecarExt)
	if err := os.Remove(c.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return
	}
}

// sidecarExt ends the name of the file beside a kept copy that records
// what was imported from it (see importSidecar).
const sidecarExt = ".import.json"
