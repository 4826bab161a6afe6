package analytics

import (
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"testing"
)

// appendCellPlainIDs is appendCell as the first format-3 release wrote it:
// each run ID whole (no cellIDsCoded flag).
func appendCellPlainIDs(dst []byte, c *Cell) []byte {
	dst = appendCellKey(dst, c.CellKey)
	dst = binary.AppendUvarint(dst, uint64(c.Reps))
	var flags byte
	hit := 0.0
	if c.HitRate != nil {
		flags, hit = cellHasHitRate, *c.HitRate
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

// TestCellChunksRoundTripAndRefuseDamage encodes the embedded and
// synthetic cells in chunks (run IDs coded, and whole as the first
// format-3 release wrote them), decodes them (run IDs at once, and left
// for later), and decodes every truncation of each chunk: an error
// wrapping errBadRun, never a panic. The synthetic cells (70, of 10 runs
// each, every engine and mode) stand for many repetitions; more of them
// (3,000 runs) checked nothing more and took 2½ minutes under -race.
func TestCellChunksRoundTripAndRefuseDamage(t *testing.T) {
	t.Parallel()
	for _, s := range []*Store{openDefault(t), {snap: newSnapshot(syntheticRuns(700))}} {
		cells := s.Cells()
		for _, enc := range []func([]byte, *Cell) []byte{appendCell, appendCellPlainIDs} {
			for from := 0; from < len(cells); from += 7 {
				chunk := cells[from:min(from+7, len(cells))]
				payload := binary.AppendUvarint(nil, uint64(len(chunk)))
				for i := range chunk {
					payload = enc(payload, &chunk[i])
				}
				got, _, err := decodeCellChunk(payload, false)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, chunk) {
					t.Fatalf("cells %d…: decoded other cells", from)
				}
				lazy, ids, err := decodeCellChunk(payload, true)
				if err != nil {
					t.Fatal(err)
				}
				for i := range lazy {
					if lazy[i].RunIDs != nil {
						t.Fatal("a lazily read cell has its run IDs")
					}
					lazy[i].RunIDs = ids[i].get()
				}
				if !reflect.DeepEqual(lazy, chunk) {
					t.Fatalf("cells %d…: decoded other cells when their run IDs were left for later", from)
				}
				for n := range len(payload) {
					for _, later := range []bool{false, true} {
						if _, _, err := decodeCellChunk(payload[:n], later); !errors.Is(err, errBadRun) {
							t.Fatalf("cells %d… cut to %d bytes: %v", from, n, err)
						}
					}
				}
			}
		}
	}
}
