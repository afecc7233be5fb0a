package rm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ErrNotFound is matched (errors.Is) by an *Error whose status is 404: the
// app, node or reservation does not exist.
var ErrNotFound = errors.New("rm: not found")

// An Error is a non-2xx answer of the ResourceManager. The RM's web
// services map exceptions to a status and a RemoteException body
// (GenericExceptionHandler.toResponse: NotFoundException 404,
// BadRequestException and IllegalArgumentException 400, ForbiddenException
// 403, AuthorizationException 401, anything else 503); some endpoints
// answer a plain-text message instead (RMWebServices.killApp and
// modifyApplicationPriority on a permission problem, updateApplicationTimeouts
// on a bad time). Error carries both.
type Error struct {
	Method string // HTTP method
	Path   string // request path, without the query
	Status int    // HTTP status code
	// Exception, Message and JavaClassName are the RemoteException fields,
	// empty when the body was not one.
	Exception     string
	Message       string
	JavaClassName string
	// Body is the start of a body that was not a RemoteException.
	Body string
}

// Error returns one line: method, path, status, and the RM's message.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rm: %s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	switch {
	case e.Message != "" || e.Exception != "":
		fmt.Fprintf(&b, ": %s: %s", e.Exception, e.Message)
	case e.Body != "":
		fmt.Fprintf(&b, ": %s", e.Body)
	}
	return b.String()
}

// Is reports whether target is ErrNotFound and the status is 404.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Status == http.StatusNotFound
}

// Temporary reports whether retrying the request may succeed: a 5xx status.
func (e *Error) Temporary() bool { return e.Status >= 500 }

// maxErrorBody bounds how much of a non-RemoteException body an Error
// keeps.
const maxErrorBody = 512

// newError builds an Error from a non-2xx response body.
func newError(method, path string, status int, body []byte) *Error {
	e := &Error{Method: method, Path: path, Status: status}
	var re struct {
		RemoteException *struct {
			Exception     String `json:"exception"`
			Message       String `json:"message"`
			JavaClassName String `json:"javaClassName"`
		} `json:"RemoteException"`
	}
	if json.Unmarshal(body, &re) == nil && re.RemoteException != nil {
		e.Exception = string(re.RemoteException.Exception)
		e.Message = string(re.RemoteException.Message)
		e.JavaClassName = string(re.RemoteException.JavaClassName)
		return e
	}
	s := strings.Join(strings.Fields(string(body)), " ")
	if len(s) > maxErrorBody {
		s = s[:maxErrorBody] + "…"
	}
	e.Body = s
	return e
}
