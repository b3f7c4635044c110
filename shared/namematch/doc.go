// Package namematch matches company names to companies: GET /v1/match (one name) and
// POST /v1/bulkmatch (a CSV of names, a task on the task engine).
//
// A match runs in three steps:
//
//  1. Normalize the name (Normalize): Unicode folding, punctuation, connectors ("&",
//     "and", "und", ...), initials, legal forms of many countries, and abbreviations
//     expanded (not in strict mode).
//  2. Ask the candidate index (the Index port: bleve embedded, OpenSearch on AWS) for
//     the companies whose names share words with it, exactly or within a few edits,
//     under the query's location filters. When a pass finds nothing at or above
//     min_match_confidence, the next pass clears one filter (see passes for the order,
//     and the strict and local_mode rules).
//  3. Score each candidate into match_confidence (see confidence.go): name similarity
//     (Similarity: weighted tokens and character trigrams), location agreement
//     (country, state as ISO 3166-2, city, zip), phone, and a prior from the company's
//     score. Matches below 50 are never returned.
//
// The index is derived from the company store and kept in step by Syncer (on start-up,
// and after seeding or ingesting). Measured accuracy is in ACCURACY.md, speed in
// BENCHMARKS.md.
package namematch
