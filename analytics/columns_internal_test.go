package analytics

import (
	"errors"
	"strings"
	"testing"
)

// TestColumnChunksRoundTripAndRefuseDamage writes the columns of runs
// whose float values repeat (dictionary-coded) and of runs whose values
// are all distinct (plain), reads them back, and reads every truncation
// and a changed kind byte of each chunk: an error wrapping errBadRun,
// never a panic or other values.
func TestColumnChunksRoundTripAndRefuseDamage(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs []Run
	}{
		{"repeating values", syntheticRuns(300)},
		{"distinct values", embeddedRuns(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunks := map[string][]byte{}
			w := newColumnWriter(func(name string, payload []byte) error { chunks[name] = payload; return nil })
			for i := range tc.runs {
				f := fieldsOf(&tc.runs[i])
				if err := w.add(&f); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.flush(); err != nil {
				t.Fatal(err)
			}
			coded := 0
			for i := range columnSpecs {
				sp := &columnSpecs[i]
				payload := chunks[columnChunkName(sp.name, 0)]
				if payload[0]&colCoded != 0 {
					coded++
				}
				r := newColumnReader(sp, len(tc.runs))
				if err := r.add(payload, len(tc.runs)); err != nil {
					t.Fatalf("%s: %v", sp.name, err)
				}
				if !sameColumn(&r.col, columnFromRuns(sp, tc.runs)) {
					t.Errorf("%s: read back other values", sp.name)
				}
				for n := range len(payload) {
					if err := newColumnReader(sp, len(tc.runs)).add(payload[:n], len(tc.runs)); !errors.Is(err, errBadRun) {
						t.Fatalf("%s cut to %d bytes: %v", sp.name, n, err)
					}
				}
				other := append([]byte{byte(colText) ^ payload[0]}, payload[1:]...)
				if err := newColumnReader(sp, len(tc.runs)).add(other, len(tc.runs)); !errors.Is(err, errBadRun) {
					t.Errorf("%s with another kind: %v", sp.name, err)
				}
			}
			if tc.name == "repeating values" && coded == 0 {
				t.Error("no float column was dictionary-coded")
			}
		})
	}
}

// TestACodedFloatColumnOfMoreDistinctValuesThanCodesTurnsPlain reads a
// float column whose every chunk is dictionary-coded but whose chunks
// hold 65536 distinct values between them (the most a code names) and
// one more: the reader keeps codes up to the limit and turns the column
// plain at the value past it, the values read back as written.
func TestACodedFloatColumnOfMoreDistinctValuesThanCodesTurnsPlain(t *testing.T) {
	defer func(n int) { columnChunkRuns = n }(columnChunkRuns)
	columnChunkRuns = 1024
	const perChunk = 511 // fewer than half a chunk: each chunk is coded
	sp, _ := columnSpecOf("ops_per_sec")
	for _, distinct := range []int{1 << 16, 1<<16 + 1} {
		runs := make([]Run, 0, (distinct/perChunk+1)*columnChunkRuns)
		for v := 0; v < distinct; {
			for i := range columnChunkRuns {
				runs = append(runs, Run{OpsPerSec: float64(min(v+i%perChunk, distinct-1)) + 0.5})
			}
			v += perChunk
		}
		chunks := 0
		r := newColumnReader(sp, len(runs))
		w := newColumnWriter(func(name string, payload []byte) error {
			if strings.HasPrefix(name, "col/ops_per_sec/") {
				if payload[0]&colCoded == 0 {
					t.Fatalf("chunk %s is not coded", name)
				}
				chunks++
				return r.add(payload, columnChunkRuns)
			}
			return nil
		})
		for i := range runs {
			f := fieldsOf(&runs[i])
			if err := w.add(&f); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.flush(); err != nil {
			t.Fatal(err)
		}
		if coded := r.col.fcodes != nil; coded != (distinct <= 1<<16) {
			t.Errorf("%d distinct values in %d chunks: coded %v", distinct, chunks, coded)
		}
		if !sameColumn(&r.col, columnFromRuns(sp, runs)) {
			t.Errorf("%d distinct values: read back other values", distinct)
		}
	}
}
