package analytics

import (
	"os"
	"path/filepath"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
)

// verifyNamedFiles is verifyFiles for the tables Badger will open: only
// when a table fails is the MANIFEST read, and the check repeated over the
// tables it names, so a sound store pays nothing for it.
func verifyNamedFiles(dir string, files []string, mode options.ChecksumVerificationMode) error {
	err := verifyFiles(dir, files, mode)
	if err == nil {
		return nil
	}
	if named := namedTables(dir, files); len(named) < len(files) {
		return verifyFiles(dir, named, mode)
	}
	return err
}

// namedTables keeps the table files Badger's MANIFEST names. A table it
// does not name is what a write cut off before Badger recorded it leaves
// (a process killed while flushing or compacting): Badger deletes it when
// it opens the directory and never reads it, so a torn one is not damage
// to report. When the MANIFEST cannot be read every file is kept, and
// Badger's open reports the MANIFEST itself.
func namedTables(dir string, files []string) []string {
	if len(files) == 0 {
		return files
	}
	f, err := os.Open(filepath.Join(dir, badger.ManifestFilename))
	if err != nil {
		return files
	}
	defer f.Close()
	m, _, err := badger.ReplayManifestFile(f, 0, badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		return files
	}
	named := make([]string, 0, len(files))
	for _, path := range files {
		id, ok := table.ParseFileID(filepath.Base(path))
		if _, recorded := m.Tables[id]; !ok || recorded {
			named = append(named, path)
		}
	}
	return named
}
