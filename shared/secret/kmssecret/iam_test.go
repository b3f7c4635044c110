package kmssecret_test

import (
	"testing"

	"github.com/firmoapi/firmo/shared/awsiam"
	"github.com/firmoapi/firmo/shared/secret/kmssecret"
)

// TestIAMActions keeps the IAM actions the package lists equal to what its source calls.
func TestIAMActions(t *testing.T) {
	awsiam.Check(t, ".", kmssecret.IAMActions, nil)
}
