// Package web serves the browser pages on the API's listener: / (ask, with
// follow-ups in one conversation), /runs/{id} (one run and its cell),
// /runs?filter=… (the runs a filter matches, with per-cell medians) and
// /data (sessions, engines, the coverage grid, the measured tables and the
// knowledge base). Pages are html/template over embedded files with no
// build step; a small script only enhances them (asking without a reload,
// ↑ to edit the last question), and everything works as plain form posts
// without it. Answers render from bot.Answer in one place (answer_view.go).
package web
