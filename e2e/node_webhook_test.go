//go:build e2e

package e2e

import (
	"context"
	"crypto/x509"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// restrictedUIDPolicy stands in for OpenShift's SCC admission, which gives a
// pod that asks for runAsNonRoot without a UID the first UID of its
// namespace's range (restricted-v2). A vanilla apiserver has no SCCs, and
// the kubelet refuses to start a runAsNonRoot container whose image runs as
// root (a FROM scratch image has no user), so without this the rendered
// agent could never start here. It changes nothing else. %[1]s is the API
// version the pair's kube-apiserver serves it at (uidPolicyVersion).
const restrictedUIDPolicy = `apiVersion: admissionregistration.k8s.io/%[1]s
kind: MutatingAdmissionPolicy
metadata:
  name: e2e-restricted-v2-uid
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["pods"]
  matchConditions:
  - name: nonroot-without-uid
    expression: "has(object.spec.securityContext) && has(object.spec.securityContext.runAsNonRoot) && object.spec.securityContext.runAsNonRoot && !has(object.spec.securityContext.runAsUser)"
  failurePolicy: Fail
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{securityContext: Object.spec.securityContext{runAsUser: ` + restrictedUID + `}}}"
---
apiVersion: admissionregistration.k8s.io/%[1]s
kind: MutatingAdmissionPolicyBinding
metadata:
  name: e2e-restricted-v2-uid
spec:
  policyName: e2e-restricted-v2-uid
`

// kasPolicyFlags turn on MutatingAdmissionPolicy where it is beta and off
// by default (1.34, 1.35) for restrictedUIDPolicy.
var kasPolicyFlags = []string{"--feature-gates=MutatingAdmissionPolicy=true", "--runtime-config=admissionregistration.k8s.io/v1beta1=true"}

// installUIDPolicy creates restrictedUIDPolicy at API version version and
// waits until the apiserver applies it (a dry-run pod comes back with the
// UID), so no agent pod is admitted before it.
func installUIDPolicy(t *testing.T, a *apiserver, version string) {
	t.Helper()
	applyDocs(t, a, splitYAML(fmt.Appendf(nil, restrictedUIDPolicy, version)))
	probe := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "uid-policy-"}, Spec: corev1.PodSpec{
		SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true)},
		Containers:      []corev1.Container{{Name: "c", Image: pauseImage}}}}
	if _, err := eventually(startWait, 250*time.Millisecond, func() error {
		got, err := a.client.CoreV1().Pods("default").Create(context.Background(), probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			return err
		}
		if got.Spec.SecurityContext.RunAsUser == nil {
			return fmt.Errorf("the policy has not set runAsUser yet")
		}
		return nil
	}); err != nil {
		t.Fatalf("restricted-v2 UID policy: %v", err)
	}
}

// deployWebhook runs the webhook as a Deployment behind a Service in the pod
// network and registers it (Service-referenced, failing closed) for
// ConfigMaps in the target namespace.
func deployWebhook(t *testing.T, a *apiserver) {
	t.Helper()
	ctx := context.Background()
	c := a.client
	ca := newTestCA(t, "e2e-webhook-ca")
	crt, key := ca.leaf(t, "e2e-webhook", x509.ExtKeyUsageServerAuth, webhookSvc+"."+webhookNS+".svc")
	labels := map[string]string{"app": "e2e-webhook"}
	must := func(what string, err error) {
		if err != nil {
			t.Fatalf("create %s: %v", what, err)
		}
	}
	_, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: webhookNS}}, metav1.CreateOptions{})
	must("webhook namespace", err)
	_, err = c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: targetNS,
		Labels: map[string]string{"e2e.konnectivity.io/webhook": "on"}}}, metav1.CreateOptions{})
	must("target namespace", err)
	_, err = c.CoreV1().Secrets(webhookNS).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "e2e-webhook-tls"},
		Type: corev1.SecretTypeTLS, Data: map[string][]byte{"tls.crt": crt, "tls.key": key}}, metav1.CreateOptions{})
	must("webhook serving Secret", err)
	https := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(webhookPort), Scheme: corev1.URISchemeHTTPS}}
	_, err = c.AppsV1().Deployments(webhookNS).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-webhook"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					AutomountServiceAccountToken: ptr.To(false),
					SecurityContext:              &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](65534)},
					Tolerations:                  []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
					Containers: []corev1.Container{{
						Name: "webhook", Image: webhookImage,
						Ports:          []corev1.ContainerPort{{ContainerPort: webhookPort}},
						ReadinessProbe: &corev1.Probe{ProbeHandler: https, PeriodSeconds: 1},
						VolumeMounts:   []corev1.VolumeMount{{Name: "tls", MountPath: "/etc/webhook", ReadOnly: true}},
					}},
					Volumes: []corev1.Volume{{Name: "tls", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "e2e-webhook-tls"}}}},
				},
			},
		},
	}, metav1.CreateOptions{})
	must("webhook Deployment", err)
	_, err = c.CoreV1().Services(webhookNS).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: webhookSvc},
		Spec: corev1.ServiceSpec{Selector: labels,
			Ports: []corev1.ServicePort{{Name: "https", Port: 443, TargetPort: intstr.FromInt32(webhookPort)}}},
	}, metav1.CreateOptions{})
	must("webhook Service", err)
	must("validating webhook configuration", createWebhookConfig(c, &webhook{caPEM: ca.certPEM}))
}
