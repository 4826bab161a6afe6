package main

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestCommandNamesAreTheNamesKongGivesTheCommands(t *testing.T) {
	var c cli
	parser, err := newParser(&c, func(string) string { return "" }, nil, io.Discard, io.Discard, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range parser.Model.Children {
		want = append(want, n.Name)
		if len(n.Aliases) > 0 {
			t.Errorf("command %s has aliases, which parseNamed does not look for", n.Name)
		}
	}
	var got []string
	typ := reflect.TypeFor[cli]()
	for i := range typ.NumField() {
		if _, ok := typ.Field(i).Tag.Lookup("cmd"); ok {
			got = append(got, commandName(typ.Field(i)))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commandName gives %q, kong %q", got, want)
	}
}

func TestANamedCommandParsesAsOverTheWholeCommandLine(t *testing.T) {
	env := map[string]string{"MEMDB_ORACLE_DEADLINE": "7s"}
	getenv := func(k string) string { return env[k] }
	file := map[string]string{"http-addr": "localhost:9999"}
	csv := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(csv, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Only the chosen command's fields count: the whole command line also
	// fills in the defaults of the commands not chosen.
	runs := func(c *cli) any { return c.Runs }
	for _, tc := range []struct {
		args    []string
		command func(*cli) any
	}{
		{[]string{"runs", `engine == "dragonfly"`}, runs},
		{[]string{"--data", "/tmp/d", "runs", "--json", "--timeout", "3s", "cores == 8"}, runs},
		{[]string{"runs", "ask"}, runs}, // a filter spelled like a command
		{[]string{"--data", "runs", "ask", "what about valkey?"}, func(c *cli) any { return c.Ask }},
		{[]string{"-v", "ask", "--thread", "t1", "Dragonfly at 8 cores"}, func(c *cli) any { return c.Ask }},
		{[]string{"kb", "search", "client", "limited"}, func(c *cli) any { return c.KB }},
		{[]string{"import", "--session", "2", csv}, func(c *cli) any { return c.Import }},
		{[]string{"--llm-timeout", "3s", "serve", "--log-format", "json"}, func(c *cli) any { return c.Serve }},
	} {
		named, nctx, ok := parseNamed(tc.args, getenv, file)
		if !ok {
			t.Errorf("%q: not parsed over the commands it names", tc.args)
			continue
		}
		var whole cli
		parser, err := newParser(&whole, getenv, file, io.Discard, io.Discard, func(int) {})
		if err != nil {
			t.Fatal(err)
		}
		wctx, err := parser.Parse(tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if nctx.Command() != wctx.Command() {
			t.Errorf("%q: command %q, over the whole command line %q", tc.args, nctx.Command(), wctx.Command())
		}
		if !maps.Equal(named.Settings.values(), whole.Settings.values()) || named.Verbose != whole.Verbose {
			t.Errorf("%q: the settings differ from the whole command line's", tc.args)
		}
		if got, want := tc.command(named), tc.command(&whole); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: the command is %+v, over the whole command line %+v", tc.args, got, want)
		}
	}
}

func TestWhatANamedParseCannotSayIsLeftToTheWholeCommandLine(t *testing.T) {
	getenv := func(string) string { return "" }
	for _, args := range [][]string{
		{},
		{"--help"},
		{"runs", "--help"},
		{"--version"},
		{"runs"},                         // the filter is missing: an error with the usage
		{"runz", "x"},                    // no such command
		{"runs", "--bogus", "x"},         // no such flag
		{"completion", "bash"},           // reads the model of every command
		{"--deadline", "1s", "--bogus"},  // names no command
		{"runs", "x", "ask", "--thread"}, // a flag without its value
	} {
		if _, _, ok := parseNamed(args, getenv, nil); ok {
			t.Errorf("%q was parsed over the commands it names only", args)
		}
	}
}
