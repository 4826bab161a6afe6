package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/alecthomas/kong"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestRunAll(t *testing.T) {
	boom := errors.New("socket closed")
	t.Run("the first failure stops the others and is returned", func(t *testing.T) {
		stopped := make(chan struct{})
		err := runAll(t.Context(), []serveRunner{
			{"waits", func(ctx context.Context) error { <-ctx.Done(); close(stopped); return ctx.Err() }},
			{"fails", func(context.Context) error { return boom }},
		}, slog.New(slog.DiscardHandler))
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), "fails:") {
			t.Errorf("runAll returned %v, want the failure named by its runner", err)
		}
		<-stopped
	})
	t.Run("an interrupt stops every runner and is not an error", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		started := make(chan struct{}, 2)
		done := make(chan error, 1)
		wait := func(ctx context.Context) error { started <- struct{}{}; <-ctx.Done(); return nil }
		go func() { done <- runAll(ctx, []serveRunner{{"a", wait}, {"b", wait}}, slog.New(slog.DiscardHandler)) }()
		<-started
		<-started
		cancel()
		if err := <-done; err != nil {
			t.Errorf("runAll returned %v after an interrupt, want nil", err)
		}
	})
	t.Run("a runner that finishes early leaves the others running", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		finished := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- runAll(ctx, []serveRunner{
				{"once", func(context.Context) error { close(finished); return nil }},
				{"long", func(ctx context.Context) error { <-ctx.Done(); return nil }},
			}, slog.New(slog.DiscardHandler))
		}()
		<-finished
		select {
		case err := <-done:
			t.Fatalf("runAll returned %v when one runner finished", err)
		default:
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("runAll: %v", err)
		}
	})
}

func TestLoadServeConfig(t *testing.T) {
	tests := []struct {
		name     string
		flag     string
		env      map[string]string
		wantAddr string
		want     func(bot.Limits) bot.Limits
		wantErr  string
	}{
		{name: "defaults are loopback and the bot's default limits", wantAddr: defaultHTTPAddr, want: func(l bot.Limits) bot.Limits { return l }},
		{name: "the environment sets the address", env: map[string]string{"MEMDB_ORACLE_HTTP_ADDR": ":9000"}, wantAddr: ":9000", want: func(l bot.Limits) bot.Limits { return l }},
		{name: "the flag wins over the environment", flag: "127.0.0.1:1", env: map[string]string{"MEMDB_ORACLE_HTTP_ADDR": ":9000"}, wantAddr: "127.0.0.1:1", want: func(l bot.Limits) bot.Limits { return l }},
		{
			name: "each limit can be overridden and 0 switches it off",
			env: map[string]string{
				"MEMDB_ORACLE_RATE_USER_PER_MINUTE": "2.5", "MEMDB_ORACLE_RATE_USER_BURST": "3", "MEMDB_ORACLE_RATE_USER_DAILY": "0",
				"MEMDB_ORACLE_RATE_CHANNEL_PER_MINUTE": "0", "MEMDB_ORACLE_RATE_CHANNEL_BURST": "7", "MEMDB_ORACLE_RATE_CHANNEL_DAILY": "9",
			},
			wantAddr: defaultHTTPAddr,
			want: func(bot.Limits) bot.Limits {
				return bot.Limits{UserPerMinute: 2.5, UserBurst: 3, UserDaily: 0, ChannelPerMinute: 0, ChannelBurst: 7, ChannelDaily: 9}
			},
		},
		{name: "a negative limit is refused by name", env: map[string]string{"MEMDB_ORACLE_RATE_USER_DAILY": "-1"}, wantErr: "MEMDB_ORACLE_RATE_USER_DAILY"},
		{name: "a non-number is refused by name", env: map[string]string{"MEMDB_ORACLE_RATE_CHANNEL_PER_MINUTE": "lots"}, wantErr: "MEMDB_ORACLE_RATE_CHANNEL_PER_MINUTE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"serve"}
			if tt.flag != "" {
				args = append(args, "--http-addr", tt.flag)
			}
			addr, limits, err := loadServeConfig(resolvedSettings(t, args, tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if addr != tt.wantAddr {
				t.Errorf("addr %q, want %q", addr, tt.wantAddr)
			}
			if want := tt.want(bot.DefaultLimits()); limits != want {
				t.Errorf("limits %+v, want %+v", limits, want)
			}
		})
	}
}

// resolvedSettings parses args over env the way run does and returns the
// settings' lookup (flags over environment over defaults).
func resolvedSettings(t *testing.T, args []string, env map[string]string) func(string) string {
	t.Helper()
	return resolvedSettingsWith(t, args, env, nil)
}

// resolvedSettingsWith is resolvedSettings with a config file's values.
func resolvedSettingsWith(t *testing.T, args []string, env, file map[string]string) func(string) string {
	t.Helper()
	var c cli
	getenv := func(k string) string { return env[k] }
	parser, err := kong.New(&c, expandSettingDefaults(), kong.ExplicitGroups(settingGroups),
		kong.Vars{"version": "test"}, kong.Resolvers(settingsResolver(getenv, file)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse(args); err != nil {
		t.Fatal(err)
	}
	return c.Settings.lookup(getenv)
}

func TestAChatAdapterThatCannotConnectIsRetriedWithBackoffWhileTheRestServes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs lockedBuffer
		var calls []time.Time
		start := time.Now()
		unreachable := func(ctx context.Context) error {
			calls = append(calls, time.Now())
			if len(calls) < 4 {
				return errors.New("dial tcp: connection refused")
			}
			<-ctx.Done()
			return nil
		}
		ctx, cancel := context.WithCancel(t.Context())
		served := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- runAll(ctx, []serveRunner{
				{"discord", retrying("discord", unreachable, adapterBackoff, slog.New(slog.NewTextHandler(&logs, nil)))},
				{"http", func(ctx context.Context) error { close(served); <-ctx.Done(); return nil }},
			}, slog.New(slog.DiscardHandler))
		}()
		<-served
		time.Sleep(time.Minute)
		synctest.Wait()
		if len(calls) != 4 {
			t.Fatalf("%d connection attempts in a minute, want 4 (after 1 s, 2 s and 4 s)", len(calls))
		}
		for i, want := range []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second} {
			if got := calls[i].Sub(start); got != want {
				t.Errorf("attempt %d at %v, want %v", i+1, got, want)
			}
		}
		if n := strings.Count(logs.String(), "adapter stopped; trying again"); n != 3 {
			t.Errorf("logged %d retries, want 3", n)
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v", err)
		default:
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

// A login the server refuses is a misconfiguration waiting will not fix:
// serve stops at start with one line saying so, before listening.
func TestServeWithAWrongSharedStatePasswordStopsAtStartWithOneLine(t *testing.T) {
	srv := redistest.Start(t)
	if err := redistest.AddUser(t, srv, "oracle", "right-password"); err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	err := run(t.Context(), []string{"--data", t.TempDir(), "serve", "--http-addr", "127.0.0.1:0"},
		env("MEMDB_ORACLE_STATE_URL", "redis://oracle:wrong-password@"+srv.Addr()), strings.NewReader(""), io.Discard, &stderr)
	if err == nil {
		t.Fatal("serve started with a refused login")
	}
	if code := exitCode(err); code != 2 {
		t.Errorf("exit code %d, want 2: a refused login is a configuration error", code)
	}
	msg := err.Error()
	if !strings.Contains(msg, "MEMDB_ORACLE_STATE_URL") || !strings.Contains(msg, "login refused") ||
		strings.Contains(msg, "wrong-password") || strings.Contains(msg, "\n") {
		t.Errorf("serve said %q; want one line naming the setting and the refused login, without the password", msg)
	}
	if strings.Contains(stderr.String(), "http listening") {
		t.Error("serve listened before failing")
	}
}

// Discord unreachable at start: serve keeps answering over HTTP while the
// Discord adapter tries again.
func TestServeAnswersOverHTTPWhileDiscordIsUnreachable(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	logs := newLogWatch()
	exited := make(chan struct{})
	var served error
	go func() {
		defer close(exited)
		served = run(ctx, []string{"--data", t.TempDir(), "serve", "--http-addr", "127.0.0.1:0"},
			env("DISCORD_BOT_TOKEN", "unreachable.discord.test", "DISCORD_APP_ID", "800", "DISCORD_API_BASE", "http://127.0.0.1:1"),
			strings.NewReader(""), io.Discard, logs)
	}()
	defer func() { cancel(); <-exited }()
	addr, ok := logs.addr(exited)
	if !ok {
		t.Fatalf("serve stopped before listening: %v\n%s", served, logs.String())
	}
	if !awaitLog(logs, `"msg":"adapter stopped; trying again","adapter":"discord"`) {
		t.Fatalf("no retry of the unreachable Discord adapter:\n%s", logs.String())
	}
	if h := get(t, "http://"+addr+"/healthz"); !strings.Contains(h, `"status":"ok"`) {
		t.Fatalf("healthz while Discord is unreachable: %s", h)
	}
	select {
	case <-exited:
		t.Fatalf("serve stopped: %v", served)
	default:
	}
}
