package slack

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Poster posts Markdown (the digest) to Slack channels: a headline at the
// top of a channel, details in its thread. It is bot.Poster.
type Poster struct {
	out *outbound
}

var (
	_ bot.Poster      = (*Poster)(nil)
	_ bot.ChartPoster = (*Poster)(nil)
)

// NewPoster returns a Poster that needs only the bot token (and, for
// tests, APIURL, HTTPClient, Sleep, Retries and Log) from cfg.
func NewPoster(cfg Config) (*Poster, error) {
	if cfg.BotToken.IsZero() {
		return nil, errors.New("slack: a bot token (SLACK_BOT_TOKEN) is required to post")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.Retries <= 0 {
		cfg.Retries = 5
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	api, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	return &Poster{out: &outbound{api: api, http: cfg.HTTPClient, retries: cfg.Retries, sleep: cfg.Sleep,
		log: log.With("platform", "slack"), lanes: newLanes()}}, nil
}

// Poster returns the adapter's Poster; its posts and the adapter's answers
// to one channel never interleave.
func (a *Adapter) Poster() *Poster { return &Poster{out: a.out} }

// Platform is "slack".
func (p *Poster) Platform() string { return "slack" }

// PostTop posts markdown at the top of a channel and returns the message's
// timestamp, the thread PostReply answers in. Text beyond one message
// continues in that thread.
func (p *Poster) PostTop(ctx context.Context, channel, markdown string) (string, error) {
	msgs := markdownMessages(markdown)
	unlock := p.out.lanes.lock(channel)
	defer unlock()
	ts, err := p.out.postMessage(ctx, channel, "", msgs[0])
	if err != nil {
		return "", err
	}
	for _, m := range msgs[1:] {
		if _, err := p.out.postMessage(ctx, channel, ts, m); err != nil {
			return ts, err
		}
	}
	return ts, nil
}

// PostReply posts markdown in the thread of a message PostTop returned,
// split across messages when it is long.
func (p *Poster) PostReply(ctx context.Context, channel, threadRef, markdown string) error {
	unlock := p.out.lanes.lock(channel)
	defer unlock()
	for _, m := range markdownMessages(markdown) {
		if _, err := p.out.postMessage(ctx, channel, threadRef, m); err != nil {
			return err
		}
	}
	return nil
}

// PostChart uploads a chart PNG into the thread of a message PostTop
// returned, with its title and alt text, through Slack's external upload
// flow (files.getUploadURLExternal, the upload, files.completeUploadExternal
// with thread_ts), the same as an answer's chart.
func (p *Poster) PostChart(ctx context.Context, channel, threadRef string, png []byte, altText, title string) error {
	if len(png) == 0 {
		return errors.New("slack: no chart image to post")
	}
	unlock := p.out.lanes.lock(channel)
	defer unlock()
	return p.out.upload(ctx, channel, threadRef, png, title, altText)
}

// markdownMessages lays out Markdown as Slack messages within Block Kit's
// limits; the fallback text is the first line.
func markdownMessages(md string) []message {
	var b builder
	b.markdown(md)
	first, _, _ := strings.Cut(strings.TrimSpace(md), "\n")
	text := truncate(mrkdwnText(strings.TrimLeft(first, "#> ")), maxFallbackText)
	if text == "" {
		text = "memdb-oracle"
	}
	pages := paginate(b.blocks)
	if len(pages) == 0 {
		pages = [][]slackgo.Block{nil}
	}
	msgs := make([]message, len(pages))
	for i, page := range pages {
		msgs[i] = message{Text: text, Blocks: page}
		if i > 0 {
			msgs[i].Text = "(continued) " + text
		}
		msgs[i].Plain = plainMessages(msgs[i])
	}
	return msgs
}
