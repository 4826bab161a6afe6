package slack

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	slackgo "github.com/slack-go/slack"
)

func TestMarkdownBecomesSlackMrkdwn(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bold becomes single stars", "Dragonfly is **3.4×** faster", "Dragonfly is *3.4×* faster"},
		{"italics become underscores", "the *realistic* cluster", "the _realistic_ cluster"},
		{"links become angle links", "see [the docs](https://redis.io/docs?a=1&b=2)", "see <https://redis.io/docs?a=1&amp;b=2|the docs>"},
		{"headings become bold lines", "## Sources", "*Sources*"},
		{"bullets become dots", "- one\n* two", "• one\n• two"},
		{"markup characters are escaped", "a <!everyone> & <@U1>", "a &lt;!everyone&gt; &amp; &lt;@U1&gt;"},
		{"code spans keep stars and are escaped", "`cores * 2 && x < 3`", "`cores * 2 &amp;&amp; x &lt; 3`"},
		{"fenced code is left alone apart from escaping", "```\n**x** < y\n```", "```\n**x** &lt; y\n```"},
		{"multiplication signs survive", "2 * 3 = 6 and 3.4×", "2 * 3 = 6 and 3.4×"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mrkdwn(tt.in); got != tt.want {
				t.Errorf("mrkdwn(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPlainTextStaysLiteralInAMarkdownBlock(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain words and figures pass unchanged", "Dragonfly has 15.5M ops/s (3.4×), p99 0.42 ms.", "Dragonfly has 15.5M ops/s (3.4×), p99 0.42 ms."},
		{"stars and underscores are not emphasis", "2 * 3 and a_b_c", `2 \* 3 and a\_b\_c`},
		{"a mention, a link and an entity stay text", "<!everyone> [x](http://y) &amp;", `\<!everyone\> \[x\](http://y) \&amp;`},
		{"code ticks and tildes are literal", "`cores` ~48", "\\`cores\\` \\~48"},
		{"a line starting like a list stays a paragraph", "1) Pipeline depth\n- two\n+ three", `1\) Pipeline depth` + "\n" + `\- two` + "\n" + `\+ three`},
		{"a heading or a quote marker is literal", "# Sources > here", `\# Sources \> here`},
		{"a backslash is doubled", `C:\runs`, `C:\\runs`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markdownEscape(tt.in)
			if got != tt.want {
				t.Errorf("markdownEscape(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if back := markdownAsMrkdwn(got); unescape(back) != tt.in {
				t.Errorf("read back as %q, want the text %q", unescape(back), tt.in)
			}
		})
	}
}

func TestQuestionTextDropsTheBotsMentionAndSlacksEscaping(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<@UBOT> Dragonfly at 8 cores", "Dragonfly at 8 cores"},
		{"<@UBOT|oracle>  p99 &lt; 1 ms &amp; 48 cores?", "p99 < 1 ms & 48 cores?"},
		{"ask <@U2> about <@UBOT>", "ask <@U2> about"},
	}
	for _, tt := range tests {
		if got := questionText(tt.in, "UBOT"); got != tt.want {
			t.Errorf("questionText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWhichSlackFailuresAreRetried(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		wait  time.Duration
		retry bool
	}{
		{"429 waits its Retry-After", &slackgo.RateLimitedError{RetryAfter: 30 * time.Second}, 30 * time.Second, true},
		{"429 without Retry-After waits at least a second", slackgo.StatusCodeError{Code: 429}, time.Second, true},
		{"503 backs off", slackgo.StatusCodeError{Code: 503}, 500 * time.Millisecond, true},
		{"Slack's internal_error backs off", slackgo.SlackErrorResponse{Err: "internal_error"}, 500 * time.Millisecond, true},
		{"a refused connection backs off", &url.Error{Op: "Post", URL: "x", Err: errors.New("dial: connection refused")}, 500 * time.Millisecond, true},
		{"not_in_channel is final", slackgo.SlackErrorResponse{Err: "not_in_channel"}, 0, false},
		{"invalid_auth is final", fmt.Errorf("chat: %w", slackgo.SlackErrorResponse{Err: "invalid_auth"}), 0, false},
		{"a 400 is final", slackgo.StatusCodeError{Code: http.StatusBadRequest}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A backoff is jittered between half and all of its step
			// (bot.Backoff); a stated wait is exact.
			wait, retry := retryable(tt.err, 1)
			if retry != tt.retry || (retry && (wait < tt.wait/2 || wait > tt.wait)) {
				t.Errorf("retryable = %v, %v; want %v, %v", wait, retry, tt.wait, tt.retry)
			}
		})
	}
	if w, _ := retryable(slackgo.StatusCodeError{Code: 500}, 20); w < 15*time.Second || w > 30*time.Second {
		t.Errorf("backoff not capped: %v", w)
	}
}

func TestResponseURLsStayOutOfErrors(t *testing.T) {
	err := hideURL(&url.Error{Op: "Post", URL: "https://hooks.slack.com/commands/T1/123/secretpart", Err: errors.New("connection reset")})
	if strings.Contains(err.Error(), "secretpart") || !strings.Contains(err.Error(), "https://hooks.slack.com") {
		t.Fatal(err)
	}
}
