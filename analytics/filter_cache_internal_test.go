package analytics

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// TestFilterCacheCompilesEachFilterOnceAndAnswersTheSame checks that a
// store compiles a filter text once, that the cached program answers
// exactly like a fresh compile, and that a refused filter is refused again
// with the same error rather than being remembered as valid.
func TestFilterCacheCompilesEachFilterOnceAndAnswersTheSame(t *testing.T) {
	s := openDefault(t)
	first, err := s.filters.compile(t.Context(), selectiveFilter)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.filters.compile(t.Context(), selectiveFilter)
	if err != nil || again != first {
		t.Fatalf("second compile of the same text = %p, %v; want the cached %p", again, err, first)
	}
	cached, err := s.Query(t.Context(), selectiveFilter)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := CompileFilter(selectiveFilter)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := s.QueryFilter(t.Context(), fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cached, direct) || len(cached.Cells) != 1 {
		t.Fatalf("cached filter answered %+v, a fresh compile %+v", cached, direct)
	}
	for range 2 {
		_, err := s.Query(t.Context(), `core == 48`)
		var fe *FilterError
		if !errors.As(err, &fe) || fe.Msg != `unknown field "core" (did you mean "cores"?)` {
			t.Fatalf("a refused filter gave %v", err)
		}
	}
	if s.filters.lru.Len() != 1 {
		t.Errorf("cache holds %d filters, want only the one that compiled", s.filters.lru.Len())
	}
}

// TestFilterCacheIsBounded checks that the cache never holds more than its
// size, evicting the least recently used filter.
func TestFilterCacheIsBounded(t *testing.T) {
	c := newFilterCache()
	for i := range filterCacheSize + 10 {
		if _, err := c.compile(t.Context(), fmt.Sprintf("cores == %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.lru.Len(); n != filterCacheSize {
		t.Fatalf("cache holds %d filters, want %d", n, filterCacheSize)
	}
	if c.lru.Contains("cores == 0") {
		t.Error("the oldest filter is still cached")
	}
}
