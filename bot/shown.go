package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// A chat posts an answer's card and keeps its evidence for when someone
// clicks "Show evidence" (or rates it): Shown is what is kept, CardMemory
// where — the adapter's KV, so a click after a restart, or on another
// replica sharing the store, still finds it.

// Shown is an answer as a chat showed it.
type Shown struct {
	Card     Card   `json:"card"`
	Question string `json:"question"`
	Answer   Answer `json:"answer"`
	// Platform, Channel and Thread (the conversation, Message.Thread)
	// say where it was asked.
	Platform string `json:"platform,omitempty"`
	Channel  string `json:"channel,omitempty"`
	Thread   string `json:"thread,omitempty"`
}

// CardKV is what CardMemory needs of a KV (the adapters' stores have it).
type CardKV interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error)
}

// CardMemory keeps shown answers by card ID for ttl.
type CardMemory struct {
	kv  CardKV
	ttl time.Duration
}

// DefaultCardTTL is how long a card's evidence can be asked for.
const DefaultCardTTL = 14 * 24 * time.Hour

// NewCardMemory returns a memory over kv (DefaultCardTTL when ttl ≤ 0).
func NewCardMemory(kv CardKV, ttl time.Duration) *CardMemory {
	if ttl <= 0 {
		ttl = DefaultCardTTL
	}
	return &CardMemory{kv: kv, ttl: ttl}
}

// Remember keeps s under its card's ID. The same ID is the same answer,
// so the first one kept stays.
func (m *CardMemory) Remember(ctx context.Context, s Shown) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("card %s: encoding: %w", s.Card.ID, err)
	}
	if _, err := m.kv.SetIfAbsent(ctx, "card/"+s.Card.ID, raw, m.ttl); err != nil {
		return fmt.Errorf("card %s: %w", s.Card.ID, err)
	}
	return nil
}

// Recall returns the answer shown under id; false when it expired or was
// never kept.
func (m *CardMemory) Recall(ctx context.Context, id string) (Shown, bool, error) {
	raw, ok, err := m.kv.Get(ctx, "card/"+id)
	if err != nil || !ok {
		return Shown{}, false, err
	}
	var s Shown
	if err := json.Unmarshal(raw, &s); err != nil {
		return Shown{}, false, fmt.Errorf("card %s: decoding: %w", id, err)
	}
	return s, true, nil
}

// FirstEvidence reports whether the evidence of the card posted as
// message (a platform's message reference) is asked for the first time:
// it is posted once per message, however often the button is clicked.
func (m *CardMemory) FirstEvidence(ctx context.Context, message string) (bool, error) {
	return m.kv.SetIfAbsent(ctx, "evidence/"+message, []byte{'1'}, m.ttl)
}
