package slack

import (
	"fmt"
	"log/slog"
)

// Secret holds a credential (a bot token, an app token, a signing secret).
// Every way of printing it — fmt verbs, slog, JSON, text marshalling —
// shows "[redacted]"; only Reveal returns the value, and only the code that
// hands it to Slack calls it.
type Secret struct{ value string }

// NewSecret wraps a credential.
func NewSecret(value string) Secret { return Secret{value: value} }

// Reveal returns the credential itself.
func (s Secret) Reveal() string { return s.value }

// IsZero reports whether no credential was given.
func (s Secret) IsZero() bool { return s.value == "" }

const redacted = "[redacted]"

// String returns "[redacted]".
func (s Secret) String() string { return redacted }

// GoString returns "[redacted]" so %#v does not leak it either.
func (s Secret) GoString() string { return redacted }

// Format prints "[redacted]" for every verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(redacted)) }

// LogValue makes slog print "[redacted]".
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalText keeps the credential out of JSON and other encodings.
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }
