// Command duckdbq is the DuckDB baseline of BenchmarkCurves (built only
// with -tags duckdb; see analytics/curves_duckdb_test.go): it opens a
// DuckDB database, runs each SQL statement given, and prints the rows of
// the last one, tab-separated, as a whole process like sqlite3's shell.
// It is a module of its own so that the project's build stays pure Go:
// DuckDB's Go module needs cgo and its prebuilt library (fetched through
// the Go module proxy).
package main

import (
	"bufio"
	"database/sql"
	"fmt"
	"os"

	_ "github.com/duckdb/duckdb-go/v2"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "duckdbq:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: duckdbq DB SQL [SQL...]")
	}
	db, err := sql.Open("duckdb", args[0])
	if err != nil {
		return err
	}
	defer db.Close()
	stmts := args[1:]
	for _, s := range stmts[:len(stmts)-1] {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	rows, err := db.Query(stmts[len(stmts)-1])
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			if i > 0 {
				w.WriteByte('\t')
			}
			w.Write(v)
		}
		w.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return w.Flush()
}
