package analyticstest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// earlierFormats holds the embedded dataset as earlier releases stored it
// (written by the analytics package's TestWriteEarlierFormatFixtures).
//
//go:embed testdata/format1.tar.gz testdata/format2.tar.gz
var earlierFormats embed.FS

// EarlierFormatStore writes a data directory holding the embedded dataset
// (478 runs) as a release of store format 1 (JSON runs) or 2 (no columns)
// left it, in a new temporary directory, and returns the directory: a
// store the next writing open migrates, saying so once.
func EarlierFormatStore(tb testing.TB, format int) string {
	tb.Helper()
	b, err := earlierFormats.ReadFile(fmt.Sprintf("testdata/format%d.tar.gz", format))
	if err != nil {
		tb.Fatalf("no store of format %d: %v", format, err)
	}
	dir := filepath.Join(tb.TempDir(), "data")
	if err := untar(b, dir); err != nil {
		tb.Fatalf("writing the format-%d store: %v", format, err)
	}
	return dir
}

func untar(b []byte, dir string) error {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(h.Name)), data, 0o600); err != nil {
			return err
		}
	}
}
