package bot

import (
	"reflect"
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
