package planner

import "testing"

// BenchmarkVocabulary builds what the first planner.New of a process builds
// (the patterns themselves compile later, on first use).
func BenchmarkVocabulary(b *testing.B) {
	for b.Loop() {
		_ = &vocabulary{g: newGrammar(), k: newKindGrammar(), ulex: newUnboundLexicon(),
			lx: newLexicon(lexiconTables()), early: recognisers(), late: fallbacks()}
	}
}
