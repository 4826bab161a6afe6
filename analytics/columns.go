package analytics

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// Columns: the runs' filter fields laid out one field at a time, in cell
// order (each cell's runs in repetition order, as the cell records list
// them), so that a scan reads a few large values per field it needs
// instead of every run. Written by the derived pass of each import:
//
//	derived/{gen}/col/{field}/{chunk}   columnChunkRuns runs of one field
//
// Only the fields that vary within a cell are columns; a cell field
// (session, engine, mode, cores, ratio, value_bytes, pipeline) is its
// cell's, and a run's ID is in its cell record. Each chunk is sealed with
// a CRC-32C (sealValue) like every derived value.
//
// A chunk's payload is a kind byte, a uvarint count of runs, then:
//   - colFloat: that many float64, 8 bytes little-endian each, or with
//     colCoded in the kind byte a dictionary of them (as below) and codes;
//   - colOptFloat (hit_rate): a bitmap of the runs that have a value, then
//     the values (0 where absent) as colFloat's;
//   - colInt, colText: a dictionary (a uvarint count, then each value: a
//     zig-zag varint, or a uvarint length and the bytes), a code width (1,
//     2 or 4 bytes) and each run's code, little-endian.

// columnChunkRuns is how many runs a column chunk holds (the last fewer):
// 256 KB of a float column, so a chunk stays well inside Badger's limits
// on one value whatever its options. Each generation records it in its
// head (readers use that); a variable so that tests write many chunks.
var columnChunkRuns = 1 << 15

type colKind byte

const (
	colFloat colKind = iota + 1
	colOptFloat
	colInt
	colText
)

// colCoded, set in a float chunk's kind byte, says its values are
// dictionary-coded (appendFloatValues).
const colCoded = 0x80

// columnSpec is one column: its filter field and how to read it off a
// run's fields.
type columnSpec struct {
	name  string
	kind  colKind
	float func(f *runFields) (float64, bool)
	whole func(f *runFields) int
	text  func(f *runFields) string
}

func floatCol(name string, get func(m *runMetrics) float64) columnSpec {
	return columnSpec{name: name, kind: colFloat, float: func(f *runFields) (float64, bool) { return get(&f.runMetrics), true }}
}

func intCol(name string, get func(f *runFields) int) columnSpec {
	return columnSpec{name: name, kind: colInt, whole: get}
}

// columnSpecs are the columns, in the order they are written.
var columnSpecs = []columnSpec{
	floatCol("ops_per_sec", func(m *runMetrics) float64 { return m.OpsPerSec }),
	floatCol("ops_per_core", func(m *runMetrics) float64 { return m.OpsPerCore }),
	floatCol("p50_ms", func(m *runMetrics) float64 { return m.P50Ms }),
	floatCol("p99_ms", func(m *runMetrics) float64 { return m.P99Ms }),
	floatCol("p999_ms", func(m *runMetrics) float64 { return m.P999Ms }),
	floatCol("kb_per_sec", func(m *runMetrics) float64 { return m.KBPerSec }),
	{name: "hit_rate", kind: colOptFloat, float: func(f *runFields) (float64, bool) {
		if f.HitRate == nil {
			return 0, false
		}
		return *f.HitRate, true
	}},
	intCol("rep", func(f *runFields) int { return f.Rep }),
	intCol("shards", func(f *runFields) int { return f.Shards }),
	intCol("server_threads", func(f *runFields) int { return f.ServerThreads }),
	intCol("client_threads", func(f *runFields) int { return f.ClientThreads }),
	intCol("client_conns", func(f *runFields) int { return f.ClientConns }),
	intCol("key_max", func(f *runFields) int { return f.KeyMax }),
	intCol("test_time_s", func(f *runFields) int { return f.TestTimeS }),
	intCol("conn_errors", func(f *runFields) int { return f.ConnErrors }),
	{name: "run_id", kind: colText, text: func(f *runFields) string { return f.RunID }},
	{name: "note", kind: colText, text: func(f *runFields) string { return f.Note }},
}

// columnSpecOf finds a column by field name.
func columnSpecOf(name string) (*columnSpec, bool) {
	for i := range columnSpecs {
		if columnSpecs[i].name == name {
			return &columnSpecs[i], true
		}
	}
	return nil, false
}

func columnChunkName(field string, i int) string { return fmt.Sprintf("col/%s/%08x", field, i) }

// columnChunks is how many chunks of per runs each column of n runs has.
// A reader takes per from the store's head (what its writer used), never
// columnChunkRuns: a store written with other chunks is read as written.
func columnChunks(n, per int) int { return (n + per - 1) / per }

// runColumn is one loaded column: every run's value, in cell order. A
// float column whose chunks are all dictionary-coded (with at most
// 65536 values in all) stays coded: a quarter of the memory, and a
// comparison is made once per distinct value.
type runColumn struct {
	f      []float64 // colFloat, colOptFloat: each run's value (plain)
	fcodes []uint16  // or each run's place in fdict (coded)
	fdict  []float64
	has    []bool   // colOptFloat: whether the run has a value
	i      []int    // colInt
	codes  []uint32 // colText: each run's place in dict
	dict   []string // colText
}

// columnWriter collects one chunk of every column and writes it when full.
type columnWriter struct {
	per    int // runs per chunk
	n      int // runs in the current chunk
	chunks int // chunks written
	floats [][]float64
	has    [][]bool
	ints   [][]int
	texts  [][]string
	put    func(name string, payload []byte) error
	buf    []byte
}

func newColumnWriter(put func(name string, payload []byte) error) *columnWriter {
	k := len(columnSpecs)
	return &columnWriter{floats: make([][]float64, k), has: make([][]bool, k), ints: make([][]int, k), texts: make([][]string, k), put: put, per: columnChunkRuns}
}

// add takes the next run in cell order.
func (w *columnWriter) add(f *runFields) error {
	if f.metricsOnly {
		return fmt.Errorf("a cell entry of store format 2 (metrics only) in a store of format %d", storeFormat)
	}
	for c := range columnSpecs {
		sp := &columnSpecs[c]
		switch sp.kind {
		case colFloat, colOptFloat:
			v, ok := sp.float(f)
			w.floats[c] = append(w.floats[c], v)
			w.has[c] = append(w.has[c], ok)
		case colInt:
			w.ints[c] = append(w.ints[c], sp.whole(f))
		case colText:
			w.texts[c] = append(w.texts[c], sp.text(f))
		}
	}
	if w.n++; w.n == w.per {
		return w.flush()
	}
	return nil
}

// flush writes the current chunk of every column.
func (w *columnWriter) flush() error {
	if w.n == 0 {
		return nil
	}
	for c := range columnSpecs {
		sp := &columnSpecs[c]
		w.buf = append(make([]byte, 0, 8*w.n+64), byte(sp.kind)) // held by the write batch
		w.buf = binary.AppendUvarint(w.buf, uint64(w.n))
		switch sp.kind {
		case colFloat, colOptFloat:
			if sp.kind == colOptFloat {
				w.buf = appendBitmap(w.buf, w.has[c])
			}
			var coded bool
			if w.buf, coded = appendFloatValues(w.buf, w.floats[c]); coded {
				w.buf[0] |= colCoded
			}
		case colInt:
			w.buf = appendDict(w.buf, w.ints[c], func(b []byte, v int) []byte { return binary.AppendVarint(b, int64(v)) })
		case colText:
			w.buf = appendDict(w.buf, w.texts[c], func(b []byte, v string) []byte {
				return append(binary.AppendUvarint(b, uint64(len(v))), v...)
			})
		}
		if err := w.put(columnChunkName(sp.name, w.chunks), w.buf); err != nil {
			return err
		}
		w.floats[c], w.has[c], w.ints[c], w.texts[c] = w.floats[c][:0], w.has[c][:0], w.ints[c][:0], w.texts[c][:0]
	}
	w.n = 0
	w.chunks++
	return nil
}

// appendFloatValues appends the values dictionary-coded (as appendDict
// does, each value its 8 bytes) when that is smaller than 8 bytes each,
// and says so; else plainly. Measured values repeat often (a latency to
// three decimals, a hit rate, a per-core figure of a fixed setup).
func appendFloatValues(dst []byte, vs []float64) ([]byte, bool) {
	codes := make(map[uint64]uint32)
	var order []uint64
	for _, v := range vs {
		b := math.Float64bits(v)
		if _, ok := codes[b]; ok {
			continue
		}
		if 8*(len(order)+1) >= 8*len(vs)/2 { // too many to gain
			for _, v := range vs {
				dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
			}
			return dst, false
		}
		codes[b] = uint32(len(order))
		order = append(order, b)
	}
	return appendCoded(dst, vs, func(v float64) uint32 { return codes[math.Float64bits(v)] }, order,
		binary.LittleEndian.AppendUint64), true
}

func appendBitmap(dst []byte, bs []bool) []byte {
	for i := 0; i < len(bs); i += 8 {
		var b byte
		for j := i; j < min(i+8, len(bs)); j++ {
			if bs[j] {
				b |= 1 << (j - i)
			}
		}
		dst = append(dst, b)
	}
	return dst
}

// appendDict writes the distinct values (in first-seen order), the code
// width and each value's code.
func appendDict[T comparable](dst []byte, vs []T, enc func([]byte, T) []byte) []byte {
	codes := make(map[T]uint32)
	var order []T
	for _, v := range vs {
		if _, ok := codes[v]; !ok {
			codes[v] = uint32(len(order))
			order = append(order, v)
		}
	}
	return appendCoded(dst, vs, func(v T) uint32 { return codes[v] }, order, enc)
}

// appendCoded writes a dictionary (its values in code order, each by enc),
// the code width and each value's code.
func appendCoded[T, D any](dst []byte, vs []T, code func(T) uint32, dict []D, enc func([]byte, D) []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(dict)))
	for _, v := range dict {
		dst = enc(dst, v)
	}
	width := codeWidth(len(dict))
	dst = append(dst, byte(width))
	for _, v := range vs {
		c := code(v)
		switch width {
		case 1:
			dst = append(dst, byte(c))
		case 2:
			dst = binary.LittleEndian.AppendUint16(dst, uint16(c))
		default:
			dst = binary.LittleEndian.AppendUint32(dst, c)
		}
	}
	return dst
}

func codeWidth(n int) int {
	switch {
	case n <= 1<<8:
		return 1
	case n <= 1<<16:
		return 2
	}
	return 4
}

// columnReader decodes the chunks of one column into a column.
type columnReader struct {
	spec   *columnSpec
	col    runColumn
	index  map[string]uint32 // colText: dict position of each value
	findex map[uint64]uint16 // a coded float column: fdict position of each value (by its bits)
	runs   int
}

func newColumnReader(sp *columnSpec, runs int) *columnReader {
	r := &columnReader{spec: sp, runs: runs}
	switch sp.kind {
	case colFloat:
		r.col.fcodes, r.findex = make([]uint16, 0, runs), map[uint64]uint16{}
	case colOptFloat:
		r.col.fcodes, r.findex, r.col.has = make([]uint16, 0, runs), map[uint64]uint16{}, make([]bool, 0, runs)
	case colInt:
		r.col.i = make([]int, 0, runs)
	case colText:
		r.col.codes, r.index = make([]uint32, 0, runs), map[string]uint32{}
	}
	return r
}

// add decodes one chunk payload of want runs and appends it.
func (r *columnReader) add(b []byte, want int) error {
	bad := func(what string) error { return fmt.Errorf("%w: column %s: %s", errBadRun, r.spec.name, what) }
	if len(b) < 1 || colKind(b[0]&^colCoded) != r.spec.kind || b[0]&colCoded != 0 && r.spec.kind != colFloat && r.spec.kind != colOptFloat {
		return bad("a chunk of another kind")
	}
	coded := b[0]&colCoded != 0
	n, k := binary.Uvarint(b[1:])
	if k <= 0 || n != uint64(want) {
		return bad(fmt.Sprintf("a chunk of %d runs, want %d", n, want))
	}
	b = b[1+k:]
	switch r.spec.kind {
	case colOptFloat:
		nb := (want + 7) / 8
		if len(b) < nb {
			return bad("a short bitmap")
		}
		for i := range want {
			r.col.has = append(r.col.has, b[i/8]&(1<<(i%8)) != 0)
		}
		b = b[nb:]
		fallthrough
	case colFloat:
		if coded {
			return r.addCodedFloats(b, want)
		}
		if len(b) != 8*want {
			return bad(fmt.Sprintf("%d bytes of values for %d runs", len(b), want))
		}
		r.plain()
		for i := range want {
			r.col.f = append(r.col.f, math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
		}
		return nil
	}
	nd, k := binary.Uvarint(b)
	if k <= 0 || nd > uint64(len(b)) {
		return bad("a bad dictionary")
	}
	b = b[k:]
	local := make([]uint32, nd) // the chunk's codes → the column's
	ints := make([]int, nd)
	for j := range local {
		switch r.spec.kind {
		case colInt:
			v, k := binary.Varint(b)
			if k <= 0 || v < math.MinInt || v > math.MaxInt {
				return bad("a bad number")
			}
			ints[j], b = int(v), b[k:]
		case colText:
			l, k := binary.Uvarint(b)
			if k <= 0 || l > uint64(len(b)-k) {
				return bad("a bad text")
			}
			s := b[k : k+int(l)]
			code, ok := r.index[string(s)]
			if !ok {
				code = uint32(len(r.col.dict))
				r.col.dict = append(r.col.dict, string(s))
				r.index[string(s)] = code
			}
			local[j], b = code, b[k+int(l):]
		}
	}
	var err error
	if r.spec.kind == colInt {
		r.col.i, err = readCodes(b, ints, want, bad, r.col.i)
	} else {
		r.col.codes, err = readCodes(b, local, want, bad, r.col.codes)
	}
	return err
}

// addCodedFloats decodes dictionary-coded float values (appendFloatValues).
func (r *columnReader) addCodedFloats(b []byte, want int) error {
	bad := func(what string) error { return fmt.Errorf("%w: column %s: %s", errBadRun, r.spec.name, what) }
	nd, k := binary.Uvarint(b)
	if k <= 0 || nd > uint64(len(b)-k)/8 {
		return bad("a bad dictionary")
	}
	b = b[k:]
	dict := make([]float64, nd)
	for j := range dict {
		dict[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
	}
	if r.findex != nil {
		global := make([]uint16, nd) // the chunk's codes → the column's
		for j, v := range dict {
			g, ok := r.findex[math.Float64bits(v)]
			if !ok {
				if len(r.col.fdict) == 1<<16 {
					r.plain()
					break
				}
				g = uint16(len(r.col.fdict))
				r.col.fdict = append(r.col.fdict, v)
				r.findex[math.Float64bits(v)] = g
			}
			global[j] = g
		}
		if r.findex != nil {
			var err error
			r.col.fcodes, err = readCodes(b[8*nd:], global, want, bad, r.col.fcodes)
			return err
		}
	}
	var err error
	r.col.f, err = readCodes(b[8*nd:], dict, want, bad, r.col.f)
	return err
}

// plain turns a coded float column into a plain one (a chunk of plain
// values, or more distinct values than codes can name, came).
func (r *columnReader) plain() {
	if r.findex == nil {
		return
	}
	r.col.f = make([]float64, len(r.col.fcodes), r.runs)
	for p, c := range r.col.fcodes {
		r.col.f[p] = r.col.fdict[c]
	}
	r.col.fcodes, r.col.fdict, r.findex = nil, nil, nil
}

// float is run p's value of a float column.
func (c *runColumn) float(p int) float64 {
	if c.fcodes != nil {
		return c.fdict[c.fcodes[p]]
	}
	return c.f[p]
}

// floatAt points at run p's value of a float column (not to be written).
func (c *runColumn) floatAt(p int) *float64 {
	if c.fcodes != nil {
		return &c.fdict[c.fcodes[p]]
	}
	return &c.f[p]
}

// readCodes reads a code width and want codes, each below len(dict), and
// appends the dictionary's value for each to dst.
func readCodes[T any](b []byte, dict []T, want int, bad func(string) error, dst []T) ([]T, error) {
	if len(b) < 1 {
		return dst, bad("no code width")
	}
	width := int(b[0])
	b = b[1:]
	if width != codeWidth(len(dict)) || len(b) != width*want {
		return dst, bad("codes of the wrong size")
	}
	n := uint32(len(dict))
	switch width {
	case 1:
		for _, c := range b {
			if uint32(c) >= n {
				return dst, bad("a code outside the dictionary")
			}
			dst = append(dst, dict[c])
		}
	case 2:
		for i := 0; i < len(b); i += 2 {
			c := uint32(binary.LittleEndian.Uint16(b[i:]))
			if c >= n {
				return dst, bad("a code outside the dictionary")
			}
			dst = append(dst, dict[c])
		}
	default:
		for i := 0; i < len(b); i += 4 {
			c := binary.LittleEndian.Uint32(b[i:])
			if c >= n {
				return dst, bad("a code outside the dictionary")
			}
			dst = append(dst, dict[c])
		}
	}
	return dst, nil
}

// columnFromRuns builds a column from runs in memory (a snapshot without
// stored columns).
func columnFromRuns(sp *columnSpec, runs []Run) *runColumn {
	r := newColumnReader(sp, len(runs))
	r.plain()
	for i := range runs {
		f := fieldsOf(&runs[i])
		switch sp.kind {
		case colFloat, colOptFloat:
			v, ok := sp.float(&f)
			r.col.f = append(r.col.f, v)
			if sp.kind == colOptFloat {
				r.col.has = append(r.col.has, ok)
			}
		case colInt:
			r.col.i = append(r.col.i, sp.whole(&f))
		case colText:
			s := sp.text(&f)
			code, ok := r.index[s]
			if !ok {
				code = uint32(len(r.col.dict))
				r.col.dict = append(r.col.dict, s)
				r.index[s] = code
			}
			r.col.codes = append(r.col.codes, code)
		}
	}
	return &r.col
}

// code is the dictionary position of a text value, or -1.
func (c *runColumn) code(s string) int64 {
	if i := slices.Index(c.dict, s); i >= 0 {
		return int64(i)
	}
	return -1
}
