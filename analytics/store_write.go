package analytics

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	badger "github.com/dgraph-io/badger/v4"
)

// The write side of the store layout, for import and migration: putRun
// writes one run into a write batch under the import's marker;
// writeGeneration writes the derived data of the generation an import
// creates; commitGeneration commits it.

// putRun writes one run: the run, encoded, under runIDPrefix+ID, and its
// cell entry (cellRunKey → its filter fields, encodeCellEntry, small
// enough to stay in Badger's tree) from which the derived data and the
// columns are rebuilt in cell order. seen, when
// set, gets the run's key and value, which the manifest's digest is made
// of.
func (s *Store) putRun(wb batchWriter, r *Run, seen func(key, val []byte)) error {
	key := []byte(runIDPrefix + r.ID)
	val := encodeRun(make([]byte, 0, 160+len(r.ID)), r)
	if seen != nil {
		seen(key, val)
	}
	if err := wb.Set(key, val); err != nil {
		return fmt.Errorf("writing run %s: %w", r.ID, err)
	}
	if err := wb.Set(cellRunKey(r), encodeCellEntry(make([]byte, 0, metricsSize+32+len(r.RunID)+len(r.Note)), r)); err != nil {
		return fmt.Errorf("writing run %s: %w", r.ID, err)
	}
	return nil
}

// getRun reads one stored run by ID.
func getRun(txn *badger.Txn, id string) (Run, bool, error) {
	item, err := txn.Get([]byte(runIDPrefix + id))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return Run{}, false, nil
	}
	if err != nil {
		return Run{}, false, err
	}
	var r Run
	err = item.Value(func(v []byte) error {
		var err error
		r, err = decodeRun(v)
		return err
	})
	if err != nil {
		return Run{}, false, corrupt("", err, "stored run %s: %v", id, err)
	}
	if r.ID != id {
		return Run{}, false, corrupt("", nil, "the run stored as %s is %s", id, r.ID)
	}
	return r, true, nil
}

// writeGeneration writes the derived data of the generation m commits,
// from every stored run's cell entry (those the import just wrote
// included).
func (s *Store) writeGeneration(ctx context.Context, m manifest) (derivedHead, error) {
	wb := s.newBulkBatch()
	defer wb.Cancel()
	head, err := s.writeDerived(ctx, m.Generation, wb)
	if err != nil {
		return derivedHead{}, err
	}
	if err := wb.Flush(); err != nil {
		return derivedHead{}, err
	}
	head.Fingerprint = fingerprintOf(m.Sessions)
	if err := checkHead(head, m); err != nil {
		return derivedHead{}, corrupt(s.dir, err, "%v", err)
	}
	return head, nil
}

// commitGeneration is the commit: the manifest, the derived head and the
// format key written and the marker deleted, in one transaction.
func (s *Store) commitGeneration(m manifest, head derivedHead, marker string) error {
	if err := fault("badger.commit"); err != nil {
		return err
	}
	return s.db.Update(func(txn *badger.Txn) error {
		if err := setJSON(txn, manifestKey, m); err != nil {
			return err
		}
		if err := setHead(txn, head); err != nil {
			return err
		}
		if err := txn.Set([]byte(formatKey), []byte(strconv.Itoa(storeFormat))); err != nil {
			return err
		}
		return txn.Delete([]byte(marker))
	})
}
