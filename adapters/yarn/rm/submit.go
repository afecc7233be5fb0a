package rm

import (
	"context"
	"errors"
	"net/http"
)

// NewApplication is the answer of POST apps/new-application: an application
// ID to submit under and the largest container the cluster grants.
type NewApplication struct {
	ID                        String   `json:"application-id"`
	MaximumResourceCapability Resource `json:"maximum-resource-capability"`
}

// Entry is one key and value of the REST API's maps, which it writes as
// {"entry":[{"key":…,"value":…}]}.
type Entry[V any] struct {
	Key   string `json:"key"`
	Value V      `json:"value"`
}

// Entries is a map as the REST API writes one.
type Entries[V any] struct {
	Entry []Entry[V] `json:"entry"`
}

// LocalResource is a file the NodeManager copies into a container's working
// directory before starting it: its URL (file:// on a cluster whose
// default file system is local), type FILE or ARCHIVE, visibility
// APPLICATION, PRIVATE or PUBLIC, and its exact size and modification time
// in milliseconds, which the NodeManager checks.
type LocalResource struct {
	Resource   string `json:"resource"`
	Type       string `json:"type"`
	Visibility string `json:"visibility"`
	Size       int64  `json:"size"`
	Timestamp  int64  `json:"timestamp"`
}

// ContainerLaunchContext is how the ApplicationMaster's container starts:
// its command, environment and local resources, and the app's ACLs:
// entries VIEW_APP and MODIFY_APP, each a list of users (the owner,
// yarn.admin.acl and the queue's acl_administer_queue have both anyway).
type ContainerLaunchContext struct {
	ACLs           *Entries[string]       `json:"application-acls,omitempty"`
	LocalResources Entries[LocalResource] `json:"local-resources"`
	Environment    Entries[string]        `json:"environment"`
	Commands       struct {
		Command string `json:"command"`
	} `json:"commands"`
}

// ApplicationSubmission is the body of POST apps (ResourceManagerRest.md,
// "Cluster Applications API(Submit Application)").
type ApplicationSubmission struct {
	ID          string                 `json:"application-id"`
	Name        string                 `json:"application-name"`
	Queue       string                 `json:"queue"`
	Priority    int64                  `json:"priority"`
	AM          ContainerLaunchContext `json:"am-container-spec"`
	Unmanaged   bool                   `json:"unmanaged-AM"`
	MaxAttempts int                    `json:"max-app-attempts"`
	// Resource is the ApplicationMaster container's size.
	Resource Resource `json:"resource"`
	Type     string   `json:"application-type"`
	Tags     struct {
		Tag []string `json:"tag"`
	} `json:"application-tags"`
}

// NewApplication obtains an application ID (POST apps/new-application).
func (c *Client) NewApplication(ctx context.Context) (NewApplication, error) {
	var out NewApplication
	if _, err := c.do(ctx, request{method: http.MethodPost, path: "/ws/v1/cluster/apps/new-application"}, &out); err != nil {
		return NewApplication{}, err
	}
	if out.ID == "" {
		return NewApplication{}, errors.New("rm: POST /ws/v1/cluster/apps/new-application: answer has no application-id")
	}
	return out, nil
}

// SubmitApplication submits an application under an ID from NewApplication
// (POST apps); the RM answers 202 Accepted and the app starts in state
// NEW. Submitting the same ID again is a no-op on the RM.
func (c *Client) SubmitApplication(ctx context.Context, s ApplicationSubmission) error {
	if s.ID == "" {
		return errors.New("rm: SubmitApplication: empty application ID")
	}
	_, err := c.do(ctx, request{method: http.MethodPost, path: "/ws/v1/cluster/apps", body: s}, nil)
	return err
}
