// Package llm connects an optional language model to the planner through
// tmc/langchaingo: a local Ollama, any OpenAI-compatible server, or
// Anthropic, chosen by configuration. Its Completer implements
// planner.Completer; the planner validates every reply against its closed
// schema, so the model only ever maps wording, never answers.
package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// Providers a Config may name.
const (
	ProviderOllama    = "ollama"
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
)

// Default models per provider, used when Config.Model is empty.
const (
	DefaultOllamaModel    = "llama3.1"
	DefaultOpenAIModel    = "gpt-4o-mini"
	DefaultAnthropicModel = "claude-3-5-haiku-latest"
)

// DefaultTimeout bounds one completion when Config.Timeout is zero: the
// planner's default budget, well inside a message's deadline.
const DefaultTimeout = planner.DefaultCompleterTimeout

// maxReplyTokens is plenty for the plan schema's one JSON object.
const maxReplyTokens = 400

// ErrConfig is wrapped by every configuration error from New.
var ErrConfig = errors.New("language model configuration")

// Secret is an API key that never shows in logs or error text.
type Secret struct{ v string }

// NewSecret wraps a key.
func NewSecret(v string) Secret { return Secret{v: v} }

// Reveal returns the key, for the one place that sends it.
func (s Secret) Reveal() string { return s.v }

// IsZero reports an empty key.
func (s Secret) IsZero() bool { return s.v == "" }

// String redacts the key.
func (s Secret) String() string {
	if s.v == "" {
		return ""
	}
	return "[redacted]"
}

// LogValue redacts the key in structured logs.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Config chooses and reaches a model.
type Config struct {
	// Provider is "ollama", "openai" (any OpenAI-compatible server) or
	// "anthropic".
	Provider string
	// Model is the provider's model name; empty picks the provider default.
	Model string
	// BaseURL overrides the provider's address (Ollama default
	// http://localhost:11434; OpenAI https://api.openai.com/v1; Anthropic
	// https://api.anthropic.com/v1).
	BaseURL string
	// APIKey is required for openai (unless BaseURL points at a server
	// that needs none) and anthropic.
	APIKey Secret
	// Timeout bounds one completion (default DefaultTimeout); the planner
	// caps it further inside each message's deadline.
	Timeout time.Duration
	// HTTPClient, when set, carries every request (tests use loopback).
	HTTPClient *http.Client
}

// LogValue shows the configuration without the key.
func (c Config) LogValue() slog.Value {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return slog.GroupValue(slog.String("provider", c.Provider), slog.String("model", c.modelName()),
		slog.String("base_url", c.BaseURL), slog.String("api_key", c.APIKey.String()), slog.String("timeout", timeout.String()))
}

// modelName is the configured model, or the provider's default.
func (c Config) modelName() string {
	if m := strings.TrimSpace(c.Model); m != "" {
		return m
	}
	switch strings.ToLower(strings.TrimSpace(c.Provider)) {
	case ProviderOllama:
		return DefaultOllamaModel
	case ProviderOpenAI:
		return DefaultOpenAIModel
	case ProviderAnthropic:
		return DefaultAnthropicModel
	}
	return ""
}

// Completer asks a langchaingo model for one completion per prompt, with a
// deadline. It is safe for concurrent use when the model is.
type Completer struct {
	model   llms.Model
	name    string
	timeout time.Duration
	opts    []llms.CallOption
}

// New builds the Completer a configuration names.
func New(cfg Config) (*Completer, error) {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	model := cfg.modelName()
	var (
		m   llms.Model
		err error
	)
	switch strings.ToLower(strings.TrimSpace(cfg.Provider)) {
	case ProviderOllama:
		opts := []ollama.Option{ollama.WithModel(model), ollama.WithFormat("json")}
		if cfg.BaseURL != "" {
			opts = append(opts, ollama.WithServerURL(cfg.BaseURL))
		}
		if cfg.HTTPClient != nil {
			opts = append(opts, ollama.WithHTTPClient(cfg.HTTPClient))
		}
		m, err = ollama.New(opts...)
	case ProviderOpenAI:
		if cfg.APIKey.IsZero() && cfg.BaseURL == "" {
			return nil, fmt.Errorf("%w: provider openai needs an API key (or a base URL of a server that needs none)", ErrConfig)
		}
		key := cfg.APIKey.Reveal()
		if key == "" {
			key = "none" // OpenAI-compatible local servers ignore it
		}
		opts := []openai.Option{openai.WithModel(model), openai.WithToken(key)}
		if cfg.BaseURL != "" {
			opts = append(opts, openai.WithBaseURL(cfg.BaseURL))
		}
		if cfg.HTTPClient != nil {
			opts = append(opts, openai.WithHTTPClient(cfg.HTTPClient))
		}
		m, err = openai.New(opts...)
	case ProviderAnthropic:
		if cfg.APIKey.IsZero() {
			return nil, fmt.Errorf("%w: provider anthropic needs an API key", ErrConfig)
		}
		opts := []anthropic.Option{anthropic.WithModel(model), anthropic.WithToken(cfg.APIKey.Reveal())}
		if cfg.BaseURL != "" {
			opts = append(opts, anthropic.WithBaseURL(cfg.BaseURL))
		}
		if cfg.HTTPClient != nil {
			opts = append(opts, anthropic.WithHTTPClient(cfg.HTTPClient))
		}
		m, err = anthropic.New(opts...)
	default:
		return nil, fmt.Errorf("%w: unknown provider %q (want ollama, openai or anthropic)", ErrConfig, cfg.Provider)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, cfg.Provider, err)
	}
	return &Completer{model: m, name: cfg.Provider + "/" + model, timeout: timeout,
		opts: []llms.CallOption{llms.WithTemperature(0), llms.WithMaxTokens(maxReplyTokens)}}, nil
}

// NewWithModel wraps any langchaingo model (tests use llms/fake).
func NewWithModel(m llms.Model, name string, timeout time.Duration) *Completer {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Completer{model: m, name: name, timeout: timeout}
}

// Name is the provider and model, for logs.
func (c *Completer) Name() string { return c.name }

// Complete returns the model's reply to one prompt, or an error when the
// model fails or the deadline passes (errors.Is(err,
// context.DeadlineExceeded) then).
func (c *Completer) Complete(ctx context.Context, prompt string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	out, err := llms.GenerateFromSinglePrompt(ctx, c.model, prompt, c.opts...)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = fmt.Errorf("%w (%w)", ctxErr, err)
		}
		return "", fmt.Errorf("language model %s: %w", c.name, err)
	}
	return out, nil
}

// checkPrompt is the start-up probe: short, and answered in one token by
// any model that is there.
const checkPrompt = `Reply with the JSON object {} and nothing else.`

// Check asks the model one short question, so that start-up can say
// whether the endpoint answers. It returns how long the answer took.
func (c *Completer) Check(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := c.Complete(ctx, checkPrompt)
	return time.Since(start), err
}
