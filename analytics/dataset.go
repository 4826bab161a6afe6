package analytics

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"sort"
)

// datasetFS holds the two capture files from the benchmark's public
// repository (sunnysahijwani/dragonfly-redis-valkey-benchmark, MIT).
//
//go:embed dataset/*.csv
var datasetFS embed.FS

// DatasetFile is one embedded capture file and the session it belongs to.
type DatasetFile struct {
	Path    string // inside the embedded file system
	Session int
}

// Name is the file's base name, used as the import's file name.
func (f DatasetFile) Name() string { return path.Base(f.Path) }

// Open returns the embedded file's contents.
func (f DatasetFile) Open() ([]byte, error) { return datasetFS.ReadFile(f.Path) }

// DefaultDataset lists the embedded capture files: session 1 (Dragonfly,
// Redis, Valkey) and session 2 (KeyDB, Garnet).
func DefaultDataset() []DatasetFile {
	return []DatasetFile{
		{Path: "dataset/runs-aws.csv", Session: 1},
		{Path: "dataset/runs-session2-aws.csv", Session: 2},
	}
}

// EmbeddedFingerprint is the Fingerprint a store holding exactly the
// embedded dataset has.
func EmbeddedFingerprint() (string, error) {
	var runs []Run
	for _, f := range DefaultDataset() {
		b, err := f.Open()
		if err != nil {
			return "", fmt.Errorf("embedded dataset: %w", err)
		}
		rows, probs := readCSV(bytes.NewReader(b), f.Session, f.Name())
		if len(probs) > 0 {
			return "", &ImportError{File: f.Name(), Problems: probs}
		}
		for _, r := range rows {
			if Keep(r.run) {
				runs = append(runs, r.run)
			}
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].ID < runs[j].ID })
	return fingerprint(runs), nil
}
