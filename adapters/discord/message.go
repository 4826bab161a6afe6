package discord

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// threadArchiveMinutes is how long a quiet answer thread stays open.
const threadArchiveMinutes = 1440

// onMessage answers a message when it is addressed to the bot: a direct
// message, a mention, or (with the message-content intent) any message in
// a thread the bot started. Messages from bots, the bot's own included,
// are ignored.
func (a *Adapter) onMessage(ctx context.Context, m *discordgo.Message) {
	defer a.recoverEvent("MESSAGE_CREATE", a.tellInChannel(m))
	self := a.selfID()
	if m.Author == nil || m.Author.Bot || m.Author.System || m.Author.ID == self {
		return
	}
	if m.Type != discordgo.MessageTypeDefault && m.Type != discordgo.MessageTypeReply {
		return
	}
	d := a.deliveryOf(ctx, "message", m.ID)
	if d.Skip() {
		a.log.Debug("discord: message already handled (replayed delivery)", "id", m.ID)
		return
	}
	defer d.Hold.Settle(ctx)
	if d.Resume != nil {
		a.complete(ctx, d.Hold, d.Resume)
		return
	}
	h := d.Hold
	ctx, cancel := context.WithTimeout(ctx, a.cfg.AnswerTimeout)
	defer cancel()

	mentioned := mentionsUser(m, self)
	text := questionText(m.Content, self)
	q := bot.Message{Platform: "discord", Channel: m.ChannelID, User: m.Author.ID, Text: text, Received: m.Timestamp}
	if text == "" {
		if !mentioned {
			return // nothing to read (or no message-content intent)
		}
		q.Text = "help" // a bare mention asks what the bot can do
	}

	if m.GuildID == "" { // a direct message: one conversation per DM channel
		q.Thread = m.ChannelID
		a.answerInPlace(ctx, h, m, q, "", nil)
		return
	}
	info, err := a.channel(ctx, m.ChannelID)
	if err != nil {
		if !mentioned {
			return
		}
		a.log.Warn("discord: looking up the channel failed; treating it as a channel", "channel", m.ChannelID, "err", err)
	}
	switch {
	case info.thread && (mentioned || (self != "" && info.owner == self)):
		// Inside a thread: answer there, with the thread's memory; a
		// message that asks the bot nothing (thanks, lol, words to
		// someone else) gets no reply unless it mentions the bot.
		if !mentioned && mentionsOthers(m, self) {
			return
		}
		q.Channel, q.Thread = info.parent, m.ChannelID
		if !mentioned {
			// No typing indicator before knowing the message asks
			// something: chatter gets no sign of the bot at all.
			if ans := a.handle(ctx, q); ans.Kind != bot.KindChatter {
				if err := a.postAnswer(ctx, h, m.ChannelID, q, ans, "", nil); err != nil {
					a.reportPostFailure(m.ChannelID, err)
				}
			}
			return
		}
		ans := a.ask(ctx, m.ChannelID, q)
		if err := a.postAnswer(ctx, h, m.ChannelID, q, ans, "", nil); err != nil {
			a.reportPostFailure(m.ChannelID, err)
		}
	case mentioned && !info.thread:
		// A thread started from a message shares its id: the answer's
		// memory is that thread's before it exists.
		q.Thread = m.ID
		ans := a.ask(ctx, m.ChannelID, q)
		if private(ans) {
			// Notices (rate limits, errors, help, chatter) never open a
			// public thread: a brief reply in place. Only a repeat within
			// a burst goes unanswered: the same notice to the same
			// message, or a second rate-limit notice.
			if a.bursts.first(noticeKey(m.ChannelID, m.Author.ID, q.Text, ans), time.Now()) {
				if err := a.postAnswer(ctx, h, m.ChannelID, q, ans, "", reply(m)); err != nil {
					a.reportPostFailure(m.ChannelID, err)
				}
			}
			return
		}
		a.answerInNewThread(ctx, h, m, q, ans)
	}
}

// private reports whether an answer is a notice for the asker rather than
// something to discuss in a thread.
func private(ans bot.Answer) bool {
	switch ans.Kind {
	case bot.KindError, bot.KindRateLimited, bot.KindHelp, bot.KindChatter:
		return true
	case bot.KindClarify:
		return false // its choices are picked in a thread
	}
	return ans.Ephemeral
}

// noticeKey is what makes a notice a repeat within a burst: a limited
// user gets one rate-limit notice whatever they send; any other notice is
// a repeat only for the same words and the same kind of answer.
func noticeKey(channel, user, text string, ans bot.Answer) string {
	key := channel + "/" + user + "/" + string(ans.Kind)
	if ans.Kind == bot.KindRateLimited {
		return key
	}
	return key + "/" + strings.ToLower(strings.Join(strings.Fields(text), " "))
}

// mentionsOthers reports whether the message mentions someone other than
// the bot: in a thread, it talks to them.
func mentionsOthers(m *discordgo.Message, self string) bool {
	for _, u := range m.Mentions {
		if u != nil && u.ID != self {
			return true
		}
	}
	return strings.Contains(m.Content, "<@") && !strings.Contains(m.Content, "<@"+self+">") && !strings.Contains(m.Content, "<@!"+self+">")
}

// answerInNewThread starts a public thread from the mentioning message and
// answers there, the thread's start and the answer one job in the journal
// entry h. Without permission to start it (or to post in it) the answer
// goes in the channel as a reply, and the channel is told why once.
func (a *Adapter) answerInNewThread(ctx context.Context, h *bot.Hold, m *discordgo.Message, q bot.Message, ans bot.Answer) {
	// A thread started from a message shares its id.
	threadID := m.ID
	start, _ := json.Marshal(threadStart{Channel: m.ChannelID, Message: m.ID, Name: threadName(q.Text)})
	job := &bot.PostJob{Channel: m.ChannelID, Conversation: q.Thread, Posts: []bot.JobPost{{Kind: postThread, Body: start}}}
	notice := ""
	if !a.cfg.MessageContent {
		notice = noticeFollowUps
	}
	chart, err := a.answerPosts(ctx, job, threadID, q, ans, notice, nil)
	if err == nil {
		err = h.Post(ctx, job, a.poster(chart))
	}
	if err == nil || !isThreadError(err) {
		a.channels.put(threadID, channelInfo{thread: true, parent: m.ChannelID, owner: a.selfID()})
	}
	if err == nil {
		return
	}
	notice = ""
	switch {
	case isThreadError(err) && missingPermission(err):
		a.log.Info("discord: no permission to start threads; answering in the channel", "channel", m.ChannelID)
		if a.notices.first("threads/" + m.ChannelID) {
			notice = noticeNoThreads
		}
	case isThreadError(err):
		a.log.Warn("discord: starting a thread failed; answering in the channel", "channel", m.ChannelID, "err", err)
	case !missingPermission(err):
		a.log.Error("discord: posting the answer in its thread failed", "thread", threadID, "err", err)
		return
	case a.notices.first("thread-posts/" + m.ChannelID):
		notice = noticeNoThreadPost
	}
	if err := a.postAnswer(ctx, h, m.ChannelID, q, ans, notice, reply(m)); err != nil {
		a.reportPostFailure(m.ChannelID, err)
	}
}

// answerInPlace answers in the channel (or thread, or DM) the message came
// from.
func (a *Adapter) answerInPlace(ctx context.Context, h *bot.Hold, m *discordgo.Message, q bot.Message, notice string, ref *discordgo.MessageReference) {
	ans := a.ask(ctx, m.ChannelID, q)
	if err := a.postAnswer(ctx, h, m.ChannelID, q, ans, notice, ref); err != nil {
		a.reportPostFailure(m.ChannelID, err)
	}
}

// reportPostFailure logs an answer that could not be posted; a missing
// permission (nothing can be said in the channel) is logged once per
// channel.
func (a *Adapter) reportPostFailure(channel string, err error) {
	if !missingPermission(err) {
		a.log.Error("discord: posting the answer failed", "channel", channel, "err", err)
		return
	}
	if a.notices.first("post/" + channel) {
		a.log.Warn("discord: no permission to post answers in this channel (needs View Channel, Send Messages, Embed Links)",
			"channel", channel, "err", err)
	}
}

// ask shows the typing indicator in channel and asks the handler. A panic
// in the handler becomes an error answer for this message only.
func (a *Adapter) ask(ctx context.Context, channel string, q bot.Message) bot.Answer {
	if channel != "" {
		if err := a.s.ChannelTyping(channel, rest(ctx)); err != nil {
			a.log.Debug("discord: typing indicator", "channel", channel, "err", err)
		}
	}
	return a.handle(ctx, q)
}

// handle asks the handler, turning a panic into an error answer.
func (a *Adapter) handle(ctx context.Context, q bot.Message) (ans bot.Answer) {
	defer func() {
		if r := recover(); r != nil {
			ref := newRef()
			a.log.Error("discord: the handler panicked", "ref", ref, "panic", r, "stack", string(debug.Stack()))
			ans = bot.Answer{Kind: bot.KindError, Ephemeral: true, Headline: failureText(ref)}
		}
	}()
	if q.Received.IsZero() {
		q.Received = time.Now()
	}
	return a.h.Handle(ctx, q)
}

// mentionsUser reports whether the message mentions the user id.
func mentionsUser(m *discordgo.Message, id string) bool {
	if id == "" {
		return false
	}
	for _, u := range m.Mentions {
		if u != nil && u.ID == id {
			return true
		}
	}
	return false
}

// questionText is the message text without the bot's own mention.
func questionText(content, self string) string {
	if self != "" {
		content = strings.NewReplacer("<@"+self+">", " ", "<@!"+self+">", " ").Replace(content)
	}
	return strings.Join(strings.Fields(content), " ")
}

// threadName names an answer thread after its question.
func threadName(question string) string {
	name := strings.Join(strings.Fields(strings.NewReplacer("*", "", "_", "", "`", "", "#", "").Replace(question)), " ")
	if name == "" {
		return "memdb-oracle"
	}
	return truncate(name, maxThreadName)
}
