package discord

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Run opens the gateway session, registers the slash command and answers
// events until ctx ends; then it closes the session and lets answers in
// progress finish for up to Config.ShutdownGrace. discordgo reconnects by
// itself when the connection drops. Run returns nil after a clean shutdown.
func (a *Adapter) Run(ctx context.Context) error {
	if a.cfg.AppID == "" {
		return errors.New("discord: the application id is required to run the bot")
	}
	if a.h == nil {
		return errors.New("discord: a handler is required to run the bot")
	}
	// Answers in progress outlive ctx by the grace period, no longer.
	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	var inflight tracker
	removes := []func(){
		a.s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) {
			inflight.do(func() { a.onMessage(work, m.Message) })
		}),
		a.s.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) {
			inflight.do(func() { a.onInteraction(work, i.Interaction) })
		}),
		a.s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) {
			a.log.Info("discord: gateway session resumed")
		}),
	}
	removeAll := func() {
		for _, r := range removes {
			r()
		}
	}
	if err := a.s.Open(); err != nil {
		removeAll()
		return fmt.Errorf("discord: opening the gateway session: %w", err)
	}
	if err := a.registerCommand(ctx); err != nil {
		removeAll()
		a.closeSession()
		if ctx.Err() != nil {
			return nil // shut down while starting
		}
		return err
	}
	a.log.Info("discord: connected", "user", a.selfID(), "command", "/"+a.cfg.Command,
		"guild", a.cfg.GuildID, "message_content", a.cfg.MessageContent)

	// Answers a stopped run left half-posted (this process before a
	// restart, or the replica that held the gateway) are completed now,
	// and whenever a replica's stop leaves more.
	var sweep sync.WaitGroup
	sweep.Go(func() { a.resumeJobs(ctx) })
	<-ctx.Done()
	sweep.Wait()
	removeAll()
	a.closeSession()
	grace := time.NewTimer(a.cfg.ShutdownGrace)
	defer grace.Stop()
	select {
	case <-inflight.idle():
	case <-grace.C:
		a.log.Warn("discord: answers still in progress at shutdown; cancelling them")
		stopWork()
		<-inflight.idle()
	}
	return nil
}

func (a *Adapter) closeSession() {
	if err := a.s.Close(); err != nil {
		a.log.Warn("discord: closing the gateway session", "err", err)
	}
}

// registerCommand creates (or updates, by name) the slash command, in the
// configured guild or globally.
func (a *Adapter) registerCommand(ctx context.Context) error {
	_, err := a.s.ApplicationCommandCreate(a.cfg.AppID, a.cfg.GuildID, slashCommand(a.cfg.Command), rest(ctx))
	if err != nil {
		return fmt.Errorf("discord: registering /%s: %w", a.cfg.Command, err)
	}
	return nil
}

// recoverEvent, deferred at the top of an event handler, turns a panic into
// a log line with a reference so that one bad event never ends the
// session, and tells the asker that reference (tell; nil tells no one).
func (a *Adapter) recoverEvent(event string, tell func(ref string)) {
	r := recover()
	if r == nil {
		return
	}
	ref := newRef()
	a.log.Error("discord: panic while handling an event", "event", event, "ref", ref, "panic", r, "stack", string(debug.Stack()))
	if tell == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("discord: panic while telling the asker about a failure", "ref", ref, "panic", r)
		}
	}()
	tell(ref)
}

// failureText is what an asker reads when answering them failed.
func failureText(ref string) string {
	return "Something went wrong while answering, ref " + ref + ". It has been logged; please try again."
}

// newRef is a short random reference tying what the asker reads to the log line.
func newRef() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(b[:])
}

// tellInChannel replies to m with the failure reference.
func (a *Adapter) tellInChannel(m *discordgo.Message) func(ref string) {
	return func(ref string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := a.s.ChannelMessageSendComplex(m.ChannelID, &discordgo.MessageSend{
			Content:         failureText(ref),
			Reference:       m.Reference(),
			AllowedMentions: noMentions(),
		}, rest(ctx))
		if err != nil {
			a.log.Warn("discord: telling the asker about a failure", "ref", ref, "err", err)
		}
	}
}

// tellInteraction answers the interaction, or follows it up when it was
// already answered, with the failure reference, visible to the asker only.
func (a *Adapter) tellInteraction(i *discordgo.Interaction) func(ref string) {
	return func(ref string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: failureText(ref), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()},
		}, rest(ctx))
		if err == nil {
			return
		}
		_, err = a.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: failureText(ref), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()}, rest(ctx))
		if err != nil {
			a.log.Warn("discord: telling the asker about a failure", "ref", ref, "err", err)
		}
	}
}

// tracker counts event handlers in progress so shutdown can wait for them.
type tracker struct {
	mu   sync.Mutex
	n    int
	done chan struct{} // closed when n drops to zero; nil while n == 0
}

func (t *tracker) do(f func()) {
	t.mu.Lock()
	if t.n == 0 {
		t.done = make(chan struct{})
	}
	t.n++
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.n--
		if t.n == 0 {
			close(t.done)
			t.done = nil
		}
		t.mu.Unlock()
	}()
	f()
}

// idle returns a channel closed when no handler is in progress.
func (t *tracker) idle() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		c := make(chan struct{})
		close(c)
		return c
	}
	return t.done
}
