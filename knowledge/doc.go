// Package knowledge holds what the bot knows besides the runs: glossary
// terms, vendor and third-party claims, measured findings (their figures
// computed from the runs when the base is loaded), measured tables that are
// not runs (bytes per key, the Sentinel failover lab, the cross-slot demo),
// engines, sessions, the measurement rules, traps and caveats, and notes on
// scope, setup, series and source conflicts.
//
// Every entry has a stable id ("term:pipelining", "claim:dragonfly-25x"),
// a title and its sources, and is written in the project's own words from
// the benchmark's public material. The data lives in data/ as JSON, one file
// per kind, embedded in the binary; Load parses and validates it and computes
// every figure through a Querier (analytics.Store satisfies it).
package knowledge
