package analytics

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	badger "github.com/dgraph-io/badger/v4"
)

// Keys of the store's own records, next to the run/ and kv/ prefixes.
const (
	manifestKey = "meta/manifest" // what the store must hold; rewritten by every import's commit
	pendingKey  = "meta/pending"  // an import under way: present from its first write to its commit
)

// manifestFile mirrors the manifest outside Badger, so that a store whose
// Badger files lost their own bookkeeping (or its manifest key) is known to
// be damaged rather than new, and doctor --repair knows the imported
// sources even when Badger cannot be read.
const manifestFile = "memdb-oracle-manifest.json"

// sourcesDir holds a copy of every imported CSV inside the data directory,
// so doctor --repair can restore imported sessions.
const sourcesDir = "sources"

// storeFormat versions the layout of the store (keys and run encoding),
// recorded under formatKey:
//   - 1 (no format key): JSON per run under run/{id}; stores without a
//     manifest were written before manifests existed and get one.
//   - 2: runs in the binary encoding of encoding.go under id/{id}, a cell
//     entry per run (its metrics) under cr/ in cell order, and the derived
//     data (fingerprint, cell records, posting lists, coverage) under
//     derived/{generation}/, written by the import that commits the
//     generation.
//   - 3: as 2, with each cell entry holding every filter field that is not
//     its cell's (encodeCellEntry), and the derived data holding the runs'
//     columns (columns.go).
//
// A writing Open migrates an earlier format's store once (migrate.go,
// migrate_columns.go); a read-only one reads it as it is.
const storeFormat = 3

// manifest is what the store must hold: the runs per session (count and an
// order-independent digest of every stored run) and where each import came
// from. It is written in the same Badger transaction that commits an
// import, and verified whenever the runs are loaded.
type manifest struct {
	Format     int                    `json:"format"`
	Generation uint64                 `json:"generation"` // committed imports so far
	Sessions   map[string]sessionSums `json:"sessions"`   // by session number
	Sources    []importSource         `json:"sources"`    // in import order
}

// sessionSums describes one session's stored runs.
type sessionSums struct {
	Runs   int    `json:"runs"`
	Digest string `json:"digest"` // hex of the sum of every run's runDigest, mod 2^256
}

// importSource is one committed import that added runs.
type importSource struct {
	Generation uint64 `json:"generation"`
	Name       string `json:"name"`           // file name as given to import
	Session    int    `json:"session"`        // session the rows were imported as
	Embedded   bool   `json:"embedded"`       // the embedded dataset: rebuilt from the binary
	Copy       string `json:"copy,omitempty"` // path of the kept copy, relative to the data directory
	SHA256     string `json:"sha256"`         // of the file's bytes
	Added      int    `json:"added"`
	// Implausible counts the rows imported although they break a
	// plausibility rule (the import allowed them).
	Implausible int `json:"implausible,omitempty"`
}

// pendingImport marks an import whose runs are being written. Every run key
// written after it (a higher Badger version) belongs to it until the commit
// deletes the marker; an open that finds the marker rolls those back.
type pendingImport struct {
	Generation uint64 `json:"generation"` // the generation its commit would create
	Name       string `json:"name"`
	Session    int    `json:"session"`
	Copy       string `json:"copy,omitempty"`
}

func emptyManifest() manifest {
	return manifest{Format: storeFormat, Sessions: map[string]sessionSums{}}
}

func (m manifest) clone() manifest {
	out := m
	out.Sessions = make(map[string]sessionSums, len(m.Sessions))
	for k, v := range m.Sessions {
		out.Sessions[k] = v
	}
	out.Sources = slices.Clone(m.Sources)
	return out
}

// totalRuns is the number of runs the manifest says the store holds.
func (m manifest) totalRuns() int {
	n := 0
	for _, s := range m.Sessions {
		n += s.Runs
	}
	return n
}

// digest256 is an order-independent digest of a set of runs: the sum, mod
// 2^256, of each run's SHA-256. Adding runs adds their digests, so an import
// extends a session's digest without reading the session back.
type digest256 [4]uint64

// runDigest hashes one stored run: its key and its encoded value.
func runDigest(key, value []byte) digest256 {
	h := sha256.New()
	h.Write(key)
	h.Write([]byte{0})
	h.Write(value)
	var sum [32]byte
	h.Sum(sum[:0])
	var d digest256
	for i := range d {
		d[i] = binary.LittleEndian.Uint64(sum[i*8:])
	}
	return d
}

func (d *digest256) add(o digest256) {
	var carry uint64
	for i := range d {
		d[i], carry = bits.Add64(d[i], o[i], carry)
	}
}

func (d digest256) String() string {
	var b [32]byte
	for i, w := range d {
		binary.LittleEndian.PutUint64(b[i*8:], w)
	}
	return hex.EncodeToString(b[:])
}

func parseDigest(s string) (digest256, error) {
	var d digest256
	if s == "" {
		return d, nil
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		return d, fmt.Errorf("bad digest %q", s)
	}
	for i := range d {
		d[i] = binary.LittleEndian.Uint64(b[i*8:])
	}
	return d, nil
}

// sessionKey is the manifest's key for a session number.
func sessionKey(session int) string { return strconv.Itoa(session) }

// readManifest returns the manifest stored in Badger, and whether there is one.
func readManifest(txn *badger.Txn) (manifest, bool, error) {
	var m manifest
	found, err := readJSON(txn, manifestKey, &m)
	if err != nil || !found {
		return emptyManifest(), found, err
	}
	if m.Sessions == nil {
		m.Sessions = map[string]sessionSums{}
	}
	return m, true, nil
}

// readPending returns the pending-import marker, its Badger version, and
// whether there is one.
func readPending(txn *badger.Txn) (pendingImport, uint64, bool, error) {
	item, err := txn.Get([]byte(pendingKey))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return pendingImport{}, 0, false, nil
	}
	if err != nil {
		return pendingImport{}, 0, false, err
	}
	var p pendingImport
	if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &p) }); err != nil {
		return pendingImport{}, 0, false, fmt.Errorf("%s: %w", pendingKey, err)
	}
	return p, item.Version(), true, nil
}

func readJSON(txn *badger.Txn, key string, v any) (bool, error) {
	item, err := txn.Get([]byte(key))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := item.Value(func(b []byte) error { return json.Unmarshal(b, v) }); err != nil {
		return false, fmt.Errorf("%s: %w", key, err)
	}
	return true, nil
}

func setJSON(txn *badger.Txn, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return txn.Set([]byte(key), b)
}

// readManifestFile reads the manifest mirrored outside Badger; found is
// false when there is none.
func readManifestFile(dir string) (manifest, bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return emptyManifest(), false, nil
	}
	if err != nil {
		return emptyManifest(), false, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return emptyManifest(), true, fmt.Errorf("%s is not valid: %w", manifestFile, err)
	}
	if m.Sessions == nil {
		m.Sessions = map[string]sessionSums{}
	}
	return m, true, nil
}

// writeManifestFile replaces the mirrored manifest atomically (write a
// temporary file, sync, rename, sync the directory).
func writeManifestFile(dir string, m manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, manifestFile), append(b, '\n'))
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := faultyWrite("file.write", f, data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := errors.Join(fault("file.sync"), f.Sync()); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := errors.Join(fault("file.rename"), os.Rename(tmp, path)); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := errors.Join(fault("dir.sync"), d.Sync()); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
