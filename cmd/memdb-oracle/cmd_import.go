package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// importCmd adds runs from a capture CSV, all or nothing.
type importCmd struct {
	Session int    `name:"session" default:"1" help:"Benchmark session the file belongs to (1: Dragonfly/Redis/Valkey, 2: KeyDB/Garnet)."`
	File    string `arg:"" name:"file" type:"existingfile" help:"CSV file with the capture header." placeholder:"FILE.csv"`
	Remote  string `name:"remote" placeholder:"URL" help:"Import through a running serve at URL (POST /api/import with MEMDB_ORACLE_ADMIN_TOKEN); with shared state it reaches every replica."`

	AllowImplausible bool `name:"allow-implausible" help:"Import rows that break a plausibility rule (zero latencies with traffic, ops_per_core not ops_per_sec / cores_used, more hits than operations, more cores than CPUs and shards); they are counted in the report and the store's manifest."`
}

// Run validates the whole file, writes its kept rows, and prints the report.
// On invalid rows it prints every problem and writes nothing.
func (c importCmd) Run(a *app) error {
	if c.Session < 1 {
		return usageError{fmt.Errorf("--session must be 1 or more, got %d", c.Session)}
	}
	if c.Remote != "" {
		csv, err := os.ReadFile(c.File)
		if err != nil {
			return err
		}
		return c.remote(a, filepath.Base(c.File), csv)
	}
	if c.supervised() {
		return superviseImport(a, filepath.Base(c.File))
	}
	// The import's own heap is small (one row, the duplicate check and
	// Badger's write buffers); a soft limit keeps the garbage collector from
	// letting it grow to twice that between cycles on a large file.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(analytics.ImportMemoryLimit))
	st, err := a.importStore()
	if err != nil {
		return err
	}
	f, err := os.Open(c.File)
	if err != nil {
		return err
	}
	defer f.Close()
	at, err := f.Stat()
	if err != nil {
		return err
	}
	var size int64
	if at.Mode().IsRegular() {
		size = at.Size()
	}
	name := filepath.Base(c.File)
	prog := newProgress(a.status, size, time.Now)
	// The file is read once (a FIFO or <(…) can be read only once): the
	// import keeps its own copy, and the bytes for replicas are kept here.
	var in io.Reader = f
	if importChangedHook != nil {
		in = &hookedReader{r: f, hook: func() { importChangedHook(c.File) }}
	}
	kept := &boundedBuffer{max: maxRecordedImport}
	rep, err := st.ImportWith(a.ctx, name, io.TeeReader(in, kept), c.Session, analytics.ImportOptions{
		Progress: prog.report, Size: size, AllowImplausible: c.AllowImplausible,
		Unchanged: func(read int64) error { return unchanged(f, at, read) },
	})
	prog.done()
	var ie *analytics.ImportError
	if errors.As(err, &ie) {
		for _, p := range ie.Problems {
			fmt.Fprintln(a.stderr, p)
		}
		return fmt.Errorf("import %s: %s found; nothing was written", name, plural(len(ie.Problems), "problem", "problems"))
	}
	if err != nil {
		return err
	}
	// Recorded in the data directory, so a replica started on it later
	// publishes the file to the others.
	if err := a.recordImport(a.ctx, st, name, c.Session, kept); err != nil {
		fmt.Fprintf(a.stderr, "warning: %v; replicas sharing state will not receive this file from this directory\n", err)
	}
	w := a.stdout
	fmt.Fprintf(w, "Imported %s as session %d: %d rows read, %d kept, %d added, %d already present.\n",
		rep.File, rep.Session, rep.Rows, rep.Kept, rep.Added, rep.AlreadyPresent)
	if rep.ImplausibleRows > 0 {
		fmt.Fprintf(w, "Imported %s that break a plausibility rule, as --allow-implausible asked (recorded in the store's manifest):\n", plural(rep.ImplausibleRows, "row", "rows"))
		for i, p := range rep.Implausible {
			if i == 10 {
				fmt.Fprintf(w, "  … and %d more\n", len(rep.Implausible)-i)
				break
			}
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	if n := rep.SkippedRows(); n > 0 {
		fmt.Fprintf(w, "Skipped %d rows by the keep rule (note ^(sat-)?scale-\\d+c$ and ops_per_sec > 0):\n", n)
		notes := make([]string, 0, len(rep.Skipped))
		for note := range rep.Skipped {
			notes = append(notes, note)
		}
		slices.Sort(notes)
		for _, note := range notes {
			label := note
			if label == "" {
				label = "(blank note)"
			}
			fmt.Fprintf(w, "  %-24s %d\n", label, rep.Skipped[note])
		}
	}
	if _, err := fmt.Fprintf(w, "The store now holds %d runs (%s).\n", total(st.StoredRuns()), perSession(st.StoredRuns())); err != nil {
		return err
	}
	// The knowledge figures of the new runs are computed and saved here,
	// so the read-only processes after the import (ask, runs) find them.
	if _, err := a.knowledge(); err != nil {
		return fmt.Errorf("import %s: the runs are in, but %w", name, err)
	}
	return nil
}

// unchanged checks, once the import has read f, that the file is still
// what it was when opened (size and modification time) and that all of it
// was read: a file written or truncated meanwhile is refused, as its rows
// would be a mix of two versions. A pipe has nothing to compare.
func unchanged(f *os.File, at os.FileInfo, read int64) error {
	if !at.Mode().IsRegular() {
		return nil
	}
	now, err := f.Stat()
	if err != nil {
		return err
	}
	if now.Size() != at.Size() || !now.ModTime().Equal(at.ModTime()) || read != at.Size() {
		return fmt.Errorf("%s changed while it was read (%d bytes when opened, %d now, %d read); import it again once it is complete",
			f.Name(), at.Size(), now.Size(), read)
	}
	return nil
}

// importChangedHook, when set (tests only), is called after the import's
// first read of its file, to change the file under it.
var importChangedHook func(path string)

// hookedReader calls hook once, after its first read.
type hookedReader struct {
	r    io.Reader
	hook func()
	done bool
}

func (h *hookedReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p[:min(len(p), 4096)])
	if !h.done {
		h.done = true
		h.hook()
	}
	return n, err
}

func total(perSession map[int]int) int {
	n := 0
	for _, c := range perSession {
		n += c
	}
	return n
}

// perSession lists run counts as "session 1: 350, session 2: 128".
func perSession(counts map[int]int) string {
	sessions := make([]int, 0, len(counts))
	for s := range counts {
		sessions = append(sessions, s)
	}
	slices.Sort(sessions)
	parts := make([]string, len(sessions))
	for i, s := range sessions {
		parts[i] = fmt.Sprintf("session %d: %d", s, counts[s])
	}
	return strings.Join(parts, ", ")
}
