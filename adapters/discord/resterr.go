package discord

import (
	"errors"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// restCode returns the HTTP status and Discord's JSON error code of a REST
// error (0, 0 when err is not one).
func restCode(err error) (status, code int) {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return 0, 0
	}
	if re.Message != nil {
		code = re.Message.Code
	}
	return re.Response.StatusCode, code
}

// missingPermission reports whether Discord refused a request because the
// bot lacks a permission or access to the channel.
func missingPermission(err error) bool {
	status, code := restCode(err)
	return status == http.StatusForbidden ||
		code == discordgo.ErrCodeMissingPermissions || code == discordgo.ErrCodeMissingAccess
}

// fileRefused reports whether a message failed because of its attachment:
// no Attach Files permission, or the file too large.
func fileRefused(err error) bool {
	status, code := restCode(err)
	return missingPermission(err) || status == http.StatusRequestEntityTooLarge ||
		code == discordgo.ErrCodeRequestEntityTooLarge
}
