package analytics

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"
)

// embeddedRuns are the runs of the embedded dataset the keep rule keeps.
func embeddedRuns(tb testing.TB) []Run {
	tb.Helper()
	var runs []Run
	for _, f := range DefaultDataset() {
		b, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		rows, probs := readCSV(bytes.NewReader(b), f.Session, f.Name())
		if len(probs) > 0 {
			tb.Fatal(probs)
		}
		for _, r := range rows {
			if Keep(r.run) {
				runs = append(runs, r.run)
			}
		}
	}
	return runs
}

func TestEveryEmbeddedRunSurvivesTheBinaryEncoding(t *testing.T) {
	runs := embeddedRuns(t)
	if len(runs) != 478 {
		t.Fatalf("%d embedded runs, want 478", len(runs))
	}
	for _, r := range runs {
		v := encodeRun(nil, &r)
		if v[0] != runEncodingV1 {
			t.Fatalf("first byte %d, want the version %d", v[0], runEncodingV1)
		}
		got, err := decodeRun(v)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("%s: decoded\n%+v\nwant\n%+v", r.ID, got, r)
		}
	}
}

func TestABadEncodedRunIsAnErrorNeverAPanicOrAnotherRun(t *testing.T) {
	r := embeddedRuns(t)[0]
	good := encodeRun(nil, &r)
	tests := map[string][]byte{
		"empty":                     nil,
		"JSON (format 1)":           []byte(`{"id":"run-1"}`),
		"a later version":           append([]byte{2}, good[1:]...),
		"unknown flags":             append([]byte{1, 0x80}, good[2:]...),
		"cut short":                 good[:len(good)-1],
		"a byte too many":           append(slices.Clone(good), 0),
		"fixed part only":           good[:runFixedSize],
		"a string longer than left": append(slices.Clone(good[:len(good)-len(r.SourceFile)-1]), 0x7f),
	}
	for name, v := range tests {
		if _, err := decodeRun(v); !errors.Is(err, errBadRun) {
			t.Errorf("%s: error %v, want errBadRun", name, err)
		}
	}
}

// FuzzDecodeRun checks that decoding any bytes never panics, and that
// whatever decodes encodes back to a value that decodes to the same run.
func FuzzDecodeRun(f *testing.F) {
	for _, r := range fuzzRuns() {
		f.Add(encodeRun(nil, &r))
	}
	f.Add([]byte{1, 0})
	f.Add([]byte(`{"id":"x"}`))
	f.Fuzz(func(t *testing.T, v []byte) {
		r, err := decodeRun(v)
		if err != nil {
			if !errors.Is(err, errBadRun) {
				t.Fatalf("error %v does not wrap errBadRun", err)
			}
			return
		}
		again, err := decodeRun(encodeRun(nil, &r))
		if err != nil || !sameRunBits(again, r) {
			t.Fatalf("re-encoding %+v gave %+v, %v", r, again, err)
		}
	})
}

// FuzzRunRoundTrip builds runs from fuzzed fields (any text, any number,
// NaN and infinities included) and checks they decode to themselves.
func FuzzRunRoundTrip(f *testing.F) {
	f.Add("run-s1-x-redis-single-4c-p1-1-10-d100-rep1", "redis", "1:10", 1, 4, -7, 1.5, math.Inf(1), true)
	f.Add("", "", "", 0, math.MinInt, math.MaxInt, math.NaN(), math.Copysign(0, -1), false)
	f.Fuzz(func(t *testing.T, id, engine, ratio string, session, cores, rep int, ops, p99 float64, hit bool) {
		r := Run{ID: id, Engine: engine, Ratio: ratio, Session: session, Cores: cores, Rep: rep,
			OpsPerSec: ops, P99Ms: p99, Note: id + engine, SourceFile: ratio, KeyMax: -cores, SourceLine: rep}
		if hit {
			h := ops / 2
			r.HitRate = &h
		}
		got, err := decodeRun(encodeRun(nil, &r))
		if err != nil || !sameRunBits(got, r) {
			t.Fatalf("round trip of %+v gave %+v, %v", r, got, err)
		}
	})
}

// sameRunBits compares runs field by field, floats by their bits (NaN
// equals NaN).
func sameRunBits(a, b Run) bool {
	fa, fb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range fa.NumField() {
		x, y := fa.Field(i), fb.Field(i)
		switch x.Kind() {
		case reflect.Float64:
			if math.Float64bits(x.Float()) != math.Float64bits(y.Float()) {
				return false
			}
		case reflect.Pointer:
			if x.IsNil() != y.IsNil() || (!x.IsNil() && math.Float64bits(x.Elem().Float()) != math.Float64bits(y.Elem().Float())) {
				return false
			}
		default:
			if !reflect.DeepEqual(x.Interface(), y.Interface()) {
				return false
			}
		}
	}
	return true
}

// TestCellKeyBytesSortLikeCellOrder checks the order-preserving encoding
// of cell keys against CompareCellKeys, unknown names and NUL bytes
// included, and that it decodes back.
func TestCellKeyBytesSortLikeCellOrder(t *testing.T) {
	var keys []CellKey
	for _, s := range []int{1, 2, -3} {
		for _, e := range []string{"redis", "dragonfly", "zeta", "alpha", "a\x00b", "a"} {
			for _, m := range []string{"single", "cluster-sat", "other"} {
				for _, c := range []int{4, 48, 0} {
					for _, ra := range []string{"1:1", "mset10", "2:1"} {
						keys = append(keys, CellKey{Session: s, Engine: e, Mode: m, Cores: c, Ratio: ra, ValueBytes: 100, Pipeline: 16})
					}
				}
			}
		}
	}
	for _, a := range keys {
		ea := appendCellKey(nil, a)
		back, rest, err := readCellKey(ea)
		if err != nil || back != a || len(rest) != 0 {
			t.Fatalf("%+v decoded as %+v (rest %d), %v", a, back, len(rest), err)
		}
		for _, b := range keys {
			want := CompareCellKeys(a, b)
			got := bytes.Compare(ea, appendCellKey(nil, b))
			if (want < 0) != (got < 0) || (want == 0) != (got == 0) {
				t.Fatalf("%+v vs %+v: bytes compare %d, cell order %d", a, b, got, want)
			}
		}
	}
}
