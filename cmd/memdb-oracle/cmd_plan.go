package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// planCmd shows how a question is understood, without answering it.
type planCmd struct {
	JSON     bool     `name:"json" help:"Print the plan as one JSON object."`
	Thread   string   `name:"thread" placeholder:"ID" help:"Read the question as a follow-up in this ask/chat thread (the thread is only read, not changed)."`
	Question []string `arg:"" name:"question" help:"The question; quote it or give it as several words."`
}

// Run plans the question and prints the plan: readable text by default,
// JSON with --json.
func (c planCmd) Run(a *app) error {
	q := strings.TrimSpace(strings.Join(c.Question, " "))
	if q == "" {
		return usageError{errors.New("plan: the question is empty")}
	}
	p, err := a.planner()
	if err != nil {
		return err
	}
	prev, err := a.threadPlan(c.Thread)
	if err != nil {
		return err
	}
	pl, err := p.Plan(a.ctx, q, prev)
	if err != nil {
		return fmt.Errorf("planning: %w", err)
	}
	if c.JSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(pl); err != nil {
			return fmt.Errorf("writing the plan: %w", err)
		}
		return nil
	}
	if _, err := fmt.Fprint(a.stdout, pl.Text()); err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return nil
}

// threadPlan returns the newest plan of an ask/chat thread (nil for no
// thread or an empty one), from the same thread store the bot keeps.
func (a *app) threadPlan(thread string) (*planner.Plan, error) {
	if thread == "" {
		return nil, nil
	}
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	plans, err := bot.NewKVThreads(st.KV(kvThreads), 0, 0).Plans(a.ctx, cliMessage(thread, "").ThreadKey())
	if err != nil {
		return nil, fmt.Errorf("reading thread %q: %w", thread, err)
	}
	if len(plans) == 0 {
		return nil, nil
	}
	return &plans[len(plans)-1], nil
}
