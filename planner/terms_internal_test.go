package planner

import (
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// find looks aliases up by the text's words; it must return what trying
// every alias in order returns.
func TestTermIndexFindsWhatAScanOfEveryAliasFinds(t *testing.T) {
	kb, err := knowledge.Load(t.Context(), analyticstest.OpenStore(t))
	if err != nil {
		t.Fatal(err)
	}
	g := newGrammar()
	ix := newTermIndex(g, kb.Terms())
	scan := func(text string) (string, string) {
		for _, e := range ix.entries {
			if containsWords(text, e.alias) {
				return e.id, e.alias
			}
		}
		return "", ""
	}
	texts := []string{"", "p99", "what is p99.9 latency", "fully driven ceiling vs ceiling", "io_uring?"}
	for _, e := range ix.entries {
		texts = append(texts, "what is "+e.alias, e.alias+"s", "x"+e.alias)
	}
	for _, q := range corpusQuestions(t) {
		texts = append(texts, g.correctTypos(g.normalize(q)))
	}
	found := 0
	for _, text := range texts {
		id, alias := ix.find(text)
		wantID, wantAlias := scan(text)
		if id != wantID || alias != wantAlias {
			t.Errorf("find(%q) = %q %q, a scan finds %q %q", text, id, alias, wantID, wantAlias)
		}
		if id != "" {
			found++
		}
	}
	if found < len(ix.entries) {
		t.Errorf("only %d texts name a term", found)
	}
}
