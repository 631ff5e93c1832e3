//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// createServiceBackend gives the selector-less Service ns/svc its one
// backend, ip:port, as a cluster's endpoint controllers would: an
// EndpointSlice and the Endpoints. Both, because a kube-apiserver with
// --enable-aggregator-routing resolves a webhook's Service through one or
// the other by release: 1.27 reads Endpoints (without them a call fails
// with `endpoints "NAME" not found`), newer ones EndpointSlices.
func createServiceBackend(c kubernetes.Interface, ns, svc, ip string, port int32) error {
	ctx := context.Background()
	addrType := discoveryv1.AddressTypeIPv4
	if net.ParseIP(ip).To4() == nil {
		addrType = discoveryv1.AddressTypeIPv6
	}
	ready, name, proto := true, "https", corev1.ProtocolTCP
	_, err := c.DiscoveryV1().EndpointSlices(ns).Create(ctx, &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: svc + "-pod", Labels: map[string]string{discoveryv1.LabelServiceName: svc}},
		AddressType: addrType,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{ip}, Conditions: discoveryv1.EndpointConditions{Ready: &ready}}},
		Ports:       []discoveryv1.EndpointPort{{Name: &name, Port: &port, Protocol: &proto}},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("endpointslice %s/%s: %w", ns, svc, err)
	}
	// The one line every deprecated type of the Endpoints API is on.
	//lint:ignore SA1019 a 1.27 kube-apiserver resolves a webhook's Service through Endpoints only
	ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: svc}, Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: ip}}, Ports: []corev1.EndpointPort{{Name: name, Port: port, Protocol: proto}}}}}
	if _, err := c.CoreV1().Endpoints(ns).Create(ctx, ep, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("endpoints %s/%s: %w", ns, svc, err)
	}
	return nil
}
