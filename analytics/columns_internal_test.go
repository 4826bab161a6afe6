package analytics

import (
	"errors"
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
