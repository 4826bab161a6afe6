package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Feedback is the 👍/👎 people give answers, kept so that a maintainer can
// turn a 👎 into a test: each vote carries the question, how it was read
// (the plan's interpretation and filters), the answer's fingerprint and
// the thread it was asked in. One vote per user and answer: the last
// click wins.

// Vote is one person's feedback on one answer.
type Vote struct {
	AnswerID string `json:"answer_id"` // Card.ID / Fingerprint
	Platform string `json:"platform"`
	User     string `json:"user"`
	Up       bool   `json:"up"`
	// Where the answer was given: its conversation (Message.Thread) and channel.
	Channel string `json:"channel,omitempty"`
	Thread  string `json:"thread,omitempty"`
	// What was asked and how it was read.
	Question       string    `json:"question"`
	Kind           Kind      `json:"kind"`
	Interpretation string    `json:"interpretation,omitempty"`
	Filters        []string  `json:"filters,omitempty"`
	Headline       string    `json:"headline,omitempty"`
	At             time.Time `json:"at"`
}

// FeedbackKV is what feedback is stored in: any KV (Badger locally, the
// shared store with replicas).
type FeedbackKV interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	Keys(ctx context.Context, prefix string) ([]string, error)
}

// FeedbackStore keeps votes in a KV, one key per answer and user.
type FeedbackStore struct {
	kv FeedbackKV
}

const feedbackPrefix = "feedback/"

// NewFeedbackStore returns a store over kv.
func NewFeedbackStore(kv FeedbackKV) *FeedbackStore { return &FeedbackStore{kv: kv} }

// ErrVoteIncomplete is returned for a vote without its answer or user.
var ErrVoteIncomplete = errors.New("feedback: a vote needs an answer id, a platform and a user")

func voteKey(v Vote) string {
	return feedbackPrefix + v.AnswerID + "/" + v.Platform + "/" + v.User
}

// Record stores v, replacing the user's earlier vote on the same answer.
// It reports whether the vote changed anything (a repeated click does not).
func (s *FeedbackStore) Record(ctx context.Context, v Vote) (bool, error) {
	if v.AnswerID == "" || v.Platform == "" || v.User == "" {
		return false, ErrVoteIncomplete
	}
	key := voteKey(v)
	if raw, ok, err := s.kv.Get(ctx, key); err != nil {
		return false, fmt.Errorf("feedback: reading %s: %w", key, err)
	} else if ok {
		var old Vote
		if json.Unmarshal(raw, &old) == nil && old.Up == v.Up {
			return false, nil
		}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return false, fmt.Errorf("feedback: encoding: %w", err)
	}
	if err := s.kv.Set(ctx, key, raw, 0); err != nil {
		return false, fmt.Errorf("feedback: storing %s: %w", key, err)
	}
	return true, nil
}

// List returns every vote, oldest first. A damaged record is skipped and
// counted in the error returned with the rest.
func (s *FeedbackStore) List(ctx context.Context) ([]Vote, error) {
	keys, err := s.kv.Keys(ctx, feedbackPrefix)
	if err != nil {
		return nil, fmt.Errorf("feedback: listing: %w", err)
	}
	var votes []Vote
	damaged := 0
	for _, k := range keys {
		raw, ok, err := s.kv.Get(ctx, k)
		if err != nil {
			return votes, fmt.Errorf("feedback: reading %s: %w", k, err)
		}
		var v Vote
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			damaged++
			continue
		}
		votes = append(votes, v)
	}
	slices.SortStableFunc(votes, func(a, b Vote) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return strings.Compare(voteKey(a), voteKey(b))
	})
	if damaged > 0 {
		return votes, fmt.Errorf("feedback: %d damaged records skipped", damaged)
	}
	return votes, nil
}

// Tally counts votes up and down.
func Tally(votes []Vote) (up, down int) {
	for _, v := range votes {
		if v.Up {
			up++
		} else {
			down++
		}
	}
	return up, down
}

// VoteFor is the vote of user on the answer a shown card stands for.
func VoteFor(s Shown, platform, user string, up bool, at time.Time) Vote {
	return Vote{AnswerID: s.Card.ID, Platform: platform, User: user, Up: up, Channel: s.Channel, Thread: s.Thread,
		Question: s.Question, Kind: s.Answer.Kind, Interpretation: s.Answer.Interpretation,
		Filters: s.Answer.Sources.Filters, Headline: s.Answer.Headline, At: at}
}

// CorpusLine is a vote as one line a maintainer can paste into a corpus:
// the verdict, the question, how it was read and the filters it ran.
func CorpusLine(v Vote) string {
	mark := "👍"
	if !v.Up {
		mark = "👎"
	}
	line := fmt.Sprintf("%s %s ⇒ %s", mark, oneLine(v.Question), v.Kind)
	if v.Interpretation != "" {
		line += " | " + oneLine(v.Interpretation)
	}
	if len(v.Filters) > 0 {
		line += " | filter: " + strings.Join(v.Filters, " ; ")
	}
	return line
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
