// Package discord connects memdb-oracle to Discord through the gateway: it
// turns mentions, thread follow-ups, direct messages and the /oracle slash
// command into bot.Message values, and renders bot.Answer as embeds (within
// Discord's limits, with mentions disabled). It also posts digests
// (bot.Poster). Nothing else lives here; discordgo is imported nowhere else.
package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Handler answers one message; *bot.Bot satisfies it.
type Handler interface {
	Handle(ctx context.Context, m bot.Message) bot.Answer
}

// ChartRenderer draws a chart description as a PNG image.
type ChartRenderer interface {
	Render(c bot.Chart) ([]byte, error)
}

// Defaults for Config fields left zero.
const (
	DefaultCommand       = "oracle"
	DefaultAnswerTimeout = 90 * time.Second
	DefaultShutdownGrace = 10 * time.Second
)

// Config configures the adapter. Token is required; AppID is required to
// run the gateway session (the slash command is registered under it).
type Config struct {
	// Token is the bot token, with or without the "Bot " prefix. It is never
	// logged.
	Token string
	// AppID is the application (client) id from the developer portal.
	AppID string
	// GuildID, when set, registers the slash command in that guild only
	// (available at once); otherwise it is registered globally.
	GuildID string
	// Command is the slash command's name; default "oracle".
	Command string
	// MessageContent requests the privileged message-content intent. Without
	// it Discord still delivers the text of messages that mention the bot,
	// of direct messages and of interactions, so follow-ups in a thread need
	// a mention (or the slash command).
	MessageContent bool
	// AnswerTimeout bounds the work on one message; default 90 s.
	AnswerTimeout time.Duration
	// ShutdownGrace is how long Run lets answers in progress finish after
	// its context ends; default 10 s.
	ShutdownGrace time.Duration
	// HTTPClient carries REST requests; nil keeps discordgo's client.
	HTTPClient *http.Client
	// APIBase, when set, sends the REST requests meant for
	// https://discord.com to this base URL instead: a proxy in front of
	// Discord (DISCORD_API_BASE). The proxy answers GET /api/v9/gateway
	// with the gateway websocket URL to use. Empty means Discord itself.
	// The bot token is sent there, so point it only at a proxy you trust.
	APIBase string
	// Deliveries remembers handled events so a replayed one is answered
	// once; nil remembers the recent ones in this process only. Give every
	// replica the same shared store.
	Deliveries Deliveries
	// Journal records each answer's posts so that one cut short by a
	// crash is completed by the next run (bot.Journal). nil keeps it in
	// Deliveries when that is a whole bot.KV (taking over another run's
	// entry after two minutes); otherwise answers are posted unrecorded.
	Journal *bot.Journal
	// Logger receives the adapter's logs; nil discards them.
	Logger *slog.Logger
	// PublicURL is where the web pages are served (MEMDB_ORACLE_PUBLIC_URL):
	// cards get "Open on the web" and the evidence links run IDs and
	// filters there. Empty: no link, code text.
	PublicURL string
}

// LogValue shows the configuration without the token.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Bool("token_set", strings.TrimPrefix(c.Token, "Bot ") != ""),
		slog.String("app_id", c.AppID),
		slog.String("guild_id", c.GuildID),
		slog.String("command", c.Command),
		slog.Bool("message_content", c.MessageContent),
		slog.String("api_base", redactedURL(c.APIBase)),
	)
}

// commandName is compiled on first use: its Unicode classes repeated 32
// times make a large program (a megabyte allocated, most of a millisecond)
// that every process would otherwise build at start, Discord or not.
// CheckCommand checks a slash-command name as Discord accepts it, so a
// configuration can be refused before anything starts.
func CheckCommand(name string) error {
	if !commandName().MatchString(name) {
		return fmt.Errorf("discord: command name %q: use 1-32 lowercase letters, digits, '-' or '_'", name)
	}
	return nil
}

var commandName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-_\p{Ll}\p{N}]{1,32}$`)
})

// Adapter is one Discord bot: a discordgo session, the handler that answers
// and an optional chart renderer.
type Adapter struct {
	cfg      Config
	s        *discordgo.Session
	h        Handler
	charts   ChartRenderer
	log      *slog.Logger
	channels *channelCache
	notices  *onceSet
	bursts   *burstSet
	// cards keeps each posted card's answer for Show evidence and votes;
	// feedback stores the votes (nil when Deliveries is no whole KV).
	cards    *bot.CardMemory
	feedback *bot.FeedbackStore
	// journal records answers as they are posted (nil: not recorded).
	journal *bot.Journal
}

// New returns an adapter that answers with h and draws charts with charts
// (nil: answers carry no chart). It does not connect; Run does, and the
// bot.Poster methods need only the token.
func New(cfg Config, h Handler, charts ChartRenderer) (*Adapter, error) {
	if strings.TrimSpace(strings.TrimPrefix(cfg.Token, "Bot ")) == "" {
		return nil, errors.New("discord: a bot token is required")
	}
	if cfg.Command == "" {
		cfg.Command = DefaultCommand
	}
	if err := CheckCommand(cfg.Command); err != nil {
		return nil, err
	}
	if cfg.AnswerTimeout <= 0 {
		cfg.AnswerTimeout = DefaultAnswerTimeout
	}
	if cfg.ShutdownGrace <= 0 {
		cfg.ShutdownGrace = DefaultShutdownGrace
	}
	if cfg.Deliveries == nil {
		cfg.Deliveries = newRecentDeliveries()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	token := cfg.Token
	if !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	s, err := discordgo.New(token)
	if err != nil {
		return nil, fmt.Errorf("discord: creating the session: %w", err)
	}
	s.Identify.Intents = Intents(cfg.MessageContent)
	if cfg.HTTPClient != nil {
		s.Client = cfg.HTTPClient
	}
	if cfg.APIBase != "" {
		base, err := apiBaseURL(cfg.APIBase)
		if err != nil {
			return nil, err
		}
		s.Client = withAPIBase(s.Client, base)
	}
	a := &Adapter{
		cfg:      cfg,
		s:        s,
		h:        h,
		charts:   charts,
		log:      log,
		channels: newChannelCache(),
		notices:  newOnceSet(),
		bursts:   newBurstSet(),
		cards:    bot.NewCardMemory(cardStore(cfg.Deliveries), 0),
	}
	if kv, ok := cfg.Deliveries.(bot.FeedbackKV); ok {
		a.feedback = bot.NewFeedbackStore(kv)
	}
	a.journal = cfg.Journal
	if kv, ok := cfg.Deliveries.(bot.KV); ok && a.journal == nil {
		a.journal = bot.NewJournal(bot.JournalConfig{KV: kv, Logger: log})
	}
	return a, nil
}

// Intents are the gateway intents the bot asks for: guild messages and
// direct messages, plus the privileged message content when messageContent
// is set.
func Intents(messageContent bool) discordgo.Intent {
	in := discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages
	if messageContent {
		in |= discordgo.IntentMessageContent
	}
	return in
}

// selfID is the bot's own user id, known once the gateway said READY.
func (a *Adapter) selfID() string {
	a.s.State.RLock()
	defer a.s.State.RUnlock()
	if a.s.State.User == nil {
		return ""
	}
	return a.s.State.User.ID
}

// rest are the options every REST call carries: the caller's context.
func rest(ctx context.Context) discordgo.RequestOption { return discordgo.WithContext(ctx) }
