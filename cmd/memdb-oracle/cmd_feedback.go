package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// feedbackNamespaces are the bot-state namespaces whose adapters store
// 👍/👎 (each adapter keeps its votes beside its other state).
var feedbackNamespaces = []string{"slack", "discord", "web"}

// feedbackCmd reads the 👍/👎 people gave answers.
type feedbackCmd struct {
	List   feedbackListCmd   `cmd:"" help:"Print every vote: when, who, 👍 or 👎, the question and how it was read."`
	Export feedbackExportCmd `cmd:"" help:"Print the votes as corpus-ready lines (question ⇒ plan), 👎 first, for turning into tests."`
}

type feedbackListCmd struct {
	JSON bool `name:"json" help:"Print the votes as JSON lines."`
}

type feedbackExportCmd struct {
	Down bool `name:"down" help:"Only the 👎 votes."`
}

// votes reads the votes of every adapter's namespace, oldest first.
func (a *app) votes() ([]bot.Vote, error) {
	var all []bot.Vote
	for _, ns := range feedbackNamespaces {
		kv, err := a.kv(ns)
		if err != nil {
			return nil, err
		}
		vs, err := bot.NewFeedbackStore(kv).List(a.ctx)
		if err != nil {
			return nil, fmt.Errorf("feedback in %s: %w", ns, err)
		}
		all = append(all, vs...)
	}
	slices.SortStableFunc(all, func(x, y bot.Vote) int { return x.At.Compare(y.At) })
	return all, nil
}

// Run prints every vote, then the tally.
func (c feedbackListCmd) Run(a *app) error {
	votes, err := a.votes()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false)
	for _, v := range votes {
		if c.JSON {
			if err := enc.Encode(v); err != nil {
				return err
			}
			continue
		}
		mark := "👍"
		if !v.Up {
			mark = "👎"
		}
		if _, err := fmt.Fprintf(a.stdout, "%s %s %s/%s answer %s: %s\n", v.At.UTC().Format("2006-01-02 15:04"), mark,
			v.Platform, v.User, v.AnswerID, oneLine(v.Question)); err != nil {
			return err
		}
	}
	if c.JSON {
		return nil
	}
	up, down := bot.Tally(votes)
	_, err = fmt.Fprintf(a.stdout, "%d votes: %d 👍, %d 👎\n", len(votes), up, down)
	return err
}

// Run prints one corpus line per vote, the 👎 first.
func (c feedbackExportCmd) Run(a *app) error {
	votes, err := a.votes()
	if err != nil {
		return err
	}
	slices.SortStableFunc(votes, func(x, y bot.Vote) int {
		switch {
		case x.Up == y.Up:
			return 0
		case !x.Up:
			return -1
		}
		return 1
	})
	for _, v := range votes {
		if c.Down && v.Up {
			continue
		}
		if _, err := fmt.Fprintln(a.stdout, bot.CorpusLine(v)); err != nil {
			return err
		}
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
