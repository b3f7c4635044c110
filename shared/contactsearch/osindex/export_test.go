package osindex

import "github.com/firmoapi/firmo/shared/contactsearch"

// Wire is the _bulk source Put writes for d (before vector normalization), so the golden
// tests see the wire form of contact search's documents.
func Wire(d contactsearch.Document) any { return toDocument(d) }
