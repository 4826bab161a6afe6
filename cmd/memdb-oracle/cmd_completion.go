package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/alecthomas/kong"
)

// completionCmd prints a completion script generated from the command
// line's own model, so it never lists a command or flag that is gone.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish."`
}

// Run writes the script for the chosen shell.
func (c completionCmd) Run(a *app, k *kong.Context) error {
	cmds := completionCommands(k.Model.Node)
	switch c.Shell {
	case "bash":
		return writeBashCompletion(a.stdout, cmds, false)
	case "zsh":
		return writeBashCompletion(a.stdout, cmds, true)
	default:
		return writeFishCompletion(a.stdout, cmds)
	}
}

// completionCommand is one command path ("" for the top level, "kb
// search") with its subcommands and flags.
type completionCommand struct {
	path  string
	help  string
	subs  []*kong.Node
	flags []*kong.Flag
}

func completionCommands(root *kong.Node) []completionCommand {
	var out []completionCommand
	var walk func(n *kong.Node, path string, inherited []*kong.Flag)
	walk = func(n *kong.Node, path string, inherited []*kong.Flag) {
		flags := append(append([]*kong.Flag(nil), inherited...), n.Flags...)
		var subs []*kong.Node
		for _, ch := range n.Children {
			if ch.Type == kong.CommandNode && !ch.Hidden {
				subs = append(subs, ch)
			}
		}
		out = append(out, completionCommand{path: path, help: n.Help, subs: subs, flags: flags})
		for _, ch := range subs {
			walk(ch, strings.TrimSpace(path+" "+ch.Name), flags)
		}
	}
	walk(root, "", nil)
	sort.Slice(out, func(i, j int) bool { return len(out[i].path) > len(out[j].path) })
	return out
}

// words is what may follow a command: its subcommands and flags.
func (c completionCommand) words() string {
	var w []string
	for _, s := range c.subs {
		w = append(w, s.Name)
	}
	for _, f := range c.flags {
		if !f.Hidden {
			w = append(w, "--"+f.Name)
		}
	}
	return strings.Join(w, " ")
}

// writeBashCompletion writes a bash completion function (zsh loads it
// through bashcompinit). The command path is the words typed so far that
// are not flags; the longest matching path decides the candidates.
func writeBashCompletion(w io.Writer, cmds []completionCommand, zsh bool) error {
	var b strings.Builder
	if zsh {
		b.WriteString("#compdef memdb-oracle\nautoload -U +X bashcompinit && bashcompinit\n")
	}
	b.WriteString(`_memdb_oracle() {
  local cur="${COMP_WORDS[COMP_CWORD]}" path="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${COMP_WORDS[i]}" in
      -*) ;;
      *) path="${path:+$path }${COMP_WORDS[i]}" ;;
    esac
  done
  local words=""
  case "$path" in
`)
	for _, c := range cmds {
		pattern := `""`
		if c.path != "" {
			pattern = fmt.Sprintf("%q|%q\\ *", c.path, c.path)
		}
		fmt.Fprintf(&b, "    %s) words=%q ;;\n", pattern, c.words())
	}
	b.WriteString(`  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _memdb_oracle memdb-oracle
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFishCompletion writes fish complete commands: each subcommand
// offered where its parent is the last command seen, each flag where its
// command is.
func writeFishCompletion(w io.Writer, cmds []completionCommand) error {
	var b strings.Builder
	b.WriteString("complete -c memdb-oracle -f\n")
	for _, c := range cmds {
		cond := "__fish_use_subcommand"
		if c.path != "" {
			parts := strings.Fields(c.path)
			cond = "__fish_seen_subcommand_from " + parts[len(parts)-1]
		}
		for _, s := range c.subs {
			fmt.Fprintf(&b, "complete -c memdb-oracle -n %q -a %s -d %q\n", cond, s.Name, firstSentence(s.Help))
		}
		if c.path == "" {
			for _, f := range c.flags {
				fmt.Fprintf(&b, "complete -c memdb-oracle -l %s -d %q\n", f.Name, firstSentence(f.Help))
			}
			continue
		}
		for _, f := range c.flags[len(cmds[len(cmds)-1].flags):] {
			fmt.Fprintf(&b, "complete -c memdb-oracle -n %q -l %s -d %q\n", cond, f.Name, firstSentence(f.Help))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// firstSentence shortens help text to its first sentence, without the
// characters fish would expand inside double quotes.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return strings.NewReplacer("$", "", "\"", "'", "`", "'").Replace(s)
}
