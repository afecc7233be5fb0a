// Package config embeds the example KubeSchedulerConfiguration, so that the
// tests schedule with exactly the profile the README shows.
package config

import _ "embed"

// SchedulerConfig is scheduler-config.yaml.
//
//go:embed scheduler-config.yaml
var SchedulerConfig []byte
