package slack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestSecretsNeverShowInPrintsLogsOrJSON(t *testing.T) {
	s := NewSecret(testBotToken)
	cfg := Config{BotToken: s, SigningSecret: NewSecret(testSecret), AppToken: NewSecret(testAppToken)}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("starting", "token", s, "config", cfg)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("starting", "token", s)
	js, err := json.Marshal(struct{ Bot, Signing, App Secret }{cfg.BotToken, cfg.SigningSecret, cfg.AppToken})
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{
		"%v":   fmt.Sprintf("%v", s),
		"%s":   fmt.Sprintf("%s", s),
		"%q":   fmt.Sprintf("%q", s),
		"%x":   fmt.Sprintf("%x", s),
		"%#v":  fmt.Sprintf("%#v", s),
		"%+v":  fmt.Sprintf("%+v", cfg),
		"log":  logs.String(),
		"json": string(js),
	}
	for how, out := range outputs {
		for _, secret := range []string{testBotToken, testSecret, testAppToken} {
			if strings.Contains(out, secret) {
				t.Errorf("%s printed a secret: %s", how, out)
			}
		}
		if !strings.Contains(out, "[redacted]") {
			t.Errorf("%s did not say [redacted]: %s", how, out)
		}
	}
	if s.Reveal() != testBotToken || s.IsZero() || !NewSecret("").IsZero() {
		t.Fatal("Reveal/IsZero")
	}
}
