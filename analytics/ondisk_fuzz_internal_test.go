package analytics

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDerivedRecords feeds arbitrary bytes to every decoder of the derived
// data and the cell entries: damage that passed Badger's checksum (or a
// bug that wrote it) must be an error, never a panic.
func FuzzDerivedRecords(f *testing.F) {
	s := openDefault(f)
	cells := s.Cells()
	chunk := binary.AppendUvarint(nil, 3)
	for i := range cells[:3] {
		chunk = appendCell(chunk, &cells[i])
	}
	f.Add(chunk, 3)
	f.Add(sealValue([]byte("derived/1/cells/0"), chunk), 3)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1)
	runs := s.Runs()
	f.Add(encodeCellEntry(nil, &runs[0]), 1)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		_, _, _ = decodeCellChunk(b, false)
		_, _, _ = decodeCellChunk(b, true)
		_, _ = decodePosting(b, n%100_000)
		_, _ = decodeCellEntry(b, n, newInterner())
		_, _ = openValue([]byte("derived/1/cells/0"), b)
		_, _ = decodeRun(b)
	})
}

// FuzzStoreFiles feeds arbitrary bytes as each of the store's own files
// outside Badger (the manifest mirror, the set-aside record, the record of
// checked tables, a kept copy's sidecar, a repair's swap marker): each is
// read as valid, or refused, never a panic; and a swap marker never moves
// a file out of the data directory.
func FuzzStoreFiles(f *testing.F) {
	m := emptyManifest()
	m.Sources = []importSource{{Generation: 1, Name: "a.csv", Session: 3, Copy: "sources/x-a.csv", SHA256: "00", Added: 1}}
	mb, _ := json.Marshal(m)
	f.Add(mb)
	sb, _ := json.Marshal(swapPlan{Damaged: "damaged-x", Old: []string{"MANIFEST"}})
	f.Add(sb)
	f.Add([]byte(`{"damaged":"damaged-x","old":["../outside"]}`))
	f.Add([]byte(`{"tables":["damaged-x/000001.sst"],"problem":""}`))
	f.Add([]byte(checkedTablesHeader + "\n000001.sst 1 2 3 4\ncrc32 0\n"))
	f.Add([]byte(`{"name":"a.csv","session":3,"sha256":"00"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		top := t.TempDir()
		dir := filepath.Join(top, "data")
		if err := os.MkdirAll(filepath.Join(dir, sourcesDir), 0o700); err != nil {
			t.Fatal(err)
		}
		outside := filepath.Join(top, "outside")
		if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{manifestFile, setAsideFile, checkedTablesFile, swapMarker,
			filepath.Join(sourcesDir, "x-a.csv"+sidecarExt)} {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		_, _, _ = readManifestFile(dir)
		_, _, _ = readSetAside(dir)
		_ = readCheckedTables(dir)
		_ = readSidecars(dir)
		_ = finishSwap(dir)
		if got, err := os.ReadFile(outside); err != nil || string(got) != "keep" {
			t.Fatalf("a swap marker moved a file outside the data directory: %v", err)
		}
	})
}
