package web

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Limits on what the ask form accepts (the API's limits).
const (
	maxQuestionRunes = 2000
	maxFormBytes     = 16 << 10
	// maxEarlier is how many earlier questions of a conversation the page
	// without JavaScript carries along and lists.
	maxEarlier = 10
)

// conversationID is the thread a page's follow-ups share: random, made by
// the server on the first question.
//
// Compiled on first use: a process that never needs it does not pay for it at start.
var conversationID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`) })

// fragmentHeader marks a request from the page's script, which wants the
// answer alone to insert into the conversation it already shows.
const fragmentHeader = "X-Memdb-Oracle-Fragment"

// askPage is the ask page's data.
type askPage struct {
	pageBase
	Examples []string
	// Conversation is the thread id follow-ups use; empty before the first
	// question.
	Conversation string
	// Earlier are the conversation's earlier questions (newest last).
	Earlier []string
	Answer  *answerView
	// Problem is what was wrong with the form, shown next to the box.
	Problem string
	// Last is the question just asked, for ↑ to bring back.
	Last string
	// Prefill is what the box holds when the page opens.
	Prefill string
	// SignIn is the sign-in form's URL when the page was refused for a
	// missing key and the site offers signing in; "" hides the form.
	SignIn string
}

// Carry are the questions the next post sends back as h: the earlier ones
// and the last, at most maxEarlier.
func (p askPage) Carry() []string {
	all := p.Earlier
	if p.Answer != nil {
		all = append(all[:len(all):len(all)], p.Answer.Question)
	}
	return all[max(0, len(all)-maxEarlier):]
}

func (s *Site) home(w http.ResponseWriter, r *http.Request) {
	// ?q= fills the box (links from the dataset page); it never asks, so
	// following a link spends nothing.
	prefill := r.URL.Query().Get("q")
	if utf8.RuneCountInString(prefill) > maxQuestionRunes {
		prefill = ""
	}
	s.render(w, r, http.StatusOK, "ask", askPage{pageBase: s.base("Ask"), Examples: s.opts.Examples, Prefill: prefill})
}

// askPost answers the form: q is the typed question, chip an example
// clicked, c the conversation and h the earlier questions (for the page
// without JavaScript). The script gets the answer alone; a plain post gets
// the whole page again with the answer under the conversation so far.
func (s *Site) askPost(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	page := askPage{pageBase: s.base("Ask"), Examples: s.opts.Examples}
	if err := r.ParseForm(); err != nil {
		page.Problem = "The form could not be read; ask again."
		s.render(w, r, http.StatusBadRequest, "ask", page)
		return
	}
	q, conv, earlier := readAskForm(r)
	if conv == "" {
		conv = newConversation()
	}
	page.Conversation, page.Earlier = conv, earlier
	fragment := r.Header.Get(fragmentHeader) != ""
	switch {
	case q == "":
		page.Problem = "Type a question first, or pick one of the examples."
	case utf8.RuneCountInString(q) > maxQuestionRunes:
		page.Problem = "That question is longer than 2000 characters; shorten it."
		page.Prefill = q
	}
	if page.Problem != "" {
		if fragment {
			s.render(w, r, http.StatusBadRequest, "problem", page)
			return
		}
		s.render(w, r, http.StatusBadRequest, "ask", page)
		return
	}
	// As for POST /api/ask, the Guard already applied the client's limits,
	// so the message carries neither user nor channel for the bot's own.
	a := s.ask.Handle(r.Context(), bot.Message{Platform: "http", Thread: conv, Text: q, Received: start})
	v := s.viewAnswer(q, a)
	v.Feedback = s.feedbackFor(q, conv, a)
	page.Answer, page.Last = &v, q
	status := http.StatusOK
	if a.Kind == bot.KindRateLimited {
		status = http.StatusTooManyRequests
	}
	s.log.InfoContext(r.Context(), "answered", "route", "/", "kind", a.Kind, "conversation", conv,
		"fragment", fragment, "duration_ms", time.Since(start).Milliseconds())
	if fragment {
		w.Header().Set("X-Conversation", conv)
		s.render(w, r, status, "answer", page)
		return
	}
	s.render(w, r, status, "ask", page)
}

// readAskForm reads a parsed ask form: the question (an example clicked
// wins over the box), the conversation id when it is a valid one, and the
// earlier questions the page without JavaScript carries along.
func readAskForm(r *http.Request) (q, conv string, earlier []string) {
	q = strings.TrimSpace(r.PostForm.Get("chip"))
	if q == "" {
		q = strings.TrimSpace(r.PostForm.Get("q"))
	}
	if c := r.PostForm.Get("c"); conversationID().MatchString(c) {
		conv = c
	}
	for _, e := range r.PostForm["h"] {
		if e = strings.TrimSpace(e); e != "" && utf8.RuneCountInString(e) <= maxQuestionRunes {
			earlier = append(earlier, e)
		}
	}
	return q, conv, earlier
}

func newConversation() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
