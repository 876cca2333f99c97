// Package sdktest checks the request bodies promptfmt writes against the
// providers' official Go SDKs: every body decodes into the SDK's request
// type and encodes back to the same JSON, so no member is unknown to the
// SDK or of a type it does not take (the SDKs drop both silently when they
// decode). It is a module of its own so that promptfmt's go.mod does not
// carry the SDKs; .ci/run runs it.
package sdktest
