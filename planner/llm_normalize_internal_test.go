package planner

import (
	"slices"
	"testing"
)

func TestAModelReplyFollowsTheQuestionsOrder(t *testing.T) {
	for _, tt := range []struct {
		name, question string
		in, want       llmAnswer
	}{
		{"engines as the question names them, unnamed ones last",
			"how do Garnet and Redis compare to the nimble one",
			llmAnswer{Engines: []string{"dragonfly", "redis", "garnet", "redis"}},
			llmAnswer{Engines: []string{"garnet", "redis", "dragonfly"}}},
		{"core counts as the question names them",
			"valkey at 48 then 16 cores",
			llmAnswer{Cores: []int{16, 48, 16}},
			llmAnswer{Cores: []int{48, 16}}},
		{"modes as the question names them",
			"redis: the ceiling, then the realistic one",
			llmAnswer{Modes: []string{"cluster", "cluster-sat", "cluster"}},
			llmAnswer{Modes: []string{"cluster-sat", "cluster"}}},
		{"a question naming nothing keeps the model's order, once each",
			"the nimble ones",
			llmAnswer{Engines: []string{"valkey", "dragonfly", "valkey"}, Cores: []int{24, 8, 24}},
			llmAnswer{Engines: []string{"valkey", "dragonfly"}, Cores: []int{24, 8}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.in
			a.normalize(tt.question)
			if !slices.Equal(a.Engines, tt.want.Engines) || !slices.Equal(a.Modes, tt.want.Modes) || !slices.Equal(a.Cores, tt.want.Cores) {
				t.Errorf("got engines %v modes %v cores %v, want %v %v %v", a.Engines, a.Modes, a.Cores, tt.want.Engines, tt.want.Modes, tt.want.Cores)
			}
		})
	}
}
