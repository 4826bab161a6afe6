package main

import (
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// slackPoster and discordPoster build the platforms' digest posters
// through their adapters.
func (a *app) slackPoster() (bot.Poster, error) { return a.slackAdapterPoster() }

func (a *app) discordPoster() (bot.Poster, error) { return a.discordAdapterPoster() }
