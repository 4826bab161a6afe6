package main

import (
	"io"
	"strings"
	"testing"
)

func TestABadAPIURLIsRefusedByItsVariableName(t *testing.T) {
	tests := []struct {
		name   string
		env    map[string]string
		poster func(*app) error
		want   string
	}{
		{name: "a relative SLACK_API_URL",
			env:    map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_API_URL": "slack-proxy.local/api"},
			poster: func(a *app) error { _, err := a.slackAdapterPoster(); return err }, want: "SLACK_API_URL"},
		{name: "a DISCORD_API_BASE with another scheme",
			env:    map[string]string{"DISCORD_BOT_TOKEN": "t0ken", "DISCORD_API_BASE": "ftp://discord-proxy.local"},
			poster: func(a *app) error { _, err := a.discordAdapterPoster(); return err }, want: "DISCORD_API_BASE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t.Context(), config{Getenv: func(k string) string { return tt.env[k] }}, strings.NewReader(""), io.Discard, io.Discard)
			if err := tt.poster(a); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("poster error %v, want one naming %s", err, tt.want)
			}
		})
	}
}
