package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// defaultHTTPAddr is where serve listens when nothing says otherwise:
// loopback only, so a first run exposes nothing.
const defaultHTTPAddr = "localhost:8080"

// loadServeConfig reads the HTTP address and the rate limits
// (bot.DefaultLimits, each overridable; 0 switches one off).
func loadServeConfig(getenv func(string) string) (string, bot.Limits, error) {
	addr := envVar(getenv, "MEMDB_ORACLE_HTTP_ADDR")
	if addr == "" {
		addr = defaultHTTPAddr
	}
	l := bot.DefaultLimits()
	err := readLimits(getenv, &l, limitVars{
		userPerMinute: "MEMDB_ORACLE_RATE_USER_PER_MINUTE", userBurst: "MEMDB_ORACLE_RATE_USER_BURST", userDaily: "MEMDB_ORACLE_RATE_USER_DAILY",
		channelPerMinute: "MEMDB_ORACLE_RATE_CHANNEL_PER_MINUTE", channelBurst: "MEMDB_ORACLE_RATE_CHANNEL_BURST", channelDaily: "MEMDB_ORACLE_RATE_CHANNEL_DAILY",
	})
	if err != nil {
		return "", l, err
	}
	return addr, l, nil
}

// limitVars names the environment variables of one set of bot.Limits; an
// empty name is not read.
type limitVars struct {
	userPerMinute, userBurst, userDaily          string
	channelPerMinute, channelBurst, channelDaily string
}

// readLimits overrides l's fields from the variables that are set; 0
// switches a limit off. Every bad value is reported.
func readLimits(getenv func(string) string, l *bot.Limits, vars limitVars) error {
	var problems []error
	floats := []struct {
		env string
		dst *float64
	}{
		{vars.userPerMinute, &l.UserPerMinute},
		{vars.channelPerMinute, &l.ChannelPerMinute},
	}
	for _, f := range floats {
		if v := envVar(getenv, f.env); v != "" {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x < 0 {
				problems = append(problems, fmt.Errorf("%s=%q: want a number ≥ 0 (0 switches the limit off)", f.env, v))
				continue
			}
			*f.dst = x
		}
	}
	ints := []struct {
		env string
		dst *int
	}{
		{vars.userBurst, &l.UserBurst},
		{vars.userDaily, &l.UserDaily},
		{vars.channelBurst, &l.ChannelBurst},
		{vars.channelDaily, &l.ChannelDaily},
	}
	for _, f := range ints {
		if v := envVar(getenv, f.env); v != "" {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 {
				problems = append(problems, fmt.Errorf("%s=%q: want a whole number ≥ 0 (0 switches the limit off)", f.env, v))
				continue
			}
			*f.dst = x
		}
	}
	return errors.Join(problems...)
}

// envVar reads a variable, trimmed; an empty name reads nothing.
func envVar(getenv func(string) string, name string) string {
	if name == "" {
		return ""
	}
	return strings.TrimSpace(getenv(name))
}
