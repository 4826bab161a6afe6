package analytics

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
)

// TestAHandedOffStoreAnswersAsItWasAndTakesWhatTheWriterCommitted hands a
// store to a writer (here a second store opened Beside in the same
// process, as serve's writing process opens it) and checks what serve
// relies on: queries and KV reads go on from the store as it was while
// the writer writes, KV writes are held and then written, the writer's
// committed runs are answered from once the store is handed back, and a
// writer that fails leaves the store as it was, taking writes again.
func TestAHandedOffStoreAnswersAsItWasAndTakesWhatTheWriterCommitted(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(t.Context(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ImportDefault(t.Context()); err != nil {
		t.Fatal(err)
	}
	kv := s.KV("threads")
	if err := kv.Set(t.Context(), "t0", []byte("before"), 0); err != nil {
		t.Fatal(err)
	}
	before, fp, sessionOne := len(s.Runs()), s.Fingerprint(), s.StoredRuns()[1]
	csv, _ := DefaultDataset()[0].Open()

	settled := 0
	settle := func(ctx context.Context) error {
		settled++
		w, err := Open(ctx, Options{Dir: dir, MergeAtClose: true})
		if err != nil {
			return err
		}
		return w.Close()
	}
	write := func(ctx context.Context) error {
		w, err := Open(ctx, Options{Dir: dir, ForImport: true, Beside: true})
		if err != nil {
			return err
		}
		defer w.Close()
		// Serve answers and remembers meanwhile, from the store as it was.
		var wg sync.WaitGroup
		wg.Go(func() {
			if !s.HandedOff() {
				t.Error("not handed off while the writer writes")
			}
			if got := len(s.Runs()); got != before {
				t.Errorf("%d runs answered during the hand-off, want %d", got, before)
			}
			if v, ok, err := kv.Get(ctx, "t0"); err != nil || !ok || string(v) != "before" {
				t.Errorf("a KV read during the hand-off: %q %v %v", v, ok, err)
			}
			if err := kv.Set(ctx, "t1", []byte("during"), 0); err != nil {
				t.Errorf("a KV write during the hand-off: %v", err)
			}
		})
		_, err = w.Import(ctx, "again.csv", bytes.NewReader(csv), 3)
		wg.Wait()
		return err
	}
	if err := s.HandOff(t.Context(), write, settle); err != nil {
		t.Fatal(err)
	}
	if s.HandedOff() || settled != 1 {
		t.Fatalf("after the hand-off: handed off %v, settled %d times", s.HandedOff(), settled)
	}
	if got := len(s.Runs()); got != before+sessionOne || s.Fingerprint() == fp {
		t.Errorf("%d runs after the writer committed, want %d (fingerprint changed: %v)", got, before+sessionOne, s.Fingerprint() != fp)
	}
	if v, ok, err := kv.Get(t.Context(), "t1"); err != nil || !ok || string(v) != "during" {
		t.Errorf("the KV write made during the hand-off reads back as %q %v %v", v, ok, err)
	}
	if n := len(s.disk.mem); n != 0 {
		t.Errorf("%d KV writes still held in memory once the store was handed back", n)
	}

	// A writer that fails (a crash, for serve) commits nothing.
	failed := errors.New("the writer died")
	fp = s.Fingerprint()
	err = s.HandOff(t.Context(), func(ctx context.Context) error {
		w, err := Open(ctx, Options{Dir: dir, ForImport: true, Beside: true})
		if err != nil {
			return err
		}
		w.beforeWrite = func(i int) error {
			if i == 100 {
				return failed
			}
			return nil
		}
		defer w.Close()
		_, err = w.Import(ctx, "third.csv", bytes.NewReader(csv), 4)
		return err
	}, settle)
	if !errors.Is(err, failed) {
		t.Fatalf("a failing writer's hand-off: %v", err)
	}
	if s.HandedOff() || s.Fingerprint() != fp || s.StoredRuns()[4] != 0 {
		t.Errorf("after a failed writer: handed off %v, fingerprint kept %v, session 4 holds %d", s.HandedOff(), s.Fingerprint() == fp, s.StoredRuns()[4])
	}
	if err := kv.Set(t.Context(), "t2", []byte("after"), 0); err != nil || len(s.disk.mem) != 0 {
		t.Errorf("a KV write after a failed writer: %v (%d held in memory)", err, len(s.disk.mem))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	counts, err := Check(t.Context(), dir)
	if err != nil || counts[3] != sessionOne || counts[4] != 0 {
		t.Fatalf("the store after the hand-offs: %v %v", counts, err)
	}
}
