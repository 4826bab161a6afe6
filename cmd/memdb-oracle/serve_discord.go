package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/adapters/discord"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// discordOff is what serve logs when Discord is not configured.
const discordOff = "discord off: set DISCORD_BOT_TOKEN and DISCORD_APP_ID to answer in Discord " +
	"(optional: DISCORD_GUILD_ID, DISCORD_MESSAGE_CONTENT=1, MEMDB_ORACLE_DISCORD_COMMAND)"

// serveDiscord returns the Discord bot's run function (a gateway session
// that registers the slash command on start) when DISCORD_BOT_TOKEN and
// DISCORD_APP_ID are set; otherwise the sentence naming the variables that
// would enable it. Discord needs no HTTP routes: events come over the
// gateway.
func (a *app) serveDiscord(_ *http.ServeMux) (run func(ctx context.Context) error, off string, err error) {
	cfg, err := a.discordConfig()
	if err != nil {
		return nil, "", err
	}
	switch {
	case cfg.Token == "" && cfg.AppID == "":
		return nil, discordOff, nil
	case cfg.AppID == "":
		return nil, "discord off: DISCORD_BOT_TOKEN is set but DISCORD_APP_ID is not (the slash command is registered under it)", nil
	case cfg.Token == "":
		return nil, "discord off: DISCORD_APP_ID is set but DISCORD_BOT_TOKEN is not", nil
	}
	b, err := a.answerer()
	if err != nil {
		return nil, "", err
	}
	// Handled message ids live with the rest of the state (shared by the
	// replicas when there is a shared store), so a replayed event is
	// answered once, also across a restart or a lease handover.
	kv, err := a.kv("discord")
	if err != nil {
		return nil, "", err
	}
	cfg.Deliveries = kv
	if cfg.Journal, err = a.answerJournal(kv); err != nil {
		return nil, "", err
	}
	cfg.PublicURL = strings.TrimSpace(a.cfg.Getenv("MEMDB_ORACLE_PUBLIC_URL"))
	if fkv, ok := cfg.Deliveries.(bot.FeedbackKV); ok {
		a.metrics().WatchFeedback(a.log, bot.NewFeedbackStore(fkv))
	}
	ad, err := discord.New(cfg, b, chart.Renderer{})
	if err != nil {
		return nil, "", err
	}
	command := cfg.Command
	if command == "" {
		command = discord.DefaultCommand
	}
	a.log.Info("discord on", "command", "/"+command, "guild", cfg.GuildID, "message_content", cfg.MessageContent)
	sh, err := a.shared()
	if err != nil || sh == nil {
		return ad.Run, "", err
	}
	// Replicas: one gateway session per bot, held under a lease (gateway
	// sharding would need a fixed shard count and every guild's events
	// split by it; a lease keeps any number of replicas correct and takes
	// over within TTL + renewal when the holder dies). Each term gets a
	// fresh session.
	run = func(ctx context.Context) error {
		return bot.RunWhileHolding(ctx, sh.Leases(), "discord-gateway", a.cfg.State.Replica, a.cfg.State.Lease,
			a.log.With("adapter", "discord"), func(ctx context.Context) error {
				term, err := discord.New(cfg, b, chart.Renderer{})
				if err != nil {
					return err
				}
				return term.Run(ctx)
			})
	}
	return run, "", nil
}

// discordAdapterPoster is the digest's Discord poster; it needs only
// DISCORD_BOT_TOKEN (REST, no gateway session).
func (a *app) discordAdapterPoster() (bot.Poster, error) {
	cfg, err := a.discordConfig()
	if err != nil {
		return nil, err
	}
	if cfg.Token == "" {
		return nil, errors.New("posting to Discord needs DISCORD_BOT_TOKEN")
	}
	return discord.New(cfg, nil, nil)
}

// discordConfig reads the Discord settings.
func (a *app) discordConfig() (discord.Config, error) {
	cfg, err := discordSettings(a.cfg.Getenv)
	cfg.Logger = a.log
	return cfg, err
}

// discordSettings parses the Discord settings (also checkSettings' check).
func discordSettings(getenv func(string) string) (discord.Config, error) {
	env := func(name string) string { return strings.TrimSpace(getenv(name)) }
	cfg := discord.Config{
		Token:   env("DISCORD_BOT_TOKEN"),
		AppID:   env("DISCORD_APP_ID"),
		GuildID: env("DISCORD_GUILD_ID"),
		Command: strings.TrimPrefix(env("MEMDB_ORACLE_DISCORD_COMMAND"), "/"),
		APIBase: env("DISCORD_API_BASE"),
	}
	if cfg.Command != "" {
		if err := discord.CheckCommand(cfg.Command); err != nil {
			return cfg, fmt.Errorf("MEMDB_ORACLE_DISCORD_COMMAND: %w", err)
		}
	}
	if v := env("DISCORD_MESSAGE_CONTENT"); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return cfg, fmt.Errorf("DISCORD_MESSAGE_CONTENT=%q: want 1/true or 0/false", v)
		}
		cfg.MessageContent = on
	}
	return cfg, nil
}
