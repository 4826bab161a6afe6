package slack

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	slackgo "github.com/slack-go/slack"
)

// fakeSlack stands in for Slack on loopback: the Web API methods the
// adapter calls, the upload URL, response URLs and the Socket Mode
// websocket. It records every call and can be told to fail.
type fakeSlack struct {
	t   testing.TB
	srv *httptest.Server

	mu      sync.Mutex
	calls   []call
	ts      int
	fail    map[string][]failure // method → failures to return first, in order
	refuse  map[string]string    // channel → Slack error for chat.postMessage
	botUser string
	// noTables makes the fake refuse native table blocks (invalid_blocks),
	// as a workspace without them does.
	noTables bool
	// noMarkdown makes the fake refuse markdown blocks (invalid_blocks),
	// as a workspace or surface without them does.
	noMarkdown bool
	// streamRefusal, when set, is the error every streaming call gets, as
	// from a workspace or app that cannot stream.
	streamRefusal string
	streams       map[string]*fakeStream // ts → streamed message

	seen chan call // every recorded call, for tests to wait on

	// Socket Mode: envelopes to send, acknowledgements received.
	envelopes chan string
	acks      chan map[string]any
}

// call is one request the fake received.
type call struct {
	Method string     // "chat.postMessage", "upload", "response_url", …
	Form   url.Values // form fields (or JSON fields as strings)
	JSON   map[string]any
	Auth   string
	Body   []byte // the uploaded file
	TS     string // the ts the fake gave a posted message
}

// failure is a canned error response.
type failure struct {
	status     int
	retryAfter string
	slackErr   string
}

func newFakeSlack(t testing.TB) *fakeSlack {
	t.Helper()
	f := &fakeSlack{
		t:         t,
		fail:      map[string][]failure{},
		refuse:    map[string]string{},
		streams:   map[string]*fakeStream{},
		botUser:   "UBOT",
		seen:      make(chan call, 1000),
		envelopes: make(chan string, 10),
		acks:      make(chan map[string]any, 10),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/{method}", f.serveAPI)
	mux.HandleFunc("/upload/{id}", f.serveUpload)
	mux.HandleFunc("/respond/{id}", f.serveRespond)
	mux.HandleFunc("/ws", f.serveSocket)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// apiURL is what the adapter's APIURL points at.
func (f *fakeSlack) apiURL() string { return f.srv.URL + "/api/" }

// responseURL is a response URL the fake accepts.
func (f *fakeSlack) responseURL(id string) string { return f.srv.URL + "/respond/" + id }

// failNext makes the next calls of a method fail, in order.
func (f *fakeSlack) failNext(method string, fs ...failure) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[method] = append(f.fail[method], fs...)
}

func (f *fakeSlack) record(c call) call {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	select {
	case f.seen <- c:
	default: // a test that posts more than it waits for
	}
	return c
}

// callsOf returns the recorded calls of a method.
func (f *fakeSlack) callsOf(method string) []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []call
	for _, c := range f.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// waitFor returns the next recorded call of one of the methods, failing
// the test if none comes (a guard against hanging, not a timing
// assumption).
func (f *fakeSlack) waitFor(methods ...string) call {
	f.t.Helper()
	guard := time.NewTimer(20 * time.Second)
	defer guard.Stop()
	for {
		select {
		case c := <-f.seen:
			for _, m := range methods {
				if c.Method == m {
					return c
				}
			}
		case <-guard.C:
			f.t.Fatalf("no %v call reached the fake Slack", methods)
			return call{}
		}
	}
}

// waitAnswer returns the posts of one answer before anyone clicks: its
// card (one message).
func (f *fakeSlack) waitAnswer(methods ...string) []call {
	f.t.Helper()
	if len(methods) == 0 {
		methods = []string{"chat.postMessage"}
	}
	return []call{f.waitFor(methods...)}
}

// waitEvidence returns the posts Show evidence makes, up to the message
// that lists the sources.
func (f *fakeSlack) waitEvidence() []call {
	f.t.Helper()
	var posts []call
	for {
		c := f.waitFor("chat.postMessage")
		posts = append(posts, c)
		if strings.Contains(c.textOf(f.t), "*Sources*") {
			return posts
		}
	}
}

// textOfAll is the text of several posts.
func textOfAll(t testing.TB, calls []call) string {
	var b strings.Builder
	for _, c := range calls {
		b.WriteString(c.textOf(t))
	}
	return b.String()
}

func (f *fakeSlack) nextFailure(method string) (failure, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.fail[method]
	if len(q) == 0 {
		return failure{}, false
	}
	f.fail[method] = q[1:]
	return q[0], true
}

func (f *fakeSlack) nextTS() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ts++
	return fmt.Sprintf("1700000000.%06d", f.ts)
}

func (f *fakeSlack) serveAPI(w http.ResponseWriter, r *http.Request) {
	method := r.PathValue("method")
	c := call{Method: method, Auth: r.Header.Get("Authorization")}
	ctype, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ctype == "application/json" {
		_ = json.NewDecoder(r.Body).Decode(&c.JSON)
	} else {
		_ = r.ParseForm()
		c.Form = r.PostForm
	}
	if fl, ok := f.nextFailure(method); ok {
		f.record(call{Method: method + " (failed)", Form: c.Form})
		if fl.retryAfter != "" {
			w.Header().Set("Retry-After", fl.retryAfter)
		}
		if fl.status != 0 {
			w.WriteHeader(fl.status)
			return
		}
		writeJSON(w, map[string]any{"ok": false, "error": fl.slackErr})
		return
	}
	switch method {
	case "auth.test":
		f.record(c)
		writeJSON(w, map[string]any{"ok": true, "user_id": f.botUser, "user": "memdb-oracle", "bot_id": "BBOT"})
	case "chat.postMessage":
		f.mu.Lock()
		refusal := f.refuse[c.Form.Get("channel")]
		f.mu.Unlock()
		if refusal == "" {
			refusal = slackRules(c.Form.Get("text"), c.Form.Get("blocks"), f.workspace())
		}
		if refusal != "" {
			f.record(call{Method: method + " (refused)", Form: c.Form})
			writeJSON(w, map[string]any{"ok": false, "error": refusal})
			return
		}
		c.TS = f.nextTS()
		f.record(c)
		writeJSON(w, map[string]any{"ok": true, "channel": c.Form.Get("channel"), "ts": c.TS})
	case "chat.postEphemeral":
		if refusal := slackRules(c.Form.Get("text"), c.Form.Get("blocks"), f.workspace()); refusal != "" {
			f.record(call{Method: method + " (refused)", Form: c.Form})
			writeJSON(w, map[string]any{"ok": false, "error": refusal})
			return
		}
		c.TS = f.nextTS()
		f.record(c)
		writeJSON(w, map[string]any{"ok": true, "message_ts": c.TS})
	case "files.getUploadURLExternal":
		f.record(c)
		writeJSON(w, map[string]any{"ok": true, "upload_url": f.srv.URL + "/upload/F0CHART", "file_id": "F0CHART"})
	case "files.completeUploadExternal":
		f.record(c)
		var files []map[string]any
		_ = json.Unmarshal([]byte(c.Form.Get("files")), &files)
		writeJSON(w, map[string]any{"ok": true, "files": files})
	case "assistant.threads.setSuggestedPrompts":
		// Slack's rules: a channel and thread, 1 to 4 prompts, each with a
		// title and a message.
		var prompts []map[string]any
		_ = json.Unmarshal([]byte(c.Form.Get("prompts")), &prompts)
		if c.JSON != nil {
			raw, _ := json.Marshal(c.JSON["prompts"])
			_ = json.Unmarshal(raw, &prompts)
		}
		ok := len(prompts) > 0 && len(prompts) <= 4
		for _, p := range prompts {
			ok = ok && p["title"] != "" && p["message"] != ""
		}
		if !ok {
			f.record(call{Method: method + " (refused)", Form: c.Form, JSON: c.JSON})
			writeJSON(w, map[string]any{"ok": false, "error": "invalid_arguments"})
			return
		}
		f.record(c)
		writeJSON(w, map[string]any{"ok": true})
	case "views.publish":
		if bad := homeViewRules(c.JSON); bad != "" {
			f.record(call{Method: method + " (refused)", JSON: c.JSON})
			writeJSON(w, map[string]any{"ok": false, "error": bad})
			return
		}
		f.record(c)
		writeJSON(w, map[string]any{"ok": true, "view": c.JSON["view"]})
	case "chat.startStream", "chat.appendStream", "chat.stopStream":
		f.serveStream(w, c)
	case "assistant.threads.setStatus":
		f.record(c)
		writeJSON(w, map[string]any{"ok": true})
	case "apps.connections.open":
		f.record(c)
		writeJSON(w, map[string]any{"ok": true, "url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"})
	default:
		f.record(c)
		writeJSON(w, map[string]any{"ok": false, "error": "unknown_method"})
	}
}

func (f *fakeSlack) serveUpload(w http.ResponseWriter, r *http.Request) {
	c := call{Method: "upload", Auth: r.Header.Get("Authorization")}
	_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err != nil {
			break
		}
		if part.FormName() == "file" {
			c.Body, _ = io.ReadAll(part)
		}
	}
	f.record(c)
	_, _ = io.WriteString(w, "OK - "+fmt.Sprint(len(c.Body)))
}

func (f *fakeSlack) serveRespond(w http.ResponseWriter, r *http.Request) {
	c := call{Method: "response_url", Form: url.Values{"id": {r.PathValue("id")}}}
	_ = json.NewDecoder(r.Body).Decode(&c.JSON)
	blocks, _ := json.Marshal(c.JSON["blocks"])
	text, _ := c.JSON["text"].(string)
	if c.JSON["blocks"] == nil {
		blocks = nil
	}
	if refusal := slackRules(text, string(blocks), f.workspace()); refusal != "" {
		f.record(call{Method: "response_url (refused)", Form: c.Form, JSON: c.JSON})
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, refusal)
		return
	}
	f.record(c)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"ok":true}`)
}

// serveSocket is Slack's Socket Mode endpoint: hello, then the envelopes
// the test queues; acknowledgements go to f.acks.
func (f *fakeSlack) serveSocket(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	f.record(call{Method: "websocket"})
	if err := conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","num_connections":1,"connection_info":{"app_id":"A1"}}`)); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			var ack map[string]any
			if err := conn.ReadJSON(&ack); err != nil {
				return
			}
			f.acks <- ack
		}
	}()
	for {
		select {
		case env := <-f.envelopes:
			if err := conn.WriteMessage(websocket.TextMessage, []byte(env)); err != nil {
				return
			}
		case <-done:
			return
		}
	}
}

// Slack's limits on a posted message, as the fake enforces them.
const (
	slackMaxText        = 40000 // msg_too_long
	slackMaxBlocksChars = 13000 // msg_blocks_too_long: text across all blocks
	slackMaxBlocks      = 50
	slackMaxSection     = 3000
	slackMaxContextEls  = 10
	slackMaxTableRows   = 100
	slackMaxTableCols   = 20
)

// workspace is what the Slack workspace the fake plays takes.
type workspace struct {
	noTables   bool // no table, data_table or data_visualization blocks
	noMarkdown bool // no markdown blocks
}

func (f *fakeSlack) workspace() workspace {
	f.mu.Lock()
	defer f.mu.Unlock()
	return workspace{noTables: f.noTables, noMarkdown: f.noMarkdown}
}

// slackMaxMarkdown is the most characters a message's markdown blocks
// hold together.
const slackMaxMarkdown = 12000

// slackRules returns the error Slack gives a message with this fallback
// text and blocks (JSON), or "" when Slack takes it.
func slackRules(text, blocksJSON string, ws workspace) string {
	noTables := ws.noTables
	if len([]rune(text)) > slackMaxText {
		return "msg_too_long"
	}
	if blocksJSON == "" {
		if text == "" {
			return "no_text"
		}
		return ""
	}
	var blocks []map[string]any
	if err := json.Unmarshal([]byte(blocksJSON), &blocks); err != nil {
		return "invalid_blocks_format"
	}
	if len(blocks) > slackMaxBlocks {
		return "invalid_blocks"
	}
	total, tables, markdown := 0, 0, 0
	for _, b := range blocks {
		switch b["type"] {
		case "markdown":
			// Slack's rules: a text, and at most 12,000 characters across a
			// message's markdown blocks.
			s, _ := b["text"].(string)
			markdown += len([]rune(s))
			if ws.noMarkdown || s == "" || markdown > slackMaxMarkdown {
				return "invalid_blocks"
			}
		case "section":
			t, _ := b["text"].(map[string]any)
			s, _ := t["text"].(string)
			if s == "" || len([]rune(s)) > slackMaxSection {
				return "invalid_blocks"
			}
			total += len([]rune(s))
		case "context":
			els, _ := b["elements"].([]any)
			if len(els) == 0 || len(els) > slackMaxContextEls {
				return "invalid_blocks"
			}
			for _, e := range els {
				m, _ := e.(map[string]any)
				s, _ := m["text"].(string)
				total += len([]rune(s))
			}
		case "table":
			tables++
			if noTables || tables > 1 {
				return "invalid_blocks"
			}
			rows, _ := b["rows"].([]any)
			if len(rows) == 0 || len(rows) > slackMaxTableRows {
				return "invalid_blocks"
			}
			for _, r := range rows {
				cells, _ := r.([]any)
				if len(cells) == 0 || len(cells) > slackMaxTableCols {
					return "invalid_blocks"
				}
				for _, c := range cells {
					m, _ := c.(map[string]any)
					s, _ := m["text"].(string)
					total += len([]rune(s))
				}
			}
		case "actions":
			if bad := actionsRules(b); bad != "" {
				return bad
			}
		case "context_actions":
			// Slack's rules: 1 to 5 elements, only feedback_buttons and
			// icon_button; each feedback button a plain_text label of at
			// most 75 characters and a value of at most 2,000.
			els, _ := b["elements"].([]any)
			if len(els) == 0 || len(els) > 5 {
				return "invalid_blocks"
			}
			for _, e := range els {
				m, _ := e.(map[string]any)
				switch m["type"] {
				case "feedback_buttons":
					for _, side := range []string{"positive_button", "negative_button"} {
						btn, _ := m[side].(map[string]any)
						txt, _ := btn["text"].(map[string]any)
						label, _ := txt["text"].(string)
						value, _ := btn["value"].(string)
						if txt["type"] != "plain_text" || label == "" || len([]rune(label)) > 75 || value == "" || len(value) > 2000 {
							return "invalid_blocks"
						}
					}
				case "icon_button":
				default:
					return "invalid_blocks"
				}
			}
		case "data_table":
			// Slack's rules: a caption, 2 to 100 rows (the header first, of
			// raw_text cells only), every row as wide as the header, at
			// most 20 columns, page_size 1 to 100; one table per message.
			tables++
			if noTables || tables > 1 {
				return "invalid_blocks"
			}
			caption, _ := b["caption"].(string)
			rows, _ := b["rows"].([]any)
			if caption == "" || len(rows) < 2 || len(rows) > 100 {
				return "invalid_blocks"
			}
			if ps, ok := b["page_size"].(float64); ok && (ps < 1 || ps > 100) {
				return "invalid_blocks"
			}
			width := -1
			for i, r := range rows {
				cells, _ := r.([]any)
				if width == -1 {
					width = len(cells)
				}
				if len(cells) != width || width == 0 || width > 20 {
					return "invalid_blocks"
				}
				for _, c := range cells {
					m, _ := c.(map[string]any)
					switch m["type"] {
					case "raw_text":
						s, _ := m["text"].(string)
						total += len([]rune(s))
					case "raw_number":
						if i == 0 {
							return "invalid_blocks"
						}
						if _, ok := m["value"].(float64); !ok {
							return "invalid_blocks"
						}
					default:
						return "invalid_blocks"
					}
				}
			}
		case "data_visualization":
			// Decoded and checked against the block's documented rules
			// (title, 1–6 series, 20 points, 20-character names and
			// categories, a point for every category).
			raw, _ := json.Marshal(b)
			var dv slackgo.DataVisualizationBlock
			if json.Unmarshal(raw, &dv) != nil || dv.Validate() != nil {
				return "invalid_blocks"
			}
			if noTables {
				return "invalid_blocks" // a workspace without the newer blocks
			}
		case "image", "divider", "header", "rich_text":
		default:
			return "invalid_blocks"
		}
	}
	if total > slackMaxBlocksChars {
		return "msg_blocks_too_long"
	}
	return ""
}

// homeViewRules checks a views.publish request as Slack does: a user, a
// view of type home with 1 to 100 blocks of the kinds surfaces other than
// messages take (no markdown, tables, charts or feedback buttons), header
// texts of at most 150 characters, private metadata of at most 3,000.
func homeViewRules(req map[string]any) string {
	view, _ := req["view"].(map[string]any)
	if user, _ := req["user_id"].(string); user == "" || view == nil || view["type"] != "home" {
		return "invalid_arguments"
	}
	if meta, _ := view["private_metadata"].(string); len(meta) > 3000 {
		return "invalid_arguments"
	}
	blocks, _ := view["blocks"].([]any)
	if len(blocks) == 0 || len(blocks) > 100 {
		return "invalid_blocks"
	}
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		switch m["type"] {
		case "markdown", "table", "data_table", "data_visualization", "context_actions":
			return "invalid_blocks"
		case "header":
			txt, _ := m["text"].(map[string]any)
			s, _ := txt["text"].(string)
			if txt["type"] != "plain_text" || s == "" || len([]rune(s)) > 150 {
				return "invalid_blocks"
			}
		}
	}
	raw, _ := json.Marshal(blocks)
	return slackRules("", string(raw), workspace{})
}

// actionsRules checks an actions block as Slack does: 1 to 25 elements;
// a button with a plain_text label of 1–75 characters, an action_id of at
// most 255 unique in the message, a value of at most 2,000 and a url of
// at most 3,000.
func actionsRules(b map[string]any) string {
	els, _ := b["elements"].([]any)
	if len(els) == 0 || len(els) > 25 {
		return "invalid_blocks"
	}
	ids := map[string]bool{}
	for _, e := range els {
		m, _ := e.(map[string]any)
		if m["type"] != "button" {
			continue
		}
		txt, _ := m["text"].(map[string]any)
		label, _ := txt["text"].(string)
		id, _ := m["action_id"].(string)
		value, _ := m["value"].(string)
		link, _ := m["url"].(string)
		if txt["type"] != "plain_text" || label == "" || len([]rune(label)) > 75 || len(id) > 255 || ids[id] ||
			len(value) > 2000 || len(link) > 3000 {
			return "invalid_blocks"
		}
		ids[id] = true
	}
	return ""
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// blocksOf decodes the blocks a call posted.
func (c call) blocksOf(t testing.TB) []map[string]any {
	t.Helper()
	raw := c.Form.Get("blocks")
	if c.JSON != nil {
		b, _ := json.Marshal(c.JSON["blocks"])
		raw = string(b)
	}
	var blocks []map[string]any
	if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
		t.Fatalf("%s: blocks not JSON: %v\n%s", c.Method, err, raw)
	}
	return blocks
}

// textOf is every text in a call's blocks and its fallback text.
func (c call) textOf(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	if c.JSON != nil {
		fmt.Fprint(&b, c.JSON["text"], "\n")
	} else {
		b.WriteString(c.Form.Get("text") + "\n")
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if s, ok := x["text"].(string); ok {
				b.WriteString(s + "\n")
			}
			for k, e := range x {
				if k != "text" {
					walk(e)
				} else if _, isStr := e.(string); !isStr {
					walk(e)
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, bl := range c.blocksOf(t) {
		if s, ok := bl["text"].(string); ok && bl["type"] == "markdown" {
			b.WriteString(markdownAsMrkdwn(s) + "\n") // read like a section's mrkdwn
			continue
		}
		walk(bl)
	}
	return b.String()
}

// allCalls returns every recorded call, in order.
func (f *fakeSlack) allCalls() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls...)
}
