package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Request is one Web API call the adapter would make, as preview shows it:
// where the asker sees it ("reply" for the message they see first,
// "thread" for the rest), the method and the exact body (form fields as a
// JSON object, blocks decoded).
type Request struct {
	Placement string         `json:"placement"`
	Method    string         `json:"method"`
	Payload   map[string]any `json:"payload"`
}

// PreviewOptions shape a preview: the bot thread to answer in (empty: a
// slash command in a channel), the public URL of the web pages, and a
// click on the answer's card to show instead of the answer itself.
type PreviewOptions struct {
	Thread    string
	PublicURL string
	// Click is "evidence", "choice:N", "feedback:up" or "feedback:down";
	// empty shows the answer.
	Click string
}

// Preview answers question as the adapter would in Slack and returns, in
// posting order, every Web API call it would make, without a workspace:
// a slash command's answer in a channel, or with a thread a message in
// that bot thread without a mention (chatter there gets no call at all).
// With a click, it returns instead the calls that click on the answer's
// card would make. The handler's thread memory for the thread is used
// and kept.
func Preview(ctx context.Context, h Handler, question string, o PreviewOptions) ([]Request, error) {
	rec := &recorder{}
	a, err := New(Config{
		BotToken:   NewSecret("xoxb-preview"),
		Handler:    h,
		Store:      bot.NewMemoryKV(nil),
		APIURL:     "https://slack.invalid/api/",
		HTTPClient: &http.Client{Transport: rec},
		BotUserID:  "UORACLE",
		Retries:    0,
		PublicURL:  o.PublicURL,
	})
	if err != nil {
		return nil, err
	}
	p := place{channel: "CPREVIEW", user: "UASKER", conversation: "preview",
		show: shown{Asker: "UASKER", Question: question}}
	if o.Thread != "" {
		p = place{channel: "CPREVIEW", user: "UASKER", thread: o.Thread, conversation: o.Thread, unasked: true}
		a.markThread(ctx, p.channel, o.Thread, o.Thread)
	}
	if err := a.answer(ctx, p, question); err != nil {
		return nil, err
	}
	if o.Click == "" {
		return rec.requests(), nil
	}
	answered := rec.requests()
	if len(answered) == 0 {
		return nil, fmt.Errorf("there is no card to click: the bot stays silent on %q", question)
	}
	card := answered[0]
	ts := rec.firstTS
	thread := p.thread
	if thread == "" {
		thread = ts
	}
	at := place{channel: p.channel, user: "UCLICKER", thread: thread, conversation: p.conversation}
	rec.reset()
	switch kind, arg, _ := strings.Cut(o.Click, ":"); kind {
	case "evidence":
		id := controlValue(card, evidenceAction)
		if id == "" {
			return nil, errors.New("this answer has no evidence to show")
		}
		err = a.showEvidence(ctx, at, id, p.channel+"/"+ts)
	case "choice":
		choice := controlValue(card, choiceAction+arg)
		if _, convErr := strconv.Atoi(arg); convErr != nil || choice == "" {
			return nil, fmt.Errorf("this answer has no choice %q to click", arg)
		}
		at.user = "UASKER"
		err = a.answer(ctx, at, choice)
	case "feedback":
		id := strings.TrimPrefix(controlValue(card, feedbackAction), voteUp)
		if id == "" || arg != "up" && arg != "down" {
			return nil, fmt.Errorf("click feedback:up or feedback:down on an answer that takes feedback")
		}
		err = a.recordVote(ctx, at, id, arg == "up")
	default:
		return nil, fmt.Errorf("unknown click %q: evidence, choice:N, feedback:up or feedback:down", o.Click)
	}
	if err != nil {
		return nil, err
	}
	return rec.requests(), nil
}

// controlValue is the value of the card's control actionID ("" when it has
// none); for feedback buttons, the positive one's.
func controlValue(card Request, actionID string) string {
	blocks, _ := card.Payload["blocks"].([]any)
	for _, b := range blocks {
		bm, _ := b.(map[string]any)
		els, _ := bm["elements"].([]any)
		for _, e := range els {
			m, _ := e.(map[string]any)
			if m["action_id"] != actionID {
				continue
			}
			if pos, ok := m["positive_button"].(map[string]any); ok {
				v, _ := pos["value"].(string)
				return v
			}
			v, _ := m["value"].(string)
			return v
		}
	}
	return ""
}

// recorder is an http.RoundTripper standing in for Slack: it records each
// call and answers ok.
type recorder struct {
	mu      sync.Mutex
	reqs    []Request
	ts      int
	firstTS string // the first message's timestamp
	clicked bool   // the calls now are a click's, all in the thread
}

// reset forgets the calls so far: a click's come next.
func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs, r.clicked = nil, true
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	method := strings.TrimPrefix(req.URL.Path, "/api/")
	payload := map[string]any{}
	if strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(body, &payload)
	} else if form, err := url.ParseQuery(string(body)); err == nil {
		for k, v := range form {
			if k == "token" || len(v) == 0 {
				continue
			}
			var decoded any
			if (k == "blocks" || k == "attachments") && json.Unmarshal([]byte(v[0]), &decoded) == nil {
				payload[k] = decoded
				continue
			}
			payload[k] = v[0]
		}
	}
	r.mu.Lock()
	placement := "thread"
	if len(r.reqs) == 0 && !r.clicked {
		placement = "reply"
	}
	r.reqs = append(r.reqs, Request{Placement: placement, Method: method, Payload: payload})
	r.ts++
	ts := fmt.Sprintf("1700000000.%06d", r.ts)
	if r.firstTS == "" {
		r.firstTS = ts
	}
	r.mu.Unlock()
	out, _ := json.Marshal(map[string]any{"ok": true, "ts": ts, "message_ts": ts, "channel": payload["channel"]})
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(out)), Request: req}, nil
}

func (r *recorder) requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request{}, r.reqs...)
}
