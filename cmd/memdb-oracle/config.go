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

func loadConfig(c cli, getenv func(string) string) (config, error) {
	cfg := config{Verbose: c.Verbose, Getenv: getenv}
	cfg.DataDir = c.Data
	if cfg.DataDir == "" {
		cfg.DataDir = getenv("MEMDB_ORACLE_DATA")
	}
	if cfg.DataDir == "" {
		base := getenv("XDG_DATA_HOME")
		if base == "" {
			home := getenv("HOME")
			if home == "" {
				h, err := os.UserHomeDir()
				if err != nil {
					return cfg, errors.New("no data directory: set --data, MEMDB_ORACLE_DATA or HOME")
				}
				home = h
			}
			base = filepath.Join(home, ".local", "share")
		}
		cfg.DataDir = filepath.Join(base, "memdb-oracle")
	}
	var err error
	if cfg.HTTPAddr, cfg.Limits, err = loadServeConfig(c, getenv); err != nil {
		return cfg, err
	}
	if v := strings.TrimSpace(getenv("MEMDB_ORACLE_DEADLINE")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return cfg, fmt.Errorf("MEMDB_ORACLE_DEADLINE=%q: want a positive duration such as 20s", v)
		}
		cfg.Deadline = d
	}
	if cfg.HTTP, err = loadHTTPConfig(getenv); err != nil {
		return cfg, err
	}
	if cfg.State, err = loadStateConfig(getenv); err != nil {
		return cfg, err
	}
	if cfg.LLM, err = loadLLMConfig(getenv); err != nil {
		return cfg, err
	}
	return cfg, nil
}
