// Command speedcurves draws the cost curves BenchmarkCurves measures (see
// analytics/curves_bench_test.go): it reads the benchmark's output, writes
// one PNG of two charts (the queries; import, open and ask) of CPU time
// per process against the store's size, memdb-oracle beside sqlite3, with
// the project's own chart package, and prints the figures as a Markdown
// table.
//
//	go test ./analytics -run X -bench Curves -benchtime 5x | tee docs/speed-curves.txt
//	go run ./cmd/speedcurves -o docs/speed-curves.png docs/speed-curves.txt
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "speedcurves:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("speedcurves", flag.ContinueOnError)
	out := fs.String("o", "docs/speed-curves.png", "the PNG to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	in := stdin
	if fs.NArg() > 1 {
		return fmt.Errorf("one benchmark output to read, got %d", fs.NArg())
	}
	if fs.NArg() == 1 {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	curves, err := readCurves(in)
	if err != nil {
		return err
	}
	png, err := drawCurves(curves)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, png, 0o644); err != nil {
		return err
	}
	if err := writeTable(stdout, curves); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\nwrote %s: %d operations at %d sizes\n", *out, len(curves.ops), len(curves.sizes))
	return err
}
