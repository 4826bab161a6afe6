package knowledge

import (
	"reflect"
	"testing"
)

func TestAPrefetchedLoadBuildsTheSameBaseAsAPlainOne(t *testing.T) {
	st := openStore(t)
	Prefetch()
	Prefetch() // a second call while one is under way starts nothing
	prefetched, err := Load(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Load(t.Context(), st) // decodes the files itself
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(prefetched.Entries(), plain.Entries()) || !reflect.DeepEqual(prefetched.Counts(), plain.Counts()) {
		t.Fatal("the prefetched load differs from a plain one")
	}
	if len(prefetched.Entries()) == 0 {
		t.Fatal("no entries")
	}
	if prefetched.terms[0].Definition == "" || &prefetched.terms[0] == &plain.terms[0] {
		t.Error("the two bases share their decoded terms")
	}
}
