package main

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	slackadapter "github.com/memdb-oracle/memdb-oracle/adapters/slack"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// slackOff is what serve logs when Slack is not configured.
const slackOff = "slack off: set SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET (Events API on /slack/events, /slack/commands, /slack/interactivity) or with SLACK_APP_TOKEN (Socket Mode) to answer in Slack"

// serveSlack mounts the Slack endpoints on mux when SLACK_BOT_TOKEN and
// SLACK_SIGNING_SECRET are set, holds a Socket Mode connection when
// SLACK_APP_TOKEN is set, and returns the adapter's run function; with
// neither it returns the sentence naming the variables that would enable
// Slack.
func (a *app) serveSlack(mux *http.ServeMux) (run func(ctx context.Context) error, off string, err error) {
	botToken := a.secretEnv("SLACK_BOT_TOKEN")
	signing := a.secretEnv("SLACK_SIGNING_SECRET")
	appToken := a.secretEnv("SLACK_APP_TOKEN")
	if signing.IsZero() && appToken.IsZero() {
		if !botToken.IsZero() {
			return nil, "slack off: SLACK_BOT_TOKEN is set, but neither SLACK_SIGNING_SECRET (Events API) nor SLACK_APP_TOKEN (Socket Mode) is", nil
		}
		return nil, slackOff, nil
	}
	if botToken.IsZero() {
		return nil, "", errors.New("slack: SLACK_SIGNING_SECRET or SLACK_APP_TOKEN is set but SLACK_BOT_TOKEN is not")
	}
	b, err := a.answerer()
	if err != nil {
		return nil, "", err
	}
	kv, err := a.kv("slack")
	if err != nil {
		return nil, "", err
	}
	st, err := a.store()
	if err != nil {
		return nil, "", err
	}
	kb, err := a.knowledge()
	if err != nil {
		return nil, "", err
	}
	journal, err := a.answerJournal(kv)
	if err != nil {
		return nil, "", err
	}
	ad, err := slackadapter.New(slackadapter.Config{
		BotToken:      botToken,
		SigningSecret: signing,
		AppToken:      appToken,
		Command:       strings.TrimSpace(a.cfg.Getenv("MEMDB_ORACLE_SLACK_COMMAND")),
		APIURL:        strings.TrimSpace(a.cfg.Getenv("SLACK_API_URL")),
		Handler:       b,
		Store:         kv,
		Journal:       journal,
		PublicURL:     strings.TrimSpace(a.cfg.Getenv("MEMDB_ORACLE_PUBLIC_URL")),
		Charts:        chart.Renderer{},
		Coverage:      bot.NewDataset(st, kb),
		Log:           a.log,
	})
	if err != nil {
		return nil, "", err
	}
	if fkv, ok := kv.(bot.FeedbackKV); ok {
		a.metrics().WatchFeedback(a.log, bot.NewFeedbackStore(fkv))
	}
	if !signing.IsZero() {
		if err := ad.Mount(mux); err != nil {
			return nil, "", err
		}
		a.metrics().WatchRejected("slack_bad_signature", ad.Rejected)
	}
	mode := "Events API on /slack/events, /slack/commands, /slack/interactivity"
	switch {
	case !appToken.IsZero() && !signing.IsZero():
		mode += " and Socket Mode"
	case !appToken.IsZero():
		mode = "Socket Mode"
	}
	a.log.Info("slack on", "mode", mode)
	return ad.Run, "", nil
}

// slackAdapterPoster is the digest's Slack poster (SLACK_BOT_TOKEN only).
func (a *app) slackAdapterPoster() (bot.Poster, error) {
	token := a.secretEnv("SLACK_BOT_TOKEN")
	if token.IsZero() {
		return nil, errors.New("posting to Slack needs SLACK_BOT_TOKEN")
	}
	return slackadapter.NewPoster(slackadapter.Config{
		BotToken: token, APIURL: strings.TrimSpace(a.cfg.Getenv("SLACK_API_URL")), Log: a.log,
	})
}

// secretEnv reads a credential from the environment, wrapped so that it
// never reaches a log.
func (a *app) secretEnv(name string) slackadapter.Secret {
	return slackadapter.NewSecret(strings.TrimSpace(a.cfg.Getenv(name)))
}
