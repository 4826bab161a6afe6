package knowledge

import (
	"slices"
	"testing"
)

func TestSearchRanksTheMostRelevantEntriesFirst(t *testing.T) {
	b := loadBase(t)
	for _, tc := range []struct {
		name  string
		query string
		top   []string // must be exactly the first len(top) hits, in any order
	}{
		{"client limited finds the term and the Garnet finding", "client limited", []string{"term:client-limited", "finding:garnet-client-limited"}},
		{"a term's own name comes first", "pipelining", []string{"term:pipelining"}},
		{"an engine name finds the engine", "keydb", []string{"engine:keydb"}},
		{"a vendor slogan finds the claim", "25x more QPS", []string{"claim:dragonfly-25x"}},
		{"a kind and a topic find the note", "failover traps", []string{"failover:traps"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits := b.Search(tc.query)
			if len(hits) < len(tc.top) {
				t.Fatalf("Search(%q) returned %d hits", tc.query, len(hits))
			}
			var got []string
			for _, h := range hits[:len(tc.top)] {
				got = append(got, h.ID)
			}
			for _, id := range tc.top {
				if !slices.Contains(got, id) {
					t.Errorf("Search(%q) top %d = %v, want %v", tc.query, len(tc.top), got, tc.top)
					break
				}
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Fatalf("hits out of order at %d: %v > %v", i, hits[i].Score, hits[i-1].Score)
				}
			}
		})
	}
}

func TestSearchWithNoUsefulWordsFindsNothing(t *testing.T) {
	b := loadBase(t)
	for _, q := range []string{"", "the of and", "zzzyxq"} {
		if hits := b.Search(q); len(hits) != 0 {
			t.Errorf("Search(%q) = %d hits, want none", q, len(hits))
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	kb := loadBase(b)
	for b.Loop() {
		kb.Search("client limited garnet floor")
	}
}

// BenchmarkLoad is a process start's knowledge load: "computed" runs the
// counter-queries, "saved" reads their results as an earlier process saved
// them for the same runs (what ask does on an initialised data directory).
func BenchmarkLoad(b *testing.B) {
	st := openStore(b)
	b.Run("computed", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(b.Context(), st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("saved", func(b *testing.B) {
		saved := mapSaved{}
		if _, err := LoadWith(b.Context(), st, Options{Saved: saved}); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := LoadWith(b.Context(), st, Options{Saved: saved}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
