package client

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/client/api"
)

// TestTypesAgreeWithTheGenerated holds each request and response type written in this
// package to its counterpart that oapi-codegen generated from the API reference
// (package api): every JSON field it has is a field of the generated type, of a
// compatible Go type (the same kind once pointers are followed; a string for an enum,
// a date or a time; any integer for an integer; a list or a value for a "list or one
// value" union; anything for an any), nested types alike.
func TestTypesAgreeWithTheGenerated(t *testing.T) {
	pairs := []struct{ hand, gen any }{
		{Account{}, api.Account{}},
		{BulkMatchStatus{}, api.BulkMatchStatus{}},
		{CRMConnection{}, api.CRMConnection{}},
		{CertificateRecord{}, api.CertificateRecord{}},
		{CompanyEntry{}, api.CompanyEntry{}},
		{CompanyProfile{}, api.CompanyProfile{}},
		{Contact{}, api.Contact{}},
		{ContactSearch{}, api.ContactSearch{}},
		{ContactSearch{}, api.GetContactsParams{}},
		{ContactFilters{}, api.GetContactsCountParams{}},
		{ContactSearchResult{}, api.ContactSearchResult{}},
		{EmailFindRequest{}, api.EmailFindRequest{}},
		{EmailBatchRequest{}, api.PostEmailFindBatchJSONBody{}},
		{ErrorInfo{}, api.GenerationTask_Error{}},
		{ExclusionListRequest{}, api.PostQueriesExclusionListJSONBody{}},
		{ExtractParams{}, api.GetExtractParams{}},
		{GenerateRequest{}, api.GenerateRequest{}},
		{GenerationTask{}, api.GenerationTask{}},
		{HistoryParams{}, api.GetHistoryParams{}},
		{Key{}, api.Key{}},
		{LLMIntegration{}, api.LLMIntegration{}},
		{LLMIntegrationRequest{}, api.PostLLMProvidersConfigJSONBody{}},
		{LLMIntegrationUpdate{}, api.PutLLMProvidersConfigByIntegrationIDJSONBody{}},
		{LLMConnectionTest{}, api.PostLLMProvidersTestConnectionJSONBody{}},
		{LoginRequest{}, api.PostAuthLoginJSONBody{}},
		{LookupParams{}, api.GetContactsLookupParams{}},
		{MatchAnswer{}, api.MatchAnswer{}},
		{MatchCandidate{}, api.MatchCandidate{}},
		{MatchParams{}, api.GetMatchParams{}},
		{PageParams{}, api.GetQueriesSavedParams{}},
		{ProcessPersonasRequest{}, api.ProcessPersonasRequest{}},
		{ProcessRequest{}, api.ProcessRequest{}},
		{QueryUpdate{}, api.PatchQueriesByQueryIDJSONBody{}},
		{ResponseFormat{}, api.ResponseFormat{}},
		{SavedQuery{}, api.SavedQuery{}},
		{SearchProvider{}, api.SearchProvider{}},
		{SearchProviderRequest{}, api.PostSearchProvidersJSONBody{}},
		{SegmentResultItem{}, api.SegmentResultItem{}},
		{SegmentStatus{}, api.SegmentStatus{}},
		{Usage{}, api.Usage{}},
		{UsageParams{}, api.GetAccountUsageParams{}},
		{UsageTotals{}, api.UsageTotals{}},
		{ValidateICPRequest{}, api.ValidateICPRequest{}},
	}
	for _, p := range pairs {
		h, g := reflect.TypeOf(p.hand), reflect.TypeOf(p.gen)
		for _, problem := range agree(h, g, h.Name()) {
			t.Errorf("%s against api.%s: %s", h.Name(), g.Name(), problem)
		}
	}
}

// TestAgreeFindsWhatDiffers: the check above is not blind.
func TestAgreeFindsWhatDiffers(t *testing.T) {
	type wrong struct {
		Domain   int               `json:"domain"`   // a string
		Nickname string            `json:"nickname"` // no such property
		Keywords map[string]string `json:"keywords"` // confidences
		Address  struct {
			City []string `json:"city"` // one city
		} `json:"address"`
	}
	got := agree(reflect.TypeOf(wrong{}), reflect.TypeOf(api.CompanyProfile{}), "wrong")
	if len(got) != 4 {
		t.Errorf("want 4 problems, got %d: %q", len(got), got)
	}
}

var timeType = reflect.TypeOf(time.Time{})

// agree lists where the hand-written type h does not fit the generated type g.
func agree(h, g reflect.Type, at string) []string {
	for h.Kind() == reflect.Pointer {
		h = h.Elem()
	}
	for g.Kind() == reflect.Pointer {
		g = g.Elem()
	}
	switch {
	case h.Kind() == reflect.Interface:
		return nil
	case isUnion(g):
		// "A list or one value": a Go list of the value, or the value.
		return nil
	case g == timeType:
		if h.Kind() == reflect.String || h == timeType {
			return nil
		}
	case h.Kind() == reflect.Struct && g.Kind() == reflect.Struct:
		gf := jsonFieldTypes(g)
		var out []string
		for name, hf := range jsonFieldTypes(h) {
			f, ok := gf[name]
			if !ok {
				out = append(out, at+"."+name+": no such property")
				continue
			}
			out = append(out, agree(hf, f, at+"."+name)...)
		}
		return out
	case h.Kind() == reflect.Slice && g.Kind() == reflect.Slice:
		if h.Elem().Kind() == reflect.Uint8 || g.Elem().Kind() == reflect.Uint8 {
			if h.Elem() == g.Elem() {
				return nil
			}
			break
		}
		return agree(h.Elem(), g.Elem(), at+"[]")
	case h.Kind() == reflect.Map && g.Kind() == reflect.Map:
		return agree(h.Elem(), g.Elem(), at+"{}")
	case isInt(h) && isInt(g), isFloat(h) && isFloat(g), h.Kind() == g.Kind() && h.Kind() != reflect.Struct:
		return nil
	}
	return []string{at + ": " + h.String() + " here, " + g.String() + " generated"}
}

func isUnion(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || t.NumField() != 1 {
		return false
	}
	f := t.Field(0)
	return f.Name == "union" && f.Type == reflect.TypeOf(api.ContactSearch_Domain{}).Field(0).Type
}

func isInt(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return true
	}
	return false
}

func isFloat(t reflect.Type) bool {
	return t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64
}

// jsonFieldTypes are a struct's fields by JSON name, embedded structs' included; "-" and
// unexported fields are not JSON fields.
func jsonFieldTypes(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			for k, v := range jsonFieldTypes(f.Type) {
				out[k] = v
			}
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
