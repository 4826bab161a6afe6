package discord

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// discordHost is the host discordgo builds every REST URL on
// (discordgo.EndpointDiscord).
const discordHost = "discord.com"

// apiBaseURL checks Config.APIBase: an absolute http(s) URL whose path
// (often empty) prefixes Discord's own paths, so that /api/v9/… lands at
// base/api/v9/….
func apiBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("discord: API base (DISCORD_API_BASE) %q: want an absolute http(s) URL such as https://discord.com", raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// withAPIBase returns a copy of client whose requests for Discord's API
// host go to base instead; requests to other hosts (the CDN) are left
// alone. discordgo builds its URLs from package variables, and rewriting
// in the session's own client leaves those shared globals untouched.
func withAPIBase(client *http.Client, base *url.URL) *http.Client {
	c := *client
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = apiBase{base: base, next: next}
	return &c
}

// apiBase is the transport withAPIBase installs.
type apiBase struct {
	base *url.URL
	next http.RoundTripper
}

func (t apiBase) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != discordHost {
		return t.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = t.base.Scheme, t.base.Host, t.base.Host
	if r.URL.RawPath != "" {
		r.URL.RawPath = t.base.EscapedPath() + r.URL.RawPath
	}
	r.URL.Path = t.base.Path + r.URL.Path
	return t.next.RoundTrip(r)
}

// redactedURL shows a URL for a log without any password in it.
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}
