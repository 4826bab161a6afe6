package analytics

import (
	"embed"
	"path"
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
