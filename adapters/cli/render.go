package cli

import "github.com/memdb-oracle/memdb-oracle/bot"

// Text renders an answer for a terminal: the canonical Markdown form
// (bot.Markdown) with its tables aligned into columns.
func Text(a bot.Answer) string { return AlignTables(bot.Markdown(a)) }
