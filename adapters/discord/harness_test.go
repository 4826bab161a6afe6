package discord

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// memoryHandler stands in for *bot.Bot: it remembers each conversation's
// questions under Message.ThreadKey (as the bot's thread memory does) and
// answers with answer(m, earlier questions of the thread).
type memoryHandler struct {
	mu       sync.Mutex
	got      []bot.Message
	threads  map[string][]string
	answer   func(m bot.Message, earlier []string) bot.Answer
	onHandle func(m bot.Message)
}

func newMemoryHandler(answer func(m bot.Message, earlier []string) bot.Answer) *memoryHandler {
	if answer == nil {
		answer = echoAnswer
	}
	return &memoryHandler{threads: map[string][]string{}, answer: answer}
}

// echoAnswer says what it answers and which earlier question of the thread
// it follows up on.
func echoAnswer(m bot.Message, earlier []string) bot.Answer {
	head := "Answer to “" + m.Text + "”"
	if len(earlier) > 0 {
		head += ", following up on “" + earlier[len(earlier)-1] + "”"
	}
	return bot.Answer{Kind: bot.KindAnswer, Headline: head, Interpretation: m.Text}
}

func (h *memoryHandler) Handle(_ context.Context, m bot.Message) bot.Answer {
	if h.onHandle != nil {
		h.onHandle(m)
	}
	h.mu.Lock()
	h.got = append(h.got, m)
	key := m.ThreadKey()
	earlier := slices.Clone(h.threads[key])
	if key != "" {
		h.threads[key] = append(h.threads[key], m.Text)
	}
	h.mu.Unlock()
	return h.answer(m, earlier)
}

func (h *memoryHandler) messages() []bot.Message {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := slices.Clone(h.got)
	for i := range out {
		out[i].Received = time.Time{}
	}
	return out
}

// syncBuffer is a log destination tests can read while the adapter writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness is a running adapter connected to a fake Discord.
type harness struct {
	fd   *fakeDiscord
	a    *Adapter
	h    *memoryHandler
	logs *syncBuffer
}

// startBot runs the adapter against a fake Discord (REST and gateway) until
// the test ends, and checks at the end that Run returned nil and that no
// message the bot sent could ping anyone.
func startBot(t *testing.T, h *memoryHandler, charts ChartRenderer, configure ...func(*Config)) *harness {
	t.Helper()
	hs := startWith(t, h, charts, configure...)
	hs.h = h
	return hs
}

// startWith runs the adapter as startBot does, over any handler (the
// real bot, for instance).
func startWith(t *testing.T, h Handler, charts ChartRenderer, configure ...func(*Config)) *harness {
	t.Helper()
	fd := newFakeDiscord(t)
	client := fd.serve()
	logs := &syncBuffer{}
	cfg := Config{
		Token: "test-token", AppID: "800", HTTPClient: client, ShutdownGrace: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	for _, c := range configure {
		c(&cfg)
	}
	a, err := New(cfg, h, charts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var runErr error
	fd.stopped = make(chan struct{})
	go func() {
		runErr = a.Run(ctx)
		close(fd.stopped)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-fd.stopped:
			if runErr != nil {
				t.Errorf("Run returned %v", runErr)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("Run did not return after its context ended")
		}
		assertMentionsOff(t, fd.requests())
		if t.Failed() {
			t.Logf("adapter log:\n%s", logs.String())
		}
	})
	fd.waitFor(t, "the slash command registration", is(http.MethodPost, "/commands"))
	return &harness{fd: fd, a: a, logs: logs}
}

// restOnly is an adapter wired to a fake Discord's REST API without the
// gateway, knowing its own user id as if READY had arrived: for driving
// event handlers synchronously.
func restOnly(t *testing.T, h Handler, charts ChartRenderer) (*Adapter, *fakeDiscord) {
	t.Helper()
	fd := newFakeDiscord(t)
	a, err := New(Config{Token: "test-token", AppID: "800", HTTPClient: fd.serve()}, h, charts)
	if err != nil {
		t.Fatal(err)
	}
	a.s.State.Lock()
	a.s.State.User = &discordgo.User{ID: fd.selfID, Username: "oracle", Bot: true}
	a.s.State.Unlock()
	t.Cleanup(func() { assertMentionsOff(t, fd.requests()) })
	return a, fd
}

// assertMentionsOff checks that every message the bot sent, edited or
// followed up with carried allowed_mentions with an empty parse list.
func assertMentionsOff(t testing.TB, reqs []*request) {
	t.Helper()
	for _, r := range reqs {
		body := r.JSON
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/messages"),
			r.Method == http.MethodPatch && strings.Contains(r.Path, "/webhooks/"),
			r.Method == http.MethodPost && strings.Contains(r.Path, "/webhooks/"):
		case r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/callback"):
			body, _ = r.JSON["data"].(map[string]any)
		default:
			continue
		}
		am, ok := body["allowed_mentions"].(map[string]any)
		if !ok {
			t.Errorf("%s %s: no allowed_mentions in %v", r.Method, r.Path, body)
			continue
		}
		parse, ok := am["parse"].([]any)
		if !ok || len(parse) != 0 || am["replied_user"] == true {
			t.Errorf("%s %s: allowed_mentions %v, want an empty parse list", r.Method, r.Path, am)
		}
	}
}

var human = map[string]any{"id": "300", "username": "ana"}

// messageEvent is a MESSAGE_CREATE payload; guild "" makes it a DM.
func messageEvent(id, channel, guild string, author map[string]any, content string, mentions ...string) map[string]any {
	ms := []any{}
	for _, m := range mentions {
		ms = append(ms, map[string]any{"id": m, "username": "u" + m})
	}
	ev := map[string]any{"id": id, "channel_id": channel, "author": author, "content": content,
		"mentions": ms, "type": 0, "timestamp": "2026-11-29T18:00:00.000000+00:00"}
	if guild != "" {
		ev["guild_id"] = guild
	}
	return ev
}

// command dispatches an INTERACTION_CREATE for /oracle; question nil
// leaves the option out.
func (h *harness) command(id, token, channel, guild string, question *string) {
	h.fd.mu.Lock()
	h.fd.tokenChan[token] = channel
	h.fd.mu.Unlock()
	h.fd.dispatch("INTERACTION_CREATE", commandEvent(id, token, channel, guild, question))
}

func commandEvent(id, token, channel, guild string, question *string) map[string]any {
	opts := []any{}
	if question != nil {
		opts = append(opts, map[string]any{"name": "question", "type": 3, "value": *question})
	}
	ev := map[string]any{"id": id, "application_id": "800", "type": 2, "token": token, "version": 1,
		"channel_id": channel, "data": map[string]any{"id": "60", "name": "oracle", "type": 1, "options": opts}}
	if guild != "" {
		ev["guild_id"] = guild
		ev["member"] = map[string]any{"user": human}
	} else {
		ev["user"] = human
	}
	return ev
}

// isV2 reports whether a message request is laid out in components v2.
func isV2(r *request) bool {
	flags, _ := r.JSON["flags"].(float64)
	return int(flags)&(1<<15) != 0
}

// v2Embeds reads a components-v2 card as the embed it stands for: each
// container's title ("### "), description, footer ("-# "), colour and
// image (its media gallery).
func v2Embeds(r *request) []map[string]any {
	var out []map[string]any
	top, _ := r.JSON["components"].([]any)
	for _, c := range top {
		cm, _ := c.(map[string]any)
		if cm["type"] != float64(17) {
			continue
		}
		e := map[string]any{"color": cm["accent_color"]}
		var desc []string
		kids, _ := cm["components"].([]any)
		for _, k := range kids {
			km, _ := k.(map[string]any)
			switch km["type"] {
			case float64(10):
				text, _ := km["content"].(string)
				if ft, ok := strings.CutPrefix(text, "-# "); ok {
					e["footer"] = map[string]any{"text": ft}
					continue
				}
				if title, rest, ok := strings.Cut(strings.TrimPrefix(text, "### "), "\n"); ok && strings.HasPrefix(text, "### ") {
					e["title"] = title
					text = rest
				}
				desc = append(desc, text)
			case float64(12):
				items, _ := km["items"].([]any)
				if len(items) > 0 {
					media, _ := items[0].(map[string]any)["media"].(map[string]any)
					e["image"] = map[string]any{"url": media["url"]}
				}
			}
		}
		e["description"] = strings.Join(desc, "\n")
		out = append(out, e)
	}
	return out
}

// contentOf is a message request's content, or for a components-v2 card
// the text displays above its container (its notices).
func contentOf(r *request) string {
	if !isV2(r) {
		c, _ := r.JSON["content"].(string)
		return c
	}
	var parts []string
	top, _ := r.JSON["components"].([]any)
	for _, c := range top {
		if cm, _ := c.(map[string]any); cm["type"] == float64(10) {
			s, _ := cm["content"].(string)
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// embedsOf returns the embeds of a message request (a components-v2 card
// read as its embed).
func embedsOf(t testing.TB, r *request) []map[string]any {
	t.Helper()
	if isV2(r) {
		return v2Embeds(r)
	}
	raw, _ := r.JSON["embeds"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, e := range raw {
		m, ok := e.(map[string]any)
		if !ok {
			t.Fatalf("%s %s: embed %v is not an object", r.Method, r.Path, e)
		}
		out = append(out, m)
	}
	return out
}

// descriptions joins the descriptions of a message request's embeds.
func descriptions(t testing.TB, r *request) string {
	var parts []string
	for _, e := range embedsOf(t, r) {
		d, _ := e["description"].(string)
		parts = append(parts, d)
	}
	return strings.Join(parts, "\n")
}

func ptr[T any](v T) *T { return &v }

func wantMessages(t testing.TB, got []bot.Message, want ...bot.Message) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("the handler got\n%s\nwant\n%s", fmtMessages(got), fmtMessages(want))
	}
}

func fmtMessages(ms []bot.Message) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "  %+v\n", m)
	}
	return b.String()
}

// apiPath is p under discordgo's REST API prefix.
func apiPath(p string) string { return "/api/v" + discordgo.APIVersion + p }
