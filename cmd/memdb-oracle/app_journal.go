package main

import "github.com/memdb-oracle/memdb-oracle/bot"

// answerJournal records the answers a chat adapter posts, in its state
// namespace kv, so that one cut short by a crash is completed after the
// restart (or by another replica) exactly once. Without a shared store
// the data directory is this process's alone (one process opens it), so
// what another run left is taken over at once; with one, an entry whose
// holder stopped renewing it for the lease TTL is.
func (a *app) answerJournal(kv bot.KV) (*bot.Journal, error) {
	sh, err := a.shared()
	if err != nil {
		return nil, err
	}
	return bot.NewJournal(bot.JournalConfig{
		KV: kv, Holder: a.cfg.State.Replica, Exclusive: sh == nil,
		Stale: a.cfg.State.Lease.TTL, Renew: a.cfg.State.Lease.Every, Logger: a.log.With("component", "journal"),
	}), nil
}
