package slack

import (
	"context"
	"log/slog"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// runSocketMode holds a Socket Mode connection (apps.connections.open with
// the app token, then a websocket) until ctx is done, acknowledging each
// envelope at once and handling it exactly as the HTTP endpoints do.
func (a *Adapter) runSocketMode(ctx context.Context) error {
	client := socketmode.New(a.api,
		socketmode.OptionLog(slog.NewLogLogger(a.log.Handler(), slog.LevelDebug)))
	go a.socketEvents(ctx, client)
	return client.RunContext(ctx)
}

// socketEvents reads the Socket Mode client's events until ctx is done.
func (a *Adapter) socketEvents(ctx context.Context, client *socketmode.Client) {
	for {
		select {
		case <-ctx.Done():
			return
		case evt := <-client.Events:
			a.onSocketEvent(ctx, client, evt)
		}
	}
}

func (a *Adapter) onSocketEvent(ctx context.Context, client *socketmode.Client, evt socketmode.Event) {
	switch evt.Type {
	case socketmode.EventTypeConnected:
		a.log.Info("slack socket mode connected")
	case socketmode.EventTypeConnectionError:
		a.log.Warn("slack socket mode connection failed; retrying", "err", eventErr(evt.Data))
	case socketmode.EventTypeInvalidAuth:
		a.log.Error("slack socket mode: the app token was refused")
	case socketmode.EventTypeEventsAPI:
		ev, ok := evt.Data.(slackevents.EventsAPIEvent)
		a.ack(client, evt, nil)
		if ok {
			if evt.Request != nil && evt.Request.RetryAttempt > 0 {
				a.log.Debug("slack event retry", "retry", evt.Request.RetryAttempt, "reason", evt.Request.RetryReason)
			}
			a.onEvent(ctx, ev)
		}
	case socketmode.EventTypeSlashCommand:
		cmd, ok := evt.Data.(slackgo.SlashCommand)
		if !ok {
			a.ack(client, evt, nil)
			return
		}
		a.ack(client, evt, a.onCommand(ctx, cmd, triggerHash(cmd)))
	case socketmode.EventTypeInteractive:
		cb, ok := evt.Data.(slackgo.InteractionCallback)
		a.ack(client, evt, nil)
		if ok {
			a.onInteraction(ctx, cb)
		}
	}
}

// ack acknowledges an envelope, with the immediate reply when there is one.
func (a *Adapter) ack(client *socketmode.Client, evt socketmode.Event, reply *reply) {
	if evt.Request == nil {
		return
	}
	var err error
	if reply != nil {
		err = client.Ack(*evt.Request, reply)
	} else {
		err = client.Ack(*evt.Request)
	}
	if err != nil {
		a.log.Error("slack socket mode: acknowledging failed; Slack will retry", "type", evt.Type, "err", err)
	}
}

func eventErr(data any) any {
	if e, ok := data.(*slackgo.ConnectionErrorEvent); ok {
		return e.ErrorObj
	}
	return data
}
