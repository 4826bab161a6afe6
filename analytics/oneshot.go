package analytics

// CloseInBackground starts closing Badger on another goroutine and says
// whether it did: for a one-shot process (Options.Small) that has written
// all it will write — a first use's import and the knowledge figures — and
// only reads from now on, so that Badger's flush of its memtable and the
// syncs that make the store durable run while it answers. It does so only
// when every read can be served from memory: a snapshot held in memory
// (see holdInMemory). Close then waits for it and returns its result, so
// the store is durable when the process's Close returns; a KV read or
// write after this fails (badger.ErrDBClosed).
func (s *Store) CloseInBackground() bool {
	if !s.oneShot || s.current().lazy != nil {
		return false
	}
	go s.Close() // a later Close waits for this one (sync.Once) and returns its result
	return true
}
