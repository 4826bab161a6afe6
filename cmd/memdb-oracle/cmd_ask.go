package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// askCmd answers one question.
type askCmd struct {
	JSON     bool     `name:"json" help:"Print the answer as one JSON object (kind, interpretation, text, filters, rows, nearest, run_ids, sources)."`
	Format   string   `name:"format" default:"auto" enum:"auto,terminal,plain,markdown" help:"How the answer is printed: auto is styled for a terminal and Markdown when piped; terminal, plain or markdown force one."`
	Thread   string   `name:"thread" placeholder:"ID" help:"Keep follow-up context across calls under this thread id (stored in the data directory)."`
	Chart    string   `name:"chart" placeholder:"FILE.png" type:"path" help:"Also write the answer's chart as a PNG image (when the answer has one)."`
	Question []string `arg:"" name:"question" help:"The question; quote it or give it as several words."`
}

// errInternalAnswer is returned after an internal-error answer was printed,
// so the exit status says something went wrong.
var errInternalAnswer = errors.New("answering failed with an internal error (printed above; details with -v)")

// Run answers the question and prints it. Every kind of answer, refusals
// included, exits 0; only usage and internal errors do not.
func (c askCmd) Run(a *app) error {
	q := strings.TrimSpace(strings.Join(c.Question, " "))
	if q == "" {
		return usageError{errors.New("ask: the question is empty")}
	}
	a.collectLittle()
	// The knowledge files decode and the planner's vocabulary is built on
	// the other core while the store opens.
	knowledge.Prefetch()
	planner.Prefetch()
	if c.Thread == "" {
		// Nothing to remember: read-only when the data directory allows.
		if _, err := a.answerStore(); err != nil {
			return err
		}
	}
	b, err := a.bot()
	if err != nil {
		return err
	}
	if c.Thread == "" && a.st != nil {
		// Everything this process writes is written (a first use's import,
		// the knowledge figures): the store's close, which makes it
		// durable, runs while the question is answered from memory.
		a.st.CloseInBackground()
	}
	ans := b.Handle(a.ctx, cliMessage(c.Thread, q))
	if c.JSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(bot.JSON(ans)); err != nil {
			return fmt.Errorf("writing the answer: %w", err)
		}
	} else if _, err := fmt.Fprint(a.stdout, a.renderFor(c.Format)(ans)); err != nil {
		return fmt.Errorf("writing the answer: %w", err)
	}
	if ans.Kind == bot.KindError {
		if a.st != nil && a.st.Err() != nil {
			return storeError(a.st.Err()) // damage found while answering: the exit code says so
		}
		return errInternalAnswer
	}
	if c.Chart != "" {
		return writeChart(a, ans, c.Chart)
	}
	return nil
}

// writeChart renders the answer's chart to path. An answer without a chart
// is not an error: stderr says so and nothing is written.
func writeChart(a *app, ans bot.Answer, path string) error {
	if ans.Chart == nil {
		fmt.Fprintf(a.stderr, "this answer has no chart; %s was not written\n", path)
		return nil
	}
	png, err := chart.Render(*ans.Chart)
	if err != nil {
		return fmt.Errorf("drawing the chart: %w", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return fmt.Errorf("writing the chart: %w", err)
	}
	fmt.Fprintf(a.stderr, "chart written to %s\n", path)
	return nil
}

// cliMessage is a question from the local terminal: no user or channel, so
// no rate limit applies. ask and chat share the platform, so a thread id
// means the same conversation in both.
func cliMessage(thread, text string) bot.Message {
	return bot.Message{Platform: "cli", Thread: thread, Text: text, Received: time.Now()}
}
