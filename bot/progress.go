package bot

import (
	"context"
	"sync"
)

// A surface that shows an answer being worked on (Slack's streamed
// answers with task cards) asks Handle to report its stages as they
// happen, the way net/http/httptrace reports a request's: the observer
// travels in the context of that one call.

// Stage is one stage of answering a message.
type Stage string

// The stages, in the order they happen.
const (
	// StageRead is reading the question into a plan.
	StageRead Stage = "read"
	// StageFilter is running the plan's filters over the measured runs.
	StageFilter Stage = "filter"
	// StageCompose is composing the answer from what the filters returned
	// (medians across repetitions, the knowledge base's entries).
	StageCompose Stage = "compose"
)

// Step reports a stage starting or finishing.
type Step struct {
	Stage Stage
	// Done marks the stage finished; Failed marks it finished with an
	// error (the answer then says what went wrong).
	Done, Failed bool
	// Reading is, when StageRead is done, how the question was read (the
	// plan's interpretation); Cached says the answer was composed before,
	// for the same question over the same runs, and is served again.
	Reading string
	Cached  bool
	// Filter is, when StageFilter starts, the first filter run, verbatim;
	// Filters counts, when it is done, the filters run.
	Filter  string
	Filters int
}

// Progress receives the steps of one Handle call, in order, on the
// goroutine that answers. It must not block for long: the answer waits.
type Progress func(Step)

type progressKey struct{}

// WithProgress returns a context under which Handle (and HandleEncoded)
// reports its stages to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, &progressTracker{report: p, started: map[Stage]bool{}, done: map[Stage]bool{}})
}

// progressTracker turns what the bot does into steps: it remembers which
// stages started, so each is reported once however many filters run.
type progressTracker struct {
	report Progress

	mu      sync.Mutex
	started map[Stage]bool
	done    map[Stage]bool
	filters int
}

// progressFrom returns the tracker of ctx, or nil; a nil tracker reports
// nothing.
func progressFrom(ctx context.Context) *progressTracker {
	t, _ := ctx.Value(progressKey{}).(*progressTracker)
	return t
}

// step reports s once: a stage's start the first time it starts, its end
// the first time it is done. A stage done without having started is seen
// starting first, so every stage a surface shows starts before it ends.
func (t *progressTracker) step(s Step) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.Stage == StageFilter && !s.Done {
		t.filters++
	}
	if !t.started[s.Stage] {
		t.started[s.Stage] = true
		first := s
		if s.Done {
			first = Step{Stage: s.Stage}
		}
		t.report(first)
	}
	if !s.Done || t.done[s.Stage] {
		return
	}
	t.done[s.Stage] = true
	if s.Stage == StageFilter {
		s.Filters = t.filters
	}
	t.report(s)
}

func (t *progressTracker) start(s Step) { t.step(s) }

func (t *progressTracker) finish(s Step) {
	s.Done = true
	t.step(s)
}

// composed finishes the stages after reading: the filters (when any ran)
// and composing.
func (t *progressTracker) composed(err error) {
	if t == nil {
		return
	}
	t.mu.Lock()
	filtered := t.started[StageFilter]
	t.mu.Unlock()
	if filtered {
		t.finish(Step{Stage: StageFilter, Failed: err != nil})
	}
	t.finish(Step{Stage: StageCompose, Failed: err != nil})
}

// progressObserver reports the composer's filters to the progress of
// their context: the filter stage starts with the first, composing once
// the first results are in.
type progressObserver struct{}

func (progressObserver) FilterStarted(ctx context.Context, filter string) {
	progressFrom(ctx).start(Step{Stage: StageFilter, Filter: filter})
}

func (progressObserver) FilterDone(ctx context.Context, _ string, err error) {
	if err == nil {
		progressFrom(ctx).start(Step{Stage: StageCompose})
	}
}
