package analytics

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
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

// appendCell appends one cell record: its key, repetitions, medians and
// run IDs (in repetition order).
func appendCell(dst []byte, c *Cell) []byte {
	dst = appendCellKey(dst, c.CellKey)
	dst = binary.AppendUvarint(dst, uint64(c.Reps))
	var flags byte
	hit := 0.0
	if c.HitRate != nil {
		flags, hit = 1, *c.HitRate
	}
	dst = append(dst, flags)
	for _, f := range [7]float64{c.OpsPerSec, c.OpsPerCore, c.P50Ms, c.P99Ms, c.P999Ms, c.KBPerSec, hit} {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	dst = binary.AppendUvarint(dst, uint64(len(c.RunIDs)))
	for _, id := range c.RunIDs {
		dst = binary.AppendUvarint(dst, uint64(len(id)))
		dst = append(dst, id...)
	}
	return dst
}

// readCell decodes one record written by appendCell and returns the rest.
// text holds the same bytes as the chunk b is a suffix of: the run IDs are
// taken from it, so a chunk's IDs share one allocation.
func readCell(b []byte, text string) (Cell, []byte, error) {
	var c Cell
	k, b, err := readCellKey(b)
	if err != nil {
		return c, nil, err
	}
	c.CellKey = k
	reps, n := binary.Uvarint(b)
	if n <= 0 || reps > uint64(len(b)) {
		return c, nil, fmt.Errorf("%w: a bad cell record", errBadRun)
	}
	c.Reps = int(reps)
	b = b[n:]
	if len(b) < 1+7*8 || b[0] > 1 {
		return c, nil, fmt.Errorf("%w: a bad cell record", errBadRun)
	}
	hasHit := b[0] == 1
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
		return c, nil, fmt.Errorf("%w: a cell record's run IDs do not match its repetitions", errBadRun)
	}
	b = b[n:]
	c.RunIDs = make([]string, nids)
	for i := range c.RunIDs {
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return c, nil, fmt.Errorf("%w: a bad run ID in a cell record", errBadRun)
		}
		off := len(text) - len(b) + n
		c.RunIDs[i] = text[off : off+int(l)]
		b = b[n+int(l):]
	}
	return c, b, nil
}

// decodeCellChunk decodes a chunk payload: a count, then the records.
func decodeCellChunk(b []byte) ([]Cell, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, fmt.Errorf("%w: a bad cell chunk", errBadRun)
	}
	b = b[k:]
	text := string(b)
	out := make([]Cell, n)
	for i := range out {
		var err error
		if out[i], b, err = readCell(b, text); err != nil {
			return nil, err
		}
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes left over in a cell chunk", errBadRun, len(b))
	}
	return out, nil
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
