package slack

import (
	"os"
	"slices"
	"strings"
	"testing"

	slackgo "github.com/slack-go/slack"
	"go.yaml.in/yaml/v3"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// TestTheAppManifestAsksForExactlyWhatTheAdapterUses keeps
// deploy/slack-app-manifest.yaml in step with the code: its scopes, its
// event subscriptions, and its URLs on the paths Mount serves.
func TestTheAppManifestAsksForExactlyWhatTheAdapterUses(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/slack-app-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifest := string(raw)
	scopes := yamlList(manifest, "    bot:")
	wantScopes := []string{
		"app_mentions:read", // onMention
		"assistant:write",   // onAssistantThread*, onAppContextChanged, showAnswering
		"channels:history",  // onMessage: follow-ups in public channels
		"chat:write",        // outbound.post, outbound.ephemeral, answerStream
		"commands",          // onCommand
		"files:write",       // outbound.upload
		"groups:history",    // onMessage: follow-ups in private channels
		"im:history",        // onMessage: direct messages
	}
	if !slices.Equal(scopes, wantScopes) {
		t.Errorf("manifest scopes %v, want exactly %v", scopes, wantScopes)
	}
	events := yamlList(manifest, "    bot_events:")
	if want := []string{
		"app_context_changed",                              // onAppContextChanged
		"app_home_opened",                                  // onAppHomeOpened
		"app_mention",                                      // onMention
		"assistant_thread_context_changed",                 // onAssistantThreadContextChanged
		"assistant_thread_started",                         // onAssistantThreadStarted
		"message.channels", "message.groups", "message.im", // onMessage
	}; !slices.Equal(events, want) {
		t.Errorf("manifest events %v, want exactly %v", events, want)
	}
	for _, path := range []string{EventsPath, CommandsPath, InteractivityPath} {
		if !strings.Contains(manifest, "https://YOUR-HOST"+path+"\n") {
			t.Errorf("manifest has no URL on %s", path)
		}
	}
	if !strings.Contains(manifest, "command: /oracle\n") {
		t.Error("manifest lacks the /oracle command")
	}
}

// yamlList returns the "- item" lines that follow a key line.
func yamlList(doc, key string) []string {
	_, rest, ok := strings.Cut(doc, "\n"+key+"\n")
	if !ok {
		return nil
	}
	var items []string
	for _, line := range strings.Split(rest, "\n") {
		item, isItem := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !isItem {
			break
		}
		items = append(items, item)
	}
	return items
}

// TestTheManifestDeclaresTheAgentViewWithPromptsThatWork reads the
// manifest as slack-go's Manifest: the agent and assistant views are
// declared, each with suggested prompts that are examples the bot really
// answers.
func TestTheManifestDeclaresTheAgentViewWithPromptsThatWork(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/slack-app-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m slackgo.Manifest
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatalf("the manifest is not a Slack manifest: %v", err)
	}
	if !m.Features.AppHome.HomeTabEnabled {
		t.Error("the Home tab is not enabled, though app_home_opened publishes it")
	}
	if m.Features.AgentView == nil || m.Features.AssistantView == nil {
		t.Fatalf("agent_view %v, assistant_view %v: want both", m.Features.AgentView, m.Features.AssistantView)
	}
	examples := bot.Examples()
	for _, p := range append(m.Features.AgentView.SuggestedPrompts, m.Features.AssistantView.SuggestedPrompts...) {
		if !slices.Contains(examples, p.Message) {
			t.Errorf("suggested prompt %q is not one of the examples that really work", p.Message)
		}
	}
}
