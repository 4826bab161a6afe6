package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/adapters/discord"
	"github.com/memdb-oracle/memdb-oracle/adapters/slack"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// previewCmd shows a chat answer as the platform would receive it.
type previewCmd struct {
	Platform       string   `name:"platform" required:"" enum:"slack,discord" help:"slack or discord."`
	Thread         string   `name:"thread" placeholder:"ID" help:"Answer as a message in this bot thread (its memory is the same as ask --thread ID); chatter there gets no request."`
	MessageContent bool     `name:"message-content" help:"Discord: as if the bot had the message-content intent."`
	Click          string   `name:"click" placeholder:"WHAT" help:"Show what a click on the answer's card posts instead: evidence, choice:N, feedback:up or feedback:down."`
	Question       []string `arg:"" name:"question" help:"The question; quote it or give it as several words."`
}

// Run prints, as one JSON array in posting order, every API request the
// adapter would make: [{"placement","method","payload"}], [] when the bot
// would stay silent; with --click, those the click on the answer's card
// would make.
func (c previewCmd) Run(a *app) error {
	q := strings.TrimSpace(strings.Join(c.Question, " "))
	if q == "" {
		return usageError{errors.New("preview: the question is empty")}
	}
	b, err := a.bot()
	if err != nil {
		return err
	}
	h := previewHandler{b: b, thread: c.Thread}
	var out any
	switch c.Platform {
	case "slack":
		out, err = slack.Preview(a.ctx, h, q, slack.PreviewOptions{Thread: c.Thread, PublicURL: a.cfg.Getenv("MEMDB_ORACLE_PUBLIC_URL"), Click: c.Click})
	case "discord":
		out, err = discord.Preview(a.ctx, h, q, discord.PreviewOptions{Thread: c.Thread, MessageContent: c.MessageContent,
			PublicURL: a.cfg.Getenv("MEMDB_ORACLE_PUBLIC_URL"), Click: c.Click})
	default:
		return usageError{fmt.Errorf("preview: unknown platform %q (slack or discord)", c.Platform)}
	}
	if err != nil {
		return fmt.Errorf("preview: %w", err)
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// previewHandler answers the adapter's message as the terminal would: the
// thread memory of ask --thread, no rate limit.
type previewHandler struct {
	b interface {
		Handle(ctx context.Context, m bot.Message) bot.Answer
	}
	thread string
}

func (h previewHandler) Handle(ctx context.Context, m bot.Message) bot.Answer {
	return h.b.Handle(ctx, cliMessage(h.thread, m.Text))
}
