// Package slack connects memdb-oracle to Slack on slack-go: the Events API,
// slash commands and interactivity over signed HTTP, or the same through
// Socket Mode. It translates Slack events into bot.Message, renders
// bot.Answer as Block Kit, and posts digests through bot.Poster. Nothing
// else lives here.
package slack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Handler answers one message; *bot.Bot is one.
type Handler interface {
	Handle(ctx context.Context, m bot.Message) bot.Answer
}

// ChartRenderer draws an answer's chart as a PNG.
type ChartRenderer interface {
	Render(c bot.Chart) ([]byte, error)
}

// Store is the persistent state the adapter keeps so that a restart (or a
// second replica) behaves the same: which Slack events were already
// processed, and which threads the bot answers in. Any bot.KV satisfies it.
type Store interface {
	// SetIfAbsent stores value under key unless the key exists, and reports
	// whether it stored it.
	SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error)
	Get(ctx context.Context, key string) ([]byte, bool, error)
}

// Config is what an Adapter needs. BotToken, Handler and Store are
// required; SigningSecret enables the HTTP endpoints and AppToken Socket
// Mode.
type Config struct {
	BotToken      Secret // xoxb-…, for the Web API
	SigningSecret Secret // verifies HTTP requests from Slack
	AppToken      Secret // xapp-…, for Socket Mode

	// Command is the slash command's name (default "/oracle").
	Command string

	Handler Handler
	Store   Store
	// Journal records each answer's posts so that one cut short by a
	// crash is completed by the next run, and a retried event is answered
	// once (bot.Journal). nil keeps it in Store, when Store is a whole
	// bot.KV, taking over another run's entry after two minutes; without
	// either, answers are posted unrecorded.
	Journal *bot.Journal
	// Charts draws charts; nil posts answers without them.
	Charts ChartRenderer
	// Coverage summarises the measured data on the Home tab; nil: the tab
	// goes without it.
	Coverage Coverage
	Log      *slog.Logger

	// APIURL is the Web API base URL, for a proxy or gateway in front of
	// Slack (SLACK_API_URL); empty means Slack's own,
	// https://slack.com/api/. The bot token is sent there, so point it only
	// at a proxy you trust. Tests point it at a loopback fake.
	APIURL string
	// HTTPClient is used for the Web API and response URLs (default
	// http.DefaultClient).
	HTTPClient *http.Client
	// BotUserID is the bot's own user ID; when empty it is asked of Slack
	// (auth.test) on first need.
	BotUserID string

	// AnswerTimeout bounds the work on one question (default 2 minutes).
	AnswerTimeout time.Duration
	// MaxBody caps the size of an HTTP request body (default 1 MiB).
	MaxBody int64
	// Retries is how many times a failed Slack call is retried when the
	// failure is transient or a rate limit (default 5).
	Retries int
	// Sleep waits between retries; tests replace it (default a timer that
	// stops early when ctx is done).
	Sleep func(ctx context.Context, d time.Duration) error
	// Queue is how many questions may wait for an answer (default 256).
	Queue int
	// PublicURL is where the web pages are served (MEMDB_ORACLE_PUBLIC_URL):
	// cards get "Open on the web" and the evidence links run IDs and
	// filters there. Empty: no link, code text.
	PublicURL string
}

// Adapter is one Slack app installation: its HTTP handlers, its Socket
// Mode connection and the worker that answers questions.
type Adapter struct {
	cfg  Config
	log  *slog.Logger
	api  *slackgo.Client
	out  *outbound
	jobs chan job
	// journal records answers as they are posted (nil: not recorded).
	journal *bot.Journal

	// cards keeps each posted card's answer for Show evidence and
	// feedback; feedback stores 👍/👎 (nil when Store keeps no feedback).
	cards    *bot.CardMemory
	feedback *bot.FeedbackStore
	now      func() time.Time

	mu        sync.Mutex
	botUserID string

	// rejected counts requests refused for their signature; rejections
	// samples their log lines (one per source a minute, with a count).
	rejected   atomic.Uint64
	rejections *bot.LogSampler
}

// Rejected counts the HTTP requests refused because their signature or
// timestamp did not verify.
func (a *Adapter) Rejected() uint64 { return a.rejected.Load() }

// New checks the configuration and returns an Adapter. Nothing connects
// until Run.
func New(cfg Config) (*Adapter, error) {
	if cfg.BotToken.IsZero() {
		return nil, errors.New("slack: a bot token (SLACK_BOT_TOKEN) is required")
	}
	if cfg.Handler == nil || cfg.Store == nil {
		return nil, errors.New("slack: a handler and a store are required")
	}
	if cfg.Command == "" {
		cfg.Command = "/oracle"
	}
	if !strings.HasPrefix(cfg.Command, "/") {
		cfg.Command = "/" + cfg.Command
	}
	if cfg.AnswerTimeout <= 0 {
		cfg.AnswerTimeout = 2 * time.Minute
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 1 << 20
	}
	if cfg.Retries <= 0 {
		cfg.Retries = 5
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 256
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	api, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	a := &Adapter{
		cfg:        cfg,
		log:        log.With("platform", "slack"),
		api:        api,
		jobs:       make(chan job, cfg.Queue),
		botUserID:  cfg.BotUserID,
		rejections: bot.NewLogSampler(time.Minute, nil),
		cards:      bot.NewCardMemory(cfg.Store, 0),
		now:        time.Now,
	}
	if kv, ok := cfg.Store.(bot.FeedbackKV); ok {
		a.feedback = bot.NewFeedbackStore(kv)
	}
	a.journal = cfg.Journal
	if kv, ok := cfg.Store.(bot.KV); ok && a.journal == nil {
		a.journal = bot.NewJournal(bot.JournalConfig{KV: kv, Logger: a.log})
	}
	a.out = &outbound{api: api, http: cfg.HTTPClient, retries: cfg.Retries, sleep: cfg.Sleep, log: a.log, lanes: newLanes()}
	return a, nil
}

// Run answers questions until ctx is done, and holds the Socket Mode
// connection when an app token is configured. Questions still waiting at
// shutdown are logged, never dropped silently; those being answered get a
// short grace period. It returns nil on shutdown, and an error when Socket
// Mode fails for good (a revoked token, say).
func (a *Adapter) Run(ctx context.Context) error {
	if a.cfg.AppToken.IsZero() {
		return a.work(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sockErr := make(chan error, 1)
	go func() {
		err := a.runSocketMode(ctx)
		cancel()
		sockErr <- err
	}()
	_ = a.work(ctx)
	if err := <-sockErr; err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("slack socket mode: %w", err)
	}
	return nil
}

// botUser returns the bot's own user ID, asking Slack once.
func (a *Adapter) botUser(ctx context.Context) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.botUserID != "" {
		return a.botUserID, nil
	}
	var id string
	err := a.out.retry(ctx, "auth.test", "", func(ctx context.Context) error {
		r, err := a.api.AuthTestContext(ctx)
		if err != nil {
			return err
		}
		id = r.UserID
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("asking Slack who the bot is: %w", err)
	}
	a.botUserID = id
	return id, nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// newClient builds the slack-go client the adapter and the digest poster
// share: the configured HTTP client, API URL and tokens.
func newClient(cfg Config) (*slackgo.Client, error) {
	apiURL, err := normalizeAPIURL(cfg.APIURL)
	if err != nil {
		return nil, err
	}
	opts := []slackgo.Option{slackgo.OptionHTTPClient(cfg.HTTPClient)}
	if apiURL != "" {
		opts = append(opts, slackgo.OptionAPIURL(apiURL))
	}
	if !cfg.AppToken.IsZero() {
		opts = append(opts, slackgo.OptionAppLevelToken(cfg.AppToken.Reveal()))
	}
	return slackgo.New(cfg.BotToken.Reveal(), opts...), nil
}
