// Package rmtest is a stateful test double of the YARN ResourceManager's
// REST API for tests of package rm and of the controllers built on it.
//
// Its answers are Hadoop 3.5.0's: the contract tests of packages rm and
// controller run the same code against it and against Hadoop 3.5.0's
// ResourceManager (the real tier), and every difference they showed was
// settled here or in the client — full queue paths (root.default,
// root.<plan>.<reservation ID>), the priority under "priority", -1
// containers for a finished app, a kill answered 202 with the RM's
// internal state (KILLING) and recorded as "Application <id> was killed
// by user <user> with diagnostic message: …", writes without user.name
// made as dr.who, reservation writes read only inside their root element
// and answered inside one, unquoted numbers and arrays in the reservation
// list, a reservation's queue reported with its capacity but no effective
// resources until a node's resource is written (POST
// nodes/{id}/resource, answered with the node's resource as it was), and
// the error texts. Where the real tier cannot reach (an app not
// yet ACCEPTED, the Fair and FIFO schedulers, the ReservationSystem off,
// an authentication filter) it follows the RM source it cites, file and
// method (RMWebServices.java for the REST layer, ClientRMService.java for
// the checks behind it, GenericExceptionHandler.java for the mapping of
// exceptions to statuses and RemoteException bodies). Scheduling itself
// is not simulated: apps change state only when a test says so (SetState)
// or when a kill, a queue move or a reservation acts on them, and a
// reservation's queue exists at once (Hadoop's appears at the plan
// follower's next step, which the controller waits for).
//
// Faults are injected per path prefix: a status code answered a number of
// times, a stall before answering, or a malformed body.
package rmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
)

// App is an application held by the server. Times are milliseconds since
// the epoch; LifetimeExpiry 0 means no LIFETIME timeout.
type App struct {
	ID                string
	User, Name, Queue string
	State             string // YarnApplicationState: ACCEPTED, RUNNING, FINISHED …
	FinalStatus       string // UNDEFINED, SUCCEEDED, FAILED, KILLED
	Progress          float64
	Type              string
	Tags              []string
	StartedTime       int64
	FinishedTime      int64
	AllocatedMB       int64
	AllocatedVCores   int64
	RunningContainers int64
	Priority          int64
	Diagnostics       string
	LifetimeExpiry    int64
}

// Node is a NodeManager held by the server.
type Node struct {
	ID, Rack, State, Host     string
	UsedMB, AvailMB           int64
	UsedVCores, AvailVCores   int64
	NumContainers             int64
	HealthStatus, HealthNotes string
}

// Config sets up a Server. The zero value is a Capacity Scheduler cluster
// with maximum application priority 0 (YARN's default), one queue
// "default", no ReservationSystem and the wall clock.
type Config struct {
	// Scheduler is "capacityScheduler" (default), "fairScheduler" or
	// "fifoScheduler".
	Scheduler string
	// MaxPriority is yarn.cluster.max-application-priority: the Capacity
	// Scheduler caps any priority above it.
	MaxPriority int64
	// Queues are the leaf queues apps can be moved to; nil means
	// {"default"}.
	Queues []string
	// PlanQueue is the reservable queue of the ReservationSystem; empty
	// means the ReservationSystem is off.
	PlanQueue string
	// PlanContainers is the plan's capacity in containers (default 100).
	PlanContainers int64
	// ClusterTimestamp is the RM start time used in reservation IDs
	// (default 1700000000000).
	ClusterTimestamp int64
	// Now is the RM's clock; nil means time.Now.
	Now func() time.Time
	// RequireUser refuses a write without a user.name with 401, as an RM
	// with an authentication filter in front of its web services does
	// (RMWebServices.initForWritableEndpoints finds no caller). By default
	// a write without one is made as the static web user dr.who, as on an
	// RM whose only filter is the default StaticUserWebFilter
	// (hadoop.http.staticuser.user) — Hadoop 3.5.0's MiniYARNCluster does so.
	RequireUser bool
}

// Request is one request the server received.
type Request struct {
	Method, Path, Query, Body string
	Status                    int
}

// A Fault changes the answer to requests whose path starts with Path, the
// next Times times (a Times of 0 means once).
type Fault struct {
	Path  string
	Times int
	// Status, when not 0, is answered with a RemoteException body.
	Status int
	// Stall delays the answer (until the client gives up, if shorter).
	Stall time.Duration
	// Body, when not empty, is answered with status 200 instead of the
	// real answer.
	Body string
}

// Server is the test double. Its methods are safe for concurrent use.
type Server struct {
	*httptest.Server

	cfg Config

	mu       sync.Mutex
	apps     map[string]*App
	order    []string // app IDs in insertion order
	nodes    []Node
	res      map[string]*reservation
	resOrder []string
	resSeq   int
	appSeq   int
	faults   []Fault
	log      []Request
	// nodeWrites counts POST nodes/{id}/resource.
	nodeWrites int
}

// New starts a server; Close it when done.
func New(cfg Config) *Server {
	if cfg.Scheduler == "" {
		cfg.Scheduler = "capacityScheduler"
	}
	if cfg.Queues == nil {
		cfg.Queues = []string{"default"}
	}
	if cfg.PlanContainers == 0 {
		cfg.PlanContainers = 100
	}
	if cfg.ClusterTimestamp == 0 {
		cfg.ClusterTimestamp = 1700000000000
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, apps: map[string]*App{}, res: map[string]*reservation{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// AddApp adds or replaces an application.
func (s *Server) AddApp(a App) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.apps[a.ID]; !ok {
		s.order = append(s.order, a.ID)
	}
	if a.FinalStatus == "" {
		a.FinalStatus = "UNDEFINED"
	}
	a.Tags = slices.Clone(a.Tags)
	s.apps[a.ID] = &a
}

// App returns a copy of an application and whether it exists.
func (s *Server) App(id string) (App, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.apps[id]
	if !ok {
		return App{}, false
	}
	c := *a
	c.Tags = slices.Clone(a.Tags)
	return c, true
}

// AddNode adds a NodeManager.
func (s *Server) AddNode(n Node) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n.State == "" {
		n.State = "RUNNING"
	}
	if n.HealthStatus == "" {
		n.HealthStatus = "Healthy"
	}
	s.nodes = append(s.nodes, n)
}

// Inject queues a fault.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.Times <= 0 {
		f.Times = 1
	}
	s.faults = append(s.faults, f)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// Writes returns the requests received so far that were not GETs.
func (s *Server) Writes() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method != http.MethodGet {
			out = append(out, r)
		}
	}
	return out
}

// recorder captures the status for the request log.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	if f, ok := s.takeFault(r.URL.Path); ok {
		if f.Stall > 0 {
			t := time.NewTimer(f.Stall)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
			}
		}
		switch {
		case f.Status != 0:
			remoteException(rec, f.Status, "WebApplicationException", "injected fault", "javax.ws.rs.WebApplicationException")
			s.record(r, body, rec.status)
			return
		case f.Body != "":
			rec.Header().Set("Content-Type", "application/json")
			io.WriteString(rec, f.Body)
			s.record(r, body, rec.status)
			return
		}
	}
	s.route(rec, r, body)
	s.record(r, body, rec.status)
}

func (s *Server) takeFault(path string) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.faults {
		f := &s.faults[i]
		if f.Times > 0 && strings.HasPrefix(path, f.Path) {
			f.Times--
			out := *f
			if f.Times == 0 {
				s.faults = slices.Delete(s.faults, i, i+1)
			}
			return out, true
		}
	}
	return Fault{}, false
}

func (s *Server) record(r *http.Request, body []byte, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: string(body), Status: status})
}

const base = "/ws/v1/cluster"

// route dispatches like RMWebServices' @Path annotations (RMWSConsts).
func (s *Server) route(w http.ResponseWriter, r *http.Request, body []byte) {
	p := strings.TrimSuffix(r.URL.Path, "/")
	if !strings.HasPrefix(p, base) {
		notFoundPath(w, p)
		return
	}
	rest := strings.TrimPrefix(p, base)
	write := r.Method != http.MethodGet
	if write && s.cfg.RequireUser && r.URL.Query().Get("user.name") == "" {
		// RMWebServices.initForWritableEndpoints: no caller UGI →
		// AuthorizationException, which GenericExceptionHandler maps
		// to 401.
		remoteException(w, http.StatusUnauthorized, "AuthorizationException",
			"Unable to obtain user name, user not authenticated",
			"org.apache.hadoop.security.authorize.AuthorizationException")
		return
	}
	parts := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	switch {
	case rest == "/apps" && r.Method == http.MethodGet:
		s.getApps(w, r)
	case rest == "/apps" && r.Method == http.MethodPost:
		s.submitApp(w, r, body)
	case rest == "/apps/new-application" && r.Method == http.MethodPost:
		s.newApplication(w)
	case len(parts) == 2 && parts[0] == "apps" && r.Method == http.MethodGet:
		s.getField(w, parts[1], "app", func(a *App) any { return appJSON(a) })
	case len(parts) == 3 && parts[0] == "apps":
		s.appSub(w, r, parts[1], parts[2], body)
	case rest == "/nodes" && r.Method == http.MethodGet:
		s.getNodes(w, r)
	case len(parts) == 3 && parts[0] == "nodes" && parts[2] == "resource" && r.Method == http.MethodPost:
		s.setNodeResource(w, parts[1], body)
	case rest == "/metrics" && r.Method == http.MethodGet:
		s.getMetrics(w)
	case rest == "/scheduler" && r.Method == http.MethodGet:
		s.getScheduler(w)
	case len(parts) == 2 && parts[0] == "reservation":
		s.reservation(w, r, parts[1], body)
	default:
		notFoundPath(w, p)
	}
}

func (s *Server) appSub(w http.ResponseWriter, r *http.Request, id, sub string, body []byte) {
	switch {
	case sub == "state" && r.Method == http.MethodGet:
		s.getField(w, id, "state", func(a *App) any { return a.State })
	case sub == "state" && r.Method == http.MethodPut:
		s.putState(w, r, id, body)
	case sub == "priority" && r.Method == http.MethodGet:
		s.getField(w, id, "priority", func(a *App) any { return a.Priority })
	case sub == "priority" && r.Method == http.MethodPut:
		s.putPriority(w, id, body)
	case sub == "queue" && r.Method == http.MethodGet:
		s.getField(w, id, "queue", func(a *App) any { return a.Queue })
	case sub == "queue" && r.Method == http.MethodPut:
		s.putQueue(w, id, body)
	case sub == "timeouts" && r.Method == http.MethodGet:
		s.getField(w, id, "timeouts", func(a *App) any {
			return map[string]any{"timeout": []any{s.timeoutJSON(a)}}
		})
	case sub == "timeout" && r.Method == http.MethodPut:
		s.putTimeout(w, id, body)
	default:
		notFoundPath(w, r.URL.Path)
	}
}

// writeJSON writes v with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("rmtest: encoding %T: %v", v, err)) // broken test double, not caller data
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// writeText writes a plain-text entity, as the REST layer does where it
// builds a Response from a message string.
func writeText(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(status)
	io.WriteString(w, msg)
}

// remoteException writes GenericExceptionHandler.toResponse's body:
// {"RemoteException":{"exception","message","javaClassName"}}.
func remoteException(w http.ResponseWriter, status int, exception, message, class string) {
	writeJSON(w, status, map[string]any{"RemoteException": map[string]string{
		"exception": exception, "message": message, "javaClassName": class,
	}})
}

// notFound is the RM's NotFoundException (webapp.NotFoundException, 404).
func notFound(w http.ResponseWriter, msg string) {
	remoteException(w, http.StatusNotFound, "NotFoundException", "java.lang.Exception: "+msg,
		"org.apache.hadoop.yarn.webapp.NotFoundException")
}

func notFoundPath(w http.ResponseWriter, p string) {
	notFound(w, "no resource at "+p)
}

// badRequest is webapp.BadRequestException (400); the documented example
// of its message carries the "java.lang.Exception: " prefix.
func badRequest(w http.ResponseWriter, msg string) {
	remoteException(w, http.StatusBadRequest, "BadRequestException", "java.lang.Exception: "+msg,
		"org.apache.hadoop.yarn.webapp.BadRequestException")
}

// unavailable is what GenericExceptionHandler answers for an exception it
// does not map (a YarnException rethrown as UndeclaredThrowableException,
// a YarnRuntimeException): 503 SERVICE_UNAVAILABLE with the cause's
// message.
func unavailable(w http.ResponseWriter, exception, class, msg string) {
	remoteException(w, http.StatusServiceUnavailable, exception, msg, class)
}
