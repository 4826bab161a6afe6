package analytics

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// medianShapes are value sets the selection has to get right: random
// decimals, heavy ties, orders that defeat naive pivots, one value.
var medianShapes = []struct {
	name string
	make func(r *rand.Rand, n int) []float64
}{
	{"random decimals", func(r *rand.Rand, n int) []float64 {
		return valuesOf(n, func(int) float64 { return math.Round(r.Float64()*1e9) / 1e3 })
	}},
	{"a few values, many ties", func(r *rand.Rand, n int) []float64 {
		return valuesOf(n, func(int) float64 { return float64(r.IntN(3)) * 0.125 })
	}},
	{"all equal", func(_ *rand.Rand, n int) []float64 { return valuesOf(n, func(int) float64 { return 7.5 }) }},
	{"ascending", func(_ *rand.Rand, n int) []float64 { return valuesOf(n, func(i int) float64 { return float64(i) }) }},
	{"descending", func(_ *rand.Rand, n int) []float64 { return valuesOf(n, func(i int) float64 { return float64(n - i) }) }},
	{"organ pipe", func(_ *rand.Rand, n int) []float64 {
		return valuesOf(n, func(i int) float64 { return float64(min(i, n-i)) })
	}},
	{"zeros among values", func(r *rand.Rand, n int) []float64 {
		return valuesOf(n, func(int) float64 { return float64(r.IntN(2)) * r.Float64() })
	}},
}

func valuesOf(n int, f func(i int) float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = f(i)
	}
	return v
}

// TestCellMedianIsTheSortedMedian checks the selection against the sort it
// replaced, bit for bit, over odd and even counts of every shape.
func TestCellMedianIsTheSortedMedian(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 4))
	sizes := []int{0, 1, 2, 3, 4, 5, 9, 10, 16, 17, 18, 31, 32, 33, 100, 415, 830, 831, 4096, 4097}
	for _, sh := range medianShapes {
		for _, n := range sizes {
			t.Run(sh.name+"/"+strconv.Itoa(n), func(t *testing.T) {
				for range 20 {
					vals := sh.make(r, n)
					r.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
					sorted := slices.Clone(vals)
					want := Median(sorted)
					got := cellMedian(vals)
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("cellMedian = %v, the sorted median is %v", got, want)
					}
					slices.Sort(vals)
					if !slices.Equal(vals, sorted) {
						t.Fatal("cellMedian lost or changed a value")
					}
				}
			})
		}
	}
}

// TestACellAggregatesAsTheSortedMediansDid checks a whole cell's figures
// (six metrics and the hit rate, some runs without one) against medians
// taken by sorting, over random repetitions with even and odd counts.
func TestACellAggregatesAsTheSortedMediansDid(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 6))
	for _, reps := range []int{1, 2, 3, 10, 11, 416, 831} {
		t.Run(strconv.Itoa(reps)+" repetitions", func(t *testing.T) {
			for range 10 {
				ms := make([]runMetrics, reps)
				ids := make([]string, reps)
				tie := func() float64 { return float64(r.IntN(5)) * 1000.25 }
				for i := range ms {
					ms[i] = runMetrics{OpsPerSec: tie(), OpsPerCore: r.Float64() * 1e5, P50Ms: float64(r.IntN(900)) / 1000,
						P99Ms: tie() / 1e3, P999Ms: r.Float64(), KBPerSec: float64(r.IntN(3))}
					if r.IntN(4) > 0 {
						h := float64(r.IntN(3)) / 2
						ms[i].HitRate = &h
					}
					ids[i] = "run-" + strconv.Itoa(i)
				}
				got := cellFromMetrics(CellKey{Engine: "redis"}, ids, ms, nil)
				want := sortedCell(ms)
				got.RunIDs = nil
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("cell\n got %+v (hit %v)\nwant %+v (hit %v)", got, deref(got.HitRate), want, deref(want.HitRate))
				}
			}
		})
	}
}

// sortedCell is the aggregation as it was: each metric's values sorted.
func sortedCell(ms []runMetrics) Cell {
	med := func(get func(m *runMetrics) float64) float64 {
		var v []float64
		for i := range ms {
			v = append(v, get(&ms[i]))
		}
		return Median(v)
	}
	c := Cell{CellKey: CellKey{Engine: "redis"}, Reps: len(ms),
		OpsPerSec: med(func(m *runMetrics) float64 { return m.OpsPerSec }), OpsPerCore: med(func(m *runMetrics) float64 { return m.OpsPerCore }),
		P50Ms: med(func(m *runMetrics) float64 { return m.P50Ms }), P99Ms: med(func(m *runMetrics) float64 { return m.P99Ms }),
		P999Ms: med(func(m *runMetrics) float64 { return m.P999Ms }), KBPerSec: med(func(m *runMetrics) float64 { return m.KBPerSec })}
	var hits []float64
	for i := range ms {
		if ms[i].HitRate != nil {
			hits = append(hits, *ms[i].HitRate)
		}
	}
	if len(hits) > 0 {
		h := Median(hits)
		c.HitRate = &h
	}
	return c
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func BenchmarkCellMedian(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := valuesOf(830, func(int) float64 { return math.Round(r.Float64()*1e9) / 1e3 })
	vals := make([]float64, len(src))
	for _, bc := range []struct {
		name string
		fn   func([]float64) float64
	}{{"sort", Median}, {"select", cellMedian}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				copy(vals, src)
				bc.fn(vals)
			}
		})
	}
}
