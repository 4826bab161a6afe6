package main

import (
	"fmt"

	"github.com/memdb-oracle/memdb-oracle/adapters/llm"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// planner builds the planner over the store's coverage and the knowledge
// base, with the configured language model when there is one.
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
	if a.cfg.LLM.Provider != "" {
		c, err := llm.New(a.cfg.LLM)
		if err != nil {
			return nil, fmt.Errorf("setting up the language model: %w", err)
		}
		opts.Completer = c
		opts.CompleterTimeout = a.cfg.LLM.Timeout
		a.log.Debug("planner uses a language model for wording its rules cannot place", "llm", a.cfg.LLM)
	}
	return planner.New(st, kb, opts), nil
}
