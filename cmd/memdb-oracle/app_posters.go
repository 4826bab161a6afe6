package main

import (
	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// slackPoster and discordPoster build the platforms' digest posters
// through their adapters. Both are bot.ChartPosters too, so the digest's
// headline chart follows its details into each thread.
func (a *app) slackPoster() (bot.Poster, error) { return a.slackAdapterPoster() }

func (a *app) discordPoster() (bot.Poster, error) { return a.discordAdapterPoster() }

// renderDigestChart draws the digest's headline chart (adapters/chart) for
// bot.DigestPublisherConfig.RenderChart.
func renderDigestChart(c bot.Chart) ([]byte, error) { return chart.Render(c) }
