package discord

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// fakeDiscord is a local stand-in for Discord: the REST endpoints the
// adapter uses and a gateway websocket that says HELLO and READY and then
// delivers the events a test dispatches. It records every REST request.
type fakeDiscord struct {
	t      testing.TB
	selfID string
	wsURL  string // set once the server listens

	mu        sync.Mutex
	nextID    int
	channels  map[string]map[string]any // channel id → channel object (threads, DMs)
	originals map[string]string         // interaction token → original response message id
	tokenChan map[string]string         // interaction token → its channel
	faults    []*fault
	log       []*request
	reqs      chan *request // every request, for waitFor
	stopped   chan struct{} // closed when the adapter under test stops (nil: never)
	events    chan []byte   // gateway dispatches waiting to be sent
	identify  chan map[string]any
	resumes   chan map[string]any
	conn      *websocket.Conn // the current gateway connection
	seq       int
	intents   int // of the last IDENTIFY
}

// request is one REST call as the fake saw it.
type request struct {
	Method string
	Path   string
	Query  url.Values
	JSON   map[string]any // the JSON body, or payload_json of a multipart body
	Files  []fakeFile
	Status int
	At     time.Time
}

type fakeFile struct {
	Field, Name, ContentType string
	Data                     []byte
}

// fault makes the fake answer matching requests with an error, times times.
type fault struct {
	match  func(*request) bool
	status int
	body   string
	header http.Header
	times  int
}

func newFakeDiscord(t testing.TB) *fakeDiscord {
	return &fakeDiscord{
		t:         t,
		selfID:    "900",
		nextID:    5000,
		channels:  map[string]map[string]any{},
		originals: map[string]string{},
		tokenChan: map[string]string{},
		reqs:      make(chan *request, 1024),
		events:    make(chan []byte, 64),
		identify:  make(chan map[string]any, 4),
		resumes:   make(chan map[string]any, 4),
	}
}

// serve starts the fake on a loopback port and returns an HTTP client whose
// transport sends discord.com requests there (and refuses anything else).
func (f *fakeDiscord) serve() *http.Client {
	srv := httptest.NewServer(f)
	f.t.Cleanup(srv.Close)
	f.wsURL = "ws" + strings.TrimPrefix(srv.URL, "http") + "/gateway"
	target, _ := url.Parse(srv.URL)
	return &http.Client{Transport: rewriteHost{target: target, next: http.DefaultTransport}, Timeout: 10 * time.Second}
}

// rewriteHost sends requests for Discord's API host to the fake server.
// discordgo builds every REST URL from package variables fixed at init;
// rewriting the host in the session's own HTTP client leaves those globals
// alone, so tests can run in parallel, and refuses any other host, so a
// test can never reach the internet.
type rewriteHost struct {
	target *url.URL
	next   http.RoundTripper
}

func (rt rewriteHost) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != "discord.com" {
		return nil, fmt.Errorf("test transport: refusing a request to %s", r.URL.Host)
	}
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = rt.target.Scheme, rt.target.Host, rt.target.Host
	return rt.next.RoundTrip(r)
}

// inMemory is a transport that calls the fake's handler directly, with no
// sockets: used inside testing/synctest bubbles, where time is fake.
type inMemory struct{ h http.Handler }

func (m inMemory) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != "discord.com" {
		return nil, fmt.Errorf("test transport: refusing a request to %s", r.URL.Host)
	}
	rec := httptest.NewRecorder()
	m.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// failNext makes the next times requests matching match fail with status
// and the JSON body; status 0 answers normally but with header.
func (f *fakeDiscord) failNext(times int, match func(*request) bool, status int, body string, header http.Header) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, &fault{match: match, status: status, body: body, header: header, times: times})
}

// addChannel makes the fake know a channel (a thread: typ 11 with parent
// and owner).
func (f *fakeDiscord) addChannel(id string, typ int, parent, owner string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.channels[id] = map[string]any{"id": id, "type": typ, "parent_id": parent, "owner_id": owner, "guild_id": "700", "name": "t-" + id}
}

func (f *fakeDiscord) id() string {
	f.nextID++
	return strconv.Itoa(f.nextID)
}

// requests returns every request seen so far.
func (f *fakeDiscord) requests() []*request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*request(nil), f.log...)
}

// waitFor returns the next request (in arrival order, from where the last
// waitFor stopped) that matches, failing the test after a generous
// deadline. It is a guard against a hung test, not a timing assumption.
func (f *fakeDiscord) waitFor(t testing.TB, what string, match func(*request) bool) *request {
	t.Helper()
	deadline := time.NewTimer(15 * time.Second)
	defer deadline.Stop()
	for {
		select {
		case r := <-f.reqs:
			if match(r) {
				return r
			}
		case <-f.stopped:
			t.Fatalf("the adapter stopped while waiting for %s; saw:\n%s", what, f.summary())
			return nil
		case <-deadline.C:
			t.Fatalf("no request for %s; saw:\n%s", what, f.summary())
			return nil
		}
	}
}

func (f *fakeDiscord) summary() string {
	var b strings.Builder
	for _, r := range f.requests() {
		fmt.Fprintf(&b, "  %s %s → %d\n", r.Method, r.Path, r.Status)
	}
	return b.String()
}

func is(method, pathSuffix string) func(*request) bool {
	return func(r *request) bool { return r.Method == method && strings.HasSuffix(r.Path, pathSuffix) }
}

func isMessagePost(channel string) func(*request) bool {
	return is(http.MethodPost, "/channels/"+channel+"/messages")
}

func (f *fakeDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.TrimSuffix(r.URL.Path, "/") == "/gateway" {
		f.gateway(w, r)
		return
	}
	req, err := readRequest(r)
	if err != nil {
		f.t.Errorf("fake discord: reading %s %s: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.At = time.Now()
	status, header, body := f.respond(req)
	req.Status = status
	f.mu.Lock()
	f.log = append(f.log, req)
	f.mu.Unlock()
	f.reqs <- req
	for k, vs := range header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if body == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

func readRequest(r *http.Request) (*request, error) {
	req := &request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()}
	mediaType, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mediaType {
	case "application/json":
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &req.JSON); err != nil {
				return nil, fmt.Errorf("JSON body %q: %w", raw, err)
			}
		}
	case "multipart/form-data":
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			data, err := io.ReadAll(p)
			if err != nil {
				return nil, err
			}
			if p.FormName() == "payload_json" {
				if err := json.Unmarshal(data, &req.JSON); err != nil {
					return nil, fmt.Errorf("payload_json: %w", err)
				}
				continue
			}
			req.Files = append(req.Files, fakeFile{Field: p.FormName(), Name: p.FileName(),
				ContentType: p.Header.Get("Content-Type"), Data: data})
		}
	}
	return req, nil
}

// respond is the fake's behaviour: faults first, then the endpoints.
func (f *fakeDiscord) respond(r *request) (int, http.Header, []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var extra http.Header
	for _, ft := range f.faults {
		if ft.times > 0 && ft.match(r) {
			ft.times--
			if ft.status == 0 { // respond normally, with these headers
				extra = ft.header
				break
			}
			return ft.status, ft.header, []byte(ft.body)
		}
	}
	status, header, body := f.endpoint(r)
	if extra != nil {
		header = extra
	}
	return status, header, body
}

// endpoint answers a request as Discord would (no faults).
func (f *fakeDiscord) endpoint(r *request) (int, http.Header, []byte) {
	p := strings.TrimPrefix(r.Path, "/api/v"+discordgo.APIVersion)
	seg := strings.Split(strings.Trim(p, "/"), "/")
	ok := func(v any) (int, http.Header, []byte) {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return http.StatusOK, nil, b
	}
	noContent := func() (int, http.Header, []byte) { return http.StatusNoContent, nil, nil }
	switch {
	case r.Method == http.MethodGet && p == "/gateway":
		return ok(map[string]any{"url": f.wsURL})

	case seg[0] == "applications" && seg[len(seg)-1] == "commands" && r.Method == http.MethodPost:
		cmd := r.JSON
		cmd["id"] = f.id()
		cmd["application_id"] = seg[1]
		return ok(cmd)

	case seg[0] == "channels" && len(seg) == 2 && r.Method == http.MethodGet:
		if ch, found := f.channels[seg[1]]; found {
			return ok(ch)
		}
		return ok(map[string]any{"id": seg[1], "type": 0, "guild_id": "700", "name": "general"})

	case seg[0] == "channels" && len(seg) == 3 && seg[2] == "typing":
		return noContent()

	case seg[0] == "channels" && len(seg) == 3 && seg[2] == "messages" && r.Method == http.MethodPost:
		if bad := discordRules(r.JSON); bad != "" {
			return http.StatusBadRequest, nil, mustJSON(map[string]any{"message": "Invalid Form Body: " + bad, "code": 50035})
		}
		return ok(f.message(seg[1], r.JSON))

	case seg[0] == "channels" && len(seg) == 5 && seg[4] == "threads" && r.Method == http.MethodPost:
		parent, msgID := seg[1], seg[3]
		if _, exists := f.channels[msgID]; exists {
			return http.StatusBadRequest, nil, []byte(`{"message":"A thread has already been created for this message","code":160004}`)
		}
		th := map[string]any{"id": msgID, "type": 11, "parent_id": parent, "owner_id": f.selfID,
			"guild_id": "700", "name": r.JSON["name"]}
		f.channels[msgID] = th
		return http.StatusCreated, nil, mustJSON(th)

	case seg[0] == "interactions" && len(seg) == 4 && seg[3] == "callback":
		f.originals[seg[2]] = f.id()
		return noContent()

	case seg[0] == "webhooks" && len(seg) == 5 && seg[4] == "@original":
		orig, found := f.originals[seg[2]]
		if !found {
			return http.StatusNotFound, nil, []byte(`{"message":"Unknown Webhook","code":10015}`)
		}
		switch r.Method {
		case http.MethodDelete:
			delete(f.originals, seg[2])
			return noContent()
		case http.MethodPatch:
			if bad := discordRules(r.JSON); bad != "" {
				return http.StatusBadRequest, nil, mustJSON(map[string]any{"message": "Invalid Form Body: " + bad, "code": 50035})
			}
			msg := f.message(f.tokenChan[seg[2]], r.JSON)
			msg["id"] = orig
			return ok(msg)
		}
		return ok(map[string]any{"id": orig, "channel_id": f.tokenChan[seg[2]], "content": ""})

	case seg[0] == "webhooks" && len(seg) == 3 && r.Method == http.MethodPost:
		if bad := discordRules(r.JSON); bad != "" {
			return http.StatusBadRequest, nil, mustJSON(map[string]any{"message": "Invalid Form Body: " + bad, "code": 50035})
		}
		return ok(f.message(f.tokenChan[seg[2]], r.JSON))
	}
	return http.StatusNotFound, nil, []byte(`{"message":"fake discord: no such endpoint","code":0}`)
}

func (f *fakeDiscord) message(channel string, body map[string]any) map[string]any {
	msg := map[string]any{"id": f.id(), "channel_id": channel, "type": 0,
		"author": map[string]any{"id": f.selfID, "username": "oracle", "bot": true}}
	for _, k := range []string{"content", "embeds", "components", "flags"} {
		if v, ok := body[k]; ok {
			msg[k] = v
		}
	}
	return msg
}

// discordRules returns what Discord finds wrong with a message body (its
// embed limits, 6,000 characters across embeds, 2,000 of content), or "".
func discordRules(body map[string]any) string {
	runes := func(v any) int { s, _ := v.(string); return len([]rune(s)) }
	if bad := componentRules(body); bad != "" {
		return bad
	}
	if runes(body["content"]) > 2000 {
		return "content longer than 2000"
	}
	embeds, _ := body["embeds"].([]any)
	if len(embeds) > 10 {
		return "more than 10 embeds"
	}
	flags, _ := body["flags"].(float64)
	if len(embeds) == 0 && runes(body["content"]) == 0 && int(flags)&(1<<15) == 0 {
		if _, files := body["attachments"]; !files {
			return "empty message"
		}
	}
	total := 0
	for _, e := range embeds {
		em, _ := e.(map[string]any)
		if runes(em["title"]) > 256 || runes(em["description"]) > 4096 {
			return "embed title or description too long"
		}
		total += runes(em["title"]) + runes(em["description"])
		fields, _ := em["fields"].([]any)
		if len(fields) > 25 {
			return "more than 25 fields"
		}
		for _, f := range fields {
			fm, _ := f.(map[string]any)
			if runes(fm["name"]) == 0 || runes(fm["name"]) > 256 || runes(fm["value"]) == 0 || runes(fm["value"]) > 1024 {
				return "field name or value empty or too long"
			}
			total += runes(fm["name"]) + runes(fm["value"])
		}
		if ft, ok := em["footer"].(map[string]any); ok {
			if runes(ft["text"]) > 2048 {
				return "footer too long"
			}
			total += runes(ft["text"])
		}
		if au, ok := em["author"].(map[string]any); ok {
			if runes(au["name"]) > 256 {
				return "author name too long"
			}
			total += runes(au["name"])
		}
		if runes(em["title"]) == 0 && runes(em["description"]) == 0 && len(fields) == 0 {
			if _, img := em["image"]; !img {
				return "empty embed"
			}
		}
	}
	if total > 6000 {
		return "embeds longer than 6000 in total"
	}
	return ""
}

// componentRules returns what Discord finds wrong with a message's
// components, or "": at most 5 action rows of at most 5 buttons (classic
// messages); with the components-v2 flag no content or embeds, at most 40
// components in all and 4,000 characters of text displays; every button
// with a label of 1–80 characters (or none, with an emoji), a custom_id of 1–100 characters unique
// in the message (or, for a link button, a URL and no custom_id); a
// container's accent colour a 24-bit number.
func componentRules(body map[string]any) string {
	const componentsV2 = 1 << 15
	flags, _ := body["flags"].(float64)
	v2 := int(flags)&componentsV2 != 0
	top, _ := body["components"].([]any)
	if v2 {
		if s, _ := body["content"].(string); s != "" {
			return "content with the components-v2 flag"
		}
		if e, _ := body["embeds"].([]any); len(e) > 0 {
			return "embeds with the components-v2 flag"
		}
		if len(top) == 0 {
			if _, files := body["attachments"]; !files {
				return "empty message"
			}
		}
	} else if len(top) > 5 {
		return "more than 5 action rows"
	}
	ids := map[string]bool{}
	count, text := 0, 0
	var walk func(cs []any, depth int) string
	walk = func(cs []any, depth int) string {
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			count++
			typ, _ := cm["type"].(float64)
			switch int(typ) {
			case 1: // action row
				kids, _ := cm["components"].([]any)
				if len(kids) == 0 || len(kids) > 5 {
					return "an action row needs 1 to 5 components"
				}
				if bad := walk(kids, depth+1); bad != "" {
					return bad
				}
			case 2: // button
				label, hasLabel := cm["label"].(string)
				if n := len([]rune(label)); hasLabel && n == 0 || !hasLabel && cm["emoji"] == nil || n > 80 {
					return "button label empty or longer than 80"
				}
				style, _ := cm["style"].(float64)
				id, _ := cm["custom_id"].(string)
				url, _ := cm["url"].(string)
				switch {
				case style < 1 || style > 6:
					return "invalid button style"
				case style == 5 && (url == "" || id != ""):
					return "a link button needs a url and no custom_id"
				case style != 5 && (id == "" || len([]rune(id)) > 100):
					return "custom_id empty or longer than 100"
				case style != 5 && ids[id]:
					return "duplicate custom_id " + id
				}
				ids[id] = true
			case 10: // text display
				if !v2 {
					return "a text display without the components-v2 flag"
				}
				s, _ := cm["content"].(string)
				if s == "" {
					return "empty text display"
				}
				text += len([]rune(s))
			case 14: // separator
				if !v2 {
					return "a separator without the components-v2 flag"
				}
			case 17: // container
				if !v2 || depth > 0 {
					return "a container outside the top level of a components-v2 message"
				}
				if c, ok := cm["accent_color"].(float64); ok && (c < 0 || c > 0xFFFFFF) {
					return "accent_color out of range"
				}
				kids, _ := cm["components"].([]any)
				if len(kids) == 0 {
					return "empty container"
				}
				if bad := walk(kids, depth+1); bad != "" {
					return bad
				}
			case 12: // media gallery
				if !v2 {
					return "a media gallery without the components-v2 flag"
				}
				items, _ := cm["items"].([]any)
				if len(items) == 0 || len(items) > 10 {
					return "a media gallery needs 1 to 10 items"
				}
			default:
				return fmt.Sprintf("component type %v not allowed here", cm["type"])
			}
		}
		return ""
	}
	if bad := walk(top, 0); bad != "" {
		return bad
	}
	if count > 40 {
		return "more than 40 components"
	}
	if text > 4000 {
		return "text displays longer than 4000 in total"
	}
	return ""
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// dispatch sends a gateway event (op 0) of type typ with data d. Like
// Discord, a MESSAGE_CREATE reaches a bot without the message-content
// intent with empty content unless it mentions the bot or is a DM.
func (f *fakeDiscord) dispatch(typ string, d any) {
	f.mu.Lock()
	f.seq++
	seq := f.seq
	intents := f.intents
	f.mu.Unlock()
	if m, ok := d.(map[string]any); ok && typ == "MESSAGE_CREATE" && intents&int(discordgo.IntentMessageContent) == 0 {
		content, _ := m["content"].(string)
		_, inGuild := m["guild_id"]
		if inGuild && !strings.Contains(content, "<@"+f.selfID+">") && !strings.Contains(content, "<@!"+f.selfID+">") {
			c := make(map[string]any, len(m))
			for k, v := range m {
				c[k] = v
			}
			c["content"] = ""
			d = c
		}
	}
	f.events <- mustJSON(map[string]any{"op": 0, "t": typ, "s": seq, "d": d})
}

// drop cuts the current gateway connection, as a network failure would.
func (f *fakeDiscord) drop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn != nil {
		f.conn.NetConn().Close()
	}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// gateway speaks just enough of Discord's gateway protocol: HELLO, then
// IDENTIFY is read and READY sent, heartbeats are acknowledged, and
// dispatched events are delivered until the client closes.
func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		f.t.Errorf("fake gateway: upgrade: %v", err)
		return
	}
	defer conn.Close()
	var wmu sync.Mutex
	write := func(v []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		return conn.WriteMessage(websocket.TextMessage, v)
	}
	if err := write(mustJSON(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})); err != nil {
		return
	}
	var ident struct {
		Op int            `json:"op"`
		D  map[string]any `json:"d"`
	}
	if err := conn.ReadJSON(&ident); err != nil {
		f.t.Errorf("fake gateway: reading IDENTIFY or RESUME: %v", err)
		return
	}
	f.mu.Lock()
	f.seq++
	seq := f.seq
	f.conn = conn
	f.mu.Unlock()
	var first map[string]any
	switch ident.Op {
	case 2: // IDENTIFY
		if in, ok := ident.D["intents"].(float64); ok {
			f.mu.Lock()
			f.intents = int(in)
			f.mu.Unlock()
		}
		f.identify <- ident.D
		first = map[string]any{"op": 0, "t": "READY", "s": seq, "d": map[string]any{
			"v": 10, "session_id": "fake-session", "guilds": []any{},
			"user":        map[string]any{"id": f.selfID, "username": "oracle", "bot": true},
			"application": map[string]any{"id": "800"},
		}}
	case 6: // RESUME
		f.resumes <- ident.D
		first = map[string]any{"op": 0, "t": "RESUMED", "s": seq, "d": map[string]any{}}
	default:
		f.t.Errorf("fake gateway: expected IDENTIFY or RESUME, got op %d", ident.Op)
		return
	}
	if err := write(mustJSON(first)); err != nil {
		return
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		for {
			var in struct {
				Op int `json:"op"`
			}
			if err := conn.ReadJSON(&in); err != nil {
				return
			}
			if in.Op == 1 {
				if write([]byte(`{"op":11}`)) != nil {
					return
				}
			}
		}
	}()
	for {
		select {
		case ev := <-f.events:
			if err := write(ev); err != nil {
				return
			}
		case <-closed:
			return
		}
	}
}
