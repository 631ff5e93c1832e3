// Package denywebhook is the admission webhook the end-to-end tests register:
// it denies an object labelled DenyLabel=true and allows any other. The
// tunnel tests serve it from the test process; the real-node test runs it in
// a pod (denywebhookd), so both judge requests with the same code.
package denywebhook

import (
	"encoding/json"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DenyLabel set to "true" on an object makes the webhook deny it.
const DenyLabel = "e2e.konnectivity.io/deny"

// DenyMessage is the reason a denied request carries back to the client.
const DenyMessage = "e2e webhook denies objects labelled " + DenyLabel

// Validate answers one AdmissionReview posted to the webhook.
func Validate(rw http.ResponseWriter, r *http.Request) {
	var review admissionv1.AdmissionReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
		http.Error(rw, "bad admission review", http.StatusBadRequest)
		return
	}
	var obj metav1.PartialObjectMetadata
	_ = json.Unmarshal(review.Request.Object.Raw, &obj)
	resp := &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: true}
	if obj.Labels[DenyLabel] == "true" {
		resp.Allowed = false
		resp.Result = &metav1.Status{Code: http.StatusForbidden, Message: DenyMessage}
	}
	review.Response, review.Request = resp, nil
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(review)
}
