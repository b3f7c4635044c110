package ossearch_test

import (
	"testing"

	"github.com/firmoapi/firmo/shared/awsiam"
	"github.com/firmoapi/firmo/shared/contactsearch/ossearch"
)

// TestIAMActions keeps the IAM actions the package lists equal to what its source calls.
func TestIAMActions(t *testing.T) {
	awsiam.Check(t, ".", ossearch.IAMActions, nil)
}
