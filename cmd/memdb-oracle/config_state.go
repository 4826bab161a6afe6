package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	redisadapter "github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// stateConfig says where replicas share their state (docs/design.md#replicas-and-shared-state).
type stateConfig struct {
	// URL is the Redis/Valkey server (MEMDB_ORACLE_STATE_URL); empty keeps
	// all state in the data directory.
	URL string
	// CAFile is the PEM file of CAs a rediss:// URL trusts
	// (MEMDB_ORACLE_STATE_CA_FILE); empty trusts the system's.
	CAFile string
	// Prefix starts every key (MEMDB_ORACLE_STATE_PREFIX).
	Prefix string
	// Replica names this process in leases and logs
	// (MEMDB_ORACLE_REPLICA_NAME; default host name and process ID).
	Replica string
	// SharedKey signs the runs replicas share through the server
	// (MEMDB_ORACLE_SHARED_KEY, at least 32 characters). Without it the
	// import feed is off: each replica holds only what was imported into
	// its own data directory.
	SharedKey string
	// PreviousSharedKey is also accepted while rotating the key
	// (MEMDB_ORACLE_SHARED_KEY_PREVIOUS); records signed with it are signed
	// again with SharedKey when replicas publish what they hold.
	PreviousSharedKey string
	// Lease times the Discord gateway lease (MEMDB_ORACLE_LEASE_TTL,
	// MEMDB_ORACLE_LEASE_RENEW).
	Lease bot.LeaseTimings
}

func loadStateConfig(getenv func(string) string) (stateConfig, error) {
	c := stateConfig{
		URL:     envVar(getenv, "MEMDB_ORACLE_STATE_URL"),
		CAFile:  envVar(getenv, "MEMDB_ORACLE_STATE_CA_FILE"),
		Prefix:  envVar(getenv, "MEMDB_ORACLE_STATE_PREFIX"),
		Replica: envVar(getenv, "MEMDB_ORACLE_REPLICA_NAME"),
		// Not trimmed: the key is used byte for byte.
		SharedKey:         getenv("MEMDB_ORACLE_SHARED_KEY"),
		PreviousSharedKey: getenv("MEMDB_ORACLE_SHARED_KEY_PREVIOUS"),
		Lease:             bot.DefaultLeaseTimings(),
	}
	if c.Replica == "" {
		host, _ := os.Hostname()
		c.Replica = host + "-" + strconv.Itoa(os.Getpid())
	}
	for _, d := range []struct {
		env string
		dst *time.Duration
	}{
		{"MEMDB_ORACLE_LEASE_TTL", &c.Lease.TTL},
		{"MEMDB_ORACLE_LEASE_RENEW", &c.Lease.Every},
	} {
		if v := envVar(getenv, d.env); v != "" {
			x, err := time.ParseDuration(v)
			if err != nil || x <= 0 {
				return c, fmt.Errorf("%s=%q: want a positive duration such as 10s", d.env, v)
			}
			*d.dst = x
		}
	}
	if c.SharedKey != "" && len(c.SharedKey) < redisadapter.MinSharedKey {
		return c, fmt.Errorf("MEMDB_ORACLE_SHARED_KEY: want at least %d characters (it has %d); generate one with: openssl rand -hex 32",
			redisadapter.MinSharedKey, len(c.SharedKey))
	}
	if c.Lease.Every >= c.Lease.TTL {
		return c, fmt.Errorf("MEMDB_ORACLE_LEASE_RENEW (%s) must be shorter than MEMDB_ORACLE_LEASE_TTL (%s)", c.Lease.Every, c.Lease.TTL)
	}
	return c, nil
}
