package discord

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAnAPIBaseSendsDiscordsRESTCallsThroughTheProxy(t *testing.T) {
	t.Parallel()
	fd := newFakeDiscord(t)
	proxy := httptest.NewServer(http.StripPrefix("/discord-proxy", fd))
	t.Cleanup(proxy.Close)
	a, err := New(Config{Token: "test-token", APIBase: proxy.URL + "/discord-proxy/"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.PostTop(t.Context(), "100", "headline through the proxy"); err != nil {
		t.Fatal(err)
	}
	r := fd.waitFor(t, "the headline through the proxy", isMessagePost("100"))
	if r.JSON["content"] != "headline through the proxy" {
		t.Errorf("the proxy got %v", r.JSON)
	}
}

// recordingTransport records the URLs it is asked for.
type recordingTransport struct{ urls []string }

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.urls = append(rt.urls, r.URL.String()+" host="+r.Host)
	return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
}

func TestTheAPIBaseRewritesOnlyDiscordsAPIHost(t *testing.T) {
	base, err := apiBaseURL("https://proxy.example:8443/d/")
	if err != nil {
		t.Fatal(err)
	}
	rt := &recordingTransport{}
	c := withAPIBase(&http.Client{Transport: rt}, base)
	for _, u := range []string{"https://discord.com/api/v9/channels/1/messages", "https://cdn.discordapp.com/avatars/1/a.png"} {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := []string{
		"https://proxy.example:8443/d/api/v9/channels/1/messages host=proxy.example:8443",
		"https://cdn.discordapp.com/avatars/1/a.png host=cdn.discordapp.com",
	}
	if strings.Join(rt.urls, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests went to\n%s\nwant\n%s", strings.Join(rt.urls, "\n"), strings.Join(want, "\n"))
	}
}

func TestABadAPIBaseIsRefused(t *testing.T) {
	for _, raw := range []string{"discord-proxy.local", "ftp://proxy.example", "https://proxy.example/?x=1", "https://"} {
		t.Run(raw, func(t *testing.T) {
			if _, err := New(Config{Token: "abc", APIBase: raw}, nil, nil); err == nil || !strings.Contains(err.Error(), "API base") {
				t.Fatalf("New with APIBase %q = %v, want it refused", raw, err)
			}
		})
	}
}

func TestTheAPIBasesPasswordNeverReachesALog(t *testing.T) {
	var b bytes.Buffer
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "discord", Config{Token: "abc", APIBase: "https://user:hunter2@proxy.example"})
	if strings.Contains(b.String(), "hunter2") || !strings.Contains(b.String(), "proxy.example") {
		t.Errorf("logged %s", b.String())
	}
}
