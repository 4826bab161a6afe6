package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// kbCmd inspects the knowledge base.
type kbCmd struct {
	Show   kbShowCmd   `cmd:"" help:"Print one entry (term, claim, finding, rule, engine, table, note) by id, with its figures computed from the runs."`
	Search kbSearchCmd `cmd:"" help:"Rank every entry against some words."`
}

// kbShowCmd prints one entry.
type kbShowCmd struct {
	ID   string `arg:"" name:"id" help:"Entry id, e.g. claim:dragonfly-25x or term:pipelining; a term's name or alias also works."`
	JSON bool   `name:"json" help:"Print the entry as JSON."`
}

// kbSearchCmd ranks entries.
type kbSearchCmd struct {
	Words []string `arg:"" name:"words" help:"Words to search for."`
	Limit int      `name:"limit" short:"n" default:"10" help:"How many hits to print (0 for all)."`
	JSON  bool     `name:"json" help:"Print the hits as JSON."`
}

// Run prints the entry, resolving a bare term name or alias when the
// argument is not an id.
func (c kbShowCmd) Run(a *app) error {
	kb, err := a.knowledge()
	if err != nil {
		return err
	}
	e, ok := kb.Entry(c.ID)
	if !ok {
		if t, found := kb.Define(c.ID); found {
			e, ok = kb.Entry(t.ID)
		}
	}
	if !ok {
		msg := fmt.Sprintf("kb show: no entry %q", c.ID)
		if hits := kb.Search(c.ID); len(hits) > 0 {
			var ids []string
			for _, h := range hits[:min(3, len(hits))] {
				ids = append(ids, h.ID)
			}
			msg += "; closest: " + strings.Join(ids, ", ")
		}
		return usageError{errors.New(msg)}
	}
	if c.JSON {
		return kbJSON(a, e)
	}
	_, err = fmt.Fprintf(a.stdout, "# %s\n%s · %s\n\n%s\n", e.Title, e.ID, e.Kind, e.Text)
	return err
}

// Run prints the ranked hits, best first.
func (c kbSearchCmd) Run(a *app) error {
	kb, err := a.knowledge()
	if err != nil {
		return err
	}
	hits := kb.Search(strings.Join(c.Words, " "))
	if c.Limit > 0 && len(hits) > c.Limit {
		hits = hits[:c.Limit]
	}
	if c.JSON {
		if hits == nil {
			hits = []knowledge.Hit{}
		}
		return kbJSON(a, hits)
	}
	if len(hits) == 0 {
		_, err := fmt.Fprintf(a.stdout, "No entry matches %q.\n", strings.Join(c.Words, " "))
		return err
	}
	for i, h := range hits {
		if _, err := fmt.Fprintf(a.stdout, "%2d. %-42s %s\n    %s\n", i+1, h.ID, h.Title, h.Gist); err != nil {
			return err
		}
	}
	return nil
}

func kbJSON(a *app, v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
