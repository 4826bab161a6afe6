package main

import (
	"io"
	"strings"
	"testing"
)

func TestServeDiscordSaysWhichVariablesEnableIt(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantOff string
		wantErr string
	}{
		{name: "nothing set names the variables", env: nil, wantOff: "set DISCORD_BOT_TOKEN and DISCORD_APP_ID"},
		{name: "a token without an application id is off", env: map[string]string{"DISCORD_BOT_TOKEN": "t0ken"},
			wantOff: "DISCORD_APP_ID is not"},
		{name: "an application id without a token is off", env: map[string]string{"DISCORD_APP_ID": "800"},
			wantOff: "DISCORD_BOT_TOKEN is not"},
		{name: "a malformed message-content switch is an error",
			env:     map[string]string{"DISCORD_BOT_TOKEN": "t0ken", "DISCORD_APP_ID": "800", "DISCORD_MESSAGE_CONTENT": "maybe"},
			wantErr: "DISCORD_MESSAGE_CONTENT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			a := newApp(t.Context(), config{Getenv: getenv}, strings.NewReader(""), io.Discard, io.Discard)
			run, off, err := a.serveDiscord(nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || run != nil || !strings.Contains(off, tt.wantOff) {
				t.Errorf("serveDiscord = run %v, off %q, err %v; want off containing %q", run != nil, off, err, tt.wantOff)
			}
			if strings.Contains(off, "t0ken") {
				t.Errorf("the off sentence shows the token: %q", off)
			}
		})
	}
}

func TestTheDiscordPosterNeedsOnlyTheToken(t *testing.T) {
	a := newApp(t.Context(), config{Getenv: func(k string) string {
		return map[string]string{"DISCORD_BOT_TOKEN": "t0ken"}[k]
	}}, strings.NewReader(""), io.Discard, io.Discard)
	p, err := a.discordAdapterPoster()
	if err != nil || p.Platform() != "discord" {
		t.Fatalf("discordAdapterPoster = %v, %v", p, err)
	}
	a = newApp(t.Context(), config{Getenv: func(string) string { return "" }}, strings.NewReader(""), io.Discard, io.Discard)
	if _, err := a.discordAdapterPoster(); err == nil {
		t.Error("a poster without a token")
	}
}
