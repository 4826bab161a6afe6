package planner

import "testing"

// A phrase written twice in one table is a copy that drifts: one of the
// two is edited, the other keeps the old reading. Tables crossed from
// patterns repeat phrases by construction and are left out.
func TestLexiconTablesListEachPhraseOnce(t *testing.T) {
	for _, tb := range lexiconTables() {
		if tb.crossed {
			continue
		}
		seen := map[entry]bool{}
		for _, e := range tb.entries {
			if seen[e] {
				t.Errorf("meaning %v lists %q → %q twice", tb.meaning, e.phrase, e.value)
			}
			seen[e] = true
		}
	}
}
