package replay

import "fmt"

// Namespace is where the replay's Jobs go; LocalQueue their queue.
const (
	Namespace  = "replay"
	LocalQueue = "lq"
	queueName  = "replay"
)

// queueYAML is the replay's Kueue setup on a cluster of cpus CPUs: a
// ClusterQueue whose nominal quota is the nodes' capacity (Kueue's default
// BestEffortFIFO), behind the check named checkName for every
// configuration but stock (the schedkit.io/deadline check, or for instant
// one that the replay answers), with its LocalQueue in the replay's
// namespace. Every Job carries
// schedkit.io/runtime, so the DeadlineParameters' one job type is never
// used.
func queueYAML(cpus int, c Config) string {
	y := fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: %[1]s
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: default-flavor
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: %[2]s
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: %[3]d
      - name: memory
        nominalQuota: %[4]dGi
`, Namespace, queueName, cpus, 4*cpus)
	if c != Stock {
		y += `  admissionChecksStrategy:
    admissionChecks:
    - name: deadline
`
	}
	if c == Instant {
		y += `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata:
  name: deadline
spec:
  controllerName: ` + instantController + `
`
	} else if c != Stock {
		y += `---
apiVersion: schedkit.io/v1alpha1
kind: DeadlineParameters
metadata:
  name: replay-models
spec:
  jobTypes:
  - name: unused
    lognormal:
      meanSeconds: 60
      stdDevSeconds: 6
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata:
  name: deadline
spec:
  controllerName: schedkit.io/deadline
  parameters:
    apiGroup: schedkit.io
    kind: DeadlineParameters
    name: replay-models
`
	}
	return y + fmt.Sprintf(`---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  namespace: %s
  name: %s
spec:
  clusterQueue: %s
`, Namespace, LocalQueue, queueName)
}
