package rmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// newApplication is RMWebServices.createNewApplication:
// {"application-id":"application_<cluster timestamp>_<seq>", the sequence
// zero-padded to 4 digits, and the largest container the scheduler grants
// (yarn.scheduler.maximum-allocation-mb and -vcores, defaults 8192 and 4)}.
func (s *Server) newApplication(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appSeq++
	writeJSON(w, http.StatusOK, map[string]any{
		"application-id":              fmt.Sprintf("application_%d_%04d", s.cfg.ClusterTimestamp, s.appSeq),
		"maximum-resource-capability": map[string]any{"memory": 8192, "vCores": 4},
	})
}

// submitApp is RMWebServices.submitApplication over
// ClientRMService.submitApplication: 202 Accepted with no body, and the
// app enters ACCEPTED (scheduling is not simulated: it stays there until
// a test moves it on). Its tags are stored lower-cased and sorted, as the
// RM lists them; its priority is capped as a priority write is. An app
// submitted to a queue that does not exist is accepted and then fails
// (CapacityScheduler.addApplication: "Application <id> submitted by user
// <user> to unknown queue: <queue>"). An ID submitted again is ignored.
func (s *Server) submitApp(w http.ResponseWriter, r *http.Request, body []byte) {
	var in struct {
		ID       string `json:"application-id"`
		Name     string `json:"application-name"`
		Queue    string `json:"queue"`
		Priority int64  `json:"priority"`
		Type     string `json:"application-type"`
		Tags     struct {
			Tag json.RawMessage `json:"tag"`
		} `json:"application-tags"`
	}
	if !decode(w, body, &in) {
		return
	}
	if !strings.HasPrefix(in.ID, "application_") {
		badRequest(w, "Invalid ApplicationId prefix: "+in.ID+". The valid ApplicationId should start with prefix application")
		return
	}
	var tags []string
	if len(in.Tags.Tag) > 0 && string(in.Tags.Tag) != "null" {
		if err := json.Unmarshal(in.Tags.Tag, &tags); err != nil {
			var one string
			if json.Unmarshal(in.Tags.Tag, &one) != nil {
				badRequest(w, "cannot parse application-tags")
				return
			}
			tags = []string{one}
		}
	}
	for i := range tags {
		tags[i] = strings.ToLower(strings.TrimSpace(tags[i]))
	}
	slices.Sort(tags)
	tags = slices.Compact(tags)
	user := caller(r)
	if in.Queue == "" {
		in.Queue = "default"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.apps[in.ID]; ok {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	a := &App{ID: in.ID, User: user, Name: in.Name, State: "ACCEPTED", FinalStatus: "UNDEFINED", Type: in.Type,
		Tags: tags, StartedTime: s.cfg.Now().UnixMilli()}
	if q, ok := s.resolveQueue(in.Queue); ok {
		a.Queue = q
		if s.cfg.Scheduler == "capacityScheduler" {
			a.Priority = min(in.Priority, s.cfg.MaxPriority)
		}
	} else {
		a.Queue = in.Queue
		a.State, a.FinalStatus = "FAILED", "FAILED"
		a.FinishedTime = a.StartedTime
		a.Diagnostics = "Application " + in.ID + " submitted by user " + user + " to unknown queue: " + in.Queue
	}
	s.apps[in.ID] = a
	s.order = append(s.order, in.ID)
	w.WriteHeader(http.StatusAccepted)
}

// SetState moves an application to a state, as its ApplicationMaster and
// the scheduler would: RUNNING with the given running containers, or a
// final state with its final status.
func (s *Server) SetState(id, state string, containers int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.apps[id]
	if !ok {
		return false
	}
	a.State = state
	switch state {
	case "RUNNING":
		a.RunningContainers = containers
	case "FINISHED":
		a.FinalStatus, a.Progress = "SUCCEEDED", 100
		a.FinishedTime = s.cfg.Now().UnixMilli()
	case "FAILED", "KILLED":
		a.FinalStatus = state
		a.FinishedTime = s.cfg.Now().UnixMilli()
	}
	return true
}
