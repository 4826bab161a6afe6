package cli

import "github.com/memdb-oracle/memdb-oracle/bot"

// Text renders an answer for a terminal width columns wide: the canonical
// Markdown form (bot.Markdown) with its tables aligned into columns, or
// one line per row where a table would not fit (width ≤ 0: any width).
func Text(a bot.Answer, width int) string { return AlignTables(bot.Markdown(a), width) }
