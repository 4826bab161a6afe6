package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// feedbackView is what an answer's 👍/👎 form posts: the answer's id, its
// question and the conversation (the voter on the web page).
type feedbackView struct {
	Action       string
	AnswerID     string
	Question     string
	Conversation string
}

// feedbackFor is the 👍/👎 form of an answer, or nil when the site keeps
// no feedback or the answer takes none (help, errors, chatter).
func (s *Site) feedbackFor(question, conversation string, a bot.Answer) *feedbackView {
	card := bot.NewCard(a)
	if s.opts.Feedback == nil || !card.Rated || conversation == "" {
		return nil
	}
	return &feedbackView{Action: s.links().Home() + "feedback", AnswerID: card.ID, Question: question, Conversation: conversation}
}

// feedbackPost stores a 👍/👎 click: one vote per conversation and
// answer, the last click winning. The script gets 204; a plain form post
// goes back to the ask page.
func (s *Site) feedbackPost(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil || s.opts.Feedback == nil {
		http.Error(w, "the feedback could not be read", http.StatusBadRequest)
		return
	}
	v := bot.Vote{AnswerID: strings.TrimSpace(r.PostForm.Get("a")), Platform: "web",
		User: strings.TrimSpace(r.PostForm.Get("c")), Question: strings.TrimSpace(r.PostForm.Get("q")), At: time.Now()}
	switch r.PostForm.Get("v") {
	case "up":
		v.Up = true
	case "down":
	default:
		http.Error(w, "a vote is up or down", http.StatusBadRequest)
		return
	}
	if !conversationID().MatchString(v.User) || len(v.AnswerID) != 12 || len(v.Question) > maxQuestionRunes*4 {
		http.Error(w, "the feedback names no answer of this page", http.StatusBadRequest)
		return
	}
	if _, err := s.opts.Feedback.Record(r.Context(), v); err != nil {
		s.log.ErrorContext(r.Context(), "storing feedback", "err", err)
		http.Error(w, "the feedback could not be stored; please try again", http.StatusServiceUnavailable)
		return
	}
	if r.Header.Get(fragmentHeader) != "" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, s.links().Home(), http.StatusSeeOther)
}
