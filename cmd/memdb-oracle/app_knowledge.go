package main

import (
	"fmt"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// knowledge loads the knowledge base once, computing its figures from the
// store, and returns the same base on later calls.
func (a *app) knowledge() (*knowledge.Base, error) {
	if a.kb != nil {
		return a.kb, nil
	}
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	kb, err := knowledge.Load(a.ctx, st)
	if err != nil {
		return nil, fmt.Errorf("loading the knowledge base: %w", err)
	}
	a.kb = kb
	return kb, nil
}
