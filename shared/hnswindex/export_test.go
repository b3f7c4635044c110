package hnswindex

import "github.com/firmoapi/firmo/shared/vector"

// Plan tells tests which way a filtered search would run.
func (x *Index) Plan(f vector.Filter) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.plan(f, 10)
}
