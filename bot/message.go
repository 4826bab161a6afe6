// Package bot answers one message: plan → queries → knowledge → Answer. It
// keeps thread memory for follow-ups, applies rate limits and composes the
// digest. It is platform-neutral: adapters translate events into Message
// and render Answer.
package bot

import "time"

// Message is one question from any surface.
type Message struct {
	Platform string    `json:"platform"` // "cli", "http", "slack", "discord"
	Channel  string    `json:"channel,omitempty"`
	Thread   string    `json:"thread,omitempty"` // empty: a fresh conversation
	User     string    `json:"user,omitempty"`
	Text     string    `json:"text"`
	Received time.Time `json:"received,omitzero"`
}

// ThreadKey identifies a conversation for thread memory.
func (m Message) ThreadKey() string {
	if m.Thread == "" {
		return ""
	}
	return m.Platform + "/" + m.Channel + "/" + m.Thread
}
