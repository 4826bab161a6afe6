package analytics_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

func ExampleCompileFilter() {
	f, err := analytics.CompileFilter(`engine == "dragonfly" && cores == 48 && ratio == "1:10"`)
	if err != nil {
		log.Fatal(err)
	}
	ok, _ := f.Match(&analytics.Run{Engine: "dragonfly", Cores: 48, Ratio: "1:10"})
	fmt.Println(ok)

	_, err = analytics.CompileFilter(`core == 48`)
	var fe *analytics.FilterError
	if errors.As(err, &fe) {
		fmt.Printf("%s (column %d)\n", fe.Msg, fe.Column())
	}
	// Output:
	// true
	// unknown field "core" (did you mean "cores"?) (column 1)
}

func ExampleStore_Query() {
	ctx := context.Background()
	s, err := analytics.Open(ctx, analytics.Options{InMemory: true})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ImportDefault(ctx); err != nil {
		log.Fatal(err)
	}
	res, err := s.Query(ctx, `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Cells {
		fmt.Printf("%s %s %dc: median %.3f ops/s across %d reps\n", c.Engine, c.Mode, c.Cores, c.OpsPerSec, c.Reps)
		for _, id := range c.RunIDs {
			fmt.Println(id)
		}
	}
	// Output:
	// dragonfly single 48c: median 15473658.395 ops/s across 2 reps
	// run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1
	// run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2
}
