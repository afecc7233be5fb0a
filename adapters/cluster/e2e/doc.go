// Package e2e holds the cluster tier of the adapters' tests (build tag
// e2e): each test starts a simulated batch cluster with ../up.sh — real
// etcd, kube-apiserver, kube-controller-manager, kube-scheduler, Kueue's
// manager, and schedkit-deadline and schedkit-scheduler installed from
// their kustomize manifests and run as their ServiceAccounts, on kwok's
// simulated nodes — and runs Jobs through it end to end. TestCluster runs
// the scenarios on one cluster; TestPlayground runs the README's
// playground steps as written. Run them with bash adapters/test-e2e.sh,
// which builds the components first; a component that does not start
// fails the test.
package e2e
