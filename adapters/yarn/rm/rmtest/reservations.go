package rmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// reservationRequest is one stage as ReservationRequestInfo decodes it.
type reservationRequest struct {
	Capability struct {
		Memory int64 `json:"memory"`
		VCores int64 `json:"vCores"`
	} `json:"capability"`
	NumContainers  int64 `json:"num-containers"`
	MinConcurrency int64 `json:"min-concurrency"`
	Duration       int64 `json:"duration"`
}

// definition is ReservationDefinitionInfo.
type definition struct {
	Arrival  int64  `json:"arrival"`
	Deadline int64  `json:"deadline"`
	Name     string `json:"reservation-name"`
	Priority int64  `json:"priority"`
	Requests *struct {
		Interpreter int                  `json:"reservation-request-interpreter"`
		Request     []reservationRequest `json:"reservation-request"`
	} `json:"reservation-requests"`
}

type reservation struct {
	id, queue, user string
	accepted        int64
	def             definition
	// gen is the server's count of node resource writes when the
	// reservation was made: its queue has effective resources only once
	// a later write has made the scheduler compute them.
	gen int
}

// planFollowerStep is yarn.resourcemanager.reservation-system
// .planfollower.time-step's default, 1 s: a reservation arriving within it
// is synchronised into the scheduler at once (ClientRMService
// .refreshScheduler); a later one when the plan follower reaches it.
const planFollowerStep = 1000

// reservationQueue is the full path of the queue a live reservation's apps
// run in, root.<plan>.<ID> — the reservation ID under the plan queue
// (AbstractSchedulerPlanFollower.getReservationQueueName; an app moved
// there reports this path under Hadoop 3.5.0's Capacity Scheduler) — or ""
// before the reservation's arrival. The caller holds s.mu.
func (s *Server) reservationQueue(id string) string {
	r, ok := s.res[id]
	if !ok || s.cfg.Now().UnixMilli() < r.def.Arrival-planFollowerStep {
		return ""
	}
	return fullQueue(r.queue) + "." + id
}

// ReservationQueue returns the full path of the queue apps of reservation
// id run in, "" if there is no such live reservation.
func (s *Server) ReservationQueue(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reservationQueue(id)
}

// Reservation returns a reservation's arrival, deadline, name and first
// request's containers, minimum concurrency and duration.
func (s *Server) Reservation(id string) (arrival, deadline int64, name string, containers, minConcurrency, duration int64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, found := s.res[id]
	if !found || r.def.Requests == nil || len(r.def.Requests.Request) == 0 {
		return 0, 0, "", 0, 0, 0, false
	}
	q := r.def.Requests.Request[0]
	return r.def.Arrival, r.def.Deadline, r.def.Name, q.NumContainers, q.MinConcurrency, q.Duration, true
}

// AddReservation adds a reservation as if submitted earlier.
func (s *Server) AddReservation(id, name string, arrival, deadline, containers, minConcurrency, duration, memoryMB, vcores int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &reservation{id: id, queue: s.cfg.PlanQueue, user: "schedkit", accepted: s.cfg.Now().UnixMilli()}
	r.def = definition{Arrival: arrival, Deadline: deadline, Name: name}
	r.def.Requests = &struct {
		Interpreter int                  `json:"reservation-request-interpreter"`
		Request     []reservationRequest `json:"reservation-request"`
	}{Interpreter: 1}
	var q reservationRequest
	q.Capability.Memory, q.Capability.VCores = memoryMB, vcores
	q.NumContainers, q.MinConcurrency, q.Duration = containers, minConcurrency, duration
	r.def.Requests.Request = []reservationRequest{q}
	if _, ok := s.res[id]; !ok {
		s.resOrder = append(s.resOrder, id)
	}
	s.res[id] = r
}

func (s *Server) reservation(w http.ResponseWriter, r *http.Request, op string, body []byte) {
	switch {
	case op == "new-reservation" && r.Method == http.MethodPost:
		s.newReservation(w)
	case op == "submit" && r.Method == http.MethodPost:
		s.submitReservation(w, r, body)
	case op == "update" && r.Method == http.MethodPost:
		s.updateReservation(w, body)
	case op == "delete" && r.Method == http.MethodPost:
		s.deleteReservation(w, body)
	case op == "list" && r.Method == http.MethodGet:
		s.listReservations(w, r)
	default:
		notFoundPath(w, r.URL.Path)
	}
}

const reservationOff = "Reservation is not enabled. Please enable & try again"

// unwrap returns the content of a write's root element (Hadoop 3.5.0's
// web services read a reservation write only inside it: e.g.
// {"reservation-submission-context":{…}}); a body without it is read as
// empty, as the RM does.
func unwrap(body []byte, root string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return body
	}
	if inner, ok := m[root]; ok {
		return inner
	}
	return []byte("{}")
}

// newReservation is RMWebServices.createNewReservation over
// ClientRMService.getNewReservation. With the ReservationSystem off,
// checkReservationSytem's YarnException is wrapped in a
// YarnRuntimeException, which GenericExceptionHandler answers 503 with the
// cause's message. Otherwise {"reservation-id":"reservation_<ts>_<seq>"}
// (ReservationId.toString, sequence zero-padded to 4 digits), wrapped as
// Hadoop 3.5.0 writes it: {"new-reservation":{"reservation-id":…}}.
func (s *Server) newReservation(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg.PlanQueue == "" {
		unavailable(w, "YarnRuntimeException", "org.apache.hadoop.yarn.exceptions.YarnRuntimeException", reservationOff)
		return
	}
	s.resSeq++
	writeJSON(w, http.StatusOK, map[string]any{"new-reservation": map[string]any{
		"reservation-id": fmt.Sprintf("reservation_%d_%04d", s.cfg.ClusterTimestamp, s.resSeq)}})
}

// validate is RMWebServices.createReservationSubmissionRequest's defence
// and ReservationInputValidator.validateReservationDefinition; it returns
// the message of the BadRequestException the RM would answer, or "".
func (s *Server) validate(def *definition) string {
	if def == nil {
		return "Input ReservationDefinition should not be null"
	}
	if def.Requests == nil || len(def.Requests.Request) == 0 {
		return "The ReservationDefinition should contain at least one ReservationRequest"
	}
	if def.Requests.Interpreter < 0 || def.Requests.Interpreter > 3 {
		return fmt.Sprintf("ReservationRequestInterpreter index %d out of bounds", def.Requests.Interpreter)
	}
	if def.Deadline <= s.cfg.Now().UnixMilli() {
		return fmt.Sprintf("The specified deadline: %d is the past. Please try again with deadline in the future.", def.Deadline)
	}
	var minDuration, maxGang int64
	for _, q := range def.Requests.Request {
		if def.Requests.Interpreter <= 1 { // R_ANY, R_ALL
			minDuration = max(minDuration, q.Duration)
		} else {
			minDuration += q.Duration
		}
		maxGang = max(maxGang, q.MinConcurrency)
	}
	if def.Deadline-def.Arrival < minDuration && def.Requests.Interpreter != 0 {
		return fmt.Sprintf("The time difference (%d) between arrival (%d) and deadline (%d) must  be greater or equal to the minimum resource duration (%d)",
			def.Deadline-def.Arrival, def.Arrival, def.Deadline, minDuration)
	}
	if maxGang > s.cfg.PlanContainers && def.Requests.Interpreter != 0 {
		return fmt.Sprintf("The size of the largest gang in the reservation refinition (%d containers) exceed the capacity available (%d containers )", maxGang, s.cfg.PlanContainers)
	}
	return ""
}

// fits is a stand-in for the plan's reservation agent (the greedy agent
// places the request's container-time in the window): the request's
// container-milliseconds must fit in the plan's capacity over [arrival,
// deadline] minus those of the other reservations whose windows overlap
// it. It is coarser than GreedyReservationAgent and says so.
func (s *Server) fits(def *definition, except string) bool {
	var need int64
	for _, q := range def.Requests.Request {
		need += q.NumContainers * q.Duration
	}
	avail := s.cfg.PlanContainers * (def.Deadline - def.Arrival)
	for _, id := range s.resOrder {
		o := s.res[id]
		if id == except || o.def.Deadline <= def.Arrival || o.def.Arrival >= def.Deadline {
			continue
		}
		for _, q := range o.def.Requests.Request {
			avail -= q.NumContainers * q.Duration
		}
	}
	return need <= avail
}

// submitReservation is RMWebServices.submitReservation over
// ClientRMService.submitReservation and ReservationInputValidator
// .validateReservationSubmissionRequest. Every failure is a YarnException
// turned into BadRequestException (400). A reservation ID submitted again
// with the same definition is accepted without change; with another
// definition it is refused. Success is 202 Accepted with no body (the
// documentation says 200; the source answers Status.ACCEPTED).
func (s *Server) submitReservation(w http.ResponseWriter, r *http.Request, body []byte) {
	var in struct {
		Queue string      `json:"queue"`
		ID    string      `json:"reservation-id"`
		Def   *definition `json:"reservation-definition"`
	}
	if !decode(w, unwrap(body, "reservation-submission-context"), &in) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in.Def == nil {
		badRequest(w, "Input ReservationDefinition should not be null")
		return
	}
	if msg := s.validate(in.Def); strings.HasPrefix(msg, "Input") || strings.HasPrefix(msg, "The ReservationDefinition") {
		badRequest(w, msg)
		return
	}
	if s.cfg.PlanQueue == "" {
		badRequest(w, reservationOff)
		return
	}
	if in.ID == "" {
		badRequest(w, "Reservation id cannot be null. Please try again specifying a valid reservation id by creating a new reservation id.")
		return
	}
	if !strings.HasPrefix(in.ID, "reservation_") {
		badRequest(w, "The specified reservation id "+in.ID+" is invalid")
		return
	}
	if in.Queue != s.cfg.PlanQueue {
		badRequest(w, "The specified queue: "+in.Queue+" is not managed by reservation system. Please try again with a valid reservable queue.")
		return
	}
	if msg := s.validate(in.Def); msg != "" {
		badRequest(w, msg)
		return
	}
	if old, ok := s.res[in.ID]; ok {
		if !reflect.DeepEqual(old.def, *in.Def) {
			badRequest(w, "Reservation allocation already exists with the reservation id "+in.ID+
				", but a different reservation definition was provided. Please try again with a new reservation id, or consider updating the reservation instead.")
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !s.fits(in.Def, "") {
		badRequest(w, "The planning algorithm could not find a valid allocation for your request")
		return
	}
	user := r.URL.Query().Get("user.name")
	s.res[in.ID] = &reservation{id: in.ID, queue: in.Queue, user: user, accepted: s.cfg.Now().UnixMilli(), def: *in.Def, gen: s.nodeWrites}
	s.resOrder = append(s.resOrder, in.ID)
	w.WriteHeader(http.StatusAccepted)
}

// updateReservation is RMWebServices.updateReservation over
// ClientRMService.updateReservation and ReservationInputValidator
// .validateReservationUpdateRequest: try-and-swap, a failure leaves the
// old reservation. 200 with {"reservation-update-response":{}}.
func (s *Server) updateReservation(w http.ResponseWriter, body []byte) {
	var in struct {
		ID  *string     `json:"reservation-id"`
		Def *definition `json:"reservation-definition"`
	}
	if !decode(w, unwrap(body, "reservation-update-context"), &in) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if msg := s.validate(in.Def); strings.HasPrefix(msg, "Input") || strings.HasPrefix(msg, "The ReservationDefinition") {
		badRequest(w, msg)
		return
	}
	if in.ID == nil {
		badRequest(w, "Update operations must specify an existing ReservaitonId")
		return
	}
	if s.cfg.PlanQueue == "" {
		badRequest(w, reservationOff)
		return
	}
	old, ok := s.res[*in.ID]
	if !ok {
		badRequest(w, "The specified reservation with ID: "+*in.ID+" is unknown. Please try again with a valid reservation.")
		return
	}
	if msg := s.validate(in.Def); msg != "" {
		badRequest(w, msg)
		return
	}
	if !s.fits(in.Def, *in.ID) {
		badRequest(w, "The planning algorithm could not find a valid allocation for your request")
		return
	}
	old.def = *in.Def
	writeJSON(w, http.StatusOK, map[string]any{"reservation-update-response": map[string]any{}})
}

// deleteReservation is RMWebServices.deleteReservation over
// ClientRMService.deleteReservation (Hadoop 3.5.0): no ID is a
// BadRequestException "Missing reservation id…", an unknown one the
// plan's IllegalArgumentException (400), a known one is cancelled, 200
// with {"reservation-delete-response":{}}.
func (s *Server) deleteReservation(w http.ResponseWriter, body []byte) {
	var in struct {
		ID string `json:"reservation-id"`
	}
	if !decode(w, unwrap(body, "reservation-delete-context"), &in) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in.ID == "" {
		remoteException(w, http.StatusBadRequest, "BadRequestException",
			"Missing reservation id. Please try again by specifying a reservation id.",
			"org.apache.hadoop.yarn.webapp.BadRequestException")
		return
	}
	if s.cfg.PlanQueue == "" {
		badRequest(w, reservationOff)
		return
	}
	if _, ok := s.res[in.ID]; !ok {
		remoteException(w, http.StatusBadRequest, "IllegalArgumentException",
			"The specified Reservation with ID "+in.ID+" does not exist in the plan", "java.lang.IllegalArgumentException")
		return
	}
	delete(s.res, in.ID)
	for i, id := range s.resOrder {
		if id == in.ID {
			s.resOrder = append(s.resOrder[:i], s.resOrder[i+1:]...)
			break
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"reservation-delete-response": map[string]any{}})
}

// q is a number of the reservation list. Hadoop 3.5.0 writes numbers as
// numbers; the documented example (Jersey 1's mapped notation) quotes
// them, which package rm decodes too.
func q(n int64) int64 { return n }

// listReservations is RMWebServices.listReservation over
// ClientRMService.listReservations: queue (default "default") must be a
// plan queue, else 400; reservation-id selects one; otherwise the
// reservations ending after start-time and starting before end-time
// (unbounded when -1). As Hadoop 3.5.0 writes it: numbers unquoted, the
// reservations and their requests always as arrays, {} when there is none
// (the documented example writes a single one as a bare object).
func (s *Server) listReservations(w http.ResponseWriter, r *http.Request) {
	qs := r.URL.Query()
	queue := qs.Get("queue")
	if queue == "" {
		queue = "default"
	}
	start, _ := strconv.ParseInt(qs.Get("start-time"), 10, 64)
	end := int64(-1)
	if v := qs.Get("end-time"); v != "" {
		end, _ = strconv.ParseInt(v, 10, 64)
	}
	if end <= -1 {
		end = 1<<63 - 1
	}
	allocs := qs.Get("include-resource-allocations") == "true"
	id := qs.Get("reservation-id")

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg.PlanQueue == "" {
		badRequest(w, reservationOff)
		return
	}
	if queue != s.cfg.PlanQueue {
		badRequest(w, "The specified queue: "+queue+" is not managed by reservation system. Please try again with a valid reservable queue.")
		return
	}
	var out []any
	for _, rid := range s.resOrder {
		res := s.res[rid]
		if id != "" && rid != id {
			continue
		}
		if id == "" && (res.def.Deadline <= start || res.def.Arrival >= end) {
			continue
		}
		var reqs []any
		for _, rq := range res.def.Requests.Request {
			reqs = append(reqs, map[string]any{
				"capability":      map[string]any{"memory": q(rq.Capability.Memory), "vCores": q(rq.Capability.VCores)},
				"min-concurrency": q(rq.MinConcurrency),
				"num-containers":  q(rq.NumContainers),
				"duration":        q(rq.Duration),
			})
		}
		var reqJSON any = reqs
		entry := map[string]any{
			"acceptance-time": q(res.accepted),
			"user":            res.user,
			"reservation-id":  rid,
			"reservation-definition": map[string]any{
				"arrival":  q(res.def.Arrival),
				"deadline": q(res.def.Deadline),
				"reservation-requests": map[string]any{
					"reservation-request-interpreter": q(int64(res.def.Requests.Interpreter)),
					"reservation-request":             reqJSON,
				},
				"reservation-name": res.def.Name,
			},
		}
		if allocs {
			first := res.def.Requests.Request[0]
			waves := (first.NumContainers + max(first.MinConcurrency, 1) - 1) / max(first.MinConcurrency, 1)
			entry["resource-allocations"] = []any{map[string]any{
				"resource": map[string]any{
					"memory": q(first.Capability.Memory * first.MinConcurrency),
					"vCores": q(first.Capability.VCores * first.MinConcurrency),
				},
				"startTime": q(res.def.Arrival),
				"endTime":   q(res.def.Arrival + waves*first.Duration),
			}}
		}
		out = append(out, entry)
	}
	if len(out) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"reservations": out})
}
