package slack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// job is one question waiting for its answer.
type job struct {
	lane     string // channel ID: a channel's questions are answered in order
	what     string // "slash command", "mention", … for the logs
	user     string
	question string
	at       place // where the asker is told when the job panics
	run      func(ctx context.Context) error
}

// errBusy says the queue of questions is full.
var errBusy = errors.New("slack: too many questions waiting")

// shutdownGrace is how long answers being worked on may finish after Run's
// context ends.
const shutdownGrace = 10 * time.Second

// enqueue hands a question to the worker without blocking the caller (an
// HTTP handler or the Socket Mode loop must acknowledge Slack within three
// seconds). A full queue is logged with the question, never dropped
// silently.
func (a *Adapter) enqueue(j job) error {
	select {
	case a.jobs <- j:
		return nil
	default:
		a.log.Error("question not answered: queue full", "what", j.what, "channel", j.lane, "user", j.user, "question", j.question)
		return errBusy
	}
}

// work answers queued questions until ctx is done: one at a time per
// channel, channels in parallel, each with its own deadline.
func (a *Adapter) work(ctx context.Context) error {
	jobsCtx, cancelJobs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelJobs()
	waiting := map[string][]job{} // a key is present while its lane is busy
	done := make(chan string)
	var wg sync.WaitGroup
	// Answers a stopped run left half-posted are completed first, and
	// then whenever a replica's stop leaves more.
	var sweep sync.WaitGroup
	defer sweep.Wait()
	sweep.Go(func() { a.resumeJobs(ctx) })
	start := func(j job) {
		wg.Go(func() {
			defer func() { done <- j.lane }()
			jctx, cancel := context.WithTimeout(jobsCtx, a.cfg.AnswerTimeout)
			defer cancel()
			if err := a.runJob(jctx, j); err != nil {
				a.log.Error("question not answered", "what", j.what, "channel", j.lane, "user", j.user, "question", j.question, "err", err)
			}
		})
	}
	for {
		select {
		case j := <-a.jobs:
			if q, busy := waiting[j.lane]; busy {
				waiting[j.lane] = append(q, j)
				continue
			}
			waiting[j.lane] = nil
			start(j)
		case lane := <-done:
			q := waiting[lane]
			if len(q) == 0 {
				delete(waiting, lane)
				continue
			}
			waiting[lane] = q[1:]
			start(q[0])
		case <-ctx.Done():
			for _, q := range waiting {
				for _, j := range q {
					a.log.Error("question not answered: shutting down", "what", j.what, "channel", j.lane, "user", j.user, "question", j.question)
				}
			}
			a.dropQueued()
			a.finish(&wg, done, cancelJobs)
			return nil
		}
	}
}

// runJob runs one job; a panic in it ends that job only: it is logged with
// a reference and the asker is told the same reference.
func (a *Adapter) runJob(ctx context.Context, j job) (err error) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		ref := newRef()
		a.log.Error("panic while answering", "ref", ref, "what", j.what, "channel", j.lane, "user", j.user,
			"question", j.question, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		err = a.tellFailure(ctx, j.at, ref)
	}()
	return j.run(ctx)
}

// tellFailure tells the asker privately that their question failed, with
// the reference of the log line. A panic while telling is logged, never
// passed on.
func (a *Adapter) tellFailure(ctx context.Context, at place, ref string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("telling the asker about failure %s: panic: %v", ref, p)
		}
	}()
	return a.deliver(ctx, at, bot.Answer{Kind: bot.KindError, Ephemeral: true,
		Headline: "Something went wrong while answering, ref " + ref + ". It has been logged; please try again."})
}

// newRef is a short random reference tying what the asker reads to the log line.
func newRef() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(b[:])
}

// dropQueued logs the questions still in the queue at shutdown.
func (a *Adapter) dropQueued() {
	for {
		select {
		case j := <-a.jobs:
			a.log.Error("question not answered: shutting down", "what", j.what, "channel", j.lane, "user", j.user, "question", j.question)
		default:
			return
		}
	}
}

// finish waits for the answers in progress, cancelling them after the
// grace period.
func (a *Adapter) finish(wg *sync.WaitGroup, done <-chan string, cancelJobs context.CancelFunc) {
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	grace := time.NewTimer(shutdownGrace)
	defer grace.Stop()
	for {
		select {
		case <-done:
		case <-finished:
			return
		case <-grace.C:
			cancelJobs()
		}
	}
}
