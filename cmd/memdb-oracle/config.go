package main

import (
	"errors"
	"os"
	"path/filepath"
)

// config is everything the program reads from flags and environment, read
// once here; packages never read the environment themselves.
type config struct {
	DataDir string
	Verbose bool
	Getenv  func(string) string
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
	return cfg, nil
}
