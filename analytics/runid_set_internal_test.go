package analytics

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestRunIDSetNamesTheHashesAddedMoreThanOnce(t *testing.T) {
	ids := newRunIDSet()
	for _, id := range []string{"a", "b", "c", "a", "b", "a"} {
		ids.add(id)
	}
	got := ids.repeated()
	want := map[uint64]bool{ids.hash("a"): true, ids.hash("b"): true}
	if !maps.Equal(got, want) {
		t.Errorf("repeated = %v, want %v", got, want)
	}

	distinct := newRunIDSet()
	for i := range 10_000 {
		distinct.add(strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune(i)))
	}
	if got := distinct.repeated(); got != nil {
		t.Errorf("distinct IDs: repeated = %v, want nil", got)
	}
}

// Two IDs can share a 64-bit hash; the second reading compares the IDs
// themselves, so rows whose hashes repeat but whose IDs differ are no
// duplicates, and a real duplicate is still named with its first line.
func TestRunIDsWhoseHashesRepeatAreComparedExactly(t *testing.T) {
	recs := sessionOneRecords(t)
	file := encodeCSV(t, recs)
	s := openMemory(t)
	plan := importPlan{name: "runs.csv", session: 3}
	everyHash := func() (*runIDSet, map[uint64]bool) {
		ids := newRunIDSet()
		if _, err := s.checkRows(t.Context(), plan, strings.NewReader(file), ImportOptions{}, &ImportReport{Skipped: map[string]int{}}, ids, nil); err != nil {
			t.Fatal(err)
		}
		all := map[uint64]bool{}
		for _, b := range ids.buckets {
			for _, h := range b {
				all[h] = true
			}
		}
		return ids, all
	}

	t.Run("distinct IDs that all share hashes are no duplicates", func(t *testing.T) {
		ids, all := everyHash()
		rep := ImportReport{Skipped: map[string]int{}}
		got, err := s.checkRows(t.Context(), plan, strings.NewReader(file), ImportOptions{}, &rep, ids, all)
		if err != nil {
			t.Fatalf("error = %v, want none", err)
		}
		if got.fresh != rep.Kept || got.fresh == 0 {
			t.Errorf("fresh runs = %d, kept %d: want every kept row", got.fresh, rep.Kept)
		}
	})

	t.Run("a repeated ID is a duplicate on its second line", func(t *testing.T) {
		ids, all := everyHash()
		dup := encodeCSV(t, append(slices.Clone(recs), slices.Clone(recs[5])))
		_, err := s.checkRows(t.Context(), plan, strings.NewReader(dup), ImportOptions{}, &ImportReport{Skipped: map[string]int{}}, ids, all)
		var ie *ImportError
		if !errors.As(err, &ie) || len(ie.Problems) != 1 || ie.Problems[0].Line != len(recs)+1 ||
			!strings.Contains(ie.Problems[0].Reason, "(first on line 6)") {
			t.Fatalf("error = %v, want one duplicate on line %d, first on line 6", err, len(recs)+1)
		}
	})
}
