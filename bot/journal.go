package bot

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Journal records work of several steps that must each happen once — a
// digest's headline and then its details, an answer's card and then its
// chart — in a KV, so that a run that dies between two steps leaves an
// entry saying how far it got, and the next run (after a restart, or on
// another replica sharing the KV) completes it from there, exactly once.
//
// An entry belongs to the run holding it. A run that holds an entry
// refreshes it (on every step, and every Renew while it works); one that
// stops refreshing it for Stale has died, and its entry may be claimed:
// one claimant wins each such takeover (a marker set if absent), so two
// replicas never both complete one entry.
type Journal struct {
	kv        KV
	holder    string
	stale     time.Duration
	renew     time.Duration
	exclusive bool
	// started is when this journal was made: on an exclusive store an
	// entry recorded before it is a dead process's.
	started time.Time
	log     *slog.Logger
}

// JournalConfig configures NewJournal.
type JournalConfig struct {
	KV KV
	// Holder names this process in its entries (a replica's name); a
	// random suffix tells its runs apart from a previous run's.
	Holder string
	// Stale is how long an unfinished entry its holder stopped refreshing
	// stays with that holder; default 2 minutes.
	Stale time.Duration
	// Renew, when set, refreshes the entries a run holds this often while
	// it works (below Stale), so a slow step is not mistaken for a death.
	Renew time.Duration
	// Exclusive says no other process uses KV (the data directory's store,
	// which one process opens at a time): an entry left by any other run
	// was left by a dead one, and is claimed at once.
	Exclusive bool
	Logger    *slog.Logger
}

// NewJournal returns a journal on cfg.KV.
func NewJournal(cfg JournalConfig) *Journal {
	j := &Journal{kv: cfg.KV, holder: cfg.Holder + "/" + bootID(), stale: cfg.Stale, renew: cfg.Renew,
		exclusive: cfg.Exclusive, started: time.Now(), log: cfg.Logger}
	if j.stale <= 0 {
		j.stale = 2 * time.Minute
	}
	if j.renew >= j.stale {
		j.renew = j.stale / 3
	}
	if j.log == nil {
		j.log = slog.New(slog.DiscardHandler)
	}
	return j
}

// Stale is how long an entry stays with a holder that stopped refreshing it.
func (j *Journal) Stale() time.Duration { return j.stale }

func bootID() string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Sprint(time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// JournalEntry is one entry: how far its work got, who holds it, and the
// work's own record.
type JournalEntry struct {
	State  string    `json:"state"`
	At     time.Time `json:"at"`
	Holder string    `json:"holder,omitempty"`
	// Ref is the first post's reference (the digest's headline).
	Ref string `json:"ref,omitempty"`
	// Job is an answer's posts, once composed.
	Job *PostJob `json:"job,omitempty"`
	// Err says why a failed entry was given up.
	Err string `json:"error,omitempty"`
}

// Journal states. An entry in any other state is unfinished.
const (
	JournalStarted = "started"
	JournalDone    = "posted"
	JournalFailed  = "failed"
)

// Finished reports whether the entry's work is over, done or given up.
func (e JournalEntry) Finished() bool {
	return e.State == JournalDone || e.State == JournalFailed || e.State == ""
}

// ClaimResult says what a run may do with an entry that exists already.
type ClaimResult int

const (
	// ClaimFinished: the work is done (or given up); nothing to do.
	ClaimFinished ClaimResult = iota
	// ClaimPending: a live run holds it, or it vanished (released by a
	// run that failed): try again later.
	ClaimPending
	// ClaimResumed: its holder died; this run holds it now and completes it.
	ClaimResumed
)

// Hold is an entry a run holds: its steps are recorded through it.
type Hold struct {
	j     *Journal
	key   string
	ttl   time.Duration
	mu    sync.Mutex
	entry JournalEntry
	stop  context.CancelFunc
	beat  chan struct{} // closed when the heartbeat has stopped
}

// Begin creates the entry under key for this run, unless the key exists
// (first is false: another delivery of the same work, see Claim). ttl
// bounds how long the entry is kept (0: for ever).
func (j *Journal) Begin(ctx context.Context, key string, e JournalEntry, ttl time.Duration) (h *Hold, first bool, err error) {
	h = &Hold{j: j, key: key, ttl: ttl, entry: e}
	h.entry.At, h.entry.Holder = time.Now().UTC(), j.holder
	if h.entry.State == "" {
		h.entry.State = JournalStarted
	}
	first, err = j.kv.SetIfAbsent(ctx, key, h.entry.encode(), ttl)
	if err != nil || !first {
		return nil, false, err
	}
	h.heartbeat(ctx)
	return h, true, nil
}

// Claim decides what to do with an entry that exists: nothing (finished),
// wait (a live run holds it), or take it over from a run that died — one
// claimant wins each takeover. On ClaimResumed the entry, as the dead run
// left it, is in the returned Hold.
func (j *Journal) Claim(ctx context.Context, key string, ttl time.Duration) (*Hold, ClaimResult, error) {
	raw, ok, err := j.kv.Get(ctx, key)
	if err != nil {
		return nil, ClaimPending, err
	}
	if !ok {
		return nil, ClaimPending, nil
	}
	var e JournalEntry
	if json.Unmarshal(raw, &e) != nil || e.Finished() {
		return nil, ClaimFinished, nil // an unreadable entry is an older marker: its work was done
	}
	if !j.abandoned(e) {
		return nil, ClaimPending, nil
	}
	won, err := j.kv.SetIfAbsent(ctx, takeoverKey(key, e.At), []byte(j.holder), 24*time.Hour)
	if err != nil || !won {
		return nil, ClaimPending, err
	}
	j.log.Warn("completing work a stopped run left unfinished", "entry", key, "state", e.State, "holder", e.Holder)
	h := &Hold{j: j, key: key, ttl: ttl, entry: e}
	if err := h.Record(ctx, e); err != nil {
		return nil, ClaimPending, err
	}
	h.heartbeat(ctx)
	return h, ClaimResumed, nil
}

// Delivery is what to do with one delivery of a question.
type Delivery struct {
	// Hold is the question's entry, held by this run (nil: unrecorded).
	Hold *Hold
	// Answer says to answer the question, posting through Hold.
	Answer bool
	// Resume is a half-posted answer to complete instead.
	Resume *PostJob
}

// Skip reports whether there is nothing to do: the question is answered,
// or being answered by a live run.
func (d Delivery) Skip() bool { return !d.Answer && d.Resume == nil }

// Deliver records one delivery of a question under key and says what to
// do with it: answer it when it is the first (or its first receiver died
// before its answer was composed), complete the answer a dead run left
// half-posted, or nothing. When the entry cannot be written the question
// is answered all the same (and the error logged): a rare double answer
// beats a lost question.
func (j *Journal) Deliver(ctx context.Context, key string, ttl time.Duration) Delivery {
	h, first, err := j.Begin(ctx, key, JournalEntry{}, ttl)
	if err != nil {
		j.log.Error("recording a delivery in the journal; answering it regardless", "entry", key, "err", err)
		return Delivery{Answer: true}
	}
	if first {
		return Delivery{Hold: h, Answer: true}
	}
	h, res, err := j.Claim(ctx, key, ttl)
	switch {
	case err != nil:
		j.log.Warn("a delivery seen before whose entry cannot be read; left alone", "entry", key, "err", err)
		return Delivery{}
	case res != ClaimResumed:
		return Delivery{}
	case h.Entry().Job != nil:
		return Delivery{Hold: h, Resume: h.Entry().Job}
	}
	return Delivery{Hold: h, Answer: true}
}

// abandoned reports whether the run holding e has died.
func (j *Journal) abandoned(e JournalEntry) bool {
	if e.Holder == j.holder {
		return false // this run's own, in progress
	}
	// On a store no other process opens, an entry another run of this
	// process recorded since it started is that run's, in progress (a
	// claim it made is recorded at once): only older ones are a dead
	// process's.
	return (j.exclusive && e.Holder != "" && e.At.Before(j.started)) || time.Since(e.At) >= j.stale
}

func takeoverKey(key string, at time.Time) string {
	return key + takeoverInfix + at.UTC().Format(time.RFC3339Nano)
}

const takeoverInfix = "/takeover/"

// Unfinished lists the keys under prefix whose entries are not finished:
// the candidates for Claim.
func (j *Journal) Unfinished(ctx context.Context, prefix string) ([]string, error) {
	keys, err := j.kv.Keys(ctx, prefix)
	if err != nil {
		return nil, fmt.Errorf("listing the journal: %w", err)
	}
	var open []string
	for _, k := range keys {
		if strings.Contains(k, takeoverInfix) {
			continue
		}
		raw, ok, err := j.kv.Get(ctx, k)
		if err != nil {
			return open, fmt.Errorf("reading the journal: %w", err)
		}
		var e JournalEntry
		if ok && json.Unmarshal(raw, &e) == nil && !e.Finished() {
			open = append(open, k)
		}
	}
	return open, nil
}

func (e JournalEntry) encode() []byte {
	b, _ := json.Marshal(e) // plain data: never fails
	return b
}

// Key is the entry's key.
func (h *Hold) Key() string { return h.key }

// Entry is the entry as last recorded.
func (h *Hold) Entry() JournalEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.entry
}

// Record writes e as the entry, held by this run, refreshed now. It
// writes even after ctx ends: a step that happened must be on record.
func (h *Hold) Record(ctx context.Context, e JournalEntry) error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	e.At, e.Holder = time.Now().UTC(), h.j.holder
	h.entry = e
	if err := h.j.kv.Set(context.WithoutCancel(ctx), h.key, e.encode(), h.ttl); err != nil {
		return fmt.Errorf("recording %s in the journal: %w", h.key, err)
	}
	return nil
}

// Finish records the entry finished (state JournalDone or JournalFailed)
// and stops refreshing it.
func (h *Hold) Finish(ctx context.Context, state string, cause error) {
	if h == nil {
		return
	}
	h.Release()
	e := h.Entry()
	e.State, e.Job = state, nil
	if cause != nil {
		e.Err = cause.Error()
	}
	if err := h.Record(ctx, e); err != nil {
		h.j.log.Warn("recording finished work in the journal", "entry", h.key, "err", err)
	}
}

// Settle ends a run's work on the entry: done when nothing was posted
// through it (a notice, or nothing to say); as Post left it when a job
// was recorded (finished, or left for the next run); and unfinished when
// ctx ended first (shutdown), so that a redelivery answers it.
func (h *Hold) Settle(ctx context.Context) {
	if h == nil {
		return
	}
	if e := h.Entry(); e.Job != nil || e.Finished() || ctx.Err() != nil {
		h.Release()
		return
	}
	h.Finish(ctx, JournalDone, nil)
}

// Forget deletes the entry, so a later run may start the work afresh.
func (h *Hold) Forget(ctx context.Context) {
	if h == nil {
		return
	}
	h.Release()
	if err := h.j.kv.Delete(context.WithoutCancel(ctx), h.key); err != nil {
		h.j.log.Error("releasing a journal entry", "entry", h.key, "err", err)
	}
}

// Release stops refreshing the entry, leaving it as it is. It returns
// once the last refresh is written, so none overwrites a later record.
func (h *Hold) Release() {
	if h != nil && h.stop != nil {
		h.stop()
		<-h.beat
	}
}

// Lost reports whether another run holds the entry now (it took it over
// from this one, which it thought dead): this run must stop posting.
func (h *Hold) Lost(ctx context.Context) bool {
	raw, ok, err := h.j.kv.Get(ctx, h.key)
	if err != nil || !ok {
		return false // cannot tell: carrying on beats a half-posted answer
	}
	var e JournalEntry
	return json.Unmarshal(raw, &e) == nil && e.Holder != h.j.holder
}

// refresh writes the entry as last recorded, dated now.
func (h *Hold) refresh(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entry.At = time.Now().UTC()
	return h.j.kv.Set(ctx, h.key, h.entry.encode(), h.ttl)
}

// heartbeat refreshes the entry every Renew until Release.
func (h *Hold) heartbeat(ctx context.Context) {
	if h.j.renew <= 0 {
		return
	}
	ctx, h.stop = context.WithCancel(context.WithoutCancel(ctx))
	h.beat = make(chan struct{})
	go func() {
		defer close(h.beat)
		t := time.NewTicker(h.j.renew)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := h.refresh(ctx); err != nil && ctx.Err() == nil {
					h.j.log.Debug("refreshing a journal entry", "entry", h.key, "err", err)
				}
			}
		}
	}()
}

// PostJob is an answer on its way to a chat: where it goes and the posts
// it was composed into, each marked done, with the platform's reference,
// once posted. The adapters give the posts their kinds and bodies.
type PostJob struct {
	Channel      string    `json:"channel"`
	Thread       string    `json:"thread,omitempty"`
	Conversation string    `json:"conversation,omitempty"`
	Posts        []JobPost `json:"posts"`
}

// JobPost is one post of a PostJob.
type JobPost struct {
	Kind string          `json:"kind"`
	Body json.RawMessage `json:"body,omitempty"`
	Ref  string          `json:"ref,omitempty"`
	Done bool            `json:"done,omitempty"`
}

// PostFunc posts job.Posts[i] and returns the platform's reference to it.
// It may mark later posts done (a chart that went inside the card).
type PostFunc func(ctx context.Context, job *PostJob, i int) (ref string, err error)

// ErrLostJob says another run took the job over; this one stopped.
var ErrLostJob = errors.New("the job was taken over by another run")

// Post records job in the entry h holds, then posts what is not done yet
// in order, recording each post done before the next, and finally the
// entry done — or failed, with the post's error, when a post fails. A nil
// h posts without a record (the journal was unusable).
func (h *Hold) Post(ctx context.Context, job *PostJob, post PostFunc) error {
	e := JournalEntry{Job: job}
	if h != nil {
		e = h.Entry()
		e.Job, e.Err = job, ""
	}
	e.State = JournalStarted // also a second try in another place, after a refusal
	if err := h.Record(ctx, e); err != nil {
		// Posting beats not answering; a crash now is not completed.
		h.j.log.Warn("answer not in the journal; posting it regardless", "entry", h.key, "err", err)
	}
	for i := range job.Posts {
		if job.Posts[i].Done {
			continue
		}
		if h != nil && i > 0 && h.Lost(ctx) {
			h.Release()
			return ErrLostJob
		}
		ref, err := post(ctx, job, i)
		if err != nil && ctx.Err() != nil {
			h.Release() // cut short by shutdown: the next run completes it
			return err
		}
		if err != nil {
			h.Finish(ctx, JournalFailed, err)
			return err
		}
		job.Posts[i].Ref, job.Posts[i].Done = ref, true
		if err := h.Record(ctx, e); err != nil {
			h.j.log.Warn("recording a post in the journal", "entry", h.key, "post", i, "err", err)
		}
	}
	h.Finish(ctx, JournalDone, nil)
	return nil
}

// Resume claims each unfinished entry under prefix whose holder died and
// whose answer was composed, and posts what it is missing. It returns how
// many it completed; the error is the first that stopped one.
func (j *Journal) Resume(ctx context.Context, prefix string, ttl time.Duration, post PostFunc) (int, error) {
	keys, err := j.Unfinished(ctx, prefix)
	if err != nil {
		return 0, err
	}
	done := 0
	var first error
	for _, k := range keys {
		h, res, err := j.Claim(ctx, k, ttl)
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		if res != ClaimResumed {
			continue
		}
		job := h.Entry().Job
		if job == nil {
			// Died before its answer was composed: nothing to post. A
			// redelivery of the question (a Slack retry) answers it.
			h.Release()
			continue
		}
		if err := h.Post(ctx, job, post); err != nil {
			j.log.Error("a half-posted answer could not be completed", "entry", k, "err", err)
			first = cmp.Or(first, err)
			continue
		}
		j.log.Info("completed a half-posted answer", "entry", k, "channel", job.Channel)
		done++
	}
	return done, first
}

// ResumeEvery runs Resume now and then every Stale until ctx ends,
// logging what it could not complete.
func (j *Journal) ResumeEvery(ctx context.Context, prefix string, ttl time.Duration, post PostFunc) {
	for {
		if _, err := j.Resume(ctx, prefix, ttl, post); err != nil && ctx.Err() == nil {
			j.log.Warn("completing half-posted answers", "prefix", prefix, "err", err)
		}
		if sleepCtx(ctx, j.stale) != nil {
			return
		}
	}
}
