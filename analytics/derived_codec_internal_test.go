package analytics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
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

// TestPickingRunIDsGivesTheMatchesOfTheDecodedOnes picks IDs from cells
// whose IDs grow, shrink and differ at the start, middle and end (coded
// and whole), with every kind of match pattern, reusing one scratch from
// cell to cell: each picked ID is the decoded one, the others "".
func TestPickingRunIDsGivesTheMatchesOfTheDecodedOnes(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 2))
	words := []string{"", "a", "rep1", "rep10", "synthetic-1200", "run-s1-", "-dragonfly-single-48c-p16-1:10-d100-", "x"}
	var scratch pickScratch
	for round := range 300 {
		n := 1 + r.IntN(40)
		ids := make([]string, n)
		for i := range ids {
			var b strings.Builder
			for range r.IntN(5) {
				b.WriteString(words[r.IntN(len(words))])
			}
			ids[i] = b.String()
		}
		c := Cell{CellKey: CellKey{Session: 1, Engine: "redis", Mode: "single", Cores: 4, Ratio: "1:10", ValueBytes: 100, Pipeline: 1},
			Reps: n, RunIDs: ids}
		enc := appendCell
		if round%3 == 0 {
			enc = appendCellPlainIDs
		}
		payload := binary.AppendUvarint(nil, 1)
		_, cids, err := decodeCellChunk(enc(payload, &c), true)
		if err != nil {
			t.Fatal(err)
		}
		matched := make([]bool, n)
		for i := range matched {
			switch round % 4 {
			case 0:
				matched[i] = r.IntN(50) == 0
			case 1:
				matched[i] = true
			default:
				matched[i] = r.IntN(2) == 0
			}
		}
		count := 0
		for _, ok := range matched {
			if ok {
				count++
			}
		}
		got := cids[0].pick(matched, count, &scratch)
		for i, id := range got {
			want := ""
			if matched[i] {
				want = ids[i]
			}
			if id != want {
				t.Fatalf("round %d: ID %d picked as %q, want %q (IDs %q)", round, i, id, want, ids)
			}
		}
		if len(got) != n {
			t.Fatalf("round %d: %d IDs picked of %d", round, len(got), n)
		}
	}
}

// BenchmarkPickRunIDs picks 1.6% and all of the run IDs of a cell of 830
// synthetic runs (IDs as a million-run import writes them), as a scan
// does for each cell some of whose runs match.
func BenchmarkPickRunIDs(b *testing.B) {
	c := Cell{CellKey: CellKey{Session: 3, Engine: "dragonfly", Mode: "single", Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16}}
	for j := 0; len(c.RunIDs) < 830; j += 1200 {
		for rep := 1; rep <= 10 && len(c.RunIDs) < 830; rep++ {
			c.RunIDs = append(c.RunIDs, MakeID(3, fmt.Sprintf("synthetic-%d", j+660), c.Engine, c.Mode, c.Cores, c.Pipeline, c.Ratio, c.ValueBytes, rep))
		}
	}
	c.Reps = len(c.RunIDs)
	_, cids, err := decodeCellChunk(appendCell(binary.AppendUvarint(nil, 1), &c), true)
	if err != nil {
		b.Fatal(err)
	}
	for _, share := range []int{62, 1} { // every 62nd run: 1.6%
		matched, count := make([]bool, c.Reps), 0
		for i := range matched {
			if matched[i] = i%share == 0; matched[i] {
				count++
			}
		}
		b.Run(fmt.Sprintf("%d-of-%d", count, c.Reps), func(b *testing.B) {
			var scratch pickScratch
			for b.Loop() {
				cids[0].pick(matched, count, &scratch)
			}
		})
	}
}
