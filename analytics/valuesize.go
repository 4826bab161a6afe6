package analytics

import (
	"context"

	badger "github.com/dgraph-io/badger/v4"
)

// LargestValue returns the key and size in bytes of the largest value the
// store holds (runs, derived data, KV), reading keys only: no value may
// grow with the number of runs, and this is how a test or an operator
// checks it.
func (s *Store) LargestValue(ctx context.Context) (key string, size int64, err error) {
	err = s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		n := 0
		for it.Rewind(); it.Valid(); it.Next() {
			if n++; n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if v := it.Item().ValueSize(); v > size {
				key, size = string(it.Item().Key()), v
			}
		}
		return nil
	})
	return key, size, storeReadError(s.dir, "walking the stored values", err)
}
