package slack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"syscall"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// outbound is everything the adapter sends to Slack: messages, ephemeral
// notices, response-URL replies and chart uploads, each retried on rate
// limits and transient failures.
type outbound struct {
	api     *slackgo.Client
	http    *http.Client
	retries int
	sleep   func(ctx context.Context, d time.Duration) error
	log     *slog.Logger
	lanes   *lanes
}

// post posts a message to a channel, in a thread when thread is set, and
// returns its timestamp.
func (o *outbound) post(ctx context.Context, channel, thread string, m message) (string, error) {
	opts := []slackgo.MsgOption{
		slackgo.MsgOptionText(m.Text, false),
		slackgo.MsgOptionBlocks(m.Blocks...),
		slackgo.MsgOptionDisableLinkUnfurl(),
		slackgo.MsgOptionDisableMediaUnfurl(),
	}
	if thread != "" {
		opts = append(opts, slackgo.MsgOptionTS(thread))
	}
	var ts string
	err := o.retry(ctx, "chat.postMessage", channel, func(ctx context.Context) error {
		var err error
		_, ts, err = o.api.PostMessageContext(ctx, channel, opts...)
		return err
	})
	return ts, err
}

// postMessage posts a message like post; when Slack refuses its native
// table (invalid_blocks), the same content with the table as monospace
// text goes instead. It returns the first posted message's timestamp.
func (o *outbound) postMessage(ctx context.Context, channel, thread string, m message) (string, error) {
	ts, err := o.post(ctx, channel, thread, m)
	if err == nil || len(m.Plain) == 0 || !slackRefused(err, "invalid_blocks") {
		return ts, err
	}
	o.log.Info("Slack refused a table block; posting the table as monospace text", "channel", channel, "err", err)
	first := ""
	for _, pm := range m.Plain {
		ts, err := o.post(ctx, channel, thread, pm)
		if err != nil {
			return first, err
		}
		if first == "" {
			first = ts
		}
		if thread == "" {
			thread = ts // the rest of a refused top message follows in its thread
		}
	}
	return first, nil
}

// ephemeral shows a message to one user only.
func (o *outbound) ephemeral(ctx context.Context, channel, user, thread string, m message) error {
	opts := []slackgo.MsgOption{slackgo.MsgOptionText(m.Text, false), slackgo.MsgOptionBlocks(m.Blocks...)}
	if thread != "" {
		opts = append(opts, slackgo.MsgOptionTS(thread))
	}
	return o.retry(ctx, "chat.postEphemeral", channel, func(ctx context.Context) error {
		_, err := o.api.PostEphemeralContext(ctx, channel, user, opts...)
		return err
	})
}

// respond replies through a slash command's or a button's response URL:
// ephemeral, or in the channel where the bot may not post itself.
func (o *outbound) respond(ctx context.Context, responseURL string, m message, inChannel bool) error {
	kind := slackgo.ResponseTypeEphemeral
	if inChannel {
		kind = slackgo.ResponseTypeInChannel
	}
	blocks := slackgo.Blocks{BlockSet: m.Blocks}
	msg := &slackgo.WebhookMessage{Text: m.Text, Blocks: &blocks, ResponseType: kind}
	return o.retry(ctx, "response_url", "", func(ctx context.Context) error {
		return hideURL(slackgo.PostWebhookCustomHTTPContext(ctx, responseURL, o.http, msg))
	})
}

// upload puts a chart PNG into a thread with its title and alternative
// text, using Slack's external upload flow (files.getUploadURLExternal, the
// upload, files.completeUploadExternal).
func (o *outbound) upload(ctx context.Context, channel, thread string, png []byte, title, alt string) error {
	return o.retry(ctx, "files.uploadV2", channel, func(ctx context.Context) error {
		_, err := o.api.UploadFileContext(ctx, slackgo.UploadFileParameters{
			Reader:          bytes.NewReader(png),
			FileSize:        len(png),
			Filename:        "chart.png",
			Title:           truncate(title, 250),
			AltTxt:          truncate(alt, 1000),
			Channel:         channel,
			ThreadTimestamp: thread,
		})
		return err
	})
}

// retry runs call until it succeeds, fails for good, or the retries run
// out: a 429 waits its Retry-After, transient failures (5xx, Slack's own
// internal errors, dropped connections) back off exponentially.
func (o *outbound) retry(ctx context.Context, method, channel string, call func(context.Context) error) error {
	for attempt := 1; ; attempt++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		wait, ok := retryable(err, attempt)
		if !ok || attempt > o.retries || ctx.Err() != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		o.log.Warn("slack call failed; retrying", "method", method, "channel", channel, "attempt", attempt, "wait", wait, "err", err)
		if err := o.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: waiting to retry: %w", method, err)
		}
	}
}

// slackBackoff spaces the retries of transient failures (bot.Backoff:
// exponential with jitter).
var slackBackoff = bot.Backoff{Base: 500 * time.Millisecond, Max: 30 * time.Second}

// retryable says whether a failed call is worth repeating and after how
// long.
func retryable(err error, attempt int) (time.Duration, bool) {
	backoff := slackBackoff.Delay(attempt)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return 0, false
	}
	if rl, ok := errors.AsType[*slackgo.RateLimitedError](err); ok {
		return max(rl.RetryAfter, time.Second), true
	}
	if sc, ok := errors.AsType[slackgo.StatusCodeError](err); ok {
		if sc.Code == http.StatusTooManyRequests {
			return max(backoff, time.Second), true
		}
		return backoff, sc.Code >= 500
	}
	if se, ok := errors.AsType[slackgo.SlackErrorResponse](err); ok {
		switch se.Err {
		case "ratelimited":
			return max(backoff, time.Second), true
		case "internal_error", "fatal_error", "service_unavailable", "request_timeout":
			return backoff, true
		}
		return 0, false
	}
	if _, ok := errors.AsType[net.Error](err); ok {
		return backoff, true
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) {
		return backoff, true
	}
	return 0, false
}

// cannotPost reports whether Slack refused a post because the bot is not
// in the channel (so a response URL must carry the answer).
func cannotPost(err error) bool {
	se, ok := errors.AsType[slackgo.SlackErrorResponse](err)
	if !ok {
		return false
	}
	switch se.Err {
	case "channel_not_found", "not_in_channel", "is_archived", "restricted_action":
		return true
	}
	return false
}

// slackRefused reports whether Slack answered a call with the error code.
func slackRefused(err error, code string) bool {
	se, ok := errors.AsType[slackgo.SlackErrorResponse](err)
	return ok && se.Err == code
}

// hideURL keeps a response URL — a credential for posting — out of error
// messages and so out of logs.
func hideURL(err error) error {
	ue, ok := errors.AsType[*url.Error](err)
	if !ok {
		return err
	}
	host := "response URL"
	if u, perr := url.Parse(ue.URL); perr == nil {
		host = u.Scheme + "://" + u.Host
	}
	return &url.Error{Op: ue.Op, URL: host + "/…", Err: ue.Err}
}

// lanes serialises the posts to one channel, so an answer's messages and a
// digest's never interleave.
type lanes struct {
	mu [64]sync.Mutex
}

func newLanes() *lanes { return &lanes{} }

// lock takes the lane of a channel and returns its unlock.
func (l *lanes) lock(channel string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(channel))
	m := &l.mu[h.Sum32()%uint32(len(l.mu))]
	m.Lock()
	return m.Unlock
}
