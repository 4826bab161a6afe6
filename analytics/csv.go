package analytics

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
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

// columns lists the CSV header every capture file carries, in file order.
var columns = []string{
	"run_id", "note", "engine", "mode", "shards", "server_threads", "shard_io_threads",
	"cores_used", "server_cpus", "client_cpus", "client_threads", "client_conns", "pipeline",
	"ratio", "data_bytes", "key_max", "test_time", "populate", "rep", "ops_per_sec",
	"ops_per_core", "p50_ms", "p99_ms", "p999_ms", "hit_rate", "hits_per_sec",
	"misses_per_sec", "conn_errors", "kb_per_sec",
}

var (
	runIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	ratioPattern = regexp.MustCompile(`^([1-9][0-9]{0,3}:[1-9][0-9]{0,3}|m(get|set)[1-9][0-9]{0,3})$`)
)

// header maps each known column to its index in the file.
type header map[string]int

// parseHeader checks a header row: every column present once, nothing unknown.
func parseHeader(rec []string) (header, []RowProblem) {
	h := header{}
	var probs []RowProblem
	for i, name := range rec {
		name = strings.TrimSpace(strings.TrimPrefix(name, "\ufeff"))
		switch {
		case !slices.Contains(columns, name):
			probs = append(probs, RowProblem{Line: 1, Column: name, Reason: "unknown column"})
		case hasKey(h, name):
			probs = append(probs, RowProblem{Line: 1, Column: name, Reason: "column appears twice"})
		default:
			h[name] = i
		}
	}
	for _, c := range columns {
		if !hasKey(h, c) {
			probs = append(probs, RowProblem{Line: 1, Column: c, Reason: "missing column"})
		}
	}
	return h, probs
}

func hasKey(h header, k string) bool { _, ok := h[k]; return ok }

// rowParser reads one data row's fields into a Run, collecting a problem for
// every bad field instead of stopping at the first.
type rowParser struct {
	h     header
	rec   []string
	line  int
	probs []RowProblem
}

func (p *rowParser) bad(col, format string, a ...any) {
	p.probs = append(p.probs, RowProblem{Line: p.line, Column: col, Reason: fmt.Sprintf(format, a...)})
}

func (p *rowParser) str(col string) string { return p.rec[p.h[col]] }

// int parses a whole number within [min, max] (the plausible range of
// the column).
func (p *rowParser) int(col string, min, max int) int {
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
func (p *rowParser) float(col string, max float64) float64 {
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
	s := p.str("hit_rate")
	n := len(p.probs)
	h := p.float("hit_rate", math.MaxFloat64)
	if len(p.probs) == n && h > 1 {
		p.bad("hit_rate", "must be between 0 and 1, got %s", s)
	}
	return h
}

// ordered checks that a lower percentile is not above a higher one.
func (p *rowParser) ordered(lowCol string, low float64, highCol string, high float64) {
	if low > high {
		p.bad(highCol, "%s is below %s %s (latency percentiles must satisfy p50 <= p99 <= p99.9)",
			p.str(highCol), lowCol, p.str(lowCol))
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
func parseRow(h header, rec []string, line, session int, file string) (Run, []RowProblem) {
	if len(rec) != len(h) {
		return Run{}, []RowProblem{{Line: line, Column: "", Reason: fmt.Sprintf("has %d fields, the header has %d", len(rec), len(h))}}
	}
	p := &rowParser{h: h, rec: rec, line: line}
	r := Run{Session: session, SourceFile: file, SourceLine: line}

	r.RunID = p.str("run_id")
	if !runIDPattern.MatchString(r.RunID) {
		p.bad("run_id", "must be 1-64 letters, digits, '.', '_' or '-', got %q", clip(r.RunID))
	}
	r.Note = p.str("note")
	if !isPrintable(r.Note) || len(r.Note) > 200 {
		p.bad("note", "must be printable text of at most 200 bytes")
	}
	r.Engine = p.str("engine")
	if !slices.Contains(Engines, r.Engine) {
		p.bad("engine", "unknown engine %q (known: %s)", clip(r.Engine), strings.Join(Engines, ", "))
	}
	r.Mode = p.str("mode")
	if !slices.Contains(Modes, r.Mode) {
		p.bad("mode", "unknown mode %q (known: %s)", clip(r.Mode), strings.Join(Modes, ", "))
	}
	r.Shards = p.int("shards", 0, maxThreads)
	r.ServerThreads = p.int("server_threads", 0, maxThreads)
	r.ShardIOThreads = p.int("shard_io_threads", 0, maxThreads)
	r.Cores = p.int("cores_used", 1, maxCores)
	r.ServerCPUs = p.str("server_cpus")
	if !isPrintable(r.ServerCPUs) || len(r.ServerCPUs) > 200 {
		p.bad("server_cpus", "must be printable text of at most 200 bytes")
	}
	r.ClientCPUs = p.str("client_cpus")
	if !isPrintable(r.ClientCPUs) || len(r.ClientCPUs) > 200 {
		p.bad("client_cpus", "must be printable text of at most 200 bytes")
	}
	r.ClientThreads = p.int("client_threads", 0, maxThreads)
	r.ClientConns = p.int("client_conns", 0, maxConns)
	r.Pipeline = p.int("pipeline", 1, maxPipeline)
	r.Ratio = p.str("ratio")
	if !ratioPattern.MatchString(r.Ratio) {
		p.bad("ratio", "must be SET:GET like 1:10, or mgetN/msetN, got %q", clip(r.Ratio))
	}
	r.ValueBytes = p.int("data_bytes", 1, maxValueBytes)
	r.KeyMax = p.int("key_max", 0, maxCount)
	r.TestTimeS = p.int("test_time", 0, maxTestTimeS)
	r.Populate = p.int("populate", 0, maxCount)
	r.Rep = p.int("rep", 1, maxRep)
	r.OpsPerSec = p.float("ops_per_sec", maxOpsPerSec)
	r.OpsPerCore = p.float("ops_per_core", maxOpsPerSec)
	r.P50Ms = p.float("p50_ms", maxLatencyMs)
	r.P99Ms = p.float("p99_ms", maxLatencyMs)
	r.P999Ms = p.float("p999_ms", maxLatencyMs)
	if s := p.str("hit_rate"); s != "" {
		h := p.hitRate()
		r.HitRate = &h
	}
	r.HitsPerSec = p.float("hits_per_sec", maxOpsPerSec)
	r.MissesPerSec = p.float("misses_per_sec", maxOpsPerSec)
	r.ConnErrors = p.int("conn_errors", 0, maxCount)
	r.KBPerSec = p.float("kb_per_sec", maxKBPerSec)
	if len(p.probs) == 0 {
		p.ordered("p50_ms", r.P50Ms, "p99_ms", r.P99Ms)
		p.ordered("p99_ms", r.P99Ms, "p999_ms", r.P999Ms)
	}

	if len(p.probs) > 0 {
		return Run{}, p.probs
	}
	r.ID = MakeID(session, r.RunID, r.Engine, r.Mode, r.Cores, r.Pipeline, r.Ratio, r.ValueBytes, r.Rep)
	return r, nil
}

func isPrintable(s string) bool {
	for _, c := range s {
		if c < ' ' || c == 0x7f || c == '\uFFFD' {
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
	cr := csv.NewReader(&crToLF{r: r})
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true // parseRow copies what it keeps
	headRec, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return []RowProblem{{Line: 1, Reason: "empty file: no header row"}}, nil
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
		var pe *csv.ParseError
		switch {
		case err == nil:
			line, _ = cr.FieldPos(0)
		case errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount):
			line = pe.StartLine // the record is still returned; parseRow reports the count
		case errors.As(err, &pe):
			probs = append(probs, RowProblem{Line: pe.StartLine, Reason: csvReason(err)})
			continue
		default:
			probs = append(probs, RowProblem{Line: 1, Reason: "read error: " + err.Error()})
			return probs, nil
		}
		rows++
		run, rowProbs := parseRow(h, rec, line, session, file)
		probs = append(probs, rowProbs...)
		if err := each(csvRow{run: run, line: line, probs: rowProbs}); err != nil {
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
