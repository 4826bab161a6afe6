package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// Paths of the HTTP endpoints, as in the app manifest.
const (
	EventsPath        = "/slack/events"
	CommandsPath      = "/slack/commands"
	InteractivityPath = "/slack/interactivity"
)

// Mount adds the Events API, slash command and interactivity endpoints to
// mux. Every request is verified with the signing secret first.
func (a *Adapter) Mount(mux *http.ServeMux) error {
	if a.cfg.SigningSecret.IsZero() {
		return errors.New("slack: the HTTP endpoints need a signing secret (SLACK_SIGNING_SECRET)")
	}
	mux.Handle("POST "+EventsPath, a.verified(a.serveEvents))
	mux.Handle("POST "+CommandsPath, a.verified(a.serveCommand))
	mux.Handle("POST "+InteractivityPath, a.verified(a.serveInteraction))
	return nil
}

// verified reads a size-capped body and checks Slack's signature and
// timestamp (at most five minutes old) before anything else sees the
// request; a failure is a 401 and touches nothing.
func (a *Adapter) verified(next func(w http.ResponseWriter, r *http.Request, body []byte)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.cfg.MaxBody))
		if err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				a.log.Warn("slack request rejected: body too large", "path", r.URL.Path, "limit", a.cfg.MaxBody)
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "reading the request body failed", http.StatusBadRequest)
			return
		}
		sv, err := slackgo.NewSecretsVerifier(r.Header, a.cfg.SigningSecret.Reveal())
		if err == nil {
			_, _ = sv.Write(body)
			err = sv.Ensure()
		}
		if err != nil {
			// A flood of forged requests is counted exactly and logged a
			// line per source a minute, not a line a request.
			a.rejected.Add(1)
			source, _, _ := net.SplitHostPort(r.RemoteAddr)
			if n, log := a.rejections.Note(source); log {
				a.log.Warn("slack request rejected", "path", r.URL.Path, "reason", err, "remote", source, "rejected_in_last_minute", n)
			}
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		next(w, r, body)
	})
}

// serveEvents answers the url_verification challenge and acknowledges
// event callbacks at once, queueing their work.
func (a *Adapter) serveEvents(w http.ResponseWriter, r *http.Request, body []byte) {
	ev, err := slackevents.ParseEvent(json.RawMessage(body), slackevents.OptionNoVerifyToken())
	if err != nil {
		a.log.Warn("slack event not understood", "err", err)
		// 200 all the same: a retry would not be understood either.
		w.WriteHeader(http.StatusOK)
		return
	}
	switch ev.Type {
	case slackevents.URLVerification:
		v, _ := ev.Data.(*slackevents.EventsAPIURLVerificationEvent)
		if v == nil {
			http.Error(w, "bad url_verification", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, v.Challenge)
		return
	case slackevents.AppRateLimited:
		a.log.Warn("Slack is rate-limiting events sent to this app; some questions were not delivered")
	case slackevents.CallbackEvent:
		if n := r.Header.Get("X-Slack-Retry-Num"); n != "" {
			a.log.Debug("slack event retry", "retry", n, "reason", r.Header.Get("X-Slack-Retry-Reason"))
		}
		a.onEvent(context.WithoutCancel(r.Context()), ev)
	}
	w.WriteHeader(http.StatusOK)
}

// serveCommand acknowledges a slash command within Slack's three seconds.
func (a *Adapter) serveCommand(w http.ResponseWriter, r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	cmd, err := slackgo.SlashCommandParse(r)
	if err != nil {
		http.Error(w, "bad slash command", http.StatusBadRequest)
		return
	}
	reply := a.onCommand(context.WithoutCancel(r.Context()), cmd, requestHash(r.Header, body))
	if reply == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(reply)
}

// serveInteraction acknowledges a button click and queues its question.
func (a *Adapter) serveInteraction(w http.ResponseWriter, r *http.Request, body []byte) {
	form, err := url.ParseQuery(string(body))
	if err != nil {
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	var cb slackgo.InteractionCallback
	if err := json.Unmarshal([]byte(form.Get("payload")), &cb); err != nil {
		http.Error(w, "bad interaction payload", http.StatusBadRequest)
		return
	}
	a.onInteraction(context.WithoutCancel(r.Context()), cb)
	w.WriteHeader(http.StatusOK)
}
