package cli

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Handler answers one message; *bot.Bot satisfies it.
type Handler interface {
	Handle(ctx context.Context, m bot.Message) bot.Answer
}

// ChatOptions configure a chat session. Zero values are usable.
type ChatOptions struct {
	// Interactive prints a banner and a prompt before each question (set it
	// when the input is a terminal). Otherwise each question is echoed as
	// "> question" so a piped transcript reads in order.
	Interactive bool
	// User and Channel identify the asker for rate limits; both empty (the
	// local terminal) means no rate limit applies.
	User    string
	Channel string
	// NewThread returns a fresh thread id; default: random hex.
	NewThread func() string
	// Width is the terminal width tables are laid out for (see Width);
	// 0 means DefaultWidth.
	Width int
	// Render turns an answer into terminal text; default: Text at Width.
	Render func(bot.Answer) string
	// SaveChart draws an answer's chart to a file and returns its path; nil
	// leaves charts out. A failure is reported after the text, never
	// instead of it.
	SaveChart func(bot.Chart) (string, error)
	// Editor, when set, reads each question instead of the input reader:
	// a line editor with history (x/term's Terminal in cmd) that prints
	// its own prompt. Its io.EOF (Ctrl-D, Ctrl-C) ends the session.
	Editor LineEditor
}

// LineEditor reads one edited line at a time.
type LineEditor interface {
	ReadLine() (string, error)
}

// Chat is an interactive session: one thread at a time, follow-ups keep
// context, /new starts a new thread, /help lists commands, /quit ends it.
type Chat struct {
	h    Handler
	opts ChatOptions
}

// NewChat returns a chat session that asks h.
func NewChat(h Handler, opts ChatOptions) *Chat {
	if opts.NewThread == nil {
		opts.NewThread = randomThreadID
	}
	if opts.Width == 0 {
		opts.Width = DefaultWidth
	}
	if opts.Render == nil {
		width := opts.Width
		opts.Render = func(a bot.Answer) string { return Text(a, width) }
	}
	return &Chat{h: h, opts: opts}
}

const chatCommands = `Commands:
  /new      start a new thread (forget the previous questions)
  /help     this list and example questions
  /history  the questions asked in this thread
  /quit     end the session (end of input does too)
Anything else is a question; follow-ups such as "what about valkey?" use the thread's context.`

// Run reads questions line by line from in and writes answers to out until
// /quit, end of input or ctx is done. It returns nil on a normal end and
// ctx.Err() when interrupted.
func (c *Chat) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	lines, stop := readLines(in, c.opts.Editor)
	defer stop()

	thread := c.opts.NewThread()
	var history []string
	// choices are the last clarify answer's readings: typing a number
	// asks that one.
	var choices []string
	if c.opts.Interactive {
		fmt.Fprintln(out, "memdb-oracle chat: questions about Redis, Valkey, Dragonfly, KeyDB and Garnet, answered from measured runs only.")
		fmt.Fprintln(out, "Type /help for commands and examples, /quit to leave.")
	}
	for {
		if c.opts.Interactive && c.opts.Editor == nil {
			fmt.Fprint(out, "> ")
		}
		var line string
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l, ok := <-lines:
			if !ok {
				return nil
			}
			line = strings.TrimSpace(l.text)
			if l.err != nil {
				return fmt.Errorf("reading input: %w", l.err)
			}
		}
		if line == "" {
			continue
		}
		if !c.opts.Interactive {
			fmt.Fprintf(out, "> %s\n", line)
		}
		switch strings.ToLower(line) {
		case "/quit", "/exit", "/q":
			return nil
		case "/new":
			thread = c.opts.NewThread()
			history = nil
			fmt.Fprintln(out, "(new thread: earlier questions are forgotten)")
			fmt.Fprintln(out)
			continue
		case "/help", "/?":
			fmt.Fprintln(out, chatCommands)
			fmt.Fprintln(out)
			// Help is asked outside the thread so it does not disturb
			// the follow-up context.
			a := c.h.Handle(ctx, c.message("help", ""))
			fmt.Fprintln(out, strings.TrimRight(c.opts.Render(a), "\n"))
			fmt.Fprintln(out)
			continue
		case "/history":
			if len(history) == 0 {
				fmt.Fprintln(out, "(no questions in this thread yet)")
			}
			for i, q := range history {
				fmt.Fprintf(out, "%d. %s\n", i+1, q)
			}
			fmt.Fprintln(out)
			continue
		}
		if strings.HasPrefix(line, "/") {
			fmt.Fprintf(out, "unknown command %s; type /help\n\n", strings.Fields(line)[0])
			continue
		}
		if picked, ok := bot.ChoiceFor(line, choices); ok {
			line = picked
			fmt.Fprintf(out, "(asking: %s)\n", line)
		}
		history = append(history, line)
		a := c.h.Handle(ctx, c.message(line, thread))
		choices = a.Choices
		fmt.Fprintln(out, strings.TrimRight(c.opts.Render(a), "\n"))
		c.saveChart(out, a)
		fmt.Fprintln(out)
	}
}

// saveChart writes the answer's chart, when it has one, and prints where.
func (c *Chat) saveChart(out io.Writer, a bot.Answer) {
	if a.Chart == nil || c.opts.SaveChart == nil {
		return
	}
	path, err := c.opts.SaveChart(*a.Chart)
	if err != nil {
		fmt.Fprintf(out, "\n(the chart could not be drawn: %v)\n", err)
		return
	}
	fmt.Fprintf(out, "\nChart: %s (%s)\n", path, a.Chart.AltText)
}

func (c *Chat) message(text, thread string) bot.Message {
	return bot.Message{Platform: "cli", Channel: c.opts.Channel, User: c.opts.User, Thread: thread, Text: text}
}

type inputLine struct {
	text string
	err  error
}

// readLines scans r in its own goroutine so that Run can stop on ctx while
// a read blocks. stop releases the goroutine once Run returns (a read that
// never returns keeps it until the process ends, as with any blocked read).
func readLines(r io.Reader, editor LineEditor) (<-chan inputLine, func()) {
	ch := make(chan inputLine)
	done := make(chan struct{})
	if editor != nil {
		go func() {
			defer close(ch)
			for {
				line, err := editor.ReadLine()
				if errors.Is(err, io.EOF) {
					return
				}
				select {
				case ch <- inputLine{text: line, err: err}:
				case <-done:
					return
				}
				if err != nil {
					return
				}
			}
		}()
		return ch, func() { close(done) }
	}
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case ch <- inputLine{text: sc.Text()}:
			case <-done:
				return
			}
		}
		if err := sc.Err(); err != nil {
			select {
			case ch <- inputLine{err: err}:
			case <-done:
			}
		}
	}()
	return ch, func() { close(done) }
}

func randomThreadID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "chat-" + hex.EncodeToString(b[:])
}
