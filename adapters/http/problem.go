package http

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
)

// decodeProblem turns a JSON decoding error of a request body into a status
// and a reason a client can act on. Reasons name JSON, never Go: no type
// names, no socket addresses.
func decodeProblem(err error) (int, string) {
	if tooBig, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than %d bytes", tooBig.Limit)
	}
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		return http.StatusRequestTimeout, "the request body did not arrive in time"
	}
	if syntax, ok := errors.AsType[*json.SyntaxError](err); ok {
		return http.StatusBadRequest, fmt.Sprintf("request body is not valid JSON (at byte %d): %s",
			syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: "))
	}
	if typ, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		if typ.Field == "" {
			return http.StatusBadRequest, fmt.Sprintf(`request body must be a JSON object like {"question": "..."}, not %s`, jsonKind(typ.Value))
		}
		return http.StatusBadRequest, fmt.Sprintf("field %q must be %s, not %s", typ.Field, jsonTypeOf(typ.Type), jsonKind(typ.Value))
	}
	switch {
	case errors.Is(err, io.EOF):
		return http.StatusBadRequest, `request body is empty; send {"question": "..."}`
	case errors.Is(err, io.ErrUnexpectedEOF):
		return http.StatusBadRequest, "request body is not valid JSON: it ends too early"
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field ") {
		return http.StatusBadRequest, "request body is not a valid ask request: " + msg
	}
	// Anything else (a broken connection) is not the client's JSON's fault,
	// and its text may carry addresses: keep it out of the reply.
	return http.StatusBadRequest, "the request body could not be read"
}

// jsonTypeOf names a Go type by the JSON value that fits it.
func jsonTypeOf(t reflect.Type) string {
	if t == nil {
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}

// jsonKind names the JSON value the decoder met.
func jsonKind(v string) string {
	switch {
	case v == "array":
		return "an array"
	case v == "object":
		return "an object"
	case v == "string":
		return "a string"
	case v == "bool":
		return "true or false"
	case v == "null":
		return "null"
	case strings.HasPrefix(v, "number"):
		return "a number"
	}
	return "that value"
}
