// Package datasetshttp serves the datasets family: segmentation (POST /v1/segment and
// its status) and append, over uploads read by shared/upload.
package datasetshttp

import (
	"context"
	"net/http"
	"strconv"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/segment"
	"github.com/firmoapi/firmo/shared/upload"
)

// Segmenter runs segmentations; segment.Service implements it.
type Segmenter interface {
	Submit(ctx context.Context, orgID string, req segment.Request) (segment.Submitted, error)
	Status(ctx context.Context, org account.Org, taskID string) (segment.Status, error)
}

// segmentParams are the parameters of POST /v1/segment besides the file.
var segmentParams = []string{"domains", "query_id", "domain_column", "max_segments"}

// segmentMaxBody bounds the request: the 1 MB file, the domains field and the
// multipart framing.
const segmentMaxBody = upload.DefaultMaxBytes + 1<<20

type segmentAPI struct {
	seg     Segmenter
	uploads *upload.Gate
}

// SegmentRoutes are segmentation (family datasets): POST /v1/segment and GET
// /v1/segment/status/{task_id}. Delivered companies are billed as company records
// (net-new per 90 days). uploads bounds the uploads parsed at once (nil: no bound).
func SegmentRoutes(s Segmenter, uploads *upload.Gate) []httpapi.Route {
	a := &segmentAPI{seg: s, uploads: uploads}
	const fam = httpapi.FamilyDatasets
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/segment", Family: fam, Handle: a.submit, MaxBody: segmentMaxBody},
		{Method: "GET", Path: "/v1/segment/status/{task_id}", Family: fam, Handle: a.status},
	}
}

func (a *segmentAPI) submit(w http.ResponseWriter, r *http.Request) error {
	f, err := readForm(r, segmentParams, fieldLimits{"domains": 1 << 20, "query_id": 64 << 10})
	if err != nil {
		return err
	}
	var req segment.Request
	if s, err := f.string("max_segments"); err != nil {
		return err
	} else if s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return apperr.Invalid("max_segments", "max_segments must be an integer, not %q", s)
		}
		if n < segment.MinSegments || n > segment.MaxSegments {
			return apperr.Invalid("max_segments", "max_segments must be between %d and %d, not %d", segment.MinSegments, segment.MaxSegments, n)
		}
		req.MaxSegments = n
	}
	column, err := f.string("domain_column")
	if err != nil {
		return err
	}
	if f.file != nil {
		if req.File, err = domainValues(r.Context(), a.uploads, f, column); err != nil {
			return err
		}
		if req.File == nil {
			req.File = []string{}
		}
	} else if column != "" {
		return apperr.Invalid("domain_column", "domain_column names a column of the uploaded file; attach the file as the multipart part named file")
	}
	req.Domains, req.QueryIDs = f.list("domains"), f.list("query_id")
	if f.file == nil && len(req.Domains) == 0 && len(req.QueryIDs) == 0 {
		return apperr.Invalid("domains", "give the domains to segment: a file (multipart part file), domains (comma-separated) and/or query_id")
	}
	sub, err := a.seg.Submit(r.Context(), httpapi.Caller(r).Org.ID, req)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusAccepted, sub)
	return nil
}

func (a *segmentAPI) status(w http.ResponseWriter, r *http.Request) error {
	ref, p, err := httpapi.TaskRefPage(r)
	if err != nil {
		return err
	}
	st, err := a.seg.Status(r.Context(), httpapi.Caller(r).Org, ref.TaskID)
	if err != nil {
		return err
	}
	httpapi.SetCreditsCharged(w, st.Credits)
	httpapi.WriteJSON(w, http.StatusOK, st.Paged(p))
	return nil
}
