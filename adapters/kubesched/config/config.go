// Package config embeds the example KubeSchedulerConfiguration and
// workloads, so that the tests use exactly what the README shows.
package config

import _ "embed"

// SchedulerConfig is manager/scheduler-config.yaml, the profile of the
// ConfigMap config/default installs.
//
//go:embed manager/scheduler-config.yaml
var SchedulerConfig []byte

// ExampleJobs is example-jobs.yaml.
//
//go:embed example-jobs.yaml
var ExampleJobs []byte
