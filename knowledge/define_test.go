package knowledge

import "testing"

func TestDefineResolvesNamesAliasesAndTypos(t *testing.T) {
	b := loadBase(t)
	for _, tc := range []struct {
		name, text, want string
	}{
		{"an exact name", "pipelining", "term:pipelining"},
		{"a name in another case", "Pipeline Depth", "term:pipelining"},
		{"an alias with punctuation", "p99.9", "term:latency-percentiles"},
		{"the same alias without the dot", "p999", "term:latency-percentiles"},
		{"a spoken alias", "tail latency", "term:latency-percentiles"},
		{"a question around the term", "What is a NUMA node?", "term:numa"},
		{"a definition request", "define client-limited", "term:client-limited"},
		{"words instead of the hyphen", "client limited", "term:client-limited"},
		{"a plural", "hash tags", "term:hash-tag"},
		{"a one-letter typo", "pipelinning", "term:pipelining"},
		{"a typo in a long alias", "hyperthreding", "term:cores-vcpus-ht"},
		{"a dropped letter", "crosslot", "term:crossslot"},
		{"a quoted term", "`memtier_benchmark`", "term:memtier"},
		{"the series name", "cluster-sat", "term:ceiling"},
		{"a Sentinel setting", "down-after", "term:down-after-milliseconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := b.Define(tc.text)
			if !ok {
				t.Fatalf("Define(%q) found nothing, want %s", tc.text, tc.want)
			}
			if got.ID != tc.want {
				t.Errorf("Define(%q) = %s, want %s", tc.text, got.ID, tc.want)
			}
		})
	}
}

func TestDefineRefusesWhatIsNotInTheGlossary(t *testing.T) {
	b := loadBase(t)
	for _, text := range []string{"postgres", "kubernetes operator", "p9", "", "what is"} {
		if got, ok := b.Define(text); ok {
			t.Errorf("Define(%q) = %s, want no match", text, got.ID)
		}
	}
}

func TestGistIsTheDefinitionsFirstSentence(t *testing.T) {
	b := loadBase(t)
	term, _ := b.Term("term:cores-vcpus-ht")
	want := "A cloud vCPU is usually one hardware thread, so a machine sold with 96 vCPUs normally has 48 real cores running two hyperthreads each."
	if got := term.Gist(); got != want {
		t.Errorf("Gist = %q, want %q", got, want)
	}
	for _, tc := range []struct{ in, want string }{
		{"One sentence only", "One sentence only"},
		{"Version 2.5.1 is used. Then more.", "Version 2.5.1 is used."},
		{"Ends with a stop.", "Ends with a stop."},
	} {
		if got := firstSentence(tc.in); got != tc.want {
			t.Errorf("firstSentence(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
