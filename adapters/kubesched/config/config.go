// Package config embeds the example KubeSchedulerConfiguration and
// workloads, so that the tests use exactly what the README shows.
package config

import _ "embed"

// SchedulerConfig is scheduler-config.yaml.
//
//go:embed scheduler-config.yaml
var SchedulerConfig []byte

// ExampleJobs is example-jobs.yaml.
//
//go:embed example-jobs.yaml
var ExampleJobs []byte
