package main

import (
	"errors"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// slackPoster and discordPoster build the platforms' digest posters.
// Temporary until the adapters' Poster implementations land.
func (a *app) slackPoster() (bot.Poster, error) {
	return nil, errors.New("posting the digest to Slack is not wired yet")
}

func (a *app) discordPoster() (bot.Poster, error) { return a.discordAdapterPoster() }
