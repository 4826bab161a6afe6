package analytics

import (
	"encoding/binary"
	"fmt"
	"math"
)

// runFields is what a run's cell entry (under cellRunPrefix) holds: its
// metrics and every other filter field that is not its cell's or its ID,
// so that the derived pass builds the columns (columns.go) from Badger's
// tree alone, in cell order, without reading a run.
type runFields struct {
	runMetrics
	Rep, Shards, ServerThreads, ClientThreads, ClientConns, KeyMax, TestTimeS, ConnErrors int
	RunID, Note                                                                           string
	// metricsOnly: a format-2 entry (metrics only; Rep from the key).
	metricsOnly bool
}

// cellEntryFields marks a cell entry that holds every runFields field
// after its metrics (format 3); an entry without it is a format-2 one.
const cellEntryFields = 1 << 1

func fieldsOf(r *Run) runFields {
	return runFields{runMetrics: metricsOf(r), Rep: r.Rep, Shards: r.Shards, ServerThreads: r.ServerThreads,
		ClientThreads: r.ClientThreads, ClientConns: r.ClientConns, KeyMax: r.KeyMax, TestTimeS: r.TestTimeS,
		ConnErrors: r.ConnErrors, RunID: r.RunID, Note: r.Note}
}

// encodeCellEntry appends a run's cell entry: its metrics (encodeMetrics,
// with cellEntryFields set in the flags byte), then shards,
// server_threads, client_threads, client_conns, key_max, test_time_s and
// conn_errors as zig-zag varints, then run_id and note, each a uvarint
// length and the bytes. The repetition is in the entry's key.
func encodeCellEntry(dst []byte, r *Run) []byte {
	dst = encodeMetrics(dst, metricsOf(r))
	dst[len(dst)-metricsSize] |= cellEntryFields
	for _, n := range [...]int{r.Shards, r.ServerThreads, r.ClientThreads, r.ClientConns, r.KeyMax, r.TestTimeS, r.ConnErrors} {
		dst = binary.AppendVarint(dst, int64(n))
	}
	for _, s := range [...]string{r.RunID, r.Note} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	return dst
}

// decodeCellEntry decodes a cell entry of either format (rep comes from
// its key). It never panics on bad input.
func decodeCellEntry(v []byte, rep int, in *interner) (runFields, error) {
	var f runFields
	if len(v) < metricsSize {
		return f, fmt.Errorf("%w: bad metrics (%d bytes)", errBadRun, len(v))
	}
	flags := v[0]
	if flags&cellEntryFields == 0 {
		m, err := decodeMetrics(v)
		f.runMetrics, f.Rep, f.metricsOnly = m, rep, true
		return f, err
	}
	if flags&^(cellEntryFields|runHasHitRate) != 0 {
		return f, fmt.Errorf("%w: unknown cell entry flags %#x", errBadRun, flags)
	}
	f.runMetrics, f.Rep = readMetrics(v), rep
	rest := v[metricsSize:]
	for _, p := range [...]*int{&f.Shards, &f.ServerThreads, &f.ClientThreads, &f.ClientConns, &f.KeyMax, &f.TestTimeS, &f.ConnErrors} {
		n, k := binary.Varint(rest)
		if k <= 0 || n < math.MinInt || n > math.MaxInt {
			return f, fmt.Errorf("%w: a bad number in a cell entry", errBadRun)
		}
		*p = int(n)
		rest = rest[k:]
	}
	for _, p := range [...]*string{&f.RunID, &f.Note} {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return f, fmt.Errorf("%w: a bad text field in a cell entry", errBadRun)
		}
		*p = in.text(rest[k : k+int(n)])
		rest = rest[k+int(n):]
	}
	if len(rest) != 0 {
		return f, fmt.Errorf("%w: %d bytes left over in a cell entry", errBadRun, len(rest))
	}
	return f, nil
}
