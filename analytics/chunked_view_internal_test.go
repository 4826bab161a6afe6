package analytics

import (
	"fmt"
	"slices"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// chunkedView reads every key under its prefix once, in order, across
// chunk boundaries, whatever done writes between the chunks (deleteKeys
// deletes what the chunk read; a key it keeps must not be read again).
func TestAChunkedViewReadsEveryKeyOnceAcrossChunksAndDeletes(t *testing.T) {
	for _, tc := range []struct {
		keys, chunk int
	}{{0, 3}, {1, 3}, {3, 3}, {10, 3}, {10, 1}, {10, 100}} {
		t.Run(fmt.Sprintf("keys=%d,chunk=%d", tc.keys, tc.chunk), func(t *testing.T) {
			s := openMemory(t)
			var want []string
			err := s.db.Update(func(txn *badger.Txn) error {
				for i := range tc.keys {
					k := fmt.Sprintf("zz-test/%03d", i)
					want = append(want, k)
					if err := txn.Set([]byte(k), []byte("v")); err != nil {
						return err
					}
				}
				// Beside the prefix, never read.
				return txn.Set([]byte("zz-tesu"), []byte("v"))
			})
			if err != nil {
				t.Fatal(err)
			}
			var got, pending []string
			chunks := 0
			err = s.chunkedView(t.Context(), badger.IteratorOptions{Prefix: []byte("zz-test/")}, tc.chunk, func(item *badger.Item) error {
				got = append(got, string(item.Key()))
				pending = append(pending, string(item.Key()))
				return nil
			}, func() error {
				chunks++
				if len(pending) > tc.chunk {
					return fmt.Errorf("a chunk of %d keys, chunk size %d", len(pending), tc.chunk)
				}
				// Delete every other key read, as deleteKeys does with what
				// drop selects.
				return s.db.Update(func(txn *badger.Txn) error {
					for i, k := range pending {
						if i%2 == 0 {
							if err := txn.Delete([]byte(k)); err != nil {
								return err
							}
						}
					}
					pending = pending[:0]
					return nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("read %q, want %q", got, want)
			}
			if wantChunks := tc.keys/tc.chunk + 1; chunks != wantChunks {
				t.Errorf("%d chunks, want %d", chunks, wantChunks)
			}
		})
	}
}

// deleteKeys deletes what drop selects across its chunks and keeps the
// rest.
func TestDeleteKeysDeletesWhatDropSelectsAcrossChunks(t *testing.T) {
	// Chunks of 256 keys: crossing them is the point, not their size (a
	// hundred thousand keys took seconds under the race detector).
	defer func(n int) { deleteChunkKeys = n }(deleteChunkKeys)
	deleteChunkKeys = 256
	s := openMemory(t)
	n := deleteChunkKeys + deleteChunkKeys/2 // two chunks
	wb := s.db.NewWriteBatch()
	for i := range n {
		if err := wb.Set(fmt.Appendf(nil, "zz-test/%06d", i), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	deleted, err := s.deleteKeys(t.Context(), "zz-test/", func(key []byte, _ uint64) bool { return key[len(key)-1]%2 == 0 })
	if err != nil {
		t.Fatal(err)
	}
	if deleted != n/2 {
		t.Errorf("deleted %d keys, want %d", deleted, n/2)
	}
	if left, _ := s.countKeys([]byte("zz-test/")); left != n/2 {
		t.Errorf("%d keys left, want %d", left, n/2)
	}
}
