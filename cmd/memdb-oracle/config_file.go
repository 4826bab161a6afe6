package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"go.yaml.in/yaml/v3"
)

// configFileArg finds --config in args (before kong parses them, since
// the file feeds the parse) or else MEMDB_ORACLE_CONFIG.
func configFileArg(args []string, getenv func(string) string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--config="); ok {
			return v
		}
		if a == "--config" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return strings.TrimSpace(getenv("MEMDB_ORACLE_CONFIG"))
}

// readConfigFile reads a YAML file of settings into values by flag name.
// Keys are flag names (http-addr) or variable names (MEMDB_ORACLE_HTTP_ADDR);
// lists become comma-separated text. An unknown key is an error naming
// the nearest real one: a misspelt setting never goes unnoticed.
func readConfigFile(path string) (map[string]string, error) {
	if path == "" {
		return nil, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	var raw map[string]any
	if err := yaml.Unmarshal(src, &raw); err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	byKey := map[string]string{}
	var names []string
	for _, s := range declaredSettings() {
		byKey[s.Flag], byKey[s.Env] = s.Flag, s.Flag
		names = append(names, s.Flag)
	}
	out := map[string]string{}
	var problems []error
	for key, v := range raw {
		flag, ok := byKey[key]
		if !ok {
			flag, ok = byKey[strings.ReplaceAll(key, "_", "-")]
		}
		if !ok || flag == "config" {
			msg := fmt.Sprintf("config file %s: %q is not a setting", path, key)
			if near := nearest(key, names); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
			problems = append(problems, errors.New(msg))
			continue
		}
		text, err := configValue(v)
		if err != nil {
			problems = append(problems, fmt.Errorf("config file %s: %s: %w", path, key, err))
			continue
		}
		out[flag] = text
	}
	return out, errors.Join(problems...)
}

// configValue turns a YAML scalar or list into the setting's text.
func configValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int:
		return strconv.Itoa(x), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := configValue(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("want text, a number, true/false or a list, got %T", v)
}

// nearest is the name in names closest to s in edit distance (ignoring
// case), or "" when none is close enough to be a likely misspelling.
func nearest(s string, names []string) string {
	limit := len(s)/4 + 2
	best, bestD := "", limit+1
	for _, n := range names {
		if d := levenshtein.ComputeDistance(strings.ToUpper(s), strings.ToUpper(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}
