package main

import (
	"fmt"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// digestSource composes digests over the app's store and knowledge base.
func (a *app) digestSource() (*bot.DigestSource, error) {
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	kb, err := a.knowledge()
	if err != nil {
		return nil, err
	}
	return bot.NewDigestSource(st, kb), nil
}

// digestPublisher posts digests to the configured Slack and Discord
// channels and keeps its state in the data directory.
func (a *app) digestPublisher() (*bot.DigestPublisher, error) {
	src, err := a.digestSource()
	if err != nil {
		return nil, err
	}
	targets, err := a.digestTargets()
	if err != nil {
		return nil, err
	}
	kv, err := a.strictKV("digest")
	if err != nil {
		return nil, err
	}
	return bot.NewDigestPublisher(bot.DigestPublisherConfig{
		Composer: src, KV: kv, Targets: targets, Logger: a.log,
		RenderChart: renderDigestChart,
		PublicURL:   strings.TrimSpace(a.cfg.Getenv("MEMDB_ORACLE_PUBLIC_URL")),
	}), nil
}

// digestTargets lists the configured channels, each with its platform's poster.
func (a *app) digestTargets() ([]bot.DigestTarget, error) {
	var targets []bot.DigestTarget
	for _, p := range []struct {
		env    string
		poster func() (bot.Poster, error)
	}{
		{"MEMDB_ORACLE_DIGEST_SLACK_CHANNELS", a.slackPoster},
		{"MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS", a.discordPoster},
	} {
		channels := splitList(a.cfg.Getenv(p.env))
		if len(channels) == 0 {
			continue
		}
		poster, err := p.poster()
		if err != nil {
			return nil, fmt.Errorf("%s is set: %w", p.env, err)
		}
		for _, ch := range channels {
			targets = append(targets, bot.DigestTarget{Poster: poster, Channel: ch})
		}
	}
	return targets, nil
}

// splitList splits a comma- or space-separated list.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}
