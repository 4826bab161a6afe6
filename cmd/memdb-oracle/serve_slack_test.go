package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

func slackTestApp(t *testing.T, env map[string]string) (*app, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	cfg := config{DataDir: t.TempDir(), Getenv: func(k string) string { return env[k] }}
	a := newApp(t.Context(), cfg, strings.NewReader(""), io.Discard, &logs)
	t.Cleanup(a.close)
	return a, &logs
}

func TestServeSlackSaysWhichVariablesWouldEnableIt(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"with no Slack variables", nil, []string{"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"}},
		{"with only the bot token", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1"}, []string{"SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := slackTestApp(t, tt.env)
			mux := http.NewServeMux()
			run, off, err := a.serveSlack(mux)
			if err != nil || run != nil {
				t.Fatalf("run %v, err %v", run != nil, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(off, w) {
					t.Errorf("%q does not name %s", off, w)
				}
			}
		})
	}
}

func TestServeSlackRefusesASecretWithoutABotToken(t *testing.T) {
	a, _ := slackTestApp(t, map[string]string{"SLACK_SIGNING_SECRET": "s"})
	if _, _, err := a.serveSlack(http.NewServeMux()); err == nil || !strings.Contains(err.Error(), "SLACK_BOT_TOKEN") {
		t.Fatalf("err = %v", err)
	}
}

func TestServeSlackMountsSignedEndpointsAndNeverLogsSecrets(t *testing.T) {
	const secret, token = "test-signing-secret-0123456789", "xoxb-test-token-9876543210"
	a, logs := slackTestApp(t, map[string]string{"SLACK_BOT_TOKEN": token, "SLACK_SIGNING_SECRET": secret})
	a.cfg.Verbose = true
	mux := http.NewServeMux()
	run, off, err := a.serveSlack(mux)
	if err != nil || run == nil || off != "" {
		t.Fatalf("run %v, off %q, err %v", run != nil, off, err)
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	defer func() { cancel(); <-done }()

	body := `{"token":"x","challenge":"c-123","type":"url_verification"}`
	post := func(sign bool) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/slack/events", strings.NewReader(body))
		if sign {
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			mac := hmac.New(sha256.New, []byte(secret))
			fmt.Fprintf(mac, "v0:%s:%s", ts, body)
			req.Header.Set("X-Slack-Request-Timestamp", ts)
			req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := post(false); code != http.StatusUnauthorized {
		t.Fatalf("unsigned request got %d", code)
	}
	if code, got := post(true); code != http.StatusOK || got != "c-123" {
		t.Fatalf("signed url_verification got %d %q", code, got)
	}
	for _, p := range []string{"/slack/commands", "/slack/interactivity"} {
		resp, err := http.Post(srv.URL+p, "application/x-www-form-urlencoded", strings.NewReader("text=hi"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s unsigned got %d", p, resp.StatusCode)
		}
	}
	if strings.Contains(logs.String(), secret) || strings.Contains(logs.String(), token) {
		t.Fatal("a Slack secret reached the log")
	}
}
