package analytics

import (
	"fmt"
	"testing"
)

// The benchmark filters: one selects a single cell, the other matches
// nearly every run, so every run is aggregated.
const (
	selectiveFilter = `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`
	fullScanFilter  = `ops_per_sec > 0`
)

func BenchmarkQueryEmbedded(b *testing.B) {
	s := openDefault(b)
	for _, bc := range []struct{ name, filter string }{
		{"selective", selectiveFilter},
		{"full-scan", fullScanFilter},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Query(b.Context(), bc.filter); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkQuerySynthetic1M runs the same queries over 1,000,000 synthetic
// runs generated here (not stored in Badger: queries read the in-memory
// index only, which is what is measured).
func BenchmarkQuerySynthetic1M(b *testing.B) {
	s := &Store{snap: newSnapshot(syntheticRuns(1_000_000))}
	for _, bc := range []struct{ name, filter string }{
		{"selective", selectiveFilter},
		{"full-scan", fullScanFilter},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var cells int
			for b.Loop() {
				res, err := s.Query(b.Context(), bc.filter)
				if err != nil {
					b.Fatal(err)
				}
				cells = len(res.Cells)
			}
			b.ReportMetric(float64(cells), "cells")
		})
	}
}

func BenchmarkCompileFilter(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompileFilter(selectiveFilter); err != nil {
			b.Fatal(err)
		}
	}
}

// syntheticRuns makes n distinct runs spread over every engine, mode and
// knob value of the real dataset, 10 repetitions per cell.
func syntheticRuns(n int) []Run {
	cores := []int{4, 8, 16, 24, 48}
	ratios := []string{"1:10", "1:1", "mget10", "mset10"}
	values := []int{100, 1024}
	pipes := []int{1, 16}
	runs := make([]Run, n)
	for i := range runs {
		j := i / 10 // cell number
		r := Run{
			Session: 1 + j%2, RunID: fmt.Sprintf("synthetic-%d", j), Note: "scale-48c",
			Engine: Engines[j%len(Engines)], Mode: Modes[(j/5)%len(Modes)],
			Cores: cores[(j/15)%len(cores)], Ratio: ratios[(j/75)%len(ratios)],
			ValueBytes: values[(j/300)%len(values)], Pipeline: pipes[(j/600)%len(pipes)],
			Rep: 1 + i%10, OpsPerSec: float64(1000 + i%997*1000), P50Ms: 0.5, P99Ms: 1.5, P999Ms: 3,
		}
		if r.Ratio != "mset10" {
			h := 1.0
			r.HitRate = &h
		}
		r.ID = MakeID(r.Session, r.RunID, r.Engine, r.Mode, r.Cores, r.Pipeline, r.Ratio, r.ValueBytes, r.Rep)
		runs[i] = r
	}
	return runs
}
