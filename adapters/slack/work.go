package slack

import (
	"context"
	"errors"
	"sync"
	"time"
)

// job is one question waiting for its answer.
type job struct {
	lane     string // channel ID: a channel's questions are answered in order
	what     string // "slash command", "mention", … for the logs
	user     string
	question string
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
	start := func(j job) {
		wg.Go(func() {
			jctx, cancel := context.WithTimeout(jobsCtx, a.cfg.AnswerTimeout)
			defer cancel()
			if err := j.run(jctx); err != nil {
				a.log.Error("question not answered", "what", j.what, "channel", j.lane, "user", j.user, "question", j.question, "err", err)
			}
			done <- j.lane
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
