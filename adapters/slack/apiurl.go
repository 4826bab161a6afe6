package slack

import (
	"fmt"
	"net/url"
	"strings"
)

// normalizeAPIURL checks a Web API base URL (Config.APIURL) and gives it
// the trailing slash slack-go appends method names to. Empty stays empty:
// Slack's own API.
func normalizeAPIURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("slack: API URL (SLACK_API_URL) %q: want an absolute http(s) URL such as https://slack.com/api/", raw)
	}
	if !strings.HasSuffix(raw, "/") {
		raw += "/"
	}
	return raw, nil
}
