package rmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

var appStates = []string{"NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING", "FINISHED", "FAILED", "KILLED"}

// completed are the states ClientRMService's COMPLETED_APP_STATES and
// RMApp.isAppInCompletedStates treat as final.
func completed(state string) bool {
	return state == "FINISHED" || state == "FAILED" || state == "KILLED"
}

// active are ClientRMService's ACTIVE_APP_STATES, the apps the scheduler
// tracks.
func active(state string) bool { return state == "ACCEPTED" || state == "RUNNING" }

// appJSON renders an app as Hadoop 3.5.0's RM does (dao/AppInfo): the
// queue as its full path (root.default), the priority under "priority"
// (the documented examples name it "applicationPriority"), and -1 for the
// containers and resources of an app that has finished.
func appJSON(a *App) map[string]any {
	trackingUI := "ApplicationMaster"
	if a.State == "NEW" || a.State == "NEW_SAVING" || a.State == "SUBMITTED" || a.State == "ACCEPTED" {
		trackingUI = "UNASSIGNED" // AppInfo: tracking URL not ready
	} else if a.FinishedTime != 0 {
		trackingUI = "History"
	}
	elapsed := int64(0)
	if a.StartedTime > 0 {
		end := a.FinishedTime
		if end == 0 {
			end = a.StartedTime
		}
		elapsed = end - a.StartedTime
	}
	return map[string]any{
		"id":                     a.ID,
		"user":                   a.User,
		"name":                   a.Name,
		"queue":                  fullQueue(a.Queue),
		"state":                  a.State,
		"finalStatus":            a.FinalStatus,
		"progress":               a.Progress,
		"trackingUI":             trackingUI,
		"diagnostics":            a.Diagnostics,
		"clusterId":              1326815542473,
		"applicationType":        a.Type,
		"applicationTags":        strings.Join(a.Tags, ","),
		"startedTime":            a.StartedTime,
		"finishedTime":           a.FinishedTime,
		"elapsedTime":            elapsed,
		"allocatedMB":            ifActive(a, a.AllocatedMB),
		"allocatedVCores":        ifActive(a, a.AllocatedVCores),
		"runningContainers":      ifActive(a, a.RunningContainers),
		"memorySeconds":          0,
		"vcoreSeconds":           0,
		"unmanagedApplication":   "false",
		"priority":               a.Priority,
		"appNodeLabelExpression": "",
		"amNodeLabelExpression":  "",
	}
}

// ifActive is v for an app that has not finished, -1 for one that has
// (AppInfo reports no usage of a finished app).
func ifActive(a *App, v int64) int64 {
	if completed(a.State) {
		return -1
	}
	return v
}

// fullQueue is a queue's path as Hadoop 3.5.0's RM reports an app's queue:
// "default" is root.default.
func fullQueue(q string) string {
	if q == "" || q == "root" || strings.HasPrefix(q, "root.") {
		return q
	}
	return "root." + q
}

// getApps is RMWebServices.getApps: states (comma-separated, any case;
// ApplicationsRequestBuilder rejects an unknown one with
// BadRequestException), queue, applicationTags (ClientRMService
// .getApplications keeps an app carrying any of them; YARN stores tags in
// lower case) and limit. No app gives {"apps":null}, as the JAXB bean with
// a null list renders.
func (s *Server) getApps(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var states []string
	for _, v := range q["states"] {
		for _, orig := range strings.Split(v, ",") {
			st := strings.ToUpper(strings.TrimSpace(orig))
			if st == "" {
				continue
			}
			if !slices.Contains(appStates, st) {
				badRequest(w, fmt.Sprintf("Invalid application-state %s specified. It should be one of %v", strings.TrimSpace(orig), appStates))
				return
			}
			states = append(states, st)
		}
	}
	var tags []string
	for _, v := range q["applicationTags"] {
		for _, t := range strings.Split(v, ",") {
			if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
				tags = append(tags, t)
			}
		}
	}
	limit := -1
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			badRequest(w, "limit value must be greater then 0")
			return
		}
		limit = n
	}
	queue := q.Get("queue")

	s.mu.Lock()
	defer s.mu.Unlock()
	var out []any
	for _, id := range s.order {
		a := s.apps[id]
		if len(states) > 0 && !slices.Contains(states, a.State) {
			continue
		}
		if queue != "" && fullQueue(a.Queue) != fullQueue(queue) {
			continue
		}
		if len(tags) > 0 && !slices.ContainsFunc(a.Tags, func(t string) bool { return slices.Contains(tags, strings.ToLower(t)) }) {
			continue
		}
		if limit >= 0 && len(out) >= limit {
			break
		}
		out = append(out, appJSON(a))
	}
	if len(out) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{"apps": nil})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"apps": map[string]any{"app": out}})
}

// lookup is RMWebServices.getRMAppForAppId: an unknown ID is a
// NotFoundException "app with id: X not found". The caller holds s.mu.
func (s *Server) lookup(w http.ResponseWriter, id string) (*App, bool) {
	a, ok := s.apps[id]
	if !ok {
		if !strings.HasPrefix(id, "application_") {
			// ApplicationId.fromString's message, answered as a
			// BadRequestException without the "java.lang.Exception: "
			// prefix (Hadoop 3.5.0).
			remoteException(w, http.StatusBadRequest, "BadRequestException",
				"Invalid ApplicationId prefix: "+id+". The valid ApplicationId should start with prefix application",
				"org.apache.hadoop.yarn.webapp.BadRequestException")
			return nil, false
		}
		notFound(w, "app with id: "+id+" not found")
		return nil, false
	}
	return a, true
}

// getField answers one object of an app under key: RMWebServices.getApp
// {"app":{…}}, getAppState {"state":"ACCEPTED"}, getAppPriority
// {"priority":0}, getAppQueue {"queue":"default"}, getAppTimeouts
// {"timeouts":{"timeout":[…]}} (AppTimeoutsInfo is root-wrapped,
// JAXBContextResolver).
func (s *Server) getField(w http.ResponseWriter, id, key string, field func(*App) any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.lookup(w, id); ok {
		writeJSON(w, http.StatusOK, map[string]any{key: field(a)})
	}
}

// caller is the user a write is made as: user.name, or the static web user
// dr.who (hadoop.http.staticuser.user's default) without one.
func caller(r *http.Request) string {
	if u := r.URL.Query().Get("user.name"); u != "" {
		return u
	}
	return "dr.who"
}

// decode reads a JSON request body into v, answering a BadRequestException
// when it cannot (as Jersey's unmarshalling failure does).
func decode(w http.ResponseWriter, body []byte, v any) bool {
	if err := json.Unmarshal(body, v); err != nil {
		badRequest(w, "cannot parse body: "+err.Error())
		return false
	}
	return true
}

// open decodes a write's body into in, locks the server and looks the app
// up; it answers the error itself when either fails. The caller unlocks.
func (s *Server) open(w http.ResponseWriter, id string, body []byte, in any) (*App, func(), bool) {
	if !decode(w, body, in) {
		return nil, nil, false
	}
	s.mu.Lock()
	a, ok := s.lookup(w, id)
	if !ok {
		s.mu.Unlock()
		return nil, nil, false
	}
	return a, s.mu.Unlock, true
}

// putState is RMWebServices.updateAppState and killApp over
// ClientRMService.forceKillApplication:
//   - target equal to the current state: 200 with the state, nothing done;
//   - KILLED on an app whose final state is stored (FINISHED, FAILED,
//     KILLED): 200 with its state, nothing changed;
//   - KILLED on any other app: the kill event is dispatched and the answer
//     is 202 Accepted with the app's internal state afterwards (RMAppState:
//     KILLING, or KILLED if the kill has already gone through; Hadoop 3.5.0
//     answers these, not a YarnApplicationState) and a Location header; the
//     app then reaches KILLED with the diagnostics "Application <id> was
//     killed by user <user> with diagnostic message: <diagnostics>";
//   - any other target: BadRequestException "Only 'KILLED' is allowed as a
//     target state." (the documented bad-request example).
func (s *Server) putState(w http.ResponseWriter, r *http.Request, id string, body []byte) {
	user := caller(r)
	var in struct {
		State       string `json:"state"`
		Diagnostics string `json:"diagnostics"`
	}
	a, unlock, ok := s.open(w, id, body, &in)
	if !ok {
		return
	}
	defer unlock()
	if a.State == in.State {
		writeJSON(w, http.StatusOK, map[string]any{"state": a.State})
		return
	}
	if in.State != "KILLED" {
		badRequest(w, "Only 'KILLED' is allowed as a target state.")
		return
	}
	if completed(a.State) {
		writeJSON(w, http.StatusOK, map[string]any{"state": a.State})
		return
	}
	a.State, a.FinalStatus = "KILLED", "KILLED"
	a.FinishedTime = s.cfg.Now().UnixMilli()
	a.RunningContainers, a.AllocatedMB, a.AllocatedVCores = 0, 0, 0
	a.Diagnostics = "Application " + a.ID + " was killed by user " + user + " with diagnostic message: " + in.Diagnostics
	w.Header().Set("Location", "http://"+r.Host+r.URL.Path)
	writeJSON(w, http.StatusAccepted, map[string]any{"state": "KILLING"})
}

// putPriority is RMWebServices.updateApplicationPriority and
// modifyApplicationPriority over ClientRMService.updateApplicationPriority:
//   - a target equal to the current priority: 200 with it, nothing done;
//   - an app in a completed state (FINISHED, FAILED, KILLED): the update is
//     skipped and succeeds, 200 with the unchanged priority;
//   - an ACCEPTED or RUNNING app: the scheduler updates it; the Capacity
//     Scheduler caps it at the cluster maximum
//     (CapacityScheduler.checkAndGetApplicationPriority), the Fair and FIFO
//     schedulers keep the old one (AbstractYarnScheduler
//     .updateApplicationPriority is a no-op), and the answer is the app's
//     priority afterwards;
//   - any other state (NEW, NEW_SAVING, SUBMITTED): YarnException
//     "Application in X state cannot update priority.", which
//     modifyApplicationPriority does not recognise (it tests for "cannot be
//     update priority.") and rethrows: 503 from GenericExceptionHandler.
func (s *Server) putPriority(w http.ResponseWriter, id string, body []byte) {
	var in struct {
		Priority *json.Number `json:"priority"`
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	if err := dec.Decode(&in); err != nil || in.Priority == nil {
		badRequest(w, "Target Priority cannot be null")
		return
	}
	p, err := in.Priority.Int64()
	if err != nil {
		badRequest(w, "cannot parse priority "+in.Priority.String())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.lookup(w, id)
	if !ok {
		return
	}
	if a.Priority == p {
		writeJSON(w, http.StatusOK, map[string]any{"priority": p})
		return
	}
	switch {
	case completed(a.State):
	case active(a.State):
		if s.cfg.Scheduler == "capacityScheduler" {
			a.Priority = min(p, s.cfg.MaxPriority)
		}
	default:
		unavailable(w, "UndeclaredThrowableException", "java.lang.reflect.UndeclaredThrowableException",
			"Application in "+a.State+" state cannot update priority.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"priority": a.Priority})
}

// putQueue is RMWebServices.updateAppQueue and moveApp over
// ClientRMService.moveApplicationAcrossQueues:
//   - the same queue: 200, nothing done;
//   - an app in a final state: "App in FINISHED state cannot be moved.",
//     which moveApp answers as a plain-text 400;
//   - a queue that does not exist: the scheduler's YarnException "The
//     specified Queue: X doesn't exist", rethrown, 503 from
//     GenericExceptionHandler; the reservable queue itself stands for its
//     default reservation queue, "<plan>-default" (Hadoop 3.5.0);
//   - otherwise the app moves: 200 with the queue's full path.
//
// A target is a leaf queue by name or path (default, root.default) or a
// live reservation's queue by the reservation ID or its path
// (root.<plan>.<ID>, AbstractSchedulerPlanFollower.getReservationQueueName).
func (s *Server) putQueue(w http.ResponseWriter, id string, body []byte) {
	var in struct {
		Queue string `json:"queue"`
	}
	a, unlock, ok := s.open(w, id, body, &in)
	if !ok {
		return
	}
	defer unlock()
	target, known := s.resolveQueue(in.Queue)
	if known && fullQueue(a.Queue) == target {
		writeJSON(w, http.StatusOK, map[string]any{"queue": target})
		return
	}
	if completed(a.State) {
		writeText(w, http.StatusBadRequest, "App in "+a.State+" state cannot be moved.")
		return
	}
	if !known {
		unavailable(w, "UndeclaredThrowableException", "java.lang.reflect.UndeclaredThrowableException",
			"The specified Queue: "+target+" doesn't exist")
		return
	}
	a.Queue = target
	writeJSON(w, http.StatusOK, map[string]any{"queue": target})
}

// resolveQueue returns the full path of the queue q names and whether it
// exists; for an unknown q, the name the RM's error gives. The caller holds
// s.mu.
func (s *Server) resolveQueue(q string) (string, bool) {
	full := fullQueue(q)
	for _, l := range s.cfg.Queues {
		if fullQueue(l) == full {
			return full, true
		}
	}
	for _, id := range s.resOrder {
		if rq := s.reservationQueue(id); rq != "" && (q == id || full == rq) {
			return rq, true
		}
	}
	if p := s.cfg.PlanQueue; p != "" && full == fullQueue(p) {
		return strings.TrimPrefix(p, "root.") + "-default", false
	}
	return q, false
}

// timeoutJSON is RMWebServices.constructAppTimeoutDao: LIFETIME with
// expiryTime "UNLIMITED" and remainingTimeInSeconds -1 when unset, else
// the ISO 8601 expiry and the whole seconds left, never below 0.
func (s *Server) timeoutJSON(a *App) map[string]any {
	if a.LifetimeExpiry == 0 {
		return map[string]any{"type": "LIFETIME", "expiryTime": "UNLIMITED", "remainingTimeInSeconds": -1}
	}
	left := max((a.LifetimeExpiry-s.cfg.Now().UnixMilli())/1000, 0)
	return map[string]any{
		"type":                   "LIFETIME",
		"expiryTime":             time.UnixMilli(a.LifetimeExpiry).UTC().Format("2006-01-02T15:04:05.000-0700"),
		"remainingTimeInSeconds": left,
	}
}

// putTimeout is RMWebServices.updateApplicationTimeout and
// updateApplicationTimeouts over ClientRMService.updateApplicationTimeouts
// and RMServerUtils.validateISO8601AndConvertToLocalTimeEpoch:
//   - no type or no expiryTime: plain-text 400 "Timeout type or ExpiryTime
//     is null.";
//   - an app in a completed state: nothing changes, 200 with its timeout;
//   - an expiry that is not ISO 8601 (yyyy-MM-dd'T'HH:mm:ss.SSSZ):
//     java.time's DateTimeParseException, which GenericExceptionHandler
//     does not map: 503 (Hadoop 3.5.0);
//   - an expiry before the RM's clock: YarnException without a cause,
//     rethrown, 503;
//   - otherwise the LIFETIME timeout is set: 200 {"timeout":{…}}.
func (s *Server) putTimeout(w http.ResponseWriter, id string, body []byte) {
	var in struct {
		Timeout struct {
			Type       *string `json:"type"`
			ExpiryTime *string `json:"expiryTime"`
		} `json:"timeout"`
	}
	a, unlock, ok := s.open(w, id, body, &in)
	if !ok {
		return
	}
	defer unlock()
	if in.Timeout.Type == nil || in.Timeout.ExpiryTime == nil {
		writeText(w, http.StatusBadRequest, "Timeout type or ExpiryTime is null.")
		return
	}
	if *in.Timeout.Type != "LIFETIME" {
		badRequest(w, "Invalid application-state "+*in.Timeout.Type+" specified. It should be one of [LIFETIME]")
		return
	}
	if completed(a.State) {
		writeJSON(w, http.StatusOK, map[string]any{"timeout": s.timeoutJSON(a)})
		return
	}
	t, err := time.Parse("2006-01-02T15:04:05.000-0700", *in.Timeout.ExpiryTime)
	if err != nil {
		unavailable(w, "DateTimeParseException", "java.time.format.DateTimeParseException",
			"Text '"+*in.Timeout.ExpiryTime+"' could not be parsed")
		return
	}
	now := s.cfg.Now()
	if t.Before(now) {
		unavailable(w, "UndeclaredThrowableException", "java.lang.reflect.UndeclaredThrowableException",
			"Expire time is less than current time, current-time="+now.Format("2006-01-02T15:04:05.000-0700")+
				" expire-time="+t.Format("2006-01-02T15:04:05.000-0700"))
		return
	}
	a.LifetimeExpiry = t.UnixMilli()
	writeJSON(w, http.StatusOK, map[string]any{"timeout": s.timeoutJSON(a)})
}
