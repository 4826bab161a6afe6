package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// pageRefusals shows a browser the Guard's refusals (a missing API key, a
// rate limit) as the ask page with the reason next to the box and the
// question still in it. The Guard answers in JSON, which a browser posting
// the form without the page's script would show raw; the script's own
// requests (fragmentHeader) keep the JSON, which it reads.
func (s *Site) pageRefusals(guarded http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(fragmentHeader) != "" {
			guarded.ServeHTTP(w, r)
			return
		}
		c := &refusalCatcher{ResponseWriter: w}
		guarded.ServeHTTP(c, r)
		if !c.caught {
			return
		}
		posted := r.Method == http.MethodPost
		page := askPage{pageBase: s.base("Ask"), Examples: s.opts.Examples,
			Problem: refusalText(c.status, c.body.Bytes(), w.Header().Get("Retry-After"), posted)}
		if c.status == http.StatusUnauthorized && s.opts.SignIn != nil {
			// A browser cannot send the header the API asks for: offer the form.
			page.SignIn = s.opts.BasePath + "/signin"
			page.Problem = "Sign in with an API key to use these pages."
			if r.URL.Path == s.opts.BasePath+"/signin" {
				page.Problem = "That API key is not valid; check it and sign in again."
			}
			posted = false // the sign-in form's fields are not a question
		}
		if posted {
			r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
			if r.ParseForm() == nil {
				q, conv, earlier := readAskForm(r)
				if utf8.RuneCountInString(q) <= maxQuestionRunes {
					page.Prefill = q
				}
				page.Conversation, page.Earlier = conv, earlier
			}
		}
		s.render(w, r, c.status, "ask", page)
	})
}

// refusalText is the sentence a person reads for a refusal: the Guard's
// own reason, and for a rate-limited question when to ask it again.
func refusalText(status int, body []byte, retryAfter string, posted bool) string {
	var problem struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(body, &problem) // a body that is not the Guard's JSON leaves the status text
	reason := strings.TrimSpace(problem.Error)
	if reason == "" {
		reason = strings.ToLower(http.StatusText(status))
	}
	if !posted {
		return fmt.Sprintf("The server refused the page: %s.", reason)
	}
	if status == http.StatusTooManyRequests && retryAfter != "" {
		return fmt.Sprintf("Not asked: %s. Your question is still in the box; ask again in %s s.", reason, retryAfter)
	}
	return fmt.Sprintf("Not asked: %s.", reason)
}

// refusalCatcher passes a response through unless it is a JSON 401 or 429,
// which it keeps back for pageRefusals to show as a page.
type refusalCatcher struct {
	http.ResponseWriter
	status int
	caught bool
	body   bytes.Buffer
}

func (c *refusalCatcher) WriteHeader(status int) {
	if c.status != 0 {
		return
	}
	c.status = status
	json := strings.HasPrefix(c.Header().Get("Content-Type"), "application/json")
	if json && (status == http.StatusUnauthorized || status == http.StatusTooManyRequests) {
		c.caught = true
		return
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *refusalCatcher) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	if c.caught {
		return c.body.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (c *refusalCatcher) Unwrap() http.ResponseWriter { return c.ResponseWriter }
