package planner

import (
	"context"
	"time"
)

// DefaultCompleterTimeout is the model's budget when
// Options.CompleterTimeout is zero: well inside a message's deadline (the
// bot's is 20 s), so a slow model costs seconds, not the answer.
const DefaultCompleterTimeout = 8 * time.Second

// CompleterBudget is how long the model may take when left is the time
// before the message's deadline: the configured timeout, capped at three
// quarters of what is left. The last quarter stays for answering from the
// rules' own reading when the model does not reply in time; a timeout
// longer than the message itself can never turn a question into an error.
func CompleterBudget(timeout, left time.Duration) time.Duration {
	if timeout <= 0 {
		timeout = DefaultCompleterTimeout
	}
	return min(timeout, left-left/4)
}

// completerBudget is the budget for one call under ctx: CompleterBudget of
// the configured timeout and the time ctx has left, or the timeout alone
// when ctx has no deadline.
func (p *Planner) completerBudget(ctx context.Context) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return p.opts.CompleterTimeout
	}
	return CompleterBudget(p.opts.CompleterTimeout, time.Until(deadline))
}
