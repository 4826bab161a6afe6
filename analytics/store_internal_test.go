package analytics

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestCloseStopsTheValueLogGCLoop runs a disk-backed store in a synctest
// bubble, lets the GC loop fire twice, and closes it: synctest fails the
// test if any goroutine the store started is still running afterwards.
func TestCloseStopsTheValueLogGCLoop(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s, err := Open(ctx, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportDefault(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2*gcInterval + time.Second)
		synctest.Wait()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-s.stop:
		default:
			t.Error("stop channel still open after Close")
		}
	})
}
