package analytics

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Plausibility bounds: a value outside them is a typo or a broken capture,
// not a measurement, and would end up in answers ("from 4 to 2000000000
// cores"). They are stated in import --help and the README.
const (
	maxCores      = 1024
	maxPipeline   = 1024
	maxThreads    = 4096              // shards, server, I/O and client threads
	maxConns      = 100_000           // client connections per thread
	maxValueBytes = 512 << 20         // the largest Redis string value
	maxCount      = 1_000_000_000_000 // key_max, populate, conn_errors
	maxTestTimeS  = 7 * 24 * 3600     // a week
	maxRep        = 10_000
	maxOpsPerSec  = 1e9       // also ops per core, hits and misses per second
	maxLatencyMs  = 3_600_000 // an hour
	maxKBPerSec   = 1e9       // a terabyte a second
)

// columns lists the CSV header every capture file carries, in file order;
// the col constants below index it.
var columns = []string{
	"run_id", "note", "engine", "mode", "shards", "server_threads", "shard_io_threads",
	"cores_used", "server_cpus", "client_cpus", "client_threads", "client_conns", "pipeline",
	"ratio", "data_bytes", "key_max", "test_time", "populate", "rep", "ops_per_sec",
	"ops_per_core", "p50_ms", "p99_ms", "p999_ms", "hit_rate", "hits_per_sec",
	"misses_per_sec", "conn_errors", "kb_per_sec",
}

// Column numbers, in the order of columns.
const (
	colRunID = iota
	colNote
	colEngine
	colMode
	colShards
	colServerThreads
	colShardIOThreads
	colCores
	colServerCPUs
	colClientCPUs
	colClientThreads
	colClientConns
	colPipeline
	colRatio
	colDataBytes
	colKeyMax
	colTestTime
	colPopulate
	colRep
	colOpsPerSec
	colOpsPerCore
	colP50
	colP99
	colP999
	colHitRate
	colHitsPerSec
	colMissesPerSec
	colConnErrors
	colKBPerSec
	numColumns
)

// optionalVersion is the one column a capture file may leave out: the
// engine's version ("9.0", "v1.40.1"). Runs without it have no version.
const optionalVersion = "version"

// header says where each known column sits in the file: at[col] is its
// field number; version is the optional version column's (-1 when
// absent); fields is how many fields the header has.
type header struct {
	at      [numColumns]int
	version int
	fields  int
}

// parseHeader checks a header row: every column present once, nothing unknown.
func parseHeader(rec []string) (header, []RowProblem) {
	h := header{fields: len(rec), version: -1}
	seen := [numColumns]bool{}
	var probs []RowProblem
	for i, name := range rec {
		name = strings.TrimSpace(strings.TrimPrefix(name, "\ufeff"))
		c := slices.Index(columns, name)
		switch {
		case name == optionalVersion && h.version >= 0:
			probs = append(probs, RowProblem{Line: 1, Column: name, Reason: "column appears twice"})
		case name == optionalVersion:
			h.version = i
		case c < 0:
			probs = append(probs, RowProblem{Line: 1, Column: clip(name), Reason: "unknown column"})
		case seen[c]:
			probs = append(probs, RowProblem{Line: 1, Column: clip(name), Reason: "column appears twice"})
		default:
			h.at[c], seen[c] = i, true
		}
	}
	for c, name := range columns {
		if !seen[c] {
			probs = append(probs, RowProblem{Line: 1, Column: name, Reason: "missing column"})
		}
	}
	return h, probs
}

// rowParser reads one data row's fields into a Run, collecting a problem for
// every bad field instead of stopping at the first.
type rowParser struct {
	h     *header
	rec   []string
	line  int
	probs []RowProblem
}

func (p *rowParser) bad(col int, format string, a ...any) {
	p.probs = append(p.probs, RowProblem{Line: p.line, Column: columns[col], Reason: fmt.Sprintf(format, a...)})
}

func (p *rowParser) str(col int) string { return p.rec[p.h.at[col]] }

// int parses a whole number within [min, max] (the plausible range of
// the column).
func (p *rowParser) int(col int, min, max int) int {
	s := p.str(col)
	n, err := strconv.Atoi(s)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		p.bad(col, "number out of range: %q (plausible: %s)", clip(s), plausible(min, max))
	case err != nil:
		p.bad(col, "not a whole number: %q", clip(s))
	case n < min && min == 1:
		p.bad(col, "must be positive, got %d", n)
	case n < min:
		p.bad(col, "must be at least %d, got %d", min, n)
	case n > max:
		p.bad(col, "%d is above the plausible maximum %s", n, thousands(max))
	}
	return n
}

// float parses a finite, non-negative number written in plain decimal
// digits, no larger than max.
func (p *rowParser) float(col int, max float64) float64 {
	s := p.str(col)
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		p.bad(col, "number out of range: %q", clip(s))
	case err != nil:
		p.bad(col, "not a number: %q", clip(s))
	case math.IsNaN(f) || math.IsInf(f, 0):
		p.bad(col, "not a finite number: %q", clip(s))
	case f < 0:
		p.bad(col, "must not be negative, got %s", s)
	case !isPlainDecimal(s):
		p.bad(col, "write plain decimal digits such as 1234.5, got %q", clip(s))
	case f > max:
		p.bad(col, "%s is above the plausible maximum %s", clip(s), thousands(int(max)))
	}
	return f
}

// hitRate parses hit_rate, a fraction from 0 to 1.
func (p *rowParser) hitRate() float64 {
	s := p.str(colHitRate)
	n := len(p.probs)
	h := p.float(colHitRate, math.MaxFloat64)
	if len(p.probs) == n && h > 1 {
		p.bad(colHitRate, "must be between 0 and 1, got %s", s)
	}
	return h
}

// ordered checks that a lower percentile is not above a higher one.
func (p *rowParser) ordered(lowCol int, low float64, highCol int, high float64) {
	if low > high {
		p.bad(highCol, "%s is below %s %s (latency percentiles must satisfy p50 <= p99 <= p99.9)",
			p.str(highCol), columns[lowCol], p.str(lowCol))
	}
}

// isPlainDecimal reports whether s is written the way capture files write
// numbers: digits with at most one decimal point. Hex floats, exponents,
// underscores and signs are refused, so a typo cannot become 1e300.
func isPlainDecimal(s string) bool {
	digits, points := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	return digits > 0 && points <= 1
}

func plausible(min, max int) string { return thousands(min) + " to " + thousands(max) }

// thousands writes n with comma separators: 1,000,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// clip shortens a field for an error message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// parseRow turns one data row into a Run. It reports every bad field; the
// Run is meaningful only when no problem is returned.
func parseRow(h *header, rec []string, line, session int, file string) (Run, []RowProblem) {
	if len(rec) != h.fields {
		return Run{}, []RowProblem{{Line: line, Column: "", Reason: fmt.Sprintf("has %d fields, the header has %d", len(rec), h.fields)}}
	}
	p := rowParser{h: h, rec: rec, line: line}
	r := Run{Session: session, SourceFile: file, SourceLine: line}

	r.RunID = p.str(colRunID)
	if !isRunID(r.RunID) {
		p.bad(colRunID, "must be 1-64 letters, digits, '.', '_' or '-', got %q", clip(r.RunID))
	}
	r.Note = p.text(colNote)
	// Engines and modes are names, not a closed list: a team imports the
	// engines it benchmarks (the five here are only the ones measured so far).
	r.Engine = p.name(colEngine, "an engine")
	r.Mode = p.name(colMode, "a mode")
	if p.h.version >= 0 {
		r.Version = p.rec[p.h.version]
		if r.Version != "" && !isVersion(r.Version) {
			p.probs = append(p.probs, RowProblem{Line: p.line, Column: optionalVersion,
				Reason: fmt.Sprintf("must be empty or a version of 1-32 letters, digits, '.', '-' or '+', starting with a letter or digit, got %q", clip(r.Version))})
		}
	}
	r.Shards = p.int(colShards, 0, maxThreads)
	r.ServerThreads = p.int(colServerThreads, 0, maxThreads)
	r.ShardIOThreads = p.int(colShardIOThreads, 0, maxThreads)
	r.Cores = p.int(colCores, 1, maxCores)
	r.ServerCPUs = p.text(colServerCPUs)
	r.ClientCPUs = p.text(colClientCPUs)
	r.ClientThreads = p.int(colClientThreads, 0, maxThreads)
	r.ClientConns = p.int(colClientConns, 0, maxConns)
	r.Pipeline = p.int(colPipeline, 1, maxPipeline)
	r.Ratio = p.str(colRatio)
	if !isRatio(r.Ratio) {
		p.bad(colRatio, "must be SET:GET like 1:10, or mgetN/msetN, got %q", clip(r.Ratio))
	}
	r.ValueBytes = p.int(colDataBytes, 1, maxValueBytes)
	r.KeyMax = p.int(colKeyMax, 0, maxCount)
	r.TestTimeS = p.int(colTestTime, 0, maxTestTimeS)
	r.Populate = p.int(colPopulate, 0, maxCount)
	r.Rep = p.int(colRep, 1, maxRep)
	r.OpsPerSec = p.float(colOpsPerSec, maxOpsPerSec)
	r.OpsPerCore = p.float(colOpsPerCore, maxOpsPerSec)
	r.P50Ms = p.float(colP50, maxLatencyMs)
	r.P99Ms = p.float(colP99, maxLatencyMs)
	r.P999Ms = p.float(colP999, maxLatencyMs)
	if s := p.str(colHitRate); s != "" {
		h := p.hitRate()
		r.HitRate = &h
	}
	r.HitsPerSec = p.float(colHitsPerSec, maxOpsPerSec)
	r.MissesPerSec = p.float(colMissesPerSec, maxOpsPerSec)
	r.ConnErrors = p.int(colConnErrors, 0, maxCount)
	r.KBPerSec = p.float(colKBPerSec, maxKBPerSec)
	if len(p.probs) == 0 {
		p.ordered(colP50, r.P50Ms, colP99, r.P99Ms)
		p.ordered(colP99, r.P99Ms, colP999, r.P999Ms)
	}

	if len(p.probs) > 0 {
		return Run{}, p.probs
	}
	r.ID = MakeID(session, r.RunID, versionedEngine(r.Engine, r.Version), r.Mode, r.Cores, r.Pipeline, r.Ratio, r.ValueBytes, r.Rep)
	return r, nil
}

// text reads a free-text column: printable, at most 200 bytes.
func (p *rowParser) text(col int) string {
	s := p.str(col)
	if c, what, ok := unsafeRune(s); ok {
		p.bad(col, "holds U+%04X (%s): text fields must be printable", c, what)
	} else if len(s) > 200 {
		p.bad(col, "must be printable text of at most 200 bytes")
	}
	return s
}

// known reads a column whose value must be one of a known list; it returns
// the list's own string, so rows share one copy of it.
// name reads an engine or mode name: 1-32 lower-case letters, digits, '-'
// or '.', starting with a letter ("pelikan", "cluster-sat", "redis-stack").
func (p *rowParser) name(col int, what string) string {
	s := p.str(col)
	if !isName(s) {
		p.bad(col, "must be %s name of 1-32 lower-case letters, digits, '-' or '.', starting with a letter, got %q", what, clip(s))
	}
	return s
}

func isName(s string) bool {
	if len(s) == 0 || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// isVersion reports whether s can be an engine version: 1-32 letters,
// digits, '.', '-' or '+', starting with a letter or digit.
func isVersion(s string) bool {
	if len(s) == 0 || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '-' && c != '+') {
			return false
		}
	}
	return true
}

// versionedEngine is how a run's ID names its engine: with the version
// after a colon, which no engine name holds, so two versions of one
// engine never share an ID.
func versionedEngine(engine, version string) string {
	if version == "" {
		return engine
	}
	return engine + ":" + version
}

// isRunID reports whether s is 1-64 letters, digits, '.', '_' or '-',
// starting with a letter or digit.
func isRunID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// isRatio reports whether s is SET:GET (each 1-9999 without leading zeros)
// or mgetN/msetN (N likewise).
func isRatio(s string) bool {
	if rest, ok := strings.CutPrefix(s, "mget"); ok {
		return isCount(rest)
	}
	if rest, ok := strings.CutPrefix(s, "mset"); ok {
		return isCount(rest)
	}
	set, get, ok := strings.Cut(s, ":")
	return ok && isCount(set) && isCount(get)
}

// isCount reports whether s is a number from 1 to 9999 written without a
// leading zero.
func isCount(s string) bool {
	if len(s) == 0 || len(s) > 4 || s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// csvRow is one parsed data row, or the problems that kept it from parsing.
type csvRow struct {
	run   Run
	line  int
	probs []RowProblem
	odd   []RowProblem // what is implausible about a row that parsed (see implausible)
}

// maxProblems bounds how many problems one file reports, so a huge bad file
// cannot produce a huge error.
const maxProblems = 1000

// scanCSV streams a capture file: it checks the header, then hands every
// data row to each, in file order, without holding more than one row. It
// returns every problem found (at most maxProblems); it never stops at the
// first bad row. An error from each stops the scan and is returned as is.
// Lone carriage returns (old Mac line endings) are read as line ends.
func scanCSV(r io.Reader, session int, file string, each func(csvRow) error) ([]RowProblem, error) {
	cr := csv.NewReader(bufio.NewReaderSize(&crToLF{r: r}, 64<<10))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true // parseRow copies what it keeps
	headRec, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return []RowProblem{{Line: 1, Reason: "empty file: no header row"}}, nil
	}
	if pe := (*csv.ParseError)(nil); err != nil && !errors.As(err, &pe) {
		return nil, fmt.Errorf("reading the file: %w", err) // not the file's content
	}
	if err != nil {
		return []RowProblem{{Line: 1, Reason: "unreadable header: " + csvReason(err)}}, nil
	}
	h, probs := parseHeader(headRec)
	if len(probs) > 0 {
		return probs, nil
	}
	rows := 0
	for len(probs) < maxProblems {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var line int
		if err == nil {
			line, _ = cr.FieldPos(0)
		} else {
			var pe *csv.ParseError // declared here: errors.As moves it to the heap
			switch {
			case errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount):
				line = pe.StartLine // the record is still returned; parseRow reports the count
			case errors.As(err, &pe):
				probs = append(probs, RowProblem{Line: pe.StartLine, Reason: csvReason(err)})
				continue
			default:
				// Not the file's content: the reading failed (or the copy
				// the reading feeds could not be written).
				return probs, fmt.Errorf("reading the file: %w", err)
			}
		}
		rows++
		run, rowProbs := parseRow(&h, rec, line, session, file)
		probs = append(probs, rowProbs...)
		var odd []RowProblem
		if rowProbs == nil {
			odd = implausible(&run, line)
		}
		if err := each(csvRow{run: run, line: line, probs: rowProbs, odd: odd}); err != nil {
			return probs, err
		}
	}
	if len(probs) > maxProblems {
		probs = probs[:maxProblems]
	}
	if rows == 0 && len(probs) == 0 {
		probs = append(probs, RowProblem{Line: 2, Reason: "no data rows after the header"})
	}
	return probs, nil
}

// readCSV reads a whole (small) capture file into memory: the rows and
// every problem found.
func readCSV(r io.Reader, session int, file string) ([]csvRow, []RowProblem) {
	var rows []csvRow
	probs, _ := scanCSV(r, session, file, func(row csvRow) error {
		rows = append(rows, row)
		return nil
	})
	return rows, probs
}

func csvReason(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return "bad CSV: " + pe.Err.Error()
	}
	return err.Error()
}

// Columns returns the CSV header every capture file carries, in file order.
func Columns() []string { return slices.Clone(columns) }
