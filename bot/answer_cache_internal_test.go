package bot

import (
	"reflect"
	"strconv"
	"testing"
)

// TestAnAnswersCloneSharesNoMemory fills every slice, pointer and map of an
// Answer (found by reflection, so a field added later is covered) and
// checks the clone holds none of the same memory.
func TestAnAnswersCloneSharesNoMemory(t *testing.T) {
	var a Answer
	fill(reflect.ValueOf(&a).Elem(), 0)
	c := cloneAnswer(a)
	if !reflect.DeepEqual(a, c) {
		t.Fatal("the clone differs from the answer")
	}
	for _, p := range shared(reflect.ValueOf(a), reflect.ValueOf(c), "Answer") {
		t.Errorf("%s shares memory with the cached answer: clone must copy it", p)
	}
}

// fill sets every field to a non-zero value, two elements per slice.
func fill(v reflect.Value, depth int) {
	if depth > 6 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		v.SetMapIndex(k, e)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}

// shared lists the paths at which a and b point at the same memory.
func shared(a, b reflect.Value, path string) []string {
	var out []string
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return nil
		}
		if a.Pointer() == b.Pointer() {
			out = append(out, path)
		}
		out = append(out, shared(a.Elem(), b.Elem(), path)...)
	case reflect.Slice:
		if a.Len() == 0 {
			return nil
		}
		if a.Pointer() == b.Pointer() {
			out = append(out, path)
		}
		for i := range a.Len() {
			out = append(out, shared(a.Index(i), b.Index(i), path+"[i]")...)
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			out = append(out, path)
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				out = append(out, shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)...)
			}
		}
	}
	return out
}

// TestTheAnswerCacheIsBoundedInBytes checks that kept answers never cost
// more than the byte bound (the oldest go first, the newest always stays),
// that keeping an answer under a key it has does not count it twice, and
// that an import's purge frees what they cost.
func TestTheAnswerCacheIsBoundedInBytes(t *testing.T) {
	c := newAnswerCache(1000, 20_000)
	entry := func(cost int64) *answered { return &answered{cost: cost} }
	for i := range 10 {
		c.add(strconv.Itoa(i), entry(5_000))
		if got := c.bytes.Load(); got > 20_000 {
			t.Fatalf("after %d answers of 5,000 bytes the cache holds %d bytes", i+1, got)
		}
	}
	if n := c.lru.Len(); n != 4 {
		t.Errorf("the cache keeps %d answers, want the 4 newest", n)
	}
	if !c.lru.Contains("9") || c.lru.Contains("5") {
		t.Errorf("the cache keeps %v, want the newest 6–9", c.lru.Keys())
	}
	c.add("9", entry(5_000))
	if got := c.bytes.Load(); got != 20_000 {
		t.Errorf("adding a kept key again: %d bytes, want 20000", got)
	}
	c.add("big", entry(50_000))
	if n, got := c.lru.Len(), c.bytes.Load(); n != 1 || got != 50_000 {
		t.Errorf("one answer larger than the bound: %d kept, %d bytes; want it alone", n, got)
	}
	c.sameRuns("another import")
	if got := c.bytes.Load(); got != 0 || c.lru.Len() != 0 {
		t.Errorf("after an import: %d answers, %d bytes kept", c.lru.Len(), got)
	}
}

// TestAnAnswersCostGrowsWithWhatItHolds checks the estimate that bounds the
// cache: more rows and run IDs cost more, and a row's cost does not depend
// on how many runs stand behind it, only on the IDs it names.
func TestAnAnswersCostGrowsWithWhatItHolds(t *testing.T) {
	row := Row{Series: "Redis", RunIDs: []string{"run-1", "run-2"}, RunCount: 2}
	many := row
	many.RunCount = 1_000_000
	one, two := Answer{Rows: []Row{row}}, Answer{Rows: []Row{row, row}}
	if answerCost(two) <= answerCost(one) {
		t.Errorf("two rows cost %d, one %d", answerCost(two), answerCost(one))
	}
	if answerCost(Answer{Rows: []Row{many}}) != answerCost(one) {
		t.Error("a row's cost depends on its run count, not only on what it names")
	}
}
