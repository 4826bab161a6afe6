package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// dirState is every file of dir with its size and modification time.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = fmt.Sprint(fi.Size(), " ", fi.ModTime().UnixNano())
	}
	return out
}

// figuresSaved says whether dir's store holds the knowledge figures of its
// runs, and with forget deletes them first.
func figuresSaved(t *testing.T, dir string, forget bool) bool {
	t.Helper()
	ctx := context.Background()
	st, err := analytics.Open(ctx, analytics.Options{Dir: dir, ReadOnly: !forget})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kv := st.KV(kvFigures)
	if forget {
		keys, err := kv.Keys(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if err := kv.Delete(ctx, k); err != nil {
				t.Fatal(err)
			}
		}
	}
	return knowledge.HasSaved(ctx, kv, st)
}

func TestAskWithoutAThreadWritesNothingToAnInitialisedDataDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	const q = "Is Dragonfly 25x faster than Redis?"
	first, _, err := runCLI(t, dir, "ask", q)
	if err != nil {
		t.Fatal(err)
	}
	if !figuresSaved(t, dir, false) {
		t.Fatal("the first ask did not save the knowledge figures")
	}
	before := dirState(t, dir)
	again, _, err := runCLI(t, dir, "ask", q)
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Errorf("the answer changed:\n%s\n---\n%s", first, again)
	}
	if after := dirState(t, dir); !reflect.DeepEqual(before, after) {
		t.Errorf("ask changed the data directory:\nbefore %v\nafter  %v", before, after)
	}

	// Without the figures of its runs (an import, an expired copy) ask
	// opens the store for writing once and saves them.
	if figuresSaved(t, dir, true) {
		t.Fatal("the figures were not forgotten")
	}
	if out, _, err := runCLI(t, dir, "ask", q); err != nil || out != first {
		t.Fatalf("ask without saved figures: %v\n%s", err, out)
	}
	if !figuresSaved(t, dir, false) {
		t.Error("ask did not save the knowledge figures it computed")
	}

	// A thread is remembered: that ask writes.
	before = dirState(t, dir)
	if _, _, err := runCLI(t, dir, "ask", "--thread", "t1", q); err != nil {
		t.Fatal(err)
	}
	if after := dirState(t, dir); reflect.DeepEqual(before, after) {
		t.Error("ask --thread wrote nothing")
	}
}
