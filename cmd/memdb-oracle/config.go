package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/llm"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// config is everything the program reads from flags and environment, read
// once here; packages never read the environment themselves.
type config struct {
	DataDir string
	Verbose bool
	Getenv  func(string) string

	// Deadline bounds the work for one message (MEMDB_ORACLE_DEADLINE,
	// default bot.DefaultDeadline); the language model's timeout is capped
	// inside it.
	Deadline time.Duration

	// LogFormat is how serve logs: auto, text or json (--log-format).
	LogFormat string

	// HTTPAddr is where serve listens (serve --http-addr, MEMDB_ORACLE_HTTP_ADDR).
	HTTPAddr string
	// Limits are the rate limits per user and channel (MEMDB_ORACLE_RATE_*).
	Limits bot.Limits
	// HTTP protects serve's HTTP API: keys, trusted proxies, per-client
	// limits (config_http.go).
	HTTP httpConfig
	// State is where serve's replicas share state (config_state.go).
	State stateConfig
	// LLM is the optional language model the planner asks about wording
	// its rules cannot place (MEMDB_ORACLE_LLM*, config_llm.go); an empty
	// Provider means none.
	LLM llm.Config
}

// loadConfig parses and checks every setting through get (the resolved
// settings, settings.lookup). All problems are returned together, one per
// line, as one usage error: nothing has been opened or written yet.
func loadConfig(verbose bool, get func(string) string) (config, error) {
	cfg := config{Verbose: verbose, Getenv: get, LogFormat: get("MEMDB_ORACLE_LOG_FORMAT")}
	var problems []error
	add := func(err error) {
		if err != nil {
			problems = append(problems, err)
		}
	}
	var err error
	cfg.DataDir, err = dataDir(get)
	add(err)
	cfg.HTTPAddr, cfg.Limits, err = loadServeConfig(get)
	add(err)
	if v := strings.TrimSpace(get("MEMDB_ORACLE_DEADLINE")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			add(fmt.Errorf("MEMDB_ORACLE_DEADLINE=%q: want a positive duration such as 20s", v))
		}
		cfg.Deadline = d
	}
	cfg.HTTP, err = loadHTTPConfig(get)
	add(err)
	cfg.State, err = loadStateConfig(get)
	add(err)
	cfg.LLM, err = loadLLMConfig(get)
	add(err)
	problems = append(problems, checkSettings(get)...)
	return cfg, errors.Join(problems...)
}

// dataDir is --data, else MEMDB_ORACLE_DATA, else the XDG data home.
func dataDir(get func(string) string) (string, error) {
	if d := strings.TrimSpace(get("MEMDB_ORACLE_DATA")); d != "" {
		return d, nil
	}
	base := get("XDG_DATA_HOME")
	if base == "" {
		home := get("HOME")
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return "", errors.New("no data directory: set --data, MEMDB_ORACLE_DATA or HOME")
			}
			home = h
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "memdb-oracle"), nil
}
