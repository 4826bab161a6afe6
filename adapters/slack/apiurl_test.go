package slack

import (
	"strings"
	"testing"
)

func TestTheAPIURLIsCheckedAndEndsInASlash(t *testing.T) {
	tests := []struct {
		name, in, want, wantErr string
	}{
		{name: "empty keeps Slack's own API", in: "", want: ""},
		{name: "a proxy URL gains the trailing slash", in: "https://slack-proxy.example.com/api", want: "https://slack-proxy.example.com/api/"},
		{name: "a URL with the slash is kept", in: "http://127.0.0.1:9000/api/", want: "http://127.0.0.1:9000/api/"},
		{name: "a relative URL is refused", in: "slack.example.com/api", wantErr: "absolute http(s) URL"},
		{name: "another scheme is refused", in: "ftp://slack.example.com/api/", wantErr: "absolute http(s) URL"},
		{name: "a query string is refused", in: "https://slack.example.com/api/?x=1", wantErr: "absolute http(s) URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := normalizeAPIURL(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("normalizeAPIURL(%q) = %q, %v; want an error saying %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("normalizeAPIURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestABadAPIURLStopsTheAdapterAndThePoster(t *testing.T) {
	cfg := Config{BotToken: NewSecret(testBotToken), APIURL: "not a url", Handler: newFakeBot(), Store: newMemStore()}
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "API URL") {
		t.Errorf("New = %v, want the API URL refused", err)
	}
	if _, err := NewPoster(cfg); err == nil || !strings.Contains(err.Error(), "API URL") {
		t.Errorf("NewPoster = %v, want the API URL refused", err)
	}
}
