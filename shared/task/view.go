package task

import (
	"encoding/json"
	"math"
	"sort"
	"time"
)

// view assembles the status answer from the task, its rows and the spend of its
// attempts. Warnings and progress are computed from the rows rather than kept in
// counters: each row is written once, so the sums count each record once. Costs sum
// every attempt's spend, the attempts whose row never came included (see costs).
func view(t Task, rows []rowDoc, spends []spendDoc) View {
	v := View{
		TaskID: t.TaskID, ColumnName: t.ColumnName, Status: t.Status, TotalDomains: t.totalDomains(),
		ResponseFormat: t.ResponseFormat, TitleValidation: t.TitleValidation, Error: t.Error,
	}
	results := make(map[string]json.RawMessage, len(rows))
	for _, r := range rows {
		results[r.Key] = r.Cells
	}
	if t.Status.Terminal() {
		v.Results = results
	} else {
		v.InterimResults = results
	}
	v.Progress = progress(len(rows), t.Total)
	if t.Status == StatusCompleted {
		v.Progress = 100
	}
	v.Warnings = warnings(t, rows)
	for _, r := range rows {
		if len(r.Usage) > 0 || len(r.Search) > 0 || r.ExtraCost != 0 {
			spends = append(spends, spendDoc{Key: r.Key, Usage: r.Usage, Search: r.Search, ExtraCost: r.ExtraCost})
		}
	}
	v.CostMetadata, v.EstimatedCost = costs(spends)
	return v
}

// totalDomains is total_domains: the records sent, duplicates included. A task stored
// before Sent was kept shows its merged count.
func (t Task) totalDomains() int {
	if t.Sent > 0 {
		return t.Sent
	}
	return t.Total
}

// progress is the finished share in whole percent, rounded down so that 100 means all.
func progress(done, total int) int {
	if total <= 0 {
		return 0
	}
	if done >= total {
		return 100
	}
	return done * 100 / total
}

// warnings deduplicates by message, keeps each message's most recent occurrence, and
// returns the maxWarnings most recent, oldest first.
func warnings(t Task, rows []rowDoc) []string {
	last := map[string]time.Time{}
	note := func(msg string, at time.Time) {
		if prev, ok := last[msg]; !ok || at.After(prev) {
			last[msg] = at
		}
	}
	for _, w := range t.Warnings {
		note(w.Message, w.At)
	}
	for _, r := range rows {
		for _, w := range r.Warnings {
			note(w, time.UnixMilli(r.At))
		}
	}
	out := make([]string, 0, len(last))
	for msg := range last {
		out = append(out, msg)
	}
	sort.Slice(out, func(i, j int) bool {
		if !last[out[i]].Equal(last[out[j]]) {
			return last[out[i]].Before(last[out[j]])
		}
		return out[i] < out[j]
	})
	if len(out) > maxWarnings {
		out = out[len(out)-maxWarnings:]
	}
	return out
}

type modelCost struct {
	Calls            int     `json:"calls"`
	SearchCalls      int     `json:"search_calls"`
	PromptTokens     *int64  `json:"prompt_tokens,omitempty"`
	CompletionTokens *int64  `json:"completion_tokens,omitempty"`
	CostUSD          float64 `json:"est_cost_usd"`
}

// costs sums the attempts' spend into cost_metadata (one entry per provider/model,
// plus search_provider) and estimated_cost (everything, including spend without an
// entry). It is what was spent on the customer's keys: a record retried, or redone
// after a crash cut its run short, counts the calls of every run.
func costs(spends []spendDoc) (map[string]any, float64) {
	meta := map[string]any{}
	models := map[string]*modelCost{}
	var search *SearchUsage
	total := 0.0
	for _, r := range spends {
		total += r.ExtraCost
		for _, u := range r.Usage {
			k := u.Provider + "/" + u.Model
			m := models[k]
			if m == nil {
				m = &modelCost{}
				models[k] = m
				meta[k] = m
			}
			m.Calls += u.Calls
			m.SearchCalls += u.SearchCalls
			m.PromptTokens = addTokens(m.PromptTokens, u.PromptTokens)
			m.CompletionTokens = addTokens(m.CompletionTokens, u.CompletionTokens)
			m.CostUSD += u.CostUSD
			total += u.CostUSD
		}
		for _, s := range r.Search {
			if search == nil {
				search = &SearchUsage{Provider: s.Provider, Model: s.Model}
				meta["search_provider"] = search
			}
			search.QueriesExecuted += s.QueriesExecuted
			search.QueriesSucceeded += s.QueriesSucceeded
			search.CostUSD += s.CostUSD
			total += s.CostUSD
		}
	}
	for _, m := range models {
		m.CostUSD = round6(m.CostUSD)
	}
	if search != nil {
		search.CostUSD = round6(search.CostUSD)
	}
	return meta, round6(total)
}

// addTokens keeps a count absent until some call reports it.
func addTokens(sum, n *int64) *int64 {
	if n == nil {
		return sum
	}
	v := *n
	if sum != nil {
		v += *sum
	}
	return &v
}

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }
