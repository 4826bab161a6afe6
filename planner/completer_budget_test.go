package planner_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

func TestTheModelsBudgetLivesInsideTheMessagesDeadline(t *testing.T) {
	for _, tt := range []struct {
		name          string
		timeout, left time.Duration
		want          time.Duration
	}{
		{"the default is 8s of a 20s deadline", 0, 20 * time.Second, 8 * time.Second},
		{"a 60s setting is capped at three quarters of the deadline", 60 * time.Second, 20 * time.Second, 15 * time.Second},
		{"a short setting stands", 3 * time.Second, 20 * time.Second, 3 * time.Second},
		{"the cap follows the time actually left", 0, 4 * time.Second, 3 * time.Second},
		{"nothing left means no model", 0, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := planner.CompleterBudget(tt.timeout, tt.left); got != tt.want {
				t.Errorf("CompleterBudget(%v, %v) = %v, want %v", tt.timeout, tt.left, got, tt.want)
			}
		})
	}
}

// deafCompleter never returns, whatever its context says.
type deafCompleter struct{ never chan struct{} }

func (c deafCompleter) Complete(context.Context, string) (string, error) {
	<-c.never
	return "", nil
}

func TestABlockingModelIsLeftBehindWhenItsBudgetEnds(t *testing.T) {
	for _, tt := range []struct {
		name      string
		completer func(t *testing.T) planner.Completer
		timeout   time.Duration
		want      time.Duration
	}{
		{"a model that honours its context, default timeout", func(*testing.T) planner.Completer { return blockingCompleter{} }, 0, 8 * time.Second},
		{"a model that honours its context, a 60s setting", func(*testing.T) planner.Completer { return blockingCompleter{} }, 60 * time.Second, 15 * time.Second},
		{"a model that ignores its context", func(t *testing.T) planner.Completer {
			c := deafCompleter{never: make(chan struct{})}
			t.Cleanup(func() { close(c.never) })
			return c
		}, 0, 8 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cov := newFakeCoverage(grid(1, "dragonfly", "single", []int{48}, []string{"1:10"}, []int{100}, []int{16}))
				p := planner.New(cov, nil, planner.Options{Completer: tt.completer(t), CompleterTimeout: tt.timeout})
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				start := time.Now()
				pl, err := p.Plan(ctx, "the nimble one with the tiny blobs", nil)
				if err != nil {
					t.Fatal(err)
				}
				if pl.Intent != planner.IntentClarify || len(pl.Suggestions) == 0 {
					t.Errorf("got %s with %d suggestions, want a clarify with choices", pl.Intent, len(pl.Suggestions))
				}
				if waited := time.Since(start); waited != tt.want {
					t.Errorf("waited %v for the model, want %v", waited, tt.want)
				}
			})
		})
	}
}

// recordingObserver keeps every outcome it is told.
type recordingObserver struct{ outcomes []string }

func (o *recordingObserver) ObserveCompletion(outcome string, _ time.Duration) {
	o.outcomes = append(o.outcomes, outcome)
}

func TestModelOutcomesAreLoggedOncePerMinuteEach(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs strings.Builder
		obs := &recordingObserver{}
		c := &scriptedCompleter{err: errors.New("connection refused")}
		p := planner.New(smallCoverage(), nil, planner.Options{Completer: c, Observer: obs,
			Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
		ask := func() {
			if _, err := p.Plan(t.Context(), "the nimble one with the tiny blobs", nil); err != nil {
				t.Fatal(err)
			}
		}
		for range 3 {
			ask()
			time.Sleep(10 * time.Second)
		}
		c.err, c.reply = nil, "not json at all"
		ask() // another outcome has its own minute
		time.Sleep(time.Minute)
		c.err = errors.New("connection refused")
		ask()
		lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
		if len(lines) != 3 {
			t.Fatalf("want 3 lines (failure, rejection, failure a minute later), got %d:\n%s", len(lines), logs.String())
		}
		for i, want := range [][]string{{"outcome=http_error", "since_last_line=0"}, {"outcome=rejected", "since_last_line=0"}, {"outcome=http_error", "since_last_line=2"}} {
			if !strings.Contains(lines[i], want[0]) || !strings.Contains(lines[i], want[1]) {
				t.Errorf("line %d lacks %q:\n%s", i, want, lines[i])
			}
		}
		if got := strings.Join(obs.outcomes, ","); got != "http_error,http_error,http_error,rejected,http_error" {
			t.Errorf("observed %s, want every call", got)
		}
	})
}
