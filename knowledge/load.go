package knowledge

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"
)

//go:embed data
var embedded embed.FS

// ErrInvalid marks knowledge data that fails validation; every load error
// about the data wraps it.
var ErrInvalid = errors.New("invalid knowledge data")

// Load parses the embedded data, validates it (unknown see-also ids,
// duplicate aliases, counter-queries that do not compile or match no run,
// findings that cannot be computed) and computes every figure from q.
func Load(ctx context.Context, q Querier) (*Base, error) {
	return LoadWith(ctx, q, Options{})
}

// LoadWith is Load with options: with opts.Saved the figures' query results
// are read from, or else written to, a copy kept for the runs q holds
// (never written with opts.ReadOnly). A failed write is an error.
func LoadWith(ctx context.Context, q Querier, opts Options) (*Base, error) {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		return nil, fmt.Errorf("knowledge: %w", err)
	}
	key := savedKey(q)
	memo := memoOf(q)
	memo.restore(ctx, opts.Saved, key)
	b, err := loadDecoded(ctx, sub, embeddedDecoded(sub), memo)
	if err != nil {
		return nil, err
	}
	if !opts.ReadOnly {
		if err := memo.save(ctx, opts.Saved, key); err != nil {
			return nil, fmt.Errorf("knowledge: %w", err)
		}
	}
	return b, nil
}

// files lists the data files, one per kind.
const (
	fileSources   = "sources.json"
	fileTerms     = "terms.json"
	fileClaims    = "claims.json"
	fileFindings  = "findings.json"
	fileRules     = "rules.json"
	fileTraps     = "traps.json"
	fileCaveats   = "caveats.json"
	fileEngines   = "engines.json"
	fileSessions  = "sessions.json"
	fileTables    = "tables.json"
	fileMemory    = "memory-aws.txt"
	fileCrossSlot = "crossslot-aws.txt"
	fileDiag      = "runs-aws-diagnostics.csv"
	fileSweep     = "failover/sweep-down-after.csv"
	fileFailEng   = "failover/engines.csv"
)

// noteFiles maps each note kind to its file.
var noteFiles = []struct{ kind, file string }{
	{"scope", "scope.json"},
	{"setup", "setup.json"},
	{"series", "series.json"},
	{"failover", "failover.json"},
	{"conflict", "conflicts.json"},
}

// tablesFile is the JSON shape of data/tables.json: what the measured
// table files do not say about themselves.
type tablesFile struct {
	Memory      MemoryTable      `json:"memory"`
	CrossSlot   CrossSlotDemo    `json:"crossslot"`
	Diagnostics DiagnosticsTable `json:"diagnostics"`
}

// loader collects problems while loading so one run reports all of them.
type loader struct {
	fsys     fs.FS
	problems []error
}

func (l *loader) fail(format string, a ...any) {
	l.problems = append(l.problems, fmt.Errorf(format, a...))
}

// decode reads one JSON file strictly (unknown fields are errors).
func (l *loader) decode(name string, v any) {
	data, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		l.fail("%s: %w", name, err)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		l.fail("%s: %v: %w", name, jsonErr(data, err), ErrInvalid)
	}
}

// jsonErr adds a line number to JSON syntax and type errors.
func jsonErr(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n"))
	return fmt.Sprintf("line %d: %v", line, err)
}

// Compiled on first use: a process that never needs it does not pay for it at start.
var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]+(?:-[a-z]+)*:[a-z0-9][a-z0-9.-]*$`) })

// loadFrom loads the knowledge base from fsys (the layout of data/).
func loadFrom(ctx context.Context, fsys fs.FS, q Querier) (*Base, error) {
	return loadDecoded(ctx, fsys, decodeFiles(fsys), q)
}

// decoded is the JSON data files as read, before anything is checked
// against anything else or computed.
type decoded struct {
	contents
	sources  []sourceFile
	tables   tablesFile
	problems []error
}

// contents is what the JSON data files hold for the base.
type contents struct {
	terms    []Term
	claims   []Claim
	findings []Finding
	rules    []Rule
	engines  []Engine
	sessions []Session
	notes    []Note
}

// decodeFiles reads every JSON data file of fsys strictly.
func decodeFiles(fsys fs.FS) *decoded {
	l := &loader{fsys: fsys}
	d := &decoded{}
	l.decode(fileSources, &d.sources)
	l.decode(fileTerms, &d.terms)
	l.decode(fileClaims, &d.claims)
	l.decode(fileFindings, &d.findings)
	for _, f := range []string{fileRules, fileTraps, fileCaveats} {
		var rs []Rule
		l.decode(f, &rs)
		d.rules = append(d.rules, rs...)
	}
	l.decode(fileEngines, &d.engines)
	l.decode(fileSessions, &d.sessions)
	for _, nf := range noteFiles {
		var ns []Note
		l.decode(nf.file, &ns)
		for i := range ns {
			ns[i].Kind = nf.kind
			if !strings.HasPrefix(ns[i].ID, nf.kind+":") {
				l.fail("%s: id %q does not start with %q: %w", nf.file, ns[i].ID, nf.kind+":", ErrInvalid)
			}
		}
		d.notes = append(d.notes, ns...)
	}
	l.decode(fileTables, &d.tables)
	d.problems = l.problems
	return d
}

// loadDecoded checks the decoded files of fsys, reads its measured tables,
// computes every figure from q and builds the base.
func loadDecoded(ctx context.Context, fsys fs.FS, d *decoded, q Querier) (*Base, error) {
	memo := memoOf(q)
	l := &loader{fsys: fsys, problems: d.problems}
	b := &Base{contents: d.contents}
	srcByID := map[string]Source{}
	for _, s := range d.sources {
		if !strings.HasPrefix(s.ID, "source:") || !idPattern().MatchString(s.ID) {
			l.fail("%s: bad source id %q: %w", fileSources, s.ID, ErrInvalid)
		}
		if _, dup := srcByID[s.ID]; dup {
			l.fail("%s: duplicate source id %q: %w", fileSources, s.ID, ErrInvalid)
		}
		srcByID[s.ID] = Source{ID: s.ID, Title: s.Title, URL: s.URL}
	}
	tables := d.tables
	if len(l.problems) > 0 {
		return nil, l.err()
	}

	l.loadTables(b, tables)
	l.checkIDs(b)
	if len(l.problems) > 0 {
		return nil, l.err()
	}
	l.compute(ctx, b, memo)
	if len(l.problems) > 0 {
		return nil, l.err()
	}
	l.renderAll(b)
	l.resolveSources(b, srcByID)
	l.checkSeeAlso(b)
	b.buildAliases(l)
	if len(l.problems) > 0 {
		return nil, l.err()
	}
	b.buildEntries()
	return b, nil
}

func (l *loader) err() error {
	return fmt.Errorf("knowledge: %w", errors.Join(l.problems...))
}
