package redis

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	goredis "github.com/redis/go-redis/v9"
)

// ImportRecord is one validated capture CSV, published once so every
// replica applies it to its own store.
type ImportRecord struct {
	// ID is the record's fingerprint (a digest of session, name and bytes);
	// publishing the same file twice is one record.
	ID      string `json:"id"`
	Name    string `json:"name"`
	Session int    `json:"session"`
	CSV     []byte `json:"csv"`
	// Signature is the HMAC-SHA256, under the deployment's shared key, of
	// everything above (hex). Publish sets it; Get refuses a record
	// without a valid one.
	Signature string `json:"signature,omitempty"`
}

// MinSharedKey is the shortest shared key the feed accepts: 32 characters,
// 256 bits from a hex or base64 generator.
const MinSharedKey = 32

// ErrRefused is returned by Get for a record whose signature is missing or
// does not match: anyone who can write to the server could have planted it.
var ErrRefused = errors.New("import record refused: not signed with this deployment's shared key")

// Imports is the feed of imported runs on the server, signed with a key
// only the replicas hold: the server stores the records, it does not vouch
// for them.
type Imports struct {
	s        *Store
	key      []byte
	previous [][]byte
}

// Imports returns the feed signed and checked with key, which must be at
// least MinSharedKey long (MEMDB_ORACLE_SHARED_KEY). Records signed with a
// previous key (MEMDB_ORACLE_SHARED_KEY_PREVIOUS, while rotating) are
// accepted too, and Publish signs them again with key.
func (s *Store) Imports(key string, previous ...string) (Imports, error) {
	f := Imports{s: s, key: []byte(key)}
	for _, k := range append([]string{key}, previous...) {
		if len(k) < MinSharedKey {
			return Imports{}, fmt.Errorf("the shared key must be at least %d characters (it is %d)", MinSharedKey, len(k))
		}
		if k != key {
			f.previous = append(f.previous, []byte(k))
		}
	}
	return f, nil
}

// Refused counts the distinct records Get refused.
func (s *Store) Refused() uint64 { return s.refused.Load() }

// sign returns the record's signature: every field, each length-prefixed
// so no two records share a message.
func (f Imports) sign(rec ImportRecord) string { return signWith(f.key, rec) }

func signWith(key []byte, rec ImportRecord) string {
	mac := hmac.New(sha256.New, key)
	for _, part := range []string{"memdb-oracle import v1", rec.ID, rec.Name, strconv.Itoa(rec.Session), string(rec.CSV)} {
		mac.Write([]byte(strconv.Itoa(len(part)) + ":"))
		mac.Write([]byte(part))
	}
	return hex.EncodeToString(mac.Sum(nil))
}

// verify checks rec's signature in constant time, under the key or a
// previous one; current says it was the key.
func (f Imports) verify(rec ImportRecord) (ok, current bool) {
	got, err := hex.DecodeString(rec.Signature)
	if err != nil {
		return false, false
	}
	for i, k := range append([][]byte{f.key}, f.previous...) {
		want, _ := hex.DecodeString(signWith(k, rec))
		if hmac.Equal(got, want) {
			return true, i == 0
		}
	}
	return false, false
}

func (f Imports) channel() string { return f.s.key("imports") }

// Publish stores rec unless a record with its ID exists, and notifies the
// replicas listening. It reports whether rec was new.
func (f Imports) Publish(ctx context.Context, rec ImportRecord) (bool, error) {
	rec.Signature = f.sign(rec)
	raw, err := json.Marshal(rec)
	if err != nil {
		return false, fmt.Errorf("encoding import %s: %w", rec.ID, err)
	}
	res, err := f.s.c.SetArgs(ctx, f.s.key("import", rec.ID), raw, goredis.SetArgs{Mode: "NX"}).Result()
	f.s.observe(err)
	if err == goredis.Nil {
		return false, f.resign(ctx, rec, raw)
	}
	if err != nil {
		return false, fmt.Errorf("publishing import %s: %w", rec.ID, err)
	}
	if err := f.s.c.Publish(ctx, f.channel(), rec.ID).Err(); err != nil {
		// The record is stored; replicas find it on their next look.
		return true, fmt.Errorf("notifying replicas of import %s: %w", rec.ID, err)
	}
	return res == "OK", nil
}

// resign replaces a published record signed with a previous key by the
// same record signed with the current one (raw), so the previous key can
// be dropped once every replica has published what it holds.
func (f Imports) resign(ctx context.Context, rec ImportRecord, raw []byte) error {
	if len(f.previous) == 0 {
		return nil
	}
	old, err := f.s.c.Get(ctx, f.s.key("import", rec.ID)).Bytes()
	f.s.observe(err)
	if err != nil {
		return fmt.Errorf("re-signing import %s: %w", rec.ID, err)
	}
	var stored ImportRecord
	if json.Unmarshal(old, &stored) != nil {
		return nil
	}
	if ok, current := f.verify(stored); !ok || current || stored.Name != rec.Name || stored.Session != rec.Session || string(stored.CSV) != string(rec.CSV) {
		return nil
	}
	err = f.s.c.Set(ctx, f.s.key("import", rec.ID), raw, 0).Err()
	f.s.observe(err)
	if err != nil {
		return fmt.Errorf("re-signing import %s: %w", rec.ID, err)
	}
	return nil
}

// IDs lists the published records, sorted.
func (f Imports) IDs(ctx context.Context) ([]string, error) {
	if err := f.s.usable(); err != nil {
		return nil, err
	}
	prefix := f.s.key("import", "")
	var ids []string
	iter := f.s.c.Scan(ctx, 0, escapeGlob(prefix)+"*", 500).Iterator()
	for iter.Next(ctx) {
		ids = append(ids, strings.TrimPrefix(iter.Val(), prefix))
	}
	err := iter.Err()
	f.s.observe(err)
	if err != nil {
		return nil, fmt.Errorf("listing imports: %w", err)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// Get returns one published record whose signature holds. A record
// without one (or for another ID than its key) is refused with ErrRefused:
// logged and counted the first time each is seen, so a record planted on
// the server costs one line, not one per look.
func (f Imports) Get(ctx context.Context, id string) (ImportRecord, error) {
	raw, err := f.s.c.Get(ctx, f.s.key("import", id)).Bytes()
	f.s.observe(err)
	if err != nil {
		return ImportRecord{}, fmt.Errorf("reading import %s: %w", id, err)
	}
	var rec ImportRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return ImportRecord{}, f.refuse(id, fmt.Errorf("%w: undecodable: %v", ErrRefused, err))
	}
	if ok, _ := f.verify(rec); rec.ID != id || !ok {
		return ImportRecord{}, f.refuse(id, ErrRefused)
	}
	return rec, nil
}

// refuse counts and logs a refused record once per ID.
func (f Imports) refuse(id string, err error) error {
	if _, seen := f.s.refusedIDs.LoadOrStore(id, true); !seen {
		f.s.refused.Add(1)
		f.s.log.Error("refused an import record from the shared state store: not signed with this deployment's shared key; it is ignored",
			"id", id, "err", err)
	}
	return fmt.Errorf("reading import %s: %w", id, err)
}

// Notifications returns a channel that receives a value whenever a replica
// publishes a record, until ctx ends. go-redis subscribes again by itself
// after a lost connection; a notification missed meanwhile is caught by
// the caller's periodic look at IDs.
func (f Imports) Notifications(ctx context.Context) <-chan struct{} {
	out := make(chan struct{}, 1)
	sub := f.s.c.Subscribe(ctx, f.channel())
	// Wait for the server to confirm, so a record published after this
	// returns is announced; an unreachable server is retried by go-redis.
	_, _ = sub.Receive(ctx)
	go func() {
		defer close(out)
		defer sub.Close()
		ch := sub.Channel()
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-ch:
				if !ok {
					return
				}
				select {
				case out <- struct{}{}:
				default: // one pending notification is enough
				}
			}
		}
	}()
	return out
}
