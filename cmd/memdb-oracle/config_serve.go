package main

import (
	"fmt"
	"strconv"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// defaultHTTPAddr is where serve listens when nothing says otherwise:
// loopback only, so a first run exposes nothing.
const defaultHTTPAddr = "localhost:8080"

// loadServeConfig reads the HTTP address (flag over environment) and the
// rate limits (bot.DefaultLimits, each overridable; 0 switches one off).
func loadServeConfig(c cli, getenv func(string) string) (string, bot.Limits, error) {
	addr := c.Serve.HTTPAddr
	if addr == "" {
		addr = getenv("MEMDB_ORACLE_HTTP_ADDR")
	}
	if addr == "" {
		addr = defaultHTTPAddr
	}
	l := bot.DefaultLimits()
	floats := []struct {
		env string
		dst *float64
	}{
		{"MEMDB_ORACLE_RATE_USER_PER_MINUTE", &l.UserPerMinute},
		{"MEMDB_ORACLE_RATE_CHANNEL_PER_MINUTE", &l.ChannelPerMinute},
	}
	for _, f := range floats {
		if v := getenv(f.env); v != "" {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x < 0 {
				return "", l, fmt.Errorf("%s=%q: want a number ≥ 0 (0 switches the limit off)", f.env, v)
			}
			*f.dst = x
		}
	}
	ints := []struct {
		env string
		dst *int
	}{
		{"MEMDB_ORACLE_RATE_USER_BURST", &l.UserBurst},
		{"MEMDB_ORACLE_RATE_USER_DAILY", &l.UserDaily},
		{"MEMDB_ORACLE_RATE_CHANNEL_BURST", &l.ChannelBurst},
		{"MEMDB_ORACLE_RATE_CHANNEL_DAILY", &l.ChannelDaily},
	}
	for _, f := range ints {
		if v := getenv(f.env); v != "" {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 {
				return "", l, fmt.Errorf("%s=%q: want a whole number ≥ 0 (0 switches the limit off)", f.env, v)
			}
			*f.dst = x
		}
	}
	return addr, l, nil
}
