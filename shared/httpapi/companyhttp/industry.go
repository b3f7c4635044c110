package companyhttp

import (
	"net/http"

	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/industry"
)

// IndustriesView is the answer of GET /v1/industries: the taxonomy that
// industry_groups, sub_industry and the industry filters use.
type IndustriesView struct {
	Industries []IndustryView `json:"industries"`
}

// IndustryView is one industry enum value with its sub-industries.
type IndustryView struct {
	Value         string        `json:"value"`
	Label         string        `json:"label"`
	SubIndustries []SubIndustry `json:"sub_industries"`
}

// SubIndustry is one PARENT/SUB value.
type SubIndustry struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// IndustryRoutes serves GET /v1/industries (family company, any plan): the industry
// enum and its sub-industries, from shared/industry, in listing order.
func IndustryRoutes() []httpapi.Route {
	view := IndustriesView{}
	for _, in := range industry.Taxonomy() {
		v := IndustryView{Value: in.Value, Label: in.Label, SubIndustries: make([]SubIndustry, 0, len(in.Subs))}
		for _, s := range in.Subs {
			v.SubIndustries = append(v.SubIndustries, SubIndustry{Value: s.Value, Label: s.Label})
		}
		view.Industries = append(view.Industries, v)
	}
	get := func(w http.ResponseWriter, r *http.Request) error {
		if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, view)
		return nil
	}
	return []httpapi.Route{{Method: "GET", Path: "/v1/industries", Family: httpapi.FamilyCompany, Handle: get}}
}
