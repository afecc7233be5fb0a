package rmtest

import (
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
			children = append(children, map[string]any{"queueName": q, "type": "capacitySchedulerLeafQueueInfo", "state": "RUNNING"})
		}
		if s.cfg.PlanQueue != "" && !slices.Contains(s.cfg.Queues, s.cfg.PlanQueue) {
			children = append(children, map[string]any{"queueName": s.cfg.PlanQueue, "state": "RUNNING"})
		}
		info = map[string]any{
			"type": "capacityScheduler", "capacity": 100.0, "usedCapacity": 0.0, "maxCapacity": 100.0,
			"queueName": "root", "queues": map[string]any{"queue": children},
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"scheduler": map[string]any{"schedulerInfo": info}})
}
