package discord

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestTheTokenNeverReachesALog(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(slog.NewTextHandler(&b, nil))
	log.Info("config", "discord", Config{Token: "Bot sekrit.token.value", AppID: "800"})
	if strings.Contains(b.String(), "sekrit") {
		t.Errorf("the token was logged: %s", b.String())
	}
	if !strings.Contains(b.String(), "token_set=true") {
		t.Errorf("the log does not say a token is set: %s", b.String())
	}
}

func TestNewChecksItsConfiguration(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"a token is enough to post", Config{Token: "abc"}, true},
		{"no token is refused", Config{AppID: "800"}, false},
		{"a bare Bot prefix is no token", Config{Token: "Bot "}, false},
		{"a custom command name is kept", Config{Token: "abc", Command: "ask-oracle"}, true},
		{"a command name with capitals is refused", Config{Token: "abc", Command: "Oracle"}, false},
		{"a command name with spaces is refused", Config{Token: "abc", Command: "ask oracle"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := New(tt.cfg, nil, nil)
			if (err == nil) != tt.ok {
				t.Fatalf("New: %v, want ok=%v", err, tt.ok)
			}
			if err == nil && a.s.Token != "Bot "+strings.TrimPrefix(tt.cfg.Token, "Bot ") {
				t.Errorf("session token %q lacks the Bot prefix", a.s.Token)
			}
		})
	}
}

func TestRunWithoutAnApplicationIDOrHandlerIsAnError(t *testing.T) {
	a, err := New(Config{Token: "abc"}, newMemoryHandler(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err == nil {
		t.Error("Run started without an application id")
	}
	a, err = New(Config{Token: "abc", AppID: "800"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err == nil {
		t.Error("Run started without a handler")
	}
}
