package rmtest

import (
	"encoding/xml"
	"net/http"
	"slices"
	"strings"
)

// getNodes is RMWebServices.getNodes: {"nodes":{"node":[…]}} filtered by
// the states parameter (NodeState names, any case), {"nodes":null} when
// none match.
func (s *Server) getNodes(w http.ResponseWriter, r *http.Request) {
	var states []string
	for _, v := range r.URL.Query()["states"] {
		for _, st := range strings.Split(v, ",") {
			if st = strings.ToUpper(strings.TrimSpace(st)); st != "" {
				states = append(states, st)
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []any
	for _, n := range s.nodes {
		if len(states) > 0 && !slices.Contains(states, n.State) {
			continue
		}
		out = append(out, map[string]any{
			"rack":                  n.Rack,
			"state":                 n.State,
			"id":                    n.ID,
			"nodeHostName":          n.Host,
			"nodeHTTPAddress":       n.Host + ":8042",
			"healthStatus":          n.HealthStatus,
			"lastHealthUpdate":      1324056895432,
			"healthReport":          n.HealthNotes,
			"numContainers":         n.NumContainers,
			"usedMemoryMB":          n.UsedMB,
			"availMemoryMB":         n.AvailMB,
			"usedVirtualCores":      n.UsedVCores,
			"availableVirtualCores": n.AvailVCores,
		})
	}
	if len(out) == 0 {
		writeJSON(w, http.StatusOK, map[string]any{"nodes": nil})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"nodes": map[string]any{"node": out}})
}

// getMetrics is RMWebServices.getClusterMetricsInfo, summed from the apps
// and nodes held.
func (s *Server) getMetrics(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string]int64{}
	for _, id := range s.order {
		a := s.apps[id]
		m["appsSubmitted"]++
		switch a.State {
		case "FINISHED":
			m["appsCompleted"]++
		case "FAILED":
			m["appsFailed"]++
		case "KILLED":
			m["appsKilled"]++
		case "RUNNING":
			m["appsRunning"]++
		default:
			m["appsPending"]++
		}
		if !completed(a.State) {
			m["containersAllocated"] += a.RunningContainers
		}
	}
	for _, n := range s.nodes {
		m["totalNodes"]++
		if n.State != "RUNNING" {
			continue
		}
		m["activeNodes"]++
		m["availableMB"] += n.AvailMB
		m["allocatedMB"] += n.UsedMB
		m["totalMB"] += n.AvailMB + n.UsedMB
		m["availableVirtualCores"] += n.AvailVCores
		m["allocatedVirtualCores"] += n.UsedVCores
		m["totalVirtualCores"] += n.AvailVCores + n.UsedVCores
	}
	for _, k := range []string{"appsSubmitted", "appsCompleted", "appsPending", "appsRunning", "appsFailed",
		"appsKilled", "reservedMB", "availableMB", "allocatedMB", "totalMB", "reservedVirtualCores",
		"availableVirtualCores", "allocatedVirtualCores", "totalVirtualCores", "containersAllocated",
		"containersReserved", "containersPending", "totalNodes", "activeNodes", "lostNodes",
		"unhealthyNodes", "decommissioningNodes", "decommissionedNodes", "rebootedNodes", "shutdownNodes"} {
		m[k] += 0
	}
	writeJSON(w, http.StatusOK, map[string]any{"clusterMetrics": m})
}

// getScheduler is RMWebServices.getSchedulerInfo, shaped like the
// documented example of the configured scheduler (queues abridged to the
// configured leaf queues under root).
func (s *Server) getScheduler(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var info map[string]any
	switch s.cfg.Scheduler {
	case "fifoScheduler":
		info = map[string]any{
			"type": "fifoScheduler", "capacity": 1, "usedCapacity": "NaN", "qstate": "RUNNING",
			"minQueueMemoryCapacity": 1024, "maxQueueMemoryCapacity": 10240,
			"numNodes": len(s.nodes), "usedNodeCapacity": 0, "availNodeCapacity": 0,
			"totalNodeCapacity": 0, "numContainers": 0,
		}
	case "fairScheduler":
		var children []any
		for _, q := range s.cfg.Queues {
			children = append(children, map[string]any{"queueName": "root." + q, "type": "fairSchedulerLeafQueueInfo", "schedulingPolicy": "fair"})
		}
		info = map[string]any{"type": "fairScheduler", "rootQueue": map[string]any{
			"queueName": "root", "schedulingPolicy": "fair", "childQueues": map[string]any{"queue": children},
		}}
	default:
		var children []any
		for _, q := range s.cfg.Queues {
			children = append(children, map[string]any{"queueName": q, "queuePath": fullQueue(q), "type": "capacitySchedulerLeafQueueInfo", "state": "RUNNING"})
		}
		if s.cfg.PlanQueue != "" && !slices.Contains(s.cfg.Queues, s.cfg.PlanQueue) {
			children = append(children, map[string]any{"queueName": s.cfg.PlanQueue, "queuePath": fullQueue(s.cfg.PlanQueue),
				"state": "RUNNING", "queues": map[string]any{"queue": s.reservationQueues()}})
		}
		info = map[string]any{
			"type": "capacityScheduler", "capacity": 100.0, "usedCapacity": 0.0, "maxCapacity": 100.0,
			"queueName": "root", "queues": map[string]any{"queue": children},
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"scheduler": map[string]any{"schedulerInfo": info}})
}

// reservationQueues lists the plan queue's children as Hadoop 3.5.0's
// Capacity Scheduler reports them: one leaf queue per live reservation
// (the plan follower's), named by its ID, with its capacity in percent of
// the plan (the containers it holds now, at most the plan's); and its
// minimum effective resource, which is 0 MB until a node resource write
// after the reservation was made — the RM computes a reservation queue's
// effective resources only when the cluster's resource changes
// (CapacityScheduler.updateNodeAndQueueResource; AbstractAutoCreatedLeafQueue
// .setEntitlement does not). The caller holds s.mu.
func (s *Server) reservationQueues() []any {
	now := s.cfg.Now().UnixMilli()
	var out []any
	for _, id := range s.resOrder {
		r := s.res[id]
		path := s.reservationQueue(id)
		if path == "" {
			continue
		}
		var containers, mb int64
		for _, q := range r.def.Requests.Request {
			if now < r.def.Arrival+q.Duration {
				containers += q.NumContainers
				mb = max(mb, q.Capability.Memory)
			}
		}
		containers = min(containers, s.cfg.PlanContainers)
		eff := int64(0)
		if s.nodeWrites > r.gen {
			eff = containers * mb
		}
		out = append(out, map[string]any{"queueName": id, "queuePath": path, "type": "capacitySchedulerLeafQueueInfo",
			"state": "RUNNING", "capacity": 100 * float64(containers) / float64(s.cfg.PlanContainers),
			"minEffectiveCapacity": map[string]any{"memory": eff, "vCores": 0}})
	}
	return out
}

// setNodeResource is RMWebServices.updateNodeResource over AdminService
// .updateNodeResource: the node's total becomes the resource of the XML
// ResourceOptionInfo (its available part what is not used), every queue's
// effective resources are computed again, and the answer is the node's
// resource as it was when the request came (the update is an event the
// RM handles after answering). An unknown node is NotFoundException (404).
func (s *Server) setNodeResource(w http.ResponseWriter, id string, body []byte) {
	var in struct {
		Resource struct {
			Memory int64 `xml:"memory"`
			VCores int64 `xml:"vCores"`
		} `xml:"resource"`
		OverCommitTimeout int64 `xml:"overCommitTimeout"`
	}
	if err := xml.Unmarshal(body, &in); err != nil {
		badRequest(w, "cannot parse body: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.nodes, func(n Node) bool { return n.ID == id })
	if i < 0 {
		notFound(w, "nodeId, "+id+", is not found")
		return
	}
	n := &s.nodes[i]
	was := map[string]any{"memory": n.UsedMB + n.AvailMB, "vCores": n.UsedVCores + n.AvailVCores}
	n.AvailMB, n.AvailVCores = in.Resource.Memory-n.UsedMB, in.Resource.VCores-n.UsedVCores
	s.nodeWrites++
	writeJSON(w, http.StatusOK, map[string]any{"resourceInfo": was})
}
