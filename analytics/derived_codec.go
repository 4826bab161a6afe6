package analytics

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strconv"
	"sync"
	"unsafe"
)

// Every value under derivedPrefix ends with a CRC-32C of its key and
// payload, checked on every read: a flipped byte in the persisted index
// (or a value moved to another key) is an error, never a different answer.
var crcTable = crc32.MakeTable(crc32.Castagnoli)

func sealValue(key, payload []byte) []byte {
	c := crc32.Update(crc32.Checksum(key, crcTable), crcTable, payload)
	return binary.LittleEndian.AppendUint32(payload, c)
}

func openValue(key, v []byte) ([]byte, error) {
	if len(v) < 4 {
		return nil, fmt.Errorf("%s: %d bytes, too short", key, len(v))
	}
	payload := v[:len(v)-4]
	if crc32.Update(crc32.Checksum(key, crcTable), crcTable, payload) != binary.LittleEndian.Uint32(v[len(v)-4:]) {
		return nil, fmt.Errorf("%s fails its checksum", key)
	}
	return payload, nil
}

// derivedKey names one value of a generation's derived data.
func derivedKey(gen uint64, name string) []byte {
	return []byte(fmt.Sprintf("%s%016x/%s", derivedPrefix, gen, name))
}

func cellChunkName(i int) string { return fmt.Sprintf("cells/%08x", i) }

func pinName(p pin) string {
	if isTextCellField(p.field) {
		return "pin/" + p.field + "=" + p.text
	}
	return "pin/" + p.field + "=" + strconv.Itoa(p.num)
}

// Flags of a cell record.
const (
	cellHasHitRate = 1 << 0
	// cellIDsCoded: each run ID after the first is written as the bytes it
	// shares with the one before at its start and at its end, and the
	// bytes between (a cell's IDs differ in a few characters in the
	// middle: a tenth of the bytes).
	cellIDsCoded = 1 << 1
)

// appendCell appends one cell record: its key, repetitions, flags, medians
// and run IDs (in repetition order: their count, their length in all,
// then each as cellIDsCoded says).
func appendCell(dst []byte, c *Cell) []byte {
	dst = appendCellKey(dst, c.CellKey)
	dst = binary.AppendUvarint(dst, uint64(c.Reps))
	var flags byte = cellIDsCoded
	hit := 0.0
	if c.HitRate != nil {
		flags, hit = flags|cellHasHitRate, *c.HitRate
	}
	dst = append(dst, flags)
	for _, f := range [7]float64{c.OpsPerSec, c.OpsPerCore, c.P50Ms, c.P99Ms, c.P999Ms, c.KBPerSec, hit} {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	dst = binary.AppendUvarint(dst, uint64(len(c.RunIDs)))
	total := 0
	for _, id := range c.RunIDs {
		total += len(id)
	}
	dst = binary.AppendUvarint(dst, uint64(total)) // so a reader allocates them at once
	prev := ""
	for _, id := range c.RunIDs {
		pre := commonPrefix(prev, id)
		suf := commonSuffix(prev[pre:], id[pre:])
		dst = binary.AppendUvarint(dst, uint64(pre))
		dst = binary.AppendUvarint(dst, uint64(suf))
		dst = binary.AppendUvarint(dst, uint64(len(id)-pre-suf))
		dst = append(dst, id[pre:len(id)-suf]...)
		prev = id
	}
	return dst
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// maxIDBytes bounds a run ID's length when decoding (an ID is a few
// fields, its run_id at most 200 bytes), so that a damaged length never
// allocates much.
const maxIDBytes = 1 << 10

// idText gathers the run IDs of a cell into one buffer, so that they
// share one allocation: ends[i] is where ID i ends.
type idText struct {
	buf  []byte
	ends []int
}

// add appends the next ID: pre bytes from the start of the one before,
// then mid, then suf bytes from its end (scanIDs checked they exist).
func (t *idText) add(pre, suf int, mid []byte) {
	start, prev := 0, 0
	if n := len(t.ends); n > 0 {
		prev = t.ends[n-1]
		if n > 1 {
			start = t.ends[n-2]
		}
	}
	t.buf = append(t.buf, t.buf[start:start+pre]...)
	t.buf = append(t.buf, mid...)
	t.buf = append(t.buf, t.buf[prev-suf:prev]...)
	t.ends = append(t.ends, len(t.buf))
}

// ids returns the IDs. The buffer becomes their text without a copy (as
// strings.Builder does): nothing writes to it after this.
func (t *idText) ids() []string {
	if len(t.buf) == 0 {
		return make([]string, len(t.ends))
	}
	text := unsafe.String(&t.buf[0], len(t.buf))
	out := make([]string, len(t.ends))
	start := 0
	for i, end := range t.ends {
		out[i], start = text[start:end], end
	}
	return out
}

// cellIDs is a cell's run IDs as its record holds them, for a reader
// that decodes them on first need: most scans name the run IDs of a few
// cells only, and decoding every cell's is most of reading the records.
type cellIDs struct {
	raw   []byte // the record's IDs (its own copy), checked when read; never changed
	n     int
	total int // their length in all
	coded bool

	once sync.Once
	ids  []string
}

// get decodes the IDs (once; raw was checked by readCell).
func (ci *cellIDs) get() []string {
	ci.once.Do(func() {
		t := idText{buf: make([]byte, 0, ci.total), ends: make([]int, 0, ci.n)}
		_, _, _ = scanIDs(ci.raw, ci.n, ci.coded, &t)
		ci.ids = t.ids()
	})
	return ci.ids
}

// pick returns the cell's run IDs where matched is true ("" elsewhere),
// count of them, decoding them from raw (never changed, so safe beside
// get) one after another in scratch and writing out only the matches, into
// one allocation of about their size: a scan matching a few runs of a cell
// of hundreds spent most of its time writing out every ID to keep a few.
// The slice is scratch's, reused by the next call.
func (ci *cellIDs) pick(matched []bool, count int, scratch *pickScratch) []string {
	b, cur, ends := ci.raw, scratch.cur[:0], scratch.ends[:0]
	text := make([]byte, 0, count*ci.total/max(ci.n, 1)+32) // IDs of a cell are about as long as each other
	for j := range ci.n {
		pre, suf := 0, 0
		if ci.coded {
			p, k1 := binary.Uvarint(b)
			q, k2 := binary.Uvarint(b[k1:])
			pre, suf, b = int(p), int(q), b[k1+k2:]
		}
		l, k := binary.Uvarint(b)
		mid := b[k : k+int(l)]
		b = b[k+int(l):]
		cur = nextID(cur, pre, suf, mid)
		if matched[j] {
			text = append(text, cur...)
			ends = append(ends, len(text))
		}
	}
	all := unsafe.String(unsafe.SliceData(text), len(text)) // nothing writes to text after this
	out := scratch.out[:0]
	at, m := 0, 0
	for j := range ci.n {
		id := ""
		if matched[j] {
			id, at = all[at:ends[m]], ends[m]
			m++
		}
		out = append(out, id)
	}
	scratch.cur, scratch.ends, scratch.out = cur, ends, out
	return out
}

// pickScratch is the space cellIDs.pick reuses from cell to cell.
type pickScratch struct {
	cur  []byte
	ends []int
	out  []string
}

// nextID turns cur, one ID, into the next, written as its first pre
// bytes, then mid, then its last suf bytes (scanIDs checked they exist),
// in place: only what changes moves.
func nextID(cur []byte, pre, suf int, mid []byte) []byte {
	old, n := len(cur), pre+len(mid)+suf
	if cap(cur) < n {
		cur = append(make([]byte, 0, max(2*cap(cur), n, 64)), cur...)
	}
	cur = cur[:max(old, n)]
	copy(cur[pre+len(mid):], cur[old-suf:old]) // the tail first: mid may land on it
	copy(cur[pre:], mid)
	return cur[:n]
}

// errBadRunID is scanIDs' error, made once: it checks every cell a scan
// reads, and a new error per call was a tenth of its time.
var errBadRunID = fmt.Errorf("%w: a bad run ID in a cell record", errBadRun)

// scanIDs reads n run IDs written by appendCell (coded or whole), checking
// them; with t it also decodes them into t. It returns their length in
// all and the bytes after them.
func scanIDs(b []byte, n int, coded bool, t *idText) (int, []byte, error) {
	total, prevLen := 0, 0
	for range n {
		var pre, suf uint64
		if coded {
			var k1, k2 int
			pre, k1 = binary.Uvarint(b)
			if k1 > 0 {
				suf, k2 = binary.Uvarint(b[k1:])
			}
			if k1 <= 0 || k2 <= 0 || pre+suf > uint64(prevLen) {
				return 0, nil, errBadRunID
			}
			b = b[k1+k2:]
		}
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return 0, nil, errBadRunID
		}
		if t != nil {
			t.add(int(pre), int(suf), b[k:k+int(l)])
		}
		prevLen = int(pre+suf) + int(l)
		total += prevLen
		b = b[k+int(l):]
	}
	return total, b, nil
}

// readCell decodes one record written by appendCell and returns the rest.
// With lazy, its run IDs are checked and kept as written (ids), not
// decoded; else decoded into the cell, ends being scratch space reused
// from cell to cell.
func readCell(b []byte, ends *[]int, lazy bool) (Cell, cellIDs, []byte, error) {
	var c Cell
	k, b, err := readCellKey(b)
	if err != nil {
		return c, cellIDs{}, nil, err
	}
	c.CellKey = k
	reps, n := binary.Uvarint(b)
	if n <= 0 || reps > uint64(len(b)) {
		return c, cellIDs{}, nil, fmt.Errorf("%w: a bad cell record", errBadRun)
	}
	c.Reps = int(reps)
	b = b[n:]
	if len(b) < 1+7*8 || b[0]&^(cellHasHitRate|cellIDsCoded) != 0 {
		return c, cellIDs{}, nil, fmt.Errorf("%w: a bad cell record", errBadRun)
	}
	hasHit, coded := b[0]&cellHasHitRate != 0, b[0]&cellIDsCoded != 0
	var f [7]float64
	for i := range f {
		f[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[1+i*8:]))
	}
	b = b[1+7*8:]
	c.OpsPerSec, c.OpsPerCore, c.P50Ms, c.P99Ms, c.P999Ms, c.KBPerSec = f[0], f[1], f[2], f[3], f[4], f[5]
	if hasHit {
		h := f[6]
		c.HitRate = &h
	}
	nids, n := binary.Uvarint(b)
	if n <= 0 || nids != reps {
		return c, cellIDs{}, nil, fmt.Errorf("%w: a cell record's run IDs do not match its repetitions", errBadRun)
	}
	b = b[n:]
	declared := -1
	if coded {
		total, n := binary.Uvarint(b)
		if n <= 0 || total > maxIDBytes*nids {
			return c, cellIDs{}, nil, fmt.Errorf("%w: a bad run ID in a cell record", errBadRun)
		}
		declared, b = int(total), b[n:]
	}
	var t *idText
	if !lazy {
		t = &idText{ends: (*ends)[:0]}
		if coded {
			t.buf = make([]byte, 0, declared)
		}
		defer func() { *ends = t.ends }()
	}
	start := b
	total, b, err := scanIDs(b, int(nids), coded, t)
	if err != nil {
		return c, cellIDs{}, nil, err
	}
	if coded && total != declared {
		return c, cellIDs{}, nil, fmt.Errorf("%w: a cell record's run IDs are not the length it says", errBadRun)
	}
	if lazy {
		return c, cellIDs{raw: start[:len(start)-len(b)], n: int(nids), total: total, coded: coded}, b, nil
	}
	c.RunIDs = t.ids()
	return c, cellIDs{}, b, nil
}

// decodeCellChunk decodes a chunk payload: a count, then the records.
// With lazy, the cells' run IDs are left to ids (over a copy of the
// payload), else decoded into the cells (ids nil).
func decodeCellChunk(b []byte, lazy bool) (cells []Cell, ids []cellIDs, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, nil, fmt.Errorf("%w: a bad cell chunk", errBadRun)
	}
	b = b[k:]
	if lazy {
		b = slices.Clone(b)
		ids = make([]cellIDs, n)
	}
	out := make([]Cell, n)
	var ends []int
	for i := range out {
		var ci cellIDs
		if out[i], ci, b, err = readCell(b, &ends, lazy); err != nil {
			return nil, nil, err
		}
		if lazy {
			ids[i].raw, ids[i].n, ids[i].total, ids[i].coded = ci.raw, ci.n, ci.total, ci.coded
		}
	}
	if len(b) != 0 {
		return nil, nil, fmt.Errorf("%w: %d bytes left over in a cell chunk", errBadRun, len(b))
	}
	return out, ids, nil
}

// appendPosting encodes an ascending list of cell numbers as a count and
// deltas.
func appendPosting(dst []byte, cells []int) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(cells)))
	prev := 0
	for _, c := range cells {
		dst = binary.AppendUvarint(dst, uint64(c-prev))
		prev = c
	}
	return dst
}

func decodePosting(b []byte, cells int) ([]int, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, fmt.Errorf("%w: a bad posting list", errBadRun)
	}
	b = b[k:]
	out := make([]int, n)
	prev := 0
	for i := range out {
		d, k := binary.Uvarint(b)
		if k <= 0 || (i > 0 && d == 0) || d > uint64(cells) {
			return nil, fmt.Errorf("%w: a bad posting list", errBadRun)
		}
		prev += int(d)
		if prev >= cells {
			return nil, fmt.Errorf("%w: a posting list names cell %d of %d", errBadRun, prev, cells)
		}
		out[i] = prev
		b = b[k:]
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: bytes left over in a posting list", errBadRun)
	}
	return out, nil
}
