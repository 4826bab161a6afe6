package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/llm"
)

// loadLLMConfig reads the optional language model: MEMDB_ORACLE_LLM
// (ollama, openai, anthropic, or empty for none), MEMDB_ORACLE_LLM_MODEL,
// MEMDB_ORACLE_LLM_BASE_URL, MEMDB_ORACLE_LLM_API_KEY and
// MEMDB_ORACLE_LLM_TIMEOUT (a Go duration such as 20s).
func loadLLMConfig(getenv func(string) string) (llm.Config, error) {
	cfg := llm.Config{
		Provider: strings.ToLower(strings.TrimSpace(getenv("MEMDB_ORACLE_LLM"))),
		Model:    strings.TrimSpace(getenv("MEMDB_ORACLE_LLM_MODEL")),
		BaseURL:  strings.TrimSpace(getenv("MEMDB_ORACLE_LLM_BASE_URL")),
		APIKey:   llm.NewSecret(strings.TrimSpace(getenv("MEMDB_ORACLE_LLM_API_KEY"))),
	}
	switch cfg.Provider {
	case "", "none", "off":
		return llm.Config{}, nil
	case llm.ProviderOllama, llm.ProviderOpenAI, llm.ProviderAnthropic:
	default:
		return cfg, fmt.Errorf("MEMDB_ORACLE_LLM=%q: want ollama, openai, anthropic or empty for none", cfg.Provider)
	}
	if v := strings.TrimSpace(getenv("MEMDB_ORACLE_LLM_TIMEOUT")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return cfg, fmt.Errorf("MEMDB_ORACLE_LLM_TIMEOUT=%q: want a positive duration such as 20s", v)
		}
		cfg.Timeout = d
	}
	return cfg, nil
}
