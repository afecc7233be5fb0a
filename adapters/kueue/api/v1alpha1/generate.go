package v1alpha1

// controller-gen writes this package's deepcopy, the CRD (config/crd) and
// the manager's ClusterRole from package deadlinecheck's RBAC markers
// (config/rbac/role.yaml). Run go generate ./... in adapters/kueue; the
// version is pinned here and in ControllerGen.
//
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 object paths=./
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 crd:allowDangerousTypes=true paths=./ output:crd:dir=../../config/crd
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 rbac:roleName=schedkit-deadline paths=../../deadlinecheck output:rbac:dir=../../config/rbac

// ControllerGen is the controller-tools module and version the go:generate
// lines above run; TestGeneratedFilesUpToDate checks that what it writes
// from this module's types is the files in the tree.
const ControllerGen = "sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0"
