package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Request is one REST call the adapter would make, as preview shows it:
// where the asker sees it ("reply" for everything up to the first message
// they see, "thread" after it), the method and path, and the exact JSON
// body (a multipart body's payload_json).
type Request struct {
	Placement string         `json:"placement"`
	Method    string         `json:"method"`
	Payload   map[string]any `json:"payload"`
}

// PreviewOptions shape a preview: the bot thread to answer in (empty: a
// mention in a channel), the message-content intent, the public URL of
// the web pages, and a click on the answer's card to show instead of the
// answer itself.
type PreviewOptions struct {
	Thread         string
	MessageContent bool
	PublicURL      string
	// Click is "evidence", "choice:N", "feedback:up" or "feedback:down";
	// empty shows the answer.
	Click string
}

// Preview answers question as the adapter would in Discord and returns,
// in order, every REST call that sends something (lookups left out),
// without a server: a mention in a channel (a thread started from it, the
// answer there), or with a thread a message in that bot thread without a
// mention (chatter there gets no answer). With a click, it returns
// instead the calls that click on the answer's card would make. The
// handler's thread memory for the thread is used and kept.
func Preview(ctx context.Context, h Handler, question string, o PreviewOptions) ([]Request, error) {
	const self, channel, guild = "900", "100", "700"
	rec := &restRecorder{self: self, channel: channel, guild: guild, thread: o.Thread}
	a, err := New(Config{Token: "preview", AppID: "800", HTTPClient: &http.Client{Transport: rec},
		MessageContent: o.MessageContent, PublicURL: o.PublicURL, Deliveries: bot.NewMemoryKV(nil)}, h, nil)
	if err != nil {
		return nil, err
	}
	a.s.State.Lock()
	a.s.State.User = &discordgo.User{ID: self, Username: "oracle", Bot: true}
	a.s.State.Unlock()
	m := &discordgo.Message{ID: "1001", ChannelID: channel, GuildID: guild, Type: discordgo.MessageTypeDefault,
		Author: &discordgo.User{ID: "300", Username: "asker"}, Content: "<@" + self + "> " + question,
		Mentions: []*discordgo.User{{ID: self, Username: "oracle", Bot: true}}, Timestamp: time.Now()}
	if o.Thread != "" {
		m.ChannelID, m.Content, m.Mentions = o.Thread, question, nil
	}
	a.onMessage(ctx, m)
	answered := rec.requests()
	if o.Click == "" {
		return answered, nil
	}
	var card *Request
	for i := range answered {
		if strings.HasSuffix(answered[i].Method, "/messages") {
			card = &answered[i]
			break
		}
	}
	if card == nil {
		return nil, fmt.Errorf("there is no card to click: the bot stays silent on %q", question)
	}
	id, err := clickedButton(*card, o.Click)
	if err != nil {
		return nil, err
	}
	at := strings.TrimSuffix(strings.TrimPrefix(card.Method, "POST /channels/"), "/messages")
	rec.reset()
	a.onComponent(ctx, &discordgo.Interaction{ID: "preview-click", AppID: "800", Token: "preview-token",
		Type: discordgo.InteractionMessageComponent, ChannelID: at, GuildID: guild,
		Member:  &discordgo.Member{User: &discordgo.User{ID: "301", Username: "clicker"}},
		Message: &discordgo.Message{ID: "9001", ChannelID: at},
		Data:    discordgo.MessageComponentInteractionData{CustomID: id, ComponentType: discordgo.ButtonComponent}})
	return rec.requests(), nil
}

// clickedButton finds the custom id of the card's button a click names.
func clickedButton(card Request, click string) (string, error) {
	kind, arg, _ := strings.Cut(click, ":")
	rows, _ := card.Payload["components"].([]any)
	for _, row := range rows {
		kids, _ := row.(map[string]any)["components"].([]any)
		for _, k := range kids {
			b, _ := k.(map[string]any)
			id, _ := b["custom_id"].(string)
			label, _ := b["label"].(string)
			switch {
			case kind == "evidence" && strings.HasPrefix(id, evidencePrefix),
				kind == "feedback" && arg != "" && strings.HasPrefix(id, votePrefix+arg+":"),
				kind == "choice" && arg != "" && strings.HasPrefix(label, arg+". "):
				return id, nil
			}
		}
	}
	switch kind {
	case "evidence", "choice", "feedback":
		return "", fmt.Errorf("this answer's card has no button for %q", click)
	}
	return "", fmt.Errorf("unknown click %q: evidence, choice:N, feedback:up or feedback:down", click)
}

// restRecorder is an http.RoundTripper standing in for Discord's REST API:
// it records each call and answers as Discord would.
type restRecorder struct {
	self, channel, guild, thread string

	mu     sync.Mutex
	reqs   []Request
	posted bool
	nextID int
}

func (r *restRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	path := strings.TrimPrefix(req.URL.Path, "/api/v"+discordgo.APIVersion)
	payload := map[string]any{}
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		payload = jsonPayload(req.Header.Get("Content-Type"), body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	placement := "reply"
	if r.posted {
		placement = "thread"
	}
	isPost := req.Method == http.MethodPost && strings.HasSuffix(path, "/messages")
	r.posted = r.posted || isPost
	if req.Method != http.MethodGet { // lookups send nothing
		r.reqs = append(r.reqs, Request{Placement: placement, Method: req.Method + " " + path, Payload: payload})
	}
	r.nextID++
	var out any = map[string]any{}
	status := http.StatusOK
	seg := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case req.Method == http.MethodGet && len(seg) == 2 && seg[0] == "channels":
		if seg[1] == r.thread {
			out = map[string]any{"id": seg[1], "type": 11, "parent_id": r.channel, "owner_id": r.self, "guild_id": r.guild}
		} else {
			out = map[string]any{"id": seg[1], "type": 0, "guild_id": r.guild, "name": "general"}
		}
	case strings.HasSuffix(path, "/threads"):
		status = http.StatusCreated
		out = map[string]any{"id": seg[3], "type": 11, "parent_id": seg[1], "owner_id": r.self, "guild_id": r.guild}
	case strings.HasSuffix(path, "/typing"):
		status = http.StatusNoContent
		out = nil
	case isPost:
		out = map[string]any{"id": strconv.Itoa(9000 + r.nextID), "channel_id": seg[1], "type": 0,
			"author": map[string]any{"id": r.self, "username": "oracle", "bot": true}}
	}
	var b []byte
	if out != nil {
		b, _ = json.Marshal(out)
	}
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(b)), Request: req}, nil
}

// jsonPayload decodes a request body: JSON, or a multipart body's
// payload_json.
func jsonPayload(contentType string, body []byte) map[string]any {
	out := map[string]any{}
	mt, params, _ := mime.ParseMediaType(contentType)
	if mt == "multipart/form-data" {
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			if part.FormName() == "payload_json" {
				raw, _ := io.ReadAll(part)
				_ = json.Unmarshal(raw, &out)
			}
		}
		return out
	}
	_ = json.Unmarshal(body, &out)
	return out
}

// reset forgets the calls so far: a click's come next.
func (r *restRecorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = nil
}

func (r *restRecorder) requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request{}, r.reqs...)
}
