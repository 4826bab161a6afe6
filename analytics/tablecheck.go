package analytics

import (
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// verifyTables checks every table file before Badger opens the directory.
// Badger checks tables at open inside its own goroutines, where a damaged
// table panics the process (a truncated file, a damaged index) or is
// silently skipped; here the same check runs where a panic can be
// recovered and reported. At open (full false) it reads what Badger's own
// open reads: each table's footer and index (their checksums) and its
// first and last blocks, so it costs the same at any store size; every
// other block is checked by Badger when it is read (OnBlockRead), and
// doctor (full true) checks every block of every table.
func verifyTables(dir string, full bool) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil {
		return err
	}
	mode := options.OnBlockRead
	if full {
		mode = options.OnTableRead
	}
	return verifyNamedFiles(dir, files, mode)
}

// checkTables is verifyTables at open, reading only the tables that are not
// remembered in their present state (see checkedTablesFile). With remember
// (a process that may write to the directory) the record is then replaced
// by the tables checked and found sound, when that changes it; a read-only
// open writes nothing. It returns how many tables it read.
func checkTables(dir string, remember bool) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil {
		return 0, err
	}
	known := readCheckedTables(dir)
	now := time.Now() // before any stamp: see racyChange
	sound := make(map[string]tableStamp, len(files))
	var todo []string
	for _, f := range files {
		name := filepath.Base(f)
		st, ok := stampTable(f)
		if ok && st.rememberable(now) {
			sound[name] = st
		}
		if !ok || known[name] != st {
			todo = append(todo, f)
		}
	}
	// A remembered table still has its footer checked: bit rot changes no
	// stamp, and a footer whose lengths point outside the file panics
	// Badger in the goroutines that open its tables, where nothing can
	// recover it. Everything else Badger's own open reads is checksummed.
	var trusted []string
	for _, f := range files {
		if !slices.Contains(todo, f) {
			trusted = append(trusted, f)
		}
	}
	for _, f := range trusted {
		if err := checkFooter(f, known[filepath.Base(f)].size); err != nil && slices.Contains(namedTables(dir, []string{f}), f) {
			return len(todo), corrupt(dir, err, "table file %s is damaged (%v)", filepath.Base(f), err)
		}
	}
	if err := verifyNamedFiles(dir, todo, options.OnBlockRead); err != nil {
		return len(todo), err
	}
	if remember && !maps.Equal(sound, known) {
		// A record that cannot be written only costs the next open the
		// checks it would have saved.
		_ = writeCheckedTables(dir, sound)
	}
	return len(todo), nil
}

// verifyFiles checks the table files in parallel and returns the first
// damaged one's error, in the order given.
func verifyFiles(dir string, files []string, mode options.ChecksumVerificationMode) error {
	// One worker per processor: a store has many small tables after an
	// import, and each check is independent.
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := range next {
				errs[i] = verifyTable(dir, files[i], mode)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err // the first damaged table, in name order
		}
	}
	return nil
}

func verifyTable(dir, path string, mode options.ChecksumVerificationMode) (err error) {
	name := filepath.Base(path)
	// A table a crash cut off while it was written has holes, and on a
	// memory-backed file system (tmpfs) even reading a hole allocates a
	// page: on a full one, that is a fault, which this makes a panic to
	// recover as damage (an orphan's is not reported: verifyNamedFiles).
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = corrupt(dir, nil, "table file %s is damaged (reading it failed: %s)", name, firstLine(fmt.Sprint(p)))
		}
	}()
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if err != nil && mf == nil {
		return corrupt(dir, err, "table file %s cannot be opened (%v)", name, err)
	}
	t, err := table.OpenTable(mf, table.Options{
		ReadOnly:    true,
		ChkMode:     mode,
		Compression: options.Snappy, // how this store writes its tables (Badger's default)
		BlockSize:   tableBlockSize,
	})
	if err != nil {
		_ = mf.Close(-1)
		return corrupt(dir, err, "table file %s fails its checksum (%v)", name, err)
	}
	_ = t // not DecrRef: at zero references it deletes the file
	if err := mf.Close(-1); err != nil {
		return fmt.Errorf("closing table %s: %w", name, err)
	}
	return nil
}

// checkFooter reads the end of a table file of size bytes (as stamped:
// the file is remembered in that state) and checks that the lengths it
// gives (the index's checksum, the index: Badger's layout) fit in the
// file. One read of its last footerRead bytes holds both for Badger's
// checksums; a longer one takes a second read.
func checkFooter(path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if size < 8 {
		return fmt.Errorf("%d bytes is too short for a table", size)
	}
	var b [footerRead]byte
	tail := b[:min(size, footerRead)]
	at := size - int64(len(tail))
	if _, err := f.ReadAt(tail, at); err != nil {
		return err
	}
	u32 := func(off int64) (int64, error) {
		if off >= at {
			return int64(binary.BigEndian.Uint32(tail[off-at:])), nil
		}
		var w [4]byte
		_, err := f.ReadAt(w[:], off)
		return int64(binary.BigEndian.Uint32(w[:])), err
	}
	sumLen, _ := u32(size - 4)
	if sumLen > size-8 {
		return fmt.Errorf("its footer gives a checksum of %d bytes in a file of %d", sumLen, size)
	}
	indexLen, err := u32(size - 8 - sumLen)
	if err != nil {
		return err
	}
	if indexLen > size-8-sumLen {
		return fmt.Errorf("its footer gives an index of %d bytes in a file of %d", indexLen, size)
	}
	return nil
}

// footerRead is how much of a table's end checkFooter reads at once: the
// two lengths and a CRC-32C checksum message (about ten bytes), with room.
const footerRead = 64

// firstLine shortens a recovered panic's text to one line for a message.
func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "==") {
			if r := []rune(line); len(r) > 120 {
				line = string(r[:120]) + "…"
			}
			return line
		}
	}
	return "unknown failure"
}
