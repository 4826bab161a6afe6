package main

// Minimal loopback stand-ins for Slack (Web API + Socket Mode) and Discord
// (REST + gateway), just enough for serve to connect and answer one
// question on each; the adapters' own tests cover the platforms in depth.

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// guard is how long a test waits for something the program should do at
// once; it only stops a broken test from hanging.
const guard = 60 * time.Second

// await returns the next value from ch, failing the test after guard or
// as soon as stopped is closed (the program ended early; nil never is).
func await[T any](t testing.TB, stopped <-chan struct{}, ch <-chan T, what string) T {
	t.Helper()
	timer := time.NewTimer(guard)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-stopped:
		t.Fatalf("the program stopped while waiting for %s", what)
	case <-timer.C:
		t.Fatalf("gave up waiting for %s", what)
	}
	var zero T
	return zero
}

// lockedBuffer is an io.Writer safe for the program's concurrent logging.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// loopbackSlack answers auth.test, apps.connections.open and
// chat.postMessage, and serves the Socket Mode websocket: hello, then the
// envelopes a test queues.
type loopbackSlack struct {
	srv       *httptest.Server
	calls     chan slackCall      // every Web API call
	connected chan struct{}       // a Socket Mode connection said hello
	closed    chan struct{}       // a Socket Mode connection ended
	envelopes chan string         // to send over the websocket
	acks      chan map[string]any // acknowledgements received

	mu     sync.Mutex
	posted int
}

type slackCall struct {
	Method string
	Form   url.Values
	TS     string // the ts given to a posted message
	Upload int    // bytes of an uploaded file
}

func newLoopbackSlack(t testing.TB) *loopbackSlack {
	t.Helper()
	s := &loopbackSlack{
		calls:     make(chan slackCall, 256),
		connected: make(chan struct{}, 4),
		closed:    make(chan struct{}, 4),
		envelopes: make(chan string, 4),
		acks:      make(chan map[string]any, 16),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/{method}", s.api)
	mux.HandleFunc("POST /upload", s.upload)
	mux.HandleFunc("/ws", s.socket)
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *loopbackSlack) api(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	c := slackCall{Method: r.PathValue("method"), Form: r.PostForm}
	if c.Method == "chat.postMessage" {
		s.mu.Lock()
		s.posted++
		c.TS = "1700000100." + fmt.Sprintf("%06d", s.posted)
		s.mu.Unlock()
	}
	s.calls <- c
	var body map[string]any
	switch c.Method {
	case "auth.test":
		body = map[string]any{"ok": true, "user_id": "UBOT", "user": "memdb-oracle", "bot_id": "BBOT", "team_id": "T1"}
	case "apps.connections.open":
		body = map[string]any{"ok": true, "url": "ws://" + r.Host + "/ws"} // r.Host, not s.srv: a handler may run before NewServer returns (serve in another process)
	case "chat.postMessage":
		body = map[string]any{"ok": true, "channel": r.PostForm.Get("channel"), "ts": c.TS}
	case "files.getUploadURLExternal":
		body = map[string]any{"ok": true, "upload_url": "http://" + r.Host + "/upload", "file_id": "F1"}
	case "files.completeUploadExternal":
		body = map[string]any{"ok": true, "files": []any{map[string]any{"id": "F1"}}}
	default:
		body = map[string]any{"ok": false, "error": "unknown_method"}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// upload takes the file of Slack's external upload flow.
func (s *loopbackSlack) upload(w http.ResponseWriter, r *http.Request) {
	n := 0
	if f, _, err := r.FormFile("file"); err == nil {
		b, _ := io.ReadAll(f)
		n = len(b)
	}
	s.calls <- slackCall{Method: "upload", Upload: n}
	_, _ = io.WriteString(w, "OK")
}

func (s *loopbackSlack) socket(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	if conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","num_connections":1,"connection_info":{"app_id":"A1"}}`)) != nil {
		return
	}
	s.connected <- struct{}{}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for {
			var ack map[string]any
			if conn.ReadJSON(&ack) != nil {
				return
			}
			s.acks <- ack
		}
	}()
	for {
		select {
		case env := <-s.envelopes:
			if conn.WriteMessage(websocket.TextMessage, []byte(env)) != nil {
				<-ended
				s.closed <- struct{}{}
				return
			}
		case <-ended:
			s.closed <- struct{}{}
			return
		}
	}
}

// loopbackDiscord answers the REST calls serve and one mention need
// (gateway URL, command registration, channel lookup, thread start,
// typing, messages) and serves a gateway: HELLO, IDENTIFY → READY,
// heartbeat acks, then the dispatches a test queues.
type loopbackDiscord struct {
	srv        *httptest.Server
	selfID     string
	requests   chan discordRequest // every REST call but the gateway lookup
	identified chan map[string]any // IDENTIFY payloads
	closed     chan struct{}       // a gateway connection ended
	dispatches chan []byte         // gateway events to send

	mu     sync.Mutex
	nextID int
}

type discordRequest struct {
	Method, Path string         // Path without /api/vN
	JSON         map[string]any // the JSON body or a multipart payload_json
	Files        int
}

var apiVersionPrefix = regexp.MustCompile(`^/api/v\d+`)

func newLoopbackDiscord(t testing.TB) *loopbackDiscord {
	t.Helper()
	d := &loopbackDiscord{
		selfID:     "900",
		nextID:     5000,
		requests:   make(chan discordRequest, 256),
		identified: make(chan map[string]any, 4),
		closed:     make(chan struct{}, 4),
		dispatches: make(chan []byte, 8),
	}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *loopbackDiscord) id() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.nextID++
	return strconv.Itoa(d.nextID)
}

func (d *loopbackDiscord) serve(w http.ResponseWriter, r *http.Request) {
	if strings.TrimSuffix(r.URL.Path, "/") == "/gateway-ws" {
		d.gateway(w, r)
		return
	}
	path := apiVersionPrefix.ReplaceAllString(r.URL.Path, "")
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if v != nil {
			_ = json.NewEncoder(w).Encode(v)
		}
	}
	if r.Method == http.MethodGet && strings.TrimSuffix(path, "/") == "/gateway" {
		reply(http.StatusOK, map[string]any{"url": "ws://" + r.Host + "/gateway-ws"}) // r.Host, not d.srv (see loopbackSlack.api)
		return
	}
	req := discordRequest{Method: r.Method, Path: path}
	readDiscordBody(r, &req)
	d.requests <- req
	seg := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case seg[0] == "applications" && seg[len(seg)-1] == "commands" && r.Method == http.MethodPost:
		cmd := maps.Clone(req.JSON) // the test reads req.JSON
		cmd["id"], cmd["application_id"] = d.id(), seg[1]
		reply(http.StatusOK, cmd)
	case seg[0] == "channels" && len(seg) == 2 && r.Method == http.MethodGet:
		reply(http.StatusOK, map[string]any{"id": seg[1], "type": 0, "guild_id": "700", "name": "general"})
	case seg[0] == "channels" && len(seg) == 5 && seg[4] == "threads":
		reply(http.StatusCreated, map[string]any{"id": seg[3], "type": 11, "parent_id": seg[1], "owner_id": d.selfID, "guild_id": "700", "name": req.JSON["name"]})
	case seg[0] == "channels" && len(seg) == 3 && seg[2] == "typing":
		reply(http.StatusNoContent, nil)
	case seg[0] == "channels" && len(seg) == 3 && seg[2] == "messages" && r.Method == http.MethodPost:
		reply(http.StatusOK, map[string]any{"id": d.id(), "channel_id": seg[1], "type": 0, "content": req.JSON["content"],
			"author": map[string]any{"id": d.selfID, "username": "oracle", "bot": true}})
	default:
		reply(http.StatusNotFound, map[string]any{"message": "loopback discord: no such endpoint", "code": 0})
	}
}

func readDiscordBody(r *http.Request, req *discordRequest) {
	mediaType, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mediaType {
	case "application/json":
		_ = json.NewDecoder(r.Body).Decode(&req.JSON)
	case "multipart/form-data":
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return
			}
			data, _ := io.ReadAll(p)
			if p.FormName() == "payload_json" {
				_ = json.Unmarshal(data, &req.JSON)
			} else {
				req.Files++
			}
		}
	}
}

func (d *loopbackDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	var wmu sync.Mutex
	write := func(v any) error {
		wmu.Lock()
		defer wmu.Unlock()
		return conn.WriteJSON(v)
	}
	if write(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}}) != nil {
		return
	}
	var ident struct {
		Op int            `json:"op"`
		D  map[string]any `json:"d"`
	}
	if conn.ReadJSON(&ident) != nil || ident.Op != 2 {
		return
	}
	ready := map[string]any{"op": 0, "t": "READY", "s": 1, "d": map[string]any{
		"v": 10, "session_id": "loopback", "guilds": []any{},
		"user":        map[string]any{"id": d.selfID, "username": "oracle", "bot": true},
		"application": map[string]any{"id": "800"},
	}}
	if write(ready) != nil {
		return
	}
	d.identified <- ident.D
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for {
			var in struct {
				Op int `json:"op"`
			}
			if conn.ReadJSON(&in) != nil {
				return
			}
			if in.Op == 1 && write(map[string]any{"op": 11}) != nil {
				return
			}
		}
	}()
	for seq := 2; ; seq++ {
		select {
		case ev := <-d.dispatches:
			var msg map[string]any
			_ = json.Unmarshal(ev, &msg)
			msg["s"] = seq
			if write(msg) != nil {
				<-ended
				d.closed <- struct{}{}
				return
			}
		case <-ended:
			d.closed <- struct{}{}
			return
		}
	}
}
