package analytics

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

var updateStoreFixtures = flag.Bool("memdb.update-store-fixtures", false,
	"rewrite analyticstest/testdata/format*.tar.gz: the embedded dataset as earlier releases stored it")

// TestWriteEarlierFormatFixtures writes, with -memdb.update-store-fixtures,
// the data directories that analyticstest.EarlierFormatStore gives other
// packages' tests (serve migrating a store at start): the embedded dataset
// in store formats 1 and 2, as writeFormat1Store and writeFormat2Store
// write them. TestEarlierFormatFixturesMigrate checks what they hold.
func TestWriteEarlierFormatFixtures(t *testing.T) {
	if !*updateStoreFixtures {
		t.Skip("rewrites the fixtures only with -memdb.update-store-fixtures")
	}
	for format, write := range map[int]func(*testing.T, string){1: writeFormat1Store, 2: writeFormat2Store} {
		dir := filepath.Join(t.TempDir(), "data")
		write(t, dir)
		out := filepath.Join("analyticstest", "testdata", "format"+strconv.Itoa(format)+".tar.gz")
		if err := os.WriteFile(out, tarDir(t, dir), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tarDir is dir's files as a gzipped tar, in name order with no times, so
// that the same store is the same bytes. Badger's discard file (1 MiB,
// made again by an open) and the table-check cache (keyed to inodes) are
// left out.
func tarDir(t *testing.T, dir string) []byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && n != "DISCARD" && n != checkedTablesFile {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o600, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
