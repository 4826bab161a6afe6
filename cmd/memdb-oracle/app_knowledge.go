package main

import (
	"fmt"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// kvFigures is the KV namespace the knowledge base's figures are kept in,
// per store fingerprint, so a process start reads them instead of running
// every counter-query again.
const kvFigures = "figures"

// knowledge loads the knowledge base once, computing its figures from the
// store (or reading them as computed by an earlier process for the same
// runs), and returns the same base on later calls. Figures computed over a
// store opened for writing are saved (a failed write is an error); over a
// read-only one they are kept for this process only.
func (a *app) knowledge() (*knowledge.Base, error) {
	if a.kb != nil {
		return a.kb, nil
	}
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	kb, err := knowledge.LoadWith(a.ctx, st, knowledge.Options{Saved: st.KV(kvFigures), ReadOnly: a.stReadOnly})
	if err != nil {
		return nil, fmt.Errorf("loading the knowledge base: %w", err)
	}
	a.kb = kb
	return kb, nil
}
