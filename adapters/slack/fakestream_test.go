package slack

import (
	"encoding/json"
	"net/http"
	"strings"
)

// The fake's streamed messages (chat.startStream, chat.appendStream,
// chat.stopStream), checked the way Slack documents them: a stream starts
// in a thread (and names its recipient outside a DM), is appended to and
// stopped only while it streams, and every chunk is one of the four kinds
// with its required fields.

// fakeStream is one streamed message.
type fakeStream struct {
	channel, thread string
	open            bool
	// tasks is each task card's last status, and order the ids as first
	// seen.
	tasks map[string]string
	order []string
	// blocks are the blocks the stop ended the message with (JSON).
	blocks string
}

// streamOf returns the stream a ts names.
func (f *fakeSlack) streamOf(ts string) (fakeStream, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.streams[ts]
	if !ok {
		return fakeStream{}, false
	}
	return *s, true
}

func (f *fakeSlack) serveStream(w http.ResponseWriter, c call) {
	refuse := func(code string) {
		f.record(call{Method: c.Method + " (refused)", Form: c.Form})
		writeJSON(w, map[string]any{"ok": false, "error": code})
	}
	f.mu.Lock()
	refusal := f.streamRefusal
	f.mu.Unlock()
	if refusal != "" {
		refuse(refusal)
		return
	}
	channel, ts := c.Form.Get("channel"), c.Form.Get("ts")
	if channel == "" {
		refuse("channel_not_found")
		return
	}
	if md := c.Form.Get("markdown_text"); len([]rune(md)) > slackMaxMarkdown {
		refuse("msg_too_long")
		return
	}
	ids, bad := chunkRules(c.Form.Get("chunks"), f.workspace())
	if bad != "" {
		refuse(bad)
		return
	}
	switch c.Method {
	case "chat.startStream":
		if c.Form.Get("thread_ts") == "" {
			refuse("invalid_arguments") // a stream answers in a thread
			return
		}
		if !strings.HasPrefix(channel, "D") && (c.Form.Get("recipient_user_id") == "" || c.Form.Get("recipient_team_id") == "") {
			refuse("invalid_arguments") // outside a DM the recipient is named
			return
		}
		if m := c.Form.Get("task_display_mode"); m != "" && m != "timeline" && m != "plan" {
			refuse("invalid_arguments")
			return
		}
		c.TS = f.nextTS()
		s := &fakeStream{channel: channel, thread: c.Form.Get("thread_ts"), open: true, tasks: map[string]string{}}
		s.note(ids)
		f.mu.Lock()
		f.streams[c.TS] = s
		f.mu.Unlock()
		f.record(c)
		writeJSON(w, map[string]any{"ok": true, "channel": channel, "ts": c.TS})
		return
	case "chat.appendStream", "chat.stopStream":
	default:
		refuse("unknown_method")
		return
	}
	f.mu.Lock()
	s, ok := f.streams[ts]
	f.mu.Unlock()
	switch {
	case !ok || s.channel != channel:
		refuse("message_not_found")
		return
	case !s.open:
		refuse("message_not_in_streaming_state")
		return
	case c.Method == "chat.appendStream" && c.Form.Get("markdown_text") == "" && c.Form.Get("chunks") == "":
		refuse("invalid_arguments") // nothing to append
		return
	}
	if blocks := c.Form.Get("blocks"); c.Method == "chat.stopStream" && blocks != "" {
		if bad := slackRules("", blocks, f.workspace()); bad != "" {
			refuse(bad)
			return
		}
	}
	f.mu.Lock()
	s.note(ids)
	if c.Method == "chat.stopStream" {
		s.open, s.blocks = false, c.Form.Get("blocks")
	}
	f.mu.Unlock()
	c.TS = ts
	f.record(c)
	writeJSON(w, map[string]any{"ok": true, "channel": channel, "ts": ts})
}

// note records task cards' statuses.
func (s *fakeStream) note(tasks [][2]string) {
	for _, t := range tasks {
		if _, seen := s.tasks[t[0]]; !seen {
			s.order = append(s.order, t[0])
		}
		if t[1] != "" || s.tasks[t[0]] == "" {
			s.tasks[t[0]] = t[1]
		}
	}
}

// chunkRules checks a chunks parameter (JSON) as Slack does and returns
// the task updates in it (id, status), or the error Slack gives.
func chunkRules(raw string, ws workspace) ([][2]string, string) {
	if raw == "" {
		return nil, ""
	}
	var chunks []map[string]any
	if err := json.Unmarshal([]byte(raw), &chunks); err != nil || len(chunks) == 0 {
		return nil, "invalid_chunks"
	}
	var tasks [][2]string
	for _, ch := range chunks {
		str := func(k string) string { s, _ := ch[k].(string); return s }
		switch ch["type"] {
		case "markdown_text":
			if str("text") == "" || len([]rune(str("text"))) > slackMaxMarkdown {
				return nil, "invalid_chunks"
			}
		case "task_update":
			switch str("status") {
			case "", "pending", "in_progress", "complete", "error":
			default:
				return nil, "invalid_chunks"
			}
			if str("id") == "" || str("title") == "" {
				return nil, "invalid_chunks"
			}
			srcs, _ := ch["sources"].([]any)
			for _, sv := range srcs {
				src, _ := sv.(map[string]any)
				u, _ := src["url"].(string)
				text, _ := src["text"].(string)
				if src["type"] != "url" || text == "" || !(strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) {
					return nil, "invalid_chunks"
				}
			}
			tasks = append(tasks, [2]string{str("id"), str("status")})
		case "plan_update":
			if str("title") == "" {
				return nil, "invalid_chunks"
			}
		case "blocks":
			blocks, _ := json.Marshal(ch["blocks"])
			if n, _ := ch["blocks"].([]any); len(n) == 0 || len(n) > slackMaxBlocks {
				return nil, "invalid_chunks"
			}
			if bad := slackRules("", string(blocks), ws); bad != "" {
				return nil, bad
			}
		default:
			return nil, "invalid_chunks"
		}
	}
	return tasks, ""
}
