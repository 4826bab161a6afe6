package main

import (
	"context"
	"fmt"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/llm"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// planner builds the planner over the store's coverage and the knowledge
// base, with the configured language model when there is one: its timeout
// capped inside a message's deadline, its outcomes counted in metrics().
func (a *app) planner() (*planner.Planner, error) {
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	kb, err := a.knowledge()
	if err != nil {
		return nil, err
	}
	opts := planner.Options{Logger: a.log.With("component", "planner")}
	c, err := a.completer()
	if err != nil {
		if a.serving {
			// A server is configured once and left running: it refuses to
			// start rather than run for weeks without the model it was given.
			return nil, usageError{err}
		}
		// The model is optional: one question in a terminal is answered
		// by the rules, with one warning saying why.
		fmt.Fprintf(a.stderr, "warning: %v; answering with the rules alone\n", err)
		c = nil
	}
	if c != nil {
		opts.Completer = c
		opts.CompleterTimeout = a.cfg.LLM.Timeout
		opts.Observer = a.metrics().CompletionObserver(a.cfg.LLM.Provider)
		a.log.Info("planner uses a language model for wording its rules cannot place", "llm", a.cfg.LLM)
	}
	return planner.New(st, kb, opts), nil
}

// completer builds the configured language model once (nil when none). Its
// timeout is the one in force: MEMDB_ORACLE_LLM_TIMEOUT (default
// planner.DefaultCompleterTimeout) capped by planner.CompleterBudget at
// three quarters of a message's deadline; a cap is logged once, here.
func (a *app) completer() (*llm.Completer, error) {
	if a.cfg.LLM.Provider == "" {
		return nil, nil
	}
	if a.llm != nil {
		return a.llm, nil
	}
	deadline := a.cfg.Deadline
	if deadline <= 0 {
		deadline = bot.DefaultDeadline
	}
	setting := a.cfg.LLM.Timeout
	if setting <= 0 {
		setting = planner.DefaultCompleterTimeout
	}
	inForce := planner.CompleterBudget(setting, deadline)
	if inForce < setting {
		a.log.Warn("MEMDB_ORACLE_LLM_TIMEOUT is longer than a message's deadline allows; the model's timeout is capped",
			"setting", setting.String(), "deadline", deadline.String(), "timeout", inForce.String())
	}
	a.cfg.LLM.Timeout = inForce
	c, err := llm.New(a.cfg.LLM)
	if err != nil {
		return nil, fmt.Errorf("setting up the language model: %w", err)
	}
	a.llm = c
	return c, nil
}

// checkCompleter asks the configured model one short question and logs
// whether it answered, so a wrong address or a dead server shows at
// start-up rather than as slower answers later.
func (a *app) checkCompleter(ctx context.Context) {
	c, err := a.completer()
	if c == nil || err != nil {
		return
	}
	took, err := c.Check(ctx)
	if err != nil {
		a.log.Warn("language model did not answer the start-up check; questions the rules cannot place get their own reading or a clarify",
			"model", c.Name(), "took", took.Round(time.Millisecond).String(), "err", err)
		return
	}
	a.log.Info("language model answered the start-up check", "model", c.Name(), "took", took.Round(time.Millisecond).String())
}
