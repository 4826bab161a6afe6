// Package cli is the terminal adapter: it renders answers for a terminal
// (the Markdown form with aligned tables) and runs the interactive chat
// loop over an io.Reader and an io.Writer, so a pipe works as well as a
// terminal.
package cli
