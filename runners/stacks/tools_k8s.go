package stacks

import "slices"

// The Kubernetes and Helm stacks' registry entries: helm_lint judges every
// chart, kubeconform every directory of manifests, given those manifests
// only (not the other YAML files beside them).
func init() {
	RegisterTool(StackTool{Name: "helm_lint", Stack: "helm", Markers: "a Chart.yaml"})
	RegisterTool(StackTool{Name: "kubeconform", Stack: "kubernetes",
		Markers: "a YAML file holding a Kubernetes object (apiVersion and kind), outside a Helm chart's templates/",
		Uses: func(r *RootView) Use {
			return Use{Markers: []string{"Kubernetes manifests"}, Files: slices.Clone(r.Evidence)}
		}})
}
