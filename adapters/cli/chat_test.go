package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// recorder is a fake Handler that remembers every message and answers
// with a headline naming the question and its thread.
type recorder struct {
	mu   sync.Mutex
	msgs []bot.Message
	seen chan bot.Message // optional: each message is also sent here
}

func (r *recorder) Handle(_ context.Context, m bot.Message) bot.Answer {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	if r.seen != nil {
		r.seen <- m
	}
	a := bot.Answer{Kind: bot.KindAnswer, Headline: fmt.Sprintf("answer to %q in thread %q", m.Text, m.Thread)}
	if m.Text == "ambiguous?" {
		a.Kind, a.Choices = bot.KindClarify, []string{"Dragonfly at 8 cores", "Valkey at 8 cores"}
	}
	return a
}

func headline(a bot.Answer) string { return a.Headline + "\n" }

func counter() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("t%d", n) }
}

func TestChatRun(t *testing.T) {
	tests := []struct {
		name        string
		input       string
		interactive bool
		want        string
		wantAsked   []bot.Message
	}{
		{
			name:  "follow-ups share one thread and /new starts another",
			input: "Dragonfly at 8 cores\nwhat about valkey?\n\n/new\nand the p99?\n",
			want: "> Dragonfly at 8 cores\nanswer to \"Dragonfly at 8 cores\" in thread \"t1\"\n\n" +
				"> what about valkey?\nanswer to \"what about valkey?\" in thread \"t1\"\n\n" +
				"> /new\n(new thread: earlier questions are forgotten)\n\n" +
				"> and the p99?\nanswer to \"and the p99?\" in thread \"t2\"\n\n",
			wantAsked: []bot.Message{
				{Platform: "cli", Thread: "t1", Text: "Dragonfly at 8 cores"},
				{Platform: "cli", Thread: "t1", Text: "what about valkey?"},
				{Platform: "cli", Thread: "t2", Text: "and the p99?"},
			},
		},
		{
			name:  "help lists the commands and asks the bot for help outside the thread",
			input: "/help\n",
			want:  "> /help\n" + chatCommands + "\n\nanswer to \"help\" in thread \"\"\n\n",
			wantAsked: []bot.Message{
				{Platform: "cli", Text: "help"},
			},
		},
		{
			name:  "typing a number or \"the first one\" after a clarify asks that choice; a number without choices is a question",
			input: "ambiguous?\n2\n2\nambiguous?\nthe first one\n",
			want: "> ambiguous?\nanswer to \"ambiguous?\" in thread \"t1\"\n\n" +
				"> 2\n(asking: Valkey at 8 cores)\nanswer to \"Valkey at 8 cores\" in thread \"t1\"\n\n" +
				"> 2\nanswer to \"2\" in thread \"t1\"\n\n" +
				"> ambiguous?\nanswer to \"ambiguous?\" in thread \"t1\"\n\n" +
				"> the first one\n(asking: Dragonfly at 8 cores)\nanswer to \"Dragonfly at 8 cores\" in thread \"t1\"\n\n",
			wantAsked: []bot.Message{
				{Platform: "cli", Thread: "t1", Text: "ambiguous?"},
				{Platform: "cli", Thread: "t1", Text: "Valkey at 8 cores"},
				{Platform: "cli", Thread: "t1", Text: "2"},
				{Platform: "cli", Thread: "t1", Text: "ambiguous?"},
				{Platform: "cli", Thread: "t1", Text: "Dragonfly at 8 cores"},
			},
		},
		{
			name:  "quit stops before the remaining lines",
			input: "/quit\nnever asked\n",
			want:  "> /quit\n",
		},
		{
			name:  "history lists the thread's questions",
			input: "/history\nfirst\n/history\n",
			want: "> /history\n(no questions in this thread yet)\n\n" +
				"> first\nanswer to \"first\" in thread \"t1\"\n\n" +
				"> /history\n1. first\n\n",
			wantAsked: []bot.Message{
				{Platform: "cli", Thread: "t1", Text: "first"},
			},
		},
		{
			name:  "an unknown command is named and not asked",
			input: "/frobnicate now\n",
			want:  "> /frobnicate now\nunknown command /frobnicate; type /help\n\n",
		},
		{
			name:        "an interactive session shows a banner and prompts instead of echoing",
			input:       "hello",
			interactive: true,
			want: "memdb-oracle chat: questions about Redis, Valkey, Dragonfly, KeyDB and Garnet, answered from measured runs only.\n" +
				"Type /help for commands and examples, /quit to leave.\n" +
				"> answer to \"hello\" in thread \"t1\"\n\n> ",
			wantAsked: []bot.Message{
				{Platform: "cli", Thread: "t1", Text: "hello"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			var out strings.Builder
			c := NewChat(rec, ChatOptions{Interactive: tt.interactive, NewThread: counter(), Render: headline})
			if err := c.Run(t.Context(), strings.NewReader(tt.input), &out); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if out.String() != tt.want {
				t.Errorf("output:\n got: %q\nwant: %q", out.String(), tt.want)
			}
			if fmt.Sprint(rec.msgs) != fmt.Sprint(tt.wantAsked) {
				t.Errorf("asked:\n got: %+v\nwant: %+v", rec.msgs, tt.wantAsked)
			}
		})
	}
}

func TestChatRunStopsWhenTheContextEndsWhileWaitingForInput(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	rec := &recorder{seen: make(chan bot.Message, 1)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- NewChat(rec, ChatOptions{NewThread: counter(), Render: headline}).Run(ctx, pr, io.Discard)
	}()
	if _, err := io.WriteString(pw, "first question\n"); err != nil {
		t.Fatal(err)
	}
	<-rec.seen // the loop is now past the first question, waiting for more input
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
}

func TestChatRunReportsAReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	c := NewChat(&recorder{}, ChatOptions{NewThread: counter(), Render: headline})
	err := c.Run(t.Context(), io.MultiReader(strings.NewReader("q\n"), errReader{boom}), io.Discard)
	if !errors.Is(err, boom) {
		t.Fatalf("Run returned %v, want it to wrap %v", err, boom)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// chartAnswerer answers with a chart.
type chartAnswerer struct{}

func (chartAnswerer) Handle(context.Context, bot.Message) bot.Answer {
	return bot.Answer{Kind: bot.KindAnswer, Headline: "scaling", Chart: &bot.Chart{Title: "t", AltText: "Dragonfly 2.0M–15.5M ops/s"}}
}

func TestChatSavesTheChartAfterTheTextAndReportsAFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		save func(bot.Chart) (string, error)
		want string
	}{
		{"a saved chart prints its path and alt text", func(bot.Chart) (string, error) { return "/tmp/c.png", nil }, "Chart: /tmp/c.png (Dragonfly 2.0M–15.5M ops/s)"},
		{"a failed chart is reported after the text", func(bot.Chart) (string, error) { return "", errors.New("no points") }, "(the chart could not be drawn: no points)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			err := NewChat(chartAnswerer{}, ChatOptions{SaveChart: tc.save, Render: headline}).Run(t.Context(), strings.NewReader("how does it scale?\n"), &out)
			if err != nil {
				t.Fatal(err)
			}
			text := out.String()
			if !strings.Contains(text, tc.want) || strings.Index(text, "scaling") > strings.Index(text, tc.want) {
				t.Errorf("output lacks %q after the answer:\n%s", tc.want, text)
			}
		})
	}
}
