package contactsapp

import (
	"context"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/httpapi/contacthttp"
)

// unwiredSearch answers contact search in a deployment without a contact index: a
// request is still checked (422 naming the parameter), then answered with
// errNoContactIndex, which tells the operator what to set.
type unwiredSearch struct{}

var _ contacthttp.ContactService = unwiredSearch{}

var errNoContactIndex = &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Contact search is not configured in this deployment: set FIRMO_OPENSEARCH_URL (template parameter OpenSearchEndpoint) to an OpenSearch cluster holding the contacts index."}

func (unwiredSearch) Discover(_ context.Context, _ contactsearch.Caller, p contactsearch.Params) (contactsearch.Response, int64, error) {
	if _, err := contactsearch.Validate(p); err != nil {
		return contactsearch.Response{}, 0, err
	}
	return contactsearch.Response{}, 0, errNoContactIndex
}

func (unwiredSearch) Count(_ context.Context, p contactsearch.Params) (int, error) {
	if _, err := contactsearch.Validate(p); err != nil {
		return 0, err
	}
	return 0, errNoContactIndex
}

func (unwiredSearch) Lookup(context.Context, int64, string, string) (contactsearch.LookupView, error) {
	return contactsearch.LookupView{}, errNoContactIndex
}
